//===- TensorMapKernelArgs.cpp - TMA descriptors as kernel pointers ------===//
//
// --norm-tensormap-kernel-args (Passes.td says what it does). Upstream's
// gpu-lower-to-nvvm-pipeline avoids the problem by running
// convert-nvgpu-to-nvvm on the whole module before outlining; doing that
// here would move every nvgpu op of the other kernels out of the device
// stage. Instead the descriptor crosses the launch as what it lowers to, a
// pointer to the 128-byte CUtensorMap: the kernel casts its !llvm.ptr
// argument back at entry and the host casts the descriptor to !llvm.ptr at
// the launch; both casts fold away once convert-nvgpu-to-nvvm has lowered
// the ops on each side (reconcile-unrealized-casts).
//
//===----------------------------------------------------------------------===//

#include "norm/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_NORMTENSORMAPKERNELARGSPASS
#include "norm/Transforms/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;

namespace {

struct TensorMapKernelArgsPass
    : norm::impl::NormTensorMapKernelArgsPassBase<TensorMapKernelArgsPass> {

  void runOnOperation() override {
    auto ptrType = LLVM::LLVMPointerType::get(&getContext());
    getOperation()->walk([&](gpu::GPUFuncOp func) {
      if (!func.isKernel() || func.isExternal())
        return;
      Block &entry = func.getBody().front();
      OpBuilder b = OpBuilder::atBlockBegin(&entry);
      SmallVector<Type> inputs(func.getArgumentTypes());
      for (auto [i, arg] : llvm::enumerate(entry.getArguments())) {
        if (!isa<nvgpu::TensorMapDescriptorType>(arg.getType()))
          continue;
        Type mapType = arg.getType();
        arg.setType(ptrType);
        auto cast =
            UnrealizedConversionCastOp::create(b, func.getLoc(), mapType, arg);
        arg.replaceAllUsesExcept(cast.getResult(0), cast);
        inputs[i] = ptrType;
      }
      func.setType(FunctionType::get(&getContext(), inputs,
                                     func.getFunctionType().getResults()));
    });
    getOperation()->walk([&](gpu::LaunchFuncOp launch) {
      OpBuilder b(launch);
      for (OpOperand &operand : launch.getKernelOperandsMutable()) {
        if (!isa<nvgpu::TensorMapDescriptorType>(operand.get().getType()))
          continue;
        operand.set(UnrealizedConversionCastOp::create(b, launch.getLoc(),
                                                       ptrType, operand.get())
                        .getResult(0));
      }
    });
  }
};

} // namespace
