//===- GPURowKernel.cpp - GPU row kernels for the norm ops ----------------===//
//
// Writes one gpu.launch computing a standalone norm over rows of n contiguous
// elements (in a strided view the rows are its row stride apart; the kernel
// indexes the 2-D view, whose descriptor carries the stride into the
// kernel):
//
//   grid  = ⌈rows / R⌉ blocks of (T, R) threads; thread (t, y) of block b
//           works on row b·R + y (clamped to the last row, with its stores
//           switched off, so that every thread reaches every barrier);
//   chunk = V contiguous elements, one 16-byte vector access (V = 16 bytes /
//           element size when the shape allows); thread t owns the chunks
//           t, t + T, t + 2T, ... of its row;
//   held  = with `heldChunks` > 0, the thread loads all its chunks once and
//           keeps them in registers for every later sweep (converted to the
//           accumulation type); otherwise each sweep is a loop that re-reads
//           the row (from L1/L2);
//   rope  = with a rotary embedding, a thread's chunks come in groups that
//           hold every element's partner, so that no value crosses threads:
//           rotate_half pairs chunk g of the first half with chunk g of the
//           second (the thread owns groups t, t + T, ... of the n / 2V), and
//           interleaved pairs lanes 2i, 2i + 1 of one chunk (V even) or,
//           with scalar accesses, the chunks 2g and 2g + 1;
//   reduce: each thread sums its chunks into V lane accumulators per
//           statistic, then the row's threads combine them: a butterfly of
//           gpu.shuffle xor within each warp, then, when a row spans
//           several warps, one value per warp through shared memory (summed
//           by every thread in the same order, so all threads agree
//           bit-for-bit); per-group quantization scales reduce each group's
//           amax the same way over the threads that hold the group (a run
//           of lanes, or of warps: GPUQuantGroupLayout).
//
// Numerics follow the CPU kernel (NormToVector/RowKernel.cpp): every value is
// converted to acc_type before any arithmetic; the residual sum and, with
// cast_mode = before_weight, every intermediate after the cast are rounded to
// the element type as extf(truncf(v)). LayerNorm is two-pass on the held
// (or re-read) row: the mean m = Σs/n, then Σd and Σd² over d = s − m, the
// variance being the corrected two-pass Σd²/n − (Σd/n)² (never E[x²] − E[x]²).
//
// The emitter's class is declared in GPURowKernelEmitter.h; the sweeps of a
// quantized y with dynamic scales live in GPURowKernelQuantized.cpp.
//
//===----------------------------------------------------------------------===//

#include "GPURowKernelEmitter.h"

#include "norm/Dialect/Norm/IR/NormNumerics.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::norm;

