#!/usr/bin/env python3
"""Driver for bench/cpu/run-gemm.sh: the fused norm -> matmul benchmark (issue 4).

Standard library only. run-gemm.sh compiles the C++ programs and calls this
script; see the "Fused RMSNorm -> matmul" section of bench/cpu/README.md for
the columns. Helpers (tool runner, CPU-load sampling, machine description)
come from bench.py, the standalone-norm driver.
"""
import argparse
import datetime
import os
import socket
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench as B  # noqa: E402  (run_cmd, parse_kv, cpu_sample, foreign_cores, machine_info, fmt_t, RAW)

SHAPES = [(1, 4096, 4096), (16, 4096, 4096), (128, 4096, 4096), (512, 4096, 11008), (2048, 2048, 2048)]
QUICK_SHAPES = [(1, 2048, 2048), (16, 2048, 2048), (256, 1024, 1024)]
DTYPES = ["f32", "bf16"]
THREADS = [1, 2]

# --check computes the float64 reference of the whole product (a scalar
# triple loop in norm-run): full shape up to this many multiply-adds, else
# the same K, N and CHECK_ROWS rows (a 12-row micro-tile, a 4-row and a
# 1-row one: every tile kind of the GEMM).
CHECK_FULL_MACS = 300e6
CHECK_ROWS = 17
NOISY = 1.5
FOREIGN = 0.25
log = B.log


def flops(M, K, N):
    return 2.0 * M * K * N


def shape_str(s):
    return "×".join(map(str, s))


def parse_shape(t):
    p = t.lower().replace("×", "x").split("x")
    if len(p) != 3:
        raise argparse.ArgumentTypeError(f"shape {t!r}: expected MxKxN")
    return tuple(int(v) for v in p)


# ---------------------------------------------------------------------------
# machine limits


def limits(build, quick, fma, read, tag):
    exe = os.path.join(build, "gemm_limits")
    for T in THREADS:
        env = {"OMP_NUM_THREADS": str(T)}
        lines, err = B.run_cmd([exe, "--mode=fma", f"--threads={T}", f"--seconds={0.15 if quick else 0.3}"],
                               env, prefix="gemm_limits:")
        for l in lines or []:  # the better of start and end
            d = B.parse_kv(l)
            fma[(d["kind"], T)] = max(fma.get((d["kind"], T), 0.0), float(d["gflops"]))
        if err:
            log(f"gemm_limits fma T={T}: {err}")
        cmd = [exe, "--mode=read", f"--threads={T}", f"--runs={5 if quick else 10}"] + (["--mib=128"] if quick else [])
        lines, err = B.run_cmd(cmd, env, prefix="gemm_limits:")
        if err:
            log(f"gemm_limits read T={T}: {err}")
            continue
        read[(T, tag)] = float(B.parse_kv(lines[-1])["gbps"])
        log(f"  limits ({tag}) T={T}: " + ", ".join(f"{k}={v:.0f} GFLOP/s" for (k, t), v in fma.items() if t == T)
            + f"; read {read[(T, tag)]:.1f} GB/s")


SLOW = 0.8  # a cell whose FMA probe reached less than this of the run's peak is marked ‡


def probe(build, T):
    """f32 FMA GFLOP/s of T threads over ~0.1 s: whether the VM delivers T cores now.

    A hypervisor that takes a vCPU away shows no steal time in /proc/stat on
    some VMs (the † check cannot see it): the 2-thread cells then run at
    1-thread speed, peers and project alike."""
    lines, err = B.run_cmd([os.path.join(build, "gemm_limits"), "--mode=fma", f"--threads={T}", "--seconds=0.1"],
                           {"OMP_NUM_THREADS": str(T)}, prefix="gemm_limits:")
    for l in lines or []:
        d = B.parse_kv(l)
        if d.get("kind", "").startswith("f32-"):
            return float(d["gflops"])
    return None


