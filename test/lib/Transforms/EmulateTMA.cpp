//===- EmulateTMA.cpp - sm_90 mbarriers and TMA loads on CPU threads ------===//
//
// Test-only, part of --norm-test-emulate-gpu-on-cpu (EmulateGPUOnCPU.cpp):
// the nvgpu ops of the sm_90 async proxy become calls into the test
// runtime (test/lib/Runtime/EmulatedAsyncProxy.cpp, which states their
// semantics):
//
//   nvgpu.mbarrier.create      → 8 bytes per barrier of a host buffer made
//                                before the launch's loops (one per create
//                                op, shared by the block's threads);
//   mbarrier.init / arrive / arrive.expect_tx / try_wait.parity
//                              → norm_emu_mbarrier_* on the barrier's
//                                address;
//   nvgpu.tma.async.load       → norm_emu_tma_load_2d with the tensor's
//                                buffer, sizes and strides and the box of
//                                the nvgpu.tma.create.descriptor that made
//                                the descriptor (which must be in the same
//                                function: the host creates it before the
//                                launch);
//   nvgpu.tma.prefetch.descriptor → nothing;
//   and the block's 16 named barriers (bar.sync with a thread count, which
//   EmulateGPUOnCPU.cpp rewrites) → 8 bytes each of one more host buffer.
//
// Predicated forms run their call under scf.if. Multicast, im2col, rank
// other than 2, interleaved or NaN-filled maps, and tokens are errors.
//
//===----------------------------------------------------------------------===//

#include "EmulatedTeam.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace mlir::norm::test;

void mlir::norm::test::callRuntime(OpBuilder &b, Location loc, Operation *at,
                                   StringRef name, ArrayRef<Value> args) {
  auto module = at->getParentOfType<ModuleOp>();
  SmallVector<Value> i64Args;
  for (Value v : args)
    i64Args.push_back(v.getType().isIndex()
                          ? arith::IndexCastOp::create(b, loc, b.getI64Type(), v)
                                .getResult()
                          : v);
  if (!module.lookupSymbol(name)) {
    OpBuilder mb = OpBuilder::atBlockBegin(module.getBody());
    SmallVector<Type> types(i64Args.size(), mb.getI64Type());
    auto fn = func::FuncOp::create(mb, loc, name,
                                   mb.getFunctionType(types, {}));
    fn.setPrivate();
  }
  func::CallOp::create(b, loc, name, TypeRange{}, i64Args);
}

namespace {

/// Runs `body` at `op`, under scf.if when the op has a predicate.
void atPredicate(OpBuilder &b, Location loc, Value predicate,
                 function_ref<void(OpBuilder &)> body) {
  if (!predicate) {
    body(b);
    return;
  }
  auto ifOp = scf::IfOp::create(b, loc, predicate, /*withElseRegion=*/false);
  OpBuilder tb = ifOp.getThenBodyBuilder();
  body(tb);
}

/// The host address of `mem`'s first element, as index.
Value addressOf(OpBuilder &b, Location loc, Value mem) {
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, mem);
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(
      b, loc, metadata.getBaseBuffer());
  int64_t bytes =
      cast<MemRefType>(mem.getType()).getElementTypeBitWidth() / 8;
  return arith::AddIOp::create(
      b, loc, base,
      arith::MulIOp::create(b, loc, metadata.getOffset(),
                            arith::ConstantIndexOp::create(b, loc, bytes)));
}

int64_t swizzleBytes(nvgpu::TensorMapSwizzleKind kind) {
  switch (kind) {
  case nvgpu::TensorMapSwizzleKind::SWIZZLE_NONE:
    return 0;
  case nvgpu::TensorMapSwizzleKind::SWIZZLE_32B:
    return 32;
  case nvgpu::TensorMapSwizzleKind::SWIZZLE_64B:
    return 64;
  case nvgpu::TensorMapSwizzleKind::SWIZZLE_128B:
    return 128;
  }
  return -1;
}

} // namespace

Value EmulatedTeam::barrierAddress(OpBuilder &b, Value group, Value id) {
  auto create = group.getDefiningOp<nvgpu::MBarrierCreateOp>();
  Value buffer = barrierBuffers.lookup(create);
  if (!buffer) {
    OpBuilder hb(hostAnchor);
    auto count = static_cast<int64_t>(
        cast<nvgpu::MBarrierGroupType>(group.getType()).getNumBarriers());
    buffer = memref::AllocOp::create(
        hb, loc, MemRefType::get({count}, hb.getI64Type()),
        hb.getI64IntegerAttr(8));
    barrierBuffers[create] = buffer;
    buffers.push_back(buffer);
  }
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
  return arith::AddIOp::create(
      b, loc, base,
      arith::MulIOp::create(b, loc, id,
                            arith::ConstantIndexOp::create(b, loc, 8)));
}

Value EmulatedTeam::namedBarrierAddress(OpBuilder &b, Value id) {
  if (!namedBarriers) {
    OpBuilder hb(hostAnchor);
    namedBarriers =
        memref::AllocOp::create(hb, loc, MemRefType::get({16}, hb.getI64Type()),
                                hb.getI64IntegerAttr(8));
    buffers.push_back(namedBarriers);
  }
  Value base =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, namedBarriers);
  Value offset = arith::MulIOp::create(
      b, loc, arith::IndexCastUIOp::create(b, loc, b.getIndexType(), id),
      arith::ConstantIndexOp::create(b, loc, 8));
  return arith::AddIOp::create(b, loc, base, offset);
}

