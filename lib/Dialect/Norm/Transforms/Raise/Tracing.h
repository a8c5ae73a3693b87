//===- Tracing.h - symbolic evaluation of tensor IR, norm-raise -*- C++ -*-===//
//
// The Tracer evaluates one element of a root tensor of rank R at the index
// (d0, ..., d_{R-1}) and returns the Expr the IR computes for it. It walks
// back through:
//   - linalg structured ops (generic and named: elementwise, broadcast,
//     reduce, map, transpose), mapping block arguments through indexing
//     maps; a reduction (yield = acc + f) becomes Sum(f) over the root dims
//     its reduction loops stand for;
//   - tensor.expand_shape / collapse_shape / reshape (static) / cast,
//     splat constants, linalg.fill;
//   - tensor.extract_slice at offset 0, where a reduction reads a prefix of
//     the row through it (pRMSNorm): a Sum over the first k elements;
//   - with `traceSliceBackward`, autograd's slice_backward (an insert at
//     offset 0 into zeros, a zero pad at the row's end, a select on the
//     column index): an Indicator [j < k] times the tensor;
//   - arith / math arithmetic on scalars (in bodies) and on tensors;
//   - TOSA elementwise ops with their rank-equal broadcasting, reduce_sum,
//     reshape, cast, const (TosaTracing.cpp);
//   - max(s, 0) of a statistic s (Flax's clamped one-pass variance);
//   - with `traceQuantization`, what quantizing a norm's result adds: max /
//     min (and their compare-and-select spellings), abs, roundings, fptosi
//     and casts to i8 / fp8, max reductions (the amax), tosa.clamp.
// Anything else is a Leaf: an opaque tensor read at a binding.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_LIB_DIALECT_NORM_TRANSFORMS_RAISE_TRACING_H
#define NORM_LIB_DIALECT_NORM_TRANSFORMS_RAISE_TRACING_H

#include "NormExpr.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SetVector.h"

#include <map>

namespace mlir {
namespace norm {
namespace raise {

class Tracer {
public:
  Tracer(ExprArena &arena, RankedTensorType rootType);

  /// The element of `v` at `binding` (one DimGroup per dim of `v`); null
  /// when the evaluation blew past the arena's budget.
  Expr *eval(Value v, const Binding &binding);

  /// The identity binding of the root (unit dims read at 0).
  Binding rootBinding() const;
  /// True if `b` reads a tensor of type `t` at the root index, dim for dim.
  bool isRootBinding(const Binding &b, ShapedType t) const;
  int64_t rootDimSize(unsigned d) const { return rootType.getDimSize(d); }
  unsigned rootRank() const { return rootType.getRank(); }

  /// Every op looked through (not the Leaves), for the cone of a match.
  llvm::SetVector<Operation *> tracedOps;
  /// Every (value, binding) evaluated, for finding statistics tensors.
  std::map<std::pair<void *, Binding>, Expr *> memo;
  /// Tensors whose dynamic dims were read as the root's extents.
  llvm::SmallVector<Value> extentSources;
  /// Reductions whose accumulator is a bare tensor.empty (no fill).
  llvm::SmallVector<Operation *> uninitializedReductions;
  /// Slices of a fixed size k of a dynamic row dim (no pRMSNorm prefix).
  llvm::SmallVector<std::pair<Operation *, int64_t>> dynamicRowSlices;
  /// Also evaluate the quantization ops (QuantRecognizer.cpp); off for the
  /// norm recognizers, which never see them.
  bool traceQuantization = false;
  /// Also evaluate what autograd's slice_backward writes (the norm
  /// backward, GradRecognizer.cpp): a computed tensor inserted at offset 0
  /// into zeros, zero-padded at the end of the row, or a select on
  /// `linalg.index < k`, as [j < k] times it (SliceTracing.cpp). Off for the
  /// forward recognizers, where a padded tensor stays the norm's input.
  bool traceSliceBackward = false;
  /// The inserts and pads of a computed tensor not looked through, and why
  /// (with `traceSliceBackward`), for the recognizer's remark.
  llvm::SmallVector<std::pair<Operation *, std::string>> sliceBackwardRefusals;

