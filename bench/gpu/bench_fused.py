#!/usr/bin/env python3
"""GPU benchmark of the fused RMSNorm -> matmul (norm.rms_norm_matmul, bf16,
W in PyTorch's N x K layout) through --norm-lower-to-nvvm (the tensor-core
GEMM kernel), next to cuBLAS through PyTorch (torch.matmul alone) and
PyTorch's unfused RMSNorm + matmul, when PyTorch with CUDA is installed.

Shapes M x N x K: 4096^3 and 16 x 4096 x 4096. Same method as bench.py:
3 untimed launches, then --repeat timed ones with L2 flushed before each
(a buffer of twice the L2 size overwritten), GPU time from events around
each launch, median. TFLOP/s count 2·M·N·K.

Usage: bench_fused.py --norm-opt PATH --runner PATH --libs a.so,b.so
                      --out FILE [--chip sm_90] [--repeat N]
"""
import argparse
import datetime
import os
import platform
import re
import subprocess
import sys

from bench import gpu_name

SHAPES = [(4096, 4096, 4096), (16, 4096, 4096)]


def program(m, n, k, repeat, gemm_only=False, gamma=True):
    """The MLIR of one case: fill, warm up, time `repeat` launches. With
    `gemm_only`, the project's GEMM alone: linalg.matmul of the same bf16
    X and W (N x K) into an f32 C, lowered by --norm-lower-to-nvvm's
    lower-matmuls to the same kernel with no norm prologue. Without
    `gamma`, the fused op as --norm-fuse-matmul leaves it when γ is folded
    into a constant W (the form the sm_90a wgmma kernel takes); with
    `gamma="offset"`, no γ but weight_offset = 1 (the A tiles rewritten as
    round(2·x) without γ's loads from global memory); with
    `gamma="layer_norm"`, LayerNorm → matmul with γ and β (the sm_90a wgmma
    kernel's LayerNorm prologue: pivot, Σ(x − p), Σ(x − p)², the A tiles
    rewritten as round((x − p)·γ') and the column sums c = Σγ'W, Σβ·W);
    with `gamma="residual"`, RMSNorm → matmul with a residual R, γ and the
    sum S returned (a pre-norm block: the sm_90a wgmma kernel's residual
    prologue, R's tiles loaded beside A's, s = round(x + r) written to S
    and the A tiles rewritten as round(s·γ'))."""
    x = "memref<%dx%dxbf16>" % (m, k)
    g = "memref<%dxbf16>" % k
    w = "memref<%dx%dxbf16>" % (n, k)
    c = "memref<%dx%dx%s>" % (m, n, "f32" if gemm_only else "bf16")
    buffers = [("x", x), ("g", g), ("w", w), ("c", c), ("b", g)]
    if gamma == "residual":
        buffers += [("r", x), ("s", x)]
    lines = [
        "func.func private @bench_fill_bf16(memref<*xbf16>, i64) attributes {llvm.emit_c_interface}",
        "func.func private @bench_flush_l2()",
        "func.func private @bench_begin()",
        "func.func private @bench_sample()",
        "func.func private @bench_report(i64)",
        "func.func @main() {",
    ]
    # Device memory, allocated synchronously (see bench.py).
    for index, (name, ty) in enumerate(buffers):
        lines.append("  %%%s = gpu.alloc () : %s" % (name, ty))
        if "bf16" not in ty:
            continue  # the f32 C of the GEMM alone: contents do not matter
        lines += [
            "  %%%s_u = memref.cast %%%s : %s to memref<*xbf16>" % (name, name, ty),
            "  %%%s_seed = arith.constant %d : i64" % (name, 4321 + index),
            "  func.call @bench_fill_bf16(%%%s_u, %%%s_seed) : (memref<*xbf16>, i64) -> ()"
            % (name, name),
        ]
    if gemm_only:
        op = ("    linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, "
              "affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] "
              "ins(%%x, %%w : %s, %s) outs(%%c : %s)" % (x, w, c))
    elif gamma == "layer_norm":
        op = ("    norm.layer_norm_matmul ins(%%x : %s) weight(%%g : %s) bias(%%b : %s) "
              "rhs(%%w : %s) outs(%%c : %s) {transpose_rhs}" % (x, g, g, w, c))
    elif gamma == "residual":
        op = ("    norm.rms_norm_matmul ins(%%x : %s) residual(%%r : %s) "
              "weight(%%g : %s) rhs(%%w : %s) outs(%%c : %s) sum_outs(%%s : %s) "
              "{transpose_rhs}" % (x, x, g, w, c, x))
    elif gamma == "offset":
        op = ("    norm.rms_norm_matmul ins(%%x : %s) rhs(%%w : %s) outs(%%c : %s) "
              "{transpose_rhs, weight_offset = 1.0 : f32}" % (x, w, c))
    elif gamma:
        op = ("    norm.rms_norm_matmul ins(%%x : %s) weight(%%g : %s) rhs(%%w : %s) "
              "outs(%%c : %s) {transpose_rhs}" % (x, g, w, c))
    else:
        op = ("    norm.rms_norm_matmul ins(%%x : %s) rhs(%%w : %s) "
              "outs(%%c : %s) {transpose_rhs}" % (x, w, c))
    lines += [
        "  %c0 = arith.constant 0 : index",
        "  %c1 = arith.constant 1 : index",
        "  %warmup = arith.constant 3 : index",
        "  %%repeat = arith.constant %d : index" % repeat,
        "  scf.for %i = %c0 to %warmup step %c1 {",
        op,
        "  }",
        "  func.call @bench_begin() : () -> ()",
        "  scf.for %i = %c0 to %repeat step %c1 {",
        "    func.call @bench_flush_l2() : () -> ()",
        op,
        "    func.call @bench_sample() : () -> ()",
        "  }",
        "  %bytes = arith.constant 0 : i64",
        "  func.call @bench_report(%bytes) : (i64) -> ()",
        "  return",
        "}",
    ]
    return "\n".join(lines) + "\n"


