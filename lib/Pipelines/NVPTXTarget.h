//===- NVPTXTarget.h - NVPTX chips and PTX ISA levels -----------*- C++ -*-===//
//
// Private to the pipelines: which `chip`s norm-lower-to-nvvm accepts, the
// PTX ISA version each needs, and what the installed LLVM's NVPTX back end
// supports. LLVM's back end aborts ("PTX version 8.0 does not support target
// 'sm_100'") on a chip/PTX pair it cannot emit, so the pipeline checks the
// pair here, before building anything, and reports a diagnostic instead.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_LIB_PIPELINES_NVPTXTARGET_H
#define NORM_LIB_PIPELINES_NVPTXTARGET_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <optional>
#include <string>

namespace mlir {
namespace norm {

/// The PTX ISA level used when `features` is not given: PTX 8.0 (CUDA 12.0)
/// where the chip allows it, the chip's minimum where that is higher.
inline constexpr unsigned kDefaultPTXVersion = 80;

/// The lowest PTX ISA version (as LLVM spells it: 86 is PTX 8.6) that can
/// target `chip`, or std::nullopt if norm-lower-to-nvvm does not know
/// `chip`.
std::optional<unsigned> getMinPTXVersion(StringRef chip);

/// Checks `chip` and `features` ("+ptxNN", or empty for the default level)
/// together: a chip the project and the installed LLVM's NVPTX back end
/// know, and a PTX level that LLVM supports and the chip accepts. Returns the
/// `features` to give the back end (the default level when `features` is
/// empty), or reports the first problem through `emitError` and returns
/// std::nullopt.
std::optional<std::string>
resolvePTXFeatures(StringRef chip, StringRef features,
                   function_ref<void(const Twine &)> emitError);

} // namespace norm
} // namespace mlir

#endif // NORM_LIB_PIPELINES_NVPTXTARGET_H
