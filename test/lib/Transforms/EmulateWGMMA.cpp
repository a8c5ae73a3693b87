//===- EmulateWGMMA.cpp - sm_90 warpgroup MMA on CPU threads --------------===//
//
// Test-only, part of --norm-test-emulate-gpu-on-cpu (EmulateGPUOnCPU.cpp):
// the NVVM warpgroup MMA ops of an sm_90a kernel, on a block run as an
// OpenMP team.
//
//   nvvm.wgmma.mma_async   each thread computes its own accumulator
//                          registers from the two operands in shared memory
//                          at issue: D = (scale-d ? D : 0) + Σ_k A·B, the
//                          products summed in f32 in k order. Operands come
//                          from 64-bit matrix descriptors, decoded as PTX
//                          defines them ("Matrix Descriptor Format"): start
//                          address bits [0, 14) (address >> 4, 18-bit
//                          shared window), leading byte offset [16, 30),
//                          stride byte offset [32, 46) (both >> 4), base
//                          offset [49, 52) (must be 0: tiles 1024-byte
//                          aligned), swizzle [62, 64) (0 none, 1 128-byte,
//                          2 64-byte, 3 32-byte). An element (mn, k) of an
//                          operand with e-byte elements, T = 16 / e, swizzle
//                          span W bytes, lies at start plus
//                            K-major, swizzled      (mn%8)·W + (mn/8)·SBO + k·e
//                            K-major, no swizzle    (mn%8)·16 + (mn/8)·SBO
//                                                   + (k%T)·e + (k/T)·LBO
//                            MN-major, swizzled     (mn%(W/e))·e +
//                            (mn/(W/e))·LBO
//                                                   + (k%8)·W + (k/8)·SBO
//                            MN-major, no swizzle   (mn%T)·e + (mn/T)·SBO
//                                                   + (k%8)·16 + (k/8)·LBO
//                          (CUTLASS's canonical GMMA layouts), and a swizzle
//                          XORs address bits [4, 4 + log2(W/16)) with the
//                          bits 3 places above. A is K-major for layout
//                          `row`, B for layout `col` (PTX's imm-trans = 0).
//                          Upstream MLIR's nvgpu.warpgroup.mma lowering, run
//                          on H100s by its sm_90 tests, makes exactly these
//                          descriptors for its 128-byte K-major A and
//                          MN-major B (docs/design.md, "Toward sm_90").
//                          Register i of thread t of the warpgroup (warp
//                          w = t / 32, g = lane / 4, q = lane % 4) holds row
//                          16w + g + 8·((i % 4) / 2), column 8·(i / 4) + 2q
//                          + i % 2, the layout upstream's
//                          nvgpu.warpgroup.mma.store lowering reads;
//   wgmma.fence / commit_group / wait_group
//                          nothing: the MMA completed at issue.
//   fence.mbarrier_init    nothing: the emulated barriers are host memory
//                          behind a mutex, and the block barrier after the
//                          inits is a full fence (omp.barrier).
//   fence.proxy.async      nothing: emulated wgmma and TMA read and write
//                          shared memory as the threads do (one proxy), and
//                          the block barrier that follows is a full fence.
//
// bf16 and f16 operands from descriptors with an f32 accumulator; other
// forms are errors at the op.
//
//===----------------------------------------------------------------------===//

#include "EmulatedMath.h"
#include "EmulatedTeam.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::norm::test;

