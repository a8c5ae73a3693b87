//===- EmulateNVGPU.cpp - the warp-level nvgpu ops on CPU threads ---------===//
//
// Test-only, part of --norm-test-emulate-gpu-on-cpu (EmulateGPUOnCPU.cpp):
// the nvgpu ops of the tensor-core fused GEMM, on a block run as an OpenMP
// team. Fragment layouts are PTX's (ISA, "Matrix Fragments for mma.m16n8k16
// with floating point type" and "ldmatrix"), with groupID g = lane / 4 and
// threadID_in_group t = lane % 4:
//
//   cp.async          the chunk (zero-filled past the source size) is read
//                     at the copy and written to shared memory at the
//                     cp.async.wait_group that covers its commit group, the
//                     latest point PTX allows: a thread queues its copies
//                     per group (EmulatedTeam::AsyncCopyQueue), so a tile
//                     read before its wait still holds the old data and the
//                     test fails; copies to other memory are synchronous;
//   ldmatrix .x1/2/4  lanes 8q..8q+7 give the row addresses of matrix q; lane
//                     l receives, per matrix, row g, columns 2t and 2t + 1
//                     (.trans: rows 2t and 2t + 1 of column g);
//   mma.sync m16n8k16 A (16×16, registers a0..a3 = rows g / g + 8 of columns
//                     2t.., then the same of columns 2t + 8..), B (16×8,
//                     b0 = rows 2t.. of column g, b1 = rows 2t + 8..), C/D
//                     (rows g and g + 8, columns 2t and 2t + 1), products
//                     summed in f32 in k order (an f16 C/D rounded once).
//
// ldmatrix and mma.sync exchange lane data through block-wide scratch slots,
// like gpu.shuffle (EmulatedTeam.h).
//
//===----------------------------------------------------------------------===//

#include "EmulatedMath.h"
#include "EmulatedTeam.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::norm::test;

/// The `elements` values a cp.async copies, those at or past the source
/// size zero.
static SmallVector<Value> copiedValues(OpBuilder &b,
                                       nvgpu::DeviceAsyncCopyOp op) {
  Location loc = op.getLoc();
  EmulatedMath m{b, loc};
  int64_t elements = op.getDstElements().getZExtValue();
  Value count = op.getSrcElements() ? op.getSrcElements() : m.c(elements);
  Type elem = op.getDst().getType().getElementType();
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(elem));
  SmallVector<Value> values;
  for (int64_t j = 0; j < elements; ++j) {
    Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         m.c(j), count);
    auto load = scf::IfOp::create(
        b, loc, inside,
        [&](OpBuilder &tb, Location) {
          SmallVector<Value> idx(op.getSrcIndices());
          idx.back() = EmulatedMath{tb, loc}.addC(idx.back(), j);
          scf::YieldOp::create(
              tb, loc,
              memref::LoadOp::create(tb, loc, op.getSrc(), idx).getResult());
        },
        [&](OpBuilder &eb, Location) { scf::YieldOp::create(eb, loc, zero); });
    values.push_back(load.getResult(0));
  }
  return values;
}

/// The byte offset in the block's dynamic shared memory of the copy's
/// destination, when it is a 16-byte chunk of a static identity-layout view
/// of that memory; null otherwise.
static Value sharedByteOffset(OpBuilder &b, nvgpu::DeviceAsyncCopyOp op,
                              EmulatedTeam &team) {
  auto view = op.getDst().getDefiningOp<memref::ViewOp>();
  MemRefType type = op.getDst().getType();
  if (!team.sharedMemory || !view || view.getSource() != team.sharedMemory ||
      !type.hasStaticShape() || !type.getLayout().isIdentity() ||
      op.getDstElements().getZExtValue() * type.getElementTypeBitWidth() !=
          128)
    return Value();
  EmulatedMath m{b, op.getLoc()};
  Value linear = m.c(0);
  for (auto [i, idx] : llvm::enumerate(op.getDstIndices()))
    linear = m.add(m.mulC(linear, type.getDimSize(i)), idx);
  return m.add(view.getByteShift(),
               m.mulC(linear, type.getElementTypeBitWidth() / 8));
}

