"""The Qwen3 and Gemma 3 decoder layers of examples/ (QK-norm and grouped-query
attention), written with gen_examples.py's Emitter in the same torch-mlir
linalg-on-tensors style, with their drivers' arguments and float64
references. gen_examples.py imports this module and dispatches the kinds
"qwen3" and "gemma3" to it; run that script, not this one.

- Qwen3 (HF modeling_qwen3.py), f32: RMSNorm pre-norms (LlamaRMSNorm:
  weight * normed); q_norm / k_norm, an RMSNorm over head_dim applied to
  q_proj(x).view(S, heads, head_dim) before the transpose to heads and RoPE;
  k/v with fewer heads than q, repeated per group by HF's repeat_kv
  (t[:, None].expand(kv, n_rep, S, D).reshape(heads, S, D)); SwiGLU MLP.
- Gemma 3 (HF modeling_gemma3.py), bf16 activations and weights with f32 norm
  weights: four Gemma3RMSNorms a layer (input, post_attention,
  pre_feedforward, post_feedforward), each x.float(), the RMSNorm in f32,
  * (1.0 + weight.float()), .type_as(x); q_norm / k_norm the same over
  head_dim after the transpose to heads, before RoPE; grouped-query
  attention; scores * query_pre_attn_scalar**-0.5; softmax in f32; GeGLU
  MLP with gelu(approximate="tanh"). Matmuls take bf16 and accumulate into
  f32 (torch-mlir's accumulator type for 16-bit mm/bmm), then round to bf16.
  The layer is a global-attention one (causal mask only): Gemma 3's local
  layers add a sliding window of 512, which at these sequence lengths
  (<= 128) is the same mask.
"""

import math
import struct

import gen_examples as g
from gen_examples import ttype

KINDS = ("qwen3", "gemma3")
SIZES = {
    "qwen3": {
        "small": dict(seq=8, hidden=64, heads=4, kv_heads=2, head_dim=32, ffn=192),
        # Qwen3-0.6B's layer: q_proj is [2048, 1024], wider than hidden.
        "large": dict(seq=128, hidden=1024, heads=16, kv_heads=8, head_dim=128, ffn=3072),
    },
    "gemma3": {
        "small": dict(seq=8, hidden=64, heads=4, kv_heads=1, head_dim=32, ffn=160,
                      query_pre_attn_scalar=48),
        # Gemma 3 1B's layer at seq 32: at seq 128 one call takes about 30 s
        # through upstream MLIR (bf16 matmuls are scalar code there).
        "large": dict(seq=32, hidden=1152, heads=4, kv_heads=1, head_dim=256, ffn=6912,
                      query_pre_attn_scalar=256),
    },
}
FN = {"qwen3": "qwen3_decoder_layer", "gemma3": "gemma3_decoder_layer"}
EPS = 1.0e-6  # rms_norm_eps of both configs
BF16_MIN = "-3.38953139E+38"  # torch.finfo(torch.bfloat16).min, HF's mask value
# Normwise tolerance of `check` against the float64 model of the IR as
# written (every bf16 rounding mimicked). Qwen3 is f32. Gemma 3's bf16 layer:
# DESIGN.md §4's 1e-2 per op. The fused norm -> matmul ops round the
# normalized activations to bf16 where the IR does (cast_mode, carried by
# --norm-fuse-matmul), so the fused layer is as close as the unfused one
# (1.5e-6 normwise on the small layer, CPU and emulated GPU alike; 1.2e-2
# when the fused ops kept them in f32).
TOL = {"qwen3": 1e-4, "gemma3": 1e-2}


def params(kind, size):
    if size not in SIZES[kind]:
        raise SystemExit("%s: no size '%s' (sizes: %s)" % (kind, size, ", ".join(SIZES[kind])))
    p = SIZES[kind][size]
    return (p["seq"], p["hidden"], p["heads"], p["kv_heads"], p["head_dim"], p["ffn"], p)


