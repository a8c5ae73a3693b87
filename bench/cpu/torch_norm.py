"""PyTorch peer (eager, CPU) for bench/cpu/run.sh.

LayerNorm: torch.nn.functional.layer_norm(x, (H,), γ, β, eps).
RMSNorm:   the usual eager module (Hugging Face LlamaRMSNorm):
             h = x.to(float32); h = h * rsqrt(h.pow(2).mean(-1, keepdim=True) + eps)
             y = γ * h.to(x.dtype)
           i.e. f32 compute for bf16, cast back before the weight.
Inputs are the same deterministic values as the C++ benchmarks (common.h),
so the checksums are comparable. Each call allocates its output, as eager
PyTorch does. Timed like common.h's time_it: batches of >= 20 us, median
over batches of the time per call.

  python3 torch_norm.py --op=rms|ln --dtype=f32|bf16 --rows=R --hidden=H --threads=T [--target=0.5]
"""
import sys
import time

import numpy as np
import torch


def parse(argv):
    a = {}
    for s in argv:
        if not s.startswith("--"):
            sys.exit(f"bad argument {s!r}")
        k, _, v = s[2:].partition("=")
        a[k] = v if v else "1"
    return a


M64 = np.uint64(0xFFFFFFFFFFFFFFFF)


def splitmix64(z):
    with np.errstate(over="ignore"):
        z = z + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def unit(i, stream):
    with np.errstate(over="ignore"):
        z = splitmix64(i.astype(np.uint64) * np.uint64(4) + np.uint64(stream))
    return (z >> np.uint64(11)).astype(np.float64) * (1.0 / 9007199254740992.0)


def make_inputs(R, H):
    x = np.empty((R, H), dtype=np.float32)
    cols = np.arange(H, dtype=np.uint64)
    step = max(1, (1 << 22) // H)
    for r0 in range(0, R, step):
        r1 = min(R, r0 + step)
        rows = np.arange(r0, r1, dtype=np.uint64)
        idx = rows[:, None] * np.uint64(H) + cols[None, :]
        off = 0.5 * unit(rows, 3)
        x[r0:r1] = (off[:, None] + 2.0 * unit(idx, 0) - 1.0).astype(np.float32)
    g = (0.5 + unit(cols, 1)).astype(np.float32)
    b = (0.5 * unit(cols, 2) - 0.25).astype(np.float32)
    return torch.from_numpy(x), torch.from_numpy(g), torch.from_numpy(b)


def rms_norm_eager(x, w, eps):
    dt = x.dtype
    h = x.to(torch.float32)
    var = h.pow(2).mean(-1, keepdim=True)
    h = h * torch.rsqrt(var + eps)
    return w * h.to(dt)


def time_it(fn, target_s, warmup=2):
    for _ in range(warmup):
        fn()
    k = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(k):
            fn()
        el = time.perf_counter() - t0
        per = el / k
        if el >= 10e-3 or per >= 5e-3:
            break
        k *= 2
    batch = max(1, int(np.ceil(20e-6 / max(per, 1e-9))))
    nb = int(min(max(target_s / max(per * batch, 1e-9), 5), 100000))
    v = []
    for _ in range(nb):
        t0 = time.perf_counter()
        for _ in range(batch):
            fn()
        v.append((time.perf_counter() - t0) / batch)
    v.sort()
    return v[len(v) // 2] * 1e3, v[0] * 1e3, nb * batch


def main():
    a = parse(sys.argv[1:])
    op, dtype = a.get("op", "rms"), a.get("dtype", "f32")
    R, H, T = int(a.get("rows", 16)), int(a.get("hidden", 4096)), int(a.get("threads", 1))
    target = float(a.get("target", 0.5))
    torch.set_num_threads(T)
    layer = op == "ln"
    eps = 1e-5 if layer else 1e-6
    tdt = torch.bfloat16 if dtype == "bf16" else torch.float32
    esize = 2 if dtype == "bf16" else 4
    x, g, b = make_inputs(R, H)
    x, g, b = x.to(tdt), g.to(tdt), b.to(tdt)
    with torch.inference_mode():
        if layer:
            fn = lambda: torch.nn.functional.layer_norm(x, (H,), g, b, eps)
        else:
            fn = lambda: rms_norm_eager(x, g, eps)
        try:
            y = fn()
        except RuntimeError as e:
            print(f"torch_norm: op={op} dtype={dtype} rows={R} hidden={H} threads={T} unsupported ({e})")
            return
        med, mn, calls = time_it(fn, target)
        y = fn()
    # float64 reference on the checked rows (common.h check_rows)
    err, cs = 0.0, 0.0
    gd, bd = g.double(), b.double()
    for r in sorted(set([0, R // 2, R - 1])):
        xr = x[r].double()
        mean = xr.mean() if layer else 0.0
        d = xr - mean
        ref = d / torch.sqrt((d * d).mean() + eps) * gd + (bd if layer else 0.0)
        yr = y[r].double()
        cs += float(yr.sum())
        e = float((yr - ref).abs().max() / ref.abs().max())
        err = max(err, e if e == e else 1e30)
    tol = 1.6e-2 if dtype == "bf16" else 1e-4
    nbytes = esize * (2.0 * R * H + (2.0 if layer else 1.0) * H)
    print(f"torch_norm: op={op} dtype={dtype} rows={R} hidden={H} threads={T} bytes={nbytes:.0f} "
          f"median_ms={med:.6f} min_ms={mn:.6f} gbps={nbytes / (med * 1e-3) * 1e-9:.2f} calls={calls} "
          f"rel_err={err:.3g} tol={tol:.3g} {'PASS' if err <= tol else 'FAIL'} checksum={cs:.9g} "
          f"torch={torch.__version__}", flush=True)


if __name__ == "__main__":
    main()
