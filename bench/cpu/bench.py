#!/usr/bin/env python3
"""Driver for bench/cpu/run.sh: runs every cell and writes the table.

Standard library only (no PyPI on the target machines). run.sh compiles the
C++ programs and calls this script; see bench/cpu/README.md for the columns.
"""
import argparse
import datetime
import os
import platform
import re
import shutil
import socket
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))

OPS = [("rms", "RMSNorm", "rms_norm"), ("ln", "LayerNorm", "layer_norm")]
DTYPES = ["f32", "bf16"]
SHAPES = [(8192, 8192), (4096, 4096), (32768, 1024), (16, 4096), (1, 4096)]
THREADS = [1, 2]


def l3_bytes():
    """Size of the last-level cache (sysfs), 8 MiB if unknown."""
    best = 0
    base = "/sys/devices/system/cpu/cpu0/cache"
    try:
        for d in os.listdir(base):
            try:
                with open(os.path.join(base, d, "size")) as f:
                    s = f.read().strip()
                v = int(s[:-1]) * {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}[s[-1]] if s[-1] in "KMG" else int(s)
                best = max(best, v)
            except (OSError, ValueError, KeyError):
                pass
    except OSError:
        pass
    return best or (8 << 20)


# Cells moving at most the last-level cache size are compared with an
# in-cache copy of the same byte count, larger ones with the DRAM copy.
CACHE_LIMIT_BYTES = l3_bytes()
NOISY = 1.5                  # median/min above this: rerun once, then mark with '~'

RAW = []  # every tool line, for the appendix of the report


def cpu_sample():
    """(wall s, all-CPU busy s from /proc/stat, CPU s of this driver and its finished children)."""
    busy = 0.0
    try:
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:9]]
        hz = os.sysconf("SC_CLK_TCK")
        busy = (v[0] + v[1] + v[2] + v[5] + v[6] + v[7]) / hz  # user nice system irq softirq steal
    except (OSError, ValueError, IndexError):
        pass
    t = os.times()
    return time.time(), busy, t.user + t.system + t.children_user + t.children_system


def foreign_cores(s0, s1):
    """Average number of cores used by other processes between two samples."""
    wall = s1[0] - s0[0]
    if wall <= 0 or s1[1] == 0:
        return 0.0
    return max(0.0, ((s1[1] - s0[1]) - (s1[2] - s0[2])) / wall)


FOREIGN = 0.25  # cores used by other processes during a cell above which it is marked †


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def write_report(text, out):
    """Prints the report and writes it to `out` (if any) with the raw output."""
    print(text)
    if out:
        with open(out, "w") as f:
            f.write(text + "\n## Raw output\n\n```\n" + "\n".join(RAW) + "\n```\n")


def nbytes(op, dtype, R, H):
    e = 2 if dtype == "bf16" else 4
    return e * (2 * R * H + (2 if op == "ln" else 1) * H)


def parse_kv(line):
    d = {}
    for tok in line.split():
        if "=" in tok:
            k, _, v = tok.partition("=")
            d[k] = v
        elif tok in ("PASS", "FAIL"):
            d["status"] = tok
        elif tok == "unsupported":
            d["unsupported"] = True
    return d


def run_cmd(cmd, env_extra=None, timeout=600, prefix=None):
    env = dict(os.environ)
    if env_extra:
        env.update(env_extra)
    t0 = time.time()
    for attempt in range(7):
        try:
            p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
            break
        except subprocess.TimeoutExpired:
            RAW.append(f"$ {' '.join(cmd)}\n(timeout after {timeout} s)")
            return None, f"timeout after {timeout} s"
        except OSError as e:
            # e.g. norm-run being relinked by a concurrent build: wait and retry
            if attempt == 6:
                RAW.append(f"$ {' '.join(cmd)}\n({e})")
                return None, str(e)
            time.sleep(5)
    dt = time.time() - t0
    out = p.stdout.strip()
    lines = [l for l in out.splitlines() if prefix is None or l.startswith(prefix)]
    RAW.append(f"$ {' '.join(cmd)}   # {dt:.1f} s, rc={p.returncode}\n" + "\n".join(lines))
    if p.returncode != 0 or not lines:
        err = (p.stderr.strip().splitlines() or ["(no output)"])[-1]
        RAW.append("stderr: " + err)
        return None, f"rc={p.returncode}: {err}"
    return lines, None


