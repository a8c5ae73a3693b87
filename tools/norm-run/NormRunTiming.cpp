//===- NormRunTiming.cpp - norm-run's timed calls ---------------*- C++ -*-===//
//
// The timing of the compiled entry: the malloc settings that keep freed
// memory for the next call, the --warmup and --repeat calls with a clock
// around each, and the median and minimum of the times.
//
//===----------------------------------------------------------------------===//

#include "NormRun.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <vector>

// Under AddressSanitizer malloc is ASan's allocator, which ignores mallopt
// (it returns 0): there is nothing to set, and nothing to warn about.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NORM_RUN_UNDER_ASAN 1
#endif
#endif

using namespace normrun;

void normrun::keepFreedMemory() {
#if defined(__GLIBC__) && !defined(NORM_RUN_UNDER_ASAN)
  if (mallopt(M_MMAP_THRESHOLD, 32 << 20) != 1 ||
      mallopt(M_TRIM_THRESHOLD, 1 << 30) != 1)
    llvm::errs() << "norm-run: warning: mallopt refused; freed memory is "
                    "released as glibc decides\n";
#endif
}

std::vector<double> normrun::callTimed(const Compiled &c, ArgBuffers &args,
                                       const std::vector<ShapedSig> &resultSigs,
                                       const Options &o,
                                       const CudaRuntime *cuda,
                                       std::vector<Buffer> &results) {
  // The packed call: _mlir_ciface_<f>(results*, args*...) takes pointers to
  // descriptors; the packed wrapper takes pointers to those pointers.
  size_t resultWords = 0;
  for (const ShapedSig &s : resultSigs)
    resultWords += descriptorWords(s.shape.size());
  std::vector<int64_t> resultStorage(std::max<size_t>(resultWords, 1), 0);
  std::vector<void *> callArgs; // the ciface's parameters
  if (!resultSigs.empty())
    callArgs.push_back(resultStorage.data());
  for (auto &d : args.descs)
    callArgs.push_back(d.data());
  std::vector<void *> packed;
  for (void *&p : callArgs)
    packed.push_back(&p);

  auto readResults = [&]() {
    std::vector<Buffer> rs;
    size_t at = 0;
    for (const ShapedSig &s : resultSigs) {
      rs.push_back(bufferFromDescriptor(resultStorage.data() + at,
                                        s.shape.size(), s.elemType, s.quant));
      at += descriptorWords(s.shape.size());
    }
    return rs;
  };

  std::vector<double> times;
  int64_t calls = o.warmup + o.repeat;
  for (int64_t i = 0; i < calls; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    c.fn(packed.data());
    if (cuda)
      cuda->synchronize();
    auto t1 = std::chrono::steady_clock::now();
    if (i >= o.warmup)
      times.push_back(
          std::chrono::duration<double, std::milli>(t1 - t0).count());
    results = readResults();
    if (i + 1 < calls)
      freeResults(results, args.bufs, cuda);
  }
  return times;
}

std::pair<double, double> normrun::medianMin(std::vector<double> times) {
  std::sort(times.begin(), times.end());
  size_t m = times.size();
  double median =
      m % 2 ? times[m / 2] : 0.5 * (times[m / 2 - 1] + times[m / 2]);
  return {median, times.front()};
}