def slow_probe(c, fma):
    """The worse FMA probe of a cell as a fraction of the run's f32 peak for its threads, or None."""
    peak = max([v for (k, t), v in fma.items() if t == c["T"] and k.startswith("f32-")], default=None)
    probes = [g for g in c.get("probes", []) if g]
    if not peak or not probes:
        return None
    return min(probes) / peak


def marks(c, fma):
    slow = slow_probe(c, fma)
    return ("†" if c["foreign"] > FOREIGN else "") + ("‡" if slow is not None and slow < SLOW else "")


def compute_peak(fma, dt, T):
    """The FMA peak that bounds the project's GEMM: bf16 runs vdpbf16ps where
    the CPU has it, so the bf16-dot peak; else the f32 one."""
    kind = "bf16-dot" if dt == "bf16" and any(k == "bf16-dot" for (k, _) in fma) else "f32-"
    return max([v for (k, t), v in fma.items() if t == T and k.startswith(kind)], default=None)


def best_read(read, T):
    v = [g for (t, _), g in read.items() if t <= T]
    return max(v) if v else None


# ---------------------------------------------------------------------------
# the project (norm-run)

KERNELS = {
    # key: (file stem, entry, dims(M, K, N))
    "fused": ("gemm_rms_mm_{dt}", "rms_mm", lambda M, K, N: [M, K, K, K, N, M, N]),
    "fused_t": ("gemm_rms_mm_t_{dt}", "rms_mm_t", lambda M, K, N: [M, K, K, N, K, M, N]),
    "mm": ("gemm_matmul_{dt}", "matmul", lambda M, K, N: [M, K, K, N, M, N]),
    "unfused": ("gemm_unfused_{dt}", "unfused", lambda M, K, N: [M, K, K, M, K, K, N, M, N]),
}


def nr_base(args, key, dt, M, K, N, T, pipeline="project"):
    stem, entry, dims = KERNELS[key]
    return [args.norm_run, os.path.join(args.kernels, stem.format(dt=dt) + ".mlir"), f"--entry={entry}",
            f"--pipeline={pipeline}", f"--threads={T}", "--dims=" + ",".join(map(str, dims(M, K, N)))]


def nr_run(cmd, T, timeout=600):
    lines, err = B.run_cmd(cmd, {"OMP_NUM_THREADS": str(T)}, timeout=timeout, prefix="norm-run:")
    if err:
        return {"na": err}
    d = B.parse_kv(lines[-1])
    r = {"median_ms": float(d["median_ms"]), "min_ms": float(d["min_ms"])}
    for k in ("rel_err", "cmp_rel_err"):
        if k in d:
            r[k] = d[k]
    if "status" in d:
        r["status"] = d["status"]
    return r


def reps_for(t_ms, target):
    return max(3, min(100000, int(target * 1e3 / max(t_ms, 1e-6))))


