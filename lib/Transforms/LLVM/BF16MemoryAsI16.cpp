//===- BF16MemoryAsI16.cpp - bf16 loads and stores as i16 ----------------===//
//
// arith-expand turns bf16 conversions into integer arithmetic, but what is
// loaded and stored stays typed bfloat. On x86 without AVX512-BF16 LLVM's
// back end has no bf16 vector operations: InstCombine moves the bitcast to
// bfloat above the rounding's NaN select, and a <8 x bfloat> select is split
// into eight compares, conditional moves and 16-bit stores; a masked load or
// store of <8 x bfloat> into one __truncsfbf2 call per element. Accessing
// the same bits as i16 leaves no bfloat value once the bitcasts fold, so the
// rounding stays in vector registers (vblendvps, vpackusdw) and a masked
// access costs no libcall.
//
//===----------------------------------------------------------------------===//

#include "norm/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_NORMBF16MEMORYASI16PASS
#include "norm/Transforms/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;
using namespace mlir::norm;

namespace {

/// `type` with i16 for bf16 (a scalar or a fixed vector), or null when
/// `type` holds no bf16.
Type bitsType(Type type) {
  if (type.isBF16())
    return IntegerType::get(type.getContext(), 16);
  if (auto vector = dyn_cast<VectorType>(type))
    if (vector.getElementType().isBF16())
      return vector.clone(IntegerType::get(type.getContext(), 16));
  return Type();
}

/// Gives the op's result `result` (of a bf16 type) the i16 type and
/// bitcasts it back for its users.
void retypeResult(OpBuilder &b, Value result, Type bits) {
  Type type = result.getType();
  result.setType(bits);
  b.setInsertionPointAfterValue(result);
  auto back = LLVM::BitcastOp::create(b, result.getLoc(), type, result);
  result.replaceAllUsesExcept(back, back);
}

/// Replaces the bf16 operand `operand` by its bits.
void retypeOperand(OpBuilder &b, OpOperand &operand, Type bits) {
  b.setInsertionPoint(operand.getOwner());
  operand.set(LLVM::BitcastOp::create(b, operand.getOwner()->getLoc(), bits,
                                      operand.get()));
}

struct NormBF16MemoryAsI16Pass
    : public norm::impl::NormBF16MemoryAsI16PassBase<NormBF16MemoryAsI16Pass> {
  void runOnOperation() override {
    OpBuilder b(&getContext());
    getOperation()->walk([&](Operation *op) {
      if (auto load = dyn_cast<LLVM::LoadOp>(op)) {
        if (Type bits = bitsType(load.getType()))
          retypeResult(b, load.getResult(), bits);
      } else if (auto store = dyn_cast<LLVM::StoreOp>(op)) {
        if (Type bits = bitsType(store.getValue().getType()))
          retypeOperand(b, store.getValueMutable(), bits);
      } else if (auto load = dyn_cast<LLVM::MaskedLoadOp>(op)) {
        if (Type bits = bitsType(load.getType())) {
          if (load.getPassThru())
            retypeOperand(b, load.getPassThruMutable()[0], bits);
          retypeResult(b, load.getResult(), bits);
        }
      } else if (auto store = dyn_cast<LLVM::MaskedStoreOp>(op)) {
        if (Type bits = bitsType(store.getValue().getType()))
          retypeOperand(b, store.getValueMutable(), bits);
      }
    });
  }
};

} // namespace
