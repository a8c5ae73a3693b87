//===- FusedGemm.cpp - the packed GEMM's driver and entry point -----------===//
//
// C = norm(A) · W (+ bias), or C = A · W (+ bias) (+ residual), as one
// cache-blocked GEMM (DESIGN.md §3, §5). This file holds its loop nest (cache
// blocks, threads, the chunks' buffers) and the entry point, which gives few
// rows to the GEMV instead (Gemv.h); the parts are files of their own
// (GemmEmitter.h):
//
//   scf.parallel over rows: pack all of A, once, into Ã = [K/KC][M][KC]
//     f32 rows, transformed as they are packed, with the row statistics
//     summed from the same registers (PackA.cpp)
//   scf.parallel over column chunks jc of NC columns (each thread packs its
//   own W panel and only reads Ã, so the threads never synchronize):
//     for each K block pc of KC:
//       pack W[pc.., jc..] into B̃ = [NC/NR][KC][NR] f32 (zero columns past
//         N); LayerNorm also accumulates c = Σ_k γ'_k W_k· and Σ_k β_k W_k·
//         (PackW.cpp)
//       for each row block ic of MC (Ã's rows, from L3, stay in L2):
//         for each NR-column micro-panel, for each MR-row micro-tile:
//           MR × NR/L vector accumulators, one FMA per A element broadcast
//           and B vector per k (the register-tiled micro-kernel,
//           MicroKernel.cpp)
//           not the last K block: partial sums to an f32 buffer (C itself
//             when C is f32); the last: the epilogue, then C rounded once
//             (Epilogue.cpp).
//
// bf16 dot products (AVX512-BF16, `bf16DotProducts`; bf16 A and W): Ã and
// B̃ hold bf16 k-pairs and the micro-kernel runs x86vector.avx512.dot
// (vdpbf16ps: per lane, acc += a₀b₀ + a₁b₁ in f32), two k's per
// instruction, twice the f32 FMA rate. Ã then holds round(x·γ') (LayerNorm
// round((x − p)·γ'); x, or round(x + residual), times γ' in f32, rounded
// once to bf16): the one rounding this path adds, on the M×K side, so B̃ is
// W as it is and the fused kernel packs W exactly as the plain matmul does.
// The statistics, r and the accumulation stay f32; LayerNorm's c = Σγ'W
// and Σβ·W are summed in f32 from W beside the pair packing
// (sumColumnsOfW).
//
//===----------------------------------------------------------------------===//

#include "GemmEmitter.h"
#include "Gemv.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::norm;
using namespace mlir::norm::gemm;

bool mlir::norm::canEmitFusedGemm(FloatType accType) {
  return accType && accType.isF32();
}

int64_t
mlir::norm::statisticsSegmentWidth(const NormVectorCodegenOptions &options) {
  return gemm::resolveShape(options).lanes;
}

namespace {

/// The packed GEMM's driver, and the choice between it and the small-M GEMV.
class FusedGemmEmitter : public GemmEmitter {
public:
  using GemmEmitter::GemmEmitter;

  void emit(OpBuilder &b);

private:
  void emitGemm(OpBuilder &b);
  void emitChunk(OpBuilder &b, const ChunkBuffers &shared, Value chunk,
                 Value partials);
  Value rowsFit(OpBuilder &b, bool fit = true);
  ChunkBuffers allocateRowBuffers(OpBuilder &b);
  ChunkBuffers allocateChunk(OpBuilder &b, const ChunkBuffers &shared);
  void deallocateChunk(OpBuilder &b, const ChunkBuffers &buffers);
  void deallocateRowBuffers(OpBuilder &b, const ChunkBuffers &buffers);
};

} // namespace

//===----------------------------------------------------------------------===//
// Chunks and the whole GEMM
//===----------------------------------------------------------------------===//

/// Whether one column chunk holds whole rows of C (N ≤ NC), or with
/// `fit` false whether rows span several chunks.
Value FusedGemmEmitter::rowsFit(OpBuilder &b, bool fit) {
  return arith::CmpIOp::create(
      b, loc, fit ? arith::CmpIPredicate::ule : arith::CmpIPredicate::ugt, p.n,
      index(b, s.blockN));
}

/// Ã (numK panels of M × KC) and the per-row statistics.
ChunkBuffers FusedGemmEmitter::allocateRowBuffers(OpBuilder &b) {
  ChunkBuffers buf = allocateRowStatistics(b);
  Type panelType = dot ? Type(b.getBF16Type()) : Type(b.getF32Type());
  buf.packedA = memref::AllocOp::create(
      b, loc, MemRefType::get({ShapedType::kDynamic}, panelType),
      ValueRange{
          mul(b, numKBlocks(b, s.blockK), mul(b, p.m, index(b, s.blockK)))},
      b.getI64IntegerAttr(64));
  return buf;
}

void FusedGemmEmitter::deallocateRowBuffers(OpBuilder &b,
                                            const ChunkBuffers &buf) {
  memref::DeallocOp::create(b, loc, buf.packedA);
  deallocateRowStatistics(b, buf);
}