namespace mlir {
namespace norm {
namespace gpurow {

SmallVector<Value> GPURowKernelEmitter::loadChunk(OpBuilder &b, Value mem,
                                                  Value chunk, Value atRow) {
  SmallVector<Value> indices = rowIndices(b, mem, chunk, atRow);
  SmallVector<Value> values;
  if (shape.vectorWidth == 1) {
    values.push_back(toAcc(b, memref::LoadOp::create(b, loc, mem, indices)));
    return values;
  }
  auto vecType = VectorType::get({shape.vectorWidth}, elementTypeOf(mem));
  Value vec = vector::LoadOp::create(b, loc, vecType, mem, indices,
                                     /*nontemporal=*/false,
                                     llvm::MaybeAlign(vectorBytes(mem)));
  for (int64_t l = 0; l < shape.vectorWidth; ++l)
    values.push_back(toAcc(b, vector::ExtractOp::create(b, loc, vec, l)));
  return values;
}

void GPURowKernelEmitter::storeChunk(OpBuilder &b, ArrayRef<Value> values,
                                     Value mem, Value chunk) {
  Type elementType = elementTypeOf(mem);
  SmallVector<Value> narrowed;
  for (Value v : values)
    narrowed.push_back(narrow(b, v, elementType));
  SmallVector<Value> indices = rowIndices(b, mem, chunk, Value());
  if (shape.vectorWidth == 1) {
    memref::StoreOp::create(b, loc, narrowed[0], mem, indices);
    return;
  }
  auto vecType = VectorType::get({shape.vectorWidth}, elementType);
  Value vec = vector::FromElementsOp::create(b, loc, vecType, narrowed);
  vector::StoreOp::create(b, loc, vec, mem, indices, /*nontemporal=*/false,
                          llvm::MaybeAlign(vectorBytes(mem)));
}

/// s = x (+ residual, rounded to the element type) for one chunk.
SmallVector<Value> GPURowKernelEmitter::inputChunk(OpBuilder &b, Value chunk) {
  SmallVector<Value> s = loadChunk(b, p.x, chunk);
  if (!p.residual)
    return s;
  SmallVector<Value> r = loadChunk(b, p.residual, chunk);
  for (auto [sv, rv] : llvm::zip(s, r))
    sv =
        roundThrough(b, arith::AddFOp::create(b, loc, sv, rv), p.elementType());
  return s;
}

/// Loads all of the thread's chunks up front (independent loads in flight
/// together); chunks past the row's end read as zeros.
void GPURowKernelEmitter::loadHeldRow(OpBuilder &b) {
  for (int64_t c = 0; c < shape.heldChunks; ++c) {
    Value chunk = chunkOf(b, c);
    if (chunkAlwaysValid(c)) {
      held.push_back(inputChunk(b, chunk));
      heldValid.push_back(Value());
      continue;
    }
    Value valid = groupValid(b, chunksPerGroup == 1 ? chunk : heldGroup(b, c));
    auto ifOp = scf::IfOp::create(
        b, loc, valid,
        [&](OpBuilder &nb, Location) {
          scf::YieldOp::create(nb, loc, inputChunk(nb, chunk));
        },
        [&](OpBuilder &nb, Location) {
          SmallVector<Value> zeros(shape.vectorWidth, accConst(nb, 0.0));
          scf::YieldOp::create(nb, loc, zeros);
        });
    held.push_back(SmallVector<Value>(ifOp.getResults()));
    heldValid.push_back(valid);
  }
}

/// The thread's partial sums of `numStats` statistics over its chunks: up to
/// kLaneAccumulators independent add chains per statistic (element l of a
/// chunk goes to chain l mod kLaneAccumulators), summed at the end as a tree.
/// More chains would not add latency hiding (several warps share an SM
/// sub-partition) and cost registers: eight per statistic made ptxas spill
/// the f16 LayerNorm block kernel on sm_80.
SmallVector<Value> GPURowKernelEmitter::accumulate(OpBuilder &b,
                                                   unsigned numStats,
                                                   ElementStatFn step) {
  constexpr int64_t kLaneAccumulators = 4;
  int64_t lanes = std::min(shape.vectorWidth, kLaneAccumulators);
  auto chunkStep = [&](OpBuilder &nb, Value chunk, ArrayRef<Value> s,
                       ValueRange accs) {
    Value start = chunkStart(nb, chunk);
    SmallVector<Value> next(accs.begin(), accs.end());
    for (int64_t l = 0; l < shape.vectorWidth; ++l) {
      int64_t chain = l % lanes;
      SmallVector<Value> laneAccs;
      for (unsigned st = 0; st < numStats; ++st)
        laneAccs.push_back(next[st * lanes + chain]);
      SmallVector<Value> updated = step(nb, start, l, s[l], laneAccs);
      for (unsigned st = 0; st < numStats; ++st)
        next[st * lanes + chain] = updated[st];
    }
    return next;
  };

  SmallVector<Value> accs(numStats * lanes, accConst(b, 0.0));
  if (shape.heldChunks > 0) {
    for (int64_t c = 0; c < shape.heldChunks; ++c) {
      Value chunk = chunkOf(b, c);
      SmallVector<Value> next = chunkStep(b, chunk, held[c], accs);
      // A chunk past the row's end contributes nothing (its zeros would
      // still count in Σ(s − m)).
      if (heldValid[c])
        for (auto [n, o] : llvm::zip(next, accs))
          n = arith::SelectOp::create(b, loc, heldValid[c], n, o);
      accs = std::move(next);
    }
  } else {
    auto loop = scf::ForOp::create(
        b, loc, threadInRow, numChunks(b), index(b, shape.threadsPerRow),
        accs, [&](OpBuilder &nb, Location, Value chunk, ValueRange iterArgs) {
          scf::YieldOp::create(
              nb, loc, chunkStep(nb, chunk, inputChunk(nb, chunk), iterArgs));
        });
    accs = SmallVector<Value>(loop.getResults());
  }

  SmallVector<Value> partials;
  for (unsigned st = 0; st < numStats; ++st) {
    SmallVector<Value> parts(accs.begin() + st * lanes,
                             accs.begin() + (st + 1) * lanes);
    partials.push_back(sumTree(b, parts));
  }
  return partials;
}

/// Runs `fn` on each of the thread's groups of chunks (held or re-read),
/// only for real rows and groups inside the row.
void GPURowKernelEmitter::forEachGroup(OpBuilder &b, GroupFn fn) {
  scf::IfOp::create(b, loc, rowValid, [&](OpBuilder &nb, Location) {
    if (shape.heldChunks > 0) {
      for (int64_t g = 0; g < groupsPerThread(); ++g) {
        SmallVector<Value> chunks;
        SmallVector<SmallVector<Value>> s;
        for (int64_t part = 0; part < chunksPerGroup; ++part) {
          int64_t c = part * groupsPerThread() + g;
          chunks.push_back(chunkOf(nb, c));
          s.push_back(held[c]);
        }
        if (!heldValid[g]) {
          fn(nb, chunks, s);
          continue;
        }
        scf::IfOp::create(nb, loc, heldValid[g], [&](OpBuilder &ib, Location) {
          fn(ib, chunks, s);
          scf::YieldOp::create(ib, loc);
        });
      }
    } else {
      scf::ForOp::create(
          nb, loc, threadInRow, numGroups(nb), index(nb, shape.threadsPerRow),
          ValueRange{}, [&](OpBuilder &lb, Location, Value group, ValueRange) {
            SmallVector<Value> chunks;
            SmallVector<SmallVector<Value>> s;
            for (int64_t part = 0; part < chunksPerGroup; ++part) {
              chunks.push_back(chunkOfGroup(lb, group, part));
              s.push_back(inputChunk(lb, chunks.back()));
            }
            fn(lb, chunks, s);
            scf::YieldOp::create(lb, loc);
          });
    }
    scf::YieldOp::create(nb, loc);
  });
}

/// Sums each partial over the row's threads (with `maximum`, takes their
/// maximum, NaN-propagating); every thread gets the totals. `stage` picks
/// the shared-memory slots, so that the reductions of one kernel need no
/// barrier between them. With `span` (a power of two below the row's
/// threads), over each aligned run of `span` threads instead. `reused`:
/// the slots are written again later (in a loop), so a second barrier
/// keeps the next write after every thread's read.
SmallVector<Value>
GPURowKernelEmitter::reduceAcrossRow(OpBuilder &b, ArrayRef<Value> partials,
                                     unsigned stage, bool maximum, int64_t span,
                                     bool reused) {
  constexpr int64_t kWarpSize = NVIDIATargetInfo::kWarpSize;
  if (span == 0)
    span = shape.threadsPerRow;
  auto combine = [&](OpBuilder &nb, Value x, Value y) -> Value {
    if (maximum)
      return arith::MaximumFOp::create(nb, loc, x, y);
    return arith::AddFOp::create(nb, loc, x, y);
  };
  SmallVector<Value> values(partials.begin(), partials.end());
  // xor with offsets below the span stays in the span's lanes.
  for (Value &v : values)
    for (int64_t offset = std::min(span, kWarpSize) / 2; offset >= 1;
         offset /= 2) {
      Value other = gpu::ShuffleOp::create(b, loc, v, offset, kWarpSize,
                                           gpu::ShuffleMode::XOR)
                        .getShuffleResult();
      v = combine(b, v, other);
    }
  if (warpsPerRow == 1 || span <= kWarpSize)
    return values;

  // slot(w, i) = ((stage·R + y)·W + w)·K + i, K = slotsPerWarp
  auto slot = [&](OpBuilder &nb, Value w, unsigned i) -> Value {
    Value base = arith::AddIOp::create(
        nb, loc, index(nb, stage * shape.rowsPerBlock), rowInBlock);
    base = arith::MulIOp::create(nb, loc, base, index(nb, warpsPerRow));
    base = arith::AddIOp::create(nb, loc, base, w);
    base = arith::MulIOp::create(nb, loc, base, index(nb, slotsPerWarp));
    return arith::AddIOp::create(nb, loc, base, index(nb, i));
  };
  Value isFirstLane = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                            lane, index(b, 0));
  scf::IfOp::create(b, loc, isFirstLane, [&](OpBuilder &nb, Location) {
    for (auto [i, v] : llvm::enumerate(values))
      memref::StoreOp::create(nb, loc, v, workgroup,
                              ValueRange{slot(nb, warp, i)});
    scf::YieldOp::create(nb, loc);
  });
  gpu::BarrierOp::create(b, loc);
  // The span's warps: all of the row's, else this warp's aligned run.
  int64_t warpsPerSpan = span / kWarpSize;
  Value firstWarp;
  if (warpsPerSpan < warpsPerRow)
    firstWarp = sub(b, warp, remC(b, warp, warpsPerSpan));
  SmallVector<Value> totals;
  for (unsigned i = 0; i < values.size(); ++i) {
    Value total;
    for (int64_t w = 0; w < warpsPerSpan; ++w) {
      Value at = firstWarp ? addC(b, firstWarp, w) : index(b, w);
      Value part =
          memref::LoadOp::create(b, loc, workgroup, ValueRange{slot(b, at, i)});
      total = total ? combine(b, total, part) : part;
    }
    totals.push_back(total);
  }
  if (reused)
    gpu::BarrierOp::create(b, loc);
  return totals;
}

Value GPURowKernelEmitter::reciprocalStd(OpBuilder &b, Value statistic) {
  return createReciprocalStd(b, loc, statistic, p.epsMode, p.epsilon);
}

/// y of one chunk, unrounded; see RowKernel.cpp of the CPU kernel for the
/// rounding order, which this follows exactly.
SmallVector<Value>
GPURowKernelEmitter::normalizedChunk(OpBuilder &b, Value chunk,
                                     ArrayRef<Value> s, Value shift,
                                     Value correction, Value rstd) {
  bool scaled = p.weight || p.weightOffset != 0.0;
  bool roundEarly = p.castMode == CastMode::before_weight;
  auto round = [&](Value v) {
    return roundEarly ? roundThrough(b, v, p.weightType) : v;
  };
  SmallVector<Value> gamma, beta;
  auto params = [&](Value mem) {
    return p.channelLength ? loadChannelParams(b, mem, chunk)
                           : loadChunk(b, mem, chunk);
  };
  if (p.weight)
    gamma = params(p.weight);
  if (p.bias)
    beta = params(p.bias);
  SmallVector<Value> out;
  for (int64_t l = 0; l < shape.vectorWidth; ++l) {
    Value v = s[l];
    if (p.isLayerNorm)
      v = arith::SubFOp::create(b, loc, arith::SubFOp::create(b, loc, v, shift),
                                correction);
    v = arith::MulFOp::create(b, loc, v, rstd);
    if (roundEarly)
      v = roundThrough(b, v, p.elementType());
    if (scaled) {
      Value factor = p.weight ? gamma[l] : accConst(b, 1.0);
      if (p.weightOffset != 0.0)
        factor = round(
            arith::AddFOp::create(b, loc, factor, accConst(b, p.weightOffset)));
      v = round(arith::MulFOp::create(b, loc, v, factor));
    }
    if (p.bias) {
      v = arith::AddFOp::create(b, loc, v, beta[l]);
      if (p.weightType != elementTypeOf(p.y))
        v = round(v);
    }
    out.push_back(v);
  }
  return out;
}

/// y = v · cos + sign · v_partner · sin for one group of normalized chunks
/// `v` (acc type), rounded once as it is stored; the angles are the chunks'
/// of `angleRow`. Partners: lane l of two chunks (rotate_half; interleaved
/// with scalar accesses), else lanes 2i and 2i + 1 of the one chunk. The
/// first of a pair takes −sin. With `rope_rounding = each_step`, v, each
/// product and the sum round to y's type (through it and back).
void GPURowKernelEmitter::rotateGroup(OpBuilder &b, ArrayRef<Value> chunks,
                                      ArrayRef<SmallVector<Value>> v) {
  Type yType = elementTypeOf(p.y);
  auto step = [&](Value x) {
    return p.ropeEachStep ? roundThrough(b, x, yType) : x;
  };
  auto mul = [&](Value a, Value c) {
    return step(arith::MulFOp::create(b, loc, a, c));
  };
  SmallVector<SmallVector<Value>> cos, sin, y;
  for (Value chunk : chunks) {
    cos.push_back(loadChunk(b, p.cos, chunk, angleRow));
    sin.push_back(loadChunk(b, p.sin, chunk, angleRow));
    y.emplace_back(shape.vectorWidth);
  }
  auto rotate = [&](int64_t c1, int64_t l1, int64_t c2, int64_t l2) {
    Value v1 = step(v[c1][l1]), v2 = step(v[c2][l2]);
    y[c1][l1] = step(arith::SubFOp::create(b, loc, mul(v1, cos[c1][l1]),
                                           mul(v2, sin[c1][l1])));
    y[c2][l2] = step(arith::AddFOp::create(b, loc, mul(v2, cos[c2][l2]),
                                           mul(v1, sin[c2][l2])));
  };
  for (int64_t l = 0; l < shape.vectorWidth; ++l) {
    if (chunks.size() == 2)
      rotate(0, l, 1, l);
    else if (l % 2 == 0)
      rotate(0, l, 0, l + 1);
  }
  for (auto [chunk, values] : llvm::zip(chunks, y))
    storeChunk(b, values, p.y, chunk);
}

void GPURowKernelEmitter::emitBody(OpBuilder &b, gpu::LaunchOp launch) {
  threadInRow = launch.getThreadIds().x;
  rowInBlock = launch.getThreadIds().y;
  if (warpsPerRow > 1)
    workgroup = launch.getWorkgroupAttributions().front();
  Value warpSize = index(b, NVIDIATargetInfo::kWarpSize);
  lane = arith::RemUIOp::create(b, loc, threadInRow, warpSize);
  warp = arith::DivUIOp::create(b, loc, threadInRow, warpSize);
  Value unclamped = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, launch.getBlockIds().x,
                            index(b, shape.rowsPerBlock)),
      rowInBlock);
  rowValid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                   unclamped, p.rows);
  Value lastRow = arith::SubIOp::create(b, loc, p.rows, index(b, 1));
  row = arith::MinUIOp::create(b, loc, unclamped, lastRow);

  if (shape.heldChunks > 0)
    loadHeldRow(b);

  Value shift, correction, rstd;
  if (!p.isLayerNorm) {
    Value count = emitStatisticLength(b, loc, p);
    bool isPartial = p.partial < 1.0;
    SmallVector<Value> partial = accumulate(
        b, 1,
        [&](OpBuilder &nb, Value start, int64_t l, Value s, ValueRange accs) {
          Value square = arith::MulFOp::create(nb, loc, s, s);
          if (isPartial) {
            Value idx = arith::AddIOp::create(nb, loc, start, index(nb, l));
            Value inside = arith::CmpIOp::create(
                nb, loc, arith::CmpIPredicate::ult, idx, count);
            square = arith::SelectOp::create(nb, loc, inside, square,
                                             accConst(nb, 0.0));
          }
          return SmallVector<Value>{
              arith::AddFOp::create(nb, loc, accs[0], square)};
        });
    Value sumSquares = reduceAcrossRow(b, partial, /*stage=*/0)[0];
    Value countAsAcc = indexToAcc(b, count);
    rstd = reciprocalStd(b,
                         arith::DivFOp::create(b, loc, sumSquares, countAsAcc));
  } else {
    Value nAsAcc = indexToAcc(b, p.n);
    SmallVector<Value> sum = accumulate(
        b, 1, [&](OpBuilder &nb, Value, int64_t, Value s, ValueRange accs) {
          return SmallVector<Value>{arith::AddFOp::create(nb, loc, accs[0], s)};
        });
    shift = arith::DivFOp::create(b, loc, reduceAcrossRow(b, sum, 0)[0], nAsAcc);
    SmallVector<Value> moments = accumulate(
        b, 2, [&](OpBuilder &nb, Value, int64_t, Value s, ValueRange accs) {
          Value d = arith::SubFOp::create(nb, loc, s, shift);
          return SmallVector<Value>{
              arith::AddFOp::create(nb, loc, accs[0], d),
              math::FmaOp::create(nb, loc, d, d, accs[1])};
        });
    SmallVector<Value> totals = reduceAcrossRow(b, moments, /*stage=*/1);
    rstd = reciprocalStd(b, emitCorrectedVariance(b, loc, totals[0], totals[1],
                                                  nAsAcc, correction));
  }

  // One thread per row writes the statistics.
  if (p.rstd || p.mean) {
    Value first = firstThreadOfRow(b);
    scf::IfOp::create(b, loc, first, [&](OpBuilder &nb, Location) {
      if (p.rstd)
        memref::StoreOp::create(nb, loc, rstd, p.rstd, ValueRange{row});
      if (p.mean)
        memref::StoreOp::create(nb, loc,
                                arith::AddFOp::create(nb, loc, shift, correction),
                                p.mean, ValueRange{row});
      scf::YieldOp::create(nb, loc);
    });
  }

  if (quantized && quantized->groupSize()) {
    quantizeGroups(b, shift, correction, rstd);
    return;
  }
  Value inverseScale;
  if (quantized && quantized->isDynamic()) {
    inverseScale = quantized->dynamicInverseScale(
        b, rowAmax(b, shift, correction, rstd), row, firstThreadOfRow(b));
  } else if (quantized) {
    inverseScale = quantized->staticInverseScale(b);
  }
  if (p.cos)
    angleRow = arith::RemUIOp::create(
        b, loc, arith::DivUIOp::create(b, loc, row, p.ropeInnerRows),
        memref::DimOp::create(b, loc, p.cos, 0));
  forEachGroup(b, [&](OpBuilder &nb, ArrayRef<Value> chunks,
                      ArrayRef<SmallVector<Value>> s) {
    SmallVector<SmallVector<Value>> v;
    for (auto [chunk, values] : llvm::zip(chunks, s)) {
      if (p.sum)
        storeChunk(nb, values, p.sum, chunk);
      v.push_back(normalizedChunk(nb, chunk, values, shift, correction, rstd));
    }
    if (p.cos) {
      rotateGroup(nb, chunks, v);
      return;
    }
    // A quantized y has one chunk a group (no rotary embedding).
    SmallVector<Value> y = v[0];
    if (quantized)
      y = quantized->quantizeChunk(nb, y, inverseScale);
    storeChunk(nb, y, p.y, chunks[0]);
  });
}

