// Upstream MLIR 22 crash, not the project's: a non-integer in
// linalg.transpose's `permutation` is diagnosed ("expected integer value",
// "expected ']'") and then the parser stores a null attribute and
// segfaults, also in Debian's mlir-opt-22 (the same parser helper as
// linalg.broadcast's `dimensions`):
//   #4 mlir::Attribute::getContext() const
//   #5 mlir::NamedAttrList::set(llvm::StringRef, mlir::Attribute)
func.func @f(%x: tensor<2x3x4xf32>, %e: tensor<3x2x4xf32>) -> tensor<3x2x4xf32> {
  %t = linalg.transpose ins(%x : tensor<2x3x4xf32>) outs(%e : tensor<3x2x4xf32>) permutation = [1, #0, 2]
  return %t : tensor<3x2x4xf32>
}
