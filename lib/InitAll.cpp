//===- InitAll.cpp - register everything norm-mlir provides ----------------===//

#include "norm/InitAll.h"

#include "norm/Conversion/Passes.h"
#include "norm/Dialect/Norm/IR/NormDialect.h"
#include "norm/Dialect/Norm/Transforms/Passes.h"
#include "norm/Dialect/Norm/Transforms/ShardingInterfaceImpl.h"
#include "norm/Dialect/Norm/Transforms/Transforms.h"
#include "norm/Pipelines/Passes.h"
#include "norm/Transforms/MPIMemoryEffects.h"
#include "norm/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"

void mlir::norm::registerAllDialects(DialectRegistry &registry) {
  registry.insert<NormDialect>();
  registerBufferizableOpInterfaceExternalModels(registry);
  registerShardingInterfaceExternalModels(registry);
  registerMPIMemoryEffectsExternalModels(registry);
  // gpu-module-to-binary (in --norm-lower-to-nvvm) translates each
  // gpu.module to LLVM IR inside the pass, so the translations of the
  // dialects a lowered kernel contains must be in the registry.
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
}

void mlir::norm::registerAllPasses() {
  registerNormPasses();
  registerNormConversionPasses();
  registerNormUpstreamPasses();
  registerNormPipelines();
  registerNormNVVMPipeline();
}
