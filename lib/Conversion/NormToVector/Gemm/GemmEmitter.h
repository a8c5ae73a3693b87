//===- GemmEmitter.h - the CPU GEMM emitter's internals ---------*- C++ -*-===//
//
// Private to the CPU GEMM (NormToVector/Gemm): the block sizes, the buffers,
// the state of one GEMM's emission that every part reads (GemmEmitter), and
// the parts of the packed GEMM, one job and one file each:
//
//   PackA.cpp        APacker: A into Ã, with the row statistics
//   PackW.cpp        WPacker: W into B̃, with LayerNorm's column sums
//   MicroKernel.cpp  MicroKernel: the register tiles over a K block
//   Epilogue.cpp     GemmEpilogue: partial sums, scale, bias, residual,
//                    segment statistics, rounding and the store of C
//   FusedGemm.cpp    the driver: cache blocks, threads, chunk buffers
//
// The small-M GEMV (Gemv.h) reuses the A packing, the row statistics and the
// epilogue. A part is built from the state where it is used
// (`APacker(*this).packAllOfA(...)`); the state is a few values and
// references, so the copy costs nothing.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_LIB_CONVERSION_NORMTOVECTOR_GEMM_GEMMEMITTER_H
#define NORM_LIB_CONVERSION_NORMTOVECTOR_GEMM_GEMMEMITTER_H

#include "../FusedGemm.h"
#include "../VectorArith.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <array>

namespace mlir {
namespace norm {
namespace gemm {

/// Block sizes and the micro-tile, resolved from the options and the target.
struct GemmShape {
  int64_t lanes;       // L: f32 lanes per vector
  int64_t tileRows;    // MR
  int64_t tileVectors; // NR / L
  int64_t tileCols;    // NR
  int64_t blockK;      // KC (a multiple of L)
  int64_t blockM;      // MC (a multiple of MR)
  int64_t blockN;      // NC (a multiple of NR)
  int64_t unroll;      // k steps per micro-kernel loop iteration
};

/// Rounds `v` up to a multiple of `multiple`.
int64_t roundUp(int64_t v, int64_t multiple);

/// The shape for `options` (their 0s replaced by the target's defaults).
GemmShape resolveShape(const NormVectorCodegenOptions &options);

/// The buffers the GEMM works in. Ã and the row statistics are written once,
/// before the column chunks, and then only read; B̃ and the column sums
/// belong to one column chunk (allocated inside the parallel loop, so each
/// thread has its own).
struct ChunkBuffers {
  Value packedA, packedB;
  // Per row (length M): sums of the statistics, the pivot, the final scale
  // r and LayerNorm's r·(μ − p).
  Value sum1, sum2, pivot, scale, shift;
  // Per chunk column (length NC), LayerNorm: c and Σ β·W.
  Value colSumW, colSumBetaW;
};

/// Per K block: where it starts, its length, whether it is the first / the
/// last, and (the packed GEMM) where its Ã panel of M rows × KC starts in
/// packedA.
struct KBlock {
  Value start, length, isFirst, isLast;
  Value aPanel = {};
};

/// The state of one GEMM's emission: the problem, the options, the resolved
/// shape; and what every part reads of them: the prologue's kind, γ', the
/// left operand, the K-block and vector-step loops, the row statistics'
/// buffers.
class GemmEmitter : protected VectorArith {
public:
  GemmEmitter(Location loc, const FusedGemmProblem &p,
              const NormVectorCodegenOptions &options);

protected:
  bool isNorm() const { return p.prologue != GemmPrologue::None; }
  bool isLayerNorm() const { return p.prologue == GemmPrologue::LayerNorm; }
  /// LayerNorm's column constants: c = Σ_k γ'_k W_k·, and Σ_k β_k W_k· with
  /// a β (0 for the other prologues).
  int64_t numColumnSums() const { return isLayerNorm() ? (p.beta ? 2 : 1) : 0; }
  bool gathersSegmentStatistics() const { return p.segSumSq || p.segPivot; }

