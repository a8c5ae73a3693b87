#!/usr/bin/env python3
"""Benchmark of the fused norm + quantization (issue 29, item 6): RMSNorm
(bf16 x and γ, ε = 1e-6) writing f8E4M3FN or i8 with a static scale or
per-token scales, through the project's row kernel (QuantizedRow.cpp),
beside
- the project's plain RMSNorm on the same rows (bf16 y): the issue's
  target is fused ≤ 1.1× plain;
- the project's plain RMSNorm, then a separate quantization pass over its
  bf16 y (linalg.generic ops through the same pipeline: per token an amax
  reduction, the scales, then the quantization);
- the decomposition path, which codegen=vector took before the kernel
  wrote q: the same fused kernel through a norm-run built from main
  before this change (--decomposition-run, optional);
- the same fused kernel through another norm-run (--baseline-run, optional:
  an A/B of a kernel change, interleaved cell by cell in one run);
- PyTorch: its eager RMSNorm, then torch.quantize_per_tensor (static) or
  torch.quantize_per_channel over rows (per token), int8 only: PyTorch
  1.13 has no float8 dtypes (torch_norm_quant.py).

norm-run takes only f32/f16/bf16 arguments, so each kernel writes q (and
the scales) into memref.globals and reads x and γ from its arguments, cast
to the cell's static shape; the plain norm writes its y into a global too,
so every variant has the same shape of code. The kernels are generated
per cell into --build. Correctness is the lit tests' (every quantized
element against float64: test/Integration/CPU/quantized*.mlir); nothing
here is checked.

Bytes per call: x read, q (or y) written, γ read: 2·R·H + b·R·H + 2·H with
b = 1 (q) or 2 (y); the separate pass also reads y and writes q, which is
not counted (the same bytes as the fused kernel's, so GB/s compare times).

Run through run-quant.sh. Standard library only; reuses bench.py's runners.
"""
import argparse
import datetime
import os
import sys

import bench
from bench import log, parse_kv, run_cmd, time_norm_run

HERE = os.path.dirname(os.path.abspath(__file__))
SHAPES = [(4096, 4096), (32768, 1024), (16, 4096)]
QUICK_SHAPES = [(16, 4096)]
THREADS = [1, 2]
# (quantized type, scale mode)
VARIANTS = [("f8E4M3FN", "static"), ("f8E4M3FN", "per_token"), ("i8", "static"),
            ("i8", "per_token")]
STATIC_SCALE = 0.02  # torch_norm_quant.py's too
QMAX = {"f8E4M3FN": 448.0, "i8": 127.0}
TARGET_RATIO = 1.1


def norm_op(R, H, y, y_type, extra_ins="", extra_outs=""):
    return (f"  norm.rms_norm ins(%xs : memref<{R}x{H}xbf16>) weight(%gs : memref<{H}xbf16>)"
            f"{extra_ins} outs({y} : memref<{R}x{H}x{y_type}>){extra_outs}"
            " {epsilon = 1.0e-06 : f64}\n")


def kernel_head(R, H, globals_):
    text = "".join(f"memref.global @{n} : memref<{s}> = uninitialized {{alignment = 64 : i64}}\n"
                   for n, s in globals_)
    text += ("func.func @kernel(%x: memref<?x?xbf16>, %g: memref<?xbf16>) {\n"
             f"  %xs = memref.cast %x : memref<?x?xbf16> to memref<{R}x{H}xbf16>\n"
             f"  %gs = memref.cast %g : memref<?xbf16> to memref<{H}xbf16>\n")
    for n, s in globals_:
        text += f"  %{n} = memref.get_global @{n} : memref<{s}>\n"
    return text


def plain_kernel(R, H):
    return (kernel_head(R, H, [("y", f"{R}x{H}xbf16")]) + norm_op(R, H, "%y", "bf16")
            + "  return\n}\n")


def fused_kernel(R, H, qt, mode):
    globals_ = [("q", f"{R}x{H}x{qt}")]
    ins, outs, consts = "", "", ""
    if mode == "static":
        consts = f"  %s = arith.constant {STATIC_SCALE} : f32\n"
        ins = " scale(%s : f32)"
    else:
        globals_.append(("sc", f"{R}xf32"))
        outs = f" scale_outs(%sc : memref<{R}xf32>)"
    return (kernel_head(R, H, globals_) + consts + norm_op(R, H, "%q", qt, ins, outs)
            + "  return\n}\n")


