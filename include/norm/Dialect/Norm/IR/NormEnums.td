//===- NormEnums.td - norm dialect enum attributes ---------*- tablegen -*-===//
//
// Where the result is rounded to the element type (`cast_mode`) and where ε
// enters the denominator (`eps_mode`).
//
//===----------------------------------------------------------------------===//

#ifndef NORM_DIALECT_NORM_IR_NORMENUMS_TD
#define NORM_DIALECT_NORM_IR_NORMENUMS_TD

include "mlir/IR/EnumAttr.td"
include "norm/Dialect/Norm/IR/NormDialect.td"

def Norm_CastMode : I32EnumAttr<"CastMode",
    "where the normalized value is rounded to the element type", [
      I32EnumAttrCase<"after_weight", 0>,
      I32EnumAttrCase<"before_weight", 1>
    ]> {
  let cppNamespace = "::mlir::norm";
  let genSpecializedAttr = 0;
  let description = [{
    - `after_weight` (default; Gemma, PyTorch's LayerNorm): normalize, multiply
      by the weight and add the bias in the accumulation type, and round to the
      element type once, at the end.
    - `before_weight` (Hugging Face Llama): normalize in the accumulation type,
      round to the element type, then multiply by the weight (and add the
      bias) in the element type.
  }];
}

def Norm_CastModeAttr : EnumAttr<Norm_Dialect, Norm_CastMode, "cast_mode"> {
  let assemblyFormat = "`<` $value `>`";
}

def Norm_EpsMode : I32EnumAttr<"EpsMode",
    "where epsilon enters the denominator", [
      I32EnumAttrCase<"inside_sqrt", 0>,
      I32EnumAttrCase<"outside_sqrt", 1>
    ]> {
  let cppNamespace = "::mlir::norm";
  let genSpecializedAttr = 0;
  let description = [{
    - `inside_sqrt` (default; PyTorch, ONNX): `1 / sqrt(s + ε)`.
    - `outside_sqrt`: `1 / (sqrt(s) + ε)`.
    where `s` is the mean of squares (RMSNorm) or the biased variance
    (LayerNorm).
  }];
}

def Norm_EpsModeAttr : EnumAttr<Norm_Dialect, Norm_EpsMode, "eps_mode"> {
  let assemblyFormat = "`<` $value `>`";
}

#endif // NORM_DIALECT_NORM_IR_NORMENUMS_TD
