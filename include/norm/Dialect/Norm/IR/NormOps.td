//===- NormOps.td - norm dialect operations ----------------*- tablegen -*-===//
//
// The normalization ops and their fused matmul forms. Descriptions are the
// spec: docs/generated/NormOps.md is generated from them.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_DIALECT_NORM_IR_NORMOPS_TD
#define NORM_DIALECT_NORM_IR_NORMOPS_TD

include "norm/Dialect/Norm/IR/NormDialect.td"
include "norm/Dialect/Norm/IR/NormEnums.td"
include "mlir/Dialect/Linalg/IR/LinalgInterfaces.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/TilingInterface.td"

//===----------------------------------------------------------------------===//
// Type and attribute constraints
//===----------------------------------------------------------------------===//

def Norm_ElementType : AnyTypeOf<[F16, BF16, F32, F64]>;
def Norm_AccElementType : AnyTypeOf<[F32, F64]>;

def Norm_Shaped : AnyTypeOf<[RankedTensorOf<[Norm_ElementType]>,
                             MemRefOf<[Norm_ElementType]>],
    "ranked tensor or memref of f16, bf16, f32 or f64 values">;
def Norm_StatShaped : AnyTypeOf<[RankedTensorOf<[Norm_AccElementType]>,
                                 MemRefOf<[Norm_AccElementType]>],
    "ranked tensor or memref of f32 or f64 values">;

// Quantized outputs (DESIGN.md §8): `y`'s element type, the static scale and
// the dynamic scales.
def Norm_QuantElementType : AnyTypeOf<[F8E4M3FN, F8E5M2, I8]>;
def Norm_OutShaped
    : AnyTypeOf<[RankedTensorOf<[Norm_ElementType, Norm_QuantElementType]>,
                 MemRefOf<[Norm_ElementType, Norm_QuantElementType]>],
    "ranked tensor or memref of f16, bf16, f32, f64, f8E4M3FN, f8E5M2 or i8 "
    "values">;
def Norm_ScaleType : AnyTypeOf<[F32, 0DTensorOf<[F32]>, MemRefRankOf<[F32], [0]>],
    "f32, or a 0-d tensor or memref of f32">;
def Norm_ScalesShaped : AnyTypeOf<[RankedTensorOf<[F32]>, MemRefOf<[F32]>],
    "ranked tensor or memref of f32 values">;

// ε, the Gemma weight offset and the pRMSNorm fraction: an f32 or f64 value.
def Norm_FloatValueAttr : AnyAttrOf<[F32Attr, F64Attr]>;

def Norm_AccTypeAttr : TypeAttrOf<AnyFloat>;

//===----------------------------------------------------------------------===//
// Base class
//===----------------------------------------------------------------------===//

// All norm ops: destination-passing style with optional operands, tileable
// over their parallel (row) dimensions and decomposable into linalg.
class Norm_StructuredOp<string mnemonic, list<Trait> traits = []>
    : Norm_Op<mnemonic, !listconcat([
        AttrSizedOperandSegments,
        DestinationStyleOpInterface,
        DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
        DeclareOpInterfaceMethods<ReifyRankedShapedTypeOpInterface,
                                  ["reifyResultShapes"]>,
        DeclareOpInterfaceMethods<AggregatedOpInterface, ["decomposeOperation"]>,
        DeclareOpInterfaceMethods<TilingInterface,
                                  ["getIterationDomain",
                                   "getLoopIteratorTypes",
                                   "getResultTilePosition",
                                   "getTiledImplementation"]>],
        traits)> {
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let hasVerifier = 1;
  let hasCanonicalizer = 1;

  code normCommonDecl = [{
    /// The `outs` operands are the trailing operand segments, starting at
    /// `init`. Computed from the segment sizes, not from `getInit()`, so that
    /// it is safe on malformed generic IR whose `init` segment is empty (the
    /// DPS trait verifier calls this before the op verifier has run).
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      unsigned start = getODSOperandIndexAndLength(kInitSegment).first;
      return ::mlir::MutableOperandRange(getOperation(), start,
                                         getOperation()->getNumOperands() - start);
    }
    ::mlir::ShapedType getInputType() {
      return ::llvm::cast<::mlir::ShapedType>(getInput().getType());
    }
    ::mlir::ShapedType getInitType() {
      return ::llvm::cast<::mlir::ShapedType>(getInit().getType());
    }
    /// The accumulation type: `acc_type` if set, else f32 (f64 for f64 data).
    ::mlir::FloatType getAccumulationType();
    /// ε as a double, or the op's default when the attribute is absent.
    double getEpsilonValue();
    /// The weight offset as a double (0 when absent).
    double getWeightOffsetValue();
  }];
}

// Shared description text: the numerics every op follows.
defvar normNumericsDoc = [{
    Numerics (all ops):
    - Statistics are accumulated in `acc_type` (default f32; f64 for f64
      data). Inputs are converted to `acc_type` before squaring, so f16's
      `x²` cannot overflow.
    - LayerNorm statistics are computed stably (two passes over values
      shifted by a per-row pivot), never as `E[x²] − E[x]²`.
    - All-zero rows give zeros when ε > 0; with ε = 0 an all-zero row gives
      NaN (0 · ∞), as the formula says. NaN or Inf in a row affect that row
      only.
}];

