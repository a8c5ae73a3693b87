#!/usr/bin/env python3
"""QK-norm (issue 26): the fused per-head matmul -> RMSNorm beside its
unfused counterpart, on the CPU, through the project's pipeline.

Standard library only; uses gemm.py's norm-run helpers. Kernels (f32):
  kernels/qk_norm_fused_n<N>_f32.mlir    norm.matmul_rms_norm {head_dim = 128}
  kernels/qk_norm_unfused_n<N>_f32.mlir  linalg.matmul (the same GEMM through
                                         lower-matmuls) into a scratch S, then
                                         norm.rms_norm on S as [M, N/128, 128]
Shapes (Qwen3-8B-like): K = 4096 (hidden), N = 32*128 (q) or 8*128 (k),
M = 128 and 512 tokens; 1 and 2 threads. Each cell runs ROUNDS interleaved
rounds (fused, unfused, unfused, fused, ...) of about --target s per kernel
and keeps each kernel's best median; the ratio is fused / unfused (below 1:
fused faster). Checks: the fused op against float64 (--check) at 17 rows,
the unfused sequence against upstream MLIR's loops (--compare-pipeline).

With --rope, the QK-norm -> RoPE variant (Qwen3's q/k norms with their
rotation, rotate_half, one angle row per token, cos/sin M x 1 x 128):
  kernels/qk_norm_rope_fused_n<N>_f32.mlir    norm.matmul_rms_norm with rope
  kernels/qk_norm_rope_unfused_n<N>_f32.mlir  linalg.matmul into S, then
                                              norm.rms_norm with rope on S

  python3 bench/cpu/qk_norm.py [--norm-run PATH] [--target S] [--out FILE]
                               [--quick] [--rope]
"""
import argparse
import datetime
import os
import socket
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench as B  # noqa: E402
import gemm as G  # noqa: E402

SHAPES = [(128, 4096, 4096), (128, 4096, 1024), (512, 4096, 4096), (512, 4096, 1024)]
THREADS = [1, 2]
ROUNDS = 3
CHECK_ROWS = 17


def base(args, key, M, K, N, T, pipeline="project"):
    # With rope, cos and sin (M rows each) come before S / Y.
    prefix, angles = ("qk_norm_rope", [M, M]) if args.rope else ("qk_norm", [])
    if key == "fused":
        f, entry, dims = f"{prefix}_fused_n{N}_f32.mlir", "qk_fused", [M, K, K] + angles + [M]
    else:
        f, entry, dims = f"{prefix}_unfused_n{N}_f32.mlir", "qk_unfused", [M, K, K] + angles + [M, M]
    return [args.norm_run, os.path.join(HERE, "kernels", f), f"--entry={entry}", f"--pipeline={pipeline}",
            f"--threads={T}", "--dims=" + ",".join(map(str, dims))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--norm-run", default=os.path.join(HERE, "..", "..", "build", "bin", "norm-run"))
    ap.add_argument("--target", type=float, default=1.0)
    ap.add_argument("--out")
    ap.add_argument("--quick", action="store_true", help="M = 128 only")
    ap.add_argument("--rope", action="store_true", help="the QK-norm -> RoPE variant")
    args = ap.parse_args()
    date = datetime.date.today().isoformat()
    name = "qk-norm-rope" if args.rope else "qk-norm"
    out = args.out or os.path.join(HERE, "results", f"{date}-{socket.gethostname()}-{name}.md")
    rows, failed = [], False
    s0 = B.cpu_sample()
    for (M, K, N) in [s for s in SHAPES if s[0] == 128] if args.quick else SHAPES:
        for T in THREADS:
            checks = {}
            c = G.nr_run(base(args, "fused", CHECK_ROWS, K, N, T) + ["--warmup=0", "--repeat=1", "--check"], T)
            checks["fused"] = (c.get("status", "FAIL"), c.get("rel_err", c.get("na")))
            ref = f"builtin.module(norm-lower-to-cpu{{lower-matmuls=false num-threads={T}}})"
            c = G.nr_run(base(args, "unfused", CHECK_ROWS, K, N, T)
                         + ["--warmup=0", "--repeat=1", f"--compare-pipeline={ref}"], T)
            checks["unfused"] = (c.get("status", "FAIL"), c.get("cmp_rel_err", c.get("na")))
            failed |= any(s != "PASS" for s, _ in checks.values())
            hint = G.nr_run(base(args, "fused", M, K, N, T) + ["--warmup=1", "--repeat=3"], T).get("median_ms", 100)
            reps = G.reps_for(hint, args.target)
            best = {}
            c0 = B.cpu_sample()
            for i in range(ROUNDS):
                for key in (("fused", "unfused") if i % 2 == 0 else ("unfused", "fused")):
                    r = G.nr_run(base(args, key, M, K, N, T) + ["--warmup=1", f"--repeat={reps}"], T)
                    if "median_ms" in r:
                        best[key] = min(best.get(key, 1e30), r["median_ms"])
            other = B.foreign_cores(c0, B.cpu_sample())
            ratio = best["fused"] / best["unfused"] if len(best) == 2 else float("nan")
            gflops = 2 * M * K * N / best.get("fused", float("nan")) / 1e6
            rows.append((M, K, N, T, best.get("fused"), best.get("unfused"), ratio, gflops, other, checks))
            B.log(f"{M}x{K}x{N} T={T}: fused {best.get('fused')} ms, unfused {best.get('unfused')} ms, "
                  f"ratio {ratio:.3f}, others {other:.2f} cores, checks {checks}")
    other = B.foreign_cores(s0, B.cpu_sample())
    what = "RMSNorm -> RoPE" if args.rope else "RMSNorm"
    flags = (" --quick" if args.quick else "") + (" --rope" if args.rope else "")
    lines = [f"# QK-norm: fused per-head matmul -> {what} vs unfused ({date}, {socket.gethostname()})", "",
             f"Command: `python3 bench/cpu/qk_norm.py --target {args.target}{flags}` (f32, K×N W, head_dim 128; "
             f"best median of {ROUNDS} interleaved rounds; other processes: {other:.2f} cores on average).", "",
             "| M×K×N | heads | thr | fused ms | unfused ms | fused / unfused | fused GFLOP/s | others (cores) "
             "| fused check | unfused check |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for (M, K, N, T, f, u, ratio, gf, oth, checks) in rows:
        fc, uc = checks["fused"], checks["unfused"]
        lines.append(f"| {M}×{K}×{N} | {N // 128}×128 | {T} | {f:.3g} | {u:.3g} | {ratio:.3f} | {gf:.1f} | {oth:.2f} "
                     f"| {fc[0]} ({fc[1]}) | {uc[0]} ({uc[1]}) |")
    text = "\n".join(lines) + "\n"
    print(text)
    with open(out, "w") as f:
        f.write(text)
    B.log(f"written {out}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
