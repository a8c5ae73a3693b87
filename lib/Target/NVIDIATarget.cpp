//===- NVIDIATarget.cpp - NVIDIA chips and their PTX ISA levels ----------===//
//
// The one reading of a `chip` name: its SM version, the features the
// kernels use (tensor-core GEMMs, warpgroup MMA), the chip → minimum PTX
// ISA table, and the checks of `chip` and `features` against it and
// against the installed LLVM's NVPTX back end.
//
//===----------------------------------------------------------------------===//

#include "norm/Target/NVIDIATarget.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Config/Targets.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Triple.h"

#include <memory>

using namespace mlir;
using namespace mlir::norm;

namespace {
struct ChipInfo {
  const char *name;
  /// The lowest PTX ISA version that has `.target <name>`, as LLVM spells
  /// it (86: PTX 8.6).
  unsigned minPTXVersion;
};

/// Every chip norm-lower-to-nvvm accepts: sm_70 and newer. The minimum PTX
/// ISA versions are those of the PTX ISA manual ("Release notes" and
/// "Target ISA notes": the version that introduced each `.target`) and of
/// LLVM 22's NVPTX back end (llvm/lib/Target/NVPTX/NVPTX.td, which refuses
/// a lower `+ptxNN`; checked against `llc-22 -mcpu=<chip> -mattr=+ptxNN`).
/// 'a' (architecture-specific) targets start at sm_90a, 'f' (family)
/// targets at sm_100f; sm_110 is CUDA 13's name for Thor (sm_101 before).
constexpr ChipInfo kChips[] = {
    {"sm_70", 60},   {"sm_72", 61},   {"sm_75", 63},   {"sm_80", 70},
    {"sm_86", 71},   {"sm_87", 74},   {"sm_88", 90},   {"sm_89", 78},
    {"sm_90", 78},   {"sm_90a", 80},  {"sm_100", 86},  {"sm_100a", 86},
    {"sm_100f", 88}, {"sm_101", 86},  {"sm_101a", 86}, {"sm_101f", 88},
    {"sm_103", 88},  {"sm_103a", 88}, {"sm_103f", 88}, {"sm_110", 90},
    {"sm_110a", 90}, {"sm_110f", 90}, {"sm_120", 87},  {"sm_120a", 87},
    {"sm_120f", 88}, {"sm_121", 88},  {"sm_121a", 88}, {"sm_121f", 88},
};

/// "8.6" for 86.
std::string formatPTXVersion(unsigned version) {
  return std::to_string(version / 10) + "." + std::to_string(version % 10);
}

/// The installed LLVM's NVPTX subtarget description (its processors and
/// `ptxNN` features), or null if LLVM was built without NVPTX.
const llvm::MCSubtargetInfo *getNVPTXSubtargetInfo() {
  static const std::unique_ptr<llvm::MCSubtargetInfo> info =
      []() -> std::unique_ptr<llvm::MCSubtargetInfo> {
#if LLVM_HAS_NVPTX_TARGET
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTargetMC();
    llvm::Triple triple("nvptx64-nvidia-cuda");
    std::string error;
    const llvm::Target *target =
        llvm::TargetRegistry::lookupTarget(triple, error);
    if (!target)
      return nullptr;
    return std::unique_ptr<llvm::MCSubtargetInfo>(
        target->createMCSubtargetInfo(triple, /*CPU=*/"", /*Features=*/""));
#else
    return nullptr;
#endif
  }();
  return info.get();
}

/// The PTX ISA versions the NVPTX back end has a `ptxNN` feature for,
/// ascending.
SmallVector<unsigned>
getSupportedPTXVersions(const llvm::MCSubtargetInfo &sti) {
  SmallVector<unsigned> versions;
  for (const llvm::SubtargetFeatureKV &feature :
       sti.getAllProcessorFeatures()) {
    StringRef key = feature.Key;
    unsigned version = 0;
    if (key.consume_front("ptx") && !key.getAsInteger(10, version))
      versions.push_back(version);
  }
  llvm::sort(versions);
  return versions;
}

std::string knownChipList() {
  std::string list;
  for (const ChipInfo &info : kChips)
    list += (list.empty() ? "" : ", ") + std::string(info.name);
  return list;
}
} // namespace