def project_cell(args, key, dt, M, K, N, T, target, hint_ms):
    """Times one project kernel (median of `--repeat` calls, repeat aimed at
    `target` seconds from the hint, redone once if the hint was far off) and
    checks it: --check for the fused ops (full shape when cheap, else
    CHECK_ROWS rows), --compare-pipeline against upstream's matmul loops
    (lower-matmuls=false) for the matmul alone and the unfused sequence."""
    base = nr_base(args, key, dt, M, K, N, T)
    fused = key.startswith("fused")
    full_check = fused and M * K * N <= CHECK_FULL_MACS

    def timed(rep, check):
        return nr_run(base + ["--warmup=1", f"--repeat={rep}"] + (["--check"] if check else []), T)

    r = timed(reps_for(hint_ms, target), full_check)
    if "na" in r and full_check:
        return r
    if "median_ms" in r and r["median_ms"] * reps_for(hint_ms, target) < target * 1e3 / 4:
        r2 = timed(reps_for(r["median_ms"], target), False)  # the hint was far off: more calls
        if "median_ms" in r2:
            r2.update({k: r[k] for k in ("status", "rel_err") if k in r})
            r = r2
    for _ in range(2):  # noisy: run again, keep the lower median
        if not ("median_ms" in r and r["median_ms"] > NOISY * r["min_ms"]):
            break
        r2 = timed(reps_for(r["median_ms"], target), False)
        if "median_ms" in r2 and r2["median_ms"] < r["median_ms"]:
            r2.update({k: r[k] for k in ("status", "rel_err") if k in r})
            r = r2
    if "median_ms" in r and r["median_ms"] > NOISY * r["min_ms"]:
        r["noisy"] = True
    if "na" in r:
        return r
    Mc = M if full_check or M <= CHECK_ROWS else CHECK_ROWS
    if fused and not full_check:
        c = nr_run(nr_base(args, key, dt, Mc, K, N, T) + ["--warmup=0", "--repeat=1", "--check"], T)
        r["status"], r["rel_err"], r["checked"] = c.get("status", "FAIL"), c.get("rel_err", c.get("na")), Mc
    elif not fused:
        ref = f"builtin.module(norm-lower-to-cpu{{lower-matmuls=false num-threads={T}}})"
        c = nr_run(nr_base(args, key, dt, Mc, K, N, T) + ["--warmup=0", "--repeat=1", f"--compare-pipeline={ref}"], T)
        r["status"], r["rel_err"], r["checked"] = c.get("status", "FAIL"), c.get("cmp_rel_err", c.get("na")), Mc
    else:
        r["checked"] = M
    return r


PAIR_ROUNDS = 3


def paired_rounds(args, dt, M, K, N, T, target, hint_ms):
    """fused / own matmul from PAIR_ROUNDS interleaved rounds (fused, then
    the matmul, then the matmul, then fused, ...), each kernel timed for
    about `target` / 2 s per round: the ratio of two medians taken minutes
    apart on this VM moves by ±10% with the host's load, the ratio of two
    taken side by side much less. Returns the per-round ratios."""
    reps = reps_for(hint_ms, target / 2)
    ratios = []
    for i in range(PAIR_ROUNDS):
        order = ("fused", "mm") if i % 2 == 0 else ("mm", "fused")
        t = {}
        for key in order:
            r = nr_run(nr_base(args, key, dt, M, K, N, T) + ["--warmup=1", f"--repeat={reps}"], T)
            if "median_ms" not in r:
                return []
            t[key] = r["median_ms"]
        ratios.append(t["fused"] / t["mm"])
    return ratios


def upstream_cell(args, dt, M, K, N, T, rates):
    """The fused kernel through --pipeline=upstream (--norm-decompose, then
    upstream MLIR's loops), one call. Skipped when the estimate from the
    last measured rate is above --upstream-max seconds."""
    rate = rates.get((dt, T), rates.get(dt, 0.5e9))  # flop/s; 0.5 GFLOP/s before any measurement
    est = flops(M, K, N) / rate
    if est > args.upstream_max:
        return {"skipped": est}
    check = M * K * N <= CHECK_FULL_MACS
    r = nr_run(nr_base(args, "fused", dt, M, K, N, T, "upstream") + ["--warmup=0", "--repeat=1"]
               + (["--check"] if check else []), T, timeout=int(max(60, 4 * args.upstream_max)))
    if "median_ms" in r:
        rates[(dt, T)] = rates[dt] = flops(M, K, N) / (r["median_ms"] * 1e-3)
        r["checked"] = M if check else None
    return r


# ---------------------------------------------------------------------------
# peers


