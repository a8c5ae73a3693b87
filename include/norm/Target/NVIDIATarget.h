//===- NVIDIATarget.h - NVIDIA chips and their PTX ISA levels --*- C++ -*-===//
//
// The one description of the NVIDIA targets (NormTarget), read by
// convert-norm-to-gpu, norm-lower-to-nvvm and norm-run: what a `chip` name
// means (SM version, the features the kernels rely on), which chips
// norm-lower-to-nvvm accepts, and the PTX ISA levels each needs. LLVM's
// NVPTX back end aborts ("LLVM ERROR: PTX version ... does not support
// 'sm_100'") on a chip/PTX pair it cannot emit, so the pipeline checks the
// pair first.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_TARGET_NVIDIATARGET_H
#define NORM_TARGET_NVIDIATARGET_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <optional>
#include <string>

namespace mlir {
namespace norm {

/// A chip name as LLVM's NVPTX back end spells it: "sm_NN", or "sm_NNa"
/// (architecture-specific) / "sm_NNf" (family-specific).
struct NVIDIAChipName {
  unsigned smVersion;
  /// 'a', 'f' or '\0'.
  char suffix;
};

/// Parses "sm_NN", "sm_NNa" or "sm_NNf"; std::nullopt if malformed. Says
/// nothing of whether the chip is known (getMinPTXVersion does).
std::optional<NVIDIAChipName> parseNVIDIAChip(StringRef chip);

/// Whether the chip runs the warpgroup-MMA kernel (wgmma.mma_async with
/// TMA): sm_90a alone, the architecture-specific Hopper target.
inline bool hasWarpgroupMMA(const NVIDIAChipName &chip) {
  return chip.smVersion == 90 && chip.suffix == 'a';
}

/// The PTX ISA level used when `features` is not given: PTX 8.0 (CUDA 12.0)
/// where the chip allows it, the chip's minimum where that is higher.
inline constexpr unsigned kDefaultPTXVersion = 80;

/// The lowest PTX ISA version (as LLVM spells it: 86 is PTX 8.6) that can
/// target `chip`, or std::nullopt if norm-lower-to-nvvm does not know
/// `chip`.
std::optional<unsigned> getMinPTXVersion(StringRef chip);

/// The chips of the table whose minimum PTX ISA is at most `ptxVersion`, in
/// the table's order (sm_70 first): what a pipeline at that PTX level can
/// target.
SmallVector<StringRef> getNVIDIAChipsUpToPTX(unsigned ptxVersion);

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

#endif // NORM_TARGET_NVIDIATARGET_H
