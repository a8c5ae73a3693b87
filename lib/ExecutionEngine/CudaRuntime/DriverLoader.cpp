//===- DriverLoader.cpp - the CUDA driver API, opened at run time ---------===//
//
// Fills the CudaDriver table from libcuda.so.1. A failure is kept as one
// message naming the cause: driver() prints it and exits with status 1,
// driverError() hands it to callers that report it themselves (norm-run).
//
//===----------------------------------------------------------------------===//

#include "DriverLoader.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include <string>

namespace norm_cuda {
namespace {

[[noreturn]] void fail(const char *message) {
  // exit() runs the program's destructors, and a gpu.binary's unload their
  // modules through this runtime: a second failure from there is the same
  // one, already reported, and exit() must not be called again.
  static bool reported = false;
  if (reported)
    _Exit(EXIT_FAILURE);
  reported = true;
  fprintf(stderr, "norm-cuda-runtime: error: %s\n", message);
  fflush(stderr);
  exit(EXIT_FAILURE);
}

/// The loaded driver, or why it could not be loaded (`error` not empty).
struct LoadedDriver {
  CudaDriver d = {};
  std::string error;
};

// Resolves `symbol` into `slot`; the symbol is the one cuda.h's macros name
// (e.g. "cuMemAlloc_v2" for cuMemAlloc). Returns false (and sets the error)
// when the driver lacks it.
template <typename Fn>
bool resolve(void *library, Fn &slot, const char *symbol, std::string &error) {
  slot = reinterpret_cast<Fn>(dlsym(library, symbol));
  if (!slot && error.empty())
    error = std::string("the CUDA driver (libcuda.so.1) lacks a required "
                        "function, it is probably older than the CUDA 12 API "
                        "this runtime needs: ") +
            symbol;
  return slot != nullptr;
}

// Stringizes after macro expansion, so NORM_CUDA_SYMBOL(cuMemAlloc) is
// "cuMemAlloc_v2".
#define NORM_CUDA_STRINGIZE(x) #x
#define NORM_CUDA_SYMBOL(x) NORM_CUDA_STRINGIZE(x)
#define NORM_CUDA_RESOLVE(field, fn)                                           \
  resolve(library, r.d.field, NORM_CUDA_SYMBOL(fn), r.error)

LoadedDriver load() {
  LoadedDriver r;
  void *library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *why = dlerror();
    r.error = std::string("cannot load the NVIDIA CUDA driver library; GPU "
                          "code needs an NVIDIA GPU with its driver "
                          "installed: ") +
              (why ? why : "libcuda.so.1");
    return r;
  }
  NORM_CUDA_RESOLVE(init, cuInit);
  NORM_CUDA_RESOLVE(getErrorName, cuGetErrorName);
  NORM_CUDA_RESOLVE(getErrorString, cuGetErrorString);
  NORM_CUDA_RESOLVE(deviceGetCount, cuDeviceGetCount);
  NORM_CUDA_RESOLVE(deviceGet, cuDeviceGet);
  NORM_CUDA_RESOLVE(deviceGetAttribute, cuDeviceGetAttribute);
  NORM_CUDA_RESOLVE(deviceGetName, cuDeviceGetName);
  NORM_CUDA_RESOLVE(devicePrimaryCtxRetain, cuDevicePrimaryCtxRetain);
  NORM_CUDA_RESOLVE(ctxPushCurrent, cuCtxPushCurrent);
  NORM_CUDA_RESOLVE(ctxPopCurrent, cuCtxPopCurrent);
  NORM_CUDA_RESOLVE(ctxSynchronize, cuCtxSynchronize);
  NORM_CUDA_RESOLVE(moduleLoadData, cuModuleLoadData);
  NORM_CUDA_RESOLVE(moduleLoadDataEx, cuModuleLoadDataEx);
  NORM_CUDA_RESOLVE(moduleUnload, cuModuleUnload);
  NORM_CUDA_RESOLVE(moduleGetFunction, cuModuleGetFunction);
  NORM_CUDA_RESOLVE(funcSetAttribute, cuFuncSetAttribute);
  NORM_CUDA_RESOLVE(launchKernel, cuLaunchKernel);
  NORM_CUDA_RESOLVE(launchKernelEx, cuLaunchKernelEx);
  NORM_CUDA_RESOLVE(streamCreate, cuStreamCreate);
  NORM_CUDA_RESOLVE(streamDestroy, cuStreamDestroy);
  NORM_CUDA_RESOLVE(streamSynchronize, cuStreamSynchronize);
  NORM_CUDA_RESOLVE(streamWaitEvent, cuStreamWaitEvent);
  NORM_CUDA_RESOLVE(eventCreate, cuEventCreate);
  NORM_CUDA_RESOLVE(eventDestroy, cuEventDestroy);
  NORM_CUDA_RESOLVE(eventSynchronize, cuEventSynchronize);
  NORM_CUDA_RESOLVE(eventRecord, cuEventRecord);
  NORM_CUDA_RESOLVE(eventElapsedTime, cuEventElapsedTime);
  NORM_CUDA_RESOLVE(memAlloc, cuMemAlloc);
  NORM_CUDA_RESOLVE(memAllocManaged, cuMemAllocManaged);
  NORM_CUDA_RESOLVE(memFree, cuMemFree);
  NORM_CUDA_RESOLVE(memAllocAsync, cuMemAllocAsync);
  NORM_CUDA_RESOLVE(memFreeAsync, cuMemFreeAsync);
  NORM_CUDA_RESOLVE(deviceGetDefaultMemPool, cuDeviceGetDefaultMemPool);
  NORM_CUDA_RESOLVE(memPoolSetAttribute, cuMemPoolSetAttribute);
  NORM_CUDA_RESOLVE(memcpyAsync, cuMemcpyAsync);
  NORM_CUDA_RESOLVE(memsetD32Async, cuMemsetD32Async);
  NORM_CUDA_RESOLVE(memsetD16Async, cuMemsetD16Async);
  NORM_CUDA_RESOLVE(memsetD8Async, cuMemsetD8Async);
  NORM_CUDA_RESOLVE(memHostRegister, cuMemHostRegister);
  NORM_CUDA_RESOLVE(memHostUnregister, cuMemHostUnregister);
  NORM_CUDA_RESOLVE(pointerGetAttribute, cuPointerGetAttribute);
  NORM_CUDA_RESOLVE(tensorMapEncodeTiled, cuTensorMapEncodeTiled);
  if (!r.error.empty())
    return r;

