//===- CudaRuntime.cpp - mgpu* entry points on the CUDA driver API --------===//
//
// The functions that MLIR 22's GPU host code calls: gpu-to-llvm emits the
// stream, event and memory calls, and the translation of gpu.binary /
// gpu.launch_func to LLVM IR emits the module and launch calls
// (mgpuModuleLoad for cubin/fatbin, mgpuModuleLoadJIT for PTX). Signatures
// follow upstream's CudaRuntimeWrappers.cpp of the same release, which
// Debian's MLIR package does not ship as a library.
//
// Every driver error is fatal: it is reported on stderr with the call and the
// driver's error name, and the process exits with status 1 (see
// DriverLoader.h). Upstream prints and carries on, which turns a missing GPU
// into a segfault a few calls later. normCudaProbe is the one exception: it
// reports a missing driver or GPU to its caller, so a host program (norm-run)
// can print its own error before it runs any generated code.
//
// The norm* functions at the end are the project's own: launch timing for
// the benchmarks (LaunchTiming.cpp), and the probe, a device-wide
// synchronization and an allocation query for norm-run --target=cuda.
//
//===----------------------------------------------------------------------===//

#include "DriverLoader.h"
#include "LaunchTiming.h"

#include <array>
#include <cstring>
#include <iterator>
#include <map>
#include <mutex>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unordered_set>

#define NORM_CUDA_EXPORT extern "C" __attribute__((visibility("default")))

using norm_cuda::check;
using norm_cuda::driver;