def run_norm_mlir(args, m, n, k, options="", gemm_only=False, gamma=True):
    compiled = subprocess.run(
        [args.norm_opt, "-",
         "--norm-lower-to-nvvm=chip=%s%s" % (args.chip, options)],
        input=program(m, n, k, args.repeat, gemm_only, gamma), capture_output=True,
        text=True)
    if compiled.returncode != 0:
        return None, "norm-opt failed: " + compiled.stderr.strip()
    ran = subprocess.run(
        [args.runner, "-e", "main", "-entry-point-result=void",
         "-shared-libs=" + args.libs], input=compiled.stdout,
        capture_output=True, text=True)
    if ran.returncode != 0:
        return None, "run failed: " + (ran.stderr.strip() or ran.stdout.strip())
    found = re.search(r"median_us=([0-9.]+)", ran.stdout)
    return (float(found.group(1)), None) if found else (None, "no timing")


def run_torch(m, n, k, repeat):
    """Median µs of torch.matmul(x, w.T) and of RMSNorm + matmul, or None."""
    try:
        import torch
    except ImportError:
        return None, "PyTorch not installed"
    if not torch.cuda.is_available():
        return None, "PyTorch has no CUDA"
    dev = torch.device("cuda")
    gen = torch.Generator(device=dev).manual_seed(4321)
    x = (torch.rand(m, k, device=dev, generator=gen) * 2 - 0.5).bfloat16()
    g = (torch.rand(k, device=dev, generator=gen) * 2 - 0.5).bfloat16()
    w = (torch.rand(n, k, device=dev, generator=gen) * 2 - 0.5).bfloat16()
    l2 = torch.cuda.get_device_properties(dev).L2_cache_size
    scratch = torch.empty(max(2 * l2, 64 << 20) // 4, dtype=torch.int32,
                          device=dev)

    def rms_matmul():
        xf = x.float()
        r = torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + 1e-6)
        return torch.matmul((xf * r).bfloat16() * g, w.t())

    def time(fn):
        for _ in range(3):
            fn()
        times = []
        for i in range(repeat):
            scratch.fill_(i)
            start = torch.cuda.Event(enable_timing=True)
            stop = torch.cuda.Event(enable_timing=True)
            start.record()
            fn()
            stop.record()
            stop.synchronize()
            times.append(start.elapsed_time(stop) * 1e3)
        times.sort()
        return times[len(times) // 2]

    # cuBLAS computing what the own GEMM column does: f32 C += A·W (bf16
    # inputs, f32 accumulation; 64 MiB of C read and written at 4096²,
    # where torch.matmul writes 32 MiB of bf16). torch.addmm takes
    # out_dtype from PyTorch 2.9; None before.
    c32 = torch.zeros(m, n, device=dev, dtype=torch.float32)
    try:
        same_op = time(lambda: torch.addmm(c32, x, w.t(),
                                           out_dtype=torch.float32))
    except (TypeError, RuntimeError):
        same_op = None
    return (time(lambda: torch.matmul(x, w.t())), time(rms_matmul),
            same_op), None


# The wgmma kernel's schedules (gpu-options of convert-norm-to-gpu): the
# serial one is the default; the pipelined, warp-specialized one comes in
# four block shapes (BM × BN).
WGMMA_BLOCKS = [(64, 128), (128, 128), (64, 256), (128, 256)]
# Variants of the pipelined schedule (issue 27, own GEMM ≥ 70% of cuBLAS),
# each on the block the default picks for the shape: wgmma-scale-d0 (K tile
# 0's first MMA with scale-d 0: no zeroing moves of the accumulators, which
# made ptxas serialize the own GEMM's wgmma, C7520) and wgmma-vector-store
# (C's column pairs as one 8-byte f32 / 4-byte bf16 access).
WGMMA_VARIANTS = [
    ((4096, 4096, 4096), (128, 256), "wgmma-scale-d0=1"),
    ((4096, 4096, 4096), (128, 256), "wgmma-vector-store=1"),
    ((4096, 4096, 4096), (128, 256), "wgmma-scale-d0=1 wgmma-vector-store=1"),
    ((16, 4096, 4096), (64, 128), "wgmma-scale-d0=1 wgmma-vector-store=1"),
]


# The RMSNorm prologue's shared-memory order (issue 27: the γ rewrite of the
# A tiles made the fused op 1.49× the own GEMM at 4096³): each thread's
# chunks of a row in order c (4-way bank conflicts), or c ^ (row % 4).
WGMMA_PROLOGUES = ["wgmma-conflict-free-prologue=0",
                   "wgmma-conflict-free-prologue=1"]


def wgmma_prologues(args):
    """A table (--chip sm_90a): the fused op with γ, with a weight offset and
    no γ (the same rewrite without γ's global loads), with γ folded,
    LayerNorm → matmul with γ and β, and the fused op with a residual, γ and
    S, unsplit on the default wgmma block (LayerNorm and the residual keep
    64 × 128), under each prologue order."""
    lines = ["", "wgmma norm prologues (unsplit, default block; with γ: "
             "the A tile rewritten as round(x·γ'); offset only: "
             "weight_offset = 1, no γ; LayerNorm: γ and β, "
             "round((x − p)·γ') and the column sums; residual: R read "
             "beside X, S = round(x + r) written, round(s·γ')):", "",
             "| M × N × K | prologue | with γ µs | offset only µs | "
             "γ folded µs | LayerNorm γ β µs | residual γ S µs |",
             "|---|---|---|---|---|---|---|"]
    print("\n".join(lines), flush=True)
    for m, n, k in SHAPES:
        for variant in WGMMA_PROLOGUES:
            options = " gpu-options={max-split-k=1 %s}" % variant
            cells = ["%d × %d × %d" % (m, n, k), variant]
            for gamma in (True, "offset", False, "layer_norm", "residual"):
                time_us, error = run_norm_mlir(args, m, n, k, options,
                                               gamma=gamma)
                cells.append(error.replace("|", "/")[:60] if error
                             else "%.1f" % time_us)
            line = "| " + " | ".join(cells) + " |"
            print(line, flush=True)
            lines.append(line)
    return lines


# Decode shapes for split-K (few output blocks, long K): Llama-7B's
# projections at 1 and 16 tokens (N × K = 4096 × 4096, 11008 × 4096 the up
# projection, 4096 × 11008 the down projection).
SPLIT_SHAPES = [(1, 4096, 4096), (16, 4096, 4096), (16, 11008, 4096),
                (16, 4096, 11008), (64, 4096, 4096)]


def wgmma_split_k(args):
    """A table (--chip sm_90a): decode shapes on the split-K wgmma kernel
    (the default there) against the split-K mma.sync kernel (chip sm_90,
    the same slices' partials and reduction) and the unsplit wgmma kernel,
    for the fused op with γ folded, with γ, LayerNorm → matmul with γ and β,
    and the residual prologue with S."""
    lines = ["", "split-K on wgmma (decode shapes; split wgmma: the default "
             "at sm_90a; split mma.sync: chip=sm_90; unsplit wgmma: "
             "max-split-k=1):", "",
             "| M × N × K | prologue | split wgmma µs | split mma.sync µs | "
             "unsplit wgmma µs |", "|---|---|---|---|---|"]
    print("\n".join(lines), flush=True)
    mma_sync = argparse.Namespace(**vars(args))
    mma_sync.chip = "sm_90"
    for m, n, k in SPLIT_SHAPES:
        for gamma, name in ((False, "γ folded"), (True, "γ"),
                            ("layer_norm", "LayerNorm γ β"),
                            ("residual", "residual γ S")):
            cells = ["%d × %d × %d" % (m, n, k), name]
            for run_args, options in ((args, ""), (mma_sync, ""),
                                      (args, " gpu-options={max-split-k=1}")):
                time_us, error = run_norm_mlir(run_args, m, n, k, options,
                                               gamma=gamma)
                cells.append(error.replace("|", "/")[:60] if error
                             else "%.1f" % time_us)
            line = "| " + " | ".join(cells) + " |"
            print(line, flush=True)
            lines.append(line)
    return lines


def wgmma_schedules(args, cublas, cublas_same):
    """A second table (--chip sm_90a): the own GEMM and the fused op with γ
    folded under each pipelined wgmma schedule, unsplit, against cuBLAS;
    then the variants."""
    lines = ["", "wgmma schedules (unsplit; own GEMM as above; γ folded: the "
             "fused op without γ):", "",
             "| M × N × K | schedule | own GEMM µs | cuBLAS / own GEMM | "
             "γ folded µs | cuBLAS / γ folded |", "|---|---|---|---|---|---|"]
    print("\n".join(lines), flush=True)
    cases = [((m, n, k), block, "") for m, n, k in SHAPES
             for block in WGMMA_BLOCKS] + WGMMA_VARIANTS
    for (m, n, k), (bm, bn), variant in cases:
        extra = " " + variant if variant else ""
        gpu_options = (" gpu-options={max-split-k=1 wgmma-pipeline=1 "
                       "wgmma-block-m=%d wgmma-block-n=%d%s}" % (bm, bn, extra))
        cells = ["%d × %d × %d" % (m, n, k),
                 "pipelined %d × %d%s" % (bm, bn, extra)]
        for options, gemm_only in ((" lower-matmuls" + gpu_options, True),
                                   (gpu_options, False)):
            time_us, error = run_norm_mlir(args, m, n, k, options,
                                           gemm_only=gemm_only, gamma=False)
            if error:
                cells += [error.replace("|", "/")[:60], ""]
                continue
            ref = cublas.get((m, n, k))
            cells += ["%.1f" % time_us,
                      "%.0f%%" % (100.0 * ref / time_us) if ref else ""]
        line = "| " + " | ".join(cells) + " |"
        print(line, flush=True)
        lines.append(line)
    lines += wgmma_prologues(args)
    lines += wgmma_split_k(args)
    # The own GEMM column moves more bytes of C than torch.matmul: f32 C
    # read and written (C += A·W) against a bf16 C written.
    for (m, n, k), same in sorted(cublas_same.items()):
        line = ("\ncuBLAS computing the own GEMM's op (f32 C += A·W, "
                "torch.addmm out_dtype=float32), %d × %d × %d: %s"
                % (m, n, k, "%.1f µs" % same if same else
                   "not available in this PyTorch"))
        print(line, flush=True)
        lines.append(line)
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--norm-opt", required=True)
    parser.add_argument("--runner", required=True)
    parser.add_argument("--libs", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--chip", default="sm_90")
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()

    gpu = gpu_name()
    header = ["# GPU fused RMSNorm -> matmul benchmark (bf16, W as N x K)",
              "",
              "- date: %s" % datetime.datetime.now().isoformat(timespec="seconds"),
              "- host: %s; GPU: %s" % (platform.node(), gpu),
              "- command: %s" % " ".join(sys.argv),
              "- norm-mlir: norm.rms_norm_matmul through "
              "--norm-lower-to-nvvm=chip=%s (fatbin); PyTorch: torch.matmul "
              "(cuBLAS) alone, and RMSNorm in f32 + bf16 matmul; median of %d "
              "launches, L2 flushed before each, GPU time from events"
              % (args.chip, args.repeat),
              "",
              "- unsplit: the same with split-K off (gpu-options={max-split-k=1}), to judge "
              "the split heuristic (it only splits outputs of fewer than two "
              "64 × 128 blocks per SM, e.g. 16 × 4096)",
              "- γ folded: the fused op without γ, as --norm-fuse-matmul leaves "
              "it for a constant W (with --chip sm_90a, the wgmma kernel when "
              "unsplit, as the fused op with γ is)",
              "- own GEMM: the project's GEMM alone (linalg.matmul of the same "
              "X and W into an f32 C, lower-matmuls): the same kernel without "
              "the norm prologue; target fused / own GEMM ≤ 1.05 and own GEMM "
              "≥ 70% of cuBLAS",
              "",
              "| M × N × K | norm-mlir µs | TFLOP/s | unsplit µs | γ folded µs | "
              "own GEMM µs | "
              "fused / own GEMM | cuBLAS matmul µs | cuBLAS / own GEMM | "
              "PyTorch norm+matmul µs | cuBLAS µs / ours | PyTorch norm+matmul µs / ours |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    print("\n".join(header), flush=True)
    rows = []
    cublas = {}
    cublas_same = {}
    for m, n, k in SHAPES:
        ours, error = run_norm_mlir(args, m, n, k)
        theirs, why = run_torch(m, n, k, args.repeat)
        cublas[(m, n, k)] = theirs[0] if theirs else None
        cublas_same[(m, n, k)] = theirs[2] if theirs else None
        cells = ["%d × %d × %d" % (m, n, k)]
        if error:
            cells += [error.replace("|", "/")[:120], ""]
        else:
            cells += ["%.1f" % ours, "%.1f" % (2.0 * m * n * k / (ours * 1e-6) / 1e12)]
        unsplit, unsplit_error = run_norm_mlir(args, m, n, k, " gpu-options={max-split-k=1}")
        cells += [unsplit_error.replace("|", "/")[:60] if unsplit_error
                  else "%.1f" % unsplit]
        folded, folded_error = run_norm_mlir(args, m, n, k, gamma=False)
        cells += [folded_error.replace("|", "/")[:60] if folded_error
                  else "%.1f" % folded]
        gemm, gemm_error = run_norm_mlir(args, m, n, k, " lower-matmuls",
                                         gemm_only=True)
        cells += [gemm_error.replace("|", "/")[:60] if gemm_error
                  else "%.1f" % gemm,
                  "" if (error or gemm_error) else "%.3f" % (ours / gemm)]
        if theirs:
            cells += ["%.1f" % theirs[0],
                      "" if gemm_error else "%.0f%%" % (100.0 * theirs[0] / gemm),
                      "%.1f" % theirs[1]]
            cells += ["" if error else "%.2f×" % (theirs[0] / ours),
                      "" if error else "%.2f×" % (theirs[1] / ours)]
        else:
            cells += [why, "", "", "", ""]
        line = "| " + " | ".join(cells) + " |"
        print(line, flush=True)
        rows.append(line)
    if args.chip.endswith("a"):
        rows += wgmma_schedules(args, cublas, cublas_same)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        f.write("\n".join(header + rows) + "\n")
    print("\nwrote " + args.out)


if __name__ == "__main__":
    main()
