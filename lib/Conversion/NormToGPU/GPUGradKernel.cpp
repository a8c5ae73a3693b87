//===- GPUGradKernel.cpp - GPU kernels for the norm gradients -------------===//
//
// norm.rms_norm_grad and norm.layer_norm_grad on identity-layout memrefs
// (GradProblem.h: R rows of n elements), as two launches:
//
//   rows:    one block of T threads per chunk of rows (min(R, 1024,
//            ⌈R·n / 4096⌉) chunks, at least one; a split fixed by the
//            shape alone). Per row, thread t owns
//            the elements t, t + T, ...; the statistics (unless given: the
//            forward's Σx², or the LayerNorm mean and corrected two-pass
//            variance) and the row sums Σ dŷ·x̂, Σ dŷ are block reductions (a
//            butterfly of gpu.shuffle xor in each warp, then one value per
//            warp through shared memory, summed by every thread in warp
//            order, so all threads agree bit for bit); then thread t writes
//            dx at its elements and adds dy·x̂ and dy into the chunk's
//            partial column sums (device memory, [chunks, n], acc_type):
//            column j always belongs to the same thread of the block, so no
//            two threads touch one partial;
//   columns: one thread per column adds the chunks' partials in chunk order
//            and stores dγ (dβ) rounded once.
//
// So the results do not depend on the launch schedule: every run gives the
// same bits. Element accesses are scalar (a warp reads 32 consecutive
// elements); the numerics are the CPU kernel's (GradKernel.cpp) and the
// decomposition's: every value converted to acc_type before any arithmetic,
// each result rounded once.
//
//===----------------------------------------------------------------------===//

#include "GPURowKernel.h"
#include "TargetInfo.h"

#include "norm/Conversion/Utils/ScalarArith.h"
#include "norm/Transforms/GPU/GPUTransforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::norm;

namespace {

/// At most this many chunks of rows (blocks of the rows launch): enough to
/// fill a large GPU several times, and chunks × n partials of memory.
constexpr int64_t kMaxChunks = 1024;
/// A chunk has at least this many elements (when there are that many): a
/// small problem gets fewer, fuller blocks and fewer partials to add.
constexpr int64_t kMinChunkElements = 4096;
/// Statistics reduced at once (Σd and Σd², or Σ dŷ·x̂ and Σ dŷ).
constexpr int64_t kMaxReduced = 2;

class GPUGradKernelEmitter : ScalarArith {
public:
  GPUGradKernelEmitter(Location loc, const GradProblem &p)
      : ScalarArith(loc, p.accType), p(p) {}

  void emit(OpBuilder &b);

private:
  static constexpr int64_t kThreads = NVIDIATargetInfo::kBlockThreads;
  static constexpr int64_t kWarps = kThreads / NVIDIATargetInfo::kWarpSize;

  void emitRowsBody(OpBuilder &b, gpu::LaunchOp launch);
  void emitRow(OpBuilder &b, Value row);
  void emitColumnsBody(OpBuilder &b, gpu::LaunchOp launch);
  SmallVector<Value> reduceAcrossBlock(OpBuilder &b, ArrayRef<Value> values);
  /// Σ over this thread's elements of the row: `update` folds element j
  /// into the accumulators.
  SmallVector<Value> sumOwnElements(
      OpBuilder &b, unsigned count,
      function_ref<SmallVector<Value>(OpBuilder &, Value j, ValueRange accs)>
          update);
  /// Calls `body` for each of this thread's elements of a row.
  void forOwnElements(OpBuilder &b, function_ref<void(OpBuilder &, Value j)>);
  Value load(OpBuilder &b, Value mem, ValueRange indices) {
    return toAcc(b, memref::LoadOp::create(b, loc, mem, indices));
  }
  void store(OpBuilder &b, Value v, Value mem, ValueRange indices) {
    memref::StoreOp::create(b, loc, narrow(b, v, elementTypeOf(mem)), mem,
                            indices);
  }
  bool hasColumnSums() const { return p.weightGrad || p.biasGrad; }

