//===- EmulateGPUOnCPU.cpp - run gpu.launch kernels on CPU threads --------===//
//
// Test-only: --norm-test-emulate-gpu-on-cpu runs the kernels that
// --convert-norm-to-gpu emits on the host, so that the suite executes their
// index arithmetic, shared-memory staging, barriers, warp shuffles and
// tensor-core fragment mappings on machines without a GPU (docs/testing.md).
// It is not a simulator of timing or of memory ordering: it checks what a
// kernel computes, given that its barriers are where they must be.
//
//   gpu.launch  → scf.for over the grid (z, y, x), each block an omp.parallel
//                 team of blockDim.x·y·z OS threads (libomp), thread id =
//                 omp_get_thread_num() (x fastest, as CUDA numbers lanes);
//                 workgroup attributions and dynamic shared memory become
//                 host allocations made before the loops and freed after;
//   gpu.thread_id / block_id / block_dim / grid_dim / lane_id → the same
//                 values as the launch's block arguments;
//   gpu.barrier → omp.barrier;
//   nvvm.barrier id, number_of_threads (bar.sync id, count: a barrier of
//                 some of the block's threads, e.g. the consumer warpgroups
//                 of the pipelined wgmma GEMM) → norm_emu_named_barrier of
//                 the test runtime (EmulatedAsyncProxy.cpp), which releases
//                 the threads once `count` have arrived; without a count,
//                 omp.barrier;
//   gpu.shuffle → a store to a block-wide scratch slot, a barrier, a load of
//                 the source lane's slot (so every thread of the block must
//                 reach it: the kernels keep control flow uniform;
//                 EmulatedTeam.h says why one barrier is enough);
//   llvm.inline_asm "mov.b32 $0, $1;" (a PTX register move) → its operand;
//   nvvm.convert.f32x2.to.f8x2 (cvt.rn.satfinite of the quantized row
//                 kernel) → each value encoded as createQuantize does
//                 (NormQuantization.h), the first operand's byte high;
//   nvgpu ops   → EmulateNVGPU.cpp (cp.async lands as late as PTX allows:
//                 at the wait that covers its group); sm_90 mbarriers and
//                 TMA loads → EmulateTMA.cpp, calls of the test runtime
//                 (a TMA tile lands at a wait on its barrier);
//   host side   → gpu.alloc / gpu.dealloc / gpu.memcpy become memref.alloc /
//                 memref.dealloc / memref.copy; gpu.wait disappears (the
//                 emulation is synchronous).
//
// Run it right after --convert-norm-to-gpu (before kernel outlining), then
// lower the result as CPU code (e.g. --norm-lower-to-cpu) and run it with
// libomp. A block of 512 threads on a 2-core machine is slow but correct;
// OMP_WAIT_POLICY=passive keeps the waiting threads off the cores.
//
//===----------------------------------------------------------------------===//

#include "EmulatedTeam.h"

#include "norm/Dialect/Norm/IR/NormQuantization.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace mlir::norm::test;

static constexpr StringLiteral kThreadNum = "omp_get_thread_num";
static constexpr StringLiteral kNumThreads = "omp_get_num_threads";
/// Host buffers standing for device memory: aligned like cudaMalloc's
/// 256 bytes as far as the kernels' 16-byte alignment tests can tell.
static constexpr int64_t kAlignment = 64;
/// The block's shared memory: 1024-byte aligned, so that the swizzle
/// patterns of TMA loads and wgmma operands, which hardware computes from
/// shared-window address bits [4, 10), are the same whether taken from the
/// host address or from the offset in the buffer.
static constexpr int64_t kSharedAlignment = 1024;

