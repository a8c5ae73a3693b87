//===- NormGradOps.td - gradients of the norms -------------*- tablegen -*-===//
//
// The backward of norm.rms_norm and norm.layer_norm: dx, dγ and dβ from the
// upstream gradient dy, the forward's input and (optionally) its saved
// statistics. Generated into their own NormGradOps.{h,cpp}.inc (the
// ops of NormOps.td are filtered out), so that a change here does not
// rebuild every user of the forward ops.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_DIALECT_NORM_IR_NORMGRADOPS_TD
#define NORM_DIALECT_NORM_IR_NORMGRADOPS_TD

include "norm/Dialect/Norm/IR/NormOps.td"

// Shared by both gradient ops: destination-passing style, every result
// optional, decomposable into linalg.
class Norm_GradOp<string mnemonic> : Norm_Op<mnemonic, [
    AttrSizedOperandSegments,
    DestinationStyleOpInterface,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<ReifyRankedShapedTypeOpInterface,
                              ["reifyResultShapes"]>,
    DeclareOpInterfaceMethods<AggregatedOpInterface, ["decomposeOperation"]>]> {
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let hasVerifier = 1;

  code gradCommonDecl = [{
    /// The `outs` operands: the trailing segments from `init` (`init`
    /// itself may be absent when only dγ/dβ are wanted).
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      unsigned start = getODSOperandIndexAndLength(kInitSegment).first;
      return ::mlir::MutableOperandRange(getOperation(), start,
                                         getOperation()->getNumOperands() - start);
    }
    ::mlir::ShapedType getInputType() {
      return ::llvm::cast<::mlir::ShapedType>(getInput().getType());
    }
    /// `acc_type` if set, else f32 (f64 for f64 data).
    ::mlir::FloatType getAccumulationType();
    /// ε as a double, or the forward op's default when absent.
    double getEpsilonValue();
    /// The weight offset as a double (0 when absent).
    double getWeightOffsetValue();
    /// `axis` made non-negative.
    int64_t getNormalizedAxis();
  }];
}

defvar gradNumericsDoc = [{

    Numerics (DESIGN.md §9): with `g = γ + weight_offset` (1 + offset when
    `weight` is absent), `x̂` the normalized input and `dŷ = dy · g`, every
    term is computed in `acc_type` from the inputs converted to it; the row
    sums and the column sums of dγ/dβ accumulate in `acc_type` with Kahan
    compensation, in a fixed order, so repeated runs give identical bits;
    each result is rounded to its element type once. Without the statistics
    operands they are recomputed from `x` exactly as the forward op computes
    them (`epsilon`, `eps_mode`, `partial`); with them, `epsilon` is only
    read by `eps_mode = outside_sqrt` (σ = 1/rstd − ε).

    Residual form: when the forward op added a residual (`s = x + r`), pass
    its `sum_outs` value `s` as `ins` and the incoming gradient of `s` (if
    the sum had other users) as `sum_grad`; `dx` is then the gradient of
    `s`, which is also the gradient of both `x` and `r`.

    Operands: `grad(dy)` and `ins(x)` (same shape and element type),
    optional `sum_grad(ds)` (ditto), optional `weight(γ)` (the normalized
    dimensions' shape; `x`'s element type or wider up to `acc_type`), the
    optional statistics (element type `acc_type`, the non-normalized shape),
    then the results, each optional but at least one: `outs(dx)` (`x`'s
    shape; its element type or wider), `weight_grad_outs(dγ)` (`γ`'s shape;
    `γ`'s element type, or `x`'s when there is no `weight`, or wider up to
    `acc_type`).
}];

def Norm_RMSNormGradOp : Norm_GradOp<"rms_norm_grad"> {
  let summary = "Gradient of norm.rms_norm: dx and dγ";
  let description = !strconcat([{
    For every row, over the normalized dimensions `[axis, rank)` (`n`
    elements, of which the first `k = ⌈partial · n⌉` form the statistic):

    ```
    x̂_j  = x_j · rstd
    c    = 1                                   (eps_mode = inside_sqrt)
         = (σ + ε) / σ,  σ = 1/rstd − ε        (eps_mode = outside_sqrt)
    dx_j = rstd · (dŷ_j − [j < k] · c · x̂_j · (1/k) Σ_{i<n} dŷ_i · x̂_i) + ds_j
    dγ   = Σ_rows dy · x̂
    ```

    The sum in `dx` runs over all `n` elements: every output depends on
    rstd, which depends on the first `k` inputs only (for `partial = 1` this
    is DESIGN §9's `rstd · (dŷ − x̂ · mean_j(dŷ · x̂))`).

    `rstd(r)` is the forward op's `rstd_outs`.

    Example:

    ```mlir
    %dx, %dg = norm.rms_norm_grad grad(%dy : tensor<8x64xbf16>)
           ins(%x : tensor<8x64xbf16>) weight(%g : tensor<64xf32>)
           rstd(%r : tensor<8xf32>)
           outs(%i0 : tensor<8x64xbf16>) weight_grad_outs(%i1 : tensor<64xf32>)
           {epsilon = 1.0e-06 : f32} -> tensor<8x64xbf16>, tensor<64xf32>
    ```
  }], gradNumericsDoc);

  let arguments = (ins
    Norm_Shaped:$grad,
    Norm_Shaped:$input,
    Optional<Norm_Shaped>:$sum_grad,
    Optional<Norm_Shaped>:$weight,
    Optional<Norm_StatShaped>:$rstd,
    Optional<Norm_Shaped>:$init,
    Optional<Norm_Shaped>:$weight_grad_init,
    DefaultValuedAttr<I64Attr, "-1">:$axis,
    OptionalAttr<Norm_FloatValueAttr>:$epsilon,
    OptionalAttr<Norm_FloatValueAttr>:$weight_offset,
    OptionalAttr<Norm_FloatValueAttr>:$partial,
    OptionalAttr<Norm_AccTypeAttr>:$acc_type,
    DefaultValuedAttr<Norm_EpsModeAttr, "::mlir::norm::EpsMode::inside_sqrt">:$eps_mode
  );

  let assemblyFormat = [{
    `grad` `(` $grad `:` type($grad) `)`
    `ins` `(` $input `:` type($input) `)`
    (`sum_grad` `(` $sum_grad^ `:` type($sum_grad) `)`)?
    (`weight` `(` $weight^ `:` type($weight) `)`)?
    (`rstd` `(` $rstd^ `:` type($rstd) `)`)?
    (`outs` `(` $init^ `:` type($init) `)`)?
    (`weight_grad_outs` `(` $weight_grad_init^ `:` type($weight_grad_init) `)`)?
    attr-dict (`->` type($results)^)?
  }];

  let extraClassDeclaration = gradCommonDecl # [{
    static constexpr double kDefaultEpsilon = 1e-6;
    static constexpr unsigned kInitSegment = 5;
    static constexpr unsigned kRequiredSegments[] = {0, 1};
    /// The pRMSNorm fraction (1 when absent).
    double getPartialValue();
  }];
}