# ---------------------------------------------------------------------------
# machine limits


# copy_bw's vector ISA (avx512 or avx2, chosen at run time), for the report.
COPY_ISA = ["?"]


def dram_copy(build, threads, quick, dram, tag):
    exe = os.path.join(build, "copy_bw")
    for T in threads:
        cmd = [exe, "--mode=dram", f"--threads={T}", f"--runs={5 if quick else 10}"]
        if quick:
            cmd.append("--mib=256")
        lines, err = run_cmd(cmd, {"OMP_NUM_THREADS": str(T)}, prefix="copy_bw:")
        if err:
            log(f"copy_bw dram T={T}: {err}")
            continue
        for l in lines:
            d = parse_kv(l)
            if "isa" in d:  # copy_bw's first line: the vector ISA it picked
                COPY_ISA[0] = d["isa"]
                continue
            dram[(d["kind"], T, tag)] = float(d["gbps"])
        log(f"  copy DRAM ({tag}, {COPY_ISA[0]}) T={T}: " + ", ".join(f"{k}={dram.get((k, T, tag), 0):.1f}" for k in ("nt", "plain", "memcpy", "rms-f32", "rms-bf16")) + " GB/s")


def copy_limits(build, threads, cache_bytes, patterns, quick):
    """DRAM copies (best of N), in-cache copies of the given byte counts and
    the norm-pattern streams (median; the better of two runs each, since a
    limit is what the machine can do)."""
    dram, cache, pattern = {}, {}, {}
    exe = os.path.join(build, "copy_bw")
    dram_copy(build, threads, quick, dram, "start")
    for B in sorted(cache_bytes):
        for T in [t for t in threads for _ in range(2)]:
            lines, err = run_cmd([exe, "--mode=cache", f"--threads={T}", f"--bytes={B}",
                                  f"--target={0.1 if quick else 0.3}"], {"OMP_NUM_THREADS": str(T)},
                                 prefix="copy_bw:")
            if err:
                log(f"copy_bw cache B={B} T={T}: {err}")
                continue
            for l in lines:
                d = parse_kv(l)
                if "kind" not in d:
                    continue
                key = (B, d["kind"], T)
                cache[key] = max(cache.get(key, 0.0), float(d["gbps"]))
    for (op, dt, R, H) in sorted(patterns):
        for T in threads:
            for _ in range(2):
                lines, err = run_cmd([exe, "--mode=pattern", f"--threads={T}", f"--rows={R}", f"--hidden={H}",
                                      f"--esize={2 if dt == 'bf16' else 4}", f"--weights={2 if op == 'ln' else 1}",
                                      f"--target={0.1 if quick else 0.3}"], {"OMP_NUM_THREADS": str(T)},
                                     prefix="copy_bw:")
                if err:
                    log(f"copy_bw pattern {op} {dt} {R}x{H} T={T}: {err}")
                    continue
                key = (op, dt, R, H, T)
                pattern[key] = max(pattern.get(key, 0.0), float(parse_kv(lines[-1])["gbps"]))
    return dram, cache, pattern


def limit_for(bytes_, T, dram, cache):
    """Best copy bandwidth reachable with at most T threads, and its kind."""
    if bytes_ <= CACHE_LIMIT_BYTES:
        c = [(v, f"cache {k}, {t}T") for (B, k, t), v in cache.items() if B == bytes_ and t <= T]
    else:
        c = [(v, f"DRAM nt, {t}T") for (k, t, _), v in dram.items() if k == "nt" and t <= T]
    return max(c) if c else (None, "n/a")


# ---------------------------------------------------------------------------
# implementations


def result_from(d):
    if d.get("unsupported"):
        return {"na": "unsupported"}
    r = {"median_ms": float(d["median_ms"]), "min_ms": float(d["min_ms"]), "bytes": float(d.get("bytes", 0))}
    if "status" in d:
        r["status"] = d["status"]
        r["rel_err"] = d.get("rel_err")
    if "checksum" in d:
        r["checksum"] = float(d["checksum"])
    if "impl" in d:
        r["impl"] = d["impl"]
    return r


def run_tool(cmd, T, prefix):
    lines, err = run_cmd(cmd, {"OMP_NUM_THREADS": str(T)}, prefix=prefix)
    if err:
        return {"na": err}
    return result_from(parse_kv(lines[-1]))