static Value index(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

void EmulatedTeam::enter(OpBuilder &b, Value threadId) {
  tid = threadId;
  parity = memref::AllocaOp::create(
      b, loc, MemRefType::get({}, b.getIndexType()));
  threadSetupEnd =
      memref::StoreOp::create(b, loc, index(b, loc, 0), parity, ValueRange{});
}

const EmulatedTeam::AsyncCopyQueue &EmulatedTeam::asyncCopyQueue() {
  if (copyQueue)
    return *copyQueue;
  OpBuilder b(threadSetupEnd->getContext());
  b.setInsertionPointAfter(threadSetupEnd);
  using Q = AsyncCopyQueue;
  Type indexType = b.getIndexType();
  Q q;
  q.offsets = memref::AllocaOp::create(
      b, loc, MemRefType::get({Q::kGroups, Q::kCopies}, indexType));
  q.bytes = memref::AllocaOp::create(
      b, loc, MemRefType::get({Q::kGroups, Q::kCopies, 16}, b.getI8Type()));
  q.counts =
      memref::AllocaOp::create(b, loc, MemRefType::get({Q::kGroups}, indexType));
  q.committed = memref::AllocaOp::create(b, loc, MemRefType::get({}, indexType));
  q.landed = memref::AllocaOp::create(b, loc, MemRefType::get({}, indexType));
  Value zero = index(b, loc, 0);
  memref::StoreOp::create(b, loc, zero, q.committed, ValueRange{});
  memref::StoreOp::create(b, loc, zero, q.landed, ValueRange{});
  for (int64_t g = 0; g < Q::kGroups; ++g)
    threadSetupEnd = memref::StoreOp::create(b, loc, zero, q.counts,
                                             ValueRange{index(b, loc, g)});
  copyQueue = q;
  return *copyQueue;
}

Value EmulatedTeam::threadLocalBuffer(MemRefType type) {
  OpBuilder b(threadSetupEnd->getContext());
  b.setInsertionPointAfter(threadSetupEnd);
  auto buffer = memref::AllocaOp::create(b, loc, type);
  threadSetupEnd = buffer;
  return buffer;
}

std::pair<Value, Value> EmulatedTeam::beginExchange(OpBuilder &b, Type type,
                                                    int64_t slotsPerThread) {
  auto key = std::make_pair(type, slotsPerThread);
  Value buffer = scratchBuffers.lookup(key);
  if (!buffer) {
    OpBuilder hb(hostAnchor);
    Value size = arith::MulIOp::create(hb, loc, numThreads,
                                       index(hb, loc, 2 * slotsPerThread));
    buffer = memref::AllocOp::create(
        hb, loc, MemRefType::get({ShapedType::kDynamic}, type),
        ValueRange{size});
    scratchBuffers[key] = buffer;
    buffers.push_back(buffer);
  }
  Value half = memref::LoadOp::create(b, loc, parity, ValueRange{});
  memref::StoreOp::create(
      b, loc, arith::SubIOp::create(b, loc, index(b, loc, 1), half), parity,
      ValueRange{});
  Value halfSize = arith::MulIOp::create(b, loc, numThreads,
                                         index(b, loc, slotsPerThread));
  return {buffer, arith::MulIOp::create(b, loc, half, halfSize)};
}

std::pair<Value, Value> EmulatedTeam::laneAndWarpBase(OpBuilder &b) {
  Value lane = arith::RemUIOp::create(b, loc, tid, index(b, loc, 32));
  return {lane, arith::SubIOp::create(b, loc, tid, lane)};
}

/// `type` without a gpu address space (host memory stands for it).
static MemRefType hostType(MemRefType type) {
  if (!isa_and_nonnull<gpu::AddressSpaceAttr>(type.getMemorySpace()))
    return type;
  return MemRefType::get(type.getShape(), type.getElementType(),
                         type.getLayout());
}

namespace {

class LaunchEmulator {
public:
  explicit LaunchEmulator(gpu::LaunchOp launch) : launch(launch) {}
  LogicalResult run();

private:
  LogicalResult rewriteBodyOp(Operation *op, EmulatedTeam &team);
  void emulateShuffle(gpu::ShuffleOp op, EmulatedTeam &team);

  gpu::LaunchOp launch;
  Value sharedMemory;
  /// x, y, z of the emulated block: thread and block ids, block and grid
  /// sizes (for gpu.thread_id and friends in the body).
  Value threadIds[3], blockIds[3], blockSizes[3], gridSizes[3];
};

} // namespace

LogicalResult LaunchEmulator::run() {
  Location loc = launch.getLoc();
  if (launch.getAsyncToken() || !launch.getAsyncDependencies().empty())
    return launch.emitError("emulation: asynchronous launches are not "
                            "emulated");
  if (launch.hasClusterSize())
    return launch.emitError("emulation: thread-block clusters are not "
                            "emulated");
  Region &body = launch.getBody();
  if (!body.hasOneBlock())
    return launch.emitError("emulation: a launch body of several blocks is "
                            "not emulated");

  OpBuilder b(launch);
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
  Value numThreads = arith::MulIOp::create(
      b, loc, arith::MulIOp::create(b, loc, block.x, block.y), block.z);
  IntegerAttr alignment = b.getI64IntegerAttr(kAlignment);

  SmallVector<Value> owned;
  if (Value bytes = launch.getDynamicSharedMemorySize()) {
    Value size = arith::IndexCastUIOp::create(b, loc, b.getIndexType(), bytes);
    sharedMemory = memref::AllocOp::create(
        b, loc, MemRefType::get({ShapedType::kDynamic}, b.getI8Type()),
        ValueRange{size}, b.getI64IntegerAttr(kSharedAlignment));
    owned.push_back(sharedMemory);
  }
  IRMapping map;
  for (BlockArgument arg : launch.getWorkgroupAttributions()) {
    auto type = hostType(cast<MemRefType>(arg.getType()));
    if (!type.hasStaticShape())
      return launch.emitError("emulation: dynamic workgroup attributions are "
                              "not emulated");
    Value buffer = memref::AllocOp::create(b, loc, type, alignment);
    map.map(arg, buffer);
    owned.push_back(buffer);
  }

  // The grid, z outermost; each iteration runs one block.
  Value zero = index(b, loc, 0), one = index(b, loc, 1);
  auto forZ = scf::ForOp::create(b, loc, zero, grid.z, one);
  b.setInsertionPointToStart(forZ.getBody());
  auto forY = scf::ForOp::create(b, loc, zero, grid.y, one);
  b.setInsertionPointToStart(forY.getBody());
  auto forX = scf::ForOp::create(b, loc, zero, grid.x, one);
  b.setInsertionPointToStart(forX.getBody());

  omp::ParallelOperands clauses;
  clauses.numThreads =
      arith::IndexCastOp::create(b, loc, b.getI32Type(), numThreads);
  auto team = omp::ParallelOp::create(b, loc, clauses);
  b.setInsertionPointToStart(b.createBlock(&team.getRegion()));

  // A smaller team than asked for would break every barrier's meaning.
  Value teamSize = func::CallOp::create(b, loc, kNumThreads, b.getI32Type(),
                                        ValueRange{})
                       .getResult(0);
  cf::AssertOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, teamSize,
                            clauses.numThreads),
      b.getStringAttr("emulation: libomp gave fewer threads than the block "
                      "has"));
  Value tid = arith::IndexCastOp::create(
      b, loc, b.getIndexType(),
      func::CallOp::create(b, loc, kThreadNum, b.getI32Type(), ValueRange{})
          .getResult(0));
  EmulatedTeam state(loc, forZ, numThreads);
  state.enter(b, tid);
  state.sharedMemory = sharedMemory;
  Value tx = arith::RemUIOp::create(b, loc, tid, block.x);
  Value txy = arith::DivUIOp::create(b, loc, tid, block.x);
  Value ty = arith::RemUIOp::create(b, loc, txy, block.y);
  Value tz = arith::DivUIOp::create(b, loc, txy, block.y);

  threadIds[0] = tx, threadIds[1] = ty, threadIds[2] = tz;
  blockIds[0] = forX.getInductionVar(), blockIds[1] = forY.getInductionVar(),
  blockIds[2] = forZ.getInductionVar();
  blockSizes[0] = block.x, blockSizes[1] = block.y, blockSizes[2] = block.z;
  gridSizes[0] = grid.x, gridSizes[1] = grid.y, gridSizes[2] = grid.z;
  // The launch's block arguments, and the ops that name the same values
  // (rewriteBodyOp), get the emulated block's values.
  auto mapDims = [&](gpu::KernelDim3 args, Value (&values)[3]) {
    map.map(args.x, values[0]);
    map.map(args.y, values[1]);
    map.map(args.z, values[2]);
  };
  mapDims(launch.getBlockIds(), blockIds);
  mapDims(launch.getThreadIds(), threadIds);
  mapDims(launch.getGridSize(), gridSizes);
  mapDims(launch.getBlockSize(), blockSizes);
  for (BlockArgument arg : launch.getPrivateAttributions())
    map.map(arg, memref::AllocaOp::create(
                     b, loc, hostType(cast<MemRefType>(arg.getType()))));
  for (Operation &op : body.front().without_terminator())
    b.clone(op, map);
  omp::TerminatorOp::create(b, loc);

  // The body's gpu/nvgpu ops. cp.async tokens flow from copies to groups to
  // waits: rewrite waits first, then groups, so a token has no user left
  // when its producer goes.
  // mbarrier groups likewise go after the ops that use them.
  SmallVector<Operation *> waits, groups, others, barrierGroups;
  team.walk([&](Operation *op) {
    if (isa<nvgpu::DeviceAsyncWaitOp>(op))
      waits.push_back(op);
    else if (isa<nvgpu::DeviceAsyncCreateGroupOp>(op))
      groups.push_back(op);
    else if (isa<nvgpu::MBarrierCreateOp>(op))
      barrierGroups.push_back(op);
    else if (isa<gpu::GPUDialect, nvgpu::NVGPUDialect, NVVM::NVVMDialect>(
                 op->getDialect()) ||
             isa<LLVM::InlineAsmOp>(op))
      others.push_back(op);
  });
  for (auto *list : {&waits, &groups, &others, &barrierGroups})
    for (Operation *op : *list)
      if (failed(rewriteBodyOp(op, state)))
        return failure();

  // Shared memory is host memory now.
  AttrTypeReplacer replacer;
  replacer.addReplacement([](MemRefType type) -> std::optional<Type> {
    MemRefType host = hostType(type);
    return host == type ? std::optional<Type>() : std::optional<Type>(host);
  });
  replacer.recursivelyReplaceElementsIn(team, /*replaceAttrs=*/false,
                                        /*replaceLocs=*/false,
                                        /*replaceTypes=*/true);

  b.setInsertionPointAfter(forZ);
  for (Value buffer : owned)
    memref::DeallocOp::create(b, loc, buffer);
  for (Value buffer : state.allocations())
    memref::DeallocOp::create(b, loc, buffer);
  launch.erase();
  return success();
}

/// cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32 into an i16: saturating, rounded
/// to nearest even, NaN kept, as createQuantize encodes a value (scale 1).
static LogicalResult emulateFloat8Conversion(NVVM::ConvertF32x2ToF8x2Op op) {
  if (op.getRnd() != NVVM::FPRoundingMode::RN ||
      op.getSat() != NVVM::SaturationMode::SATFINITE || op.getRelu() ||
      !op.getDst().getType().isInteger(16))
    return op->emitError("emulation: only cvt.rn.satfinite into an i16 is "
                         "emulated");
  OpBuilder b(op);
  Location loc = op.getLoc();
  Type i16 = b.getI16Type();
  Value one = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(1.0));
  auto byte = [&](Value v) -> Value {
    Value q = norm::createQuantize(b, loc, v, one, op.getDstTy());
    return arith::ExtUIOp::create(
        b, loc, i16, arith::BitcastOp::create(b, loc, b.getI8Type(), q));
  };
  Value high = arith::ShLIOp::create(
      b, loc, byte(op.getA()), arith::ConstantIntOp::create(b, loc, i16, 8));
  op.getDst().replaceAllUsesWith(
      arith::OrIOp::create(b, loc, high, byte(op.getB())).getResult());
  op->erase();
  return success();
}

/// bar.sync: with a thread count, a counting barrier of the runtime on the
/// block's barrier `id` (the threads that reach it are the ones counted);
/// without one, every thread of the block, as gpu.barrier.
static LogicalResult emulateNamedBarrier(NVVM::BarrierOp op,
                                         EmulatedTeam &team) {
  if (op.getReductionOp() || op.getRes())
    return op->emitError("emulation: barrier reductions are not emulated");
  OpBuilder b(op);
  Location loc = op.getLoc();
  if (!op.getNumberOfThreads()) {
    omp::BarrierOp::create(b, loc);
  } else {
    Value id = op.getBarrierId()
                   ? op.getBarrierId()
                   : arith::ConstantIntOp::create(b, loc, 0, 32).getResult();
    Value count =
        arith::ExtUIOp::create(b, loc, b.getI64Type(), op.getNumberOfThreads());
    callRuntime(b, loc, op, "norm_emu_named_barrier",
                {team.namedBarrierAddress(b, id), count});
  }
  op->erase();
  return success();
}

