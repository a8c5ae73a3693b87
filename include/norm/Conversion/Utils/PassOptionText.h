//===- PassOptionText.h - a pass's options parsed from text -----*- C++ -*-===//
//
// How a pipeline hands a conversion the tuning knobs it forwards as written
// (`vector-options={accumulators=8}`): the pass's own option parser reads
// them, so each knob is declared once, in Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_CONVERSION_UTILS_PASSOPTIONTEXT_H
#define NORM_CONVERSION_UTILS_PASSOPTIONTEXT_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace norm {

/// Sets the options of `pass` that `text` names (`a=1 b=2`), reporting an
/// unknown option or a bad value through `errorHandler`.
inline LogicalResult
parsePassOptionText(Pass &pass, StringRef text,
                    function_ref<LogicalResult(const Twine &)> errorHandler) {
  return pass.initializeOptions(text, [&](const Twine &message) {
    // The parser names itself ("<Pass-Options-Parser>: no such option x"),
    // or says nothing when llvm::cl has printed the reason (a bad value) to
    // stderr itself.
    std::string full = message.str();
    StringRef reason = StringRef(full).trim();
    reason.consume_front("<Pass-Options-Parser>: ");
    if (reason.empty())
      return errorHandler("cannot parse '" + text + "'");
    return errorHandler(reason);
  });
}

/// Reads `text` into `options` through the parser of the pass `PassT` made
/// from them, so the pipeline and the pass share one declaration of each
/// option. PassT provides `getOptions()`, the inverse of its generated
/// constructor from the options struct.
template <typename PassT, typename OptionsT>
LogicalResult
parsePassOptionsInto(StringRef text, OptionsT &options,
                     function_ref<LogicalResult(const Twine &)> errorHandler) {
  PassT pass(options);
  if (failed(parsePassOptionText(pass, text, errorHandler)))
    return failure();
  options = pass.getOptions();
  return success();
}

/// Checks a pass's options after parsing, reporting every bad one (not only
/// the first) through `emitError`; `result()` fails when any was bad.
class PassOptionChecker {
public:
  explicit PassOptionChecker(function_ref<void(const Twine &)> emitError)
      : emitError(emitError) {}

  /// Reports `message` unless `good`.
  void check(bool good, const Twine &message) {
    if (good)
      return;
    emitError(message);
    ok = false;
  }

  /// Reports "NAME must be in [MIN, MAX], got VALUE" when out of range.
  void checkRange(int64_t value, int64_t min, int64_t max, StringRef name) {
    check(value >= min && value <= max, name + " must be in [" + Twine(min) +
                                            ", " + Twine(max) + "], got " +
                                            Twine(value));
  }

  LogicalResult result() const { return success(ok); }

private:
  function_ref<void(const Twine &)> emitError;
  bool ok = true;
};

} // namespace norm
} // namespace mlir

#endif // NORM_CONVERSION_UTILS_PASSOPTIONTEXT_H