  /// γ'_k = γ_k + weight_offset as f32; a missing γ is 1 (the op's
  /// definition), so γ' is then the constant 1 + weight_offset.
  Value gammaAt(OpBuilder &b, Value k) {
    if (!p.gamma)
      return f32(b, 1.0 + p.weightOffset);
    Value g = loadScalarAcc(b, p.gamma, {k});
    if (p.weightOffset != 0.0)
      g = arith::AddFOp::create(b, loc, g, f32(b, p.weightOffset));
    return g;
  }
  /// γ' for the L elements at k, or null when it is 1 (nothing to multiply).
  Value gammaVectorAt(OpBuilder &b, Value k, Value maskValue) {
    if (!p.gamma)
      return p.weightOffset != 0.0 ? splat(b, f32(b, 1.0 + p.weightOffset))
                                   : Value();
    Value g = loadAcc(b, p.gamma, {k}, maskValue);
    if (p.weightOffset != 0.0)
      g = arith::AddFOp::create(b, loc, g, splat(b, f32(b, p.weightOffset)));
    return g;
  }
  /// A vector of the GEMM's left operand at (row, k) in f32: A itself, or
  /// with a residual the sum round(A + residual), rounded to the element type
  /// as the op defines it. Masked lanes read zero.
  Value loadInputF32(OpBuilder &b, Value row, Value k, Value maskValue) {
    Value x = loadAcc(b, p.a, {row, k}, maskValue);
    if (!p.aResidual)
      return x;
    Value sum = arith::AddFOp::create(
        b, loc, x, loadAcc(b, p.aResidual, {row, k}, maskValue));
    return toF32(b, narrow(b, sum, elementTypeOf(p.a)));
  }

  /// An scf.if without results whose branches `then` and `otherwise` fill.
  void ifElse(OpBuilder &b, Value condition,
              function_ref<void(OpBuilder &)> then,
              function_ref<void(OpBuilder &)> otherwise) {
    auto branch = [this](function_ref<void(OpBuilder &)> body) {
      return [this, body](OpBuilder &nb, Location) {
        body(nb);
        scf::YieldOp::create(nb, loc);
      };
    };
    scf::IfOp::create(b, loc, condition, branch(then), branch(otherwise));
  }
  /// `step` over [begin, begin + length) in steps of `width` elements (L,
  /// or 2L for bf16 pairs), the last partial step masked.
  scf::IfOp vectorSteps(
      OpBuilder &b, Value begin, Value length, ValueRange init,
      function_ref<void(OpBuilder &, Value, Value, SmallVector<Value> &)> step,
      function_ref<void(OpBuilder &, Value)> beforeWholeStep,
      int64_t width = 0);
  /// Runs `body` for each K block of `blockK` (at least one, so that K = 0
  /// still runs the epilogue), whose Ã panel starts at start·M.
  void forEachKBlock(OpBuilder &b, int64_t blockK,
                     function_ref<void(OpBuilder &, const KBlock &)> body);
  Value numKBlocks(OpBuilder &b, int64_t blockK);
  /// The per-row statistics of the norm prologue (none without one).
  ChunkBuffers allocateRowStatistics(OpBuilder &b);
  void deallocateRowStatistics(OpBuilder &b, const ChunkBuffers &buffers);

  const FusedGemmProblem &p;
  const NormVectorCodegenOptions &options;
  GemmShape s;
  /// The packed GEMM runs on bf16 dot products (vdpbf16ps): Ã holds
  /// round(x·γ') in bf16 (x, or round(x + residual), times γ'), B̃ holds
  /// k-pairs of W as it is ([panel][KC/2][NR][2]); see
  /// NormVectorCodegenOptions::bf16DotProducts. The GEMV uses them too
  /// (gemvPairs, gemvSweepPairs), on W as it is in memory or as the row
  /// sweeps copy it; only its K×N decode keeps f32 FMAs.
  bool dot;
};

/// Packs A into Ã (PackA.cpp), transformed by the prologue, with the row
/// statistics and the residual sum.
class APacker : public GemmEmitter {
public:
  explicit APacker(const GemmEmitter &e) : GemmEmitter(e) {}

  /// Packs A's rows into Ã rows from `firstRow` on ([K block][M +
  /// firstRow][`blockK`]).
  void packAllOfA(OpBuilder &b, const ChunkBuffers &buf, int64_t blockK,
                  int64_t firstRow = 0);

private:
  /// `normalizes`: A is normalized before the GEMM (GemmProblem::normalizesA)
  /// with the row's `rstd` and LayerNorm's `mean` (rowStatistics).
  struct RowNorm {
    Value rstd, mean;
  };
  void packRow(OpBuilder &b, const ChunkBuffers &buf, Value row, Value base,
               const KBlock &kb, const RowNorm &norm);
  RowNorm rowStatistics(OpBuilder &b, Value row);
  Value normalizedA(OpBuilder &b, Value x, Value k, Value maskValue,
                    const RowNorm &norm);
  Value firstBlockMean(OpBuilder &b, Value row, const KBlock &kb);
  void storeSum(OpBuilder &b, Value x, Value row, Value k, Value maskValue);
  void finishRowStatistics(OpBuilder &b, const ChunkBuffers &buf, Value row);
  void storeSavedStatistics(OpBuilder &b, Value row, const RowNorm &norm);
};

/// Packs a K block of a column chunk of W into B̃ (PackW.cpp), with
/// LayerNorm's column sums c and Σβ·W.
class WPacker : public GemmEmitter {
public:
  explicit WPacker(const GemmEmitter &e) : GemmEmitter(e) {}

