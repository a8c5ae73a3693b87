//===- EmulatedAsyncProxy.cpp - TMA loads and mbarriers on CPU threads ----===//
//
// Test-only: what --norm-test-emulate-gpu-on-cpu calls for the sm_90 async
// proxy (EmulateTMA.cpp): mbarriers (arrival counts, transaction bytes,
// phases) and TMA tile loads into shared memory, with the semantics of the
// PTX ISA ("mbarrier", "cp.async.bulk.tensor", "Tensor Swizzling Modes"):
//
//   - a barrier's phase completes when its pending arrivals reach zero and
//     the bytes expected by arrive.expect_tx have all landed; the pending
//     count then resets to the init count and the phase number increments;
//     try_wait.parity P returns once the phase of parity P has completed;
//   - a TMA load reads its box at issue (elements outside the tensor are
//     zero) and lands in shared memory as late as the barrier allows: when a
//     thread waits on that barrier. A tile read before its wait still holds
//     the old bytes, so a missing wait fails a test;
//   - the 128-, 64- and 32-byte swizzles permute 16-byte chunks: byte
//     offset bits [4, 4 + log2(S/16)) are XORed with bits [7, 7 + ...) of the
//     offset from the (1024-byte aligned) start of shared memory, so with
//     S = 128 chunk c of row r of a 128-byte-row tile lands at c ^ (r % 8).
//     This reproduces the table of upstream MLIR's sm_90 integration test
//     tma_load_128x64_swizzle128b.mlir, which ran on an H100.
//
// And the named barriers of bar.sync id, count (a barrier of `count` of the
// block's threads): the count-th arrival releases the waiting threads and
// resets the barrier for its next use (a generation number tells waiters
// that their use completed). The mutex orders every arriving thread's
// earlier writes before every released thread's later reads, as bar.sync
// does for shared memory.
//
// A wait that cannot complete (a wrong byte count, a missing arrival) would
// hang a GPU; here it aborts after NORM_EMU_WAIT_TIMEOUT_S seconds (default
// 60) with the barrier's state.
//
//===----------------------------------------------------------------------===//

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sched.h>
#include <unordered_map>
#include <vector>

namespace {

struct PendingLoad {
  std::vector<uint8_t> bytes; // the box, in shared-memory order
  uint8_t *destination;
};

struct Barrier {
  int64_t count = 0;   // arrivals per phase
  int64_t pending = 0; // arrivals still missing in this phase
  int64_t tx = 0;      // expected bytes not yet landed
  int64_t phase = 0;   // completed phases
  std::vector<PendingLoad> loads;
};

/// A named barrier (bar.sync id, count) of a block.
struct NamedBarrier {
  int64_t count = 0;      // threads of the use in progress
  int64_t arrived = 0;    // threads arrived in it
  int64_t generation = 0; // completed uses
};

std::mutex barriersMutex;
std::unordered_map<int64_t, Barrier> barriers;
std::unordered_map<int64_t, NamedBarrier> namedBarriers;

[[noreturn]] void fail(const char *message, int64_t address,
                       const char *what = "mbarrier") {
  fprintf(stderr, "emulation: %s at %#llx: %s\n", what,
          static_cast<unsigned long long>(address), message);
  fflush(stderr);
  abort();
}

/// A TMA load the emulation cannot perform: named by its destination and
/// barrier, since the barrier itself is in order.
[[noreturn]] void failLoad(const char *message, int64_t destination,
                           int64_t barrier) {
  fprintf(stderr, "emulation: TMA load into %#llx (mbarrier at %#llx): %s\n",
          static_cast<unsigned long long>(destination),
          static_cast<unsigned long long>(barrier), message);
  fflush(stderr);
  abort();
}

Barrier &barrierAt(int64_t address) {
  auto it = barriers.find(address);
  if (it == barriers.end())
    fail("used before mbarrier.init", address);
  return it->second;
}

/// Lands the barrier's loads and completes its phase if it can. Called with
/// the mutex held.
void progress(Barrier &barrier) {
  for (PendingLoad &load : barrier.loads) {
    memcpy(load.destination, load.bytes.data(), load.bytes.size());
    barrier.tx -= static_cast<int64_t>(load.bytes.size());
  }
  barrier.loads.clear();
  if (barrier.pending <= 0 && barrier.tx == 0) {
    ++barrier.phase;
    barrier.pending = barrier.count;
  }
}

double waitTimeoutSeconds() {
  const char *text = getenv("NORM_EMU_WAIT_TIMEOUT_S");
  double seconds = text ? atof(text) : 0.0;
  return seconds > 0 ? seconds : 60.0;
}

/// The swizzled position of byte `offset` (from the start of shared
/// memory) under a `swizzleBytes` swizzle (0: none).
int64_t swizzle(int64_t offset, int64_t swizzleBytes) {
  if (swizzleBytes == 0)
    return offset;
  int64_t chunkMask = swizzleBytes / 16 - 1; // 7, 3 or 1
  return offset ^ (((offset >> 7) & chunkMask) << 4);
}

} // namespace

