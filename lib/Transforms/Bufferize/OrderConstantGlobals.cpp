//===- OrderConstantGlobals.cpp - tensor constants' globals in order ------===//
//
// norm-order-constant-globals: creates the memref.global of each tensor
// constant in the order a walk of the module meets it, before one-shot
// bufferization, which would otherwise name and place the globals in an
// order that depends on pointer values (it bufferizes functions in the
// iteration order of a DenseMap keyed by func.func).
//
//===----------------------------------------------------------------------===//

#include "norm/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/Transforms/BufferUtils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_NORMORDERCONSTANTGLOBALSPASS
#include "norm/Transforms/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;
using namespace mlir::norm;

namespace {

struct NormOrderConstantGlobalsPass
    : public norm::impl::NormOrderConstantGlobalsPassBase<
          NormOrderConstantGlobalsPass> {
  using Base::Base;

  void runOnOperation() override {
    SymbolTableCollection symbolTables;
    // Bufferization's getGlobalFor reuses a global of the same value,
    // type and alignment, so creating them here fixes their names; it
    // inserts each new global at the top of the module, so they end up in
    // the reverse of the walk's order, which is as deterministic.
    WalkResult walk = getOperation().walk([&](arith::ConstantOp op) {
      auto type = dyn_cast<RankedTensorType>(op.getType());
      // Bufferization turns every ranked tensor constant into a global
      // (a constant is always static).
      if (!type)
        return WalkResult::advance();
      if (failed(bufferization::getGlobalFor(op, symbolTables, alignment))) {
        op.emitError("norm-order-constant-globals: cannot create the global "
                     "of this constant");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