def quantize_body(qt, v, inv):
    """MLIR lines computing `%qv` (of type qt) from the f32 `v` · `inv`, as
    NormQuantization.cpp's createQuantize does (fp8: clamp, then the bits
    rounded half-to-even by integer arithmetic; i8: roundeven, clamp)."""
    if qt == "i8":
        return (f"    %t = arith.mulf {v}, {inv} : f32\n"
                "    %r = math.roundeven %t : f32\n"
                "    %lo = arith.constant -128.0 : f32\n    %hi = arith.constant 127.0 : f32\n"
                "    %c0 = arith.maxnumf %r, %lo : f32\n    %c1 = arith.minnumf %c0, %hi : f32\n"
                "    %qv = arith.fptosi %c1 : f32 to i8\n")
    # f8E4M3FN: 3 mantissa bits, bias 7, largest 448.
    return (f"    %t0 = arith.mulf {v}, {inv} : f32\n"
            "    %mx = arith.constant 448.0 : f32\n    %mn = arith.constant -448.0 : f32\n"
            "    %t1 = arith.minimumf %t0, %mx : f32\n    %t = arith.maximumf %t1, %mn : f32\n"
            "    %bits = arith.bitcast %t : f32 to i32\n"
            "    %c31 = arith.constant 31 : i32\n    %sh = arith.shrui %bits, %c31 : i32\n"
            "    %s8 = arith.trunci %sh : i32 to i8\n    %c7 = arith.constant 7 : i8\n"
            "    %sign = arith.shli %s8, %c7 : i8\n"
            "    %mag = math.absf %t : f32\n    %mb = arith.bitcast %mag : f32 to i32\n"
            "    %c20 = arith.constant 20 : i32\n    %c1i = arith.constant 1 : i32\n"
            "    %l0 = arith.shrui %mb, %c20 : i32\n    %lsb = arith.andi %l0, %c1i : i32\n"
            "    %half = arith.constant 524287 : i32\n    %r0 = arith.addi %mb, %half : i32\n"
            "    %r1 = arith.addi %r0, %lsb : i32\n    %r2 = arith.shrui %r1, %c20 : i32\n"
            "    %rebias = arith.constant 960 : i32\n    %normal = arith.subi %r2, %rebias : i32\n"
            "    %k = arith.constant 512.0 : f32\n    %u0 = arith.mulf %mag, %k : f32\n"
            "    %u1 = math.roundeven %u0 : f32\n    %sub = arith.fptoui %u1 : f32 to i32\n"
            "    %tiny = arith.constant 0.015625 : f32\n"
            "    %issub = arith.cmpf olt, %mag, %tiny : f32\n"
            "    %pick = arith.select %issub, %sub, %normal : i32\n"
            "    %b0 = arith.trunci %pick : i32 to i8\n    %b1 = arith.ori %b0, %sign : i8\n"
            "    %nan = arith.cmpf uno, %t, %t : f32\n    %c127 = arith.constant 127 : i8\n"
            "    %nb = arith.ori %sign, %c127 : i8\n"
            "    %b2 = arith.select %nan, %nb, %b1 : i8\n"
            "    %qv = arith.bitcast %b2 : i8 to f8E4M3FN\n")


