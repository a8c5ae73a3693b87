//===- DriverLoader.cpp - the CUDA driver API, opened at run time ---------===//
//
// Fills the CudaDriver table from libcuda.so.1 and turns every failure into
// one line on stderr naming the cause, then exit(1).
//
//===----------------------------------------------------------------------===//

#include "DriverLoader.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

namespace norm_cuda {
namespace {

[[noreturn]] void fail(const char *message, const char *detail) {
  fprintf(stderr, "norm-cuda-runtime: error: %s%s%s\n", message,
          detail ? ": " : "", detail ? detail : "");
  fflush(stderr);
  exit(EXIT_FAILURE);
}

// Resolves `symbol` into `slot`; the symbol is the one cuda.h's macros name
// (e.g. "cuMemAlloc_v2" for cuMemAlloc).
template <typename Fn>
void resolve(void *library, Fn &slot, const char *symbol) {
  slot = reinterpret_cast<Fn>(dlsym(library, symbol));
  if (!slot)
    fail("the CUDA driver (libcuda.so.1) lacks a required function, it is "
         "probably older than the CUDA 12 API this runtime needs",
         symbol);
}

// Stringizes after macro expansion, so NORM_CUDA_SYMBOL(cuMemAlloc) is
// "cuMemAlloc_v2".
#define NORM_CUDA_STRINGIZE(x) #x
#define NORM_CUDA_SYMBOL(x) NORM_CUDA_STRINGIZE(x)
#define NORM_CUDA_RESOLVE(field, fn) resolve(library, d.field, NORM_CUDA_SYMBOL(fn))

CudaDriver load() {
  void *library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library)
    fail("cannot load the NVIDIA CUDA driver library; GPU code needs an "
         "NVIDIA GPU with its driver installed",
         dlerror());
  CudaDriver d;
  NORM_CUDA_RESOLVE(init, cuInit);
  NORM_CUDA_RESOLVE(getErrorName, cuGetErrorName);
  NORM_CUDA_RESOLVE(getErrorString, cuGetErrorString);
  NORM_CUDA_RESOLVE(deviceGetCount, cuDeviceGetCount);
  NORM_CUDA_RESOLVE(deviceGet, cuDeviceGet);
  NORM_CUDA_RESOLVE(devicePrimaryCtxRetain, cuDevicePrimaryCtxRetain);
  NORM_CUDA_RESOLVE(ctxPushCurrent, cuCtxPushCurrent);
  NORM_CUDA_RESOLVE(ctxPopCurrent, cuCtxPopCurrent);
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
  NORM_CUDA_RESOLVE(memcpyAsync, cuMemcpyAsync);
  NORM_CUDA_RESOLVE(memsetD32Async, cuMemsetD32Async);
  NORM_CUDA_RESOLVE(memsetD16Async, cuMemsetD16Async);
  NORM_CUDA_RESOLVE(memsetD8Async, cuMemsetD8Async);
  NORM_CUDA_RESOLVE(memHostRegister, cuMemHostRegister);
  NORM_CUDA_RESOLVE(memHostUnregister, cuMemHostUnregister);

  CUresult result = d.init(/*Flags=*/0);
  if (result == CUDA_ERROR_NO_DEVICE)
    fail("no CUDA-capable GPU is present (cuInit: CUDA_ERROR_NO_DEVICE)",
         nullptr);
  if (result != CUDA_SUCCESS) {
    const char *name = nullptr;
    const char *description = nullptr;
    d.getErrorName(result, &name);
    d.getErrorString(result, &description);
    fprintf(stderr, "norm-cuda-runtime: error: cuInit failed with %s (%s)\n",
            name ? name : "an unknown error",
            description ? description : "no description");
    fflush(stderr);
    exit(EXIT_FAILURE);
  }
  int count = 0;
  if (d.deviceGetCount(&count) != CUDA_SUCCESS || count == 0)
    fail("no CUDA-capable GPU is present (cuDeviceGetCount returned 0)",
         nullptr);
  return d;
}

} // namespace

const CudaDriver &driver() {
  static const CudaDriver loaded = load();
  return loaded;
}

void check(CUresult result, const char *what) {
  if (result == CUDA_SUCCESS)
    return;
  const char *name = nullptr;
  const char *description = nullptr;
  driver().getErrorName(result, &name);
  driver().getErrorString(result, &description);
  fprintf(stderr, "norm-cuda-runtime: error: %s failed with %s (%s)\n", what,
          name ? name : "an unknown error",
          description ? description : "no description");
  fflush(stderr);
  exit(EXIT_FAILURE);
}

} // namespace norm_cuda