  const GradProblem &p;
  Value numChunks, partialWeightGrad, partialBiasGrad;
  // Inside the rows launch.
  Value thread, chunk, lane, warp, workgroup;
  Value row, rstd, shift, correction;
};

void GPUGradKernelEmitter::forOwnElements(
    OpBuilder &b, function_ref<void(OpBuilder &, Value j)> body) {
  scf::ForOp::create(b, loc, thread, p.n, index(b, kThreads), ValueRange{},
                     [&](OpBuilder &nb, Location, Value j, ValueRange) {
                       body(nb, j);
                       scf::YieldOp::create(nb, loc);
                     });
}

SmallVector<Value> GPUGradKernelEmitter::sumOwnElements(
    OpBuilder &b, unsigned count,
    function_ref<SmallVector<Value>(OpBuilder &, Value j, ValueRange accs)>
        update) {
  SmallVector<Value> init(count, accConst(b, 0.0));
  auto loop = scf::ForOp::create(
      b, loc, thread, p.n, index(b, kThreads), init,
      [&](OpBuilder &nb, Location, Value j, ValueRange accs) {
        scf::YieldOp::create(nb, loc, update(nb, j, accs));
      });
  return SmallVector<Value>(loop.getResults());
}

/// Every thread gets the block's totals. The barrier first: the previous
/// reduction's reads of the shared slots are done before they are
/// overwritten.
SmallVector<Value>
GPUGradKernelEmitter::reduceAcrossBlock(OpBuilder &b, ArrayRef<Value> values) {
  SmallVector<Value> sums(values.begin(), values.end());
  for (Value &v : sums)
    for (int64_t offset = NVIDIATargetInfo::kWarpSize / 2; offset >= 1;
         offset /= 2) {
      Value other =
          gpu::ShuffleOp::create(b, loc, v, offset, NVIDIATargetInfo::kWarpSize,
                                 gpu::ShuffleMode::XOR)
              .getShuffleResult();
      v = arith::AddFOp::create(b, loc, v, other);
    }
  gpu::BarrierOp::create(b, loc);
  Value isFirstLane = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                            lane, index(b, 0));
  auto slot = [&](OpBuilder &nb, Value w, int64_t i) {
    return addC(nb, mulC(nb, w, kMaxReduced), i);
  };
  scf::IfOp::create(b, loc, isFirstLane, [&](OpBuilder &nb, Location) {
    for (auto [i, v] : llvm::enumerate(sums))
      memref::StoreOp::create(nb, loc, v, workgroup,
                              ValueRange{slot(nb, warp, i)});
    scf::YieldOp::create(nb, loc);
  });
  gpu::BarrierOp::create(b, loc);
  SmallVector<Value> totals;
  for (unsigned i = 0; i < sums.size(); ++i) {
    Value total;
    for (int64_t w = 0; w < kWarps; ++w) {
      Value part = memref::LoadOp::create(b, loc, workgroup,
                                          ValueRange{slot(b, index(b, w), i)});
      total = total ? Value(arith::AddFOp::create(b, loc, total, part)) : part;
    }
    totals.push_back(total);
  }
  return totals;
}