/// `shared`'s Ã and statistics, and this chunk's own B̃ and column sums.
ChunkBuffers FusedGemmEmitter::allocateChunk(OpBuilder &b,
                                             const ChunkBuffers &shared) {
  ChunkBuffers buf = shared;
  Type panelType = dot ? Type(b.getBF16Type()) : Type(b.getF32Type());
  buf.packedB = allocPanel(b, panelType, s.blockK * s.blockN);
  if (isLayerNorm()) {
    buf.colSumW = allocF32(b, s.blockN);
    if (p.beta)
      buf.colSumBetaW = allocF32(b, s.blockN);
  }
  return buf;
}

void FusedGemmEmitter::deallocateChunk(OpBuilder &b, const ChunkBuffers &buf) {
  for (Value v : {buf.packedB, buf.colSumW, buf.colSumBetaW})
    if (v)
      memref::DeallocOp::create(b, loc, v);
}

void FusedGemmEmitter::emitChunk(OpBuilder &b, const ChunkBuffers &shared,
                                 Value chunk, Value partials) {
  Value zero = index(b, 0);
  Value jc = mul(b, chunk, index(b, s.blockN));
  Value cols = minIndex(b, index(b, s.blockN), sub(b, p.n, jc));
  ChunkBuffers buf = allocateChunk(b, shared);
  forEachKBlock(b, s.blockK, [&](OpBuilder &kbld, const KBlock &kb) {
    WPacker(*this).packB(kbld, buf, jc, cols, kb);
    scf::ForOp::create(
        kbld, loc, zero, p.m, index(kbld, s.blockM), ValueRange{},
        [&](OpBuilder &mb, Location, Value ic, ValueRange) {
          Value rows = minIndex(mb, index(mb, s.blockM), sub(mb, p.m, ic));
          scf::ForOp::create(
              mb, loc, zero, cols, index(mb, s.tileCols), ValueRange{},
              [&](OpBuilder &nb, Location, Value jr, ValueRange) {
                MicroKernel(*this).tilesOfRows(nb, buf, partials, ic, rows, jc,
                                               jr, cols, kb);
                scf::YieldOp::create(nb, loc);
              });
          // matmul → norm with whole rows in this chunk: the block's rows
          // are final after the last K block; normalize them from L2.
          if (p.finishRows)
            scf::IfOp::create(
                mb, loc, arith::AndIOp::create(mb, loc, kb.isLast, rowsFit(mb)),
                [&](OpBuilder &tb, Location) {
                  p.finishRows(tb, ic, add(tb, ic, rows));
                  scf::YieldOp::create(tb, loc);
                });
          scf::YieldOp::create(mb, loc);
        });
  });
  deallocateChunk(b, buf);
}

void FusedGemmEmitter::emitGemm(OpBuilder &b) {
  Value zero = index(b, 0);
  Value one = index(b, 1);
  // Partial sums between K blocks: C itself when it is f32, otherwise an f32
  // buffer (empty when K fits one block).
  Value partials = p.c;
  Value ownPartials;
  if (!elementTypeOf(p.c).isF32()) {
    Value severalBlocks = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ugt, p.k, index(b, s.blockK));
    Value rows = arith::SelectOp::create(b, loc, severalBlocks, p.m, zero);
    ownPartials = memref::AllocOp::create(
        b, loc,
        MemRefType::get({ShapedType::kDynamic, ShapedType::kDynamic},
                        b.getF32Type()),
        ValueRange{rows, p.n}, b.getI64IntegerAttr(64));
    partials = ownPartials;
  }
  ChunkBuffers shared = allocateRowBuffers(b);
  APacker(*this).packAllOfA(b, shared, s.blockK);
  // Threads take whole column chunks; each packs its own W panel and reads
  // the shared Ã.
  Value chunks = arith::CeilDivUIOp::create(b, loc, p.n, index(b, s.blockN));
  scf::ParallelOp::create(b, loc, ValueRange{zero}, ValueRange{chunks},
                          ValueRange{one},
                          [&](OpBuilder &pb, Location, ValueRange ivs) {
                            emitChunk(pb, shared, ivs[0], partials);
                          });
  // Rows wider than a chunk are complete only now.
  if (p.finishRows)
    scf::IfOp::create(b, loc, rowsFit(b, /*fit=*/false),
                      [&](OpBuilder &tb, Location) {
                        p.finishRows(tb, zero, p.m);
                        scf::YieldOp::create(tb, loc);
                      });
  deallocateRowBuffers(b, shared);
  if (ownPartials)
    memref::DeallocOp::create(b, loc, ownPartials);
}

void FusedGemmEmitter::emit(OpBuilder &b) {
  int64_t gemvRows = GemvEmitter(*this).gemvRowLimit();
  if (gemvRows == 0) {
    emitGemm(b);
    return;
  }
  // A static M picks one; a dynamic one tests at run time.
  if (std::optional<int64_t> m = getConstantIntValue(p.m)) {
    if (*m > gemvRows)
      emitGemm(b);
    else
      GemvEmitter(*this).emitGemv(b);
    return;
  }
  Value many = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, p.m,
                                     index(b, gemvRows));
  ifElse(
      b, many, [&](OpBuilder &tb) { emitGemm(tb); },
      [&](OpBuilder &eb) { GemvEmitter(*this).emitGemv(eb); });
}

void mlir::norm::emitFusedGemm(OpBuilder &b, Location loc,
                               const FusedGemmProblem &problem,
                               const NormVectorCodegenOptions &options) {
  FusedGemmEmitter(loc, problem, options).emit(b);
}
