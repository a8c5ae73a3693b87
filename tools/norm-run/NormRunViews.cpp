//===- NormRunViews.cpp - norm-run: views to the op's frame -----*- C++ -*-===//
//
// A norm op's operand may be a reshape or a transpose of a function
// argument, and its result returned through such views (QK-norm's fused op
// [B·T, N] returned as heads [B, T, H, D], or transposed to [B, H, T, D]).
// --check computes the reference in the op's own frame, so each buffer is
// seen through the views between it and the op: applied from an argument,
// undone from a returned result. Reshapes keep the row-major order of the
// elements and transposes permute the dims, so either is a new shape and
// new strides over the same elements, or a copy when a reshape meets a
// strided view.
//
//===----------------------------------------------------------------------===//

#include "NormRun.h"

#include "norm/Dialect/Norm/Transforms/Transforms.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cstring>

using namespace mlir;
using namespace normrun;
namespace ref = mlir::norm::reference;

//===----------------------------------------------------------------------===//
// Recording the views
//===----------------------------------------------------------------------===//

namespace {

std::vector<int64_t> shapeOf(Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  return std::vector<int64_t>(type.getShape().begin(), type.getShape().end());
}

std::vector<std::vector<int64_t>>
toGroups(ArrayRef<ReassociationIndices> groups) {
  std::vector<std::vector<int64_t>> out;
  for (const ReassociationIndices &g : groups)
    out.emplace_back(g.begin(), g.end());
  return out;
}

} // namespace

Value normrun::followView(Operation *op, ViewStep &step, bool &isCast) {
  isCast = false;
  if (!op || op->getNumResults() != 1 || op->getNumOperands() == 0)
    return {};
  if (isa<memref::CastOp, tensor::CastOp>(op)) {
    isCast = true;
    return op->getOperand(0);
  }
  // Unranked tensors have no dims to follow.
  if (!isa<RankedTensorType>(op->getResult(0).getType()) ||
      !isa<RankedTensorType>(op->getOperand(0).getType()))
    return {};
  Value source;
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op)) {
    source = expand.getSrc();
    step.groups = toGroups(expand.getReassociationIndices());
  } else if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op)) {
    source = collapse.getSrc();
    step.groups = toGroups(collapse.getReassociationIndices());
  } else if (auto reshape = dyn_cast<tensor::ReshapeOp>(op)) {
    source = reshape.getSource();
  } else if (auto transpose = dyn_cast<linalg::TransposeOp>(op)) {
    if (!transpose.hasPureTensorSemantics())
      return {};
    source = transpose.getInput();
    ArrayRef<int64_t> perm = transpose.getPermutation();
    step.perm.assign(perm.begin(), perm.end());
  } else if (auto generic = dyn_cast<linalg::GenericOp>(op)) {
    std::optional<SmallVector<int64_t>> perm = norm::copyPermutation(generic);
    if (!perm)
      return {};
    source = generic.getDpsInputOperand(0)->get();
    step.perm.assign(perm->begin(), perm->end());
  } else {
    return {};
  }
  step.name = op->getName().getStringRef().str();
  step.inShape = shapeOf(source);
  step.outShape = shapeOf(op->getResult(0));
  return source;
}

//===----------------------------------------------------------------------===//
// Applying them
//===----------------------------------------------------------------------===//

