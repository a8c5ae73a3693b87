// RUN: norm-opt %s --split-input-file --verify-diagnostics --norm-lower-to-cpu
// RUN: norm-opt %s --split-input-file --verify-diagnostics --norm-lower-to-cpu=codegen=upstream

// --norm-lower-to-cpu ends with norm-check-lowered: an op the LLVM stage
// does not lower (a scalar math.erf: convert-to-llvm has no libm call for
// it) is an error at the op, not an exit 0 that mlir-translate rejects.
func.func @erf(%x: f32) -> f32 {
  // expected-error @+1 {{'math.erf' op is left by norm-lower-to-cpu: no pass of norm-lower-to-cpu lowers it}}
  %y = math.erf %x : f32
  return %y : f32
}