/// The one PTX asm the kernels contain: a register move that keeps LLVM from
/// sinking the value's computation (WarpgroupPrologue::pinned), the
/// identity here. Any other asm is an error.
static LogicalResult emulateRegisterMove(LLVM::InlineAsmOp op) {
  if (op.getAsmString() != "mov.b32 $0, $1;" || op.getNumOperands() != 1 ||
      op.getNumResults() != 1 ||
      op.getResult(0).getType() != op.getOperand(0).getType())
    return op->emitError("emulation: this inline asm is not emulated");
  op.getResult(0).replaceAllUsesWith(op.getOperand(0));
  op->erase();
  return success();
}

LogicalResult LaunchEmulator::rewriteBodyOp(Operation *op, EmulatedTeam &team) {
  OpBuilder b(op);
  if (auto convert = dyn_cast<NVVM::ConvertF32x2ToF8x2Op>(op))
    return emulateFloat8Conversion(convert);
  if (isa<gpu::BarrierOp>(op)) {
    omp::BarrierOp::create(b, op->getLoc());
    op->erase();
    return success();
  }
  if (auto barrier = dyn_cast<NVVM::BarrierOp>(op))
    return emulateNamedBarrier(barrier, team);
  if (auto move = dyn_cast<LLVM::InlineAsmOp>(op))
    return emulateRegisterMove(move);
  if (auto shuffle = dyn_cast<gpu::ShuffleOp>(op)) {
    emulateShuffle(shuffle, team);
    return success();
  }
  if (auto shared = dyn_cast<gpu::DynamicSharedMemoryOp>(op)) {
    if (!sharedMemory)
      return op->emitError("emulation: dynamic shared memory used but the "
                           "launch gives it no size");
    shared.replaceAllUsesWith(sharedMemory);
    op->erase();
    return success();
  }
  // Ids and sizes written as ops rather than the launch's block arguments.
  auto dim = [](gpu::Dimension d) { return static_cast<unsigned>(d); };
  Value replacement;
  if (auto id = dyn_cast<gpu::ThreadIdOp>(op))
    replacement = threadIds[dim(id.getDimension())];
  else if (auto id = dyn_cast<gpu::BlockIdOp>(op))
    replacement = blockIds[dim(id.getDimension())];
  else if (auto size = dyn_cast<gpu::BlockDimOp>(op))
    replacement = blockSizes[dim(size.getDimension())];
  else if (auto size = dyn_cast<gpu::GridDimOp>(op))
    replacement = gridSizes[dim(size.getDimension())];
  else if (isa<gpu::LaneIdOp>(op))
    replacement = team.laneAndWarpBase(b).first;
  if (replacement) {
    op->getResult(0).replaceAllUsesWith(replacement);
    op->erase();
    return success();
  }
  if (isa<nvgpu::NVGPUDialect>(op->getDialect()))
    return emulateNVGPUOp(op, team);
  if (isa<NVVM::NVVMDialect>(op->getDialect()))
    return emulateWGMMAOp(op, team);
  return op->emitError("emulation: this op is not emulated");
}