// The quantized output of the standalone norms: operands, attributes,
// assembly and spec, shared by both.
defvar normQuantScaleArg = (ins Optional<Norm_ScaleType>:$scale);
defvar normQuantOutsArgs = (ins
  Optional<Norm_ScalesShaped>:$scale_init,
  OptionalAttr<I64Attr>:$group_size,
  OptionalAttr<Norm_FloatValueAttr>:$scale_min);
defvar normQuantScaleFormat = [{
    (`scale` `(` $scale^ `:` type($scale) `)`)? }];
defvar normQuantOutsFormat = [{
    (`scale_outs` `(` $scale_init^ `:` type($scale_init) `)`)? }];
defvar normQuantDoc = [{

    Quantized output (DESIGN.md §8): when `y` has element type `f8E4M3FN`,
    `f8E5M2` or `i8`, the op writes `q = sat(rne(y · (1/s)))`, with `y` (after
    γ, β and the offset) never rounded before: `rne` rounds to nearest even
    in `y`'s type, `sat` clamps to its largest finite magnitude (448, 57344,
    [−128, 127]); NaN stays NaN in fp8 (i8: NaN rows are unspecified). The
    scale `s` is one of:
    - static: `scale(s)`, an f32 or a 0-d tensor/memref of f32; `1/s` is
      computed once, in f32;
    - dynamic per token: `scale_outs(s)` (f32, the shape of the
      non-normalized dims) receives one `s = max(amax_j |y_j| / qmax, s_min)`
      per row, `qmax` the format's largest finite value, `s_min` the
      `scale_min` attribute (default `1/(qmax · 512)`);
    - dynamic per group: as per token over groups of `group_size` ∈ {32, 64,
      128} consecutive elements of the flattened normalized dims;
      `scale_outs` has the non-normalized shape plus `[n / group_size]`.
    `sum_outs` keeps the input's type. Constraints: (Q1) `scale` or
    `scale_outs`, exactly one, iff `y` is quantized; (Q2) `group_size` and
    `scale_min` only with `scale_outs`; `scale_min` finite and > 0; (Q3)
    `group_size` ∈ {32, 64, 128}, the normalized dims static and `n` a
    multiple of it; (Q4) `scale_outs` of the shape above; (Q5) the op's
    result types are those of its `outs`, in order, `scale_outs` last.

    ```mlir
    %q, %s = norm.rms_norm ins(%x : tensor<?x4096xbf16>)
           weight(%g : tensor<4096xbf16>) outs(%e0 : tensor<?x4096xf8E4M3FN>)
           scale_outs(%e1 : tensor<?x32xf32>) {group_size = 128 : i64}
           -> tensor<?x4096xf8E4M3FN>, tensor<?x32xf32>
    ```
}];

// The rotary-embedding epilogue of the standalone norms (QK-norm → RoPE):
// operands, attribute, assembly and spec, shared by both.
defvar normRopeArgs =
    (ins Optional<Norm_Shaped>:$cos, Optional<Norm_Shaped>:$sin);
defvar normRopeAttr = (ins OptionalAttr<Norm_RopeModeAttr>:$rope_mode,
    OptionalAttr<Norm_RopeRoundingAttr>:$rope_rounding);
defvar normRopeFormat = [{
    (`rope` `(` $cos^ `,` $sin `:` type($cos) `,` type($sin) `)`)? }];
