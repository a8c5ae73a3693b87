//===- GroupNormKernel.cpp - vector code for norm.group_norm --*- C++ -*-===//
//
// norm.group_norm on identity-layout memrefs. In [N, C, S...] every
// (sample, group) is one contiguous run of m = C/G · ΠS elements, so the
// groups are the rows of an [N·G, m] view and their statistics are the row
// kernel's LayerNorm sweeps (RowKernel.cpp: the mean, then Σd and Σd²
// about it, blocked and Kahan-compensated). The normalize sweep then walks
// the group's C/G channels, each a run of ΠS elements with one γ and one β:
//
//   y = ((x − shift) − correction) · (rstd · γ_c) + β_c
//
// two subtractions (exact when |μ| ≫ σ, as in the row kernel) and one FMA
// per element, γ_c and β_c read once per channel: the per-channel affine
// is part of the same sweep, not a second pass over y. Groups are split
// across threads (scf.parallel) above the parallel threshold. Stores are
// ordinary ones (no streaming): a channel's run of ΠS elements is rarely
// long enough for the alignment head the row kernel pays per row.
//
//===----------------------------------------------------------------------===//

#include "RowKernel.h"
#include "VectorArith.h"

#include "norm/Dialect/Norm/IR/NormNumerics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::norm;

namespace {

class GroupNormEmitter : VectorArith {
public:
  GroupNormEmitter(Location loc, const RowNormProblem &p,
                   const NormVectorCodegenOptions &options)
      : VectorArith(loc,
                    std::max<int64_t>(1, options.vectorBits /
                                             FloatType(p.accType).getWidth()),
                    p.accType, options.nativeBF16Conversion),
        p(p), options(options) {}

  /// The groups, threaded or not.
  void emit(OpBuilder &b);

private:
  void emitGroup(OpBuilder &b, Value row);

  const RowNormProblem &p;
  const NormVectorCodegenOptions &options;
};

/// One (sample, group): its statistics over the whole run, then one sweep
/// per channel with that channel's scale and shift.
void GroupNormEmitter::emitGroup(OpBuilder &b, Value row) {
  Value nAsAcc = indexToAcc(b, p.n);
  Value sum =
      emitRowSums(b, loc, p, options, p.n, 1,
                  [&](OpBuilder &nb, Value j, Value m, ValueRange accs) {
                    return SmallVector<Value>{arith::AddFOp::create(
                        nb, loc, accs[0], loadAcc(nb, p.x, {row, j}, m))};
                  })[0];
  Value shift = arith::DivFOp::create(b, loc, sum, nAsAcc);
  Value shiftVec = splat(b, shift);
  SmallVector<Value> moments =
      emitRowSums(b, loc, p, options, p.n, 2,
                  [&](OpBuilder &nb, Value j, Value m, ValueRange accs) {
                    Value d = arith::SubFOp::create(
                        nb, loc, loadAcc(nb, p.x, {row, j}, m), shiftVec);
                    if (m)
                      d = arith::SelectOp::create(nb, loc, m, d, zeros(nb));
                    return SmallVector<Value>{
                        arith::AddFOp::create(nb, loc, accs[0], d),
                        vector::FMAOp::create(nb, loc, d, d, accs[1])};
                  });
  Value correction;
  Value variance =
      emitCorrectedVariance(b, loc, moments[0], moments[1], nAsAcc, correction);
  Value rstd =
      createReciprocalStd(b, loc, variance, EpsMode::inside_sqrt, p.epsilon);
  if (p.mean)
    memref::StoreOp::create(b, loc,
                            arith::AddFOp::create(b, loc, shift, correction),
                            p.mean, ValueRange{row});
  if (p.rstd)
    memref::StoreOp::create(b, loc, rstd, p.rstd, ValueRange{row});

  Value correctionVec = splat(b, correction);
  Value firstChannel = mulC(b, remC(b, row, p.groups), p.channelsPerGroup);
  Type elementType = elementTypeOf(p.y);
  scf::ForOp::create(
      b, loc, index(b, 0), index(b, p.channelsPerGroup), index(b, 1),
      ValueRange{}, [&](OpBuilder &cb, Location, Value c, ValueRange) {
        Value channel = add(cb, firstChannel, c);
        Value scale = rstd;
        if (p.weight)
          scale = arith::MulFOp::create(cb, loc, scale,
                                        loadScalarAcc(cb, p.weight, {channel}));
        Value scaleVec = splat(cb, scale);
        Value betaVec = p.bias ? splat(cb, loadScalarAcc(cb, p.bias, {channel}))
                               : zeros(cb);
        Value base = mul(cb, c, p.channelLength);
        emitRowSweep(
            cb, loc, p, options, p.channelLength,
            [&](OpBuilder &nb, Value j, Value m, bool) {
              Value at = add(nb, base, j);
              Value v = arith::SubFOp::create(
                  nb, loc,
                  arith::SubFOp::create(nb, loc, loadAcc(nb, p.x, {row, at}, m),
                                        shiftVec),
                  correctionVec);
              v = narrow(nb,
                         vector::FMAOp::create(nb, loc, v, scaleVec, betaVec),
                         elementType);
              if (m)
                vector::MaskedStoreOp::create(nb, loc, p.y, {row, at}, m, v);
              else
                vector::StoreOp::create(nb, loc, v, p.y, {row, at});
            });
        scf::YieldOp::create(cb, loc);
      });
}

void GroupNormEmitter::emit(OpBuilder &b) {
  Value zero = index(b, 0), one = index(b, 1);
  auto serial = [&](OpBuilder &nb, Location) {
    scf::ForOp::create(nb, loc, zero, p.rows, one, ValueRange{},
                       [&](OpBuilder &lb, Location, Value row, ValueRange) {
                         emitGroup(lb, row);
                         scf::YieldOp::create(lb, loc);
                       });
  };
  if (options.parallelThresholdBytes < 0) {
    serial(b, loc);
    return;
  }
  int64_t elementBytes = elementTypeOf(p.x).getIntOrFloatBitWidth() / 8;
  Value bytes = mulC(b, mul(b, p.rows, p.n), 2 * elementBytes);
  Value parallel =
      andI(b,
           arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, bytes,
                                 index(b, options.parallelThresholdBytes)),
           ult(b, one, p.rows));
  scf::IfOp::create(
      b, loc, parallel,
      [&](OpBuilder &nb, Location) {
        scf::ParallelOp::create(nb, loc, ValueRange{zero}, ValueRange{p.rows},
                                ValueRange{one},
                                [&](OpBuilder &pb, Location, ValueRange ivs) {
                                  emitGroup(pb, ivs[0]);
                                });
        scf::YieldOp::create(nb, loc);
      },
      [&](OpBuilder &nb, Location) {
        serial(nb, loc);
        scf::YieldOp::create(nb, loc);
      });
}

} // namespace

void mlir::norm::emitGroupNormKernel(GroupNormOp op, PatternRewriter &rewriter,
                                     const NormVectorCodegenOptions &options) {
  RowNormProblem problem = describeRowNorm(op, rewriter);
  GroupNormEmitter(op.getLoc(), problem, options).emit(rewriter);
}
