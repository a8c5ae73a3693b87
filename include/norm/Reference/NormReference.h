//===- NormReference.h - float64 reference for the norm ops -----*- C++ -*-===//
//
// The one float64 reference of the project: the element-type emulation
// (f16/bf16 rounding, round to nearest even), the semantics of every norm op
// (residual add, partial RMSNorm, weight offset, cast_mode, eps_mode, the
// fused norm <-> matmul ops), the error metric and the tolerances of
// DESIGN.md section 4, and the seeded random streams the tests fill inputs
// with.
//
// Plain C++17 with no MLIR or LLVM dependency: it is linked both into the
// test runtime loaded by mlir-runner (test/lib/Runtime) and into norm-run.
// Data is passed as row-major arrays of doubles that already hold values of
// the element type (rounded).
//
//===----------------------------------------------------------------------===//

#ifndef NORM_REFERENCE_NORMREFERENCE_H
#define NORM_REFERENCE_NORMREFERENCE_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace norm {
namespace reference {

//===----------------------------------------------------------------------===//
// Element types
//===----------------------------------------------------------------------===//

/// The element types the reference emulates. f16 and bf16 are stored as
/// 16-bit patterns.
enum class ElemType { F32, F16, BF16 };

/// "f32", "f16" or "bf16".
const char *getElemTypeName(ElemType t);

/// Bytes per element in memory (4 or 2).
unsigned getElemTypeByteWidth(ElemType t);

/// Rounds a finite double to a binary float format with `precision` bits of
/// significand (hidden bit included), minimum normal exponent `emin` and
/// largest finite value `maxFinite`, round-to-nearest-even. Overflow gives
/// +-inf; NaN, inf and zero pass through.
double roundToFormat(double v, int precision, int emin, double maxFinite);

/// Rounds `v` to the nearest value of `t` (round to nearest even).
double roundTo(ElemType t, double v);

double f16BitsToDouble(uint16_t h);
uint16_t doubleToF16Bits(double v); // rounds to nearest even
double bf16BitsToDouble(uint16_t b);
uint16_t doubleToBF16Bits(double v); // rounds to nearest even

/// Element `index` of the array `base` of element type `t`, as a double.
double loadElement(ElemType t, const void *base, int64_t index);
/// Stores `v` rounded to `t` (nearest even) into element `index` of `base`.
void storeElement(ElemType t, void *base, int64_t index, double v);

//===----------------------------------------------------------------------===//
// Tolerances (DESIGN.md section 4), as ||out - ref|| / ||ref||
//===----------------------------------------------------------------------===//

/// Main (and sum) output: f32 1e-6 for the norms, 1e-5 for the fused
/// norm <-> matmul ops; f16 2e-3; bf16 1e-2.
double getTolerance(ElemType t, bool fused);
/// The main output of a standalone norm whose result type `out` may be wider
/// than its input type `in` (f32 y from bf16 x): the tolerance of `out`, or
/// of `in` when the normalized value is rounded to `in` (cast_mode =
/// before_weight), whichever is looser.
double getNormTolerance(ElemType in, ElemType out, bool castBeforeWeight);
/// f32 statistics (mean, rstd): 1e-6 for f32 ops, 1e-5 for f16/bf16 ops.
double getStatTolerance(ElemType t);
/// A gradient's sums over rows (dgamma, dbeta) stored as `out`: 1e-5 in f32
/// (each is a sum of `rows` products; DESIGN.md section 9), the output
/// tolerance of a 16-bit `out` otherwise.
double getColumnSumTolerance(ElemType out);

//===----------------------------------------------------------------------===//
// Op semantics
//===----------------------------------------------------------------------===//

/// Parameters of one normalization.
struct NormParams {
  bool isRms = true;
  double eps = 0.0;
  double offset = 0.0;      // weight_offset
  double partial = 1.0;     // pRMSNorm fraction (RMS only)
  bool epsOutside = false;  // eps_mode = outside_sqrt
  bool castBeforeWeight = false; // cast_mode = before_weight
  /// A norm -> matmul op with cast_mode: the normalized activations are
  /// rounded to the element type (after the weight, or before and after it
  /// with castBeforeWeight) before the product.
  bool roundNormalized = false;
};

/// s = round_t(x + residual), elementwise.
std::vector<double> residualAdd(ElemType t, const std::vector<double> &x,
                                const std::vector<double> &residual);

/// Normalizes `rows` rows of `n` elements of `s` (row-major, values of the
/// element type `t`):
///   RMS: k = ceil(partial * n), v = sum_{j<k} s_j^2 / k, mu = 0
///   LN:  mu = mean(s), v = mean((s - mu)^2)  (two passes)
///   rstd = 1/sqrt(v + eps), or 1/(sqrt(v) + eps) with epsOutside
///   z = (s - mu) * rstd; z = round_t(z) with castBeforeWeight
///   y = z * (gamma + offset) + beta
/// `gamma` / `beta` (n elements each) are null when absent (1 and 0); they are
/// taken at their own precision (an f32 gamma with bf16 data is never rounded
/// to `t`). `y` gets rows * n values (unrounded), `mean` and `rstd` one value
/// per row.
void referenceNorm(ElemType t, const double *s, int64_t rows, int64_t n,
                   const double *gamma, const double *beta,
                   const NormParams &p, std::vector<double> &y,
                   std::vector<double> &mean, std::vector<double> &rstd);

/// The rotary embedding of a norm's result `y` (row-major of `shape`, the
/// last dim D even; unrounded values), in place, before its rounding:
/// y_d = y_d·cos_d + sign_d·y_p(d)·sin_d with p(d) = d ± D/2 (sign −1 for
/// d < D/2), or with `interleaved` p(2i) = 2i+1 (sign −1), p(2i+1) = 2i.
/// `cos` and `sin` are row-major of `angleShape`: the rank of `shape`, each
/// dim its size or 1 (broadcast). With `eachStep` (`rope_rounding =
/// each_step`), y is first rounded to that type and so is each product and
/// the sum: y_d = round(round(y_d·cos_d) + sign_d·round(y_p(d)·sin_d)).
void applyRotaryEmbedding(std::vector<double> &y,
                          const std::vector<int64_t> &shape,
                          const std::vector<int64_t> &angleShape,
                          const double *cos, const double *sin,
                          bool interleaved,
                          std::optional<ElemType> eachStep = std::nullopt);

/// GroupNorm of x [batch, channels, spatial] (spatial = the product of the
/// dims after C): the LayerNorm of each (sample, group) run of
/// channels/groups * spatial elements, then y = z * gamma[c] + beta[c] per
/// channel. `gamma` / `beta` (channels elements) are null when absent; `mean`
/// and `rstd` get batch * groups values (p.eps is used, the rest of p not).
void referenceGroupNorm(ElemType t, const double *x, int64_t batch,
                        int64_t channels, int64_t spatial, int64_t groups,
                        const double *gamma, const double *beta,
                        const NormParams &p, std::vector<double> &y,
                        std::vector<double> &mean, std::vector<double> &rstd);

/// norm -> matmul: C = norm(X) * W + matmulBias, with X [rows, K], W [K, N]
/// ([N, K] with transposeRhs), optional gamma/beta [K] and matmulBias [N]
/// (null when absent). The norm is over the first ceil(partial * K) columns
/// (RMS); without roundNormalized nothing is rounded before the product
/// (castBeforeWeight is ignored). `c` gets rows * N values; `mean` and
/// `rstd`, when given, the norm's statistics (rows values each, as
/// referenceNorm's).
void referenceNormMatmul(ElemType t, const double *x, int64_t rows, int64_t k,
                         const double *w, int64_t n, bool transposeRhs,
                         const double *gamma, const double *beta,
                         const double *matmulBias, const NormParams &p,
                         std::vector<double> &c,
                         std::vector<double> *mean = nullptr,
                         std::vector<double> *rstd = nullptr);

/// The gradient of a norm (DESIGN.md section 9), row-major over `rows` rows
/// of `n` elements: from dy and the forward input x, with g = gamma + offset
/// (1 + offset without gamma), x^ = (x - mu) * r and dy^ = dy * g,
///   dx_j = r * (dy^_j - [LN] mean(dy^) - [j < k] c * x^_j * S / k) + ds_j,
///   S = sum_{all j} dy^_j * x^_j, k = ceil(partial * n) (n for LN),
///   c = 1, or (sigma + eps) / sigma with sigma = 1/r - eps (epsOutside);
///   dgamma = sum over rows of dy * x^; dbeta = sum over rows of dy.
/// mu and r are `meanIn` / `rstdIn` (one per row; mu = 0 for RMS) when
/// non-null, else computed as referenceNorm does. `sumGrad` (ds) is null
/// when absent. Results are unrounded: dx gets rows * n values, dgamma and
/// dbeta n each. castBeforeWeight is ignored.
void referenceNormGrad(ElemType t, const double *dy, const double *x,
                       int64_t rows, int64_t n, const double *gamma,
                       const double *sumGrad, const double *meanIn,
                       const double *rstdIn, const NormParams &p,
                       std::vector<double> &dx, std::vector<double> &dgamma,
                       std::vector<double> &dbeta);

/// The pre-norm sum of matmul -> norm: S = round_t(A * W + matmulBias +
/// residual), A [rows, K], W [K, N] ([N, K] with transposeRhs), optional
/// matmulBias [N] and residual [rows, N] (null when absent). `s` gets
/// rows * N values. The op's result is referenceNorm over S's rows.
void referenceMatmulSum(ElemType t, const double *a, int64_t rows, int64_t k,
                        const double *w, int64_t n, bool transposeRhs,
                        const double *matmulBias, const double *residual,
                        std::vector<double> &s);

//===----------------------------------------------------------------------===//
// Comparison
//===----------------------------------------------------------------------===//

struct CompareResult {
  /// ||out - ref||_2 / ||ref||_2 (the absolute norm when ||ref|| = 0); NaN
  /// when `out` has a NaN/Inf where `ref` is finite, or a different
  /// non-finite value where `ref` is not, or when the sizes differ.
  double relErr = 0.0;
  bool ok = true;
  /// Empty, or why the comparison failed outright (size mismatch).
  std::string note;
};

/// Compares `out` with `ref` under the relative tolerance `tol`; NaN never
/// passes.
CompareResult compare(const std::vector<double> &out,
                      const std::vector<double> &ref, double tol);

//===----------------------------------------------------------------------===//
// Quantized outputs (DESIGN.md section 8)
//===----------------------------------------------------------------------===//

/// The quantized element types of a norm's result, stored as one byte.
enum class QuantType { F8E4M3FN, F8E5M2, I8 };

/// "f8E4M3FN", "f8E5M2" or "i8", as MLIR spells them.
const char *getQuantTypeName(QuantType t);

/// qmax, the largest finite value: 448, 57344 or 127.
double getQuantMax(QuantType t);

/// sat(rne(v)) in `t`: rounded to nearest even, clamped to the largest
/// finite magnitude ([-128, 127] for i8). NaN stays NaN.
double quantize(QuantType t, double v);

/// The value of the byte `bits` of `t`.
double decodeQuant(QuantType t, uint8_t bits);

/// The dynamic scales of `y` (`rows` rows of `n` unrounded values): one per
/// run of `group` consecutive elements of a row (`group` = n: per token),
/// s = max(amax |y| / qmax, sMin). rows * n / group values.
std::vector<double> quantScales(QuantType t, const std::vector<double> &y,
                                int64_t rows, int64_t n, int64_t group,
                                double sMin);

struct QuantCompareResult {
  /// Elements that are neither the quantization of y / s nor one step from
  /// it where y / s lies within 1e-6 relative of a rounding boundary.
  int64_t mismatches = 0;
  /// Elements one step apart at a boundary (allowed).
  int64_t boundarySteps = 0;
  bool ok = true;
  std::string note;
};

/// Compares the decoded quantized values `out` with the quantization of the
/// exact `y[i] / scales[i / perScale]` (DESIGN.md section 8).
QuantCompareResult compareQuantized(QuantType t, const std::vector<double> &out,
                                    const std::vector<double> &y,
                                    const std::vector<double> &scales,
                                    int64_t perScale);

/// The largest |out[i] - ref[i]| / |ref[i]| (the scales' error); NaN when an
/// element is NaN in one and not the other, or the sizes differ.
double maxRelativeError(const std::vector<double> &out,
                        const std::vector<double> &ref);

//===----------------------------------------------------------------------===//
// Random streams
//===----------------------------------------------------------------------===//

/// splitmix64: the stream the tests fill inputs from.
class SplitMix64 {
public:
  explicit SplitMix64(uint64_t seed) : state(seed) {}
  uint64_t next();
  /// Uniform in [-1, 1).
  double uniform();
  /// Standard normal (Box-Muller over two uniforms in (0, 1]).
  double normal();

private:
  uint64_t state;
};

/// "[4x17]": a shape as the checkers and norm-run print it.
std::string shapeString(const std::vector<int64_t> &shape);

} // namespace reference
} // namespace norm
} // namespace mlir

#endif // NORM_REFERENCE_NORMREFERENCE_H
