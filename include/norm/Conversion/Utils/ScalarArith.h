//===- ScalarArith.h - arithmetic helpers shared by the emitters -*- C++
//-*-===//
//
// The one-line builders of constants, index arithmetic and accumulator-type
// conversions that every kernel emitter (the CPU and GPU row kernels and
// GEMMs) writes its kernels with, at the location of the op being lowered.
// Target-specific helpers (vectors and masks, packed bf16, allocations)
// live in the classes derived from this one.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_CONVERSION_UTILS_SCALARARITH_H
#define NORM_CONVERSION_UTILS_SCALARARITH_H

#include "norm/Dialect/Norm/IR/NormNumerics.h"

#include "mlir/IR/Builders.h"

namespace mlir {
namespace norm {

/// Index arithmetic is unsigned (thread ids, offsets and counts), except
/// `slt`: the guarded GPU kernels compare differences that may be negative.
/// Float conversions keep the shape of their operand (a scalar or a vector)
/// and change its element type; `acc` is the type arithmetic is done in.
class ScalarArith {
protected:
  ScalarArith(Location loc, FloatType acc) : loc(loc), acc(acc) {}
  virtual ~ScalarArith() = default;

  // Constants.
  Value index(OpBuilder &b, int64_t v) const;
  Value i64(OpBuilder &b, int64_t v) const;
  Value f32(OpBuilder &b, double v) const;
  /// `v` in the accumulator type.
  Value accConst(OpBuilder &b, double v) const;

  // Index arithmetic; the *C forms take a constant operand.
  Value add(OpBuilder &b, Value x, Value y) const;
  Value sub(OpBuilder &b, Value x, Value y) const;
  Value mul(OpBuilder &b, Value x, Value y) const;
  Value addC(OpBuilder &b, Value x, int64_t c) const;
  Value mulC(OpBuilder &b, Value x, int64_t c) const;
  Value divC(OpBuilder &b, Value x, int64_t c) const;
  Value remC(OpBuilder &b, Value x, int64_t c) const;
  Value minIndex(OpBuilder &b, Value x, Value y) const;
  Value slt(OpBuilder &b, Value x, Value y) const;
  Value ult(OpBuilder &b, Value x, Value y) const;
  Value andI(OpBuilder &b, Value x, Value y) const;
  Value select(OpBuilder &b, Value c, Value x, Value y) const;
  /// An index as an accumulator-type float (through i64, unsigned).
  Value indexToAcc(OpBuilder &b, Value v) const;

  // Conversions.
  static Type elementTypeOf(Value mem);
  /// `v` extended to `elementType` (unchanged when it has it already).
  Value widen(OpBuilder &b, Value v, Type elementType) const;
  Value toAcc(OpBuilder &b, Value v) const { return widen(b, v, acc); }
  Value toF32(OpBuilder &b, Value v) const;
  /// Rounds an accumulator-type `v` to `elementType` (to nearest even);
  /// targets with a faster rounding instruction override this.
  virtual Value narrow(OpBuilder &b, Value v, Type elementType) const;
  /// Rounds an accumulator-type `v` to `elementType` and back.
  Value roundThrough(OpBuilder &b, Value v, Type elementType) const;
  /// The sum of `parts` (floats of one type) as a balanced tree of adds.
  Value sumTree(OpBuilder &b, ArrayRef<Value> parts) const;

  /// A norm's weight step on its normalized value `v` (an accumulator-type
  /// scalar or vector): v·(γ + weight_offset) + β, rounded where
  /// `num.castMode` says (docs/design.md, "Mixed element types"):
  /// before_weight rounds v to `elementType` first, then γ + offset, the
  /// product and, with `roundBias`, the sum to `num.weightType`.
  /// `gamma` and `beta` (shaped like v, in acc) may be null (γ = 1, no β).
  Value applyNormWeight(OpBuilder &b, Value v, Value gamma, Value beta,
                        const NormNumerics &num, Type elementType,
                        bool roundBias) const;

  Location loc;
  FloatType acc;
};

} // namespace norm
} // namespace mlir

#endif // NORM_CONVERSION_UTILS_SCALARARITH_H