extern "C" {

void norm_emu_mbarrier_init(int64_t address, int64_t count) {
  std::lock_guard<std::mutex> lock(barriersMutex);
  Barrier &barrier = barriers[address];
  if (!barrier.loads.empty())
    fail("initialized with TMA loads in flight", address);
  barrier = Barrier();
  barrier.count = barrier.pending = count;
}

void norm_emu_mbarrier_arrive_expect_tx(int64_t address, int64_t bytes) {
  std::lock_guard<std::mutex> lock(barriersMutex);
  Barrier &barrier = barrierAt(address);
  barrier.tx += bytes;
  --barrier.pending;
}

void norm_emu_mbarrier_arrive(int64_t address) {
  std::lock_guard<std::mutex> lock(barriersMutex);
  --barrierAt(address).pending;
}

void norm_emu_mbarrier_try_wait_parity(int64_t address, int64_t parity) {
  auto start = std::chrono::steady_clock::now();
  double timeout = waitTimeoutSeconds();
  for (;;) {
    {
      std::lock_guard<std::mutex> lock(barriersMutex);
      Barrier &barrier = barrierAt(address);
      progress(barrier);
      if ((barrier.phase & 1) != (parity & 1))
        return;
      std::chrono::duration<double> waited =
          std::chrono::steady_clock::now() - start;
      if (waited.count() > timeout) {
        char message[256];
        snprintf(message, sizeof(message),
                 "try_wait.parity %lld never completed: %lld arrivals and "
                 "%lld transaction bytes still missing in phase %lld",
                 static_cast<long long>(parity),
                 static_cast<long long>(barrier.pending),
                 static_cast<long long>(barrier.tx),
                 static_cast<long long>(barrier.phase));
        fail(message, address);
      }
    }
    sched_yield();
  }
}

void norm_emu_named_barrier(int64_t address, int64_t count) {
  auto start = std::chrono::steady_clock::now();
  double timeout = waitTimeoutSeconds();
  std::unique_lock<std::mutex> lock(barriersMutex);
  NamedBarrier &barrier = namedBarriers[address];
  if (count <= 0 || count % 32 != 0)
    fail("bar.sync with a thread count that is not a positive multiple of "
         "the warp size",
         address, "named barrier");
  if (barrier.arrived == 0)
    barrier.count = count;
  else if (barrier.count != count)
    fail("bar.sync threads disagree on the thread count", address,
         "named barrier");
  int64_t generation = barrier.generation;
  if (++barrier.arrived == barrier.count) {
    barrier.arrived = 0;
    ++barrier.generation;
    return;
  }
  while (barrier.generation == generation) {
    std::chrono::duration<double> waited =
        std::chrono::steady_clock::now() - start;
    if (waited.count() > timeout) {
      char message[160];
      snprintf(message, sizeof(message),
               "bar.sync never completed: %lld of %lld threads arrived",
               static_cast<long long>(barrier.arrived),
               static_cast<long long>(barrier.count));
      fail(message, address, "named barrier");
    }
    lock.unlock();
    sched_yield();
    lock.lock();
  }
}

/// A 2-D TMA tile load (cp.async.bulk.tensor.2d) of the box at (x, y)
/// (x the innermost coordinate) of a rows × cols tensor at `source` (row
/// stride `rowStride` elements, column stride `colStride`, which TMA needs
/// to be 1) into shared memory at `destination`, completing on the barrier
/// at `barrierAddress`. `sharedBase` is the start of the block's shared
/// memory, from which the swizzle pattern is computed.
void norm_emu_tma_load_2d(int64_t barrierAddress, int64_t destination,
                          int64_t sharedBase, int64_t source,
                          int64_t elementBytes, int64_t rows, int64_t cols,
                          int64_t rowStride, int64_t colStride, int64_t x,
                          int64_t y, int64_t boxRows, int64_t boxCols,
                          int64_t swizzleBytes) {
  if (colStride != 1)
    failLoad("the tensor's innermost dim is not contiguous", destination,
             barrierAddress);
  int64_t rowBytes = boxCols * elementBytes;
  if (rowBytes % 16 != 0)
    failLoad("the box's inner dim is not a multiple of 16 bytes", destination,
             barrierAddress);
  if (swizzleBytes != 0 && rowBytes != swizzleBytes)
    failLoad("a swizzled box whose inner dim is not the swizzle span is "
             "not emulated",
             destination, barrierAddress);
  int64_t start = destination - sharedBase;
  if (swizzleBytes != 0 && start % (8 * swizzleBytes) != 0)
    failLoad("a swizzled tile must start on a multiple of 8 swizzle rows "
             "of shared memory",
             destination, barrierAddress);
  // The box's bytes at their swizzled places, landing as one span at
  // `destination` (the swizzle stays within each 8-row group).
  PendingLoad load;
  load.destination = reinterpret_cast<uint8_t *>(destination);
  load.bytes.assign(boxRows * rowBytes, 0);
  const uint8_t *tensor = reinterpret_cast<const uint8_t *>(source);
  for (int64_t r = 0; r < boxRows; ++r) {
    for (int64_t c = 0; c < boxCols; ++c) {
      int64_t row = y + r, col = x + c;
      int64_t linear = r * rowBytes + c * elementBytes;
      int64_t at = swizzle(start + linear, swizzleBytes) - start;
      if (row < 0 || row >= rows || col < 0 || col >= cols)
        continue; // zero fill
      memcpy(&load.bytes[at], tensor + (row * rowStride + col) * elementBytes,
             elementBytes);
    }
  }
  std::lock_guard<std::mutex> lock(barriersMutex);
  barrierAt(barrierAddress).loads.push_back(std::move(load));
}

} // extern "C"