/// cp.async into shared memory: the chunk's bytes are read now (the source
/// is global memory the kernel does not write) and queued in the thread's
/// open group; they land when a wait covers the group (emulateAsyncWait),
/// the latest point PTX allows, so a read of the tile before its wait sees
/// the old contents. Other destinations are copied at once.
static void emulateAsyncCopy(nvgpu::DeviceAsyncCopyOp op, EmulatedTeam &team) {
  Location loc = op.getLoc();
  OpBuilder b(op);
  EmulatedMath m{b, loc};
  SmallVector<Value> values = copiedValues(b, op);
  Value offset = sharedByteOffset(b, op, team);
  if (!offset) {
    for (auto [j, v] : llvm::enumerate(values)) {
      SmallVector<Value> idx(op.getDstIndices());
      idx.back() = m.addC(idx.back(), j);
      memref::StoreOp::create(b, loc, v, op.getDst(), idx);
    }
    return;
  }
  using Q = EmulatedTeam::AsyncCopyQueue;
  const Q &q = team.asyncCopyQueue();
  Value chunk = vector::BitCastOp::create(
      b, loc, VectorType::get({16}, b.getI8Type()),
      vector::FromElementsOp::create(
          b, loc,
          VectorType::get({static_cast<int64_t>(values.size())},
                          values.front().getType()),
          values));
  Value group = m.remC(memref::LoadOp::create(b, loc, q.committed), Q::kGroups);
  Value slot = memref::LoadOp::create(b, loc, q.counts, ValueRange{group});
  cf::AssertOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, slot,
                            m.c(Q::kCopies)),
      "emulation: more cp.async copies in one group than the queue holds");
  memref::StoreOp::create(b, loc, offset, q.offsets, ValueRange{group, slot});
  vector::StoreOp::create(b, loc, chunk, q.bytes,
                          ValueRange{group, slot, m.c(0)});
  memref::StoreOp::create(b, loc, m.addC(slot, 1), q.counts,
                          ValueRange{group});
}

/// cp.async.commit_group: the open group becomes the newest pending one.
static void emulateAsyncCommit(nvgpu::DeviceAsyncCreateGroupOp op,
                               EmulatedTeam &team) {
  if (!team.sharedMemory)
    return; // every copy was synchronous
  OpBuilder b(op);
  EmulatedMath m{b, op.getLoc()};
  const EmulatedTeam::AsyncCopyQueue &q = team.asyncCopyQueue();
  Value committed =
      m.addC(memref::LoadOp::create(b, op.getLoc(), q.committed), 1);
  // The next open group takes slot committed mod kGroups: a pending group
  // still there would take the next copies and land with them.
  Value pending = arith::SubIOp::create(
      b, op.getLoc(), committed,
      memref::LoadOp::create(b, op.getLoc(), q.landed));
  cf::AssertOp::create(
      b, op.getLoc(),
      arith::CmpIOp::create(b, op.getLoc(), arith::CmpIPredicate::ult,
                            pending, m.c(EmulatedTeam::AsyncCopyQueue::kGroups)),
      "emulation: more pending cp.async groups than the queue holds");
  memref::StoreOp::create(b, op.getLoc(), committed, q.committed);
}

/// cp.async.wait_group N: the thread's oldest pending groups land until at
/// most N are pending.
static void emulateAsyncWait(nvgpu::DeviceAsyncWaitOp op, EmulatedTeam &team) {
  if (!team.sharedMemory)
    return;
  Location loc = op.getLoc();
  OpBuilder b(op);
  using Q = EmulatedTeam::AsyncCopyQueue;
  const Q &q = team.asyncCopyQueue();
  int64_t allowed = op.getNumGroups().value_or(0);
  auto loop = scf::WhileOp::create(b, loc, TypeRange{}, ValueRange{});
  OpBuilder before = OpBuilder::atBlockBegin(b.createBlock(&loop.getBefore()));
  {
    EmulatedMath m{before, loc};
    Value pending = arith::SubIOp::create(
        before, loc, memref::LoadOp::create(before, loc, q.committed),
        memref::LoadOp::create(before, loc, q.landed));
    scf::ConditionOp::create(
        before, loc,
        arith::CmpIOp::create(before, loc, arith::CmpIPredicate::ugt, pending,
                              m.c(allowed)),
        ValueRange{});
  }
  OpBuilder after = OpBuilder::atBlockBegin(b.createBlock(&loop.getAfter()));
  EmulatedMath m{after, loc};
  Value landed = memref::LoadOp::create(after, loc, q.landed);
  Value group = m.remC(landed, Q::kGroups);
  Value count = memref::LoadOp::create(after, loc, q.counts, ValueRange{group});
  scf::ForOp::create(
      after, loc, m.c(0), count, m.c(1), ValueRange{},
      [&](OpBuilder &fb, Location, Value slot, ValueRange) {
        Value offset = memref::LoadOp::create(fb, loc, q.offsets,
                                              ValueRange{group, slot});
        Value chunk = vector::LoadOp::create(
            fb, loc, VectorType::get({16}, fb.getI8Type()), q.bytes,
            ValueRange{group, slot, EmulatedMath{fb, loc}.c(0)});
        Value target = memref::ViewOp::create(
            fb, loc, MemRefType::get({16}, fb.getI8Type()), team.sharedMemory,
            offset, ValueRange{});
        vector::StoreOp::create(fb, loc, chunk, target,
                                ValueRange{EmulatedMath{fb, loc}.c(0)});
        scf::YieldOp::create(fb, loc);
      });
  memref::StoreOp::create(after, loc, m.c(0), q.counts, ValueRange{group});
  memref::StoreOp::create(after, loc, m.addC(landed, 1), q.landed);
  scf::YieldOp::create(after, loc);
}

