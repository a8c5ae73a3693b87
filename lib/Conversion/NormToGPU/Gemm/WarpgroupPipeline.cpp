//===- WarpgroupPipeline.cpp - the warp-specialized sm_90a GEMM loop ------===//
//
// The pipelined schedule of the warpgroup-MMA GEMM (WarpgroupGemm.h): the
// K loop of a block of BM / 64 consumer warpgroups (threads [0, BM·2)) and
// one producer warp after them, sharing S stages of shared memory through
// two mbarriers a stage (PTX ISA, "mbarrier"; CUTLASS's PipelineTmaAsync):
//
//   full[s]  (count 1): the producer's arrive.expect_tx of the stage's
//            bytes, completed by the TMA loads' transactions; K tile kt
//            completes phase kt / S of full[kt % S];
//   empty[s] (count 2·BM, one arrival from each consumer thread): the
//            consumers are done with the stage; the release of K tile kt
//            completes phase kt / S of empty[kt % S]. Each thread arrives
//            after its own reads of the stage (the wgmma it issued, waited
//            for, and its RMSNorm loads), so the release orders them all
//            without assuming anything of the lanes of a warp;
//
//   producer (lane 0 of the producer warp): for each K tile kt, wait on
//            empty[kt % S] with parity (kt / S + 1) % 2, the phase of the
//            release of tile kt − S (for kt < S the parity of the phase
//            before the barrier's first, which try_wait.parity counts as
//            complete), then arrive.expect_tx on full[kt % S] and issue
//            the tile's TMA loads; it runs up to S tiles ahead;
//   consumer warpgroup g: for each K tile kt, wait on full[kt % S] with
//            parity (kt / S) % 2, the RMSNorm statistics of the thread's
//            half row (two threads a row of the BM-row A tile), wgmma.fence
//            and four m64nBNk16 MMAs on A rows [64g, 64g + 64) (the
//            descriptor 8 KiB further per warpgroup) and the whole W tile,
//            commit, then wgmma.wait_group 1: tile kt's MMAs stay in flight
//            while the next tile's are issued, and tile kt − 1's have
//            retired, so the thread releases the stage of tile kt − 1 with
//            an arrive on its empty barrier.
//            Successive wgmma on the same accumulator registers need no
//            wait between them (PTX ISA, "wgmma.fence"). After the loop,
//            wait_group 0.
//
// With wgmma-scale-d0 (WarpgroupGemmSchedule::scaleDZero) the consumers
// peel K tile 0 and its first MMA has scale-d 0 (D = A·B, the accumulators'
// input ignored), so they start as poison instead of 0: with zeroing moves
// in the divergent consumer and producer paths, ptxas (CUDA 13) serialized
// every wgmma of the linalg.matmul kernels (C7520, "compiler-inserted WG.AR
// in divergent path"). This is CUTLASS's way (ScaleOut::Zero on the first
// k block).
//
// The accumulators leave the loop through the consumer/producer scf.if
// (the producer yields zeros, or poison), so nothing reads them before
// wait_group 0.
// Every thread of the block then runs the shared epilogue, whose shuffle
// and barrier the producer warp joins; only consumers store C. Every
// TMA load is waited for by the consumers, so none is in flight at exit.
//
// Everything the serial schedule computes, this one does too: RMSNorm and
// LayerNorm statistics, γ, β and weight offset, the residual prologue (R's
// tile in each stage, S written by the first column of blocks), bias, C's
// residual, K×N and N×K W, tails in M, N and K (TMA zero fill; a K tile's
// expect_tx counts the whole boxes, zeros included).
//
// γ / weight offset: after the full-barrier wait each consumer thread
// rewrites its half row of tile kt's A tile in place (WarpgroupPrologue:
// a = round(x·γ'), then fence.proxy.async.shared::cta), and warpgroup g's
// 128 threads meet at named barrier 1 + g (bar.sync 1 + g, 128) before
// wgmma.fence: g's MMAs read A rows [64g, 64g + 64), all rewritten by g's
// own threads, so neither the producer warp nor the other warpgroup takes
// part. This is safe while MMAs are in flight: the rewrite writes only the
// stage of tile kt, and the only MMAs that may still read shared memory
// are those of tile kt − 1 (wait_group 1 retired everything older), in
// stage (kt − 1) % S ≠ kt % S; another warpgroup's MMAs on stage kt % S
// would be of tile kt − S, whose release (after their retirement) the
// producer waited for before loading tile kt. The statistics read stage
// kt % S likewise. The stage's next TMA write (tile kt + S) is ordered
// after the rewrite by the fence, this thread's release arrive on the
// empty barrier and the producer's wait on it.
//
//===----------------------------------------------------------------------===//

#include "WarpgroupGemm.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::norm;
using namespace mlir::norm::wgmma;

