//===- SegmentStatistics.h - row statistics from GEMM partials --*- C++ -*-===//
//
// Private to NormToVector: the second half of matmul → norm on the CPU. The
// GEMM's epilogue leaves per-segment statistics of the pre-norm sum S
// (FusedGemmProblem::seg*); these functions allocate them and merge them per
// row into what the row kernel needs to normalize S without a statistics
// pass of its own (RowNormProblem::given*).
//
//===----------------------------------------------------------------------===//

#ifndef NORM_LIB_CONVERSION_NORMTOVECTOR_SEGMENTSTATISTICS_H
#define NORM_LIB_CONVERSION_NORMTOVECTOR_SEGMENTSTATISTICS_H

#include "FusedGemm.h"

namespace mlir {
namespace norm {

/// Allocates the segment buffers of `p` (M × ⌈N/L⌉ f32 each: RMSNorm one,
/// LayerNorm three) and the per-row statistics of `rows` (given*).
void allocateSegmentStatistics(OpBuilder &b, Location loc, FusedGemmProblem &p,
                               RowNormProblem &rows, int64_t lanes);

/// Rows [first, end) of `rows` (the norm of p's C): their statistics merged
/// from the segments (in parallel over rows; RMSNorm the mean square,
/// LayerNorm the variance and the mean as shift + correction, by Chan's
/// combination of the segments' moments), then normalized by the row
/// kernel, given them. `p.finishRows` calls this.
void normalizeRowsFromSegments(OpBuilder &b, Location loc,
                               const FusedGemmProblem &p,
                               const RowNormProblem &rows, int64_t lanes,
                               Value first, Value end,
                               const NormVectorCodegenOptions &options);

/// Frees what allocateSegmentStatistics allocated.
void deallocateSegmentStatistics(OpBuilder &b, Location loc,
                                 const FusedGemmProblem &p,
                                 const RowNormProblem &rows);

} // namespace norm
} // namespace mlir

#endif // NORM_LIB_CONVERSION_NORMTOVECTOR_SEGMENTSTATISTICS_H