def Norm_LayerNormGradOp : Norm_GradOp<"layer_norm_grad"> {
  let summary = "Gradient of norm.layer_norm: dx, dγ and dβ";
  let description = !strconcat([{
    For every row, over the normalized dimensions `[axis, rank)` (`n`
    elements):

    ```
    x̂_j  = (x_j − μ) · rstd
    c    = 1                                   (eps_mode = inside_sqrt)
         = (σ + ε) / σ,  σ = 1/rstd − ε        (eps_mode = outside_sqrt)
    dx_j = rstd · (dŷ_j − mean(dŷ) − c · x̂_j · mean(dŷ · x̂)) + ds_j
    dγ   = Σ_rows dy · x̂
    dβ   = Σ_rows dy
    ```

    `mean(μ)` and `rstd(r)` are the forward op's `mean_outs` and
    `rstd_outs`, both or neither. `bias_grad_outs(dβ)` is constrained like
    `weight_grad_outs`.

    Example:

    ```mlir
    %dx, %dg, %db = norm.layer_norm_grad grad(%dy : tensor<?x768xf32>)
           ins(%x : tensor<?x768xf32>) weight(%g : tensor<768xf32>)
           mean(%m : tensor<?xf32>) rstd(%r : tensor<?xf32>)
           outs(%i0 : tensor<?x768xf32>) weight_grad_outs(%i1 : tensor<768xf32>)
           bias_grad_outs(%i2 : tensor<768xf32>)
           -> tensor<?x768xf32>, tensor<768xf32>, tensor<768xf32>
    ```
  }], gradNumericsDoc);

  let arguments = (ins
    Norm_Shaped:$grad,
    Norm_Shaped:$input,
    Optional<Norm_Shaped>:$sum_grad,
    Optional<Norm_Shaped>:$weight,
    Optional<Norm_StatShaped>:$mean,
    Optional<Norm_StatShaped>:$rstd,
    Optional<Norm_Shaped>:$init,
    Optional<Norm_Shaped>:$weight_grad_init,
    Optional<Norm_Shaped>:$bias_grad_init,
    DefaultValuedAttr<I64Attr, "-1">:$axis,
    OptionalAttr<Norm_FloatValueAttr>:$epsilon,
    OptionalAttr<Norm_FloatValueAttr>:$weight_offset,
    OptionalAttr<Norm_AccTypeAttr>:$acc_type,
    DefaultValuedAttr<Norm_EpsModeAttr, "::mlir::norm::EpsMode::inside_sqrt">:$eps_mode
  );

  let assemblyFormat = [{
    `grad` `(` $grad `:` type($grad) `)`
    `ins` `(` $input `:` type($input) `)`
    (`sum_grad` `(` $sum_grad^ `:` type($sum_grad) `)`)?
    (`weight` `(` $weight^ `:` type($weight) `)`)?
    (`mean` `(` $mean^ `:` type($mean) `)`)?
    (`rstd` `(` $rstd^ `:` type($rstd) `)`)?
    (`outs` `(` $init^ `:` type($init) `)`)?
    (`weight_grad_outs` `(` $weight_grad_init^ `:` type($weight_grad_init) `)`)?
    (`bias_grad_outs` `(` $bias_grad_init^ `:` type($bias_grad_init) `)`)?
    attr-dict (`->` type($results)^)?
  }];

  let extraClassDeclaration = gradCommonDecl # [{
    static constexpr double kDefaultEpsilon = 1e-5;
    static constexpr unsigned kInitSegment = 6;
    static constexpr unsigned kRequiredSegments[] = {0, 1};
  }];
}

#endif // NORM_DIALECT_NORM_IR_NORMGRADOPS_TD
