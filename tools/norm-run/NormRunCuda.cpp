//===- NormRunCuda.cpp - norm-run's --target=cuda support ----------------===//
//
// What norm-run needs to run a function on an NVIDIA GPU:
//
// - the preparation pipeline: between one-shot bufferization and
//   norm-lower-to-nvvm, norm-gpu-copy-globals and norm-gpu-host-shared-allocs
//   (lib/Transforms/GPU) make every buffer the function allocates itself
//   device-accessible and copy constants (host memory) into such buffers;
// - libnorm_cuda_runtime.so, opened by norm-run itself (not only by the
//   JIT) for the buffers it allocates, the device synchronization around
//   each timed call and the probe for a driver and a GPU.
//
//===----------------------------------------------------------------------===//

#include "NormRun.h"

#include "norm/Target/NVIDIATarget.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>

using namespace mlir;
using namespace normrun;

std::string normrun::cudaPreparationPipeline() {
  // As norm-lower-to-cpu bufferizes (CPUPipeline.cpp): the function
  // boundary with identity layouts, then ownership-based deallocation.
  return "norm-order-constant-globals, "
         "one-shot-bufferize{bufferize-function-boundaries=1 "
         "function-boundary-type-conversion=identity-layout-map "
         "allow-return-allocs-from-loops=1}, norm-gpu-copy-globals, "
         "buffer-deallocation-pipeline, convert-bufferization-to-memref, "
         "norm-gpu-host-shared-allocs";
}

//===----------------------------------------------------------------------===//
// The runtime library
//===----------------------------------------------------------------------===//

std::string normrun::openCudaRuntime(const std::string &path,
                                     CudaRuntime &rt) {
  std::string error;
  auto library =
      llvm::sys::DynamicLibrary::getPermanentLibrary(path.c_str(), &error);
  if (!library.isValid())
    return "cannot load '" + path + "': " + error;
  std::string missing;
  auto resolve = [&](auto &slot, const char *name) {
    slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(
        library.getAddressOfSymbol(name));
    if (!slot && missing.empty())
      missing = name;
  };
  resolve(rt.probe, "normCudaProbe");
  resolve(rt.synchronize, "normCudaSynchronize");
  resolve(rt.isDeviceAllocation, "normCudaIsDeviceAllocation");
  resolve(rt.memAlloc, "mgpuMemAlloc");
  resolve(rt.memFree, "mgpuMemFree");
  if (!missing.empty())
    return "'" + path + "' is not norm-mlir's CUDA runtime (it has no " +
           missing + ")";
  rt.path = path;
  return "";
}

void *normrun::CudaRuntime::allocate(size_t bytes) const {
  // Managed memory, so both the kernels and norm-run (filling inputs,
  // reading outputs for --check) can use the buffer. Host-registered
  // (pinned, mapped) memory would also be device-accessible, but every
  // kernel access would then cross PCIe/C2C and the timings would measure
  // the interconnect; managed pages migrate to the GPU in the warm-up calls
  // and the timed calls read device memory, as the kernels would in a model.
  return memAlloc(bytes ? bytes : 64, /*stream=*/nullptr,
                  /*isHostShared=*/true);
}

void normrun::CudaRuntime::release(void *pointer) const {
  if (!pointer)
    return;
  if (isDeviceAllocation(pointer))
    memFree(pointer, /*stream=*/nullptr);
  else
    std::free(pointer); // e.g. a result of a CPU --compare-pipeline
}

//===----------------------------------------------------------------------===//
// The runtime and the device of a run
//===----------------------------------------------------------------------===//

namespace {

/// libnorm_cuda_runtime.so: a --shared-libs entry of that name, else the
/// one in the lib directory beside the bin directory of `executable`
/// (build/bin/norm-run → build/lib; <prefix>/bin → <prefix>/lib, where
/// CMake installs both). Empty, with the error printed, when there is none.
std::string findCudaRuntime(const Options &o, llvm::StringRef executable) {
  const char *name = "libnorm_cuda_runtime.so";
  for (const std::string &lib : o.sharedLibs)
    if (llvm::sys::path::filename(lib) == name)
      return lib;
  llvm::SmallString<256> dir(executable);
  llvm::sys::path::remove_filename(dir); // bin
  llvm::sys::path::remove_filename(dir); // the prefix
  llvm::sys::path::append(dir, "lib");
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, name);
  if (llvm::sys::fs::exists(path))
    return std::string(path);
  error("--target=cuda: " + llvm::Twine(name) + " is not in " + dir +
        " (it is built only where CMake found the CUDA toolkit); pass its "
        "path with --shared-libs");
  return "";
}

/// Opens the runtime and checks for a driver and a device that can run
/// --chip. Prints the error and fails otherwise.
LogicalResult openCuda(const Options &o, const std::string &path,
                       CudaRuntime &cuda) {
  std::string why = openCudaRuntime(path, cuda);
  if (!why.empty()) {
    error("--target=cuda: " + why);
    return failure();
  }
  int major = 0, minor = 0;
  char name[256] = {0};
  char message[1024] = {0};
  if (cuda.probe(&major, &minor, name, sizeof(name), message,
                 sizeof(message)) != 0) {
    error("--target=cuda: no GPU to run on: " + llvm::Twine(message));
    return failure();
  }
  // sm_XY code runs on compute capability X.Y or newer (the fatbin and PTX
  // forms carry PTX the driver compiles for newer GPUs); sm_XYa only on X.Y.
  // The chip was checked by validateCudaOptions, so it parses.
  mlir::norm::NVIDIAChipName chip = *mlir::norm::parseNVIDIAChip(o.chip);
  unsigned sm = chip.smVersion;
  bool archSpecific = chip.suffix == 'a';
  unsigned device = static_cast<unsigned>(major * 10 + minor);
  if (device < sm || (archSpecific && device != sm)) {
    error("--target=cuda: --chip=" + o.chip + " code cannot run on " + name +
          " (compute capability " + llvm::Twine(major) + "." +
          llvm::Twine(minor) + "); pass --chip=sm_" + llvm::Twine(device));
    return failure();
  }
  return success();
}

} // namespace

LogicalResult normrun::startCuda(const Options &o, llvm::StringRef executable,
                                 CudaRuntime &rt) {
  std::string path = findCudaRuntime(o, executable);
  if (path.empty() || failed(openCuda(o, path, rt)))
    return failure();
  return success();
}