void GPUGradKernelEmitter::emitRow(OpBuilder &b, Value rowIndex) {
  row = rowIndex;
  Value nAsAcc = indexToAcc(b, p.n);
  shift = accConst(b, 0.0);
  correction = accConst(b, 0.0);
  if (p.rstd) {
    rstd = load(b, p.rstd, {row});
    if (p.mean)
      shift = load(b, p.mean, {row});
  } else if (!p.isLayerNorm) {
    Value sumSquares = reduceAcrossBlock(
        b, sumOwnElements(b, 1, [&](OpBuilder &nb, Value j, ValueRange accs) {
          Value v = load(nb, p.x, {row, j});
          return SmallVector<Value>{arith::AddFOp::create(
              nb, loc, accs[0], arith::MulFOp::create(nb, loc, v, v))};
        }))[0];
    rstd = createReciprocalStd(
        b, loc, arith::DivFOp::create(b, loc, sumSquares, nAsAcc), p.epsMode,
        p.epsilon);
  } else {
    Value sum = reduceAcrossBlock(
        b, sumOwnElements(b, 1, [&](OpBuilder &nb, Value j, ValueRange accs) {
          return SmallVector<Value>{
              arith::AddFOp::create(nb, loc, accs[0], load(nb, p.x, {row, j}))};
        }))[0];
    shift = arith::DivFOp::create(b, loc, sum, nAsAcc);
    SmallVector<Value> moments = reduceAcrossBlock(
        b, sumOwnElements(b, 2, [&](OpBuilder &nb, Value j, ValueRange accs) {
          Value d =
              arith::SubFOp::create(nb, loc, load(nb, p.x, {row, j}), shift);
          return SmallVector<Value>{
              arith::AddFOp::create(nb, loc, accs[0], d),
              arith::AddFOp::create(nb, loc, accs[1],
                                    arith::MulFOp::create(nb, loc, d, d))};
        }));
    Value variance = emitCorrectedVariance(b, loc, moments[0], moments[1],
                                           nAsAcc, correction);
    rstd = createReciprocalStd(b, loc, variance, p.epsMode, p.epsilon);
  }

  auto normalizedInput = [&](OpBuilder &nb, Value j) -> Value {
    Value v = load(nb, p.x, {row, j});
    if (p.isLayerNorm)
      v = arith::SubFOp::create(
          nb, loc, arith::SubFOp::create(nb, loc, v, shift), correction);
    return arith::MulFOp::create(nb, loc, v, rstd);
  };
  auto gradOfNormalized = [&](OpBuilder &nb, Value j) -> Value {
    Value dy = load(nb, p.dy, {row, j});
    if (!p.weight && p.weightOffset == 0.0)
      return dy;
    Value gain = p.weight ? load(nb, p.weight, {j}) : accConst(nb, 1.0);
    if (p.weightOffset != 0.0)
      gain = arith::AddFOp::create(nb, loc, gain, accConst(nb, p.weightOffset));
    return arith::MulFOp::create(nb, loc, dy, gain);
  };

  // dx = rstd · (dŷ − B − C · x̂), as GradKernel.cpp.
  Value meanDyHat, coefficient;
  if (p.dx) {
    SmallVector<Value> sums = reduceAcrossBlock(
        b, sumOwnElements(b, p.isLayerNorm ? 2 : 1,
                          [&](OpBuilder &nb, Value j, ValueRange accs) {
                            Value dyHat = gradOfNormalized(nb, j);
                            SmallVector<Value> next{arith::AddFOp::create(
                                nb, loc, accs[0],
                                arith::MulFOp::create(nb, loc, dyHat,
                                                      normalizedInput(nb, j)))};
                            if (p.isLayerNorm)
                              next.push_back(arith::AddFOp::create(
                                  nb, loc, accs[1], dyHat));
                            return next;
                          }));
    coefficient = arith::DivFOp::create(b, loc, sums[0], nAsAcc);
    if (p.epsMode == EpsMode::outside_sqrt) {
      Value inverse = arith::DivFOp::create(b, loc, accConst(b, 1.0), rstd);
      Value sigma =
          arith::SubFOp::create(b, loc, inverse, accConst(b, p.epsilon));
      coefficient = arith::MulFOp::create(
          b, loc, coefficient, arith::DivFOp::create(b, loc, inverse, sigma));
    }
    if (p.isLayerNorm)
      meanDyHat = arith::DivFOp::create(b, loc, sums[1], nAsAcc);
  }
  forOwnElements(b, [&](OpBuilder &nb, Value j) {
    Value xHat = normalizedInput(nb, j);
    if (p.dx) {
      Value inner = gradOfNormalized(nb, j);
      if (meanDyHat)
        inner = arith::SubFOp::create(nb, loc, inner, meanDyHat);
      inner = arith::SubFOp::create(
          nb, loc, inner, arith::MulFOp::create(nb, loc, coefficient, xHat));
      Value dx = arith::MulFOp::create(nb, loc, rstd, inner);
      if (p.sumGrad)
        dx = arith::AddFOp::create(nb, loc, dx, load(nb, p.sumGrad, {row, j}));
      store(nb, dx, p.dx, {row, j});
    }
    if (!hasColumnSums())
      return;
    Value dy = load(nb, p.dy, {row, j});
    if (partialWeightGrad) {
      Value sum = memref::LoadOp::create(nb, loc, partialWeightGrad,
                                         ValueRange{chunk, j});
      Value next = arith::AddFOp::create(
          nb, loc, sum, arith::MulFOp::create(nb, loc, dy, xHat));
      memref::StoreOp::create(nb, loc, next, partialWeightGrad,
                              ValueRange{chunk, j});
    }
    if (partialBiasGrad) {
      Value sum = memref::LoadOp::create(nb, loc, partialBiasGrad,
                                         ValueRange{chunk, j});
      memref::StoreOp::create(nb, loc, arith::AddFOp::create(nb, loc, sum, dy),
                              partialBiasGrad, ValueRange{chunk, j});
    }
  });
}

void GPUGradKernelEmitter::emitRowsBody(OpBuilder &b, gpu::LaunchOp launch) {
  thread = launch.getThreadIds().x;
  chunk = launch.getBlockIds().x;
  workgroup = launch.getWorkgroupAttributions().front();
  Value warpSize = index(b, NVIDIATargetInfo::kWarpSize);
  lane = arith::RemUIOp::create(b, loc, thread, warpSize);
  warp = arith::DivUIOp::create(b, loc, thread, warpSize);
  // The chunk's partials start at zero: each thread zeroes the columns it
  // will add into, so no barrier is needed.
  for (Value partial : {partialWeightGrad, partialBiasGrad})
    if (partial)
      forOwnElements(b, [&](OpBuilder &nb, Value j) {
        memref::StoreOp::create(nb, loc, accConst(nb, 0.0), partial,
                                ValueRange{chunk, j});
      });
  Value first =
      arith::DivUIOp::create(b, loc, mul(b, chunk, p.rows), numChunks);
  Value end = arith::DivUIOp::create(b, loc, mul(b, addC(b, chunk, 1), p.rows),
                                     numChunks);
  // Every thread of the block runs the same rows: the barriers of the
  // reductions are reached by all.
  scf::ForOp::create(b, loc, first, end, index(b, 1), ValueRange{},
                     [&](OpBuilder &lb, Location, Value r, ValueRange) {
                       emitRow(lb, r);
                       scf::YieldOp::create(lb, loc);
                     });
}

