//===- GPURowKernelQuantized.cpp - GPU row kernel, dynamic scales ---------===//
//
// The GPU row kernel's sweeps for a quantized y whose scale comes from the
// values (DESIGN.md §8): the amax of a row (per-token scales), and the
// normalize sweep in per-group steps (per-group scales). The quantization
// arithmetic itself is GPUQuantizedRow's; the kernel's layout is described
// in GPURowKernel.cpp.
//
//===----------------------------------------------------------------------===//

#include "GPURowKernelEmitter.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::norm;

namespace mlir {
namespace norm {
namespace gpurow {

/// max |y| over the row (acc_type; NaN if y has one), in every thread: the
/// thread's chunks (held, or re-read: y is computed again in the normalize
/// sweep, which costs less than keeping it), then across the row.
Value GPURowKernelEmitter::rowAmax(OpBuilder &b, Value shift, Value correction,
                                   Value rstd) {
  auto chunkMax = [&](OpBuilder &nb, Value chunk, ArrayRef<Value> s,
                      Value amax) -> Value {
    for (Value v : normalizedChunk(nb, chunk, s, shift, correction, rstd))
      amax = arith::MaximumFOp::create(nb, loc, amax,
                                       math::AbsFOp::create(nb, loc, v));
    return amax;
  };
  Value amax = accConst(b, 0.0);
  if (shape.heldChunks > 0) {
    for (int64_t c = 0; c < shape.heldChunks; ++c) {
      Value chunk = chunkOf(b, c);
      if (!heldValid[c]) {
        amax = chunkMax(b, chunk, held[c], amax);
        continue;
      }
      // γ and β past the row's end are not read.
      auto ifOp = scf::IfOp::create(
          b, loc, heldValid[c],
          [&](OpBuilder &nb, Location) {
            scf::YieldOp::create(nb, loc, chunkMax(nb, chunk, held[c], amax));
          },
          [&](OpBuilder &nb, Location) {
            scf::YieldOp::create(nb, loc, amax);
          });
      amax = ifOp.getResult(0);
    }
  } else {
    auto loop = scf::ForOp::create(
        b, loc, threadInRow, numChunks(b), index(b, shape.threadsPerRow),
        ValueRange{amax},
        [&](OpBuilder &nb, Location, Value chunk, ValueRange iterArgs) {
          scf::YieldOp::create(
              nb, loc, chunkMax(nb, chunk, inputChunk(nb, chunk), iterArgs[0]));
        });
    amax = loop.getResult(0);
  }
  return reduceAcrossRow(b, {amax}, /*stage=*/2, /*maximum=*/true)[0];
}

/// At most this many per-group steps share one reduction (a shared-memory
/// slot a warp each): bounds the slots where a large register budget holds
/// long rows.
constexpr int64_t kMaxQuantGroupBatch = 32;

int64_t GPURowKernelEmitter::quantGroupBatch() const {
  if (shape.heldChunks == 0)
    return 1;
  GPUQuantGroupLayout layout =
      quantized->groupLayout(shape.vectorWidth, shape.threadsPerRow);
  return std::min(shape.heldChunks / layout.chunks, kMaxQuantGroupBatch);
}

/// Per-group scales (DESIGN.md §8): the normalize sweep in steps, a step
/// being this thread's chunks of one group (GPUQuantGroupLayout): y of its
/// chunks and their max |y|, the group's amax across the threads that hold
/// it, then s (stored by the group's first thread) and q from y kept in
/// registers. Every thread reaches every shuffle and barrier: a chunk past
/// the row's end computes nothing and gives 0, and a re-read row's loop
/// (one step an iteration) is as long for every thread; a held row's steps
/// share their reductions.
void GPURowKernelEmitter::quantizeGroups(OpBuilder &b, Value shift,
                                         Value correction, Value rstd) {
  GPUQuantGroupLayout layout =
      quantized->groupLayout(shape.vectorWidth, shape.threadsPerRow);
  int64_t width = shape.vectorWidth;
  struct Step {
    SmallVector<Value> chunks;
    Value valid; // null: always
    SmallVector<SmallVector<Value>> s, y;
    Value amax;
  };
  // s (`held`, else loaded), y and max |y| of the step's chunks.
  auto evaluate = [&](OpBuilder &nb, Step &step,
                      ArrayRef<SmallVector<Value>> held) {
    int64_t loaded = held.empty() ? step.chunks.size() : 0;
    auto compute = [&](OpBuilder &ib) {
      SmallVector<Value> s, y;
      Value amax = accConst(ib, 0.0);
      for (auto [j, chunk] : llvm::enumerate(step.chunks)) {
        SmallVector<Value> in = loaded ? inputChunk(ib, chunk) : held[j];
        if (loaded)
          llvm::append_range(s, in);
        for (Value v :
             normalizedChunk(ib, chunk, in, shift, correction, rstd)) {
          amax = arith::MaximumFOp::create(ib, loc, amax,
                                           math::AbsFOp::create(ib, loc, v));
          y.push_back(v);
        }
      }
      llvm::append_range(s, y);
      s.push_back(amax);
      return s;
    };
    SmallVector<Value> flat;
    if (!step.valid) {
      flat = compute(nb);
    } else {
      // γ and β past the row's end are not read.
      auto ifOp = scf::IfOp::create(
          nb, loc, step.valid,
          [&](OpBuilder &ib, Location) {
            scf::YieldOp::create(ib, loc, compute(ib));
          },
          [&](OpBuilder &ib, Location) {
            SmallVector<Value> zeros((loaded + step.chunks.size()) * width + 1,
                                     accConst(ib, 0.0));
            scf::YieldOp::create(ib, loc, zeros);
          });
      flat = SmallVector<Value>(ifOp.getResults());
    }
    ArrayRef<Value> values(flat);
    for (int64_t j = 0, e = step.chunks.size(); j < e; ++j) {
      step.s.push_back(loaded
                           ? SmallVector<Value>(values.slice(j * width, width))
                           : held[j]);
      step.y.emplace_back(values.slice((loaded + j) * width, width));
    }
    step.amax = values.back();
  };
  // The steps' group amax, then their scales and stores.
  auto finish = [&](OpBuilder &nb, MutableArrayRef<Step> steps, bool reused) {
    SmallVector<Value> partials;
    for (Step &step : steps)
      partials.push_back(step.amax);
    SmallVector<Value> amax = reduceAcrossRow(
        nb, partials, /*stage=*/2, /*maximum=*/true, layout.threads, reused);
    Value firstOfGroup = arith::CmpIOp::create(
        nb, loc, arith::CmpIPredicate::eq,
        remC(nb, threadInRow, layout.threads), index(nb, 0));
    for (auto [i, groupAmax] : llvm::enumerate(amax)) {
      const Step &step = steps[i];
      Value write = step.valid ? andI(nb, rowValid, step.valid) : rowValid;
      Value group =
          divC(nb, chunkStart(nb, step.chunks.front()), quantized->groupSize());
      Value inverse = quantized->dynamicInverseScale(
          nb, groupAmax, ValueRange{row, group}, andI(nb, write, firstOfGroup));
      scf::IfOp::create(nb, loc, write, [&](OpBuilder &ib, Location) {
        for (auto [chunk, s, y] : llvm::zip(step.chunks, step.s, step.y)) {
          if (p.sum)
            storeChunk(ib, s, p.sum, chunk);
          storeChunk(ib, quantized->quantizeChunk(ib, y, inverse), p.y, chunk);
        }
        scf::YieldOp::create(ib, loc);
      });
    }
  };

  if (shape.heldChunks > 0) {
    // Held chunk c is t + c·T: step q holds chunks q·chunks on.
    int64_t numSteps = shape.heldChunks / layout.chunks;
    SmallVector<Step> steps(numSteps);
    for (auto [q, step] : llvm::enumerate(steps)) {
      SmallVector<SmallVector<Value>> heldS;
      for (int64_t j = 0; j < layout.chunks; ++j) {
        int64_t c = q * layout.chunks + j;
        step.chunks.push_back(chunkOf(b, c));
        heldS.push_back(held[c]);
      }
      // A group of several chunks a thread fills whole rounds of the row.
      step.valid = heldValid[q * layout.chunks];
      evaluate(b, step, heldS);
    }
    int64_t batch = quantGroupBatch();
    for (int64_t first = 0; first < numSteps; first += batch)
      finish(b,
             MutableArrayRef<Step>(steps).slice(
                 first, std::min(batch, numSteps - first)),
             /*reused=*/first + batch < numSteps);
    return;
  }
  // Step i: chunks t + (i·chunks + j)·T, past the row's end only in the
  // last step, and only with a group a chunk a thread.
  int64_t numChunks = *p.staticRowLength() / width;
  int64_t chunksPerStep = shape.threadsPerRow * layout.chunks;
  bool ragged = numChunks % chunksPerStep != 0;
  scf::ForOp::create(
      b, loc, index(b, 0),
      index(b, llvm::divideCeilSigned(numChunks, chunksPerStep)), index(b, 1),
      ValueRange{}, [&](OpBuilder &lb, Location, Value i, ValueRange) {
        Step step;
        Value first = add(lb, threadInRow, mulC(lb, i, chunksPerStep));
        for (int64_t j = 0; j < layout.chunks; ++j)
          step.chunks.push_back(j ? addC(lb, first, j * shape.threadsPerRow)
                                  : first);
        if (ragged)
          step.valid = ult(lb, first, index(lb, numChunks));
        evaluate(lb, step, {});
        finish(lb, step, /*reused=*/true);
        scf::YieldOp::create(lb, loc);
      });
}

} // namespace gpurow
} // namespace norm
} // namespace mlir
