//===- DriverLoader.h - the CUDA driver API, opened at run time -*- C++ -*-===//
//
// The runtime calls the CUDA driver through this table of function pointers,
// filled from libcuda.so.1 with dlopen/dlsym on first use. Linking libcuda
// directly would make the runtime itself fail to load ("libcuda.so.1: cannot
// open shared object file") on machines without a driver; this way the first
// mgpu* call says what is missing instead.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_LIB_EXECUTIONENGINE_CUDARUNTIME_DRIVERLOADER_H
#define NORM_LIB_EXECUTIONENGINE_CUDARUNTIME_DRIVERLOADER_H

#include "cuda.h"

namespace norm_cuda {

/// The driver entry points the runtime uses. cuda.h maps several names to
/// their `_v2` symbols (cuMemAlloc → cuMemAlloc_v2, ...); the loader resolves
/// the same symbols the macros name, so the signatures match.
struct CudaDriver {
  decltype(&::cuInit) init;
  decltype(&::cuGetErrorName) getErrorName;
  decltype(&::cuGetErrorString) getErrorString;
  decltype(&::cuDeviceGetCount) deviceGetCount;
  decltype(&::cuDeviceGet) deviceGet;
  decltype(&::cuDeviceGetAttribute) deviceGetAttribute;
  decltype(&::cuDeviceGetName) deviceGetName;
  decltype(&::cuDevicePrimaryCtxRetain) devicePrimaryCtxRetain;
  decltype(&::cuCtxPushCurrent) ctxPushCurrent;
  decltype(&::cuCtxPopCurrent) ctxPopCurrent;
  decltype(&::cuCtxSynchronize) ctxSynchronize;
  decltype(&::cuModuleLoadData) moduleLoadData;
  decltype(&::cuModuleLoadDataEx) moduleLoadDataEx;
  decltype(&::cuModuleUnload) moduleUnload;
  decltype(&::cuModuleGetFunction) moduleGetFunction;
  decltype(&::cuFuncSetAttribute) funcSetAttribute;
  decltype(&::cuLaunchKernel) launchKernel;
  decltype(&::cuLaunchKernelEx) launchKernelEx;
  decltype(&::cuStreamCreate) streamCreate;
  decltype(&::cuStreamDestroy) streamDestroy;
  decltype(&::cuStreamSynchronize) streamSynchronize;
  decltype(&::cuStreamWaitEvent) streamWaitEvent;
  decltype(&::cuEventCreate) eventCreate;
  decltype(&::cuEventDestroy) eventDestroy;
  decltype(&::cuEventSynchronize) eventSynchronize;
  decltype(&::cuEventRecord) eventRecord;
  decltype(&::cuEventElapsedTime) eventElapsedTime;
  decltype(&::cuMemAlloc) memAlloc;
  decltype(&::cuMemAllocManaged) memAllocManaged;
  decltype(&::cuMemFree) memFree;
  decltype(&::cuMemAllocAsync) memAllocAsync;
  decltype(&::cuMemFreeAsync) memFreeAsync;
  decltype(&::cuDeviceGetDefaultMemPool) deviceGetDefaultMemPool;
  decltype(&::cuMemPoolSetAttribute) memPoolSetAttribute;
  decltype(&::cuMemcpyAsync) memcpyAsync;
  decltype(&::cuMemsetD32Async) memsetD32Async;
  decltype(&::cuMemsetD16Async) memsetD16Async;
  decltype(&::cuMemsetD8Async) memsetD8Async;
  decltype(&::cuMemHostRegister) memHostRegister;
  decltype(&::cuMemHostUnregister) memHostUnregister;
  decltype(&::cuPointerGetAttribute) pointerGetAttribute;
  decltype(&::cuTensorMapEncodeTiled) tensorMapEncodeTiled;
};

/// The driver, loaded and initialized (cuInit) on first use. If libcuda.so.1
/// cannot be opened, lacks a symbol, or cuInit fails (no device, driver too
/// old for the toolkit), prints why on stderr and exits with status 1: the
/// generated host code has no way to recover, and continuing would only
/// crash on the null handles that follow.
const CudaDriver &driver();

/// Loads the driver as driver() does, but never exits: returns null when the
/// driver and a device are usable, otherwise the one-line reason (the same
/// text driver() prints).
const char *driverError();

/// Reports a failed driver call (`what` names it, e.g. "cuLaunchKernel") with
/// the driver's error name and description, and exits with status 1.
/// Does nothing on CUDA_SUCCESS.
void check(CUresult result, const char *what);

} // namespace norm_cuda

#endif // NORM_LIB_EXECUTIONENGINE_CUDARUNTIME_DRIVERLOADER_H
