//===- LinalgContraction.cpp - general contractions as GEMM loops ---------===//

#include "norm/Conversion/Utils/LinalgContraction.h"

#include "norm/Conversion/Utils/LinalgGemm.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::norm;

bool ContractionOperand::needsCollapse() const {
  return llvm::any_of(collapse, [](const ReassociationIndices &group) {
    return group.size() > 1;
  });
}

namespace {

/// An operand's indexing map as its list of loop dims, or empty when the map
/// is not a projected permutation (every result a distinct loop dim).
SmallVector<int64_t> loopDimsOf(AffineMap map) {
  SmallVector<int64_t> dims;
  if (map.getNumSymbols() != 0 ||
      !map.isProjectedPermutation(/*allowZeroInResults=*/false))
    return dims;
  for (AffineExpr e : map.getResults())
    dims.push_back(cast<AffineDimExpr>(e).getPosition());
  return dims;
}

/// The position of `loop` in `dims`, or -1.
int64_t positionOf(ArrayRef<int64_t> dims, int64_t loop) {
  auto it = llvm::find(dims, loop);
  return it == dims.end() ? -1 : it - dims.begin();
}

/// `operand` with `dims` (its map's loop dims) collapsed so that each of the
/// GEMM groups (runs of consecutive positions, given by their first position
/// and length) becomes one dim and every other dim is fixed by its outer
/// loop (`outerIndex` of the loop dim).
ContractionOperand
describeOperand(Value memref, ArrayRef<int64_t> dims,
                ArrayRef<std::pair<int64_t, int64_t>> groups,
                const DenseMap<int64_t, int64_t> &outerIndex) {
  ContractionOperand operand;
  operand.memref = memref;
  for (int64_t pos = 0, e = dims.size(); pos < e;) {
    const auto *group = llvm::find_if(
        groups, [&](const auto &g) { return g.first == pos && g.second > 0; });
    if (group != groups.end()) {
      ReassociationIndices indices;
      for (int64_t i = 0; i < group->second; ++i)
        indices.push_back(pos + i);
      operand.collapse.push_back(indices);
      operand.fixedBy.push_back(-1);
      pos += group->second;
      continue;
    }
    operand.collapse.push_back({pos});
    operand.fixedBy.push_back(outerIndex.lookup(dims[pos]));
    ++pos;
  }
  return operand;
}

} // namespace