defvar normRopeDoc = [{

    Rotary embedding (RoPE, QK-norm's Qwen3 / OLMo2 / Gemma 3 order): with
    `rope(cos, sin)`, the normalized value `v = n · (γ + offset) (+ β)`
    (before its final rounding to `y`'s type) is rotated within the last
    dimension, of static even size D, before it is rounded once:
    `y_d = round(v_d · cos_d + sign_d · v_{p(d)} · sin_d)`, in `acc_type`,
    where `rope_mode` (default `rotate_half`) pairs `p(d) = d ± D/2` with
    `sign = −1` for `d < D/2` (Hugging Face's `rotate_half`), or
    (`interleaved`, GPT-J) `p(2i) = 2i+1` with `sign = −1`, `p(2i+1) = 2i`.
    `cos` and `sin` have the input's rank, the same shape and one element
    type (the input's or a wider float type up to `acc_type`); each of their
    dimensions is the input's size (indexed like the input) or a static 1
    (broadcast: one angle for every index there, e.g. `[T, 1, D]` for the
    heads of `[T, H, D]`); the last is D. A dynamic dimension of theirs (a
    sequence length traced as `?`, `tensor<?x1x128xbf16>`) is the
    input's size there at run time, never a broadcast, even where it is 1:
    the verifier checks it where both sizes are static; where either is
    dynamic, `--norm-lower-to-cpu` and `--norm-lower-to-nvvm` check it at
    run time before the op (`--norm-check-rope-sizes`: a mismatch writes
    the op, the operand, the dim and both sizes to stderr and aborts, as a
    failed C `assert` does), and `norm-run` checks the buffers it passes
    before every run. Constraints: (R1) `cos` and `sin`
    come together, and `rope_mode` and `rope_rounding` only with them; (R2)
    the normalized dimensions are the last one only, static and even; (R3)
    the shapes and element types above; (R4) not with a quantized `y`; (R5)
    `rope_rounding = each_step` only when `y`'s element type `U` is
    narrower than `acc_type`, with `cos` and `sin` of type `U`.

    `rope_rounding` (default `once`, the rule above) says where the rotation
    rounds. With `each_step` (Hugging Face's `apply_rotary_pos_emb` run in
    bf16 or f16, as torch-mlir lowers it) the normalized value is first
    rounded to `U` exactly as the op without `rope` would store it (`w =
    round(v)`, `cast_mode` included), and each step of the rotation rounds
    to `U`: `y_d = round(round(w_d · cos_d) + sign_d · round(w_{p(d)} ·
    sin_d))`, every `round` to nearest even in `U`. These are the correctly
    rounded `U` operations, so computing each one in `acc_type` and
    rounding its result gives the same bits (a product of two `U` values is
    exact in f32, and f32 holds more than `2·p + 2` bits for bf16's and
    f16's precision `p`, so rounding a sum twice equals rounding it once).

    ```mlir
    %q = norm.rms_norm ins(%x : tensor<8x4x32xf32>) weight(%g : tensor<32xf32>)
           rope(%cos, %sin : tensor<8x1x32xf32>, tensor<8x1x32xf32>)
           outs(%e : tensor<8x4x32xf32>) -> tensor<8x4x32xf32>
    ```
}];

//===----------------------------------------------------------------------===//
// norm.rms_norm
//===----------------------------------------------------------------------===//

def Norm_RMSNormOp : Norm_StructuredOp<"rms_norm"> {
  let summary = "RMS normalization, optionally residual-add, partial (pRMSNorm) and Gemma-offset";
  let description = !strconcat([{
    Computes, for every row (every index of the non-normalized dimensions
    `[0, axis)`), over the normalized dimensions `[axis, rank)` taken together
    (flattened to `n` elements):

    ```
    s    = x + residual                       (if `residual` is given)
    ms   = (1/k) · Σ_{j<k} s_j²               (k = n, or ⌈partial · n⌉)
    rstd = 1 / sqrt(ms + ε)                   (eps_mode = inside_sqrt)
         = 1 / (sqrt(ms) + ε)                 (eps_mode = outside_sqrt)
    y    = s · rstd · (γ + weight_offset)     (γ = 1 when absent)
    ```

    Operands:
    - `ins(x)`: the input, rank ≥ 1.
    - `residual(r)` (optional): added to `x` first; the sum is rounded to the
      element type and is what is normalized (the residual stream of vLLM's
      `fused_add_rms_norm`).
    - `weight(γ)` (optional): shape = the normalized dimensions of `x`;
      element type that of `x` or a wider float type up to `acc_type` (f32
      γ with bf16 `x`), never rounded to `x`'s type.
    - `outs(y)`: the result, the shape of `x`; element type that of `x` or a
      wider float type up to `acc_type` (f32 `y` from bf16 `x`).
    - `sum_outs(s)` (optional, requires `residual`): receives `x + r`.
    - `rstd_outs(rstd)` (optional): receives `rstd`, element type `acc_type`,
      shape = the non-normalized dimensions of `x`.

    Attributes:
    - `axis` (default −1): the first normalized dimension; negative values
      count from the end (ONNX convention).
    - `epsilon` (f32 or f64, default 1e-6): ε, finite and ≥ 0.
    - `weight_offset` (f32 or f64, default 0): added to γ; Gemma uses 1.0.
    - `partial` (f32 or f64 in (0, 1]): partial RMSNorm (Zhang & Sennrich,
      2019): the mean of squares is taken over the first `k = ⌈partial · n⌉`
      elements of the flattened normalized dimensions; all `n` are scaled.
    - `acc_type`: f32 or f64, at least as wide as the element type.
    - `cast_mode`: `after_weight` (default) or `before_weight`; see
      `#norm.cast_mode`. `after_weight`: everything in `acc_type`, one
      rounding to `y`'s type. `before_weight`: `s · rstd` rounds to `x`'s
      type, then the weight is applied in γ's type, then rounded to `y`'s.
    - `eps_mode`: `inside_sqrt` (default) or `outside_sqrt`.

    On tensors the op returns one result per `outs` operand, in order; on
    memrefs it writes them and returns nothing.

    Constraints (checked by the verifier, each with its own message):
    - (C1) `x`, `residual` and `s` have the same element type and
      compatible shapes; `y` has their shape and their element type or a
      wider float type no wider than `acc_type`; `γ` has the shape of the
      normalized dimensions, which must not be empty, and an element type
      allowed like `y`'s.
    - (C2) `-rank ≤ axis < rank`.
    - (C3) ε is finite and ≥ 0; `weight_offset` is finite; `partial` is in
      (0, 1].
    - (C4) `acc_type` is f32 or f64 and not narrower than the element type;
      `rstd` has element type `acc_type` and the non-normalized shape.
    - (C5) `sum_outs` only with `residual`; tensors and memrefs are not mixed.

    Example:

    ```mlir
    %y = norm.rms_norm ins(%x : tensor<?x4096xbf16>)
           weight(%g : tensor<4096xbf16>)
           outs(%init : tensor<?x4096xbf16>)
           {epsilon = 1.0e-06 : f32, weight_offset = 1.0 : f32}
           -> tensor<?x4096xbf16>

    %y2, %sum, %rstd = norm.rms_norm ins(%x : tensor<8x64xf32>)
           residual(%r : tensor<8x64xf32>) weight(%g : tensor<64xf32>)
           outs(%i0 : tensor<8x64xf32>) sum_outs(%i1 : tensor<8x64xf32>)
           rstd_outs(%i2 : tensor<8xf32>)
           -> tensor<8x64xf32>, tensor<8x64xf32>, tensor<8xf32>
    ```
  }], normQuantDoc, normRopeDoc, normNumericsDoc);

  let arguments = !con((ins
    Norm_Shaped:$input,
    Optional<Norm_Shaped>:$residual,
    Optional<Norm_Shaped>:$weight),
    normQuantScaleArg, normRopeArgs, (ins
    Norm_OutShaped:$init,
    Optional<Norm_Shaped>:$sum_init,
    Optional<Norm_StatShaped>:$rstd_init),
    normQuantOutsArgs, (ins
    DefaultValuedAttr<I64Attr, "-1">:$axis,
    OptionalAttr<Norm_FloatValueAttr>:$epsilon,
    OptionalAttr<Norm_FloatValueAttr>:$weight_offset,
    OptionalAttr<Norm_FloatValueAttr>:$partial,
    OptionalAttr<Norm_AccTypeAttr>:$acc_type,
    DefaultValuedAttr<Norm_CastModeAttr, "::mlir::norm::CastMode::after_weight">:$cast_mode,
    DefaultValuedAttr<Norm_EpsModeAttr, "::mlir::norm::EpsMode::inside_sqrt">:$eps_mode),
    normRopeAttr);

  let assemblyFormat = !strconcat([{
    `ins` `(` $input `:` type($input) `)`
    (`residual` `(` $residual^ `:` type($residual) `)`)?
    (`weight` `(` $weight^ `:` type($weight) `)`)?
  }], normRopeFormat, normQuantScaleFormat, [{
    `outs` `(` $init `:` type($init) `)`
    (`sum_outs` `(` $sum_init^ `:` type($sum_init) `)`)?
    (`rstd_outs` `(` $rstd_init^ `:` type($rstd_init) `)`)?
  }], normQuantOutsFormat, [{
    attr-dict (`->` type($results)^)?
  }]);

  let extraClassDeclaration = normCommonDecl # [{
    static constexpr double kDefaultEpsilon = 1e-6;
    static constexpr unsigned kInitSegment = 6;
    static constexpr unsigned kRequiredSegments[] = {0, 6};
    /// `axis` made non-negative.
    int64_t getNormalizedAxis();
    /// The pRMSNorm fraction (1 when absent).
    double getPartialValue();
  }];
}

//===----------------------------------------------------------------------===//
// norm.layer_norm
//===----------------------------------------------------------------------===//

def Norm_LayerNormOp : Norm_StructuredOp<"layer_norm"> {
  let summary = "Layer normalization, optionally residual-add, with mean/rstd results";
  let description = !strconcat([{
    Computes, for every row (every index of the non-normalized dimensions
    `[0, axis)`), over the normalized dimensions `[axis, rank)` taken together
    (`n` elements):

    ```
    s    = x + residual                          (if `residual` is given)
    μ    = (1/n) · Σ_j s_j
    var  = (1/n) · Σ_j (s_j − μ)²                (biased)
    rstd = 1 / sqrt(var + ε)                     (eps_mode = inside_sqrt)
         = 1 / (sqrt(var) + ε)                   (eps_mode = outside_sqrt)
    y    = (s − μ) · rstd · (γ + weight_offset) + β
    ```

    Operands: `ins(x)`, optional `residual(r)`, optional `weight(γ)` and
    `bias(β)` (shape = the normalized dimensions), `outs(y)`, and the optional
    `sum_outs(s)` (requires `residual`), `mean_outs(μ)` and `rstd_outs(rstd)`
    (element type `acc_type`, shape = the non-normalized dimensions; PyTorch's
    `native_layer_norm` returns the same statistics with unit dimensions).

    Attributes: `axis` (default −1), `epsilon` (default 1e-5),
    `weight_offset` (default 0), `acc_type`, `cast_mode` and `eps_mode`, as
    for `norm.rms_norm`.

    Constraints: as for `norm.rms_norm` (C1–C5), with `β` constrained like
    `γ` (and of `γ`'s element type when both are given) and `mean` like
    `rstd`. There is no `partial`. Quantized outputs and the rotary
    embedding as for `norm.rms_norm`.

    Example:

    ```mlir
    %y, %mean, %rstd = norm.layer_norm ins(%x : tensor<?x768xf32>)
           weight(%g : tensor<768xf32>) bias(%b : tensor<768xf32>)
           outs(%i0 : tensor<?x768xf32>) mean_outs(%i1 : tensor<?xf32>)
           rstd_outs(%i2 : tensor<?xf32>) {epsilon = 1.0e-05 : f32}
           -> tensor<?x768xf32>, tensor<?xf32>, tensor<?xf32>
    ```
  }], normNumericsDoc);

  let arguments = !con((ins
    Norm_Shaped:$input,
    Optional<Norm_Shaped>:$residual,
    Optional<Norm_Shaped>:$weight,
    Optional<Norm_Shaped>:$bias),
    normQuantScaleArg, normRopeArgs, (ins
    Norm_OutShaped:$init,
    Optional<Norm_Shaped>:$sum_init,
    Optional<Norm_StatShaped>:$mean_init,
    Optional<Norm_StatShaped>:$rstd_init),
    normQuantOutsArgs, (ins
    DefaultValuedAttr<I64Attr, "-1">:$axis,
    OptionalAttr<Norm_FloatValueAttr>:$epsilon,
    OptionalAttr<Norm_FloatValueAttr>:$weight_offset,
    OptionalAttr<Norm_AccTypeAttr>:$acc_type,
    DefaultValuedAttr<Norm_CastModeAttr, "::mlir::norm::CastMode::after_weight">:$cast_mode,
    DefaultValuedAttr<Norm_EpsModeAttr, "::mlir::norm::EpsMode::inside_sqrt">:$eps_mode),
    normRopeAttr);

  let assemblyFormat = !strconcat([{
    `ins` `(` $input `:` type($input) `)`
    (`residual` `(` $residual^ `:` type($residual) `)`)?
    (`weight` `(` $weight^ `:` type($weight) `)`)?
    (`bias` `(` $bias^ `:` type($bias) `)`)?
  }], normRopeFormat, normQuantScaleFormat, [{
    `outs` `(` $init `:` type($init) `)`
    (`sum_outs` `(` $sum_init^ `:` type($sum_init) `)`)?
    (`mean_outs` `(` $mean_init^ `:` type($mean_init) `)`)?
    (`rstd_outs` `(` $rstd_init^ `:` type($rstd_init) `)`)?
  }], normQuantOutsFormat, [{
    attr-dict (`->` type($results)^)?
  }]);

  let extraClassDeclaration = normCommonDecl # [{
    static constexpr double kDefaultEpsilon = 1e-5;
    static constexpr unsigned kInitSegment = 7;
    static constexpr unsigned kRequiredSegments[] = {0, 7};
    /// `axis` made non-negative.
    int64_t getNormalizedAxis();
  }];
}

//===----------------------------------------------------------------------===//
// Fused norm → matmul
//===----------------------------------------------------------------------===//

defvar fusedNumericsDoc = [{
    The fused ops compute everything (statistics, normalization, the product
    and the bias) in `acc_type` and round to the output's element type once,
    when the result is stored; the normalized activations are never rounded.
    The normalization is over the last dimension. `transpose_rhs` says that
    `W` is given as N×K (PyTorch `Linear` layout) instead of K×N.

    Element types (docs/design.md, "Mixed element types"), with `T` the
    input's: `W`, the residual and `sum_outs` have `T`; `γ` and `β` have one
    type, `T` or a wider float type up to `acc_type` (f32 `γ` with bf16 `X`,
    Gemma 3), used at that type, never rounded to `T`; `C` and
    `matmul_bias` have one type, `T` or a wider float type up to `acc_type`
    (an f32 `C` from bf16 `X` and `W` keeps the f32 accumulation of
    `linalg.matmul ins(bf16, bf16) outs(f32)`; a bf16 `C` rounds where an
    `arith.truncf` of that f32 product would).
}];

defvar fusedNormMatmulCastDoc = [{

    Rounding of the normalized activations (`cast_mode`, optional): absent,
    they are never rounded (above). Present, the op rounds them where the
    standalone norm with that `cast_mode` rounds its result `y` (of the
    input's element type `T`), and the product reads them at `T` (what the
    unfused norm → matmul computes): `after_weight` is
    `round_T(n · (γ + weight_offset) (+ β))` in `acc_type`, `before_weight`
    is `n` rounded to `T`, then the weight (and bias) applied in `γ`'s type
    and rounded to `T`. `--norm-fuse-matmul` sets it from the fused norm
    when `T` is narrower than `acc_type` (for f32 data it is the identity).
}];

defvar fusedNormMatmulResidualDoc = [{

    Residual add (the residual-add → norm → matmul chain of a pre-norm
    transformer block): with `residual(R)` (the shape and type of `X`), the
    op normalizes `S = X + R` instead of `X`, where `S` is rounded to the
    element type first, exactly as `norm.rms_norm` / `norm.layer_norm` with a
    `residual` define it. `sum_outs(S)` (optional, requires `residual`, the
    type of `X`) receives `S` for the residual stream; the op then returns
    `C` and `S`, in that order.
}];

// The saved statistics of the fused ops (training graphs keep them for the
// backward, DESIGN.md §9).
defvar fusedStatisticsDoc = [{

    Statistics (the forward of a training graph, saved for
    `norm.rms_norm_grad` / `norm.layer_norm_grad`): `mean_outs(μ)`
    (LayerNorm) and `rstd_outs(rstd)` (both optional) receive the row
    statistics of the norm, exactly as the standalone norm's `mean_outs` /
    `rstd_outs` define them: element type `acc_type`, shape = the rows (the
    leading dims of the normalized operand: `X`'s for norm → matmul, `Y`'s
    for matmul → norm), one value per row; the op returns them after `C`
    (`Y`) and `S`, mean before rstd. Per-head (`head_dim`) ops take none.
}];

class Norm_NormMatmulOp<string mnemonic, string normName, bit hasBeta>
    : Norm_StructuredOp<mnemonic> {
  let summary = normName # " followed by a matmul: C = norm(X) · W (+ bias)";
  let arguments = !con((ins
    Norm_Shaped:$input,
    Optional<Norm_Shaped>:$residual,
    Optional<Norm_Shaped>:$weight),
    !if(hasBeta, (ins Optional<Norm_Shaped>:$bias), (ins)),
    (ins
    Norm_Shaped:$rhs,
    Optional<Norm_Shaped>:$matmul_bias,
    Norm_Shaped:$init,
    Optional<Norm_Shaped>:$sum_init),
    !if(hasBeta, (ins Optional<Norm_StatShaped>:$mean_init), (ins)),
    (ins
    Optional<Norm_StatShaped>:$rstd_init,
    OptionalAttr<Norm_FloatValueAttr>:$epsilon,
    OptionalAttr<Norm_FloatValueAttr>:$weight_offset,
    OptionalAttr<Norm_AccTypeAttr>:$acc_type,
    DefaultValuedAttr<Norm_EpsModeAttr, "::mlir::norm::EpsMode::inside_sqrt">:$eps_mode,
    UnitAttr:$transpose_rhs,
    OptionalAttr<Norm_CastModeAttr>:$cast_mode),
    // pRMSNorm: LayerNorm has no partial form.
    !if(hasBeta, (ins), (ins OptionalAttr<Norm_FloatValueAttr>:$partial)));

  let assemblyFormat = !strconcat([{
    `ins` `(` $input `:` type($input) `)`
    (`residual` `(` $residual^ `:` type($residual) `)`)?
    (`weight` `(` $weight^ `:` type($weight) `)`)?
  }], !if(hasBeta, [{ (`bias` `(` $bias^ `:` type($bias) `)`)? }], ""), [{
    `rhs` `(` $rhs `:` type($rhs) `)`
    (`matmul_bias` `(` $matmul_bias^ `:` type($matmul_bias) `)`)?
    `outs` `(` $init `:` type($init) `)`
    (`sum_outs` `(` $sum_init^ `:` type($sum_init) `)`)?
  }], !if(hasBeta, [{
    (`mean_outs` `(` $mean_init^ `:` type($mean_init) `)`)? }], ""), [{
    (`rstd_outs` `(` $rstd_init^ `:` type($rstd_init) `)`)?
    attr-dict (`->` type($results)^)?
  }]);
}

def Norm_RMSNormMatmulOp
    : Norm_NormMatmulOp<"rms_norm_matmul", "RMSNorm", /*hasBeta=*/0> {
  let description = !strconcat([{
    `C = rms_norm(X) · W + matmul_bias`, i.e. for every row `i` of `X`
    (shape `[..., K]`) and column `c` of `W`:

    ```
    rstd_i = 1 / sqrt((1/K) · Σ_k X_ik² + ε)
    C_ic   = Σ_k (X_ik · rstd_i · (γ_k + weight_offset)) · W_kc + bias_c
    ```

    which equals `rstd_i · (X · (diag(γ + weight_offset) · W))_ic + bias_c`;
    code generation exploits this to run a plain GEMM on the raw rows and
    scale in the epilogue.

    Partial RMSNorm (`partial` = p in (0, 1], as on `norm.rms_norm`): the
    mean of squares is taken over the first `⌈p · K⌉` columns of `X` (the
    sum `Σ_k` in `rstd_i` runs over them only); all `K` are scaled and
    multiplied.

    Operands: `ins(X)` of shape `[..., K]`, optional `weight(γ)` of shape
    `[K]`, `rhs(W)` of shape `[K, N]` (or `[N, K]` with `transpose_rhs`),
    optional `matmul_bias` of shape `[N]`, and `outs(C)` of shape `[..., N]`
    with the leading dimensions of `X`.
  }], fusedNormMatmulResidualDoc, fusedStatisticsDoc, fusedNumericsDoc,
      fusedNormMatmulCastDoc, [{

    Example:

    ```mlir
    %c = norm.rms_norm_matmul ins(%x : tensor<16x4096xbf16>)
           weight(%g : tensor<4096xbf16>) rhs(%w : tensor<11008x4096xbf16>)
           outs(%init : tensor<16x11008xbf16>) {transpose_rhs}
           -> tensor<16x11008xbf16>
    ```
  }]);
  let extraClassDeclaration = normCommonDecl # [{
    static constexpr double kDefaultEpsilon = 1e-6;
    static constexpr unsigned kInitSegment = 5;
    static constexpr unsigned kRequiredSegments[] = {0, 3, 5};
    /// The pRMSNorm fraction (1 when absent).
    double getPartialValue();
  }];
}

