//===- InlineAllocaScopes.cpp - drop alloca scopes with no allocation ----===//
//
// convert-scf-to-openmp puts each parallel iteration in a
// memref.alloca_scope, which must stay one block: scf-to-cf cannot lower
// the loops inside it. Canonicalization inlines a scope only when nothing
// in it may allocate on the stack, and takes an op without declared memory
// effects (llvm.call_intrinsic, the x86 intrinsics of the quantized rows)
// for one that may. This pass knows those ops do not.
//
//===----------------------------------------------------------------------===//

#include "norm/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/StringSwitch.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_NORMINLINEALLOCASCOPESPASS
#include "norm/Transforms/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;
using namespace mlir::norm;

namespace {

/// The intrinsics that move the stack pointer or bind to the frame: a call
/// of one of them outside its scope would change what the scope frees.
bool isStackIntrinsic(LLVM::CallIntrinsicOp call) {
  return llvm::StringSwitch<bool>(call.getIntrin())
      .Case("llvm.stacksave", true)
      .Case("llvm.stackrestore", true)
      .Case("llvm.stackprotector", true)
      .StartsWith("llvm.stacksave.", true)
      .StartsWith("llvm.stackrestore.", true)
      .Default(false);
}

/// Whether `op` itself (not the ops in its regions) may allocate on the
/// stack of the enclosing allocation scope.
bool mayAllocateOnStack(Operation *op) {
  if (auto call = dyn_cast<LLVM::CallIntrinsicOp>(op))
    return isStackIntrinsic(call);
  if (isa<func::CallOp, LLVM::CallOp>(op))
    return false;
  if (op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
    return false;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return true;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  return llvm::any_of(instances, [](const MemoryEffects::EffectInstance &e) {
    return isa<MemoryEffects::Allocate>(e.getEffect()) &&
           isa<SideEffects::AutomaticAllocationScopeResource>(e.getResource());
  });
}

/// Whether the body of `scope`, outside nested allocation scopes, may
/// allocate on the stack.
bool bodyMayAllocate(memref::AllocaScopeOp scope) {
  return scope
      ->walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (op == scope.getOperation())
          return WalkResult::advance();
        if (mayAllocateOnStack(op))
          return WalkResult::interrupt();
        if (op->hasTrait<OpTrait::AutomaticAllocationScope>())
          return WalkResult::skip();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

/// Moves the scope's single block in front of it and replaces its results
/// with what its terminator returns.
void inlineScope(RewriterBase &rewriter, memref::AllocaScopeOp scope) {
  Block *body = &scope.getBodyRegion().front();
  Operation *terminator = body->getTerminator();
  SmallVector<Value> results(terminator->getOperands());
  rewriter.eraseOp(terminator);
  rewriter.inlineBlockBefore(body, scope);
  rewriter.replaceOp(scope, results);
}

struct InlineAllocaScopesPass
    : public norm::impl::NormInlineAllocaScopesPassBase<
          InlineAllocaScopesPass> {
  void runOnOperation() override {
    SmallVector<memref::AllocaScopeOp> scopes;
    // Post-order: inner scopes are inlined before the scopes around them
    // look at their bodies.
    getOperation()->walk([&](memref::AllocaScopeOp scope) {
      if (scope.getBodyRegion().hasOneBlock() && !bodyMayAllocate(scope))
        scopes.push_back(scope);
    });
    IRRewriter rewriter(&getContext());
    for (memref::AllocaScopeOp scope : scopes) {
      rewriter.setInsertionPoint(scope);
      inlineScope(rewriter, scope);
    }
  }
};

} // namespace
