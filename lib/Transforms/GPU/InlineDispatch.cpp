//===- InlineDispatch.cpp - kernel dispatch functions back into callers ---===//
//
// norm-gpu-inline-dispatch: once the kernels are outlined into gpu.modules,
// the host functions norm-outline-kernels made to share a kernel (calls
// marked no_inline, so that no inliner copies the kernel back before it is
// generated) are inlined back into their callers. Each keeps launching the
// one shared gpu.module, and the caller's launches and buffers are all in
// one function, for norm-gpu-device-intermediates and
// norm-gpu-async-launches to see.
//
//===----------------------------------------------------------------------===//

#include "norm/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/Inliner.h"
#include "mlir/Transforms/InliningUtils.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_NORMGPUINLINEDISPATCHPASS
#include "norm/Transforms/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;

namespace {

struct NormGPUInlineDispatchPass
    : norm::impl::NormGPUInlineDispatchPassBase<NormGPUInlineDispatchPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::CallOp> calls;
    module.walk([&](Operation *op) {
      if (isa<gpu::GPUModuleOp>(op))
        return WalkResult::skip();
      auto call = dyn_cast<func::CallOp>(op);
      if (!call || !call.getNoInline())
        return WalkResult::advance();
      auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
      // A dispatch function: private, defined, launching kernels.
      if (callee && callee.isPrivate() && !callee.isExternal() &&
          callee.walk([](gpu::LaunchFuncOp) { return WalkResult::interrupt(); })
              .wasInterrupted())
        calls.push_back(call);
      return WalkResult::advance();
    });
    InlinerInterface interface(&getContext());
    InlinerConfig config;
    DenseSet<func::FuncOp> callees;
    for (func::CallOp call : calls) {
      auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
      // The func dialect's inliner refuses a no_inline call.
      call.setNoInline(false);
      // A call that cannot be inlined stays a call (a host op: the
      // buffers it takes stay managed, and the chain waits before it).
      if (failed(inlineCall(interface, config.getCloneCallback(), call, callee,
                            &callee.getBody()))) {
        call.setNoInline(true);
        continue;
      }
      call.erase();
      callees.insert(callee);
    }
    for (func::FuncOp callee : callees)
      if (SymbolTable::symbolKnownUseEmpty(callee, module))
        callee.erase();
  }
};

} // namespace
