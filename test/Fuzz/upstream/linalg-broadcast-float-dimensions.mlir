// Upstream MLIR 22 crash, not the project's: a float in linalg.broadcast's
// `dimensions` is diagnosed ("expected integer value") and then the parser
// stores a null attribute and segfaults, also in Debian's mlir-opt-22:
//   #4 mlir::Attribute::getContext() const
//   #5 mlir::NamedAttrList::set(llvm::StringRef, mlir::Attribute)
func.func @f(%x: tensor<4xf32>, %e: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %b = linalg.broadcast ins(%x : tensor<4xf32>) outs(%e : tensor<4x8xf32>) dimensions = [1.0]
  return %b : tensor<4x8xf32>
}