def Norm_LayerNormMatmulOp
    : Norm_NormMatmulOp<"layer_norm_matmul", "LayerNorm", /*hasBeta=*/1> {
  let description = !strconcat([{
    `C = layer_norm(X) · W + matmul_bias`: LayerNorm over the last dimension
    of `X` (`[..., K]`, with optional `γ`, `β` of shape `[K]`), then the
    product with `W` (`[K, N]`, or `[N, K]` with `transpose_rhs`) and the
    optional `matmul_bias` (`[N]`). Code generation uses the identity
    `LN(X)·W + b = diag(rstd)·(X·W' − μ·cᵀ) + b'` with `W' = diag(γ)·W`,
    `c = 1ᵀ·W'` and `b' = β·W + b`.
  }], fusedNormMatmulResidualDoc, fusedStatisticsDoc, fusedNumericsDoc,
      fusedNormMatmulCastDoc, [{

    Example:

    ```mlir
    %c = norm.layer_norm_matmul ins(%x : tensor<?x768xf32>)
           weight(%g : tensor<768xf32>) bias(%b : tensor<768xf32>)
           rhs(%w : tensor<768x3072xf32>) matmul_bias(%mb : tensor<3072xf32>)
           outs(%init : tensor<?x3072xf32>) -> tensor<?x3072xf32>
    ```
  }]);
  let extraClassDeclaration = normCommonDecl # [{
    static constexpr double kDefaultEpsilon = 1e-5;
    static constexpr unsigned kInitSegment = 6;
    static constexpr unsigned kRequiredSegments[] = {0, 4, 6};
  }];
}