def arguments(kind, size):
    """[(name, shape, element type, (fill offset, fill shift))] of the layer."""
    S, H, NH, KV, D, F, _ = params(kind, size)
    act = "f32" if kind == "qwen3" else "bf16"
    nw = (1.0, 12) if kind == "qwen3" else (0.0, 12)  # Gemma's weights are around 0: 1 + w
    args = [("%x", [S, H], act, (0.0, 10)), ("%cos", [S, D], act, (0.0, 10)),
            ("%sin", [S, D], act, (0.0, 10)), ("%input_norm_w", [H], "f32", nw),
            ("%wq", [NH * D, H], act, (0.0, 14)), ("%wk", [KV * D, H], act, (0.0, 14)),
            ("%wv", [KV * D, H], act, (0.0, 14)), ("%q_norm_w", [D], "f32", nw),
            ("%k_norm_w", [D], "f32", nw), ("%wo", [H, NH * D], act, (0.0, 14))]
    if kind == "qwen3":
        args.append(("%post_norm_w", [H], "f32", nw))
    else:
        args += [("%post_attn_norm_w", [H], "f32", nw), ("%pre_ff_norm_w", [H], "f32", nw)]
    args += [("%w_gate", [F, H], act, (0.0, 14)), ("%w_up", [F, H], act, (0.0, 14)),
             ("%w_down", [H, F], act, (0.0, 14))]
    if kind == "gemma3":
        args.append(("%post_ff_norm_w", [H], "f32", nw))
    return args


# -----------------------------------------------------------------------------
# The layers
# -----------------------------------------------------------------------------

def repeat_kv(e, t, KV, n_rep, S, D, hint):
    """HF's repeat_kv on [KV, S, D]: t[:, None] (tensor.expand_shape),
    .expand(KV, n_rep, S, D) (a broadcast generic reading the unit dim as the
    constant 0) and .reshape(KV * n_rep, S, D) (tensor.collapse_shape)."""
    if n_rep == 1:
        return t
    e.comment("repeat_kv(%s, %d): [:, None].expand(%d, %d, %d, %d).reshape(%d, %d, %d)"
              % (hint, n_rep, KV, n_rep, S, D, KV * n_rep, S, D))
    t4 = e.reshape("expand", t, [KV, S, D], [KV, 1, S, D], [[0, 1], [2], [3]], hint + "u")
    b = e.generic([(t4, [KV, 1, S, D], e.amap(4, "d0, 0, d2, d3"))], [KV, n_rep, S, D],
                  lambda a, o: ([], a[0]), hint=hint + "rep", et=e.et(t), native=True)
    return e.reshape("collapse", b, [KV, n_rep, S, D], [KV * n_rep, S, D], [[0, 1], [2], [3]],
                     hint + "g")


def gemma_norm(e, x, w, shape, name):
    """Gemma3RMSNorm over the last dim: x.float(), x * rsqrt(mean(x.pow(2))
    + eps), * (1.0 + weight.float()) (the weight is f32 already, so .float()
    is no op), .type_as(x)."""
    e.comment("%s: Gemma3RMSNorm, decomposed (x.float(), x.pow(2), mean(-1, keepdim), + eps, "
              "rsqrt, *, * (1 + weight), .type_as(x))" % name)
    xf = e.convert(x, shape, "f32", hint="xf")
    xn = g.rms_stats(e, xf, shape, EPS)
    w1 = e.scalar(w, shape[-1:], "addf", 1.0, hint="w1")
    y = e.binary(xn, w1, shape, "mulf", ymap=g.last_dim(e, len(shape)), yshape=shape[-1:],
                 hint="normed")
    return e.convert(y, shape, e.et(x), hint="normed_t")


