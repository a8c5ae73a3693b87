//===- DeadProducers.cpp - erasing rewritten ops and what fed them -------===//

#include "DeadProducers.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::norm;

void mlir::norm::eraseWithDeadProducers(RewriterBase &rewriter,
                                        ArrayRef<Operation *> ops) {
  llvm::DenseSet<Operation *> erased(ops.begin(), ops.end());
  SmallVector<Operation *> worklist;
  auto pushProducers = [&](Operation *op) {
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        worklist.push_back(def);
  };
  for (Operation *op : ops)
    pushProducers(op);
  for (Operation *op : ops)
    rewriter.eraseOp(op);
  // A producer may be pushed again once its last user is gone; the erased
  // set keeps freed pointers from being touched.
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (erased.contains(op) || !isOpTriviallyDead(op))
      continue;
    pushProducers(op);
    erased.insert(op);
    rewriter.eraseOp(op);
  }
}
