//===- CPUTarget.cpp - the CPU targets of the vector code ----------------===//
//
// The one reading of a CPU `target` name (host, avx512, avx512-bf16, avx2,
// generic) and of the host's caches, for convert-norm-to-vector,
// norm-vectorize-elementwise and norm-lower-to-cpu.
//
//===----------------------------------------------------------------------===//

#include "norm/Target/CPUTarget.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <unistd.h>

using namespace mlir;

int64_t mlir::norm::getVectorBitsForTarget(const std::string &target) {
  if (target == "avx512" || target == "avx512-bf16")
    return 512;
  if (target == "avx2")
    return 256;
  if (target == "generic")
    return 128;
  if (target != "host")
    return 0;
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  if (features.lookup("avx512f"))
    return 512;
  if (features.lookup("avx2"))
    return 256;
  return 128;
}

bool mlir::norm::targetHasNativeBF16(const std::string &target) {
  if (target == "avx512-bf16")
    return true;
  if (target != "host")
    return false;
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  return features.lookup("avx512f") && features.lookup("avx512bf16");
}

bool mlir::norm::targetIsX86(const std::string &target) {
  if (target == "avx512" || target == "avx512-bf16" || target == "avx2")
    return true;
  if (target != "host")
    return false;
  return llvm::Triple(llvm::sys::getProcessTriple()).isX86();
}

/// Parses a sysfs cache size such as "32768K".
static int64_t parseCacheSize(llvm::StringRef text) {
  text = text.trim();
  int64_t scale = 1;
  if (text.consume_back("K"))
    scale = 1024;
  else if (text.consume_back("M"))
    scale = 1024 * 1024;
  int64_t value = 0;
  if (text.getAsInteger(10, value) || value <= 0)
    return 0;
  return value * scale;
}

int64_t mlir::norm::getHostLastLevelCacheBytes() {
  // sysfs first: in virtual machines glibc's sysconf can report the whole
  // package's L3 (seen: 384 MiB, and 320 MiB on the Zen 4 VM, where the VM
  // has a 32 MiB L3). Read as a stream: sysfs files stat as 4096 bytes, and
  // getFile returns that many, the text followed by NULs, which no size
  // parses; every host then fell through to sysconf (issue 32).
  int64_t lastLevelBytes = 0;
  for (int index = 0; index < 8; ++index) {
    std::string path = "/sys/devices/system/cpu/cpu0/cache/index" +
                       std::to_string(index) + "/size";
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
        llvm::MemoryBuffer::getFileAsStream(path);
    if (!file)
      break;
    if (int64_t bytes = parseCacheSize((*file)->getBuffer()))
      lastLevelBytes = bytes;
  }
  if (lastLevelBytes > 0)
    return lastLevelBytes;
  for (int name : {_SC_LEVEL3_CACHE_SIZE, _SC_LEVEL2_CACHE_SIZE}) {
    long bytes = sysconf(name);
    if (bytes > 0)
      return bytes;
  }
  return int64_t(32) << 20;
}