  void packB(OpBuilder &b, const ChunkBuffers &buf, Value jc, Value cols,
             const KBlock &kb);

private:
  /// One vector of columns of an NR-column panel of B̃: the vector `v` of
  /// the panel, where the panel's packed row starts in B̃ (`base`), the
  /// vector's first column in the chunk and in W, and how many of the
  /// chunk's columns are left from it on (≤ 0: none).
  struct PanelVector {
    int64_t v;
    Value base, colInChunk, col, left;
  };
  void
  forEachPanelVector(OpBuilder &b, Value zero, Value jc, Value cols,
                     Value rowOffset,
                     function_ref<void(OpBuilder &, const PanelVector &)> body);
  void packTransposedB(OpBuilder &b, const ChunkBuffers &buf, Value jc,
                       Value cols, const KBlock &kb);
  void packTransposedBPairs(OpBuilder &b, const ChunkBuffers &buf, Value jc,
                            Value cols, const KBlock &kb);
  void packBPairs(OpBuilder &b, const ChunkBuffers &buf, Value jc, Value cols,
                  const KBlock &kb);
  void storeBPair(OpBuilder &b, const ChunkBuffers &buf, Value w0, Value w1,
                  Value offset);
  std::array<Value, 2> columnSumWeights(OpBuilder &b, Value k);
  void addToColumnSums(OpBuilder &b, const ChunkBuffers &buf,
                       ArrayRef<Value> weights, Value w, Value col);
  void zeroColumnSums(OpBuilder &b, const ChunkBuffers &buf, const KBlock &kb);
  void sumColumnsOfW(OpBuilder &b, const ChunkBuffers &buf, Value jc,
                     Value cols, const KBlock &kb);
};

/// What happens to a finished tile of accumulators (Epilogue.cpp): partial
/// sums between K blocks, then r, bias, residual and LayerNorm's column
/// terms, C rounded once and stored, and matmul → norm's segment
/// statistics of C.
class GemmEpilogue : public GemmEmitter {
public:
  explicit GemmEpilogue(const GemmEmitter &e) : GemmEmitter(e) {}

  void columnConstants(OpBuilder &b, const ChunkBuffers &buf, Value jc,
                       Value jr, Value cols, int64_t numVectors,
                       SmallVectorImpl<Value> &masks,
                       SmallVectorImpl<Value> &constant,
                       SmallVectorImpl<Value> &colSums);
  void storeTileRow(OpBuilder &b, const ChunkBuffers &buf, Value partials,
                    Value row, Value jc, Value jr, ArrayRef<Value> masks,
                    ArrayRef<Value> constant, ArrayRef<Value> colSums,
                    ArrayRef<Value> accs, const KBlock &kb);
  void sweepSegmentStatistics(OpBuilder &b);

private:
  void storeSegmentStatistics(OpBuilder &b, Value row, Value col, Value values,
                              Value maskValue);
};

/// The register-tiled micro-kernel (MicroKernel.cpp): MR × NR tiles of
/// accumulators over a K block of Ã and B̃, handed to the epilogue.
class MicroKernel : public GemmEmitter {
public:
  explicit MicroKernel(const GemmEmitter &e) : GemmEmitter(e) {}

  void tilesOfRows(OpBuilder &b, const ChunkBuffers &buf, Value partials,
                   Value ic, Value rows, Value jc, Value jr, Value cols,
                   const KBlock &kb);

private:
  void microTile(OpBuilder &b, const ChunkBuffers &buf, Value partials,
                 int64_t tileRows, Value firstRow, Value jc, Value jr,
                 Value cols, const KBlock &kb);
};

} // namespace gemm
} // namespace norm
} // namespace mlir

#endif // NORM_LIB_CONVERSION_NORMTOVECTOR_GEMM_GEMMEMITTER_H
