// Upstream MLIR 22 crash, not the project's: anything but an integer list
// after linalg.reduce's `dimensions =` is diagnosed and then the parser
// stores a null attribute and segfaults, also in Debian's mlir-opt-22 (the
// same parser helper as linalg.broadcast's `dimensions`):
//   #0 mlir::Attribute::getContext() const
//   #1 mlir::NamedAttrList::set(llvm::StringRef, mlir::Attribute)
//   #4 mlir::linalg::ReduceOp::parse(mlir::OpAsmParser&, mlir::OperationState&)
func.func @f(%x: tensor<8x32xf32>, %acc: tensor<8xf32>) -> tensor<8xf32> {
  %r = linalg.reduce ins(%x : tensor<8x32xf32>) outs(%acc : tensor<8xf32>) dimensions = [#1]
    (%in: f32, %init: f32) {
      %s = arith.addf %in, %init : f32
      linalg.yield %s : f32
    }
  return %r : tensor<8xf32>
}