def layer(kind, size):
    S, H, NH, KV, D, F, p = params(kind, size)
    qwen = kind == "qwen3"
    if g.RAISED and not qwen:
        raise SystemExit("gemma3: no --raised form (its norms mix bf16 and f32)")
    e = g.Emitter()
    args = arguments(kind, size)
    for name, _, et, _ in args:
        e.typed(name, et)

    def norm(x, w, shape, name):
        if qwen:
            return g.rms_norm(e, x, w, shape, EPS, name)
        return gemma_norm(e, x, w, shape, name)

    xn = norm("%x", "%input_norm_w", [S, H], "input_layernorm")
    e.comment("q/k/v projections (nn.Linear, no bias: x · Wᵀ)")
    q = e.linear(xn, [S, H], "%wq", [NH * D, H], hint="q")
    k = e.linear(xn, [S, H], "%wk", [KV * D, H], hint="k")
    v = e.linear(xn, [S, H], "%wv", [KV * D, H], hint="v")

    def heads(t, n, hint, norm_w=None):
        """view(S, n, D), the per-head norm (Qwen3: before the transpose,
        Gemma 3: after it), transpose(1, 2)."""
        t3 = g.split_heads(e, t, S, n, D, hint)
        if norm_w and qwen:
            t3 = norm(t3, norm_w, [S, n, D], hint + "_norm (QK-norm, per head)")
        th = e.transpose(t3, [S, n, D], [1, 0, 2], hint=hint + "h")
        if norm_w and not qwen:
            th = norm(th, norm_w, [n, S, D], hint + "_norm (QK-norm, per head)")
        return th

    qh = heads(q, NH, "q", "%q_norm_w")
    kh = heads(k, KV, "k", "%k_norm_w")
    vh = heads(v, KV, "v")
    qh = g.rope(e, qh, NH, S, D, "%cos", "%sin", "q")
    kh = g.rope(e, kh, KV, S, D, "%cos", "%sin", "k")
    kh = repeat_kv(e, kh, KV, NH // KV, S, D, "k")
    vh = repeat_kv(e, vh, KV, NH // KV, S, D, "v")
    if qwen:
        scale, note = D ** -0.5, "scores = q kᵀ · head_dim**-0.5, causal mask, softmax"
    else:
        scale = p["query_pre_attn_scalar"] ** -0.5
        note = "scores = q kᵀ · query_pre_attn_scalar**-0.5, causal mask, softmax in f32"
    ctx = g.attend(e, qh, kh, vh, NH, S, D, ("mulf", scale),
                   mask_min=g.F32_MIN if qwen else BF16_MIN, note=note)
    attn = g.merge_heads(e, ctx, S, NH, D)
    e.comment("o_proj and the residual add")
    o = e.linear(attn, [S, NH * D], "%wo", [H, NH * D], hint="o")
    if qwen:
        h = e.binary("%x", o, [S, H], "addf", hint="h")
        hn = norm(h, "%post_norm_w", [S, H], "post_attention_layernorm")
        d = g.gated_mlp(e, hn, S, H, F, g.silu,
                        "SwiGLU MLP: down(silu(gate(x)) * up(x)), silu(x) = x * sigmoid(x)")
        out = e.binary(h, d, [S, H], "addf", hint="out")
    else:
        on = norm(o, "%post_attn_norm_w", [S, H], "post_attention_layernorm")
        h = e.binary("%x", on, [S, H], "addf", hint="h", et="bf16")
        hn = norm(h, "%pre_ff_norm_w", [S, H], "pre_feedforward_layernorm")
        d = g.gated_mlp(e, hn, S, H, F, g.gelu_tanh,
                        "GeGLU MLP: down(gelu_tanh(gate(x)) * up(x))")
        dn = norm(d, "%post_ff_norm_w", [S, H], "post_feedforward_layernorm")
        out = e.binary(h, dn, [S, H], "addf", hint="out", et="bf16")
    et = "f32" if qwen else "bf16"
    body = e.finish(FN[kind], [(n, ttype(s, t)) for n, s, t, _ in args], ttype([S, H], et), out)
    return e, body


def header(kind, size):
    S, H, NH, KV, D, F, p = params(kind, size)
    if kind == "qwen3":
        lines = ['A Qwen3 decoder layer (size "%s": seq %d, hidden %d, %d query heads and %d'
                 % (size, S, H, NH, KV),
                 "key/value heads of %d, ffn %d, f32) in linalg on tensors as torch-mlir emits" % (D, F),
                 "it: no norm.* op, the two RMSNorms and the per-head q/k norms decomposed.",
                 "",
                 "  h   = x + o_proj(attn(rope(q_norm(q_proj(n1))), rope(k_norm(k_proj(n1))),",
                 "                        v_proj(n1)))  with n1 = RMSNorm(x) · input_norm_w",
                 "  out = h + down(silu(gate(n2)) * up(n2))  with n2 = RMSNorm(h) · post_norm_w",
                 "  q_norm / k_norm: RMSNorm over head_dim of q_proj(n1).view(seq, heads, head_dim),",
                 "  before the transpose to heads; k/v repeated per group (repeat_kv); causal",
                 "  softmax(q kᵀ · head_dim**-0.5) v; eps = 1e-6; cos/sin [seq, head_dim] inputs."]
    else:
        lines = ['A Gemma 3 decoder layer (size "%s": seq %d, hidden %d, %d query heads and %d'
                 % (size, S, H, NH, KV),
                 "key/value head of %d, ffn %d, bf16 with f32 norm weights) in linalg on tensors"
                 % (D, F),
                 "as torch-mlir emits it: no norm.* op, the six Gemma3RMSNorms decomposed.",
                 "",
                 "  h   = x + post_attention_norm(o_proj(attn(rope(q_norm(q)), rope(k_norm(k)), v)))",
                 "          with q, k, v = q/k/v_proj(input_norm(x))",
                 "  out = h + post_feedforward_norm(down(gelu_tanh(gate(n2)) * up(n2)))",
                 "          with n2 = pre_feedforward_norm(h)",
                 "  Gemma3RMSNorm(x) = (RMSNorm(x.float()) * (1 + w)).type_as(x), w f32, eps = 1e-6;",
                 "  q_norm / k_norm over head_dim after the transpose to heads; k/v repeated",
                 "  per group (repeat_kv); causal softmax(q kᵀ · %d**-0.5) v in f32 (global"
                 % p["query_pre_attn_scalar"],
                 "  attention: no sliding window); bf16 matmuls accumulate in f32."]
    lines += ["", "Generated by examples/gen_examples.py; edit that, not this file. Run:",
              "  build/bin/norm-run FILE --entry=%s [--pipeline=project|upstream]" % FN[kind]]
    return "\n".join(("// " + l).rstrip() for l in lines) + "\n"


def render(kind, size):
    e, body = layer(kind, size)
    return header(kind, size) + "\n" + g.with_aliases(e, body)


# -----------------------------------------------------------------------------
# Driver and float64 reference
# -----------------------------------------------------------------------------

def driver(kind, size):
    args = arguments(kind, size)
    S, H = params(kind, size)[:2]
    return g.driver_text("%s --size %s" % (kind, size), FN[kind], [s for _, s, _, _ in args],
                         [S, H], [f for _, _, _, f in args], ets=[t for _, _, t, _ in args],
                         oet="f32" if kind == "qwen3" else "bf16")


def bf16(v):
    """v (an f32 value) rounded to bf16 as arith.truncf does (to nearest even)."""
    bits = struct.unpack("<I", struct.pack("<f", v))[0]
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def reference(kind, size):
    """The layer in float64 from the driver's inputs (rounded to their
    element type). Gemma 3's reference rounds to bf16 where the layer stores a
    bf16 tensor (every op's result but the f32 norm internals and softmax),
    so that it is each op's float64 result from its bf16 operands, as a
    single bf16 op's reference is (DESIGN.md §4); unrounded, a layer of some
    twenty bf16 roundings is 1.2e-2 from float64 at the small size."""
    S, H, NH, KV, D, F, p = params(kind, size)
    vals = []
    for a, (_, shape, et, (off, sh)) in enumerate(arguments(kind, size)):
        v = g.fill_values(a, math.prod(shape), off, sh)
        vals.append([bf16(t) for t in v] if et == "bf16" else v)
    if kind == "qwen3":
        x, cos, sin, g1, wq, wk, wv, qn, kn, wo, g2, wg, wu, wd = vals
        scale, rnd = D ** -0.5, g.keep
    else:
        x, cos, sin, g1, wq, wk, wv, qn, kn, wo, g2, g3, wg, wu, wd, g4 = vals
        scale, rnd = p["query_pre_attn_scalar"] ** -0.5, bf16

    def norm(t, w, rows, n):
        if kind == "gemma3":
            w = [1.0 + wi for wi in w]
        return [rnd(y) for y in g.rms_ref(t, w, rows, n, EPS)]

    def proj(t, w, n, k, m):
        return [rnd(y) for y in g.mm_t(t, w, n, k, m)]

    def add(a, b):
        return [rnd(s + t) for s, t in zip(a, b)]

    n1 = norm(x, g1, S, H)
    q = norm(proj(n1, wq, S, H, NH * D), qn, S * NH, D)  # the rows of D are the heads
    k = norm(proj(n1, wk, S, H, KV * D), kn, S * KV, D)
    v = proj(n1, wv, S, H, KV * D)
    at = g.attn_ref(q, k, v, S, H, NH, cos, sin, D=D, kv=KV, scale=scale, rnd=rnd)
    o = proj(at, wo, S, NH * D, H)
    if kind == "qwen3":
        h = add(x, o)
        return add(h, g.mlp_ref(norm(h, g2, S, H), wg, wu, wd, S, H, F, g.silu_ref))
    h = add(x, norm(o, g2, S, H))
    d = g.mlp_ref(norm(h, g3, S, H), wg, wu, wd, S, H, F, g.gelu_tanh_ref, rnd=rnd)
    return add(h, norm(d, g4, S, H))
