"""PyTorch peer of bench/cpu/quant.py: RMSNorm, then int8 quantization.

  norm:      the eager module of torch_norm.py (Hugging Face LlamaRMSNorm),
             bf16 x and γ; y in bf16 as that module returns it, widened to
             f32 (1.13's quantize functions take float tensors only)
  static:    torch.quantize_per_tensor(y, s, 0, torch.qint8)
  per_token: s = clamp(amax_row |y| / 127, min = 1 / (127 · 512)), then
             torch.quantize_per_channel(y, s, 0, axis=0, dtype=torch.qint8)
PyTorch 1.13 (Debian 12) has no float8 dtypes, so fp8 has no peer. Timed as
torch_norm.py times (median over batches of >= 20 us); each call allocates
its outputs, as eager PyTorch does.

  python3 torch_norm_quant.py --rows=R --hidden=H --threads=T --mode=static|per_token [--target=0.5]
"""
import sys

import torch

from torch_norm import make_inputs, parse, rms_norm_eager, time_it

STATIC_SCALE = 0.02


def main():
    a = parse(sys.argv[1:])
    R, H, T = int(a["rows"]), int(a["hidden"]), int(a.get("threads", 1))
    mode, target = a.get("mode", "static"), float(a.get("target", 0.5))
    torch.set_num_threads(T)
    x, g, _ = make_inputs(R, H)
    x, g = x.to(torch.bfloat16), g.to(torch.bfloat16)
    zeros = torch.zeros(R, dtype=torch.int64)
    with torch.inference_mode():
        def static():
            return torch.quantize_per_tensor(rms_norm_eager(x, g, 1e-6).float(), STATIC_SCALE,
                                             0, torch.qint8)

        def per_token():
            y = rms_norm_eager(x, g, 1e-6)
            s = (y.abs().amax(-1).float() / 127.0).clamp(min=1.0 / (127.0 * 512.0))
            return torch.quantize_per_channel(y.float(), s, zeros, 0, torch.qint8)

        fn = static if mode == "static" else per_token
        fn()
        med, mn, calls = time_it(fn, target)
    nbytes = 2.0 * R * H + 1.0 * R * H + 2.0 * H
    print(f"torch_norm_quant: rows={R} hidden={H} threads={T} mode={mode} bytes={nbytes:.0f} "
          f"median_ms={med:.6f} min_ms={mn:.6f} calls={calls} torch={torch.__version__}",
          flush=True)


if __name__ == "__main__":
    main()
