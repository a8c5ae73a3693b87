//===- Passes.td - norm dialect transformation passes ------*- tablegen -*-===//
//
// Passes that transform norm ops, and the model IR around them.
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

def NormFuseMatmulPass : Pass<"norm-fuse-matmul"> {
  let summary = "Fuse norms into the matmuls next to them";
  let description = [{
    Rewrites, on tensors (DESIGN.md §3):

    - **norm → matmul.** A `norm.rms_norm` / `norm.layer_norm` (last dim,
      no pRMSNorm, statistics results unused) whose every user is a matmul
      reading it as the activation becomes one `norm.rms_norm_matmul` /
      `norm.layer_norm_matmul` per matmul (q/k/v and gate/up share one
      norm), and the norm is erased. A residual goes with it: each fused op
      adds it, and the first one also returns the residual sum when the
      norm did (the residual-add → norm → matmul chain). Recognized matmuls:
      `linalg.matmul` with W as K×N or N×K (indexing maps, or a
      `linalg.transpose` producer), `linalg.batch_matmul` whose W is one 2-D
      W broadcast over the batch; a bias as a broadcast init or as an add
      right after the product. With `fold-weights` and constant W, γ, β and
      bias (dense or dense_resource), γ (+ `weight_offset`) and β are folded:
      `W' = diag(γ + offset)·W`, `b' = β·W + bias`.
    - **matmul → norm.** A norm whose input is a matmul (+ bias) — directly,
      or plus a residual through the norm's `residual` operand or an add —
      becomes `norm.matmul_rms_norm` / `norm.matmul_layer_norm`; when the
      residual stream reads the pre-norm sum, the fused op returns it.

    - **residual add → norm.** Before either, a same-shape elementwise add
      producing a norm's input (`linalg.add`, or an elementwise
      `linalg.generic` `arith.addf`) becomes the norm's `residual` operand,
      with `sum_outs` when anything after the norm reads the sum (the
      residual stream), so the norm writes the sum in its own sweep and the
      fused ops below take the residual with them. Exact: the norm rounds the
      sum to the element type as the add did. Not when the sum is read
      before the norm, or the add is in another block.
    - **norm → RoPE.** A norm that fuses with no matmul and is followed by
      the rotary embedding of QK-norm, `v·cos + rot(v)·sin` (rotate_half or
      the interleaved pairs, as slices, inserts, concats, reshapes and
      negations; maybe after a transpose that keeps the last dim last),
      takes it as its `rope(cos, sin)` epilogue, the angles viewed in the
      norm's dims, and the transpose follows it. A rotation in a type
      narrower than `acc_type` whose products and sum each round to it (a
      bf16 frontend's) becomes `rope_rounding = each_step`, exactly. Not
      when the rotation's steps have other users, round at other points,
      or the angles are read in another dim order.

    norm → matmul is tried first on each norm: it removes the normalized
    activations entirely. Anything else is left alone, e.g. a norm whose
    result also feeds a non-matmul, or a matmul whose result has other
    users. With `remarks`, every norm gets a remark saying what was fused,
    or why not.

    Rounding: the fused ops compute in `acc_type` and round once, where the
    unfused sequence rounds the normalized activations, the product and each
    add to the element type. Folding adds one rounding of W' and b' to the
    element type (it is skipped when that overflows). Norms and matmuls in
    different blocks (a loop body) are not fused.

    Example:

    ```mlir
    %n = norm.rms_norm ins(%x : tensor<16x4096xf32>) weight(%g : tensor<4096xf32>)
           outs(%e : tensor<16x4096xf32>) -> tensor<16x4096xf32>
    %c = linalg.matmul ins(%n, %w : tensor<16x4096xf32>, tensor<4096x4096xf32>)
           outs(%zero : tensor<16x4096xf32>) -> tensor<16x4096xf32>
    ```

    becomes

    ```mlir
    %c = norm.rms_norm_matmul ins(%x : tensor<16x4096xf32>)
           weight(%g : tensor<4096xf32>) rhs(%w : tensor<4096x4096xf32>)
           outs(%e2 : tensor<16x4096xf32>) -> tensor<16x4096xf32>
    ```
  }];
  let options = [
    Option<"normIntoMatmul", "norm-matmul", "bool", /*default=*/"true",
           "Fuse norms into the matmuls that consume them">,
    Option<"matmulIntoNorm", "matmul-norm", "bool", /*default=*/"true",
           "Fuse the matmul (+ bias + residual) producing a norm's input">,
    Option<"residualAdd", "residual-add", "bool", /*default=*/"true",
           "Make a same-shape add feeding a norm the norm's residual">,
    Option<"foldWeights", "fold-weights", "bool", /*default=*/"true",
           "Fold constant γ and β into constant W and bias">,
    Option<"rope", "rope", "bool", /*default=*/"true",
           "Take the rotary embedding after a norm that stays standalone "
           "into it">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark on every norm: what was fused, or why not">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def NormRaisePass : Pass<"norm-raise"> {
  let summary = "Raise decomposed RMSNorm / LayerNorm to norm ops";
  let description = [{
    Finds RMSNorm and LayerNorm spelled out in frontend IR on tensors and
    replaces each by one `norm.rms_norm` / `norm.layer_norm`, changing
    nothing else. Recognized IR: linalg on tensors as torch-mlir emits it
    (reductions as `linalg.generic` keeping the reduced dim as a unit dim,
    broadcasts by indexing maps), as IREE-style pipelines hold it
    (`tensor.collapse_shape` / `expand_shape` around reductions, fused
    bodies), named ops (`linalg.reduce`, `linalg.broadcast`, elementwise
    named ops) and TOSA (`tosa.reduce_sum`, `tosa.reshape`, `tosa.rsqrt`,
    `tosa.pow`, `tosa.reciprocal`, `tosa.cast`).

    The pass does not match op sequences. It evaluates one element of each
    candidate tensor symbolically, through linalg bodies, broadcasts,
    reshapes and casts, into a polynomial over tensor elements, reductions
    and roots, and checks the norm's definition as an identity of
    polynomials. So every spelling of the same arithmetic is found: `x·x`,
    `fpowi(x, 2)` or `powf(x, 2.0)`; the mean as `sum·(1/n)` or `sum/n`;
    `rsqrt`, `1/sqrt`, division by `sqrt`, `pow(·, -0.5)`; ε inside or
    outside the root (`eps_mode`); the reassociated LayerNorm
    `x·(rstd·γ) + (β − μ·rstd·γ)`; γ and β present or absent; Gemma's
    `(1 + γ)` (`weight_offset`); several trailing dims (`axis`). `extf` /
    `truncf` around the computation become `acc_type` and `cast_mode`. A
    residual add whose sum is also used becomes the `residual` operand and
    `sum_outs`; mean and rstd tensors other ops read become `mean_outs` /
    `rstd_outs`.

    Not raised: a constant 1/n that does not match the reduced extent, a
    non-constant ε, reductions over non-trailing dims, casts that round
    where no `cast_mode` does, and intermediates used elsewhere in a way
    the op cannot provide. With `remarks`, each raised norm and each such
    near miss gets a remark.

    The norms' backward (dx, dγ, dβ as autograd decomposes them) is raised
    the same way into `norm.rms_norm_grad` / `norm.layer_norm_grad`
    (docs/design.md, "Raising"). A LayerNorm backward that reads a saved
    mean μ and differentiates through `x − μ` carries the term
    Σ_j (x_j − μ)·…, zero only when μ is the forward's mean(x); the op
    drops it. That backward is raised when μ is shown to be mean(x): μ
    computed from x in the same function (the forward), or the mean result
    of a `norm.layer_norm` of x. A μ the IR does not show (a function
    argument) is left, with a remark, unless `assume-saved-mean` is set.

    Example:

    ```mlir
    %sq = linalg.generic ... { %0 = arith.mulf %in, %in : f32 ... }
    %ss = linalg.generic {iterator_types = ["parallel", "reduction"]} ...
    %y  = linalg.generic ... { x · rsqrt(ss / 64 + 1e-6) · γ }
    ```

    becomes

    ```mlir
    %y = norm.rms_norm ins(%x : tensor<16x64xf32>) weight(%g : tensor<64xf32>)
           outs(%e : tensor<16x64xf32>) {epsilon = 9.99999997E-7 : f32}
           -> tensor<16x64xf32>
    ```
  }];
  let options = [
    Option<"raiseRMSNorm", "raise-rms-norm", "bool", /*default=*/"true",
           "Raise RMSNorm">,
    Option<"raiseLayerNorm", "raise-layer-norm", "bool", /*default=*/"true",
           "Raise LayerNorm">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark for each norm raised and each near miss, with the reason">,
    Option<"assumeSavedMean", "assume-saved-mean", "bool", /*default=*/"false",
           "Assume that a LayerNorm backward's saved mean is the forward's "
           "mean(x) where the IR does not show it; the raised function then "
           "differs from the IR for any other mean">
  ];
  let dependentDialects = [
    "::mlir::norm::NormDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def NormFuseElementwisePass : Pass<"norm-fuse-elementwise"> {
  let summary = "Fuse elementwise linalg ops on tensors, keeping matmuls whole";
  let description = [{
    The model IR around the norms, fused as upstream's
    `--linalg-fuse-elementwise-ops` does (elementwise producers into their
    consumers, reshapes folded by expansion, fills and splat constants
    folded), with one rule of its own: nothing is fused into a contraction
    (a `linalg.generic` with a reduction iterator: matmuls, batch matmuls,
    reductions) except a producer that only copies, i.e. a transpose whose
    body yields its input unchanged. Upstream's pass fuses any producer into
    a contraction: `silu(gate) · up` into the down projection recomputes
    `exp` K times per output element, and a transpose-and-reshape of the
    attention heads folded into the output projection leaves a 4-D
    contraction; neither is a matmul the project's GEMM (`lower-matmuls`)
    recognizes. A fused transpose is W given N×K, which it does.

    On the Llama layer of `examples/` (seq 128, hidden 1024) upstream's
    fusion left the layer at 1.4 s a call; see docs/performance.md.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def NormCheckRopeSizesPass
    : Pass<"norm-check-rope-sizes", "::mlir::ModuleOp"> {
  let summary = "Check at run time that dynamic rotary angle dims are the "
                "input's sizes";
  let description = [{
    A `rope(cos, sin)` angle dim that is not a static 1 is the input's size
    there (`norm.rms_norm`, `norm.layer_norm`), or the size of the output
    viewed as `[..., H, D]` (`norm.matmul_rms_norm`); the verifier checks it
    where both sizes are static. Where either is dynamic, this pass emits
    the check before the op: when the sizes differ, the lowered code writes
    a message naming the op, its location, the operand, the dim and both
    sizes to stderr (`dprintf` on file descriptor 2: unbuffered, where
    `cf.assert`'s `puts` to stdout is lost in a pipe when the process
    aborts) and calls `abort`, as a failed C `assert` does. The kernels
    would otherwise read past the table or wrap around it. Nothing is
    emitted where the sizes are static.

    The check calls the module's `llvm.func @dprintf(i32, !llvm.ptr, ...) ->
    i32` and `llvm.func @abort()` where it has them, and declares them where
    it has no symbol of those names. Any other symbol of either name (a
    `func.func`, a global, an `llvm.func` of another type) is an error at the
    op whose check needs it.

    `--norm-lower-to-cpu` and `--norm-lower-to-nvvm` run it on buffers, after
    bufferization and before kernels are outlined, so the check stays at the
    op's site on the host (on the GPU, before the launch).

    ```mlir
    // norm-opt --norm-check-rope-sizes
    norm.rms_norm ins(%x : memref<?x4x64xf32>)
        rope(%c, %s : memref<?x1x64xf32>, memref<?x1x64xf32>)
        outs(%y : memref<?x4x64xf32>)
    // gets before it, for cos and for sin:
    %a = memref.dim %c, %c0 : memref<?x1x64xf32>
    %b = memref.dim %x, %c0 : memref<?x4x64xf32>
    %ne = arith.cmpi ne, %a, %b : index
    scf.if %ne {
      llvm.call @dprintf(%fd, %msg, %a64, %b64) vararg(...)
      llvm.call @abort() : () -> ()
    }
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

#endif // NORM_DIALECT_NORM_TRANSFORMS_PASSES_TD
