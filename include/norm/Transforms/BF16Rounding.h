//===- BF16Rounding.h - f32 to bf16 rounding, NaNs in f32 -------*- C++ -*-===//
//
// The integer round to nearest even from f32 to bf16 that both the
// norm-expand-bf16-truncation pass (natural order: a shift and a
// truncation to i16 follow) and the row kernels' bf16 pair order
// (NormToVector: a shift and a word blend follow) emit, so that the two
// give arith.truncf's bits from one place.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_TRANSFORMS_BF16ROUNDING_H
#define NORM_TRANSFORMS_BF16ROUNDING_H

#include "mlir/IR/Builders.h"

namespace mlir {
namespace norm {

/// The f32 `x` (a scalar or a vector) as i32 words whose high 16 bits are
/// `x` rounded to bf16 to nearest even (the low 16 bits are not part of the
/// result): a NaN first becomes the quiet NaN among the f32 lanes (one
/// vblendvps on AVX2, where choosing it among 16-bit results costs a mask
/// narrowing and a byte blend), then bits + 0x7fff + (bits >> 16 & 1).
Value createBF16RoundedWords(OpBuilder &b, Location loc, Value x);

} // namespace norm
} // namespace mlir

#endif // NORM_TRANSFORMS_BF16ROUNDING_H
