//===- GradProblem.cpp - a norm gradient as rows ----------------*- C++ -*-===//
//
// The row views of a gradient op and which ops the kernels take, shared by
// the CPU and GPU kernels.
//
//===----------------------------------------------------------------------===//

#include "norm/Conversion/Utils/GradProblem.h"
#include "norm/Conversion/Utils/RowNormProblem.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"

using namespace mlir;
using namespace mlir::norm;

namespace {
template <typename OpTy> GradProblem describeCommon(OpTy op, OpBuilder &b) {
  Location loc = op.getLoc();
  GradProblem p;
  p.accType = op.getAccumulationType();
  p.epsilon = op.getEpsilonValue();
  p.weightOffset = op.getWeightOffsetValue();
  p.epsMode = op.getEpsMode();
  int64_t axis = op.getNormalizedAxis();
  int64_t rank = op.getInputType().getRank();
  OpFoldResult rows = dimProduct(b, loc, op.getInput(), 0, axis);
  OpFoldResult n = dimProduct(b, loc, op.getInput(), axis, rank);
  p.rows = getValueOrCreateConstantIndexOp(b, loc, rows);
  p.n = getValueOrCreateConstantIndexOp(b, loc, n);
  auto asRows = [&](Value v) { return viewAs(b, loc, v, {rows, n}); };
  auto asRow = [&](Value v) { return viewAs(b, loc, v, {n}); };
  auto asColumn = [&](Value v) { return viewAs(b, loc, v, {rows}); };
  p.dy = asRows(op.getGrad());
  p.x = asRows(op.getInput());
  p.sumGrad = asRows(op.getSumGrad());
  p.dx = asRows(op.getInit());
  p.weight = asRow(op.getWeight());
  p.weightGrad = asRow(op.getWeightGradInit());
  p.rstd = asColumn(op.getRstd());
  if constexpr (std::is_same_v<OpTy, LayerNormGradOp>) {
    p.isLayerNorm = true;
    p.mean = asColumn(op.getMean());
    p.biasGrad = asRow(op.getBiasGradInit());
  }
  return p;
}

} // namespace

GradProblem mlir::norm::describeGrad(RMSNormGradOp op, OpBuilder &b) {
  return describeCommon(op, b);
}

GradProblem mlir::norm::describeGrad(LayerNormGradOp op, OpBuilder &b) {
  return describeCommon(op, b);
}

std::string mlir::norm::unsupportedGradKernelReason(Operation *op) {
  if (!llvm::all_of(op->getOperands(), hasIdentityLayout))
    return "the gradient kernels take memrefs with identity layouts only";
  if (auto rms = dyn_cast<RMSNormGradOp>(op); rms && rms.getPartialValue() < 1)
    return "the gradient kernels have no pRMSNorm (partial < 1)";
  return "";
}
