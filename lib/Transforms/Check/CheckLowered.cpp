//===- CheckLowered.cpp - located errors for ops a lowering left ----------===//
//
// A lowering that leaves an op behind exits 0, and the failure shows up
// later, far from its cause: in mlir-translate, or in a verifier once the
// host conversion has turned the op's body into llvm ops. This file reports
// each leftover at the op, with the reason, where the pipeline decides not
// to lower it (checkLowered, the norm-check-lowered pass), and rejects
// empty GPU launches before ptxas does.
//
//===----------------------------------------------------------------------===//

#include "norm/Transforms/CheckLowered.h"
#include "norm/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringSet.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_NORMCHECKLOWEREDPASS
#include "norm/Transforms/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;
using namespace mlir::norm;

LogicalResult mlir::norm::checkLowered(
    Operation *root, StringRef who,
    function_ref<std::string(Operation *)> leftoverReason) {
  bool left = false;
  // Pre-order, skipping what a reported op holds: a leftover linalg.generic
  // is one error, not one more for its linalg.yield.
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == root)
      return WalkResult::advance();
    std::string reason = leftoverReason(op);
    if (reason.empty())
      return WalkResult::advance();
    op->emitOpError() << "is left by " << who << ": " << reason;
    left = true;
    return WalkResult::skip();
  });
  return failure(left);
}

std::string mlir::norm::nonContiguousRowsReason(Operation *op,
                                                StringRef kernel) {
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type || type.getLayout().isIdentity())
      continue;
    std::string reason;
    llvm::raw_string_ostream os(reason);
    os << "operand #" << operand.getOperandNumber() << " (" << type
       << ") has non-contiguous rows, which are not supported by " << kernel;
    return reason;
  }
  return "";
}

LogicalResult mlir::norm::checkLaunchSizes(Operation *root) {
  bool empty = false;
  auto check = [&](Operation *op, StringRef what, gpu::KernelDim3 sizes) {
    Value values[] = {sizes.x, sizes.y, sizes.z};
    for (int i = 0; i < 3; ++i) {
      APInt size;
      if (!values[i] || !matchPattern(values[i], m_ConstantInt(&size)) ||
          !size.isZero())
        continue;
      op->emitOpError() << "has a " << what << " size of 0 in " << "xyz"[i]
                        << ": an empty launch is not valid on any GPU";
      empty = true;
    }
  };
  root->walk([&](Operation *op) {
    if (auto launch = dyn_cast<gpu::LaunchOp>(op)) {
      check(op, "grid", launch.getGridSizeOperandValues());
      check(op, "block", launch.getBlockSizeOperandValues());
    } else if (auto launch = dyn_cast<gpu::LaunchFuncOp>(op)) {
      check(op, "grid", launch.getGridSizeOperandValues());
      check(op, "block", launch.getBlockSizeOperandValues());
    }
  });
  return failure(empty);
}

namespace {

/// Why `pipeline` left `op`, an op of a dialect it must have lowered.
std::string leftoverReason(Operation *op, StringRef pipeline) {
  auto isTensor = [](Type type) { return isa<TensorType>(type); };
  if (llvm::any_of(op->getOperandTypes(), isTensor) ||
      llvm::any_of(op->getResultTypes(), isTensor))
    return ("it is on tensors: " + pipeline +
            " lowers buffers here (bufferize the IR first)")
        .str();
  if (op->getDialect() && op->getDialect()->getNamespace() == "norm") {
    std::string reason =
        nonContiguousRowsReason(op, (pipeline + "'s row kernels").str());
    if (!reason.empty())
      return reason;
  }
  return ("no pass of " + pipeline + " lowers it").str();
}

struct NormCheckLoweredPass
    : public norm::impl::NormCheckLoweredPassBase<NormCheckLoweredPass> {
  using Base::Base;

  void runOnOperation() override {
    llvm::StringSet<> mustBeGone;
    for (const std::string &dialect : dialects)
      mustBeGone.insert(dialect);
    LogicalResult lowered =
        checkLowered(getOperation(), pipeline, [&](Operation *op) {
          if (!mustBeGone.contains(op->getName().getDialectNamespace()))
            return std::string();
          return leftoverReason(op, pipeline);
        });
    // Both checks, so that one run reports every problem.
    LogicalResult launches = checkLaunchSizes(getOperation());
    if (failed(lowered) || failed(launches))
      signalPassFailure();
  }
};

} // namespace