//===----------------------------------------------------------------------===//
// Fused matmul → norm
//===----------------------------------------------------------------------===//

class Norm_MatmulNormOp<string mnemonic, string normName, bit hasBeta>
    : Norm_StructuredOp<mnemonic> {
  let summary = "matmul (+ bias + residual) followed by " # normName #
                ": Y = norm(A · W + bias + residual)";
  let arguments = !con((ins
    Norm_Shaped:$input,
    Norm_Shaped:$rhs,
    Optional<Norm_Shaped>:$matmul_bias,
    Optional<Norm_Shaped>:$residual,
    Optional<Norm_Shaped>:$weight),
    // RMSNorm: the input norm's γ (the optional prologue, below).
    !if(hasBeta, (ins Optional<Norm_Shaped>:$bias),
        (ins Optional<Norm_Shaped>:$input_weight)),
    // RMSNorm: the per-head norm's rotary embedding (QK-norm → RoPE).
    !if(hasBeta, (ins), normRopeArgs),
    (ins
    Norm_Shaped:$init,
    Optional<Norm_Shaped>:$sum_init),
    !if(hasBeta, (ins Optional<Norm_StatShaped>:$mean_init), (ins)),
    (ins
    Optional<Norm_StatShaped>:$rstd_init,
    OptionalAttr<Norm_FloatValueAttr>:$epsilon,
    OptionalAttr<Norm_FloatValueAttr>:$weight_offset,
    OptionalAttr<Norm_AccTypeAttr>:$acc_type,
    DefaultValuedAttr<Norm_EpsModeAttr, "::mlir::norm::EpsMode::inside_sqrt">:$eps_mode,
    UnitAttr:$transpose_rhs,
    OptionalAttr<ConfinedAttr<I64Attr, [IntPositive]>>:$head_dim),
    !if(hasBeta, (ins), (ins
    OptionalAttr<Norm_FloatValueAttr>:$input_epsilon,
    OptionalAttr<Norm_FloatValueAttr>:$input_weight_offset,
    OptionalAttr<Norm_CastModeAttr>:$input_cast_mode)),
    !if(hasBeta, (ins), normRopeAttr));

  let assemblyFormat = !strconcat([{
    `ins` `(` $input `:` type($input) `)`
    `rhs` `(` $rhs `:` type($rhs) `)`
    (`matmul_bias` `(` $matmul_bias^ `:` type($matmul_bias) `)`)?
    (`residual` `(` $residual^ `:` type($residual) `)`)?
    (`weight` `(` $weight^ `:` type($weight) `)`)?
  }], !if(hasBeta, [{ (`bias` `(` $bias^ `:` type($bias) `)`)? }],
      !strconcat([{
    (`input_weight` `(` $input_weight^ `:` type($input_weight) `)`)? }],
      normRopeFormat)),
  [{
    `outs` `(` $init `:` type($init) `)`
    (`sum_outs` `(` $sum_init^ `:` type($sum_init) `)`)?
  }], !if(hasBeta, [{
    (`mean_outs` `(` $mean_init^ `:` type($mean_init) `)`)? }], ""), [{
    (`rstd_outs` `(` $rstd_init^ `:` type($rstd_init) `)`)?
    attr-dict (`->` type($results)^)?
  }]);
}