/// ldmatrix: every lane publishes the element offset of the row it points
/// at; each lane then reads its fragment elements from the rows of the lanes
/// of its warp.
static LogicalResult emulateLdMatrix(nvgpu::LdMatrixOp op, EmulatedTeam &team) {
  Location loc = op.getLoc();
  OpBuilder b(op);
  EmulatedMath m{b, loc};
  auto srcType = op.getSrcMemref().getType();
  auto resultType = cast<VectorType>(op.getRes().getType());
  int64_t tiles = op.getNumTiles();
  if (!srcType.getLayout().isIdentity() || !srcType.hasStaticShape() ||
      resultType.getRank() != 2 || resultType.getDimSize(0) != tiles ||
      resultType.getDimSize(1) != 2)
    return op.emitError("emulation: only ldmatrix of 16-bit elements from a "
                        "static identity-layout buffer is emulated");

  // The row's offset in the buffer, published for the warp.
  Value offset = m.c(0);
  for (auto [i, idx] : llvm::enumerate(op.getIndices()))
    offset = m.add(m.mulC(offset, srcType.getDimSize(i)), idx);
  auto [offsets, base] = team.beginExchange(b, b.getIndexType(), 1);
  memref::StoreOp::create(b, loc, offset, offsets,
                          ValueRange{m.add(base, team.tid)});
  omp::BarrierOp::create(b, loc);

  SmallVector<ReassociationIndices> all(1);
  for (int64_t i = 0; i < srcType.getRank(); ++i)
    all.front().push_back(i);
  Value flat = memref::CollapseShapeOp::create(b, loc, op.getSrcMemref(), all);
  auto [lane, warpBase] = team.laneAndWarpBase(b);
  Value g = m.divC(lane, 4), t2 = m.mulC(m.remC(lane, 4), 2);
  Value result = arith::ConstantOp::create(b, loc, b.getZeroAttr(resultType));
  for (int64_t q = 0; q < tiles; ++q)
    for (int64_t e = 0; e < 2; ++e) {
      // Non-transposed: row g of matrix q, column 2t + e. Transposed: row
      // 2t + e, column g.
      Value rowLane = op.getTranspose() ? m.addC(t2, e) : g;
      Value column = op.getTranspose() ? g : m.addC(t2, e);
      Value rowOffset = memref::LoadOp::create(
          b, loc, offsets,
          ValueRange{m.add(base, m.add(warpBase, m.addC(rowLane, q * 8)))});
      Value v = memref::LoadOp::create(b, loc, flat,
                                       ValueRange{m.add(rowOffset, column)});
      result = vector::InsertOp::create(b, loc, v, result,
                                        ArrayRef<int64_t>{q, e});
    }
  op.getRes().replaceAllUsesWith(result);
  op.erase();
  return success();
}

