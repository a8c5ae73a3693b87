//===- WeightFolding.h - folding γ and β into constant weights -*- C++ -*-===//
//
// The compile-time half of the norm → matmul algebra (DESIGN.md §3): with
// constant W, γ, β and bias,
//   W' = diag(γ + offset) · W        b' = β · W + bias
// so the fused op needs neither γ nor β.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_LIB_DIALECT_NORM_TRANSFORMS_FUSION_WEIGHTFOLDING_H
#define NORM_LIB_DIALECT_NORM_TRANSFORMS_FUSION_WEIGHTFOLDING_H

#include "mlir/IR/BuiltinAttributes.h"

#include <optional>
#include <vector>

namespace mlir {
namespace norm {

/// The elements of a constant tensor (`arith.constant` of dense or
/// dense_resource data) as doubles, row-major; nullopt if `v` is not such a
/// constant of a float element type.
std::optional<std::vector<double>> readConstantAsDoubles(Value v);

/// readConstantAsDoubles, and only if it has exactly `length` elements.
std::optional<std::vector<double>> readConstantOfLength(Value v,
                                                        int64_t length);

/// A dense attribute of `type` holding `values`, each rounded to the element
/// type to nearest, ties to even.
DenseElementsAttr makeDenseFloatAttr(ShapedType type,
                                     const std::vector<double> &values);

/// Whether every element of a float attribute is finite.
bool allFinite(DenseElementsAttr attr);

/// W' = diag(scale) · W for W of shape [K, N] (or [N, K] when
/// `transposed`), `scale` of length K. Row-major in, row-major out.
std::vector<double> scaleWeightRows(const std::vector<double> &w, int64_t k,
                                    int64_t n, bool transposed,
                                    const std::vector<double> &scale);

/// shift · W (+ bias): `shift` of length K, `bias` of length N or empty.
std::vector<double> shiftTimesWeight(const std::vector<double> &w, int64_t k,
                                     int64_t n, bool transposed,
                                     const std::vector<double> &shift,
                                     const std::vector<double> &bias);

} // namespace norm
} // namespace mlir

#endif // NORM_LIB_DIALECT_NORM_TRANSFORMS_FUSION_WEIGHTFOLDING_H
