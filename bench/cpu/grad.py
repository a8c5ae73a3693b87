#!/usr/bin/env python3
"""Benchmark of the norm gradients (issue 30): the project's kernel
(norm.rms_norm_grad / norm.layer_norm_grad through norm-run, the forward's
saved statistics given) beside the C++ loop (cxx_norm_grad.cpp), PyTorch's
backward (torch_norm_grad.py: native_layer_norm_backward, autograd of the
eager RMSNorm) and the DRAM streaming copy (copy_bw), in one run.

Bytes per call: dy and x read, dx written, γ read, dγ (and dβ) written, the
statistics read. The target: the project at >= 60% of the best streaming
copy (non-temporal stores, 1..T threads) and faster than every peer.

Run through run-grad.sh, which builds the C++ tools and installs the
optional PyTorch peer. Standard library only; reuses bench.py's runners.
"""
import argparse
import datetime
import os
import sys

import bench
from bench import log, parse_kv, run_cmd, time_norm_run

HERE = os.path.dirname(os.path.abspath(__file__))
OPS = [("rms", "RMSNorm", "rms_norm_grad"), ("ln", "LayerNorm", "layer_norm_grad")]
SHAPES = [(8192, 8192), (32768, 1024), (4096, 4096), (16, 4096)]
QUICK_SHAPES = [(1024, 1024), (16, 4096)]
THREADS = [1, 2]
TARGET_FRACTION = 0.6


def project_dims(op, R, H):
    """--dims of the kernel file: dy, x [R, H]; γ [H]; (mean) rstd [R];
    dx [R, H]; dγ (dβ) [H]."""
    stats = [R, R] if op == "ln" else [R]
    grads = [H, H] if op == "ln" else [H]
    return [R, H, R, H, H] + stats + [R, H] + grads


def peer(cmd, T):
    lines, err = run_cmd(cmd, {"OMP_NUM_THREADS": str(T)})
    if err:
        return {"na": err}
    d = parse_kv(lines[-1])
    if "median_ms" not in d:
        return {"na": lines[-1]}
    return {"median_ms": float(d["median_ms"]), "status": d.get("status"),
            "rel_err": d.get("rel_err")}


def fmt_ratio(r, base):
    if "na" in r:
        return "n/a"
    mark = "" if r.get("status") in (None, "PASS") else " FAIL"
    return f"{r['median_ms']:.3f} ({r['median_ms'] / base:.2f}×){mark}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--norm-run", default=os.path.join(bench.ROOT, "build", "bin", "norm-run"))
    ap.add_argument("--build", required=True, help="folder of copy_bw and cxx_norm_grad")
    ap.add_argument("--target", type=float, default=0.5, help="seconds of timed calls per cell")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--no-torch", action="store_true")
    ap.add_argument("--out", default=None)
    ap.add_argument("--shapes", default=None,
                    help="comma-separated RxH (default: all of SHAPES)")
    ap.add_argument("--norm-run-before", default=None,
                    help="an A/B: also time this norm-run (another build) in every "
                         "cell, right before the project's own")
    ap.add_argument("--ops", default="rms,ln", help="comma-separated: rms, ln")
    ap.add_argument("--dtypes", default="f32,bf16", help="comma-separated: f32, bf16")
    args = ap.parse_args()
    ops = [o for o in OPS if o[0] in args.ops.split(",")]
    dtypes = [d for d in ["f32", "bf16"] if d in args.dtypes.split(",")]
    shapes = QUICK_SHAPES if args.quick else SHAPES
    if args.shapes:
        shapes = [tuple(int(d) for d in s.split("x")) for s in args.shapes.split(",")]
    dram = {}
    bench.dram_copy(args.build, THREADS, args.quick, dram, "start")
    rows = []
    failed = False
    for op, name, entry in ops:
        for dt in dtypes:
            mlir = os.path.join(HERE, "kernels", f"{entry}_{dt}.mlir")
            for R, H in shapes:
                for T in THREADS:
                    log(f"{name} {dt} {R}x{H} T={T}")
                    before = (time_norm_run(args.norm_run_before, mlir, entry,
                                            project_dims(op, R, H), T, args.target, 1.0,
                                            "project")
                              if args.norm_run_before else None)
                    p = time_norm_run(args.norm_run, mlir, entry, project_dims(op, R, H), T,
                                      args.target, 1.0, "project")
                    common = [f"--op={op}", f"--dtype={dt}", f"--rows={R}", f"--hidden={H}",
                              f"--threads={T}", f"--target={args.target}"]
                    cxx = peer([os.path.join(args.build, "cxx_norm_grad")] + common, T)
                    torch = ({"na": "--no-torch"} if args.no_torch else
                             peer([sys.executable, os.path.join(HERE, "torch_norm_grad.py")] + common, T))
                    limit = max((v for (k, t, _), v in dram.items() if k == "nt" and t <= T), default=None)
                    rows.append((name, dt, R, H, T, p, cxx, torch, limit, before))
                    failed |= p.get("status") == "FAIL"
                    failed |= bool(before) and before.get("status") == "FAIL"
    bench.dram_copy(args.build, THREADS, args.quick, dram, "end")

    ab = bool(args.norm_run_before)
    out = ["| op | dtype | shape | thr | " + ("before ms (×) | " if ab else "") +
           "project ms | GB/s | % of copy (≥ 60%) | C++ loop ms (×) | PyTorch ms (×) | check |",
           "|---|---|---|---|" + ("---|" if ab else "") + "---|---|---|---|---|---|"]
    for name, dt, R, H, T, p, cxx, torch, limit, before in rows:
        if "na" in p:
            out.append(f"| {name} | {dt} | {R}×{H} | {T} | " + ("| " if ab else "") +
                       f"n/a ({p['na']}) | | | | | |")
            continue
        b_col = ""
        if ab:
            b_col = (f"n/a ({before['na']}) | " if "na" in before else
                     f"{fmt_ratio(before, p['median_ms'])} {before.get('status', '')} | ")
        gbps = p["bytes"] / (p["median_ms"] * 1e-3) * 1e-9
        pct = f"{100 * gbps / limit:.0f}%" if limit else "n/a"
        out.append(f"| {name} | {dt} | {R}×{H} | {T} | {b_col}{p['median_ms']:.3f} | {gbps:.1f} | {pct} | "
                   f"{fmt_ratio(cxx, p['median_ms'])} | {fmt_ratio(torch, p['median_ms'])} | "
                   f"{p.get('status', '')} {p.get('rel_err', '')} |")
    copies = ", ".join(f"{tag} {t}T {v:.1f}" for (k, t, tag), v in sorted(dram.items()) if k == "nt")
    header = [f"# Norm gradients, {datetime.datetime.now():%Y-%m-%d %H:%M}",
              "", f"Streaming copy (non-temporal, GB/s): {copies}.",
              "`(×)` is the peer's time over the project's (above 1: the project is faster).",
              ] + ([f"A/B: before = `{args.norm_run_before}`, timed right before the project "
                    f"(`{args.norm_run}`) in each cell."] if ab else []) + [""]
    bench.write_report("\n".join(header + out) + "\n", args.out)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