def with_retry(fn):
    """Run; if noisy (median >> min), run again and keep the lower median."""
    r = fn()
    for _ in range(2):
        if not ("median_ms" in r and r["median_ms"] > NOISY * r["min_ms"]):
            break
        r2 = fn()
        if "median_ms" in r2 and r2["median_ms"] < r["median_ms"]:
            r = r2
        r["retried"] = True
    if "median_ms" in r and r["median_ms"] > NOISY * r["min_ms"]:
        r["noisy"] = True
    return r


def run_norm_run(exe, kernels, op, dtype, R, H, T, target, t_hint_ms, pipeline, check=True):
    name = dict((o, f) for o, _, f in OPS)[op]
    mlir = os.path.join(kernels, f"{name}_{dtype}.mlir")
    dims = [R, H, H] + ([H] if op == "ln" else []) + [R, H]
    return time_norm_run(exe, mlir, name, dims, T, target, t_hint_ms, pipeline, check)


def time_norm_run(exe, mlir, entry, dims, T, target, t_hint_ms, pipeline, check=True):
    """One norm-run cell: a calibration run (with --check), then timed runs."""
    base = [exe, mlir, f"--entry={entry}", f"--pipeline={pipeline}", f"--threads={T}",
            "--dims=" + ",".join(map(str, dims))]
    env = {"OMP_NUM_THREADS": str(T)}
    # Calibration run (and correctness check): about 50 ms of calls at the hinted speed.
    n0 = max(1, min(100000, int(50.0 / max(t_hint_ms, 1e-6))))
    cal_cmd = base + ["--warmup=1", f"--repeat={n0}"] + (["--check"] if check else [])
    lines, err = run_cmd(cal_cmd, env, prefix="norm-run:")
    if err and check:
        # --check may be unsupported or fail to run: retry without it.
        lines, err = run_cmd(base + ["--warmup=1", f"--repeat={n0}"], env, prefix="norm-run:")
        check = False
    if err:
        return {"na": err}
    cal = parse_kv(lines[-1])
    t_cal = float(cal["median_ms"])
    status = cal.get("status") if check else None

    def final():
        if t_cal > 300:
            warm, rep = 1, 3
        else:
            warm, rep = 2, max(3, min(1000000, int(target * 1e3 / max(t_cal, 1e-6))))
        lines, err = run_cmd(base + [f"--warmup={warm}", f"--repeat={rep}"], env, prefix="norm-run:")
        if err:
            return {"na": err}
        r = result_from(parse_kv(lines[-1]))
        r["repeat"] = rep
        return r

    r = with_retry(final)
    if status:
        r["status"] = status
        r["rel_err"] = cal.get("rel_err")
    return r


# ---------------------------------------------------------------------------
# strided rows (issue 26): a norm on a column slice of wider rows beside the
# same norm on contiguous rows of the same length (kernels/rms_norm_strided_f32.mlir)

# (case, strided entry, contiguous entry, rows, row length n, row stride)
STRIDED = [
    ("MLA kv_a: 512 of 576", "mla_strided", "mla_contig", 32768, 512, 576),
    ("MLA kv_a: 512 of 576", "mla_strided", "mla_contig", 16, 512, 576),
    ("split QKV: k of 3×4096", "qkv_strided", "qkv_contig", 4096, 4096, 12288),
    ("split QKV: k of 3×4096", "qkv_strided", "qkv_contig", 16, 4096, 12288),
]
# Contiguous and strided alternate (the order swaps each round) and the
# verdict is the median of the per-round ratios contiguous ms / strided ms.
# Measured on the 2-core Zen 4 VM (bench/cpu/results/2026-11-28-dram26.md):
# the DRAM bandwidth of a 2-thread cell moves by up to 1.7x between runs a
# second apart, so a ratio of the two best medians of 3 rounds (the earlier
# estimator) read 69-165% for pairs whose per-round ratios had a median of
# 102-109%; the median of 7 per-round ratios stayed within 98-112%.
STRIDED_ROUNDS = 7
STRIDED_TARGET = 0.9  # strided GB/s / contiguous GB/s