std::optional<NVIDIAChipName> mlir::norm::parseNVIDIAChip(StringRef chip) {
  SmallVector<StringRef> parts;
  unsigned smVersion = 0;
  if (!llvm::Regex("^sm_([0-9]+)([af]?)$").match(chip, &parts) ||
      parts[1].getAsInteger(10, smVersion))
    return std::nullopt;
  return NVIDIAChipName{smVersion, parts[2].empty() ? '\0' : parts[2][0]};
}

SmallVector<StringRef> mlir::norm::getNVIDIAChipsUpToPTX(unsigned ptxVersion) {
  SmallVector<StringRef> chips;
  for (const ChipInfo &info : kChips)
    if (info.minPTXVersion <= ptxVersion)
      chips.push_back(info.name);
  return chips;
}

std::optional<unsigned> mlir::norm::getMinPTXVersion(StringRef chip) {
  for (const ChipInfo &info : kChips)
    if (chip == info.name)
      return info.minPTXVersion;
  return std::nullopt;
}

std::optional<std::string>
mlir::norm::resolvePTXFeatures(StringRef chip, StringRef features,
                               function_ref<void(const Twine &)> emitError) {
  // The chip: one of the table, known to the installed LLVM.
  std::optional<NVIDIAChipName> name = parseNVIDIAChip(chip);
  if (!name || name->smVersion < 70) {
    emitError("norm-lower-to-nvvm: chip must be sm_70 or newer (e.g. sm_80, "
              "sm_90, sm_90a, sm_100, sm_120), got '" +
              chip + "'");
    return std::nullopt;
  }
  std::optional<unsigned> minVersion = getMinPTXVersion(chip);
  if (!minVersion) {
    emitError("norm-lower-to-nvvm: unknown chip '" + chip +
              "' ('a' variants exist from sm_90a, 'f' variants from "
              "sm_100f); known chips: " +
              knownChipList());
    return std::nullopt;
  }
  const llvm::MCSubtargetInfo *sti = getNVPTXSubtargetInfo();
  if (!sti) {
    emitError("norm-lower-to-nvvm: the installed LLVM has no NVPTX back end");
    return std::nullopt;
  }
  if (!sti->isCPUStringValid(chip)) {
    emitError("norm-lower-to-nvvm: chip '" + chip +
              "' is not supported by the installed LLVM's NVPTX back end");
    return std::nullopt;
  }
  SmallVector<unsigned> supported = getSupportedPTXVersions(*sti);
  unsigned maxVersion = supported.empty() ? 0 : supported.back();
  if (*minVersion > maxVersion) {
    emitError("norm-lower-to-nvvm: chip '" + chip + "' needs PTX ISA " +
              formatPTXVersion(*minVersion) +
              ", newer than the installed LLVM's NVPTX back end supports (" +
              formatPTXVersion(maxVersion) + ")");
    return std::nullopt;
  }

  // No `features`: the default level, raised to the chip's minimum.
  if (features.empty())
    return "+ptx" + std::to_string(std::max(kDefaultPTXVersion, *minVersion));

  // `features`: a PTX level LLVM has, at least the chip's minimum.
  SmallVector<StringRef> featureParts;
  unsigned version = 0;
  if (!llvm::Regex("^\\+ptx([0-9]+)$").match(features, &featureParts) ||
      featureParts[1].getAsInteger(10, version)) {
    emitError("norm-lower-to-nvvm: features must be a PTX level such as "
              "+ptx80, got '" +
              features + "'");
    return std::nullopt;
  }
  if (!llvm::is_contained(supported, version)) {
    emitError("norm-lower-to-nvvm: features '" + features +
              "' is not a PTX ISA version the installed LLVM's NVPTX back "
              "end supports (+ptx" +
              std::to_string(supported.front()) + " to +ptx" +
              std::to_string(maxVersion) + ")");
    return std::nullopt;
  }
  if (version < *minVersion) {
    emitError("norm-lower-to-nvvm: chip '" + chip + "' needs PTX ISA " +
              formatPTXVersion(*minVersion) + " or newer (features=+ptx" +
              std::to_string(*minVersion) + " or higher), got '" + features +
              "' (PTX ISA " + formatPTXVersion(version) + ")");
    return std::nullopt;
  }
  return std::string(features);
}