/// mma.sync m16n8k16 with 16-bit A/B and f32 C: every lane publishes its A
/// and B fragments (as f32); each lane sums its four C elements over k.
static LogicalResult emulateMmaSync(nvgpu::MmaSyncOp op, EmulatedTeam &team) {
  Location loc = op.getLoc();
  OpBuilder b(op);
  EmulatedMath m{b, loc};
  auto aType = op.getMatrixA().getType(), bType = op.getMatrixB().getType();
  auto cType = op.getMatrixC().getType();
  SmallVector<int64_t> shape;
  for (Attribute a : op.getMmaShape())
    shape.push_back(cast<IntegerAttr>(a).getInt());
  if (shape != ArrayRef<int64_t>{16, 8, 16} ||
      aType.getElementTypeBitWidth() != 16 ||
      aType.getShape() != ArrayRef<int64_t>{4, 2} ||
      bType.getShape() != ArrayRef<int64_t>{2, 2} ||
      cType.getShape() != ArrayRef<int64_t>{2, 2} ||
      !(cType.getElementType().isF32() || cType.getElementType().isF16()))
    return op.emitError("emulation: only mma.sync m16n8k16 with 16-bit "
                        "inputs and an f32 or f16 accumulator is emulated");

  // Slots per lane: A's 8 elements (register q, element e at 2q + e), then
  // B's 4 (8 + 2r + e).
  constexpr int64_t kSlots = 12;
  Type f32 = b.getF32Type();
  Value slots, base;
  std::tie(slots, base) = team.beginExchange(b, f32, kSlots);
  Value mine = m.add(base, m.mulC(team.tid, kSlots));
  auto publish = [&](Value fragment, int64_t rows, int64_t first) {
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t e = 0; e < 2; ++e) {
        Value v = vector::ExtractOp::create(b, loc, fragment,
                                            ArrayRef<int64_t>{r, e});
        v = arith::ExtFOp::create(b, loc, f32, v);
        memref::StoreOp::create(b, loc, v, slots,
                                ValueRange{m.addC(mine, first + 2 * r + e)});
      }
  };
  publish(op.getMatrixA(), 4, 0);
  publish(op.getMatrixB(), 2, 8);
  omp::BarrierOp::create(b, loc);

  Value lane, warpBase;
  std::tie(lane, warpBase) = team.laneAndWarpBase(b);
  Value g = m.divC(lane, 4), t2 = m.mulC(m.remC(lane, 4), 2);
  Value result = arith::ConstantOp::create(b, loc, b.getZeroAttr(cType));
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 2; ++j) {
      // D[g + 8i][2t + j] = C + Σ_k A[g + 8i][k] · B[k][2t + j].
      Value column = m.addC(t2, j);
      // An f16 accumulator: summed in f32, rounded once.
      Value init = vector::ExtractOp::create(b, loc, op.getMatrixC(),
                                             ArrayRef<int64_t>{i, j});
      if (!init.getType().isF32())
        init = arith::ExtFOp::create(b, loc, f32, init);
      auto loop = scf::ForOp::create(
          b, loc, m.c(0), m.c(16), m.c(1), ValueRange{init},
          [&](OpBuilder &lb, Location, Value k, ValueRange acc) {
            EmulatedMath l{lb, loc};
            Value pair = l.divC(l.remC(k, 8), 2); // threadID_in_group
            Value half = l.divC(k, 8);            // k ≥ 8
            Value element = l.remC(k, 2);
            // A[g + 8i][k]: lane 4g + pair, register i + 2·half.
            Value aLane = l.add(warpBase, l.add(l.mulC(g, 4), pair));
            Value aSlot = l.add(
                l.add(l.add(base, l.mulC(aLane, kSlots)),
                      l.mulC(l.addC(l.mulC(half, 2), i), 2)),
                element);
            // B[k][column]: lane 4·column + pair, register half.
            Value bLane = l.add(warpBase, l.add(l.mulC(column, 4), pair));
            Value bSlot = l.add(
                l.add(l.add(base, l.mulC(bLane, kSlots)),
                      l.addC(l.mulC(half, 2), 8)),
                element);
            Value a = memref::LoadOp::create(lb, loc, slots, ValueRange{aSlot});
            Value bv = memref::LoadOp::create(lb, loc, slots, ValueRange{bSlot});
            scf::YieldOp::create(
                lb, loc,
                ValueRange{math::FmaOp::create(lb, loc, a, bv, acc.front())});
          });
      Value d = loop.getResult(0);
      if (!cType.getElementType().isF32())
        d = arith::TruncFOp::create(b, loc, cType.getElementType(), d);
      result = vector::InsertOp::create(b, loc, d, result,
                                        ArrayRef<int64_t>{i, j});
    }
  op.getRes().replaceAllUsesWith(result);
  op.erase();
  return success();
}

LogicalResult mlir::norm::test::emulateNVGPUOp(Operation *op,
                                               EmulatedTeam &team) {
  if (isa<nvgpu::DeviceAsyncWaitOp, nvgpu::DeviceAsyncCreateGroupOp>(op)) {
    if (!op->use_empty())
      return op->emitError("emulation: a cp.async token used outside "
                           "cp.async groups and waits is not emulated");
    if (auto wait = dyn_cast<nvgpu::DeviceAsyncWaitOp>(op))
      emulateAsyncWait(wait, team);
    else
      emulateAsyncCommit(cast<nvgpu::DeviceAsyncCreateGroupOp>(op), team);
    op->erase();
    return success();
  }
  if (auto copy = dyn_cast<nvgpu::DeviceAsyncCopyOp>(op)) {
    if (!copy.getAsyncToken().use_empty())
      return op->emitError("emulation: a cp.async token used outside "
                           "cp.async groups is not emulated");
    emulateAsyncCopy(copy, team);
    op->erase();
    return success();
  }
  if (auto load = dyn_cast<nvgpu::LdMatrixOp>(op))
    return emulateLdMatrix(load, team);
  if (auto mma = dyn_cast<nvgpu::MmaSyncOp>(op))
    return emulateMmaSync(mma, team);
  // The async-proxy ops (mbarriers, TMA); any other op gets its
  // "not emulated" error there.
  return emulateTMAOp(op, team);
}