def median(xs):
    xs = sorted(xs)
    k = len(xs)
    return (xs[(k - 1) // 2] + xs[k // 2]) / 2 if k else None


def quartiles(xs):
    """(q1, q3) of xs, the medians of its lower and upper halves."""
    xs = sorted(xs)
    h = len(xs) // 2
    return (median(xs[:h]), median(xs[-h:])) if h else (None, None)


def strided_cells(args, target, quick):
    """The strided/contiguous pairs on 1..T threads; rows of each pair are the
    same length, so bytes (x read + y written + γ) are the same too."""
    mlir = os.path.join(args.kernels, "rms_norm_strided_f32.mlir")
    cases = [c for c in STRIDED if not quick or c[3] <= 16]
    cells = []
    for name, strided, contig, R, n, stride in cases:
        for T in THREADS:
            c = {"case": name, "R": R, "n": n, "stride": stride, "T": T, "bytes": 4 * (2 * R * n + n)}
            s0 = cpu_sample()
            runs = {"contig": [], "strided": []}
            ratios = []
            for rnd in range(STRIDED_ROUNDS):
                pair = (("contig", contig), ("strided", strided))
                this = {}
                for key, entry in (pair if rnd % 2 == 0 else pair[::-1]):
                    timed = [r for r in runs[key] if "median_ms" in r]
                    hint = timed[-1]["median_ms"] if timed else 1.0
                    # Only the contiguous form's operands are all arguments (checkable).
                    r = time_norm_run(args.norm_run, mlir, entry, [R, R], T, target, hint, "project",
                                      check=rnd == 0 and key == "contig")
                    runs[key].append(r)
                    this[key] = r
                if all("median_ms" in this[k] for k in this):
                    ratios.append(this["contig"]["median_ms"] / this["strided"]["median_ms"])
            for key, rs in runs.items():
                timed = sorted((r for r in rs if "median_ms" in r), key=lambda r: r["median_ms"])
                # The round with the median time (the lower middle one for an even count).
                c[key] = dict(timed[(len(timed) - 1) // 2]) if timed else rs[0]
                if timed:
                    c[key]["median_ms"] = median([r["median_ms"] for r in timed])
                if rs and rs[0].get("status"):  # the checked run's verdict
                    c[key]["status"], c[key]["rel_err"] = rs[0]["status"], rs[0].get("rel_err")
            c["ratios"] = ratios
            c["foreign"] = foreign_cores(s0, cpu_sample())
            cells.append(c)
            log(f"  strided {name} {R}x{n} (stride {stride}) T={T}: " + "  ".join(
                f"{k}={fmt_t(c[k]['median_ms']) if 'median_ms' in c[k] else 'n/a'}" for k in ("contig", "strided"))
                + " ms; contiguous/strided per round " + " ".join(f"{x:.2f}" for x in ratios)
                + f"; others used {c['foreign']:.2f} cores")
    return cells


def strided_table(cells):
    L = ["## Strided rows (RMSNorm f32 on a column slice of wider rows)", "",
         f"Each pair runs {STRIDED_ROUNDS} rounds of contiguous and strided back to back (the order swaps each "
         "round); ms are the medians over the rounds of each run's median; strided / contiguous is the median "
         "of the per-round ratios (contiguous ms / strided ms), with their quartiles. "
         "Bytes = x read + y written + γ, the same for both (the slice's columns only). "
         f"Target: strided / contiguous ≥ {STRIDED_TARGET:.0%}.", "",
         "| case | rows × n (row stride) | thr | contiguous ms | contiguous GB/s | strided ms | strided GB/s "
         "| strided / contiguous | quartiles | ≥ 90% |",
         "|---|---|---|---|---|---|---|---|---|---|"]
    for c in cells:
        gb = {k: c["bytes"] / (c[k]["median_ms"] * 1e-3) * 1e-9 if "median_ms" in c[k] else None
              for k in ("contig", "strided")}
        ratio = median(c["ratios"])
        q1, q3 = quartiles(c["ratios"])
        L.append("| " + " | ".join([
            c["case"], f"{c['R']}×{c['n']} ({c['stride']})", str(c["T"]) + ("†" if c["foreign"] > FOREIGN else ""),
            cell(c["contig"], None), f"{gb['contig']:.1f}" if gb["contig"] else "n/a",
            cell(c["strided"], None), f"{gb['strided']:.1f}" if gb["strided"] else "n/a",
            f"{ratio:.0%}" if ratio else "n/a",
            f"{q1:.0%}–{q3:.0%}" if q1 else "n/a",
            ("✓" if ratio >= STRIDED_TARGET else "✗") if ratio else "n/a"]) + " |")
    return L


# ---------------------------------------------------------------------------
# formatting


def fmt_t(ms):
    if ms >= 100:
        return f"{ms:.0f}"
    return f"{ms:.3g}"


def cell(r, base_ms):
    if r is None:
        return "n/a"
    if "na" in r:
        return "n/a"
    if r.get("status") == "FAIL":  # a wrong result is not a baseline: no time reported
        return f"FAIL (err {r.get('rel_err')})"
    s = fmt_t(r["median_ms"])
    if r.get("noisy"):
        s += "~"
    if base_ms:
        s += f" ({r['median_ms'] / base_ms:.2f}×)"
    return s


def sh(cmd):
    try:
        return subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=20).stdout.strip()
    except Exception:
        return ""


def machine_info(args):
    cpu = sh("lscpu | sed -n 's/^Model name: *//p' | head -1")
    cores = os.cpu_count()
    mem = sh("free -g | awk '/^Mem:/{print $2}'")
    caches = sh("lscpu | grep -E '^L[123]' | sed 's/  */ /g' | paste -sd';'")
    flags = "avx512_bf16" if "avx512_bf16" in sh("grep -m1 flags /proc/cpuinfo") else ""
    cxx = sh(f"{args.cxx} --version | head -1")
    dnnl = sh("dpkg-query -W -f='${Version}' libdnnl-dev 2>/dev/null")
    torch = sh(f"{args.torch_python} -c 'import torch; print(torch.__version__)' 2>/dev/null") if args.torch_python else ""
    rev = sh(f"git -C {ROOT} rev-parse --short HEAD") + ("+dirty" if sh(f"git -C {ROOT} status --porcelain -- lib include tools") else "")
    return {
        "cpu": f"{cpu} ({cores} cores, {mem} GiB; {caches}; {flags})",
        "kernel": platform.release(),
        "cxx": cxx,
        "dnnl": dnnl or "not installed",
        "torch": torch or "not installed",
        "rev": rev,
    }


# ---------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--norm-run", default="")
    ap.add_argument("--kernels", default=os.path.join(HERE, "kernels"))
    ap.add_argument("--torch-python", default="")
    ap.add_argument("--have-dnnl", action="store_true")
    ap.add_argument("--cxx", default="clang++-22")
    ap.add_argument("--target", type=float, default=0.5, help="seconds of timed calls per cell")
    ap.add_argument("--quick", action="store_true", help="small shapes only, short cells (smoke test)")
    ap.add_argument("--command", default="bash bench/cpu/run.sh")
    ap.add_argument("--shapes", default="",
                    help="comma-separated RxH cells instead of the default (or --quick) shapes")
    ap.add_argument("--strided-only", action="store_true",
                    help="only the strided-row cells beside their contiguous counterparts")
    args = ap.parse_args()

    t_start = time.time()
    load0 = os.getloadavg()
    run0 = cpu_sample()
    shapes = SHAPES if not args.quick else [(256, 4096), (16, 4096), (1, 4096)]
    if args.shapes:
        try:
            shapes = [tuple(int(v) for v in s.lower().split("x")) for s in args.shapes.split(",")]
            assert all(len(s) == 2 and min(s) > 0 for s in shapes)
        except (ValueError, AssertionError):
            log(f"bad --shapes '{args.shapes}' (expected e.g. 256x4096,16x4096)")
            return 2
    target = args.target if not args.quick else min(args.target, 0.1)
    have_nr = bool(args.norm_run) and os.access(args.norm_run, os.X_OK)
    info = machine_info(args)
    log(f"machine: {info['cpu']}; load average {load0[0]:.2f}")
    if not have_nr:
        log(f"norm-run not found ({args.norm_run or 'not given'}): project and upstream columns are n/a")
    if args.strided_only:
        if not have_nr:
            return 1
        cells = strided_cells(args, target, args.quick)
        L = [f"# norm-mlir CPU strided-row benchmark — {socket.gethostname()}, "
             f"{datetime.datetime.now().strftime('%Y-%m-%d %H:%M %Z').strip()}", "",
             f"- command: `{args.command}` (wall time {(time.time() - t_start) / 60:.1f} min)",
             f"- machine: {info['cpu']}, Linux {info['kernel']}",
             f"- other processes used {foreign_cores(run0, cpu_sample()):.2f} cores on average during the run; "
             f"load average before the run {load0[0]:.2f}",
             f"- norm-mlir tree: {info['rev']}; norm-run: {args.norm_run}", ""] + strided_table(cells)
        table = "\n".join(L) + "\n"
        print(table)
        os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
        with open(args.out, "w") as f:
            f.write(table)
            f.write("\n<details><summary>raw tool output</summary>\n\n```\n" + "\n".join(RAW) + "\n```\n</details>\n")
        log(f"wrote {args.out}")
        return 0

    # 1. machine limits
    cache_bytes = {nbytes(op, dt, R, H) for op, _, _ in OPS for dt in DTYPES for R, H in shapes
                   if nbytes(op, dt, R, H) <= CACHE_LIMIT_BYTES}
    patterns = {(op, dt, R, H) for op, _, _ in OPS for dt in DTYPES for R, H in shapes
                if nbytes(op, dt, R, H) <= CACHE_LIMIT_BYTES}
    log("copy bandwidth ...")
    dram, cache, pattern = copy_limits(args.build, THREADS, cache_bytes, patterns, args.quick)

    # 2. cells
    s0_cells = cpu_sample()
    results = []
    for op, opname, _ in OPS:
        for dt in DTYPES:
            for R, H in shapes:
                for T in THREADS:
                    B = nbytes(op, dt, R, H)
                    c = {"op": op, "opname": opname, "dtype": dt, "R": R, "H": H, "T": T, "bytes": B}
                    s0 = cpu_sample()
                    common = [f"--op={op}", f"--dtype={dt}", f"--rows={R}", f"--hidden={H}", f"--threads={T}",
                              f"--target={target}"]
                    c["cxx"] = with_retry(lambda: run_tool([os.path.join(args.build, "cxx_norm")] + common, T, "cxx_norm:"))
                    hint = c["cxx"].get("median_ms", 1.0)
                    if args.have_dnnl:
                        c["dnnl"] = with_retry(lambda: run_tool([os.path.join(args.build, "dnnl_norm")] + common, T, "dnnl_norm:"))
                    else:
                        c["dnnl"] = {"na": "oneDNN not installed"}
                    if args.torch_python:
                        c["torch"] = with_retry(lambda: run_tool([args.torch_python, os.path.join(HERE, "torch_norm.py")] + common, T, "torch_norm:"))
                    else:
                        c["torch"] = {"na": "PyTorch not installed"}
                    for pipe in ("project", "upstream"):
                        if have_nr:
                            c[pipe] = run_norm_run(args.norm_run, args.kernels, op, dt, R, H, T, target, hint, pipe)
                        else:
                            c[pipe] = {"na": "norm-run not built"}
                    c["limit"], c["limit_kind"] = limit_for(B, T, dram, cache)
                    c["foreign"] = foreign_cores(s0, cpu_sample())
                    results.append(c)
                    log(f"  {opname:9s} {dt:4s} {R}x{H} T={T}: " + "  ".join(
                        f"{k}={fmt_t(c[k]['median_ms']) if 'median_ms' in c[k] else 'n/a'}"
                        for k in ("project", "upstream", "cxx", "dnnl", "torch")) + f" ms; others used {c['foreign']:.2f} cores")

    strided = strided_cells(args, target, args.quick) if have_nr else []

    # DRAM bandwidth drifts on shared/virtual machines: measure it again at
    # the end; the limit is the better of the two.
    log("copy bandwidth again ...")
    s_end = cpu_sample()
    dram_copy(args.build, THREADS, args.quick, dram, "end")
    for c in results:
        c["limit"], c["limit_kind"] = limit_for(c["bytes"], c["T"], dram, cache)
    copy_foreign = max(foreign_cores(run0, s0_cells), foreign_cores(s_end, cpu_sample()))
    load1 = os.getloadavg()
    run_foreign = foreign_cores(run0, cpu_sample())
    wall = time.time() - t_start

    # 3. report
    base_key = "project" if any("median_ms" in c["project"] for c in results) else "cxx"
    base_name = "project" if base_key == "project" else "C++ loop"
    L = []
    date = datetime.datetime.now().strftime("%Y-%m-%d %H:%M %Z").strip()
    L.append(f"# norm-mlir CPU norm benchmark — {socket.gethostname()}, {date}")
    L.append("")
    L.append(f"- command: `{args.command}` (wall time {wall / 60:.1f} min)")
    L.append(f"- machine: {info['cpu']}, Linux {info['kernel']}")
    worst = max(results, key=lambda c: c["foreign"]) if results else None
    L.append(f"- other processes used {run_foreign:.2f} cores on average during the run"
             + (f" (at most {worst['foreign']:.2f} during a cell: {worst['opname']} {worst['dtype']} "
                f"{worst['R']}×{worst['H']} T={worst['T']})" if worst else "")
             + f"; load average before the run {load0[0]:.2f}"
             + (" — **the machine was not quiet: see the † cells**" if any(c["foreign"] > FOREIGN for c in results) else ""))
    L.append(f"- compiler: {info['cxx']}; oneDNN: {info['dnnl']}; PyTorch: {info['torch']}; "
             f"norm-mlir tree: {info['rev']}; norm-run: {args.norm_run if have_nr else 'not built (n/a)'}")
    L.append("- bytes per call = x read + y written + weights (γ, β) read, in the storage type; "
             "GB/s = bytes / median time; ratios = time / "
             + (f"{base_name} time (> 1: slower than {base_name})"))
    if base_key != "project":
        L.append("- **norm-run was not available: the GB/s and % columns are the C++ loop's, "
                 "and ratios are relative to the C++ loop.**")
    L.append("")
    L.append("## Machine limits (copy, bytes = read + written)")
    L.append("")
    L.append(f"DRAM copies measured before and after the cells (start / end); other processes used up to "
             f"{copy_foreign:.2f} cores meanwhile. The limit column uses the better of the two.")
    L.append("")
    L.append("| copy | 1 thread GB/s | 2 threads GB/s |")
    L.append("|---|---|---|")
    size, runs = (256, 5) if args.quick else (512, 10)
    isa = {"avx512": "AVX-512", "avx2": "AVX2"}.get(COPY_ISA[0], COPY_ISA[0])
    for k, desc in (("nt", f"DRAM, {size} MiB, {isa} streaming stores (best of {runs})"),
                    ("plain", f"DRAM, {size} MiB, {isa} plain stores (best of {runs})"),
                    ("memcpy", f"DRAM, {size} MiB, glibc memcpy (best of {runs})"),
                    ("rms-f32", f"not a copy: hand-written {isa} RMSNorm, rows of 8192 f32, same buffers and "
                                f"traffic, one read of x, streaming stores (best of {runs})"),
                    ("rms-bf16", f"not a copy: hand-written {isa} RMSNorm, rows of 8192 bf16 (shift widening, "
                                 f"integer round-to-nearest-even), same buffers and traffic, streaming stores "
                                 f"(best of {runs})")):
        L.append(f"| {desc} | " + " | ".join(
            " / ".join(f"{dram[(k, T, tag)]:.1f}" if (k, T, tag) in dram else "n/a" for tag in ("start", "end"))
            for T in THREADS) + " |")
    for B in sorted(cache_bytes):
        for k in ("plain", "nt"):
            L.append(f"| in cache, {B} B ({B / 1024:.0f} KiB) traffic, {k} stores (median) | "
                     + " | ".join(f"{cache[(B, k, T)]:.1f}" if (B, k, T) in cache else "n/a" for T in THREADS) + " |")
    for (op, dt, R, H) in sorted(patterns, key=lambda p: (p[0], p[1], -p[2])):
        B = nbytes(op, dt, R, H)
        L.append(f"| in cache, norm pattern y = x·γ{'+β' if op == 'ln' else ''} per row (no statistics), "
                 f"{R}×{H} {dt}, {B} B traffic, plain stores (median) | "
                 + " | ".join(f"{pattern[(op, dt, R, H, T)]:.1f}" if (op, dt, R, H, T) in pattern else "n/a" for T in THREADS) + " |")
    L.append("")
    L.append("The in-cache copy of a byte count is the limit column's value for the small shapes. In L1 a copy "
             "is bound by one store per load; a norm that reads x and γ per store of y can beat it, "
             "which the norm-pattern rows (same buffers as the norm, no statistics) show.")
    L.append("")
    L.append("## Norms (median ms per call)")
    L.append("")
    gb_head = "GB/s" if base_key == "project" else "C++ GB/s"
    L.append(f"| op | dtype | rows×hidden | thr | project ms | {gb_head} | % of limit | upstream ms (×) | "
             "C++ loop ms (×) | oneDNN ms (×) | PyTorch ms (×) | limit GB/s |")
    L.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
    notes = set()
    for c in results:
        b = c[base_key]
        base_ms = b.get("median_ms")
        gbps = c["bytes"] / (base_ms * 1e-3) * 1e-9 if base_ms else None
        pct = f"{100 * gbps / c['limit']:.0f}%" if gbps and c["limit"] else "n/a"
        proj = cell(c["project"], None) if "median_ms" in c["project"] else "n/a"
        row = [c["opname"], c["dtype"], f"{c['R']}×{c['H']}", str(c["T"]) + ("†" if c["foreign"] > FOREIGN else ""), proj,
               f"{gbps:.1f}" if gbps else "n/a", pct,
               cell(c["upstream"], base_ms), cell(c["cxx"], base_ms), cell(c["dnnl"], base_ms),
               cell(c["torch"], base_ms),
               f"{c['limit']:.1f} ({c['limit_kind']})" if c["limit"] else "n/a"]
        L.append("| " + " | ".join(row) + " |")
        for k in ("project", "upstream", "cxx", "dnnl", "torch"):
            r = c[k]
            if r.get("status") == "FAIL":
                notes.add(f"{k} FAILED the float64 check on {c['opname']} {c['dtype']} {c['R']}×{c['H']} (rel_err {r.get('rel_err')})")
            if "bytes" in r and r["bytes"] and abs(r["bytes"] - c["bytes"]) > 0.5 and k in ("project", "upstream"):
                notes.add(f"norm-run counts {r['bytes']:.0f} bytes for {c['opname']} {c['dtype']} {c['R']}×{c['H']} (this table: {c['bytes']})")
            if "na" in r and r["na"] not in ("norm-run not built", "oneDNN not installed", "PyTorch not installed"):
                notes.add(f"{k} n/a on {c['opname']} {c['dtype']}: {r['na'][:160]}")
        # cross-check of the outputs: same inputs everywhere, so the checksums
        # (sum of y over the checked rows) must agree within the tolerance.
        ref = c["cxx"].get("checksum")
        tol = (1.6e-2 if c["dtype"] == "bf16" else 1e-4) * 3 * c["H"]
        for k in ("dnnl", "torch"):
            cs = c[k].get("checksum")
            if ref is not None and cs is not None and abs(cs - ref) > tol:
                notes.add(f"{k} output differs from the C++ loop on {c['opname']} {c['dtype']} {c['R']}×{c['H']} (checksum {cs} vs {ref})")
    if strided:
        L += [""] + strided_table(strided)
    impls = sorted({f"{c['dtype']}: {c['dnnl']['impl']}" for c in results if "impl" in c["dnnl"]})
    L.append("")
    L.append(f"`†`: other processes used more than {FOREIGN} of a core on average while the cell ran "
             "(from /proc/stat minus this benchmark's own CPU time): its numbers may be perturbed. "
             "`~`: median more than 1.5× the minimum even after two reruns (noisy). "
             "`FAIL`: output failed the float64 check (rows 0, R/2, R−1). "
             f"Limits: DRAM streaming copy for cells over {CACHE_LIMIT_BYTES >> 20} MiB (the L3), otherwise an in-cache copy of the same byte count; "
             "best over kinds and over ≤ thr threads.")
    if impls:
        L.append(f"oneDNN implementation: {'; '.join(impls)}.")
    failed = [f"{c['opname']} {c['dtype']} {c['R']}×{c['H']} T={c['T']} {k}"
              for c in results for k in ("project", "upstream", "cxx", "dnnl", "torch") if c[k].get("status") == "FAIL"]
    if notes:
        L.append("")
        L.append("Notes:")
        for n in sorted(notes):
            L.append(f"- {n}")
    table = "\n".join(L) + "\n"
    print(table)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        f.write(table)
        f.write("\n<details><summary>raw tool output</summary>\n\n```\n")
        f.write("\n".join(RAW))
        f.write("\n```\n</details>\n")
    log(f"wrote {args.out}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
