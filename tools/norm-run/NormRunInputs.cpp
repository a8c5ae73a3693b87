//===- NormRunInputs.cpp - norm-run's buffers and inputs --------*- C++ -*-===//
//
// The buffers of a run: the arguments, which norm-run allocates and fills
// with seeded random values (zeros for the destinations of norm ops), the
// memref descriptors that the compiled code takes and returns, and the
// freeing of the results that it allocates.
//
//===----------------------------------------------------------------------===//

#include "NormRun.h"

#include "norm/Reference/NormReference.h"

#include "mlir/IR/BuiltinTypes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace mlir;
using namespace normrun;
namespace ref = mlir::norm::reference;

//===----------------------------------------------------------------------===//
// Buffer
//===----------------------------------------------------------------------===//

int64_t Buffer::getNumElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

int64_t Buffer::getNumBytes() const {
  return getNumElements() * (quant ? 1 : ref::getElemTypeByteWidth(elemType));
}

std::vector<double> Buffer::load() const {
  int64_t count = getNumElements();
  std::vector<double> out;
  if (count <= 0)
    return out;
  out.reserve(count);
  int64_t rank = static_cast<int64_t>(shape.size());
  std::vector<int64_t> idx(rank, 0);
  for (int64_t i = 0; i < count; ++i) {
    int64_t off = 0;
    for (int64_t k = 0; k < rank; ++k)
      off += idx[k] * strides[k];
    out.push_back(
        quant ? ref::decodeQuant(*quant, reinterpret_cast<uint8_t *>(data)[off])
              : ref::loadElement(elemType, data, off));
    for (int64_t k = rank - 1; k >= 0; --k) {
      if (++idx[k] < shape[k])
        break;
      idx[k] = 0;
    }
  }
  return out;
}

//===----------------------------------------------------------------------===//
// Buffers and descriptors
//===----------------------------------------------------------------------===//

namespace {

/// The pointer the lowered `memref.get_global` puts in the allocated field.
const uintptr_t kGlobalSentinel = 0xdeadbeef;

/// Fills the input `b` with seeded random values of its element type,
/// centred on `mean`.
void fillRandom(Buffer &b, uint64_t seed, double mean, const Options &o) {
  ref::SplitMix64 rng(seed);
  int64_t n = b.getNumElements();
  bool normal = o.dist == "normal";
  for (int64_t i = 0; i < n; ++i) {
    double u = normal ? rng.normal() : rng.uniform();
    ref::storeElement(b.elemType, b.data, i, mean + o.scale * u);
  }
}

} // namespace

size_t normrun::descriptorWords(size_t rank) { return 3 + 2 * rank; }

Buffer normrun::bufferFromDescriptor(const int64_t *words, size_t rank,
                                     ElemType et,
                                     std::optional<ref::QuantType> quant) {
  Buffer b;
  b.elemType = et;
  b.quant = quant;
  b.allocated = reinterpret_cast<void *>(words[0]);
  char *aligned = reinterpret_cast<char *>(words[1]);
  b.data = aligned + words[2] * (quant ? 1 : ref::getElemTypeByteWidth(et));
  b.shape.assign(words + 3, words + 3 + rank);
  b.strides.assign(words + 3 + rank, words + 3 + 2 * rank);
  return b;
}

void normrun::freeResults(const std::vector<Buffer> &results,
                          const std::vector<Buffer> &args,
                          const CudaRuntime *cuda) {
  std::vector<void *> freed;
  for (const Buffer &r : results) {
    void *p = r.allocated;
    if (!p || reinterpret_cast<uintptr_t>(p) == kGlobalSentinel)
      continue;
    bool alias = llvm::any_of(args, [&](const Buffer &a) {
      return a.allocated == p || a.data == r.data;
    });
    if (alias || llvm::is_contained(freed, p))
      continue;
    freed.push_back(p);
    if (cuda)
      cuda->release(p);
    else
      std::free(p);
  }
}

ArgBuffers::~ArgBuffers() {
  for (Buffer &b : bufs) {
    if (cuda)
      cuda->release(b.allocated);
    else
      std::free(b.allocated);
  }
}

LogicalResult normrun::allocateArgs(const std::vector<ShapedSig> &argSigs,
                                    const std::vector<bool> &outputArgs,
                                    const Options &o, const CudaRuntime *cuda,
                                    ArgBuffers &a) {
  a.cuda = cuda;
  if (!o.argMeans.empty() && o.argMeans.rbegin()->first >= argSigs.size()) {
    error("--arg-mean names argument #" +
          llvm::Twine(o.argMeans.rbegin()->first) + " but @" + o.entry +
          " has " + llvm::Twine(argSigs.size()) + " arguments");
    return failure();
  }
  a.bufs.assign(argSigs.size(), Buffer());
  a.descs.assign(argSigs.size(), {});
  size_t nextDim = 0;
  for (size_t i = 0; i < argSigs.size(); ++i) {
    Buffer &b = a.bufs[i];
    b.elemType = argSigs[i].elemType;
    for (int64_t d : argSigs[i].shape)
      b.shape.push_back(d == ShapedType::kDynamic ? o.dims[nextDim++] : d);
    b.strides.assign(b.shape.size(), 1);
    for (int64_t k = static_cast<int64_t>(b.shape.size()) - 2; k >= 0; --k)
      b.strides[k] = b.strides[k + 1] * b.shape[k + 1];
    // aligned_alloc wants a size that is a multiple of the alignment.
    double bytes = 1.0;
    for (int64_t d : b.shape)
      bytes *= static_cast<double>(d);
    bytes *= ref::getElemTypeByteWidth(b.elemType);
    if (bytes > 1e15) {
      error("argument #" + llvm::Twine(i) + " would need " +
            std::to_string(bytes) + " bytes");
      return failure();
    }
    size_t size = (static_cast<size_t>(b.getNumBytes()) + 63) / 64 * 64;
    b.allocated =
        cuda ? cuda->allocate(size) : std::aligned_alloc(64, size ? size : 64);
    if (!b.allocated) {
      error("cannot allocate " + llvm::Twine(size) + " bytes for argument #" +
            llvm::Twine(i));
      return failure();
    }
    b.data = static_cast<char *>(b.allocated);
    if (outputArgs[i]) {
      std::memset(b.data, 0, b.getNumBytes());
    } else {
      uint64_t seed = static_cast<uint64_t>(o.seed) * 0x100000001b3ULL +
                      0x9e3779b97f4a7c15ULL * (i + 1);
      auto argMean = o.argMeans.find(static_cast<unsigned>(i));
      fillRandom(b, seed,
                 argMean == o.argMeans.end() ? o.mean : argMean->second, o);
    }
    std::vector<int64_t> &d = a.descs[i];
    d.push_back(reinterpret_cast<int64_t>(b.allocated));
    d.push_back(reinterpret_cast<int64_t>(b.data));
    d.push_back(0);
    d.insert(d.end(), b.shape.begin(), b.shape.end());
    d.insert(d.end(), b.strides.begin(), b.strides.end());
  }
  return success();
}
