//===- BufferizableOpInterfaceImpl.cpp - bufferization of norm ops --------===//
//
// One-shot bufferization of the norm ops: the tensor form becomes the memref
// form of the same op, writing into the buffers of its `outs` operands. The
// `outs` are never read (every element is overwritten), which lets
// bufferization hand them a fresh buffer without a copy.
//
//===----------------------------------------------------------------------===//

#include "norm/Dialect/Norm/IR/NormDialect.h"
#include "norm/Dialect/Norm/IR/NormGradOps.h"
#include "norm/Dialect/Norm/IR/NormOps.h"
#include "norm/Dialect/Norm/Transforms/Transforms.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/IR/DstBufferizableOpInterfaceImpl.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::bufferization;
using namespace mlir::norm;

namespace {
template <typename OpTy>
struct NormOpBufferization
    : public DstBufferizableOpInterfaceExternalModel<NormOpBufferization<OpTy>,
                                                     OpTy> {
  bool bufferizesToMemoryRead(Operation *op, OpOperand &operand,
                              const AnalysisState &) const {
    return !cast<DestinationStyleOpInterface>(op).isDpsInit(&operand);
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto dps = cast<DestinationStyleOpInterface>(op);
    if (dps.hasPureBufferSemantics())
      return success();
    if (!dps.hasPureTensorSemantics())
      return op->emitOpError("mixes tensors and memrefs; cannot bufferize");
    SmallVector<Value> operands;
    for (OpOperand &operand : op->getOpOperands()) {
      // A scalar (a static quantization scale) stays as it is.
      if (!isa<TensorType>(operand.get().getType())) {
        operands.push_back(operand.get());
        continue;
      }
      FailureOr<Value> buffer =
          getBuffer(rewriter, operand.get(), options, state);
      if (failed(buffer))
        return failure();
      operands.push_back(*buffer);
    }
    SmallVector<Value> outBuffers;
    for (OpOperand &init : dps.getDpsInitsMutable())
      outBuffers.push_back(operands[init.getOperandNumber()]);
    rewriter.setInsertionPoint(op);
    mlir::clone(rewriter, op, /*newResultTypes=*/TypeRange{}, operands);
    replaceOpWithBufferizedValues(rewriter, op, outBuffers);
    return success();
  }
};
} // namespace

void mlir::norm::registerBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, NormDialect *) {
    RMSNormOp::attachInterface<NormOpBufferization<RMSNormOp>>(*ctx);
    LayerNormOp::attachInterface<NormOpBufferization<LayerNormOp>>(*ctx);
    RMSNormMatmulOp::attachInterface<NormOpBufferization<RMSNormMatmulOp>>(
        *ctx);
    LayerNormMatmulOp::attachInterface<NormOpBufferization<LayerNormMatmulOp>>(
        *ctx);
    MatmulRMSNormOp::attachInterface<NormOpBufferization<MatmulRMSNormOp>>(
        *ctx);
    MatmulLayerNormOp::attachInterface<NormOpBufferization<MatmulLayerNormOp>>(
        *ctx);
    GroupNormOp::attachInterface<NormOpBufferization<GroupNormOp>>(*ctx);
    RMSNormGradOp::attachInterface<NormOpBufferization<RMSNormGradOp>>(*ctx);
    LayerNormGradOp::attachInterface<NormOpBufferization<LayerNormGradOp>>(
        *ctx);
  });
}