SmallVector<Value> WarpgroupGemmKernel::emitPipelinedLoop(OpBuilder &b) {
  Value zero = index(b, 0);
  int64_t consumerThreads = consumers() * kWarpgroup;
  Value isConsumer = ult(b, tid, index(b, consumerThreads));
  Value zeroAcc = LLVM::ZeroOp::create(b, loc, accType);
  SmallVector<Type> resultTypes{accType};
  resultTypes.append(numCarried(), b.getF32Type());
  // The parity of phase kt / S of a stage's barrier.
  auto phaseParity = [&](OpBuilder &b, Value kt) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                 remC(b, divC(b, kt, stages), 2), zero)
        .getResult();
  };
  Value ticks = index(b, 10000000);
  // normalizesA: the rows' statistics first (every thread: the shuffles; on
  // the GPU the producer warp's own are its alone, and it goes on to load
  // the first stages while the consumers sum).
  if (normalizesA())
    normalizeRows(b);
  auto branch = scf::IfOp::create(b, loc, resultTypes, isConsumer,
                                  /*withElseRegion=*/true);

  OpBuilder cb = branch.getThenBodyBuilder();
  Value warpgroup = divC(cb, tid, kWarpgroup);
  // The block's i-th K tile kt (tile i, or a split-K slice's first + i;
  // stages and phases count i): its stage's data, the statistics, its MMAs
  // (LayerNorm: the column sums while they run), and wait_group 1 (the
  // previous tile's MMAs retired). Returns the accumulators, then the
  // carried values.
  auto consume = [&](OpBuilder &lb, Value i, Value acc, ValueRange carried,
                     bool accumulate) -> SmallVector<Value> {
    Value kt = tileOf(lb, i);
    Value stage = remC(lb, i, stages);
    nvgpu::MBarrierTryWaitParityOp::create(lb, loc, barriers,
                                           phaseParity(lb, i), ticks, stage);
    Value stageOff = stageOffset(lb, stage);
    SmallVector<Value> next =
        hasPrologue() ? prologue(lb, stageOff, kt, warpgroup, carried)
                      : SmallVector<Value>(carried);
    acc = issueTile(lb, stageOff, warpgroup, acc, accumulate);
    next = columnSums(lb, stageOff, kt, next);
    NVVM::WgmmaWaitGroupSyncOp::create(lb, loc, 1);
    next.insert(next.begin(), acc);
    return next;
  };
  // The thread is done with the stage of the block's tile i − 1.
  auto release = [&](OpBuilder &b, Value i) {
    Value previous = remC(b, sub(b, i, one), stages);
    nvgpu::MBarrierArriveOp::create(
        b, loc, nvgpu::MBarrierTokenType::get(b.getContext()), barriers,
        addC(b, previous, stages));
  };
  // scaleDZero: the block's first tile peeled (a split-K slice has one),
  // its first MMA with scale-d 0, so the accumulators start as poison and
  // no instruction but wgmma writes them. LayerNorm's pivot from K tile 0,
  // before any of its MMAs.
  SmallVector<Value> init{zeroAcc};
  llvm::append_range(init, initialCarried(cb, warpgroup));
  Value first = zero;
  if (schedule.scaleDZero) {
    init = consume(cb, zero, LLVM::PoisonOp::create(cb, loc, accType),
                   ArrayRef<Value>(init).drop_front(), /*accumulate=*/false);
    first = one;
  }
  auto loop = scf::ForOp::create(
      cb, loc, first, tileCount, one, init,
      [&](OpBuilder &lb, Location, Value i, ValueRange iter) {
        SmallVector<Value> next =
            consume(lb, i, iter[0], iter.drop_front(), true);
        if (schedule.scaleDZero) {
          release(lb, i);
        } else {
          scf::IfOp::create(lb, loc,
                            arith::CmpIOp::create(
                                lb, loc, arith::CmpIPredicate::ugt, i, zero),
                            [&](OpBuilder &tb, Location) {
                              release(tb, i);
                              scf::YieldOp::create(tb, loc);
                            });
        }
        scf::YieldOp::create(lb, loc, next);
      });
  NVVM::WgmmaWaitGroupSyncOp::create(cb, loc, 0);
  scf::YieldOp::create(cb, loc, loop.getResults());

  OpBuilder pb = branch.getElseBodyBuilder();
  Value isProducer = arith::CmpIOp::create(pb, loc, arith::CmpIPredicate::eq,
                                           tid, index(pb, consumerThreads));
  scf::IfOp::create(pb, loc, isProducer, [&](OpBuilder &ib, Location) {
    scf::ForOp::create(ib, loc, zero, tileCount, one, ValueRange{},
                       [&](OpBuilder &lb, Location, Value i, ValueRange) {
                         Value stage = remC(lb, i, stages);
                         Value previousPhase = arith::XOrIOp::create(
                             lb, loc, phaseParity(lb, i),
                             arith::ConstantIntOp::create(lb, loc, 1, 1));
                         nvgpu::MBarrierTryWaitParityOp::create(
                             lb, loc, barriers, previousPhase, ticks,
                             addC(lb, stage, stages));
                         loadTile(lb, tileOf(lb, i), stage, stage);
                         scf::YieldOp::create(lb, loc);
                       });
    scf::YieldOp::create(ib, loc);
  });
  // Nothing reads the producer's accumulators (only consumers store C).
  Value producerAcc = schedule.scaleDZero
                          ? LLVM::PoisonOp::create(pb, loc, accType).getResult()
                          : zeroAcc;
  SmallVector<Value> producerResults{producerAcc};
  producerResults.append(numCarried(), f32(pb, 0.0));
  scf::YieldOp::create(pb, loc, producerResults);
  return branch.getResults();
}
