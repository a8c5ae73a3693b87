//===- NormOpsSupport.cpp - what the norm op files share ------------------===//
//
// The out-of-line part of NormOpsSupport.h: memory effects and shape
// reification of the destination-passing norm ops.
//
//===----------------------------------------------------------------------===//

#include "NormOpsSupport.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

using namespace mlir;
using namespace mlir::norm;

/// On memrefs, `ins` are read and `outs` are written (never read: every
/// element of every output is overwritten). On tensors there are no effects.
void norm::detail::getNormEffects(
    Operation *op,
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  auto dps = cast<DestinationStyleOpInterface>(op);
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<MemRefType>(operand.get().getType()))
      continue;
    if (dps.isDpsInit(&operand))
      effects.emplace_back(MemoryEffects::Write::get(), &operand,
                           /*stage=*/0, /*effectOnFullRegion=*/true,
                           SideEffects::DefaultResource::get());
    else
      effects.emplace_back(MemoryEffects::Read::get(), &operand, /*stage=*/0,
                           /*effectOnFullRegion=*/true,
                           SideEffects::DefaultResource::get());
  }
}

/// Every result has the shape of the `outs` operand it is tied to.
LogicalResult
norm::detail::reifyFromInits(Operation *op, OpBuilder &b,
                             ReifiedRankedShapedTypeDims &shapes) {
  auto dps = cast<DestinationStyleOpInterface>(op);
  for (OpOperand &init : dps.getDpsInitsMutable())
    if (isa<RankedTensorType>(init.get().getType()))
      shapes.push_back(tensor::getMixedSizes(b, op->getLoc(), init.get()));
  return success();
}