namespace {

/// The device that the next context is created on (mgpuSetDefaultDevice).
thread_local int32_t defaultDevice = 0;

/// Makes the primary context of the default device current for the lifetime
/// of the object, restoring the previous one afterwards.
class ScopedContext {
public:
  ScopedContext() {
    static CUcontext context = [] {
      CUdevice device;
      check(driver().deviceGet(&device, defaultDevice), "cuDeviceGet");
      CUcontext primary = nullptr;
      check(driver().devicePrimaryCtxRetain(&primary, device),
            "cuDevicePrimaryCtxRetain");
      return primary;
    }();
    check(driver().ctxPushCurrent(context), "cuCtxPushCurrent");
  }
  ~ScopedContext() {
    CUcontext previous = nullptr;
    check(driver().ctxPopCurrent(&previous), "cuCtxPopCurrent");
  }
};

CUdeviceptr devicePointer(void *pointer) {
  return reinterpret_cast<CUdeviceptr>(pointer);
}

/// A ranked memref descriptor as MLIR passes it: allocated and aligned
/// pointers, offset, then `rank` sizes and `rank` strides.
struct MemRefDescriptor {
  char *allocated;
  char *aligned;
  int64_t offset;
  // Followed by `rank` sizes and `rank` strides.
  const int64_t *sizesAndStrides() const {
    return reinterpret_cast<const int64_t *>(this + 1);
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Modules and kernels
//===----------------------------------------------------------------------===//

/// Loads a cubin or fatbin image (gpu-module-to-binary format=bin/fatbin).
NORM_CUDA_EXPORT CUmodule mgpuModuleLoad(void *data, size_t /*size*/) {
  ScopedContext scopedContext;
  CUmodule module = nullptr;
  check(driver().moduleLoadData(&module, data), "cuModuleLoadData");
  return module;
}

/// JIT-compiles and loads PTX (gpu-module-to-binary format=isa); the
/// driver's error log is printed when the PTX is rejected.
NORM_CUDA_EXPORT CUmodule mgpuModuleLoadJIT(void *data, int optLevel) {
  ScopedContext scopedContext;
  CUmodule module = nullptr;
  char errorLog[4096] = {0};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                            CU_JIT_OPTIMIZATION_LEVEL};
  void *values[] = {errorLog, reinterpret_cast<void *>(sizeof(errorLog)),
                    reinterpret_cast<void *>(static_cast<intptr_t>(optLevel))};
  CUresult result =
      driver().moduleLoadDataEx(&module, data, 3, options, values);
  if (result != CUDA_SUCCESS && errorLog[0])
    fprintf(stderr, "norm-cuda-runtime: PTX JIT log:\n%s\n", errorLog);
  check(result, "cuModuleLoadDataEx (PTX JIT)");
  return module;
}

NORM_CUDA_EXPORT void mgpuModuleUnload(CUmodule module) {
  CUresult result = driver().moduleUnload(module);
  // A program compiled ahead of time unloads its gpu.binary modules from a
  // global destructor, which runs after libcuda.so.1 (opened later, so
  // finalized first) has torn the driver down and freed every module.
  if (result == CUDA_ERROR_DEINITIALIZED)
    return;
  check(result, "cuModuleUnload");
}

NORM_CUDA_EXPORT CUfunction mgpuModuleGetFunction(CUmodule module,
                                                  const char *name) {
  CUfunction function = nullptr;
  CUresult result = driver().moduleGetFunction(&function, module, name);
  if (result != CUDA_SUCCESS)
    fprintf(stderr, "norm-cuda-runtime: kernel '%s' not found in module\n",
            name);
  check(result, "cuModuleGetFunction");
  return function;
}

/// Grid and block sizes are intptr_t to match MLIR's index type. Dynamic
/// shared memory above the 48 KiB default is opted into first.
NORM_CUDA_EXPORT void mgpuLaunchKernel(CUfunction function, intptr_t gridX,
                                       intptr_t gridY, intptr_t gridZ,
                                       intptr_t blockX, intptr_t blockY,
                                       intptr_t blockZ, int32_t smem,
                                       CUstream stream, void **params,
                                       void **extra, size_t /*paramsCount*/) {
  ScopedContext scopedContext;
  if (smem > 48 * 1024)
    check(driver().funcSetAttribute(
              function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem),
          "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)");
  bool timed = norm_cuda::launchTimingEnabled();
  if (timed)
    norm_cuda::recordLaunchStart(stream);
  check(driver().launchKernel(function, gridX, gridY, gridZ, blockX, blockY,
                              blockZ, smem, stream, params, extra),
        "cuLaunchKernel");
  if (timed)
    norm_cuda::recordLaunchStop(stream);
}

/// Launch with a thread-block cluster (sm_90).
NORM_CUDA_EXPORT void
mgpuLaunchClusterKernel(CUfunction function, intptr_t clusterX,
                        intptr_t clusterY, intptr_t clusterZ, intptr_t gridX,
                        intptr_t gridY, intptr_t gridZ, intptr_t blockX,
                        intptr_t blockY, intptr_t blockZ, int32_t smem,
                        CUstream stream, void **params, void **extra,
                        size_t /*paramsCount*/) {
  ScopedContext scopedContext;
  if (smem > 48 * 1024)
    check(driver().funcSetAttribute(
              function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem),
          "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)");
  CUlaunchAttribute attribute;
  attribute.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attribute.value.clusterDim.x = clusterX;
  attribute.value.clusterDim.y = clusterY;
  attribute.value.clusterDim.z = clusterZ;
  CUlaunchConfig config = {};
  config.gridDimX = gridX;
  config.gridDimY = gridY;
  config.gridDimZ = gridZ;
  config.blockDimX = blockX;
  config.blockDimY = blockY;
  config.blockDimZ = blockZ;
  config.sharedMemBytes = smem;
  config.hStream = stream;
  config.attrs = &attribute;
  config.numAttrs = 1;
  check(driver().launchKernelEx(&config, function, params, extra),
        "cuLaunchKernelEx");
}

//===----------------------------------------------------------------------===//
// Streams and events
//===----------------------------------------------------------------------===//

NORM_CUDA_EXPORT CUstream mgpuStreamCreate() {
  ScopedContext scopedContext;
  CUstream stream = nullptr;
  check(driver().streamCreate(&stream, CU_STREAM_NON_BLOCKING),
        "cuStreamCreate");
  return stream;
}

NORM_CUDA_EXPORT void mgpuStreamDestroy(CUstream stream) {
  check(driver().streamDestroy(stream), "cuStreamDestroy");
}

NORM_CUDA_EXPORT void mgpuStreamSynchronize(CUstream stream) {
  check(driver().streamSynchronize(stream), "cuStreamSynchronize");
}

NORM_CUDA_EXPORT void mgpuStreamWaitEvent(CUstream stream, CUevent event) {
  check(driver().streamWaitEvent(stream, event, /*Flags=*/0),
        "cuStreamWaitEvent");
}

NORM_CUDA_EXPORT CUevent mgpuEventCreate() {
  ScopedContext scopedContext;
  CUevent event = nullptr;
  check(driver().eventCreate(&event, CU_EVENT_DISABLE_TIMING),
        "cuEventCreate");
  return event;
}

NORM_CUDA_EXPORT void mgpuEventDestroy(CUevent event) {
  check(driver().eventDestroy(event), "cuEventDestroy");
}

NORM_CUDA_EXPORT void mgpuEventSynchronize(CUevent event) {
  check(driver().eventSynchronize(event), "cuEventSynchronize");
}

NORM_CUDA_EXPORT void mgpuEventRecord(CUevent event, CUstream stream) {
  check(driver().eventRecord(event, stream), "cuEventRecord");
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

namespace {

/// Whether device memory comes from the device's default memory pool,
/// stream-ordered (cuMemAllocAsync / cuMemFreeAsync). cuMemFree waits for
/// all of the device's pending work, so with one stream a function
/// (norm-lower-to-nvvm's async-launches) every free of an intermediate
/// stalled the host until the queue drained; a stream-ordered free is
/// queued behind the kernels that use the buffer instead. The pool keeps
/// what is freed (release threshold: everything), so a layer called again
/// reuses its memory instead of mapping it anew. Decided once, on the
/// default device; a device without pools keeps cuMemAlloc / cuMemFree.
bool useMemoryPool() {
  static const bool usePool = [] {
    CUdevice device;
    check(driver().deviceGet(&device, defaultDevice), "cuDeviceGet");
    int supported = 0;
    check(driver().deviceGetAttribute(
              &supported, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, device),
          "cuDeviceGetAttribute");
    if (!supported)
      return false;
    CUmemoryPool pool = nullptr;
    check(driver().deviceGetDefaultMemPool(&pool, device),
          "cuDeviceGetDefaultMemPool");
    cuuint64_t keepAll = ~cuuint64_t{0};
    check(driver().memPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
                                       &keepAll),
          "cuMemPoolSetAttribute");
    return true;
  }();
  return usePool;
}

/// The pointers mgpuMemAlloc took from the memory pool (cuMemAllocAsync):
/// only those may be freed with cuMemFreeAsync; managed memory and the
/// runtime's own cuMemAlloc allocations have no pool. Kept here rather than
/// asked of the driver (CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE) because the
/// host code frees every intermediate, and a driver query per free sat on
/// the launch path of every layer call.
class PoolAllocations {
public:
  void insert(CUdeviceptr pointer) {
    std::lock_guard<std::mutex> lock(mutex);
    pointers.insert(pointer);
  }
  /// Forgets `pointer`; whether it was a pool allocation.
  bool erase(CUdeviceptr pointer) {
    std::lock_guard<std::mutex> lock(mutex);
    return pointers.erase(pointer) != 0;
  }

private:
  std::mutex mutex;
  std::unordered_set<CUdeviceptr> pointers;
};

PoolAllocations &poolAllocations() {
  static PoolAllocations allocations;
  return allocations;
}

} // namespace

/// `isHostShared` (gpu.alloc host_shared) gives managed memory; otherwise
/// device memory, stream-ordered on `stream` where the device has memory
/// pools (useMemoryPool).
NORM_CUDA_EXPORT void *mgpuMemAlloc(uint64_t sizeBytes, CUstream stream,
                                    bool isHostShared) {
  ScopedContext scopedContext;
  CUdeviceptr pointer = 0;
  if (sizeBytes == 0)
    return nullptr;
  if (isHostShared)
    check(driver().memAllocManaged(&pointer, sizeBytes, CU_MEM_ATTACH_GLOBAL),
          "cuMemAllocManaged");
  else if (useMemoryPool()) {
    check(driver().memAllocAsync(&pointer, sizeBytes, stream),
          "cuMemAllocAsync");
    poolAllocations().insert(pointer);
  } else
    check(driver().memAlloc(&pointer, sizeBytes), "cuMemAlloc");
  return reinterpret_cast<void *>(pointer);
}

/// A pool allocation is freed in `stream`'s order, after the work queued on
/// it (the host code frees a buffer on the stream its kernels ran on, or
/// after synchronizing them); anything else with cuMemFree.
NORM_CUDA_EXPORT void mgpuMemFree(void *pointer, CUstream stream) {
  if (!pointer)
    return;
  ScopedContext scopedContext;
  if (poolAllocations().erase(devicePointer(pointer)))
    check(driver().memFreeAsync(devicePointer(pointer), stream),
          "cuMemFreeAsync");
  else
    check(driver().memFree(devicePointer(pointer)), "cuMemFree");
}

NORM_CUDA_EXPORT void mgpuMemcpy(void *dst, void *src, size_t sizeBytes,
                                 CUstream stream) {
  ScopedContext scopedContext;
  check(driver().memcpyAsync(devicePointer(dst), devicePointer(src), sizeBytes,
                             stream),
        "cuMemcpyAsync");
}

NORM_CUDA_EXPORT void mgpuMemset32(void *dst, unsigned int value, size_t count,
                                   CUstream stream) {
  ScopedContext scopedContext;
  check(driver().memsetD32Async(devicePointer(dst), value, count, stream),
        "cuMemsetD32Async");
}

NORM_CUDA_EXPORT void mgpuMemset16(void *dst, unsigned short value,
                                   size_t count, CUstream stream) {
  ScopedContext scopedContext;
  check(driver().memsetD16Async(devicePointer(dst), value, count, stream),
        "cuMemsetD16Async");
}

/// Page-locks host memory and maps it for the device, so kernels can use
/// host buffers (gpu.host_register).
NORM_CUDA_EXPORT void mgpuMemHostRegister(void *pointer, uint64_t sizeBytes) {
  ScopedContext scopedContext;
  check(driver().memHostRegister(pointer, sizeBytes,
                                 CU_MEMHOSTREGISTER_PORTABLE |
                                     CU_MEMHOSTREGISTER_DEVICEMAP),
        "cuMemHostRegister");
}

NORM_CUDA_EXPORT void mgpuMemHostUnregister(void *pointer) {
  ScopedContext scopedContext;
  check(driver().memHostUnregister(pointer), "cuMemHostUnregister");
}

/// Registers the memory a ranked memref spans (any strides: from its first
/// to one past its last element).
NORM_CUDA_EXPORT void mgpuMemHostRegisterMemRef(int64_t rank,
                                                MemRefDescriptor *descriptor,
                                                int64_t elementSizeBytes) {
  const int64_t *sizes = descriptor->sizesAndStrides();
  const int64_t *strides = sizes + rank;
  int64_t lastElement = 0;
  for (int64_t d = 0; d < rank; ++d) {
    if (sizes[d] == 0)
      return;
    lastElement += (sizes[d] - 1) * strides[d];
  }
  char *begin = descriptor->aligned + descriptor->offset * elementSizeBytes;
  mgpuMemHostRegister(begin, (lastElement + 1) * elementSizeBytes);
}

NORM_CUDA_EXPORT void mgpuMemHostUnregisterMemRef(int64_t /*rank*/,
                                                  MemRefDescriptor *descriptor,
                                                  int64_t elementSizeBytes) {
  mgpuMemHostUnregister(descriptor->aligned +
                        descriptor->offset * elementSizeBytes);
}

namespace {

/// The device copy of an encoded TMA map. Kernels only read it, so equal
/// maps (the same buffer, shape, box and modes) share one copy, made once
/// and kept for the process: the old one-allocation-per-call leaked 128
/// bytes a GEMM call and synchronized the stream each time. Past
/// kMaxKeptMaps distinct maps (buffers at ever new addresses), a map gets
/// its own copy that is never freed, as before.
CUdeviceptr deviceTensorMap(const CUtensorMap &tensorMap) {
  constexpr size_t kMaxKeptMaps = 1 << 16;
  using MapBytes = std::array<unsigned char, sizeof(CUtensorMap)>;
  static std::mutex mutex;
  static auto *kept = new std::map<MapBytes, CUdeviceptr>();
  MapBytes bytes;
  std::memcpy(bytes.data(), &tensorMap, sizeof(CUtensorMap));
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = kept->find(bytes); it != kept->end())
    return it->second;
  CUdeviceptr deviceMap = 0;
  check(driver().memAlloc(&deviceMap, sizeof(CUtensorMap)), "cuMemAlloc");
  // From pageable host memory, the copy has completed when this returns
  // (and the synchronization makes that explicit).
  check(driver().memcpyAsync(deviceMap,
                             reinterpret_cast<CUdeviceptr>(&tensorMap),
                             sizeof(CUtensorMap), nullptr),
        "cuMemcpyAsync");
  check(driver().streamSynchronize(nullptr), "cuStreamSynchronize");
  if (kept->size() < kMaxKeptMaps)
    kept->emplace(bytes, deviceMap);
  return deviceMap;
}

} // namespace

/// A TMA descriptor (CUtensorMap) of the ranked memref `descriptor`, as
/// MLIR 22's `nvgpu.tma.create.descriptor` lowering calls it: the data type,
/// interleave, swizzle, L2 promotion and out-of-bounds fill are the driver's
/// enum values, `boxDims` the box in the memref's dim order (outermost
/// first; the driver wants innermost first). The encoded map is copied to
/// device memory and that address returned: the kernel receives it as a
/// pointer parameter, as upstream's runtime does. Device copies are kept by
/// the map's encoded bytes (deviceTensorMap), so a GEMM called again on the
/// same buffers reuses its descriptor: no allocation and no synchronization.
NORM_CUDA_EXPORT void *mgpuTensorMapEncodeTiledMemref(
    int64_t rank, MemRefDescriptor *descriptor, CUtensorMapDataType dataType,
    CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
    CUtensorMapL2promotion l2Promotion, CUtensorMapFloatOOBfill oobFill,
    const int64_t *boxDims) {
  if (rank < 1 || rank > 5) {
    fprintf(stderr,
            "norm-cuda-runtime: a TMA descriptor takes a memref of rank 1 to "
            "5, got %lld\n",
            static_cast<long long>(rank));
    abort();
  }
  // Bytes per element of each CUtensorMapDataType, in enum order (UINT8 …
  // TFLOAT32_FTZ).
  static constexpr int64_t elementBytes[] = {1, 2, 4, 4, 8, 8, 2,
                                             4, 8, 2, 4, 4, 4};
  if (static_cast<unsigned>(dataType) >= std::size(elementBytes)) {
    fprintf(stderr, "norm-cuda-runtime: TMA data type %d is not supported\n",
            static_cast<int>(dataType));
    abort();
  }
  const int64_t *sizes = descriptor->sizesAndStrides();
  const int64_t *strides = sizes + rank;
  cuuint64_t globalDim[5] = {1, 1, 1, 1, 1};
  cuuint64_t globalStrides[4] = {0, 0, 0, 0};
  cuuint32_t boxDim[5] = {1, 1, 1, 1, 1};
  cuuint32_t elementStrides[5] = {1, 1, 1, 1, 1};
  for (int64_t d = 0; d < rank; ++d) {
    globalDim[d] = static_cast<cuuint64_t>(sizes[rank - 1 - d]);
    boxDim[d] = static_cast<cuuint32_t>(boxDims[rank - 1 - d]);
  }
  // The innermost dim is contiguous; the others' strides in bytes.
  for (int64_t d = 0; d + 1 < rank; ++d)
    globalStrides[d] = static_cast<cuuint64_t>(strides[rank - 2 - d] *
                                               elementBytes[dataType]);
  char *base =
      descriptor->aligned + descriptor->offset * elementBytes[dataType];
  CUtensorMap tensorMap;
  // Bytes the driver leaves unwritten must not make equal maps differ.
  std::memset(&tensorMap, 0, sizeof(tensorMap));
  ScopedContext scopedContext;
  check(driver().tensorMapEncodeTiled(
            &tensorMap, dataType, static_cast<cuuint32_t>(rank), base,
            globalDim, globalStrides, boxDim, elementStrides, interleave,
            swizzle, l2Promotion, oobFill),
        "cuTensorMapEncodeTiled");
  return reinterpret_cast<void *>(deviceTensorMap(tensorMap));
}

NORM_CUDA_EXPORT void mgpuSetDefaultDevice(int32_t device) {
  defaultDevice = device;
}

//===----------------------------------------------------------------------===//
// Helpers for hosts that drive generated code themselves (norm-run)
//===----------------------------------------------------------------------===//

/// Whether the driver loads and the default device exists, without exiting
/// (unlike every other entry point). Returns 0 and sets the device's compute
/// capability and name; otherwise returns 1 and writes the reason (the text
/// the other entry points would print before exiting) to `message`.
NORM_CUDA_EXPORT int normCudaProbe(int *major, int *minor, char *name,
                                   size_t nameSize, char *message,
                                   size_t messageSize) {
  auto report = [&](const char *text) {
    if (messageSize)
      snprintf(message, messageSize, "%s", text);
    return 1;
  };
  if (const char *error = norm_cuda::driverError())
    return report(error);
  int count = 0;
  if (driver().deviceGetCount(&count) != CUDA_SUCCESS || defaultDevice < 0 ||
      defaultDevice >= count)
    return report("the default CUDA device does not exist");
  CUdevice device;
  if (driver().deviceGet(&device, defaultDevice) != CUDA_SUCCESS ||
      driver().deviceGetAttribute(
          major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device) !=
          CUDA_SUCCESS ||
      driver().deviceGetAttribute(
          minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device) !=
          CUDA_SUCCESS)
    return report("cannot query the compute capability of the CUDA device");
  if (nameSize &&
      driver().deviceGetName(name, static_cast<int>(nameSize), device) !=
          CUDA_SUCCESS)
    snprintf(name, nameSize, "CUDA device %d", defaultDevice);
  return 0;
}

/// Waits for all work on the default device (its primary context), so a
/// host timer around generated code measures the kernels whether or not the
/// launches were asynchronous.
NORM_CUDA_EXPORT void normCudaSynchronize() {
  ScopedContext scopedContext;
  check(driver().ctxSynchronize(), "cuCtxSynchronize");
}

/// 1 when `pointer` is memory the CUDA driver allocated (device or managed:
/// what mgpuMemAlloc returns, to be released with mgpuMemFree), 0 for any
/// other pointer (malloc'd, registered host memory, null).
NORM_CUDA_EXPORT int normCudaIsDeviceAllocation(void *pointer) {
  if (!pointer)
    return 0;
  ScopedContext scopedContext;
  unsigned int isManaged = 0;
  if (driver().pointerGetAttribute(&isManaged, CU_POINTER_ATTRIBUTE_IS_MANAGED,
                                   devicePointer(pointer)) != CUDA_SUCCESS)
    return 0; // not known to the driver
  if (isManaged)
    return 1;
  CUmemorytype type = CU_MEMORYTYPE_HOST;
  if (driver().pointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                   devicePointer(pointer)) != CUDA_SUCCESS)
    return 0;
  return type == CU_MEMORYTYPE_DEVICE ? 1 : 0;
}
