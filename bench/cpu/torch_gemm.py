"""PyTorch peer (eager, CPU) of the fused RMSNorm -> matmul, for run-gemm.sh.

  rms_mm: y = the usual eager RMSNorm module (Hugging Face LlamaRMSNorm, as in
          torch_norm.py: f32 compute, cast to the input dtype, then γ *),
          then C = y @ W
  mm:     C = x @ W alone
X M×K, γ K, W K×N (row-major), f32 or bf16; ε = 1e-6. Same deterministic
inputs as gemm_peers.cpp (common.h's x and γ; W from its own stream), so the
checksums are comparable. torch.set_num_threads(T); each call allocates its
outputs, as eager PyTorch does. Timed like common.h's time_it.

  python3 torch_gemm.py --dtype=f32|bf16 --m=M --k=K --n=N --threads=T [--target=0.5]

Output, one line per mode, like gemm_peers.cpp:
  torch_gemm: mode=<rms_mm|mm> dtype=.. m=.. k=.. n=.. threads=.. median_ms=.. min_ms=.. gflops=..
              calls=.. rel_err=.. tol=.. PASS|FAIL checksum=.. torch=<version>
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import torch  # noqa: E402

from torch_norm import make_inputs, parse, rms_norm_eager, time_it, unit  # noqa: E402


def make_w(K, N):
    w = np.empty((K, N), dtype=np.float32)
    step = max(1, (1 << 22) // N)
    cols = np.arange(N, dtype=np.uint64)
    for k0 in range(0, K, step):
        k1 = min(K, k0 + step)
        idx = np.arange(k0, k1, dtype=np.uint64)[:, None] * np.uint64(N) + cols[None, :] + np.uint64(1 << 40)
        w[k0:k1] = (2.0 * unit(idx, 2) - 1.0).astype(np.float32)
    return torch.from_numpy(w)


def main():
    a = parse(sys.argv[1:])
    dtype = a.get("dtype", "f32")
    M, K, N, T = int(a.get("m", 16)), int(a.get("k", 4096)), int(a.get("n", 4096)), int(a.get("threads", 1))
    target = float(a.get("target", 0.5))
    modes = a.get("modes", "rms_mm,mm").split(",")
    torch.set_num_threads(T)
    eps = 1e-6
    tdt = torch.bfloat16 if dtype == "bf16" else torch.float32
    x, g, _ = make_inputs(M, K)
    w = make_w(K, N)
    x, g, w = x.to(tdt), g.to(tdt), w.to(tdt)
    xd, gd, wd = x.double(), g.double(), w.double()
    tol = 1e-2 if dtype == "bf16" else 1e-5
    rows = sorted(set([0, M // 2, M - 1]))
    for mode in modes:
        with torch.inference_mode():
            if mode == "rms_mm":
                fn = lambda: rms_norm_eager(x, g, eps) @ w  # noqa: E731
            else:
                fn = lambda: x @ w  # noqa: E731
            try:
                c = fn()
            except RuntimeError as e:
                print(f"torch_gemm: mode={mode} dtype={dtype} m={M} k={K} n={N} threads={T} unsupported ({e})")
                continue
            med, mn, calls = time_it(fn, target, warmup=1)
            c = fn()
        a_rows = xd[rows]
        if mode == "rms_mm":
            a_rows = a_rows / torch.sqrt((a_rows * a_rows).mean(-1, keepdim=True) + eps) * gd
        ref = a_rows @ wd
        got = c[rows].double()
        err = float(torch.linalg.norm(got - ref) / torch.linalg.norm(ref))
        err = err if err == err else 1e30
        cs = float(got.sum())
        flops = 2.0 * M * K * N
        print(f"torch_gemm: mode={mode} dtype={dtype} m={M} k={K} n={N} threads={T} median_ms={med:.6f} "
              f"min_ms={mn:.6f} gflops={flops / (med * 1e-3) * 1e-9:.2f} calls={calls} rel_err={err:.3g} "
              f"tol={tol:.0e} {'PASS' if err <= tol else 'FAIL'} checksum={cs:.9g} torch={torch.__version__}",
              flush=True)


if __name__ == "__main__":
    main()
