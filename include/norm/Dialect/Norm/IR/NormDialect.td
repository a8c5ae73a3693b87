//===- NormDialect.td - norm dialect definition ------------*- tablegen -*-===//
//
// The `norm` dialect: normalization layers (RMSNorm, LayerNorm and their
// real-world variants) as first-class, destination-passing-style ops.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_DIALECT_NORM_IR_NORMDIALECT_TD
#define NORM_DIALECT_NORM_IR_NORMDIALECT_TD

include "mlir/IR/OpBase.td"

def Norm_Dialect : Dialect {
  let name = "norm";
  let cppNamespace = "::mlir::norm";
  let summary = "Normalization layers (RMSNorm, LayerNorm) and their fusions with matmul";
  let description = [{
    The `norm` dialect models the normalization layers of transformers as
    single ops with exact, documented numerics: `norm.rms_norm` and
    `norm.layer_norm` (with partial RMSNorm, Gemma's `1 + γ` weight offset,
    residual-add forms, statistics results and f16/bf16 inputs with f32
    accumulation), and the fused forms that `norm-fuse-matmul` produces
    (`norm.rms_norm_matmul`, `norm.layer_norm_matmul`, `norm.matmul_rms_norm`,
    `norm.matmul_layer_norm`).

    All ops follow the destination-passing style of `linalg.softmax`: they
    take `ins`/`outs` operands, work on ranked tensors (returning one result
    per `outs` operand) or on memrefs (returning nothing), and accept dynamic
    shapes. Every op decomposes into upstream `linalg` on tensors
    (`--norm-decompose`), which is also the numerical reference path.
  }];
  let useDefaultAttributePrinterParser = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

class Norm_Op<string mnemonic, list<Trait> traits = []>
    : Op<Norm_Dialect, mnemonic, traits>;

#endif // NORM_DIALECT_NORM_IR_NORMDIALECT_TD