/// PTX shfl.sync semantics within segments of `width` lanes of a warp: a
/// source lane outside the segment gives the thread its own value and
/// valid = false.
void LaunchEmulator::emulateShuffle(gpu::ShuffleOp op, EmulatedTeam &team) {
  Location loc = op.getLoc();
  OpBuilder b(op);
  Value value = op.getValue();
  auto [slots, base] = team.beginExchange(b, value.getType(), 1);
  memref::StoreOp::create(b, loc, value, slots,
                          ValueRange{arith::AddIOp::create(b, loc, base,
                                                           team.tid)});
  omp::BarrierOp::create(b, loc);

  auto toIndex = [&](Value v) {
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), v).getResult();
  };
  Value width = toIndex(op.getWidth());
  Value offset = toIndex(op.getOffset());
  Value lane = team.laneAndWarpBase(b).first;
  Value laneInSegment = arith::RemUIOp::create(b, loc, lane, width);
  Value segmentBase = arith::SubIOp::create(b, loc, team.tid, laneInSegment);
  Value source;
  switch (op.getMode()) {
  case gpu::ShuffleMode::XOR:
    source = arith::XOrIOp::create(b, loc, laneInSegment, offset);
    break;
  case gpu::ShuffleMode::DOWN:
    source = arith::AddIOp::create(b, loc, laneInSegment, offset);
    break;
  case gpu::ShuffleMode::UP:
    source = arith::SubIOp::create(b, loc, laneInSegment, offset);
    break;
  case gpu::ShuffleMode::IDX:
    source = offset;
    break;
  }
  Value valid = arith::AndIOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, source,
                            index(b, loc, 0)),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, source, width));
  Value from = arith::SelectOp::create(
      b, loc, valid, arith::AddIOp::create(b, loc, segmentBase, source),
      team.tid);
  Value result = memref::LoadOp::create(
      b, loc, slots, ValueRange{arith::AddIOp::create(b, loc, base, from)});
  op.getShuffleResult().replaceAllUsesWith(result);
  op.getValid().replaceAllUsesWith(valid);
  op.erase();
}