  CUresult result = r.d.init(/*Flags=*/0);
  if (result == CUDA_ERROR_NO_DEVICE) {
    r.error = "no CUDA-capable GPU is present (cuInit: CUDA_ERROR_NO_DEVICE)";
    return r;
  }
  if (result != CUDA_SUCCESS) {
    const char *name = nullptr;
    const char *description = nullptr;
    r.d.getErrorName(result, &name);
    r.d.getErrorString(result, &description);
    r.error = std::string("cuInit failed with ") +
              (name ? name : "an unknown error") + " (" +
              (description ? description : "no description") + ")";
    return r;
  }
  int count = 0;
  if (r.d.deviceGetCount(&count) != CUDA_SUCCESS || count == 0)
    r.error = "no CUDA-capable GPU is present (cuDeviceGetCount returned 0)";
  return r;
}

const LoadedDriver &loaded() {
  // Never destroyed: the module-unload destructors of a program's gpu.binary
  // still call in after exit() (from fail() too) has run static destructors.
  static const LoadedDriver *driver = new LoadedDriver(load());
  return *driver;
}

} // namespace

const char *driverError() {
  const LoadedDriver &driver = loaded();
  return driver.error.empty() ? nullptr : driver.error.c_str();
}

const CudaDriver &driver() {
  if (const char *error = driverError())
    fail(error);
  return loaded().d;
}

void check(CUresult result, const char *what) {
  if (result == CUDA_SUCCESS)
    return;
  const char *name = nullptr;
  const char *description = nullptr;
  driver().getErrorName(result, &name);
  driver().getErrorString(result, &description);
  char message[512];
  snprintf(message, sizeof(message), "%s failed with %s (%s, %d)", what,
           name ? name : "an unknown error",
           description ? description : "no description", int(result));
  fail(message);
}

} // namespace norm_cuda
