//===- HeadViews.h - a product's heads through reshapes ---------*- C++ -*-===//
//
// Whether a norm over the last dim of some reshapes and transposes of a
// matmul's product normalizes heads of that product: D consecutive columns
// of one of its rows. The views are followed as layouts of the product (a
// list of (size, stride) pieces per dim, each naming the product's row dim
// or its columns it indexes), so any chain of regroupings
// is accepted when its composite keeps each normalized row one head, and
// refused, naming the view and the dim, when it does not.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_LIB_DIALECT_NORM_TRANSFORMS_FUSION_HEADVIEWS_H
#define NORM_LIB_DIALECT_NORM_TRANSFORMS_FUSION_HEADVIEWS_H

#include "norm/Dialect/Norm/Transforms/Transforms.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Operation.h"

#include <optional>
#include <string>

namespace mlir {
namespace norm {

/// The input of `op` when it is a view a head split may go through: a
/// `tensor.expand_shape`, `tensor.collapse_shape`, `tensor.reshape`,
/// `tensor.cast`, `linalg.transpose`, or a `linalg.generic` that only copies
/// its one input through permutation maps (a transpose as torch-mlir writes
/// it); or an element cast of it (isElementCast), which keeps the layout.
/// Null otherwise.
Value headViewSource(Operation *op);

/// Whether `op` (a view headViewSource accepts) changes the element type:
/// an `arith.truncf` / `arith.extf` on tensors, or a linalg op with one
/// input and one init, permutation maps and a body that is one truncf /
/// extf of its input (`linalg.generic` with identity maps as torch-mlir and
/// IREE round a product to bf16, with a transpose beside it, `linalg.map`,
/// `linalg.copy` into another type).
bool isElementCast(Operation *op);

/// The permutation of a transposing view (result dim i is input dim
/// perm[i]): `linalg.transpose`, or a linalg copy or element cast through
/// permutation maps (identity for one that keeps the dims in place). None
/// for the reshapes and for ops that are no view.
std::optional<SmallVector<int64_t>> viewPermutation(Operation *op);

/// How a norm's input relates to the product's heads view.
struct HeadSplit {
  /// The normalized dim's size D (the product's N when whole rows).
  int64_t headDim = 0;
  /// For each dim of the norm's input, the dim of the heads view
  /// [p_0, ..., p_{k-2}, N/D, D] it is exactly (same elements, same
  /// order); -1 when it is a part or a merge of such dims, -2 for a unit
  /// dim.
  SmallVector<int64_t> headsViewDim;
  /// `size` indices of dim `dim` of the heads view, `stride` of its
  /// indices apart; `dim` -1 for rows the views regroup at dynamic sizes
  /// (known only to be whole rows).
  struct Piece {
    int64_t dim;
    int64_t size;
    int64_t stride;
  };
  /// For each dim of the norm's input, its pieces from outer to inner:
  /// its index is theirs in row-major order.
  SmallVector<SmallVector<Piece, 2>> dimPieces;
};

/// Follows `views` (the product's user first, each reading the one before)
/// from `product` and checks that each row of the last view's result is
/// `D` consecutive columns of one row of the product, D its last dim's
/// size, dividing the product's static N. Fails with `why` naming the view
/// and the dim that break it.
FailureOr<HeadSplit>
analyzeHeadViews(Value product, ArrayRef<Operation *> views, std::string &why);

/// The product's rows as a view of it regroups them, its columns N whole:
/// the first `rowDims` dims of `view` (whose other dims split the N
/// columns), then N. [B·T, N] viewed as [B, T, H, D] (rowDims 2) gives
/// [B, T, N].
RankedTensorType rowSplitType(RankedTensorType view, int64_t rowDims, int64_t n,
                              Type elementType);

/// analyzeHeadViews from the product's rows regrouped as `view` regroups
/// them (rowSplitType), through the split of its columns into `view`'s
/// other dims (when there is more than one) and then `views`, the views
/// after `view`.
FailureOr<HeadSplit> analyzeHeadViewsAfterRowSplit(RankedTensorType view,
                                                   int64_t rowDims, int64_t n,
                                                   ArrayRef<Operation *> views,
                                                   std::string &why);

} // namespace norm
} // namespace mlir

#endif // NORM_LIB_DIALECT_NORM_TRANSFORMS_FUSION_HEADVIEWS_H
