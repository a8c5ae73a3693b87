//===- Bufferization.cpp - the tensor stages both pipelines share ---------===//
//
// Model IR on tensors to buffers, as norm-lower-to-cpu and
// norm-lower-to-nvvm both take it: the clean-up and elementwise fusion of
// the tensor-level IR, then one-shot bufferization with ownership-based
// deallocation; for the GPU, every buffer a host function uses made
// device-accessible (constants copied out of host globals, allocations as
// managed memory).
//
//===----------------------------------------------------------------------===//

#include "norm/Dialect/Norm/Transforms/Passes.h"
#include "norm/Transforms/Passes.h"

#include "PipelineSupport.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::norm;

void mlir::norm::addTensorCleanupStage(OpPassManager &pm,
                                       bool keepMatmulsWhole) {
  pm.addPass(createCanonicalizerPass());
  // Elementwise arith/math ops directly on tensors (a frontend's `x * y`)
  // have no bufferization of their own: as linalg.generic they bufferize,
  // fuse and lower like the rest.
  pm.addNestedPass<func::FuncOp>(createConvertElementwiseToLinalgPass());
  pm.addNestedPass<func::FuncOp>(createLinalgGeneralizeNamedOpsPass());
  if (keepMatmulsWhole)
    pm.addNestedPass<func::FuncOp>(createNormFuseElementwisePass());
  else
    pm.addNestedPass<func::FuncOp>(createLinalgElementwiseOpFusionPass());
}

void mlir::norm::addBufferizationStage(OpPassManager &pm, bool deviceMemory) {
  bufferization::OneShotBufferizePassOptions bufferizeOptions;
  bufferizeOptions.bufferizeFunctionBoundaries = true;
  bufferizeOptions.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  // Model IR loops over layers with the hidden state loop-carried; a norm
  // whose outs is a fresh tensor.empty yields a new buffer each iteration.
  bufferizeOptions.allowReturnAllocsFromLoops = true;
  // Without it the constants' globals are named and placed differently
  // from one run to the next (see the pass).
  pm.addPass(createNormOrderConstantGlobalsPass(
      NormOrderConstantGlobalsPassOptions{bufferizeOptions.bufferAlignment}));
  pm.addPass(bufferization::createOneShotBufferizePass(bufferizeOptions));
  // Kernels cannot read host globals: each use reads an allocated copy,
  // which the deallocation below frees like any other buffer.
  if (deviceMemory)
    pm.addPass(createNormGPUCopyGlobalsPass());
  bufferization::BufferDeallocationPipelineOptions deallocOptions;
  bufferization::buildBufferDeallocationPipeline(pm, deallocOptions);
  // A tensor result that aliases an argument (e.g. `return %arg`, or a norm
  // whose `outs` is a returned argument) leaves a bufferization.clone, which
  // has no LLVM lowering of its own.
  pm.addPass(createConvertBufferizationToMemRefPass());
  // After the deallocation pipeline, so that every alloc and its dealloc
  // become managed memory together.
  if (deviceMemory)
    pm.addPass(createNormGPUHostSharedAllocsPass());
}
