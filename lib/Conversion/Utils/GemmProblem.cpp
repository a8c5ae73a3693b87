//===- GemmProblem.cpp - the GEMM of a fused norm/matmul op ---------------===//
//
// Fused ops to GemmProblem (GemmProblem.h), for both back ends.
//
//===----------------------------------------------------------------------===//

#include "norm/Conversion/Utils/GemmProblem.h"
#include "norm/Conversion/Utils/RowNormProblem.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::norm;

namespace {
template <typename OpTy> GemmProblem describeFused(OpTy op, OpBuilder &b) {
  Location loc = op.getLoc();
  Value x = op.getInput();
  int64_t rank = cast<MemRefType>(x.getType()).getRank();
  OpFoldResult rows = dimProduct(b, loc, x, 0, rank - 1);
  GemmProblem v;
  static_cast<NormNumerics &>(v) = getNormNumerics(op);
  v.m = getValueOrCreateConstantIndexOp(b, loc, rows);
  // Static dims are constants (attributes here), dynamic ones memref.dim.
  OpFoldResult k = linalg::createFoldedDimOp(b, loc, x, rank - 1);
  v.k = getValueOrCreateConstantIndexOp(b, loc, k);
  Value init = op.getInit();
  OpFoldResult n = linalg::createFoldedDimOp(
      b, loc, init, cast<MemRefType>(init.getType()).getRank() - 1);
  v.n = getValueOrCreateConstantIndexOp(b, loc, n);
  v.a = viewAs(b, loc, x, {rows, k});
  v.c = viewAs(b, loc, init, {rows, n});
  v.w = op.getRhs();
  v.transposeW = op.getTransposeRhs();
  v.matmulBias = op.getMatmulBias();
  // The residual and S: of X's shape before the matmul (viewed as A's M × K
  // rows), of C's after it (M × N, S taking C's place).
  constexpr bool normFirst = std::is_same_v<OpTy, RMSNormMatmulOp> ||
                             std::is_same_v<OpTy, LayerNormMatmulOp>;
  SmallVector<OpFoldResult> rowView{getAsOpFoldResult(v.m),
                                    getAsOpFoldResult(normFirst ? v.k : v.n)};
  Value residual = viewAs(b, loc, op.getResidual(), rowView);
  Value sum = viewAs(b, loc, op.getSumInit(), rowView);
  if constexpr (normFirst) {
    v.aResidual = residual;
    v.aSum = sum;
    v.rstd = viewAs(b, loc, op.getRstdInit(), {rowView[0]});
    if constexpr (std::is_same_v<OpTy, LayerNormMatmulOp>)
      v.mean = viewAs(b, loc, op.getMeanInit(), {rowView[0]});
  } else {
    v.residual = residual;
    v.c = sum;
    v.headDim = headDimOf(op).value_or(0);
  }
  return v;
}
} // namespace

/// The part every fused op shares: A, W, C (the op's output), the matmul
/// bias, the residual and S, the shapes and the numerics.
static GemmProblem describeFusedGemm(Operation *fusedOp, OpBuilder &b) {
  if (auto op = dyn_cast<RMSNormMatmulOp>(fusedOp))
    return describeFused(op, b);
  if (auto op = dyn_cast<LayerNormMatmulOp>(fusedOp))
    return describeFused(op, b);
  if (auto op = dyn_cast<MatmulRMSNormOp>(fusedOp))
    return describeFused(op, b);
  return describeFused(cast<MatmulLayerNormOp>(fusedOp), b);
}

/// The RMSNorm (`gamma`) or LayerNorm (`gamma`, `beta`) prologue of `p`,
/// whose numerics are set: the statistics gathered as A is packed and the
/// scale applied to C, or, when the normalized activations round or the
/// statistics cover a prefix, A normalized before the product.
static void setPrologue(GemmProblem &p, GemmPrologue prologue, Value gamma,
                        Value beta = Value()) {
  p.prologue = prologue;
  p.gamma = gamma;
  p.beta = beta;
  if (p.roundsNormalized || p.partial < 1.0)
    std::swap(p.normalizesA, p.prologue);
}

GemmProblem mlir::norm::describeNormMatmulGemm(Operation *fusedOp,
                                               OpBuilder &b) {
  GemmProblem p = describeFusedGemm(fusedOp, b);
  if (auto layerNorm = dyn_cast<LayerNormMatmulOp>(fusedOp))
    setPrologue(p, GemmPrologue::LayerNorm, layerNorm.getWeight(),
                layerNorm.getBias());
  else
    setPrologue(p, GemmPrologue::RMSNorm,
                cast<RMSNormMatmulOp>(fusedOp).getWeight());
  return p;
}

GemmProblem mlir::norm::describeMatmulNormGemm(Operation *fusedOp,
                                               OpBuilder &b) {
  GemmProblem p = describeFusedGemm(fusedOp, b);
  // norm → matmul → norm: the input norm is the GEMM's prologue, exactly as
  // norm.rms_norm_matmul's, so S is the C that op stores. The numerics are
  // the input norm's; the norm of S reads the op's own (createNormOfSum).
  if (auto op = dyn_cast<MatmulRMSNormOp>(fusedOp); op && op.hasInputNorm()) {
    static_cast<NormNumerics &>(p) = getInputNormNumerics(op);
    setPrologue(p, GemmPrologue::RMSNorm, op.getInputWeight());
  }
  return p;
}