def peer_cell(cmd, T, env_extra, prefix):
    """Runs a peer that prints one line per mode (rms_mm, mm); retries noisy modes."""
    env = {"OMP_NUM_THREADS": str(T), "OPENBLAS_NUM_THREADS": str(T)}
    env.update(env_extra)
    out = {}
    for attempt in range(3):
        lines, err = B.run_cmd(cmd, env, timeout=900, prefix=prefix)
        if err:
            return {"rms_mm": {"na": err}, "mm": {"na": err}}
        for l in lines:
            d = B.parse_kv(l)
            m = d.get("mode")
            if d.get("unsupported"):
                out[m] = {"na": "unsupported"}
                continue
            r = {"median_ms": float(d["median_ms"]), "min_ms": float(d["min_ms"]), "status": d.get("status"),
                 "rel_err": d.get("rel_err"), "checksum": float(d.get("checksum", "nan")), "impl": d.get("impl")}
            if m not in out or ("median_ms" in out[m] and r["median_ms"] < out[m]["median_ms"]):
                out[m] = r
        if not any("median_ms" in r and r["median_ms"] > NOISY * r["min_ms"] for r in out.values()):
            break
    for r in out.values():
        if "median_ms" in r and r["median_ms"] > NOISY * r["min_ms"]:
            r["noisy"] = True
    return out


# ---------------------------------------------------------------------------
# formatting


def ms(r):
    return r.get("median_ms") if r else None


def cell(r, base=None):
    if r is None or "na" in r:
        return "n/a"
    if "skipped" in r:
        return f"skipped (est. {r['skipped']:.0f} s)"
    if r.get("status") == "FAIL":
        return f"FAIL (err {r.get('rel_err')})"
    s = B.fmt_t(r["median_ms"]) + ("~" if r.get("noisy") else "")
    if base:
        s += f" ({r['median_ms'] / base:.2f}×)"
    return s


def pct(num, den):
    return f"{100 * num / den:.0f}%" if num and den else "n/a"


def mark(ok, applies):
    if not applies or ok is None:
        return ""
    return " ✓" if ok else " ✗"


