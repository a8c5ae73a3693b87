"""PyTorch peer (eager, CPU) of the norm gradients for bench/cpu/grad.py.

LayerNorm: aten.native_layer_norm_backward(dy, x, (H,), mean, rstd, γ, β,
           [True, True, True]), the kernel autograd calls, given the saved
           statistics of aten.native_layer_norm.
RMSNorm:   the eager module (Hugging Face LlamaRMSNorm, as torch_norm.py),
           differentiated by autograd: torch.autograd.grad(y, (x, γ), dy)
           on a graph kept alive (retain_graph), so only the backward is
           timed.
dx is checked on three rows against float64 (the same formula as
cxx_norm_grad.cpp, from the statistics the forward saved). Timed as
torch_norm.py (median over batches).

  python3 torch_norm_grad.py --op=rms|ln --dtype=f32|bf16 --rows=R --hidden=H --threads=T [--target=0.5]
"""
import sys

import torch

from torch_norm import make_inputs, parse, rms_norm_eager, time_it


def reference_dx(layer, dy, x, g, mean, rstd):
    """float64 dx of one row from the saved statistics."""
    dy, x, g = dy.double(), x.double(), g.double()
    xh = (x - (mean if layer else 0.0)) * rstd
    dyh = dy * g
    inner = dyh - (dyh.mean() if layer else 0.0) - xh * (dyh * xh).mean()
    return rstd * inner


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
    dy = (torch.rand(R, H, generator=torch.Generator().manual_seed(4)) * 2 - 1).to(tdt)
    head = f"torch_norm_grad: op={op} dtype={dtype} rows={R} hidden={H} threads={T}"
    try:
        if layer:
            _, mean, rstd = torch.ops.aten.native_layer_norm(x, [H], g, b, eps)
            fn = lambda: torch.ops.aten.native_layer_norm_backward(
                dy, x, [H], mean, rstd, g, b, [True, True, True])
            dx = fn()[0]
            stats = lambda r: (float(mean[r]), float(rstd[r]))
        else:
            xg = x.clone().requires_grad_(True)
            gg = g.clone().requires_grad_(True)
            y = rms_norm_eager(xg, gg, eps)
            fn = lambda: torch.autograd.grad(y, (xg, gg), dy, retain_graph=True)
            dx = fn()[0]
            xf = x.double()
            stats = lambda r: (0.0, float(1.0 / torch.sqrt((xf[r] * xf[r]).mean() + eps)))
        med, mn, calls = time_it(fn, target)
    except RuntimeError as e:
        print(f"{head} unsupported ({e})")
        return
    err = 0.0
    for r in sorted(set([0, R // 2, R - 1])):
        mu, rs = stats(r)
        ref = reference_dx(layer, dy[r], x[r], g, mu, rs)
        e = float((dx[r].double() - ref).abs().max() / ref.abs().max())
        err = max(err, e if e == e else 1e30)
    tol = 1.6e-2 if dtype == "bf16" else 1e-4
    nbytes = esize * (3.0 * R * H + (3.0 if layer else 2.0) * H) + (8.0 if layer else 4.0) * R
    print(f"{head} bytes={nbytes:.0f} median_ms={med:.6f} min_ms={mn:.6f} "
          f"gbps={nbytes / (med * 1e-3) * 1e-9:.2f} calls={calls} rel_err={err:.3g} tol={tol:.3g} "
          f"{'PASS' if err <= tol else 'FAIL'} torch={torch.__version__}", flush=True)


if __name__ == "__main__":
    main()
