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
#include "llvm/Support/MathExtras.h"

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
    // memref.global only takes a positive power of two; refuse the option
    // here, with its value, rather than leave a global the verifier
    // rejects.
    if (!llvm::isPowerOf2_64(alignment)) {
      emitError(getOperation().getLoc(),
                "norm-order-constant-globals: alignment ")
          << static_cast<uint64_t>(alignment)
          << " is not a positive power of two";
      return signalPassFailure();
    }
    SymbolTableCollection symbolTables;
    // Bufferization's getGlobalFor reuses a global of the same value,
    // type and alignment, so creating them here fixes their names; it
    // inserts each new global at the top of the module, so they end up in
    // the reverse of the walk's order, which is as deterministic.
    WalkResult walk = getOperation().walk([&](arith::ConstantOp op) {
      auto type = dyn_cast<RankedTensorType>(op.getType());
      // Bufferization turns every ranked tensor constant into a global
      // (a constant is always static); an encoded (sparse) one is left to
      // the sparsifier, which does not read a dense global.
      if (!type || type.getEncoding())
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
