//===- Passes.td - norm dialect transformation passes ------*- tablegen -*-===//
//
// Passes that transform norm ops (decomposition now; fusion and raising later).
//
//===----------------------------------------------------------------------===//

#ifndef NORM_DIALECT_NORM_TRANSFORMS_PASSES_TD
#define NORM_DIALECT_NORM_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def NormDecomposePass : Pass<"norm-decompose"> {
  let summary = "Decompose every norm op into upstream linalg";
  let description = [{
    Rewrites each norm op (fused ones included) into `linalg.generic` ops on
    tensors or memrefs, following the op's numerics exactly: statistics in
    `acc_type`, LayerNorm variance in two passes over pivot-shifted values,
    the cast placed where `cast_mode` says. Fused ops first become the
    unfused sequence (a norm op in `acc_type` and a matmul), which is then
    decomposed in turn. The result needs nothing from this project, so any
    MLIR pipeline can compile it; it is also the reference path in tests.

    Before:

    ```mlir
    %y = norm.rms_norm ins(%x : tensor<?x64xf32>) weight(%g : tensor<64xf32>)
           outs(%init : tensor<?x64xf32>) -> tensor<?x64xf32>
    ```

    After (abridged):

    ```mlir
    %ss = linalg.generic {iterator_types = ["parallel", "reduction"]} ...
            // Σ x² per row, in f32
    %rstd = linalg.generic {iterator_types = ["parallel"]} ...
            // rsqrt(Σ/64 + ε)
    %y = linalg.generic {iterator_types = ["parallel", "parallel"]} ...
            // x · rstd · γ
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

#endif // NORM_DIALECT_NORM_TRANSFORMS_PASSES_TD
