//===- GemmEmitter.cpp - the state every part of the CPU GEMM reads -------===//
//
// The shape of the GEMM resolved from the options, and what GemmEmitter.h's
// state gives every part of the GEMM and the GEMV: the loops over K blocks
// and over vector steps, and the buffers of the row statistics.
//
//===----------------------------------------------------------------------===//

#include "GemmEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::norm;
using namespace mlir::norm::gemm;

int64_t mlir::norm::gemm::roundUp(int64_t v, int64_t multiple) {
  return (v + multiple - 1) / multiple * multiple;
}

GemmShape
mlir::norm::gemm::resolveShape(const NormVectorCodegenOptions &options) {
  GemmShape s;
  s.lanes = std::max<int64_t>(1, options.vectorBits / 32);
  // Accumulators + B vectors + one broadcast must fit the register file:
  // 32 vector registers with AVX-512, 16 otherwise.
  bool wide = options.vectorBits >= 512;
  s.tileRows =
      options.gemmTileRows > 0 ? options.gemmTileRows : (wide ? 12 : 6);
  s.tileVectors = options.gemmTileVectors > 0 ? options.gemmTileVectors : 2;
  s.tileCols = s.tileRows > 0 ? s.tileVectors * s.lanes : s.lanes;
  s.blockK =
      roundUp(options.gemmBlockK > 0 ? options.gemmBlockK : 256, s.lanes);
  s.blockM =
      roundUp(options.gemmBlockM > 0 ? options.gemmBlockM : 16 * s.tileRows,
              s.tileRows);
  s.blockN =
      roundUp(options.gemmBlockN > 0 ? options.gemmBlockN : 256, s.tileCols);
  s.unroll = options.gemmUnroll > 0 ? options.gemmUnroll : 4;
  return s;
}

GemmEmitter::GemmEmitter(Location loc, const FusedGemmProblem &p,
                         const NormVectorCodegenOptions &options)
    : VectorArith(loc, resolveShape(options).lanes,
                  Float32Type::get(loc->getContext()),
                  options.nativeBF16Conversion),
      p(p), options(options), s(resolveShape(options)),
      dot(options.bf16DotProducts && s.lanes == 16 &&
          elementTypeOf(p.a).isBF16() && elementTypeOf(p.w).isBF16()) {
  // An N×K W is packed 2L k's at a time (packTransposedBPairs); whole
  // steps must fit a K block's panel.
  if (dot)
    s.blockK = roundUp(s.blockK, 2 * s.lanes);
}

//===----------------------------------------------------------------------===//
// Loops
//===----------------------------------------------------------------------===//

/// At least one K block, so that K = 0 still runs the epilogue.
Value GemmEmitter::numKBlocks(OpBuilder &b, int64_t blockK) {
  return arith::MaxUIOp::create(
      b, loc, arith::CeilDivUIOp::create(b, loc, p.k, index(b, blockK)),
      index(b, 1));
}

void GemmEmitter::forEachKBlock(
    OpBuilder &b, int64_t blockK,
    function_ref<void(OpBuilder &, const KBlock &)> body) {
  Value zero = index(b, 0);
  Value one = index(b, 1);
  Value numK = numKBlocks(b, blockK);
  Value lastK = sub(b, numK, one);
  scf::ForOp::create(b, loc, zero, numK, one, ValueRange{},
                     [&](OpBuilder &nb, Location, Value kIndex, ValueRange) {
                       Value size = index(nb, blockK);
                       KBlock kb;
                       kb.start = mul(nb, kIndex, size);
                       kb.length = minIndex(nb, size, sub(nb, p.k, kb.start));
                       kb.isFirst = arith::CmpIOp::create(
                           nb, loc, arith::CmpIPredicate::eq, kIndex, zero);
                       kb.isLast = arith::CmpIOp::create(
                           nb, loc, arith::CmpIPredicate::eq, kIndex, lastK);
                       kb.aPanel = mul(nb, kb.start, p.m);
                       body(nb, kb);
                       scf::YieldOp::create(nb, loc);
                     });
}

/// `step(builder, k, mask, accs)` over [begin, begin + length) in steps of
/// `width` (0: L) elements, the last partial step masked (`mask` null for
/// whole ones);
/// `beforeWholeStep(builder, k)` (e.g. a prefetch), when given, runs before
/// each whole step. The result holds the accumulators after the tail.
scf::IfOp GemmEmitter::vectorSteps(
    OpBuilder &b, Value begin, Value length, ValueRange init,
    function_ref<void(OpBuilder &, Value, Value, SmallVector<Value> &)> step,
    function_ref<void(OpBuilder &, Value)> beforeWholeStep, int64_t width) {
  if (width == 0)
    width = s.lanes;
  Value lanes = index(b, width);
  Value full = mul(b, arith::DivUIOp::create(b, loc, length, lanes), lanes);
  Value fullEnd = add(b, begin, full);
  auto body = scf::ForOp::create(
      b, loc, begin, fullEnd, lanes, init,
      [&](OpBuilder &nb, Location, Value k, ValueRange iter) {
        SmallVector<Value> accs(iter);
        if (beforeWholeStep)
          beforeWholeStep(nb, k);
        step(nb, k, Value(), accs);
        scf::YieldOp::create(nb, loc, accs);
      });
  Value tailCount = sub(b, length, full);
  Value hasTail = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                        tailCount, index(b, 0));
  return scf::IfOp::create(
      b, loc, hasTail,
      [&](OpBuilder &tb, Location) {
        SmallVector<Value> accs(body.getResults());
        Value tailMask = vector::CreateMaskOp::create(
            tb, loc, VectorType::get({width}, tb.getI1Type()),
            ValueRange{tailCount});
        step(tb, fullEnd, tailMask, accs);
        scf::YieldOp::create(tb, loc, accs);
      },
      [&](OpBuilder &eb, Location) {
        scf::YieldOp::create(eb, loc, body.getResults());
      });
}

//===----------------------------------------------------------------------===//
// Row statistics
//===----------------------------------------------------------------------===//

/// The per-row statistics of the norm prologue (none without one).
ChunkBuffers GemmEmitter::allocateRowStatistics(OpBuilder &b) {
  ChunkBuffers buf;
  if (isNorm()) {
    buf.sum1 = allocF32(b, p.m);
    buf.scale = allocF32(b, p.m);
  }
  if (isLayerNorm()) {
    buf.sum2 = allocF32(b, p.m);
    buf.pivot = allocF32(b, p.m);
    buf.shift = allocF32(b, p.m);
  }
  return buf;
}

void GemmEmitter::deallocateRowStatistics(OpBuilder &b,
                                          const ChunkBuffers &buf) {
  for (Value v : {buf.sum1, buf.sum2, buf.pivot, buf.scale, buf.shift})
    if (v)
      memref::DeallocOp::create(b, loc, v);
}
