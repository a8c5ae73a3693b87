//===- NormSplitDecomposition.h - norms split over processes -*- C++ -*-===//
//
// The decomposition of a norm or fused op into linalg when the op is one
// process's part of a larger one (DESIGN.md §10): its normalized dims or its
// matmul's K are split over processes, so its row statistics and its product
// are partial sums that must be summed over those processes before they are
// used. The dialect knows how to combine the partials; how a sum over
// processes is spelled (shard.all_reduce) is the caller's, so the dialect
// library does not depend on the shard dialect.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_DIALECT_NORM_IR_NORMSPLITDECOMPOSITION_H
#define NORM_DIALECT_NORM_IR_NORMSPLITDECOMPOSITION_H

#include "mlir/IR/Builders.h"

#include <functional>

namespace mlir {
namespace norm {

/// How the reductions of a norm op are split over processes.
struct ProcessSplit {
  /// Sums `value` elementwise over a group of processes; every process gets
  /// the same result.
  using SumOverProcesses = std::function<Value(OpBuilder &, Location, Value)>;

  /// The number of processes the normalized dims are split over, each
  /// holding an equal part of every row (1: not split), and this process's
  /// index among them (an index value; used only when normParts > 1).
  int64_t normParts = 1;
  Value normIndex;
  /// The sum over the processes the normalized dims are split over.
  SumOverProcesses sumOverNormParts;
  /// The sum over the processes the matmul's K is split over; null when K
  /// is not split. (For norm → matmul, K is the normalized dim.)
  SumOverProcesses sumOverContractionParts;

  bool splitsNorm() const { return normParts > 1; }
};

/// Decomposes `op`, a norm.rms_norm, norm.layer_norm or fused norm/matmul op
/// on tensors holding this process's slices of its operands, into linalg (and
/// norm ops whose reductions are local) with the partial reductions summed
/// as `split` says, inserting at `b`'s insertion point. Returns the values
/// that replace the op's results.
FailureOr<SmallVector<Value>>
decomposeSplitOperation(Operation *op, OpBuilder &b, const ProcessSplit &split);

} // namespace norm
} // namespace mlir

#endif // NORM_DIALECT_NORM_IR_NORMSPLITDECOMPOSITION_H
