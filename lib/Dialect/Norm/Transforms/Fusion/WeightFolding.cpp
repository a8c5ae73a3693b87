//===- WeightFolding.cpp - folding γ and β into constant weights ---------===//

#include "WeightFolding.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/APFloat.h"

#include <cstring>

using namespace mlir;
using namespace mlir::norm;

namespace {

double toDouble(APFloat value) {
  bool losesInfo = false;
  value.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                &losesInfo);
  return value.convertToDouble();
}

/// One element of raw little-endian storage of `type` as a double.
double rawElementAsDouble(FloatType type, const char *data) {
  unsigned bits = type.getWidth();
  uint64_t word = 0;
  std::memcpy(&word, data, bits / 8);
  return toDouble(APFloat(type.getFloatSemantics(), APInt(bits, word)));
}

std::optional<std::vector<double>> readRaw(ShapedType type,
                                           ArrayRef<char> raw) {
  auto elementType = dyn_cast<FloatType>(type.getElementType());
  if (!elementType || elementType.getWidth() % 8 != 0)
    return std::nullopt;
  size_t bytes = elementType.getWidth() / 8;
  size_t count = type.getNumElements();
  std::vector<double> values(count);
  if (raw.size() == bytes) { // a splat
    std::fill(values.begin(), values.end(),
              rawElementAsDouble(elementType, raw.data()));
    return values;
  }
  if (raw.size() != count * bytes)
    return std::nullopt;
  for (size_t i = 0; i < count; ++i)
    values[i] = rawElementAsDouble(elementType, raw.data() + i * bytes);
  return values;
}

} // namespace

std::optional<std::vector<double>> mlir::norm::readConstantAsDoubles(Value v) {
  Attribute attr;
  if (!v || !matchPattern(v, m_Constant(&attr)))
    return std::nullopt;
  auto type = dyn_cast<ShapedType>(v.getType());
  if (!type || !type.hasStaticShape())
    return std::nullopt;
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    if (dense.isSplat()) {
      auto splat = dense.getSplatValue<APFloat>();
      return std::vector<double>(type.getNumElements(), toDouble(splat));
    }
    return readRaw(type, dense.getRawData());
  }
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return std::nullopt;
    return readRaw(type, blob->getData());
  }
  return std::nullopt;
}

std::optional<std::vector<double>>
mlir::norm::readConstantOfLength(Value v, int64_t length) {
  std::optional<std::vector<double>> values = readConstantAsDoubles(v);
  if (!values || static_cast<int64_t>(values->size()) != length)
    return std::nullopt;
  return values;
}

DenseElementsAttr
mlir::norm::makeDenseFloatAttr(ShapedType type,
                               const std::vector<double> &values) {
  auto elementType = cast<FloatType>(type.getElementType());
  const llvm::fltSemantics &semantics = elementType.getFloatSemantics();
  unsigned bits = elementType.getWidth();
  std::vector<char> raw(values.size() * bits / 8);
  for (size_t i = 0; i < values.size(); ++i) {
    APFloat value(values[i]);
    bool losesInfo = false;
    value.convert(semantics, APFloat::rmNearestTiesToEven, &losesInfo);
    uint64_t word = value.bitcastToAPInt().getZExtValue();
    std::memcpy(raw.data() + i * bits / 8, &word, bits / 8);
  }
  return DenseElementsAttr::getFromRawBuffer(type, raw);
}

bool mlir::norm::allFinite(DenseElementsAttr attr) {
  for (APFloat value : attr.getValues<APFloat>())
    if (!value.isFinite())
      return false;
  return true;
}

std::vector<double> mlir::norm::scaleWeightRows(
    const std::vector<double> &w, int64_t k, int64_t n, bool transposed,
    const std::vector<double> &scale) {
  std::vector<double> out(w.size());
  for (int64_t kk = 0; kk < k; ++kk)
    for (int64_t nn = 0; nn < n; ++nn) {
      size_t at = transposed ? nn * k + kk : kk * n + nn;
      out[at] = w[at] * scale[kk];
    }
  return out;
}

std::vector<double> mlir::norm::shiftTimesWeight(
    const std::vector<double> &w, int64_t k, int64_t n, bool transposed,
    const std::vector<double> &shift, const std::vector<double> &bias) {
  std::vector<double> out(n, 0.0);
  for (int64_t nn = 0; nn < n; ++nn) {
    double sum = bias.empty() ? 0.0 : bias[nn];
    for (int64_t kk = 0; kk < k; ++kk)
      sum += shift[kk] * w[transposed ? nn * k + kk : kk * n + nn];
    out[nn] = sum;
  }
  return out;
}