//===----------------------------------------------------------------------===//
// Host side
//===----------------------------------------------------------------------===//

/// Replaces a host-side gpu op by its synchronous CPU equivalent. Ops are
/// visited in reverse program order, so a token's users are gone when its
/// producer is rewritten.
static LogicalResult emulateHostOp(Operation *op) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  auto tokenUnused = [&](Value token) -> LogicalResult {
    if (token && !token.use_empty())
      return op->emitError("emulation: an async token used outside gpu ops "
                           "is not emulated");
    return success();
  };
  if (auto alloc = dyn_cast<gpu::AllocOp>(op)) {
    if (failed(tokenUnused(alloc.getAsyncToken())))
      return failure();
    Value buffer = memref::AllocOp::create(
        b, loc, hostType(alloc.getType()), alloc.getDynamicSizes(),
        alloc.getSymbolOperands(), b.getI64IntegerAttr(kAlignment));
    alloc.getMemref().replaceAllUsesWith(buffer);
  } else if (auto dealloc = dyn_cast<gpu::DeallocOp>(op)) {
    if (failed(tokenUnused(dealloc.getAsyncToken())))
      return failure();
    memref::DeallocOp::create(b, loc, dealloc.getMemref());
  } else if (auto copy = dyn_cast<gpu::MemcpyOp>(op)) {
    if (failed(tokenUnused(copy.getAsyncToken())))
      return failure();
    memref::CopyOp::create(b, loc, copy.getSrc(), copy.getDst());
  } else if (auto wait = dyn_cast<gpu::WaitOp>(op)) {
    if (failed(tokenUnused(wait.getAsyncToken())))
      return failure();
  } else if (isa<nvgpu::TmaCreateDescriptorOp>(op)) {
    // The emulated TMA loads read the tensor and box from it directly.
    if (!op->use_empty())
      return op->emitError("emulation: a TMA descriptor used outside the "
                           "emulated launches");
  } else {
    return op->emitError("emulation: this op is not emulated");
  }
  op->erase();
  return success();
}

namespace {

struct EmulateGPUOnCPUPass
    : PassWrapper<EmulateGPUOnCPUPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(EmulateGPUOnCPUPass)

  StringRef getArgument() const final {
    return "norm-test-emulate-gpu-on-cpu";
  }
  StringRef getDescription() const final {
    return "Test only: run gpu.launch kernels (before outlining) on host "
           "threads, one OpenMP team per thread block";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, cf::ControlFlowDialect,
                    func::FuncDialect, memref::MemRefDialect,
                    omp::OpenMPDialect, scf::SCFDialect,
                    vector::VectorDialect>();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<gpu::LaunchOp> launches;
    module.walk([&](gpu::LaunchOp launch) { launches.push_back(launch); });
    if (!launches.empty())
      declareRuntime(module);
    for (gpu::LaunchOp launch : launches)
      if (failed(LaunchEmulator(launch).run()))
        return signalPassFailure();

    SmallVector<Operation *> hostOps;
    module.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<gpu::GPUDialect, nvgpu::NVGPUDialect>(op->getDialect()))
        hostOps.push_back(op);
    });
    // Program order reversed: a token's users come before its producer.
    for (Operation *op : llvm::reverse(hostOps))
      if (failed(emulateHostOp(op)))
        return signalPassFailure();
  }

  static void declareRuntime(ModuleOp module) {
    OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
    for (StringRef name : {kThreadNum, kNumThreads}) {
      if (module.lookupSymbol(name))
        continue;
      auto fn = func::FuncOp::create(
          b, module.getLoc(), name,
          b.getFunctionType({}, {b.getI32Type()}));
      fn.setPrivate();
    }
  }
};

} // namespace

namespace mlir::norm::test {
void registerEmulateGPUOnCPUPass() { PassRegistration<EmulateGPUOnCPUPass>(); }
} // namespace mlir::norm::test
