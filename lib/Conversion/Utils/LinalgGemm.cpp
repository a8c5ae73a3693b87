//===- LinalgGemm.cpp - linalg matmuls the project's GEMMs take -----------===//

#include "norm/Conversion/Utils/LinalgGemm.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::norm;

namespace {

/// `v`, or the operand of the `arith.extf` that defines it.
Value stripExtension(Value v) {
  if (auto ext = v.getDefiningOp<arith::ExtFOp>())
    return ext.getIn();
  return v;
}

} // namespace

bool mlir::norm::isLinalgMultiplyAccumulate(Block &body) {
  if (body.getNumArguments() != 3)
    return false;
  auto yield = dyn_cast<linalg::YieldOp>(body.getTerminator());
  if (!yield || yield.getNumOperands() != 1)
    return false;
  auto add = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add)
    return false;
  Value out = body.getArgument(2);
  Value other = add.getLhs() == out   ? add.getRhs()
                : add.getRhs() == out ? add.getLhs()
                                      : Value();
  auto mul = other ? other.getDefiningOp<arith::MulFOp>() : nullptr;
  if (!mul)
    return false;
  Value a = body.getArgument(0), b = body.getArgument(1);
  Value lhs = stripExtension(mul.getLhs()), rhs = stripExtension(mul.getRhs());
  return (lhs == a && rhs == b) || (lhs == b && rhs == a);
}

namespace {

/// The element type of an identity-layout memref of `rank`, or null.
Type identityElementType(Value v, int64_t rank) {
  auto type = dyn_cast<MemRefType>(v.getType());
  if (!type || type.getRank() != rank || !type.getLayout().isIdentity())
    return Type();
  return type.getElementType();
}

} // namespace

std::optional<LinalgGemm> mlir::norm::matchLinalgGemm(linalg::LinalgOp op,
                                                      std::string &whyNot) {
  auto fail = [&](const char *reason) -> std::optional<LinalgGemm> {
    whyNot = reason;
    return std::nullopt;
  };
  if (!isa<linalg::MatmulOp, linalg::BatchMatmulOp, linalg::GenericOp>(
          op.getOperation()))
    return fail("not a linalg.matmul, linalg.batch_matmul or linalg.generic");
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1)
    return fail("it needs two memref inputs and one memref output");
  // (m, n, k), or (b, m, n, k) for a batch of independent matmuls.
  int64_t numLoops = op.getNumLoops();
  bool batched = numLoops == 4;
  if ((numLoops != 3 && !batched) || op.getNumReductionLoops() != 1 ||
      op.getIteratorTypesArray()[numLoops - 1] !=
          utils::IteratorType::reduction)
    return fail("its loops are not (m, n, k) or (b, m, n, k)");
  LinalgGemm gemm;
  gemm.a = op.getDpsInputOperand(0)->get();
  gemm.w = op.getDpsInputOperand(1)->get();
  gemm.c = op.getDpsInitOperand(0)->get();
  int64_t rank = batched ? 3 : 2;
  Type inputType = identityElementType(gemm.a, rank);
  if (!inputType || identityElementType(gemm.w, rank) != inputType ||
      !isa_and_nonnull<Float32Type>(identityElementType(gemm.c, rank)) ||
      !isa<Float32Type, BFloat16Type, Float16Type>(inputType))
    return fail("the GEMM takes identity-layout memrefs with A and W of one "
                "type (f32, bf16 or f16) and an f32 C");
  MLIRContext *ctx = op.getContext();
  SmallVector<AffineExpr> dims(numLoops);
  for (int64_t i = 0; i < numLoops; ++i)
    dims[i] = getAffineDimExpr(i, ctx);
  AffineExpr m = dims[numLoops - 3], n = dims[numLoops - 2],
             k = dims[numLoops - 1];
  auto map = [&](AffineExpr x, AffineExpr y) {
    return AffineMap::get(numLoops, 0, {x, y}, ctx);
  };
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  // Each operand's batch dim, and the map without it: the batch may sit in
  // front or in the middle (a head split folded into the matmul: V as
  // [seq, heads, dim]), not last (the rows must stay contiguous).
  for (int64_t i = 0; batched && i < 3; ++i) {
    std::optional<unsigned> at = maps[i].getResultPosition(dims[0]);
    if (!at || *at == 2)
      return fail("a batch dim is missing or last");
    gemm.batchDims.push_back(*at);
    maps[i] = maps[i].dropResult(*at);
  }
  if (maps[0] != map(m, k) || maps[2] != map(m, n))
    return fail("A or C is not indexed (m, k) / (m, n)");
  gemm.transposeW = maps[1] == map(n, k);
  if (!gemm.transposeW && maps[1] != map(k, n))
    return fail("W is not indexed (k, n) or (n, k)");
  if (!isLinalgMultiplyAccumulate(*op.getBlock()))
    return fail("its body is not out + a·b");
  return gemm;
}