void GPURowKernelEmitter::emit(OpBuilder &b) {
  Value one = index(b, 1);
  Value rowsPerBlock = index(b, shape.rowsPerBlock);
  Value grid = arith::CeilDivUIOp::create(b, loc, p.rows, rowsPerBlock);
  SmallVector<Type> workgroupTypes;
  // slotsPerWarp slots a warp for each reduction stage: the statistics'
  // two, and the dynamic scales' amax.
  int64_t stages = quantized && quantized->isDynamic() ? 3 : 2;
  if (warpsPerRow > 1)
    workgroupTypes.push_back(MemRefType::get(
        {slotsPerWarp * stages * shape.rowsPerBlock * warpsPerRow}, acc,
        MemRefLayoutAttrInterface(),
        gpu::AddressSpaceAttr::get(b.getContext(),
                                   gpu::AddressSpace::Workgroup)));
  auto launch = gpu::LaunchOp::create(
      b, loc, grid, one, one, index(b, shape.threadsPerRow), rowsPerBlock, one,
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{}, workgroupTypes);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&launch.getBody().front());
  emitBody(b, launch);
  gpu::TerminatorOp::create(b, loc);
}

} // namespace gpurow
} // namespace norm
} // namespace mlir

int64_t mlir::norm::gpuRowChunksPerGroup(const RowNormProblem &problem,
                                         int64_t vectorWidth) {
  if (!problem.cos || (problem.ropeInterleaved && vectorWidth > 1))
    return 1;
  return 2;
}

void mlir::norm::emitGPURowKernel(OpBuilder &b, Location loc,
                                  const RowNormProblem &problem,
                                  const GPURowKernelShape &shape) {
  gpurow::GPURowKernelEmitter(loc, problem, shape).emit(b);
}