namespace {

/// The fields of one matrix descriptor, as i64 byte values.
struct Descriptor {
  Value start, leading, stride, swizzleSpan; // swizzleSpan: 0, 32, 64, 128
};

Descriptor decode(EmulatedMath &m, Value desc) {
  Descriptor d;
  d.start = m.shl(m.andC(desc, 0x3FFF), 4);
  d.leading = m.shl(m.andC(m.shr(desc, 16), 0x3FFF), 4);
  d.stride = m.shl(m.andC(m.shr(desc, 32), 0x3FFF), 4);
  Value mode = m.shr(desc, 62);
  d.swizzleSpan =
      m.select(m.eq(mode, m.i64(1)), m.i64(128),
               m.select(m.eq(mode, m.i64(2)), m.i64(64),
                        m.select(m.eq(mode, m.i64(3)), m.i64(32), m.i64(0))));
  Value baseOffset = m.andC(m.shr(desc, 49), 7);
  cf::AssertOp::create(m.b, m.loc, m.eq(baseOffset, m.i64(0)),
                       "wgmma emulation: a descriptor with a nonzero base "
                       "offset (a swizzled tile not 1024-byte aligned)");
  return d;
}

/// The byte offset from `d.start` of element (mn, k) (i64 values) of an
/// operand with `bytes`-byte elements, by the table in the file comment.
Value elementOffset(EmulatedMath &m, const Descriptor &d, bool kMajor, Value mn,
                    Value k, int64_t bytes) {
  Value e = m.i64(bytes), c8 = m.i64(8), c16 = m.i64(16);
  Value t = m.i64(16 / bytes);
  Value w = d.swizzleSpan;
  Value swizzled, plain;
  if (kMajor) {
    swizzled =
        m.add(m.add(m.mul(m.rem(mn, c8), w), m.mul(m.div(mn, c8), d.stride)),
              m.mul(k, e));
    plain =
        m.add(m.add(m.mul(m.rem(mn, c8), c16), m.mul(m.div(mn, c8), d.stride)),
              m.add(m.mul(m.rem(k, t), e), m.mul(m.div(k, t), d.leading)));
  } else {
    // W / e elements per swizzle row; 1 where there is no swizzle keeps the
    // unused branch free of a division by zero.
    Value rowElements = m.select(m.eq(w, m.i64(0)), m.i64(1), m.div(w, e));
    swizzled =
        m.add(m.add(m.mul(m.rem(mn, rowElements), e),
                    m.mul(m.div(mn, rowElements), d.leading)),
              m.add(m.mul(m.rem(k, c8), w), m.mul(m.div(k, c8), d.stride)));
    plain =
        m.add(m.add(m.mul(m.rem(mn, t), e), m.mul(m.div(mn, t), d.stride)),
              m.add(m.mul(m.rem(k, c8), c16), m.mul(m.div(k, c8), d.leading)));
  }
  return m.select(m.eq(w, m.i64(0)), plain, swizzled);
}

/// Element (mn, k) of a descriptor's operand, read from the team's shared
/// memory and widened to f32 (negated for scale −1).
Value loadOperand(EmulatedMath &m, EmulatedTeam &team, const Descriptor &d,
                  Value sharedWindowBase, bool kMajor, Value mn, Value k,
                  FloatType type, bool negate) {
  int64_t bytes = type.getWidth() / 8;
  // The descriptor holds 18-bit shared-window addresses; the team's shared
  // memory is a host buffer (1024-byte aligned, like the tiles), whose low
  // 18 address bits stand for its window address.
  Value window =
      m.andC(m.sub(m.add(d.start, elementOffset(m, d, kMajor, mn, k, bytes)),
                   sharedWindowBase),
             0x3FFFF);
  Value swizzleBits = m.andC(m.shr(window, 3), 0x70);
  Value mask = m.select(m.eq(d.swizzleSpan, m.i64(0)), m.i64(0),
                        m.sub(d.swizzleSpan, m.i64(16)));
  Value at = m.toIndex(arith::XOrIOp::create(
      m.b, m.loc, window,
      arith::AndIOp::create(m.b, m.loc, swizzleBits, mask)));
  Value size = memref::DimOp::create(m.b, m.loc, team.sharedMemory, 0);
  cf::AssertOp::create(
      m.b, m.loc,
      arith::CmpIOp::create(m.b, m.loc, arith::CmpIPredicate::ule,
                            m.add(at, m.c(bytes)), size),
      "wgmma emulation: an operand element past the shared memory");
  auto view = memref::ViewOp::create(m.b, m.loc, MemRefType::get({1}, type),
                                     team.sharedMemory, at, ValueRange{});
  Value value = memref::LoadOp::create(m.b, m.loc, view, ValueRange{m.c(0)});
  value = arith::ExtFOp::create(m.b, m.loc, m.b.getF32Type(), value);
  return negate ? arith::NegFOp::create(m.b, m.loc, value).getResult() : value;
}

FloatType operandType(MLIRContext *ctx, NVVM::WGMMATypes t) {
  if (t == NVVM::WGMMATypes::bf16)
    return BFloat16Type::get(ctx);
  if (t == NVVM::WGMMATypes::f16)
    return Float16Type::get(ctx);
  return nullptr;
}

LogicalResult emulateMmaAsync(NVVM::WgmmaMmaAsyncOp op, EmulatedTeam &team) {
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  FloatType typeA = operandType(ctx, op.getTypeA());
  FloatType typeB = operandType(ctx, op.getTypeB());
  if (!typeA || typeA != typeB || op.getTypeD() != NVVM::WGMMATypes::f32)
    return op.emitError("emulation: only wgmma with bf16 or f16 operands and "
                        "an f32 accumulator is emulated");
  if (!team.sharedMemory)
    return op.emitError("emulation: wgmma operands must be in the launch's "
                        "dynamic shared memory");
  NVVM::MMAShapeAttr shape = op.getShape();
  auto structType = dyn_cast<LLVM::LLVMStructType>(op.getResults().getType());
  int64_t registers = shape.getM() * shape.getN() / 128;
  if (shape.getM() != 64 || shape.getK() != 16 || !structType ||
      static_cast<int64_t>(structType.getBody().size()) != registers)
    return op.emitError("emulation: a wgmma shape or result other than "
                        "m64nNk16 with N/2 f32 registers");

  OpBuilder b(op);
  EmulatedMath m{b, loc};
  // The thread's registers in a stack buffer for the loops below.
  Value regs =
      team.threadLocalBuffer(MemRefType::get({registers}, b.getF32Type()));
  bool accumulate = op.getScaleD() == NVVM::WGMMAScaleOut::one;
  for (int64_t i = 0; i < registers; ++i) {
    Value v = accumulate
                  ? LLVM::ExtractValueOp::create(b, loc, op.getInouts(), i)
                        .getResult()
                  : arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0))
                        .getResult();
    memref::StoreOp::create(b, loc, v, regs, ValueRange{m.c(i)});
  }

  Descriptor a = decode(m, op.getDescriptorA());
  Descriptor bDesc = decode(m, op.getDescriptorB());
  Value sharedBase =
      m.andC(m.toI64(memref::ExtractAlignedPointerAsIndexOp::create(
                 b, loc, team.sharedMemory)),
             0x3FFFF);
  bool aKMajor = op.getLayoutA() == NVVM::MMALayout::row;
  bool bKMajor = op.getLayoutB() == NVVM::MMALayout::col;
  bool negA = op.getScaleA() == NVVM::WGMMAScaleIn::neg;
  bool negB = op.getScaleB() == NVVM::WGMMAScaleIn::neg;

  Value inGroup = m.toI64(m.rem(team.tid, m.c(128)));
  Value warp = m.div(inGroup, m.i64(32)), lane = m.rem(inGroup, m.i64(32));
  auto forRegs =
      scf::ForOp::create(b, loc, m.c(0), m.c(registers), m.c(1));
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(forRegs.getBody());
    Value i = m.toI64(forRegs.getInductionVar());
    Value quad = m.rem(i, m.i64(4));
    Value row = m.add(m.add(m.mul(warp, m.i64(16)), m.div(lane, m.i64(4))),
                      m.mul(m.div(quad, m.i64(2)), m.i64(8)));
    Value col = m.add(m.add(m.mul(m.div(i, m.i64(4)), m.i64(8)),
                            m.mul(m.rem(lane, m.i64(4)), m.i64(2))),
                      m.rem(quad, m.i64(2)));
    Value init = memref::LoadOp::create(b, loc, regs,
                                        ValueRange{forRegs.getInductionVar()});
    auto forK = scf::ForOp::create(b, loc, m.c(0), m.c(shape.getK()),
                                   m.c(1), ValueRange{init});
    b.setInsertionPointToStart(forK.getBody());
    Value k = m.toI64(forK.getInductionVar());
    Value x = loadOperand(m, team, a, sharedBase, aKMajor, row, k, typeA, negA);
    Value y =
        loadOperand(m, team, bDesc, sharedBase, bKMajor, col, k, typeB, negB);
    Value sum = arith::AddFOp::create(b, loc, forK.getRegionIterArgs()[0],
                                      arith::MulFOp::create(b, loc, x, y));
    scf::YieldOp::create(b, loc, sum);
    b.setInsertionPointAfter(forK);
    memref::StoreOp::create(b, loc, forK.getResult(0), regs,
                            ValueRange{forRegs.getInductionVar()});
  }

  Value result = LLVM::PoisonOp::create(b, loc, structType);
  for (int64_t i = 0; i < registers; ++i)
    result = LLVM::InsertValueOp::create(
        b, loc, result,
        memref::LoadOp::create(b, loc, regs, ValueRange{m.c(i)}), i);
  op.getResults().replaceAllUsesWith(result);
  return success();
}

} // namespace

LogicalResult mlir::norm::test::emulateWGMMAOp(Operation *op,
                                               EmulatedTeam &team) {
  if (auto mma = dyn_cast<NVVM::WgmmaMmaAsyncOp>(op)) {
    if (failed(emulateMmaAsync(mma, team)))
      return failure();
  } else if (!isa<NVVM::WgmmaFenceAlignedOp, NVVM::WgmmaGroupSyncAlignedOp,
                  NVVM::WgmmaWaitGroupSyncOp, NVVM::FenceMbarrierInitOp,
                  NVVM::FenceProxyOp>(op)) {
    return op->emitError("emulation: this op is not emulated");
  }
  op->erase();
  return success();
}