void GPUGradKernelEmitter::emitColumnsBody(OpBuilder &b, gpu::LaunchOp launch) {
  Value column = add(b, mulC(b, launch.getBlockIds().x, kThreads),
                     launch.getThreadIds().x);
  Value inRange = ult(b, column, p.n);
  scf::IfOp::create(b, loc, inRange, [&](OpBuilder &nb, Location) {
    for (auto pair : {std::pair{partialWeightGrad, p.weightGrad},
                      std::pair{partialBiasGrad, p.biasGrad}}) {
      Value partial = pair.first, result = pair.second;
      if (!partial)
        continue;
      auto total = scf::ForOp::create(
          nb, loc, index(nb, 0), numChunks, index(nb, 1),
          ValueRange{accConst(nb, 0.0)},
          [&](OpBuilder &lb, Location, Value c, ValueRange acc) {
            Value part =
                memref::LoadOp::create(lb, loc, partial, ValueRange{c, column});
            scf::YieldOp::create(
                lb, loc,
                ValueRange{arith::AddFOp::create(lb, loc, acc[0], part)});
          });
      store(nb, total.getResult(0), result, {column});
    }
    scf::YieldOp::create(nb, loc);
  });
}

void GPUGradKernelEmitter::emit(OpBuilder &b) {
  Value one = index(b, 1);
  // At least one chunk, so that the grid is never empty: with no rows, the
  // chunk zeroes its partials and dγ (dβ) come out zero.
  Value byWork = arith::CeilDivUIOp::create(b, loc, mul(b, p.rows, p.n),
                                            index(b, kMinChunkElements));
  numChunks = arith::MaxUIOp::create(
      b, loc, one,
      minIndex(b, minIndex(b, p.rows, byWork), index(b, kMaxChunks)));
  auto allocPartial = [&](Value result) -> Value {
    if (!result)
      return Value();
    return createDeviceAlloc(
        b, loc,
        MemRefType::get({ShapedType::kDynamic, ShapedType::kDynamic}, acc),
        {numChunks, p.n});
  };
  partialWeightGrad = allocPartial(p.weightGrad);
  partialBiasGrad = allocPartial(p.biasGrad);

  auto launch = [&](Value grid, ArrayRef<Type> workgroupTypes,
                    function_ref<void(OpBuilder &, gpu::LaunchOp)> body) {
    auto op = gpu::LaunchOp::create(
        b, loc, grid, one, one, index(b, kThreads), one, one,
        /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
        /*asyncDependencies=*/{}, workgroupTypes);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&op.getBody().front());
    body(b, op);
    gpu::TerminatorOp::create(b, loc);
  };
  Type shared = MemRefType::get(
      {kWarps * kMaxReduced}, acc, MemRefLayoutAttrInterface(),
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup));
  launch(numChunks, {shared},
         [&](OpBuilder &nb, gpu::LaunchOp op) { emitRowsBody(nb, op); });
  if (hasColumnSums()) {
    Value columnBlocks =
        arith::CeilDivUIOp::create(b, loc, p.n, index(b, kThreads));
    launch(columnBlocks, {},
           [&](OpBuilder &nb, gpu::LaunchOp op) { emitColumnsBody(nb, op); });
  }
  for (Value partial : {partialWeightGrad, partialBiasGrad})
    if (partial)
      createDeviceDealloc(b, loc, partial);
}

} // namespace

void mlir::norm::emitGPUGradKernel(OpBuilder &b, Location loc,
                                   const GradProblem &problem) {
  // An empty grid is not a valid launch: nothing to compute without columns
  // (the rows launch has at least one block, see emit).
  Value nonEmpty =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, problem.n,
                            arith::ConstantIndexOp::create(b, loc, 0));
  scf::IfOp::create(b, loc, nonEmpty, [&](OpBuilder &nb, Location) {
    GPUGradKernelEmitter(loc, problem).emit(nb);
    scf::YieldOp::create(nb, loc);
  });
}
