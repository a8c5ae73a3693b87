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

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

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

std::optional<ViewStep::ArgDim> traceSize(Value size);

/// The argument dim that dim `dim` of `v` is, following the IR: a function
/// argument's dim, through casts, reshapes that keep the dim whole (an
/// expand's output_shape size, a collapse's group of one dim), transposes,
/// tensor.empty's sizes and a destination-style op's tied init.
std::optional<ViewStep::ArgDim> traceDim(Value v, int64_t dim) {
  // A bound on the walk (SSA values in one block: acyclic, but long chains
  // are not worth following).
  for (int steps = 0; steps < 64; ++steps) {
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      Block *block = arg.getOwner();
      if (!block->isEntryBlock() || !isa<func::FuncOp>(block->getParentOp()))
        return std::nullopt;
      return ViewStep::ArgDim{arg.getArgNumber(), dim};
    }
    Operation *def = v.getDefiningOp();
    if (!def)
      return std::nullopt;
    if (isa<tensor::CastOp, memref::CastOp>(def)) {
      v = def->getOperand(0);
    } else if (auto expand = dyn_cast<tensor::ExpandShapeOp>(def)) {
      OpFoldResult size = expand.getMixedOutputShape()[dim];
      auto value = dyn_cast<Value>(size);
      return value ? traceSize(value) : std::nullopt;
    } else if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(def)) {
      ReassociationIndices group = collapse.getReassociationIndices()[dim];
      if (group.size() != 1)
        return std::nullopt;
      v = collapse.getSrc();
      dim = group.front();
    } else if (auto transpose = dyn_cast<linalg::TransposeOp>(def)) {
      if (!transpose.hasPureTensorSemantics())
        return std::nullopt;
      dim = transpose.getPermutation()[dim];
      v = transpose.getInput();
    } else if (auto empty = dyn_cast<tensor::EmptyOp>(def)) {
      if (!empty.getType().isDynamicDim(dim))
        return std::nullopt;
      return traceSize(empty.getDynamicSize(dim));
    } else if (auto generic = dyn_cast<linalg::GenericOp>(def);
               generic && norm::copyPermutation(generic)) {
      dim = (*norm::copyPermutation(generic))[dim];
      v = generic.getDpsInputOperand(0)->get();
    } else if (auto dps = dyn_cast<DestinationStyleOpInterface>(def);
               dps && dps.hasPureTensorSemantics()) {
      v = dps.getTiedOpOperand(cast<OpResult>(v))->get();
    } else {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

/// The argument dim that the index `size` is: a tensor.dim or memref.dim at
/// a constant index of a value traceDim follows.
std::optional<ViewStep::ArgDim> traceSize(Value size) {
  Value source;
  std::optional<int64_t> index;
  if (auto dim = size.getDefiningOp<tensor::DimOp>()) {
    source = dim.getSource();
    index = dim.getConstantIndex();
  } else if (auto dim = size.getDefiningOp<memref::DimOp>()) {
    source = dim.getSource();
    index = dim.getConstantIndex();
  }
  auto shaped = source ? dyn_cast<ShapedType>(source.getType()) : ShapedType();
  if (!index || !shaped || !shaped.hasRank() || *index < 0 ||
      *index >= shaped.getRank())
    return std::nullopt;
  return traceDim(source, *index);
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
  // Only a dynamic size needs its argument dim.
  auto traceHigh = [&](RankedTensorType type, auto trace) {
    step.highSizes.assign(type.getRank(), {});
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (type.isDynamicDim(d))
        if (std::optional<ViewStep::ArgDim> argDim = trace(d))
          step.highSizes[d] = *argDim;
  };
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op)) {
    source = expand.getSrc();
    step.groups = toGroups(expand.getReassociationIndices());
    SmallVector<OpFoldResult> sizes = expand.getMixedOutputShape();
    traceHigh(expand.getResultType(),
              [&](int64_t d) -> std::optional<ViewStep::ArgDim> {
                auto value = dyn_cast<Value>(sizes[d]);
                return value ? traceSize(value) : std::nullopt;
              });
  } else if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op)) {
    source = collapse.getSrc();
    step.groups = toGroups(collapse.getReassociationIndices());
    traceHigh(collapse.getSrcType(),
              [&](int64_t d) { return traceDim(source, d); });
  } else if (auto reshape = dyn_cast<tensor::ReshapeOp>(op)) {
    source = reshape.getSource();
    auto sourceType = cast<RankedTensorType>(source.getType());
    step.inSizes.assign(sourceType.getRank(), {});
    for (int64_t d = 0; d < sourceType.getRank(); ++d)
      if (sourceType.isDynamicDim(d))
        if (std::optional<ViewStep::ArgDim> argDim = traceDim(source, d))
          step.inSizes[d] = *argDim;
    // The shape as frontends build it: its elements one by one.
    auto elements = reshape.getShape().getDefiningOp<tensor::FromElementsOp>();
    auto resultType = cast<RankedTensorType>(reshape.getResultType());
    step.outSizes.assign(resultType.getRank(), {});
    for (int64_t d = 0; elements && d < resultType.getRank(); ++d)
      if (resultType.isDynamicDim(d))
        if (std::optional<ViewStep::ArgDim> argDim =
                traceSize(elements.getElements()[d]))
          step.outSizes[d] = *argDim;
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

/// The size at run time of dim `d` where `sizes` says which argument dim
/// it is, if it says so.
std::optional<int64_t> argumentSize(const std::vector<ViewStep::ArgDim> &sizes,
                                    int64_t d,
                                    const std::vector<Buffer> &args) {
  if (d < 0 || static_cast<size_t>(d) >= sizes.size())
    return std::nullopt;
  ViewStep::ArgDim a = sizes[d];
  if (a.arg < 0 || static_cast<size_t>(a.arg) >= args.size() || a.dim < 0 ||
      static_cast<size_t>(a.dim) >= args[a.arg].shape.size())
    return std::nullopt;
  return args[a.arg].shape[a.dim];
}

/// The runtime sizes of `target` (a side of `step`, static sizes with
/// dynamic ones; its result side when `targetIsResult`) from those of its
/// other side `known`, and where one group of the higher-rank side (all of
/// a tensor.reshape's side) has several dynamic sizes, from the arguments
/// `args` whose dims they are (ViewStep::highSizes, inSizes, outSizes).
/// Fails with `why` when a dynamic size cannot be told, setting `misfit`
/// when the arguments' dims contradict the other side (the function's own
/// view is then invalid).
std::optional<std::vector<int64_t>>
resolveReshape(const std::vector<int64_t> &known,
               const std::vector<int64_t> &target, bool targetIsResult,
               const ViewStep &step, const std::vector<Buffer> &args,
               std::string &why, bool &misfit) {
  const std::vector<std::vector<int64_t>> &groups = step.groups;
  const std::string &name = step.name;
  std::vector<int64_t> out = target;
  auto fail = [&](const std::string &what, const std::string &note = "") {
    why = "the shape " + shapeText(target) + " on one side of '" + name + "' " +
          what + " from the " + shapeText(known) + " on its other" + note;
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
    // Each known dim is a group of target dims: one dynamic each at most,
    // the others the argument dims they are.
    auto argSize = [&](int64_t d) {
      return argumentSize(step.highSizes, d, args);
    };
    for (size_t i = 0; i < groups.size(); ++i) {
      int64_t dynamicCount = llvm::count_if(
          groups[i], [&](int64_t d) { return ShapedType::isDynamic(out[d]); });
      int64_t staticPart = 1, dynamicDim = -1;
      bool fromArgs = false;
      for (int64_t d : groups[i]) {
        if (ShapedType::isDynamic(out[d]) && dynamicCount > 1) {
          if (std::optional<int64_t> size = argSize(d)) {
            out[d] = *size;
            fromArgs = true;
          }
        }
        if (!ShapedType::isDynamic(out[d])) {
          staticPart *= out[d];
        } else if (dynamicDim >= 0) {
          return fail("has two dynamic sizes in one group, which cannot be "
                      "told apart",
                      " (the IR does not say they are dims of the "
                      "function's arguments)");
        } else {
          dynamicDim = d;
        }
      }
      if (dynamicDim >= 0)
        out[dynamicDim] = staticPart ? known[i] / staticPart : 0;
      int64_t group = 1;
      for (int64_t d : groups[i])
        group *= out[d];
      misfit = group != known[i];
      if (misfit && fromArgs)
        return fail("has sizes taken from the function's arguments whose "
                    "product " +
                    std::to_string(group) + " in group " + std::to_string(i) +
                    " is not the size " + std::to_string(known[i]));
      // Static sizes that do not divide the buffer's (a dynamic dim given
      // by --dims that the function's own reshape cannot split).
      if (misfit)
        return fail("has static sizes whose product " +
                    std::to_string(staticPart) + " in group " +
                    std::to_string(i) + " does not divide the size " +
                    std::to_string(known[i]));
    }
  } else {
    // A tensor.reshape: only the element count relates the sides, and
    // the argument dims the IR says its dynamic sizes are.
    const std::vector<ViewStep::ArgDim> &sizes =
        targetIsResult ? step.outSizes : step.inSizes;
    int64_t dynamicCount = llvm::count_if(
        out, [](int64_t size) { return ShapedType::isDynamic(size); });
    int64_t staticPart = 1, dynamicDim = -1;
    bool fromArgs = false;
    for (size_t d = 0; d < out.size(); ++d) {
      if (ShapedType::isDynamic(out[d]) && dynamicCount > 1) {
        if (std::optional<int64_t> size = argumentSize(sizes, d, args)) {
          out[d] = *size;
          fromArgs = true;
        }
      }
      if (!ShapedType::isDynamic(out[d])) {
        staticPart *= out[d];
      } else if (dynamicDim >= 0) {
        return fail("has more than one dynamic size, which cannot be told",
                    " (the IR does not say they are dims of the function's "
                    "arguments)");
      } else {
        dynamicDim = static_cast<int64_t>(d);
      }
    }
    if (dynamicDim >= 0)
      out[dynamicDim] = staticPart ? numElements(known) / staticPart : 0;
    if (fromArgs && numElements(out) != numElements(known)) {
      misfit = true;
      return fail("has sizes taken from the function's arguments whose "
                  "product " +
                  std::to_string(numElements(out)) +
                  " is not the element count " +
                  std::to_string(numElements(known)));
    }
  }
  if (numElements(out) != numElements(known)) {
    misfit = true;
    return fail("has another number of elements");
  }
  return out;
}

/// Follows `slot`'s views from its buffer's side to the op's: `visit` is
/// called with each new shape and, for a transpose, the permutation of the
/// buffer's dims (new dim i is old dim perm[i]); empty for a reshape.
template <typename Visit>
bool walkToFrame(const Slot &slot, std::vector<int64_t> shape,
                 const std::vector<Buffer> &args, std::string &why,
                 bool &misfit, Visit visit) {
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
      std::optional<std::vector<int64_t>> resolved = resolveReshape(
          shape, there, /*targetIsResult=*/fromArg, step, args, why, misfit);
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
                    const std::vector<Buffer> &args, std::string &why,
                    bool *misfit) {
  std::vector<int64_t> shape = bufferShape;
  bool contradicted = false;
  bool walked =
      walkToFrame(slot, bufferShape, args, why, contradicted,
                  [&](const std::vector<int64_t> &next,
                      const std::vector<int64_t> &) { shape = next; });
  if (misfit)
    *misfit = contradicted;
  if (!walked)
    return std::nullopt;
  return shape;
}

std::optional<Buffer>
normrun::frameBuffer(const Slot &slot, const Buffer &buffer,
                     const std::vector<Buffer> &args,
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
  bool misfit = false;
  if (!walkToFrame(slot, buffer.shape, args, why, misfit, visit))
    return std::nullopt;
  return view;
}
