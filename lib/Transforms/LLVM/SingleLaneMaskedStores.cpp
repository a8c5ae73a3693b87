//===- SingleLaneMaskedStores.cpp - one-lane masked stores as plain ones --===//
//
// LLVM 22's x86 back end miscompiles a masked store whose constant mask
// enables one lane when the stored vector is a truncation and AVX-512 is on
// (llvm/llvm-project#179489, fixed after the 22 branch): the truncating
// masked store it forms becomes a scalar store of the wide element, so a
// one-byte tail writes four bytes. A row kernel whose 8- or 16-bit row
// ends one element past a whole vector (a quantized 40×33 row, bf16 rows
// of 16k + 1) then overwrote the start of the next row, which another
// thread may already have written, and wrote past the end of the last.
// Storing the one element ourselves is what the back end means to do.
//
//===----------------------------------------------------------------------===//

#include "norm/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/Alignment.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_NORMSINGLELANEMASKEDSTORESPASS
#include "norm/Transforms/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;
using namespace mlir::norm;

namespace {

/// The lane of `store`'s mask when the mask is a constant enabling exactly
/// one lane and the elements are whole bytes.
std::optional<int64_t> singleStoredLane(LLVM::MaskedStoreOp store) {
  auto type = dyn_cast<VectorType>(store.getValue().getType());
  if (!type || type.isScalable() || type.getRank() != 1 ||
      type.getElementTypeBitWidth() % 8 != 0)
    return std::nullopt;
  DenseIntElementsAttr mask;
  if (!matchPattern(store.getMask(), m_Constant(&mask)))
    return std::nullopt;
  std::optional<int64_t> lane;
  for (auto [i, enabled] : llvm::enumerate(mask.getValues<bool>())) {
    if (!enabled)
      continue;
    if (lane)
      return std::nullopt;
    lane = static_cast<int64_t>(i);
  }
  return lane;
}

struct NormSingleLaneMaskedStoresPass
    : public norm::impl::NormSingleLaneMaskedStoresPassBase<
          NormSingleLaneMaskedStoresPass> {
  void runOnOperation() override {
    SmallVector<std::pair<LLVM::MaskedStoreOp, int64_t>> stores;
    getOperation()->walk([&](LLVM::MaskedStoreOp store) {
      if (std::optional<int64_t> lane = singleStoredLane(store))
        stores.push_back({store, *lane});
    });
    OpBuilder b(&getContext());
    for (auto [store, lane] : stores) {
      b.setInsertionPoint(store);
      Location loc = store.getLoc();
      Type elementType =
          cast<VectorType>(store.getValue().getType()).getElementType();
      uint64_t elementBytes = elementType.getIntOrFloatBitWidth() / 8;
      Value index = LLVM::ConstantOp::create(b, loc, b.getI64Type(), lane);
      Value element =
          LLVM::ExtractElementOp::create(b, loc, store.getValue(), index);
      Value address = store.getData();
      if (lane != 0)
        address = LLVM::GEPOp::create(
            b, loc, address.getType(), elementType, address,
            ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(lane)},
            LLVM::GEPNoWrapFlags::inbounds);
      // The element's alignment: the vector's, as far as its offset keeps it.
      llvm::Align alignment = llvm::commonAlignment(
          llvm::Align(std::max<uint64_t>(store.getAlignment(), 1)),
          lane * elementBytes);
      LLVM::StoreOp::create(b, loc, element, address, alignment.value());
      store.erase();
    }
  }
};

} // namespace
