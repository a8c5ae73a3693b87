//===- EmulatedTeam.h - one GPU thread block as an OpenMP team --*- C++ -*-===//
//
// Test-only (test/lib): the state that --norm-test-emulate-gpu-on-cpu keeps
// while it rewrites the body of one gpu.launch, shared by the rewrites of the
// gpu ops (EmulateGPUOnCPU.cpp) and of the warp-level nvgpu ops
// (EmulateNVGPU.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef NORM_TEST_LIB_TRANSFORMS_EMULATEDTEAM_H
#define NORM_TEST_LIB_TRANSFORMS_EMULATEDTEAM_H

#include "mlir/IR/Builders.h"
#include "mlir/Support/LLVM.h"

#include "llvm/ADT/DenseMap.h"

#include <optional>

namespace mlir {
namespace norm {
namespace test {

/// One thread block run as an omp.parallel team, one OS thread per GPU
/// thread. Lanes exchange values through block-wide scratch buffers: each
/// thread writes its slots, one omp.barrier, each thread reads the slots it
/// needs. So an emulated warp operation needs every thread of the block to
/// reach it (the kernels here keep control flow uniform).
///
/// Every buffer has two halves, and successive exchanges (of any buffer)
/// alternate between them through a per-thread parity, so no barrier is
/// needed after the reads: a thread writes the same half again two
/// exchanges later, past the next exchange's barrier, which every thread
/// reaches only after its reads of this one.
class EmulatedTeam {
public:
  EmulatedTeam(Location loc, Operation *hostAnchor, Value numThreads)
      : loc(loc), hostAnchor(hostAnchor), numThreads(numThreads) {}

  /// Sets the thread's linear id in the block (x fastest, as CUDA numbers
  /// the lanes of a warp) and creates its exchange parity, at the start of
  /// the team's region.
  void enter(OpBuilder &b, Value threadId);
  Value tid;

  /// Starts an exchange of `slotsPerThread` values of `type` per thread:
  /// the buffer (allocated before the launch's loops, freed after them) and
  /// the index of slot 0 of thread 0 in this exchange's half. Thread t's
  /// slots are base + t·slotsPerThread + i. Flips the parity.
  std::pair<Value, Value> beginExchange(OpBuilder &b, Type type,
                                        int64_t slotsPerThread);

  /// The buffers to free after the launch.
  ArrayRef<Value> allocations() const { return buffers; }

  /// tid % 32 and tid − tid % 32 (the warp's first thread).
  std::pair<Value, Value> laneAndWarpBase(OpBuilder &b);

  /// The block's dynamic shared memory (a host i8 buffer), or null.
  Value sharedMemory;

  /// The thread's queue of cp.async copies not yet landed (EmulateNVGPU.cpp),
  /// on its stack, created on first use: up to kGroups committed groups of
  /// kCopies 16-byte copies into `sharedMemory`, as byte offsets and data.
  struct AsyncCopyQueue {
    static constexpr int64_t kGroups = 4;
    static constexpr int64_t kCopies = 32;
    Value offsets;   // memref<kGroups x kCopies x index>
    Value bytes;     // memref<kGroups x kCopies x 16 x i8>
    Value counts;    // memref<kGroups x index>
    Value committed; // memref<index>: groups committed so far
    Value landed;    // memref<index>: groups written to shared memory
  };
  const AsyncCopyQueue &asyncCopyQueue();

  /// A buffer of `type` on the thread's stack, allocated once at the start
  /// of the team's region (not where it is asked for, which may be a loop).
  Value threadLocalBuffer(MemRefType type);

  /// The host address (index) of barrier `id` of the group made by an
  /// nvgpu.mbarrier.create of the launch (EmulateTMA.cpp): 8 bytes of a
  /// buffer allocated before the launch's loops, one per create op.
  Value barrierAddress(OpBuilder &b, Value group, Value id);

  /// The host address (index) of named barrier `id` (i32, 0–15) of the
  /// block (bar.sync id, count; EmulateGPUOnCPU.cpp): 8 bytes of a buffer
  /// of 16 allocated before the launch's loops.
  Value namedBarrierAddress(OpBuilder &b, Value id);

  Location loc;

private:
  Operation *hostAnchor;
  Value numThreads;
  Value parity; // memref<index> on the thread's stack: 0 or 1
  /// Per-thread allocations go after this op (the start of the region).
  Operation *threadSetupEnd = nullptr;
  std::optional<AsyncCopyQueue> copyQueue;
  llvm::DenseMap<std::pair<Type, int64_t>, Value> scratchBuffers;
  llvm::DenseMap<Operation *, Value> barrierBuffers;
  Value namedBarriers;
  SmallVector<Value> buffers;
};

/// Calls `name(args...)` (index arguments passed as i64, no results),
/// declaring it in `at`'s module on first use: an entry of the test runtime
/// (test/lib/Runtime).
void callRuntime(OpBuilder &b, Location loc, Operation *at, StringRef name,
                 ArrayRef<Value> args);

/// Rewrites one nvgpu op of the team's body (cp.async and its groups,
/// ldmatrix, mma.sync m16n8k16 on f16/bf16) into CPU code. Returns failure,
/// with an error at the op, for a form that is not emulated.
LogicalResult emulateNVGPUOp(Operation *op, EmulatedTeam &team);

/// Rewrites one sm_90 async-proxy op of the team's body (mbarriers, TMA
/// loads) into calls of the test runtime (EmulateTMA.cpp). Returns failure,
/// with an error at the op, for a form or an op that is not emulated.
LogicalResult emulateTMAOp(Operation *op, EmulatedTeam &team);

/// Rewrites one NVVM warpgroup MMA op of the team's body (wgmma.mma_async
/// from shared-memory descriptors, and its fence and groups) into CPU code
/// (EmulateWGMMA.cpp). Returns failure, with an error at the op, for a form
/// that is not emulated.
LogicalResult emulateWGMMAOp(Operation *op, EmulatedTeam &team);

} // namespace test
} // namespace norm
} // namespace mlir

#endif // NORM_TEST_LIB_TRANSFORMS_EMULATEDTEAM_H