std::optional<LinalgContraction>
mlir::norm::matchLinalgContraction(linalg::LinalgOp op, std::string &whyNot) {
  auto fail = [&](const char *reason) -> std::optional<LinalgContraction> {
    whyNot = reason;
    return std::nullopt;
  };
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1)
    return fail("it needs two memref inputs and one memref output");
  Value a = op.getDpsInputOperand(0)->get();
  Value w = op.getDpsInputOperand(1)->get();
  Value c = op.getDpsInitOperand(0)->get();
  auto typeOf = [](Value v) { return cast<MemRefType>(v.getType()); };
  for (Value v : {a, w, c})
    if (!typeOf(v).getLayout().isIdentity() || typeOf(v).getRank() == 0)
      return fail("the GEMM loops take identity-layout memrefs of rank >= 1");
  Type inputType = typeOf(a).getElementType();
  if (typeOf(w).getElementType() != inputType ||
      !isa<Float32Type>(typeOf(c).getElementType()) ||
      !isa<Float32Type, BFloat16Type, Float16Type>(inputType))
    return fail("the GEMM takes A and W of one type (f32, bf16 or f16) and "
                "an f32 C");
  if (!isLinalgMultiplyAccumulate(*op.getBlock()))
    return fail("its body is not out + a·b");

  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  SmallVector<int64_t> da = loopDimsOf(maps[0]), dw = loopDimsOf(maps[1]),
                       dc = loopDimsOf(maps[2]);
  if (da.size() != static_cast<size_t>(maps[0].getNumResults()) ||
      dw.size() != static_cast<size_t>(maps[1].getNumResults()) ||
      dc.size() != static_cast<size_t>(maps[2].getNumResults()))
    return fail("an indexing map is not a projected permutation");
  int64_t numLoops = op.getNumLoops();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  auto isReduction = [&](int64_t loop) {
    return iterators[loop] == utils::IteratorType::reduction;
  };
  for (int64_t loop = 0; loop < numLoops; ++loop) {
    bool inC = positionOf(dc, loop) >= 0;
    if (isReduction(loop) == inC)
      return fail("a parallel loop is missing from C or a reduction loop "
                  "indexes it");
    if (!inC && positionOf(da, loop) < 0 && positionOf(dw, loop) < 0)
      return fail("a reduction loop indexes no operand");
  }

  // C's columns are the dims of the second operand: when C's last dim is a
  // row of the first (C stored transposed against the operands' order),
  // compute it as W·A instead; the body's product commutes.
  auto inOnly = [&](ArrayRef<int64_t> in, ArrayRef<int64_t> notIn,
                    int64_t loop) {
    return positionOf(in, loop) >= 0 && positionOf(notIn, loop) < 0;
  };
  if (inOnly(da, dw, dc.back())) {
    std::swap(a, w);
    std::swap(da, dw);
  }
  if (!inOnly(dw, da, dc.back()))
    return fail("C's last dim is not a dim of one input only");

  // K: A's last dim and those before it that W holds just before it, in the
  // same order (one contiguous run in both).
  int64_t kLast = da.back();
  int64_t kInW = positionOf(dw, kLast);
  if (!isReduction(kLast) || kInW < 0)
    return fail("A's last dim is not a reduction dim that W shares");
  bool transposeW = kInW == static_cast<int64_t>(dw.size()) - 1;
  if (!transposeW && dw.back() != dc.back())
    return fail("W's last dim is neither its reduction nor C's last dim");
  int64_t kLen = 1;
  while (kLen < static_cast<int64_t>(da.size()) && kInW - kLen >= 0 &&
         da[da.size() - 1 - kLen] == dw[kInW - kLen] &&
         isReduction(dw[kInW - kLen]))
    ++kLen;

  // N: C's last dim and those before it that W holds just before it.
  int64_t nInW = positionOf(dw, dc.back());
  int64_t nLen = 1;
  while (nLen < static_cast<int64_t>(dc.size()) && nInW - nLen >= 0 &&
         dc[dc.size() - 1 - nLen] == dw[nInW - nLen] &&
         inOnly(dw, da, dc[dc.size() - 1 - nLen]))
    ++nLen;

  // M: A's last row dim (parallel, not in W) and those before it that C
  // holds just before it.
  int64_t mEndInA = -1;
  for (int64_t i = static_cast<int64_t>(da.size()) - 1 - kLen; i >= 0; --i)
    if (!isReduction(da[i]) && positionOf(dw, da[i]) < 0) {
      mEndInA = i;
      break;
    }
  if (mEndInA < 0)
    return fail("no row dim (a dim of A and C only)");
  int64_t mEndInC = positionOf(dc, da[mEndInA]);
  int64_t mLen = 1;
  while (mEndInA - mLen >= 0 && mEndInC - mLen >= 0 &&
         da[mEndInA - mLen] == dc[mEndInC - mLen] &&
         !isReduction(da[mEndInA - mLen]) &&
         positionOf(dw, da[mEndInA - mLen]) < 0)
    ++mLen;

  // Every other loop dim is an outer loop: the parallel ones first (the
  // threads take them), then the reductions.
  DenseSet<int64_t> gemmDims;
  for (int64_t i = 0; i < kLen; ++i)
    gemmDims.insert(da[da.size() - 1 - i]);
  for (int64_t i = 0; i < nLen; ++i)
    gemmDims.insert(dc[dc.size() - 1 - i]);
  for (int64_t i = 0; i < mLen; ++i)
    gemmDims.insert(da[mEndInA - i]);
  LinalgContraction result;
  result.transposeW = transposeW;
  DenseMap<int64_t, int64_t> outerIndex;
  for (bool reductions : {false, true}) {
    for (int64_t loop = 0; loop < numLoops; ++loop) {
      if (gemmDims.contains(loop) || isReduction(loop) != reductions)
        continue;
      LinalgContraction::OuterDim outer{loop, reductions, 0, 0};
      ArrayRef<int64_t> operandDims[3] = {da, dw, dc};
      for (auto [operand, dims] : llvm::enumerate(operandDims)) {
        int64_t at = positionOf(dims, loop);
        if (at >= 0) {
          outer.operand = operand;
          outer.dim = at;
          break;
        }
      }
      outerIndex[loop] = result.outerDims.size();
      result.outerDims.push_back(outer);
    }
  }
  int64_t kStartInA = da.size() - kLen, nStartInC = dc.size() - nLen;
  result.a = describeOperand(
      a, da, {{mEndInA - mLen + 1, mLen}, {kStartInA, kLen}}, outerIndex);
  result.w = describeOperand(
      w, dw, {{kInW - kLen + 1, kLen}, {nInW - nLen + 1, nLen}}, outerIndex);
  result.c = describeOperand(
      c, dc, {{mEndInC - mLen + 1, mLen}, {nStartInC, nLen}}, outerIndex);
  return result;
}
