//===- NormEnums.td - norm dialect enum attributes ---------*- tablegen -*-===//
//
// Where the result is rounded to the element type (`cast_mode`), where ε
// enters the denominator (`eps_mode`), which elements a rotary embedding
// pairs (`rope_mode`) and where its steps round (`rope_rounding`).
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

def Norm_RopeMode : I32EnumAttr<"RopeMode",
    "which elements of a head the rotary embedding rotates together", [
      I32EnumAttrCase<"rotate_half", 0>,
      I32EnumAttrCase<"interleaved", 1>
    ]> {
  let cppNamespace = "::mlir::norm";
  let genSpecializedAttr = 0;
  let description = [{
    - `rotate_half` (default; Hugging Face Llama, Qwen, Gemma): element `d`
      pairs with `d ± D/2`: `y·cos + concat(−y[D/2:], y[:D/2])·sin`.
    - `interleaved` (GPT-J, Meta Llama): elements `2i` and `2i+1` pair:
      `y·cos + stack(−y[2i+1], y[2i])·sin`.
  }];
}

def Norm_RopeModeAttr : EnumAttr<Norm_Dialect, Norm_RopeMode, "rope_mode"> {
  let assemblyFormat = "`<` $value `>`";
}

def Norm_RopeRounding : I32EnumAttr<"RopeRounding",
    "where the rotary embedding's steps round to the output's element type", [
      I32EnumAttrCase<"once", 0>,
      I32EnumAttrCase<"each_step", 1>
    ]> {
  let cppNamespace = "::mlir::norm";
  let genSpecializedAttr = 0;
  let description = [{
    - `once` (default): the normalized value is rotated in the accumulation
      type and rounded to the output's element type once.
    - `each_step` (Hugging Face's `apply_rotary_pos_emb` run in bf16/f16, as
      torch-mlir lowers it): the normalized value is rounded to the output's
      element type `U` first (the norm's own result), and so is each step of
      the rotation: `round(round(v·cos) + round(rot(v)·sin))`, all in `U`.
  }];
}

def Norm_RopeRoundingAttr
    : EnumAttr<Norm_Dialect, Norm_RopeRounding, "rope_rounding"> {
  let assemblyFormat = "`<` $value `>`";
}

#endif // NORM_DIALECT_NORM_IR_NORMENUMS_TD
