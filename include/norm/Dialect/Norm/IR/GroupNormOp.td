//===- GroupNormOp.td - norm.group_norm --------------------*- tablegen -*-===//
//
// GroupNorm (and InstanceNorm, its G = C case): statistics per group of
// channels of a channels-first input, per-channel γ and β applied in the
// same sweep. Included by NormOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_DIALECT_NORM_IR_GROUPNORMOP_TD
#define NORM_DIALECT_NORM_IR_GROUPNORMOP_TD

def Norm_GroupNormOp : Norm_Op<"group_norm", [
    AttrSizedOperandSegments,
    DestinationStyleOpInterface,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<ReifyRankedShapedTypeOpInterface,
                              ["reifyResultShapes"]>,
    DeclareOpInterfaceMethods<AggregatedOpInterface, ["decomposeOperation"]>]> {
  let summary = "Group normalization (InstanceNorm with num_groups = C)";
  let description = !strconcat([{
    For an input `x` of shape `[N, C, S...]` (channels first, any number of
    spatial dims, possibly none) and `G = num_groups`, every sample `n` and
    group `g` normalizes the `C/G · Π S` elements of channels
    `[g·C/G, (g+1)·C/G)` together; `γ` and `β` are per channel:

    ```
    μ[n,g]    = (1/m) · Σ_{c in g, s} x[n,c,s]           (m = C/G · Π S)
    var[n,g]  = (1/m) · Σ_{c in g, s} (x[n,c,s] − μ[n,g])²   (biased)
    rstd[n,g] = 1 / sqrt(var[n,g] + ε)
    y[n,c,s]  = (x[n,c,s] − μ[n,g]) · rstd[n,g] · γ[c] + β[c]
    ```

    InstanceNorm is the case `num_groups = C`; LayerNorm over `[C, S...]`
    with per-channel γ/β is `num_groups = 1`. Everything is computed in
    `acc_type` and rounded to the element type once, when `y` is stored
    (PyTorch's and ONNX's GroupNorm on f16/bf16 do the same).

    Operands: `ins(x)` (rank ≥ 2, static C), optional `weight(γ)` and
    `bias(β)` of shape `[C]` and the input's element type, `outs(y)` (the
    input's type), and the optional `mean_outs(μ)` and `rstd_outs(rstd)` of
    shape `[N, G]` and element type `acc_type` (what PyTorch's
    `native_group_norm` returns).

    Attributes: `num_groups` (≥ 1, divides C), `epsilon` (f32 or f64,
    default 1e-5, finite and ≥ 0), `acc_type` (f32 or f64, not narrower than
    the element type).
  }], normNumericsDoc, [{

    Example:

    ```mlir
    %y = norm.group_norm ins(%x : tensor<?x64x32x32xf16>)
           weight(%g : tensor<64xf16>) bias(%b : tensor<64xf16>)
           outs(%init : tensor<?x64x32x32xf16>)
           {num_groups = 32 : i64, epsilon = 1.0e-05 : f32}
           -> tensor<?x64x32x32xf16>
    ```
  }]);

  let arguments = (ins
    Norm_Shaped:$input,
    Optional<Norm_Shaped>:$weight,
    Optional<Norm_Shaped>:$bias,
    Norm_Shaped:$init,
    Optional<Norm_StatShaped>:$mean_init,
    Optional<Norm_StatShaped>:$rstd_init,
    I64Attr:$num_groups,
    OptionalAttr<Norm_FloatValueAttr>:$epsilon,
    OptionalAttr<Norm_AccTypeAttr>:$acc_type
  );
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let hasVerifier = 1;

  let assemblyFormat = [{
    `ins` `(` $input `:` type($input) `)`
    (`weight` `(` $weight^ `:` type($weight) `)`)?
    (`bias` `(` $bias^ `:` type($bias) `)`)?
    `outs` `(` $init `:` type($init) `)`
    (`mean_outs` `(` $mean_init^ `:` type($mean_init) `)`)?
    (`rstd_outs` `(` $rstd_init^ `:` type($rstd_init) `)`)?
    attr-dict (`->` type($results)^)?
  }];

  let extraClassDeclaration = [{
    static constexpr double kDefaultEpsilon = 1e-5;
    static constexpr unsigned kInitSegment = 3;
    static constexpr unsigned kRequiredSegments[] = {0, 3};
    /// The `outs` operands: the trailing segments from `init` (safe on
    /// malformed generic IR, as for the other norm ops).
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
    /// ε as a double, or 1e-5 when the attribute is absent.
    double getEpsilonValue();
    /// C / num_groups, the channels of one group.
    int64_t getChannelsPerGroup() {
      return getInputType().getDimSize(1) / getNumGroups();
    }
  }];
}

#endif // NORM_DIALECT_NORM_IR_GROUPNORMOP_TD