def separate_kernel(R, H, qt, mode):
    """The plain norm into a bf16 y, then linalg.generic quantization."""
    globals_ = [("y", f"{R}x{H}xbf16"), ("q", f"{R}x{H}x{qt}")]
    if mode != "static":
        globals_.append(("sc", f"{R}xf32"))
    text = kernel_head(R, H, globals_) + norm_op(R, H, "%y", "bf16")
    ident = "affine_map<(d0, d1) -> (d0, d1)>"
    row = "affine_map<(d0, d1) -> (d0)>"
    if mode == "static":
        text += (f"  %inv = arith.constant {1.0 / STATIC_SCALE!r} : f32\n"
                 f"  linalg.generic {{indexing_maps = [{ident}, {ident}], iterator_types = "
                 f"[\"parallel\", \"parallel\"]}} ins(%y : memref<{R}x{H}xbf16>) "
                 f"outs(%q : memref<{R}x{H}x{qt}>) {{\n"
                 f"  ^bb0(%a: bf16, %o: {qt}):\n    %v = arith.extf %a : bf16 to f32\n"
                 + quantize_body(qt, "%v", "%inv") + f"    linalg.yield %qv : {qt}\n  }}\n")
    else:
        smin = 1.0 / (QMAX[qt] * 512.0)
        text += ("  %zero = arith.constant 0.0 : f32\n"
                 f"  linalg.fill ins(%zero : f32) outs(%sc : memref<{R}xf32>)\n"
                 f"  linalg.generic {{indexing_maps = [{ident}, {row}], iterator_types = "
                 f"[\"parallel\", \"reduction\"]}} ins(%y : memref<{R}x{H}xbf16>) "
                 f"outs(%sc : memref<{R}xf32>) {{\n"
                 "  ^bb0(%a: bf16, %m: f32):\n    %v = arith.extf %a : bf16 to f32\n"
                 "    %av = math.absf %v : f32\n    %mx = arith.maximumf %av, %m : f32\n"
                 "    linalg.yield %mx : f32\n  }\n"
                 f"  linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = "
                 f"[\"parallel\"]}} outs(%sc : memref<{R}xf32>) {{\n"
                 f"  ^bb0(%m: f32):\n    %qm = arith.constant {QMAX[qt]!r} : f32\n"
                 f"    %d = arith.divf %m, %qm : f32\n    %fl = arith.constant {smin!r} : f32\n"
                 "    %s = arith.maximumf %d, %fl : f32\n    linalg.yield %s : f32\n  }\n"
                 f"  linalg.generic {{indexing_maps = [{ident}, {row}, {ident}], iterator_types = "
                 f"[\"parallel\", \"parallel\"]}} ins(%y, %sc : memref<{R}x{H}xbf16>, memref<{R}xf32>) "
                 f"outs(%q : memref<{R}x{H}x{qt}>) {{\n"
                 f"  ^bb0(%a: bf16, %s: f32, %o: {qt}):\n    %v = arith.extf %a : bf16 to f32\n"
                 "    %one = arith.constant 1.0 : f32\n    %inv = arith.divf %one, %s : f32\n"
                 + quantize_body(qt, "%v", "%inv") + f"    linalg.yield %qv : {qt}\n  }}\n")
    return text + "  return\n}\n"


def write_kernel(build, name, text):
    path = os.path.join(build, f"quant_{name}.mlir")
    with open(path, "w") as f:
        f.write(text)
    return path


def run_kernel(exe, path, R, H, T, target, hint):
    if not exe or not os.path.exists(exe):
        return {"na": "no runner"}
    return time_norm_run(exe, path, "kernel", [R, H, H], T, target, hint, "project", check=False)


def torch_peer(R, H, T, mode, target):
    cmd = ["/usr/bin/python3", os.path.join(HERE, "torch_norm_quant.py"), f"--rows={R}",
           f"--hidden={H}", f"--threads={T}", f"--mode={mode}", f"--target={target}"]
    lines, err = run_cmd(cmd, {"OMP_NUM_THREADS": str(T)}, prefix="torch_norm_quant:")
    if err:
        return {"na": err}
    d = parse_kv(lines[-1])
    return {"median_ms": float(d["median_ms"])} if "median_ms" in d else {"na": lines[-1]}