defvar matmulNormDoc = [{
    Operands: `ins(A)` of shape `[..., K]`, `rhs(W)` of shape `[K, N]` (or
    `[N, K]` with `transpose_rhs`), optional `matmul_bias` (`[N]`), optional
    `residual` (`[..., N]`, the type of `Y`), optional `weight(γ)` (and
    `bias(β)` for LayerNorm) of shape `[N]`, `outs(Y)` of shape `[..., N]`,
    and optional `sum_outs(S)` (same type as `Y`), which receives the pre-norm
    sum for the residual stream.

    The pre-norm sum `S = A · W + matmul_bias + residual` is accumulated in
    `acc_type` and rounded to the output's element type `U` once; the norm
    is applied to the rounded `S` (in `acc_type`, with one rounding of `Y`
    to `U`), so `Y` is exactly the norm of the returned `S`.

    Element types (docs/design.md, "Mixed element types"): `W` has the type
    `T` of `A`; `S`, `Y`, the matmul bias and the residual have `U`, which
    is `T` or a wider float type up to `acc_type`: with bf16 `A` and `W`,
    `U` = f32 is `linalg.matmul ins(bf16, bf16) outs(f32)` feeding an f32
    norm (`S` not rounded further), and `U` = bf16 is that f32 product
    rounded to bf16 (`arith.truncf`) before a bf16 norm. With f32 `A` and
    `W`, `U` may also be bf16 or f16 (narrower than the operands: an f32
    linear layer rounded for a 16-bit norm): the f32 product plus the
    residual, rounded once to `U`, then the norm of that rounded `S`; no
    other narrower `U` is allowed, nor one with `input_epsilon`. `γ` and
    `β` have one type, `U` or a wider float type up to `acc_type`, used at
    that type.

    Per-head norm (QK-norm: Qwen3, Gemma 3): with `head_dim = D`, each row of
    `S` is `H = N / D` heads of `D` consecutive columns, and each head is
    normalized on its own (its own statistics) with the same `γ` (and `β`)
    of shape `[D]`: `Y` is the norm of `S` viewed as `[..., H, D]` over the
    last dim. `N` must be static and a multiple of `D`. The result keeps the
    shape `[..., N]`; the `tensor.expand_shape` to heads follows the op.
}];