LogicalResult mlir::norm::test::emulateTMAOp(Operation *op,
                                             EmulatedTeam &team) {
  Location loc = op->getLoc();
  OpBuilder b(op);
  auto groupCreated = [&](Value group) -> LogicalResult {
    if (!group.getDefiningOp<nvgpu::MBarrierCreateOp>())
      return op->emitError("emulation: an mbarrier group not made by "
                           "nvgpu.mbarrier.create in the launch is not "
                           "emulated");
    return success();
  };

  if (auto create = dyn_cast<nvgpu::MBarrierCreateOp>(op)) {
    // Its users are rewritten first (EmulateGPUOnCPU.cpp).
    if (!create->use_empty())
      return op->emitError("emulation: an mbarrier group used by an op that "
                           "is not emulated");
    op->erase();
    return success();
  }
  // A runtime call on barrier `id` of `group` with one more argument, made
  // only where the op's predicate (if any) holds.
  auto callOnBarrier = [&](Value group, Value id, Value predicate,
                           StringRef function, Value argument) {
    if (failed(groupCreated(group)))
      return failure();
    atPredicate(b, loc, predicate, [&](OpBuilder &pb) {
      callRuntime(pb, loc, op, function,
                  {team.barrierAddress(pb, group, id), argument});
    });
    return success();
  };

  if (auto init = dyn_cast<nvgpu::MBarrierInitOp>(op)) {
    if (failed(callOnBarrier(init.getBarriers(), init.getMbarId(),
                             init.getPredicate(), "norm_emu_mbarrier_init",
                             init.getCount())))
      return failure();
  } else if (auto arrive = dyn_cast<nvgpu::MBarrierArriveExpectTxOp>(op)) {
    if (failed(callOnBarrier(arrive.getBarriers(), arrive.getMbarId(),
                             arrive.getPredicate(),
                             "norm_emu_mbarrier_arrive_expect_tx",
                             arrive.getTxcount())))
      return failure();
  } else if (auto arrive = dyn_cast<nvgpu::MBarrierArriveOp>(op)) {
    if (failed(groupCreated(arrive.getBarriers())))
      return failure();
    if (!arrive->use_empty())
      return op->emitError("emulation: mbarrier tokens are not emulated");
    Value address =
        team.barrierAddress(b, arrive.getBarriers(), arrive.getMbarId());
    callRuntime(b, loc, op, "norm_emu_mbarrier_arrive", {address});
  } else if (auto wait = dyn_cast<nvgpu::MBarrierTryWaitParityOp>(op)) {
    if (failed(groupCreated(wait.getBarriers())))
      return failure();
    Value address =
        team.barrierAddress(b, wait.getBarriers(), wait.getMbarId());
    Value parity =
        arith::ExtUIOp::create(b, loc, b.getI64Type(), wait.getPhaseParity());
    callRuntime(b, loc, op, "norm_emu_mbarrier_try_wait_parity",
                {address, parity});
  } else if (isa<nvgpu::TmaPrefetchOp>(op)) {
    // A cache hint.
  } else if (auto load = dyn_cast<nvgpu::TmaAsyncLoadOp>(op)) {
    if (failed(groupCreated(load.getBarriers())))
      return failure();
    if (load.getMulticastMask())
      return op->emitError("emulation: multicast TMA loads are not emulated");
    auto create = load.getTensorMapDescriptor()
                      .getDefiningOp<nvgpu::TmaCreateDescriptorOp>();
    if (!create)
      return op->emitError("emulation: a TMA descriptor not made by "
                           "nvgpu.tma.create.descriptor in this function is "
                           "not emulated");
    nvgpu::TensorMapDescriptorType map = create.getTensorMap().getType();
    if (map.getTensor().getRank() != 2 || create.getBoxDimensions().size() != 2)
      return op->emitError("emulation: TMA loads of rank other than 2 are not "
                           "emulated");
    if (map.getInterleave() != nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE ||
        map.getOob() != nvgpu::TensorMapOOBKind::OOB_ZERO)
      return op->emitError("emulation: interleaved or NaN-filled TMA maps are "
                           "not emulated");
    atPredicate(b, loc, load.getPredicate(), [&](OpBuilder &pb) {
      Value barrier =
          team.barrierAddress(pb, load.getBarriers(), load.getMbarId());
      Value destination = addressOf(pb, loc, load.getDst());
      Value sharedBase =
          team.sharedMemory
              ? memref::ExtractAlignedPointerAsIndexOp::create(
                    pb, loc, team.sharedMemory)
                    .getResult()
              : destination;
      Type element = create.getTensor().getType().getElementType();
      auto ranked = memref::CastOp::create(
          pb, loc,
          MemRefType::get({ShapedType::kDynamic, ShapedType::kDynamic},
                          element,
                          StridedLayoutAttr::get(
                              pb.getContext(), ShapedType::kDynamic,
                              {ShapedType::kDynamic, ShapedType::kDynamic})),
          create.getTensor());
      auto metadata = memref::ExtractStridedMetadataOp::create(pb, loc, ranked);
      Value source = addressOf(pb, loc, ranked);
      auto c = [&](int64_t v) {
        return arith::ConstantIndexOp::create(pb, loc, v).getResult();
      };
      ValueRange sizes = metadata.getSizes(), strides = metadata.getStrides();
      ValueRange coordinates = load.getCoordinates();
      ValueRange box = create.getBoxDimensions();
      callRuntime(pb, loc, op, "norm_emu_tma_load_2d",
                  {barrier, destination, sharedBase, source,
                   c(element.getIntOrFloatBitWidth() / 8), sizes[0], sizes[1],
                   strides[0], strides[1], coordinates[0], coordinates[1],
                   box[0], box[1], c(swizzleBytes(map.getSwizzle()))});
    });
  } else {
    return op->emitError("emulation: this op is not emulated");
  }
  op->erase();
  return success();
}