def fmt(r, base=None):
    if "na" in r:
        return "n/a"
    s = f"{r['median_ms']:.3f}"
    if base is not None:
        s += f" ({r['median_ms'] / base:.2f}×)"
    return s + (" ~" if r.get("noisy") else "")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--norm-run", default=os.path.join(bench.ROOT, "build", "bin", "norm-run"))
    ap.add_argument("--decomposition-run", default="",
                    help="a norm-run of main before the row kernel quantized (optional)")
    ap.add_argument("--baseline-run", default="",
                    help="another norm-run for the fused kernel, timed beside it (optional)")
    ap.add_argument("--build", required=True, help="folder for the generated kernels")
    ap.add_argument("--target", type=float, default=0.3, help="seconds of timed calls per cell")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--no-torch", action="store_true")
    ap.add_argument("--command", default="")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    shapes = QUICK_SHAPES if args.quick else SHAPES
    start = bench.cpu_sample()
    rows = []
    for R, H in shapes:
        plain_path = write_kernel(args.build, f"plain_{R}x{H}", plain_kernel(R, H))
        for T in THREADS:
            log(f"plain {R}x{H} T={T}")
            plain = run_kernel(args.norm_run, plain_path, R, H, T, args.target, 1.0)
            hint = plain.get("median_ms", 1.0)
            for qt, mode in VARIANTS:
                tag = f"{qt}_{mode}_{R}x{H}"
                log(f"{tag} T={T}")
                fused_path = write_kernel(args.build, "fused_" + tag, fused_kernel(R, H, qt, mode))
                sep_path = write_kernel(args.build, "separate_" + tag, separate_kernel(R, H, qt, mode))
                fused = run_kernel(args.norm_run, fused_path, R, H, T, args.target, hint)
                sep = run_kernel(args.norm_run, sep_path, R, H, T, args.target, hint)
                base = (run_kernel(args.baseline_run, fused_path, R, H, T, args.target, hint)
                        if args.baseline_run else None)
                decomp = (run_kernel(args.decomposition_run, fused_path, R, H, T, args.target, hint)
                          if args.decomposition_run else {"na": "not run"})
                torch = ({"na": "no fp8 in PyTorch 1.13"} if qt != "i8" else
                         {"na": "--no-torch"} if args.no_torch else
                         torch_peer(R, H, T, mode, args.target))
                rows.append((R, H, T, qt, mode, plain, fused, base, sep, decomp, torch))

    ab = bool(args.baseline_run)
    out = ["| shape | thr | q | scale | plain norm ms | fused ms | fused / plain (≤ 1.1) | "
           + ("baseline fused ms (×) | baseline / plain | " if ab else "")
           + "fused GB/s | norm + quant pass ms (×) | decomposition ms (×) | PyTorch ms (×) |",
           "|---|---|---|---|---|---|---|---|---|---|---|" + ("---|---|" if ab else "")]
    for R, H, T, qt, mode, plain, fused, base, sep, decomp, torch in rows:
        if "na" in fused:
            out.append(f"| {R}×{H} | {T} | {qt} | {mode} | {fmt(plain)} | n/a ({fused['na']}) "
                       "| | | | | |" + (" | |" if ab else ""))
            continue
        f = fused["median_ms"]
        ratio = f"{f / plain['median_ms']:.2f}" if "na" not in plain else "n/a"
        gbps = (3.0 * R * H + 2.0 * H) / (f * 1e-3) * 1e-9
        baseline = ""
        if ab:
            base_ratio = ("n/a" if "na" in base or "na" in plain
                          else f"{base['median_ms'] / plain['median_ms']:.2f}")
            baseline = f"{fmt(base, f)} | {base_ratio} | "
        out.append(f"| {R}×{H} | {T} | {qt} | {mode} | {fmt(plain)} | {fmt(fused)} | {ratio} | "
                   f"{baseline}{gbps:.1f} | {fmt(sep, f)} | {fmt(decomp, f)} | {fmt(torch, f)} |")
    load = bench.foreign_cores(start, bench.cpu_sample())
    cpu = bench.sh("lscpu | sed -n 's/^Model name: *//p' | head -1")
    rev = bench.sh(f"git -C {bench.ROOT} rev-parse --short HEAD")
    header = [f"# Fused RMSNorm + quantization, {datetime.datetime.now():%Y-%m-%d %H:%M}", "",
              f"Machine: {cpu}, {os.cpu_count()} cores; project at {rev}. Other processes "
              f"used {load:.2f} cores on average during the run.", "",
              f"Command: `{args.command}`", "",
              "bf16 x and γ, ε = 1e-6; static scale 0.02 or per-token scales. Median ms per "
              "call. `(×)` is that column's time over the fused kernel's (above 1: the fused "
              "kernel is faster); `~` noisy (median > 1.5× min after reruns).", ""]
    bench.write_report("\n".join(header + out) + "\n", args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