def Norm_MatmulRMSNormOp
    : Norm_MatmulNormOp<"matmul_rms_norm", "RMSNorm", /*hasBeta=*/0> {
  let description = !strconcat([{
    `Y = rms_norm(A · W + matmul_bias + residual)` over the last dimension
    (`N`), with the optional weight `γ` and `weight_offset` as in
    `norm.rms_norm`.
  }], matmulNormDoc, fusedStatisticsDoc, [{

    Input norm (norm → matmul → norm, QK-norm: Qwen3's and Gemma 3's
    q_proj/k_proj take the layer's input norm as their prologue and their
    result is normalized again per head): with `input_epsilon`, `A` is
    RMS-normalized over `K` before the product, exactly as
    `norm.rms_norm_matmul` with `weight(input_weight)`, `epsilon =
    input_epsilon`, `weight_offset = input_weight_offset` and `cast_mode =
    input_cast_mode` defines it (its `eps_mode` is the op's):
    `S = round_U(rms_norm_matmul(A) + matmul_bias)`, the `C` that op would
    store, and `Y = rms_norm(S)` as above. `S` is rounded before its
    statistics, as in the unfused pair, so the op equals that pair (the
    per-head norm's ε makes it depend on the scale of `S`: the input norm's
    `rstd` is applied before the per-head statistics, never folded into
    them). Constraints: `input_weight`, `input_weight_offset` and
    `input_cast_mode` only with `input_epsilon`; `input_weight` of shape
    `[K]` and an element type allowed like `γ`'s for `A`; no `residual`,
    `sum_outs` or `rstd_outs`.

    Rotary embedding (QK-norm → RoPE, Qwen3's q/k norms): with `rope(cos,
    sin)` and `head_dim = D`, each normalized head is rotated as
    `norm.rms_norm`'s `rope` defines it, before its one rounding to `U`:
    `Y` is the `norm.rms_norm` with `rope(cos, sin)` (and `rope_mode`) of
    `S` viewed as `[..., H, D]`, and `cos` and `sin` are shaped against that
    view (`[..., 1, D]`: one angle row per row of `S`, every head), by the
    same rules (R1–R3, R5; `rope_rounding` as there, `w` the head's
    normalized value rounded to `U`). Constraints: `rope` only with
    `head_dim`.

    Example:

    ```mlir
    %y, %s = norm.matmul_rms_norm ins(%a : tensor<16x4096xf32>)
           rhs(%w : tensor<4096x4096xf32>) residual(%h : tensor<16x4096xf32>)
           weight(%g : tensor<4096xf32>)
           outs(%i0 : tensor<16x4096xf32>) sum_outs(%i1 : tensor<16x4096xf32>)
           -> tensor<16x4096xf32>, tensor<16x4096xf32>
    ```
  }]);
  let extraClassDeclaration = normCommonDecl # [{
    static constexpr double kDefaultEpsilon = 1e-6;
    static constexpr unsigned kInitSegment = 8;
    static constexpr unsigned kRequiredSegments[] = {0, 1, 8};
    /// Whether A is RMS-normalized first (the `input_epsilon` prologue).
    bool hasInputNorm() { return getInputEpsilonAttr() != nullptr; }
  }];
}

def Norm_MatmulLayerNormOp
    : Norm_MatmulNormOp<"matmul_layer_norm", "LayerNorm", /*hasBeta=*/1> {
  let description = !strconcat([{
    `Y = layer_norm(A · W + matmul_bias + residual)` over the last dimension
    (`N`), with the optional `γ`, `β` and `weight_offset` as in
    `norm.layer_norm`.
  }], matmulNormDoc, fusedStatisticsDoc, [{

    Example:

    ```mlir
    %y = norm.matmul_layer_norm ins(%a : tensor<?x3072xf32>)
           rhs(%w : tensor<768x3072xf32>) matmul_bias(%mb : tensor<768xf32>)
           weight(%g : tensor<768xf32>) bias(%b : tensor<768xf32>)
           outs(%i0 : tensor<?x768xf32>) {transpose_rhs} -> tensor<?x768xf32>
    ```
  }]);
  let extraClassDeclaration = normCommonDecl # [{
    static constexpr double kDefaultEpsilon = 1e-5;
    static constexpr unsigned kInitSegment = 6;
    static constexpr unsigned kRequiredSegments[] = {0, 1, 6};
  }];
}

include "norm/Dialect/Norm/IR/GroupNormOp.td"

#endif // NORM_DIALECT_NORM_IR_NORMOPS_TD
