//===- X86NontemporalStores.cpp - 16-bit non-temporal stores as vmovntdq --===//
//
// LLVM 22's x86 back end loses the non-temporal hint of a vector store of
// 16-bit elements once AVX-512 is on: InstCombine stores a bitcast bf16
// value as bfloat again, and AVX-512 has no non-temporal pattern for bf16
// (or f16) vectors, so the store becomes a plain vmovaps; an i16 vector
// that is a truncation becomes a truncating vpmovdw store, which has no
// non-temporal form. Inline assembly keeps the instruction the kernel asked
// for.
//
//===----------------------------------------------------------------------===//

#include "norm/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_NORMX86NONTEMPORALSTORESPASS
#include "norm/Transforms/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;
using namespace mlir::norm;

namespace {

/// Whether `store` is a non-temporal store of a 128-, 256- or 512-bit
/// vector of 16-bit elements at an address aligned to its size (vmovntdq
/// faults otherwise; LLVM emits non-temporal stores only for such).
bool isNontemporal16BitVectorStore(LLVM::StoreOp store) {
  if (!store.getNontemporal() || store.getVolatile_() ||
      store.getOrdering() != LLVM::AtomicOrdering::not_atomic)
    return false;
  auto type = dyn_cast<VectorType>(store.getValue().getType());
  if (!type || type.isScalable() || type.getRank() != 1 ||
      type.getElementTypeBitWidth() != 16)
    return false;
  int64_t bytes = type.getNumElements() * 2;
  return (bytes == 16 || bytes == 32 || bytes == 64) &&
         store.getAlignment().value_or(0) >= static_cast<uint64_t>(bytes);
}

struct NormX86NontemporalStoresPass
    : public norm::impl::NormX86NontemporalStoresPassBase<
          NormX86NontemporalStoresPass> {
  void runOnOperation() override {
    SmallVector<LLVM::StoreOp> stores;
    getOperation()->walk([&](LLVM::StoreOp store) {
      if (isNontemporal16BitVectorStore(store))
        stores.push_back(store);
    });
    OpBuilder b(&getContext());
    for (LLVM::StoreOp store : stores) {
      b.setInsertionPoint(store);
      // As i16 lanes: the back end has no register class for an f16 vector
      // without AVX512-FP16 (it promotes them), so the operand could not
      // be allocated.
      Value value = store.getValue();
      auto type = cast<VectorType>(value.getType());
      if (!type.getElementType().isInteger(16))
        value = LLVM::BitcastOp::create(b, store.getLoc(),
                                        type.clone(b.getI16Type()), value);
      LLVM::InlineAsmOp::create(
          b, store.getLoc(), /*res=*/TypeRange{},
          ValueRange{value, store.getAddr()},
          /*asm_string=*/"vmovntdq $0, ($1)",
          /*constraints=*/"x,r,~{memory}", /*has_side_effects=*/true,
          /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
          LLVM::AsmDialectAttr::get(&getContext(), LLVM::AsmDialect::AD_ATT),
          /*operand_attrs=*/ArrayAttr());
      store.erase();
    }
  }
};

} // namespace