# ---------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--norm-run", default="")
    ap.add_argument("--kernels", default=os.path.join(HERE, "kernels"))
    ap.add_argument("--torch-python", default="")
    ap.add_argument("--have-dnnl", action="store_true")
    ap.add_argument("--have-openblas", action="store_true")
    ap.add_argument("--openblas-coretype", default="")
    ap.add_argument("--cxx", default="clang++-22")
    ap.add_argument("--target", type=float, default=0.5, help="seconds of timed calls per cell")
    ap.add_argument("--upstream-max", type=float, default=20.0, help="skip upstream cells estimated above this (s)")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only", type=parse_shape, action="append", default=[], help="MxKxN (repeatable)")
    ap.add_argument("--command", default="bash bench/cpu/run-gemm.sh")
    args = ap.parse_args()

    t_start = time.time()
    load0 = os.getloadavg()
    run0 = B.cpu_sample()
    shapes = args.only or (QUICK_SHAPES if args.quick else SHAPES)
    target = min(args.target, 0.15) if args.quick else args.target
    have_nr = bool(args.norm_run) and os.access(args.norm_run, os.X_OK)
    info = B.machine_info(args)
    log(f"machine: {info['cpu']}; load average {load0[0]:.2f}")
    if not have_nr:
        log(f"norm-run not found ({args.norm_run or 'not given'}): project and upstream columns are n/a")
    ob_env = {"OPENBLAS_CORETYPE": args.openblas_coretype} if args.openblas_coretype else {}

    fma, read = {}, {}
    log("FMA peak and read bandwidth ...")
    limits(args.build, args.quick, fma, read, "start")

    results = []
    rates = {}
    s0_cells = B.cpu_sample()
    for (M, K, N) in shapes:
        for dt in DTYPES:
            for T in THREADS:
                c = {"M": M, "K": K, "N": N, "dtype": dt, "T": T}
                probes = [probe(args.build, T)]
                s0 = B.cpu_sample()
                common = [f"--dtype={dt}", f"--m={M}", f"--k={K}", f"--n={N}", f"--threads={T}", f"--target={target}"]
                na = {"rms_mm": {"na": "not installed"}, "mm": {"na": "not installed"}}
                if dt == "bf16":
                    c["openblas"] = {"rms_mm": {"na": "no sbgemm"}, "mm": {"na": "no sbgemm"}}
                elif args.have_openblas:
                    c["openblas"] = peer_cell([os.path.join(args.build, "gemm_openblas")] + common, T, ob_env, "gemm_openblas:")
                else:
                    c["openblas"] = na
                c["dnnl"] = peer_cell([os.path.join(args.build, "gemm_dnnl")] + common, T, {}, "gemm_dnnl:") if args.have_dnnl else na
                c["torch"] = (peer_cell([args.torch_python, os.path.join(HERE, "torch_gemm.py")] + common, T, ob_env, "torch_gemm:")
                              if args.torch_python else na)
                peer_mm = [ms(c[p].get("mm")) for p in ("dnnl", "openblas", "torch") if ms(c[p].get("mm"))]
                hint = min(peer_mm) if peer_mm else flops(M, K, N) / (50e9 * T) * 1e3
                for key in ("fused", "mm", "unfused", "fused_t"):
                    if not have_nr:
                        c[key] = {"na": "norm-run not built"}
                    else:
                        c[key] = project_cell(args, key, dt, M, K, N, T, target, ms(c.get("fused")) or hint)
                if have_nr and ms(c["fused"]) and ms(c["mm"]):
                    c["pairs"] = paired_rounds(args, dt, M, K, N, T, target, ms(c["fused"]))
                c["upstream"] = upstream_cell(args, dt, M, K, N, T, rates) if have_nr else {"na": "norm-run not built"}
                c["foreign"] = B.foreign_cores(s0, B.cpu_sample())
                probes.append(probe(args.build, T))
                c["probes"] = probes
                results.append(c)
                log(f"  {shape_str((M, K, N))} {dt} T={T}: " + "  ".join(
                    f"{k}={B.fmt_t(ms(c[k])) if ms(c[k]) else 'n/a'}" for k in ("fused", "mm", "unfused", "fused_t", "upstream"))
                    + "  " + "  ".join(f"{p}:{m}={B.fmt_t(ms(c[p][m])) if ms(c[p].get(m)) else 'n/a'}"
                                       for p in ("openblas", "dnnl", "torch") for m in ("mm", "rms_mm"))
                    + f" ms; others used {c['foreign']:.2f} cores; FMA probe before / after "
                    + " / ".join(f"{g:.0f}" if g else "n/a" for g in probes) + " GFLOP/s"
                    + ("; fused / own mm in paired rounds " + ", ".join(f"{x:.3f}" for x in c["pairs"])
                       if c.get("pairs") else ""))

    log("FMA peak and read bandwidth again ...")
    s_end = B.cpu_sample()
    limits(args.build, args.quick, fma, read, "end")
    lim_foreign = max(B.foreign_cores(run0, s0_cells), B.foreign_cores(s_end, B.cpu_sample()))
    run_foreign = B.foreign_cores(run0, B.cpu_sample())
    wall = time.time() - t_start

    # ---- report -------------------------------------------------------------
    L = []
    date = datetime.datetime.now().strftime("%Y-%m-%d %H:%M %Z").strip()
    L.append(f"# norm-mlir CPU fused norm → matmul benchmark — {socket.gethostname()}, {date}")
    L.append("")
    L.append(f"- command: `{args.command}` (wall time {wall / 60:.1f} min)")
    L.append(f"- machine: {info['cpu']}, Linux {info['kernel']}")
    worst = max(results, key=lambda c: c["foreign"]) if results else None
    L.append(f"- other processes used {run_foreign:.2f} cores on average during the run"
             + (f" (at most {worst['foreign']:.2f} during a cell: {shape_str((worst['M'], worst['K'], worst['N']))} "
                f"{worst['dtype']} T={worst['T']})" if worst else "")
             + f"; load average before the run {load0[0]:.2f}"
             + (" — **the machine was not quiet: see the † cells**" if any(c["foreign"] > FOREIGN for c in results) else ""))
    openblas_ver = B.sh("dpkg-query -W -f='${Version}' libopenblas-dev 2>/dev/null") or "not installed"
    L.append(f"- compiler: {info['cxx']}; oneDNN: {info['dnnl']}; OpenBLAS: {openblas_ver}"
             f" (OPENBLAS_CORETYPE={args.openblas_coretype or 'auto'}); PyTorch: {info['torch']}; "
             f"norm-mlir tree: {info['rev']}; norm-run: {args.norm_run if have_nr else 'not built (n/a)'}")
    L.append("- problem: C = rms_norm(X; γ, ε = 1e-6) · W, X M×K, γ K, W K×N row-major (sgemm NN), C M×N, "
             "no matmul bias; f32 accumulation everywhere; GFLOP/s = 2·M·K·N / median time")
    L.append("")
    L.append("## Machine limits")
    L.append("")
    L.append(f"Other processes used up to {lim_foreign:.2f} cores while these were measured.")
    L.append("")
    L.append("| limit | 1 thread | 2 threads |")
    L.append("|---|---|---|")
    for k in sorted({k for k, _ in fma}):
        L.append(f"| FMA peak, {k} (16 independent chains per thread, best of 10, better of start and end), GFLOP/s | "
                 + " | ".join(f"{fma[(k, T)]:.1f}" if (k, T) in fma else "n/a" for T in THREADS) + " |")
    L.append(f"| streaming read, {128 if args.quick else 256} MiB, vector loads (best of {5 if args.quick else 10}), "
             "GB/s, start / end | " + " | ".join(" / ".join(f"{read[(T, t)]:.1f}" if (T, t) in read else "n/a"
                                                         for t in ("start", "end")) for T in THREADS) + " |")
    L.append("")
    L.append("## Times (median ms per call; (×) = time / the project's fused time, > 1: the fused kernel is faster)")
    L.append("")
    L.append("| M×K×N | dtype | thr | fused ms | GFLOP/s | % FMA peak (f32 / bf16-dot) | own matmul alone | unfused norm + matmul | "
             "fused, W as N×K | upstream MLIR | OpenBLAS mm | OpenBLAS norm+mm | oneDNN mm | oneDNN norm+mm | "
             "PyTorch mm | PyTorch norm+mm |")
    L.append("|" + "---|" * 16)
    notes = set()
    failed = []
    for c in results:
        M, K, N, dt, T = c["M"], c["K"], c["N"], c["dtype"], c["T"]
        f = ms(c["fused"])
        gf = flops(M, K, N) / (f * 1e-3) * 1e-9 if f else None
        peak = compute_peak(fma, dt, T)
        row = [shape_str((M, K, N)), dt, str(T) + marks(c, fma),
               cell(c["fused"]), f"{gf:.0f}" if gf else "n/a", pct(gf, peak),
               cell(c["mm"], f), cell(c["unfused"], f), cell(c["fused_t"], f), cell(c["upstream"], f)]
        for p in ("openblas", "dnnl", "torch"):
            row += [cell(c[p].get("mm"), f), cell(c[p].get("rms_mm"), f)]
        L.append("| " + " | ".join(row) + " |")
        for k in ("fused", "mm", "unfused", "fused_t", "upstream"):
            r = c[k]
            if r.get("status") == "FAIL":
                failed.append(f"{k} {shape_str((M, K, N))} {dt} T={T}")
            if "na" in r and r["na"] not in ("norm-run not built", "bf16"):
                notes.add(f"project {k} n/a on {shape_str((M, K, N))} {dt} T={T}: {r['na'][:160]}")
            if k in ("mm", "unfused") and r.get("checked"):
                notes.add(f"project {k}: norm-run --check covers only norm ops, so C is compared (--compare-pipeline, "
                          f"tolerance 1e-4) with the same kernel with lower-matmuls=false (upstream's matmul loops), "
                          f"at min(M, {CHECK_ROWS})×K×N")
            elif r.get("checked") and r["checked"] != M:
                notes.add(f"project {k}: --check (float64 reference of C) at {r['checked']}×K×N when M·K·N > "
                          f"{CHECK_FULL_MACS:.0e} (the reference is a scalar triple loop)")
        for p in ("openblas", "dnnl", "torch"):
            for m in ("mm", "rms_mm"):
                r = c[p].get(m, {})
                if r.get("status") == "FAIL":
                    failed.append(f"{p} {m} {shape_str((M, K, N))} {dt} T={T}")
                if "na" in r and r["na"] not in ("not installed", "no sbgemm", "unsupported"):
                    notes.add(f"{p} {m} n/a on {shape_str((M, K, N))} {dt} T={T}: {r['na'][:160]}")
            # the peers see the same inputs: their checksums must agree
        for m in ("mm", "rms_mm"):
            cs = [(p, c[p][m]["checksum"]) for p in ("openblas", "dnnl", "torch") if "checksum" in c[p].get(m, {})]
            tol = (1e-2 if dt == "bf16" else 1e-4) * 3 * N
            for p, v in cs[1:]:
                if abs(v - cs[0][1]) > tol:
                    notes.add(f"{p} {m} checksum differs from {cs[0][0]}'s on {shape_str((M, K, N))} {dt} ({v} vs {cs[0][1]})")
    L.append("")
    L.append("`†`: other processes used more than a quarter of a core during the cell; `‡`: an f32 FMA probe of the "
             f"cell's threads right before or after it reached less than {SLOW:.0%} of the run's peak (the VM did not "
             "deliver that many cores, which /proc/stat need not show): its times, the peers' included, say little; "
             "`~`: median > 1.5× the minimum "
             "after two reruns; `FAIL`: the output failed its check (no time shown). Project columns: `norm-run "
             "--pipeline=project` (`norm-lower-to-cpu`, `lower-matmuls` on); *own matmul alone* is `linalg.fill` + "
             "`linalg.matmul` (bf16: bf16 inputs, f32 C, the same f32-accumulating GEMM); *unfused* is "
             "`norm.rms_norm` then `linalg.fill` + `linalg.matmul` through a scratch y (bf16: bf16 y, f32 C); "
             "*upstream MLIR* is the fused kernel through `--pipeline=upstream` (`--norm-decompose` + upstream "
             "loops), one call, skipped when the estimate from the previous upstream cell's rate exceeds "
             f"{args.upstream_max:g} s (before any upstream cell: 0.5 GFLOP/s assumed). Peers' *norm+mm*: a C++ RMSNorm loop (oneDNN 2.6 and OpenBLAS have no "
             "RMSNorm) then the library matmul; PyTorch: the eager LlamaRMSNorm module then `@`. OpenBLAS has no "
             "bf16 GEMM here (n/a).")
    impls = sorted({f"{p} {c['dtype']}: {c[p]['mm']['impl']}" for c in results for p in ("dnnl", "openblas")
                    if (c[p].get("mm") or {}).get("impl")})
    if impls:
        L.append(f"Implementations: {'; '.join(impls)}.")

    # ---- targets ------------------------------------------------------------
    L.append("")
    L.append("## Issue 4 targets (✓/✗ where the issue sets the target for that cell)")
    L.append("")
    L.append("| M×K×N | dtype | thr | best BLAS mm alone / fused (≥ 85%) | fused / own matmul alone (≤ 1.03) | "
             "fastest peer norm+mm / fused (> 1) | M ≤ 16: W bytes / time / read BW (≥ 85%) | "
             "bf16: oneDNN bf16 mm / fused (≥ 80%) |")
    L.append("|---|---|---|---|---|---|---|---|")
    big = {(512, 4096, 11008), (2048, 2048, 2048)}
    for c in results:
        M, K, N, dt, T = c["M"], c["K"], c["N"], c["dtype"], c["T"]
        f = ms(c["fused"]) if c["fused"].get("status") != "FAIL" else None
        f32big = dt == "f32" and (M, K, N) in big
        blas = [ms(c[p].get("mm")) for p in ("openblas", "dnnl") if ms(c[p].get("mm"))]
        e_blas = min(blas) / f if blas and f else None
        own = ms(c["mm"])
        pairs = sorted(c.get("pairs") or [])
        e_own = pairs[len(pairs) // 2] if pairs and f else (f / own if own and f else None)
        peers = [(ms(c[p].get("rms_mm")), p) for p in ("openblas", "dnnl", "torch") if ms(c[p].get("rms_mm"))]
        e_peer = (min(peers)[0] / f, min(peers)[1]) if peers and f else None
        bw = best_read(read, T)
        wbytes = K * N * (2 if dt == "bf16" else 4)
        e_bw = wbytes / (f * 1e-3) * 1e-9 / bw if f and bw and M <= 16 else None
        # The W stream bounds the time only where the FMAs take less: the
        # best fraction of the read bandwidth the FMA peak allows.
        peak = compute_peak(fma, dt, T)
        e_bw_max = (min(1.0, (wbytes / (bw * 1e9)) / (flops(M, K, N) / (peak * 1e9)))
                    if e_bw and peak else None)
        dn = ms(c["dnnl"].get("mm"))
        e_bf = dn / f if dt == "bf16" and dn and f else None
        row = [shape_str((M, K, N)), dt, str(T) + marks(c, fma),
               (f"{100 * e_blas:.0f}%" + mark(e_blas >= 0.85, f32big)) if e_blas else "n/a",
               (f"{e_own:.3f}" + (f" ({pairs[0]:.3f}–{pairs[-1]:.3f})" if pairs else " (unpaired)")
                + mark(e_own <= 1.03, True)) if e_own else "n/a",
               (f"{e_peer[0]:.2f}× ({e_peer[1]})" + mark(e_peer[0] > 1, f32big)) if e_peer else "n/a",
               (f"{100 * e_bw:.0f}% ({wbytes / (f * 1e-3) * 1e-9:.1f} of {bw:.1f} GB/s)" + mark(e_bw >= 0.85, True)
                + (f"; FMA peak allows ≤ {100 * e_bw_max:.0f}%" if e_bw_max is not None and e_bw_max < 1 else ""))
               if e_bw else "—",
               (f"{100 * e_bf:.0f}%" + mark(e_bf >= 0.80, True)) if e_bf else "—"]
        L.append("| " + " | ".join(row) + " |")
    L.append("")
    L.append(f"fused / own matmul: the median of {PAIR_ROUNDS} interleaved rounds' ratios (range in brackets; "
             "each round times both kernels back to back, alternating which goes first), not the ratio of the "
             "times table's medians, which were taken minutes apart; *unpaired*: the rounds failed, the times "
             "table's ratio. *FMA peak allows ≤ x%*: the cell's FMAs at the measured peak (f32, or bf16-dot for "
             "bf16) take longer than streaming W, so no kernel can stream W faster than x% of the read bandwidth.")
    L.append("")
    L.append("Read BW: the best streaming-read bandwidth with ≤ thr threads (start or end of the run). W bytes = K·N·esize; "
             f"a W not much larger than the L3 ({B.CACHE_LIMIT_BYTES >> 20} MiB here; a bf16 4096×4096 W is 32 MiB) "
             "stays partly cached between calls, so > 100% is possible. % FMA peak: of the f32 FMA peak for f32, of "
             "the bf16-dot peak (vdpbf16ps, which the project's bf16 GEMM and oneDNN use on AVX512-BF16 CPUs) for "
             "bf16. The peers' norm+mm uses f32 accumulation and, for bf16, a bf16 y between the two.")
    if notes:
        L.append("")
        L.append("Notes:")
        for n in sorted(notes):
            L.append(f"- {n}")
    if failed:
        L.append("")
        L.append("**Failed checks:** " + "; ".join(failed))
    table = "\n".join(L) + "\n"
    print(table)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as fo:
        fo.write(table)
        fo.write("\n<details><summary>raw tool output</summary>\n\n```\n")
        fo.write("\n".join(B.RAW))
        fo.write("\n```\n</details>\n")
    log(f"wrote {args.out}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