namespace {

int64_t numElements(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::string shapeText(const std::vector<int64_t> &shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? "x" : "") + (ShapedType::isDynamic(shape[i])
                                  ? std::string("?")
                                  : std::to_string(shape[i]));
  return text + "]";
}

/// The runtime sizes of `target` (a side of a reshape, static sizes with
/// dynamic ones) from those of its other side `known`; `groups` as in
/// ViewStep. Fails with `why` when a dynamic size cannot be told.
std::optional<std::vector<int64_t>>
resolveReshape(const std::vector<int64_t> &known,
               const std::vector<int64_t> &target,
               const std::vector<std::vector<int64_t>> &groups,
               const std::string &name, std::string &why) {
  std::vector<int64_t> out = target;
  auto fail = [&](const std::string &what) {
    why = "the shape " + shapeText(target) + " on one side of '" + name + "' " +
          what + " from the " + shapeText(known) + " on its other";
    return std::nullopt;
  };
  bool lowRank = target.size() < known.size();
  if (!groups.empty() && groups.size() != (lowRank ? out : known).size())
    return fail("does not match its reassociation");
  if (!groups.empty() && lowRank) {
    // Each target dim is a group of known dims.
    for (size_t i = 0; i < out.size(); ++i) {
      int64_t p = 1;
      for (int64_t d : groups[i])
        p *= known[d];
      out[i] = p;
    }
  } else if (!groups.empty()) {
    // Each known dim is a group of target dims: one dynamic each at most.
    for (size_t i = 0; i < groups.size(); ++i) {
      int64_t staticPart = 1, dynamicDim = -1;
      for (int64_t d : groups[i]) {
        if (!ShapedType::isDynamic(out[d])) {
          staticPart *= out[d];
        } else if (dynamicDim >= 0) {
          return fail("has two dynamic sizes in one group, which cannot be "
                      "told apart");
        } else {
          dynamicDim = d;
        }
      }
      if (dynamicDim >= 0)
        out[dynamicDim] = staticPart ? known[i] / staticPart : 0;
    }
  } else {
    // A tensor.reshape: only the element count relates the sides.
    int64_t staticPart = 1, dynamicDim = -1;
    for (size_t d = 0; d < out.size(); ++d) {
      if (!ShapedType::isDynamic(out[d])) {
        staticPart *= out[d];
      } else if (dynamicDim >= 0) {
        return fail("has more than one dynamic size, which cannot be told");
      } else {
        dynamicDim = static_cast<int64_t>(d);
      }
    }
    if (dynamicDim >= 0)
      out[dynamicDim] = staticPart ? numElements(known) / staticPart : 0;
  }
  if (numElements(out) != numElements(known))
    return fail("has another number of elements");
  return out;
}

/// Follows `slot`'s views from its buffer's side to the op's: `visit` is
/// called with each new shape and, for a transpose, the permutation of the
/// buffer's dims (new dim i is old dim perm[i]); empty for a reshape.
template <typename Visit>
bool walkToFrame(const Slot &slot, std::vector<int64_t> shape, std::string &why,
                 Visit visit) {
  bool fromArg = slot.kind == Slot::Arg;
  size_t n = slot.views.size();
  for (size_t k = 0; k < n; ++k) {
    const ViewStep &step = slot.views[fromArg ? k : n - 1 - k];
    const std::vector<int64_t> &here = fromArg ? step.inShape : step.outShape;
    const std::vector<int64_t> &there = fromArg ? step.outShape : step.inShape;
    if (shape.size() != here.size()) {
      why = "'" + step.name + "' expects rank " + std::to_string(here.size()) +
            ", the buffer has shape " + shapeText(shape);
      return false;
    }
    std::vector<int64_t> perm;
    std::vector<int64_t> next;
    if (!step.perm.empty()) {
      // Applied: out dim i is in dim perm[i]. Undone: in dim perm[i] is out
      // dim i.
      next.assign(shape.size(), 0);
      perm.assign(shape.size(), 0);
      for (size_t i = 0; i < step.perm.size(); ++i) {
        size_t from = fromArg ? step.perm[i] : i;
        size_t to = fromArg ? i : step.perm[i];
        next[to] = shape[from];
        perm[to] = static_cast<int64_t>(from);
      }
    } else {
      std::optional<std::vector<int64_t>> resolved =
          resolveReshape(shape, there, step.groups, step.name, why);
      if (!resolved)
        return false;
      next = *resolved;
    }
    visit(next, perm);
    shape = std::move(next);
  }
  return true;
}

} // namespace

std::optional<std::vector<int64_t>>
normrun::frameShape(const Slot &slot, const std::vector<int64_t> &bufferShape,
                    std::string &why) {
  std::vector<int64_t> shape = bufferShape;
  if (!walkToFrame(slot, bufferShape, why,
                   [&](const std::vector<int64_t> &next,
                       const std::vector<int64_t> &) { shape = next; }))
    return std::nullopt;
  return shape;
}

std::optional<Buffer>
normrun::frameBuffer(const Slot &slot, const Buffer &buffer,
                     std::vector<std::unique_ptr<std::vector<char>>> &storage,
                     std::string &why) {
  Buffer view = buffer;
  size_t width = buffer.quant ? 1 : ref::getElemTypeByteWidth(buffer.elemType);
  auto visit = [&](const std::vector<int64_t> &next,
                   const std::vector<int64_t> &perm) {
    if (!perm.empty()) {
      std::vector<int64_t> strides(perm.size());
      for (size_t i = 0; i < perm.size(); ++i)
        strides[i] = view.strides[perm[i]];
      view.shape = next;
      view.strides = std::move(strides);
      return;
    }
    // A reshape: the elements in row-major order, contiguous.
    bool contiguous = true;
    int64_t expect = 1;
    for (int64_t d = static_cast<int64_t>(view.shape.size()) - 1; d >= 0; --d) {
      if (view.shape[d] != 1 && view.strides[d] != expect)
        contiguous = false;
      expect *= view.shape[d];
    }
    if (!contiguous) {
      int64_t n = view.getNumElements();
      auto block = std::make_unique<std::vector<char>>(n * width);
      std::vector<int64_t> idx(view.shape.size(), 0);
      for (int64_t e = 0; e < n; ++e) {
        int64_t off = 0;
        for (size_t k = 0; k < idx.size(); ++k)
          off += idx[k] * view.strides[k];
        std::memcpy(block->data() + e * width, view.data + off * width, width);
        for (int64_t k = static_cast<int64_t>(idx.size()) - 1; k >= 0; --k) {
          if (++idx[k] < view.shape[k])
            break;
          idx[k] = 0;
        }
      }
      view.data = block->data();
      view.allocated = nullptr;
      storage.push_back(std::move(block));
    }
    view.shape = next;
    view.strides.assign(next.size(), 1);
    for (int64_t d = static_cast<int64_t>(next.size()) - 2; d >= 0; --d)
      view.strides[d] = view.strides[d + 1] * next[d + 1];
  };
  if (!walkToFrame(slot, buffer.shape, why, visit))
    return std::nullopt;
  return view;
}
