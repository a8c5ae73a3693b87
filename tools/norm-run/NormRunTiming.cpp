//===- NormRunTiming.cpp - norm-run's timed calls ---------------*- C++ -*-===//
//
// The timing of the compiled entry: the malloc settings that keep freed
// memory for the next call, the --warmup and --repeat calls with a clock
// around each, and the median and minimum of the times. During each call
// SIGABRT is not LLVM's crash handler (CompiledCallScope).
//
//===----------------------------------------------------------------------===//

#include "NormRun.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <unistd.h>
#include <vector>

// Under AddressSanitizer malloc is ASan's allocator, which ignores mallopt
// (it returns 0): there is nothing to set, and nothing to warn about.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NORM_RUN_UNDER_ASAN 1
#endif
#endif

using namespace normrun;

namespace {

constexpr char kCompiledAbortMessage[] =
    "norm-run: error: the compiled function aborted (SIGABRT): the program "
    "stopped itself, e.g. on a failed run-time check reported above\n";

/// SIGABRT's handler during a call of the compiled function: one line,
/// then the signal's default action (SA_RESETHAND made it current), so the
/// process still ends by SIGABRT. Only async-signal-safe calls.
void onCompiledAbort(int) {
  ssize_t written = write(STDERR_FILENO, kCompiledAbortMessage,
                          sizeof(kCompiledAbortMessage) - 1);
  (void)written; // nothing to do about a failed write here
  raise(SIGABRT);
}

/// While alive, SIGABRT raised by the compiled function (the rope size
/// check's abort after its message, a runtime library's abort) ends
/// norm-run with onCompiledAbort's line instead of InitLLVM's crash handler
/// ("PLEASE submit a bug report", a stack dump of norm-run): the user's
/// program stopped, norm-run did not crash. Made around the call only, so a
/// SIGABRT of norm-run's own code still gets LLVM's report; other signals
/// (SIGSEGV, ...) keep it throughout.
class CompiledCallScope {
public:
  CompiledCallScope() {
    struct sigaction action = {};
    action.sa_handler = onCompiledAbort;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND;
    installed = sigaction(SIGABRT, &action, &previous) == 0;
  }
  ~CompiledCallScope() {
    if (installed)
      sigaction(SIGABRT, &previous, nullptr);
  }
  CompiledCallScope(const CompiledCallScope &) = delete;
  CompiledCallScope &operator=(const CompiledCallScope &) = delete;

private:
  struct sigaction previous = {};
  bool installed = false;
};

} // namespace

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
    std::chrono::steady_clock::time_point t0, t1;
    {
      CompiledCallScope scope; // outside the timed interval
      t0 = std::chrono::steady_clock::now();
      c.fn(packed.data());
      if (cuda)
        cuda->synchronize();
      t1 = std::chrono::steady_clock::now();
    }
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
