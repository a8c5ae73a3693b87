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

} // namespace norm
} // namespace mlir

#endif // NORM_CONVERSION_UTILS_PASSOPTIONTEXT_H