  // Builders shared by the linalg and TOSA evaluation.
  Expr *leaf(Value v, const Binding &b);
  Expr *constant(double c, Type type);
  Expr *node(ExprKind kind, Type type, ArrayRef<Expr *> operands);
  /// A Sum over `dims` of `body`, added to `init` (the accumulator's start);
  /// over the first `prefix` elements only if non-zero.
  Expr *sum(Expr *body, ArrayRef<unsigned> dims, Expr *init,
            int64_t prefix = 0);
  /// What the reduction loops, each (root dims, static extent or dynamic),
  /// range over: 0 for all of their root dims, k for the first k elements
  /// of them linearized (a loop over a slice of the row), nullopt when the
  /// box they cover is no prefix.
  std::optional<int64_t>
  prefixOf(ArrayRef<std::pair<DimGroup, int64_t>> loops) const;
  /// Drops unit root dims from a group (they are always read at 0).
  DimGroup normalize(DimGroup g) const;
  /// The root dims no entry of `b` reads (what a reduction can range over).
  DimGroup unusedRootDims(const Binding &b) const;
  /// The binding of the operand of a rank-equal broadcasting op (TOSA):
  /// dims of static size 1 are read at 0.
  Binding broadcastOperand(const Binding &b, ShapedType operandType) const;
  /// Splits the groups of a collapsed tensor's binding over the source dims
  /// (the inverse of collapse_shape's reassociation); nullopt if the root
  /// dims do not line up with the source sizes.
  std::optional<Binding>
  splitCollapsed(const Binding &b, ShapedType srcType,
                 ArrayRef<ReassociationIndices> reassociation) const;
  /// The binding of an expand_shape's source: each group concatenated.
  Binding joinExpanded(const Binding &b,
                       ArrayRef<ReassociationIndices> reassociation) const;

  /// A float scalar defined outside any body (constant, function argument,
  /// a size from tensor.dim).
  Expr *evalOutsideScalar(Value v);
  /// max(s, 0) (either order) of a statistic `s` (an Expr with a reduction
  /// under it), as a Max node with the statistic first: Flax's one-pass
  /// variance max(0, E[x²] − μ²). Null for anything else (a ReLU of data).
  Expr *clampedAtZero(Expr *lhs, Expr *rhs, bool nanKeeps, Type type);
  /// An arith/math op applied to already-evaluated operands; null if the
  /// op is not one the algebra knows.
  Expr *applyArith(Operation *op, ArrayRef<Expr *> operands);

  // TOSA (TosaTracing.cpp). Null if `op` is not a traced TOSA op.
  Expr *evalTosa(Operation *op, Value result, const Binding &b);
  /// The operand `v` of a TOSA elementwise op, broadcast to the result's
  /// shape, read at the result's binding `b`.
  Expr *evalTosaOperand(Value v, RankedTensorType resultType, const Binding &b);
  /// The root dims a TOSA reduction (rank-preserving, one `axis`) of
  /// `input` ranges over when its result is read at `b`; nullopt if none.
  std::optional<DimGroup> tosaReducedGroup(int64_t axis, Value input,
                                           RankedTensorType resultType,
                                           const Binding &b) const;
  /// The TOSA ops of a quantization (with `traceQuantization`).
  Expr *evalTosaQuantization(Operation *op, Value result, const Binding &b);

private:
  Expr *evalOp(Operation *op, Value result, const Binding &b);
  Expr *evalLinalg(linalg::LinalgOp op, OpResult result, const Binding &b);
  /// A scalar SSA value inside `op`'s body, the loops bound to root dims.
  Expr *evalBody(linalg::LinalgOp op, Value v,
                 ArrayRef<std::optional<DimGroup>> loops);
  Expr *evalExtent(Value indexLike);
  /// sitofp / uitofp of an integer constant or a size (evalExtent), as a
  /// float of the result's type; null for any other op.
  Expr *evalIntToFloat(Operation *def);
  /// A select between the operands of its compare, as a Max or Min
  /// (clamps as torch-mlir spells them); null for any other select.
  Expr *evalSelect(linalg::LinalgOp op, Operation *select,
                   ArrayRef<std::optional<DimGroup>> loops);
  /// A slice at offset 0 read over its source's extent (SliceTracing.cpp).
  Expr *evalSlice(Operation *slice, const Binding &b);
  /// tensor.insert_slice / tensor.pad of a computed tensor into zeros as
  /// [j < k] times it (SliceTracing.cpp); null (a leaf) otherwise.
  Expr *evalSliceBackward(Operation *op, const Binding &b);
  /// `select(linalg.index d < k, a, b)` in a body as [j < k]·a + (1 −
  /// [j < k])·b (SliceTracing.cpp); null for any other select.
  Expr *evalIndexSelect(linalg::LinalgOp op, Operation *select,
                        ArrayRef<std::optional<DimGroup>> loops);
  /// [the root dims `g` linearized < k], as a constant where it is one.
  Expr *indicator(const DimGroup &g, int64_t k, Type type);
  /// A tensor.reshape between static shapes, as collapse / expand.
  Expr *evalReshape(Operation *reshape, const Binding &b);

  ExprArena &arena;
  RankedTensorType rootType;
  /// Nesting of tensor evaluations (a norm needs a few dozen).
  unsigned depth = 0;
  static constexpr unsigned kMaxDepth = 256;
};

} // namespace raise
} // namespace norm
} // namespace mlir

#endif // NORM_LIB_DIALECT_NORM_TRANSFORMS_RAISE_TRACING_H
