//===- NormRun.h - shared declarations of the norm-run tool -----*- C++ -*-===//
//
// norm-run compiles one function of an MLIR file through a pipeline, runs it
// with the ExecutionEngine on seeded random buffers, times it and optionally
// checks every norm op of the function against the float64 reference
// (NormReference). This header is private to the tool: what its files
// share, in one section per file that defines it.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_TOOLS_NORM_RUN_NORMRUN_H
#define NORM_TOOLS_NORM_RUN_NORMRUN_H

#include "norm/Reference/NormReference.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mlir {
namespace func {
class FuncOp;
} // namespace func
} // namespace mlir

namespace normrun {

using mlir::norm::reference::ElemType;

struct CudaRuntime;

//===----------------------------------------------------------------------===//
// Errors (norm-run.cpp)
//===----------------------------------------------------------------------===//

/// Prints `norm-run: error: <msg>` to stderr.
void error(const llvm::Twine &msg);

/// `loc` as `file:line:col` (the first file location in it), empty for an
/// unknown location, else as MLIR prints it.
std::string formatLocation(mlir::Location loc);

//===----------------------------------------------------------------------===//
// Options (NormRunOptions.cpp)
//===----------------------------------------------------------------------===//

/// The command line.
struct Options {
  std::string file;
  std::string entry;
  std::string pipeline = "project";
  std::string target = "host";
  std::string chip = "sm_90";
  std::string gpuFormat = "fatbin";
  bool chipGiven = false;
  bool gpuFormatGiven = false;
  int64_t threads = 0;
  std::vector<int64_t> dims;
  bool dimsGiven = false;
  int64_t seed = 1;
  std::string dist = "uniform";
  double mean = 0.0;
  double scale = 1.0;
  /// --arg-mean: the centre of individual arguments' data (argument number
  /// -> mean), over --mean.
  std::map<unsigned, double> argMeans;
  int64_t warmup = 1;
  int64_t repeat = 10;
  bool check = false;
  bool printIR = false;
  bool releaseMemory = false;
  std::vector<std::string> sharedLibs;
  std::string comparePipeline; // empty: no comparison
  double compareTol = 0.0;     // <= 0: the default per element type
  bool help = false;

  bool isCuda() const { return target == "cuda"; }
};

/// The text of --help.
extern const char *const kUsage;

/// Parses argv into `o`. Accepts --opt=value, --opt value and -opt=value.
/// Prints the error and returns false on a bad command line.
bool parseOptions(int argc, char **argv, Options &o);

//===----------------------------------------------------------------------===//
// Buffers and inputs (NormRunInputs.cpp)
//===----------------------------------------------------------------------===//

/// A buffer at run time: an argument (allocated and filled by norm-run) or a
/// result (allocated by the compiled code). `data` points at element 0
/// (aligned pointer plus offset); `strides` are in elements.
struct Buffer {
  ElemType elemType = ElemType::F32;
  /// A quantized result (one byte an element; `elemType` unused).
  std::optional<mlir::norm::reference::QuantType> quant;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
  void *allocated = nullptr;
  char *data = nullptr;

  int64_t getNumElements() const;
  /// numElements * element width (the bytes the shape covers).
  int64_t getNumBytes() const;
  /// The elements in row-major order, as doubles.
  std::vector<double> load() const;
};

/// A memref/tensor argument or result, as the compiled code sees it.
struct ShapedSig {
  ElemType elemType;
  /// A quantized result (f8E4M3FN, f8E5M2, i8): only results may be.
  std::optional<mlir::norm::reference::QuantType> quant;
  std::vector<int64_t> shape; // ShapedType::kDynamic for dynamic dims
  bool isTensor;
};

/// A ranked memref descriptor in the layout of StridedMemRefType<T, rank>:
/// {allocated, aligned, offset, sizes[rank], strides[rank]}, every field 8
/// bytes.
size_t descriptorWords(size_t rank);

/// Reads the descriptor at `words` into a Buffer view.
Buffer bufferFromDescriptor(
    const int64_t *words, size_t rank, ElemType et,
    std::optional<mlir::norm::reference::QuantType> quant = std::nullopt);

/// Frees the results the callee allocated (with malloc, as the lowered
/// memref.alloc does; with --target=cuda, managed memory, which `cuda`
/// frees), except those that alias an argument, another result or a global.
void freeResults(const std::vector<Buffer> &results,
                 const std::vector<Buffer> &args, const CudaRuntime *cuda);

/// The argument buffers of one run and their descriptors; frees the buffers.
struct ArgBuffers {
  std::vector<Buffer> bufs;
  std::vector<std::vector<int64_t>> descs;
  /// Set with --target=cuda: the buffers are managed memory.
  const CudaRuntime *cuda = nullptr;
  ArgBuffers() = default;
  ArgBuffers(const ArgBuffers &) = delete;
  ArgBuffers &operator=(const ArgBuffers &) = delete;
  ~ArgBuffers();
};

/// Allocates every argument (sizes from the signature and --dims); outputs
/// of norm ops are zero-filled, the others filled from their own seeded
/// stream, so two calls give identical buffers. With `cuda`, the buffers
/// are managed memory (CudaRuntime::allocate says why).
mlir::LogicalResult allocateArgs(const std::vector<ShapedSig> &argSigs,
                                 const std::vector<bool> &outputArgs,
                                 const Options &o, const CudaRuntime *cuda,
                                 ArgBuffers &a);

//===----------------------------------------------------------------------===//
// The norm ops (NormRunSpecs.cpp)
//===----------------------------------------------------------------------===//

/// One view on tensors between a checked op's operand or result and the
/// function argument or result that holds it: a reshape (the same
/// elements in the same row-major order: tensor.expand_shape,
/// tensor.collapse_shape, tensor.reshape) or a transpose (linalg.transpose,
/// or a linalg.generic that only copies its input through permutation
/// maps). Casts change no buffer and are not recorded.
struct ViewStep {
  std::string name; // "linalg.transpose"
  /// The static shapes on either side (ShapedType::kDynamic where dynamic).
  std::vector<int64_t> inShape, outShape;
  /// A transpose: out dim i is in dim perm[i]. Empty for a reshape.
  std::vector<int64_t> perm;
  /// An expand or collapse: per dim of its lower-rank side, the dims of
  /// the higher-rank side it is (how dynamic sizes are told apart). Empty
  /// for a tensor.reshape.
  std::vector<std::vector<int64_t>> groups;
  /// A dim of a function argument: its size at run time is that buffer's.
  struct ArgDim {
    int64_t arg = -1; // -1: not a dim of an argument
    int64_t dim = -1;
  };
  /// An expand or collapse: per dim of its higher-rank side, the argument
  /// dim its size is when the IR says so (an expand's output_shape size, a
  /// collapse's source dim, followed through tensor.dim, views, casts,
  /// tensor.empty and destinations to a dim of a function argument). How
  /// two dynamic sizes in one group are told apart (rows [B·T] split into
  /// [B, T] by `output_shape [%b, %t]`, %b and %t the argument's dims).
  std::vector<ArgDim> highSizes;
  /// A tensor.reshape: per dim of its source and of its result, the
  /// argument dim its size is (the result's from a shape built by
  /// tensor.from_elements, the source's as traced for highSizes). How a
  /// side with several dynamic sizes is told.
  std::vector<ArgDim> inSizes, outSizes;
};

/// Where an operand of a checked op lives at run time.
struct Slot {
  enum Kind { None, Arg, Result } kind = None;
  unsigned index = 0;
  /// The views in the order the data flows through them: from the
  /// argument to the operand, or from the op's result to the returned
  /// value (NormRunViews.cpp applies or undoes them).
  std::vector<ViewStep> views;
  explicit operator bool() const { return kind != None; }
};

enum class CheckOpKind {
  RMSNorm,
  LayerNorm,
  RMSNormMatmul,
  LayerNormMatmul,
  MatmulRMSNorm,
  MatmulLayerNorm,
  GroupNorm,
  RMSNormGrad,
  LayerNormGrad,
};

/// One norm op of the entry function, recorded before lowering: the roles
/// of its operands (function arguments or returned results) and its
/// attributes. Plain data, so it outlives the IR.
struct CheckSpec {
  CheckOpKind kind = CheckOpKind::RMSNorm;
  std::string opName;   // "norm.rms_norm"
  std::string location; // "file:line:col"
  ElemType elemType = ElemType::F32;
  /// True when every input operand is a function argument and the main
  /// output is an argument or a returned result (tensor form, or a memref
  /// the function allocates and returns).
  bool checkable = false;
  /// Why it is not checkable.
  std::string reason;
  /// Not checkable because its result reaches the return through an op
  /// --check does not follow: --check warns even when other ops are
  /// checked.
  bool unfollowedView = false;

  // Inputs (None when the optional operand is absent).
  Slot x, residual, gamma, beta, rhs, matmulBias;
  // Outputs (None when absent, or on tensors when the result is not
  // returned). The gradient ops take mean and rstd as inputs and write dx
  // into `y`.
  Slot y, sum, mean, rstd;
  // The gradient ops' own: inputs dy and ds, outputs dγ and dβ.
  Slot dy, sumGrad, weightGrad, biasGrad;
  // A standalone or per-head norm's rotary embedding (rope_mode =
  // interleaved or not; rope_rounding = each_step or once).
  Slot cos, sin;
  /// Per dim of the angles' type at the op: whether it is a static 1 (a
  /// broadcast). A dynamic dim is the input's size, never a broadcast,
  /// even when it is 1 at run time.
  std::vector<bool> angleBroadcast;
  bool ropeInterleaved = false;
  bool ropeEachStep = false;

  int64_t axis = -1; // non-negative; the fused ops use the last dim
  mlir::norm::reference::NormParams params;
  bool transposeRhs = false;
  int64_t groups = 0; // GroupNorm's num_groups
  /// matmul → norm per head: heads of headDim columns (0: whole rows).
  int64_t headDim = 0;
  /// matmul → norm with an input norm (`input_epsilon`): S is the C of the
  /// norm → matmul with these parameters and γ `inputGamma`.
  std::optional<mlir::norm::reference::NormParams> inputParams;
  Slot inputGamma;

  /// A quantized standalone norm (DESIGN.md section 8): `y` holds q. The
  /// static scale is the argument `scale` or the constant `staticScale`;
  /// dynamic scales go to `scales`, one per row or per `groupSize`.
  std::optional<mlir::norm::reference::QuantType> quant;
  bool staticScaled = false;
  Slot scale, scales;
  double staticScale = 0.0;
  int64_t groupSize = 0;
  double scaleMin = 0.0;

  bool isGrad() const {
    return kind == CheckOpKind::RMSNormGrad ||
           kind == CheckOpKind::LayerNormGrad;
  }
  bool isFused() const {
    return kind != CheckOpKind::RMSNorm && kind != CheckOpKind::LayerNorm &&
           kind != CheckOpKind::GroupNorm && !isGrad();
  }
};

/// The element type of a buffer of MLIR element type `t`: f32, f16 or bf16,
/// none for any other.
std::optional<ElemType> toElemType(mlir::Type t);
/// The quantized type of a norm's result, for f8E4M3FN, f8E5M2 and i8.
std::optional<mlir::norm::reference::QuantType> toQuantType(mlir::Type t);

/// Walks `entry` for norm ops. Returns one spec per norm op of the nine
/// checkable kinds and sets `outputArgs[i]` for every argument that is the
/// destination (`outs`, possibly through casts) of a norm op.
std::vector<CheckSpec> collectNormOps(mlir::func::FuncOp entry,
                                      std::vector<bool> &outputArgs);

//===----------------------------------------------------------------------===//
// Views between the ops and the buffers (NormRunViews.cpp)
//===----------------------------------------------------------------------===//

/// The source of `op` when it is a view --check follows (a ViewStep, with
/// `step` filled) or a cast (`step` left empty, `isCast` set); null
/// otherwise.
mlir::Value followView(mlir::Operation *op, ViewStep &step, bool &isCast);

/// The shape of `slot`'s operand or result in the op's own frame, from the
/// shape `bufferShape` of the buffer that holds it: its views applied (an
/// argument) or undone (a result). Dynamic sizes come from the buffer's,
/// and, where one group has several, from the arguments `args` whose dims
/// they are (ViewStep::highSizes, inSizes, outSizes). Fails with `why`
/// when a dynamic size on
/// the way cannot be told, setting `*misfit` when those arguments' dims
/// contradict the buffer's (the function's own view does not fit them).
std::optional<std::vector<int64_t>>
frameShape(const Slot &slot, const std::vector<int64_t> &bufferShape,
           const std::vector<Buffer> &args, std::string &why,
           bool *misfit = nullptr);

/// `buffer` (the one that holds `slot`) seen as the op's operand or result:
/// the same elements in the op's row-major order. A transpose permutes the
/// strides; a reshape of a strided view copies the elements into a new
/// block of `storage`. Fails with `why` as frameShape.
std::optional<Buffer> frameBuffer(
    const Slot &slot, const Buffer &buffer, const std::vector<Buffer> &args,
    std::vector<std::unique_ptr<std::vector<char>>> &storage, std::string &why);

//===----------------------------------------------------------------------===//
// Shapes and --check (NormRunCheck.cpp)
//===----------------------------------------------------------------------===//

/// Checks that the argument buffers of `spec` have shapes that fit the op
/// (so the compiled code does not read out of bounds). Returns an empty
/// string or the reason.
std::string validateArgShapes(const CheckSpec &spec,
                              const std::vector<Buffer> &args);

/// Checks the shapes of the argument buffers against every recorded op
/// (validateArgShapes). Prints the error and fails when one does not fit.
mlir::LogicalResult checkArgShapes(const std::vector<CheckSpec> &specs,
                                   const std::vector<Buffer> &args);

/// --check: fails, with the error printed, when no recorded op is
/// checkable (each op's reason is given).
mlir::LogicalResult requireCheckable(const std::vector<CheckSpec> &specs,
                                     const Options &o);

/// The outcome of --check over all checked ops.
struct CheckOutcome {
  /// The worst output (largest rel_err / tol; NaN first) and its tolerance.
  double relErr = 0.0;
  double tol = 0.0;
  bool ok = true;
  /// One line per compared output ("op@loc y: rel_err=... tol=... PASS").
  std::vector<std::string> details;
  /// Quantized elements compared, and those one step apart (--check: at a
  /// rounding boundary).
  int64_t quantElements = 0, quantSteps = 0;
};

/// Computes the float64 reference of every checkable spec from the buffers
/// (after the run) and compares every output of the op with it.
CheckOutcome checkAll(const std::vector<CheckSpec> &specs,
                      const std::vector<Buffer> &args,
                      const std::vector<Buffer> &results);

//===----------------------------------------------------------------------===//
// Compilation (NormRunCompile.cpp)
//===----------------------------------------------------------------------===//

/// A JIT-compiled module and its packed entry point.
struct Compiled {
  std::unique_ptr<mlir::ExecutionEngine> engine;
  void (*fn)(void **) = nullptr;
};

/// The entry function from the input file to JIT-compiled code, with what
/// the run needs to know about it.
struct Program {
  /// The input module; lowered by --pipeline after lowerProgram.
  mlir::OwningOpRef<mlir::ModuleOp> module;
  /// With --compare-pipeline: a copy of the module before lowering, lowered
  /// by that pipeline.
  mlir::OwningOpRef<mlir::ModuleOp> compareModule;
  std::vector<ShapedSig> argSigs, resultSigs;
  /// The norm ops of the entry, recorded before lowering.
  std::vector<CheckSpec> specs;
  /// Whether each argument is the destination of a norm op.
  std::vector<bool> outputArgs;
  /// project, upstream or custom.
  std::string pipelineKind, compareKind;
  std::optional<Compiled> compiled, compareCompiled;
};

/// The dialects, extensions and LLVM IR translations of the context; also
/// registers every pass a textual pipeline may name.
mlir::DialectRegistry createRegistry();

/// Parses the input file, finds the entry, checks its signature (and
/// --dims against it) and records its norm ops. Prints the error and fails
/// otherwise.
mlir::LogicalResult loadProgram(mlir::MLIRContext &context, const Options &o,
                                Program &p);

/// Lowers the entry and what it calls through --pipeline (and a copy
/// through --compare-pipeline) to the LLVM dialect. Prints the error and
/// fails otherwise.
mlir::LogicalResult lowerProgram(mlir::MLIRContext &context, const Options &o,
                                 Program &p);

/// JIT-compiles the lowered modules with the runtime libraries (and, with
/// `cuda`, the CUDA runtime). Prints the error and fails otherwise.
mlir::LogicalResult jitProgram(const Options &o, const CudaRuntime *cuda,
                               Program &p);

//===----------------------------------------------------------------------===//
// Timing (NormRunTiming.cpp)
//===----------------------------------------------------------------------===//

/// Generated code allocates its temporaries on every call (bufferization's
/// intermediate tensors, the GEMM's packed panels). glibc serves blocks from
/// 128 KiB up with fresh mmaps and trims freed heap tops, so every call
/// page-faults those buffers in again: a quarter to a third of a model
/// layer's time (docs/performance.md). Serving runtimes keep freed memory
/// (PyTorch's caching allocator, jemalloc/tcmalloc); so does the runner,
/// unless --release-memory: blocks up to glibc's limit of 32 MiB come from
/// the heap, and the heap is not trimmed below 1 GiB.
void keepFreedMemory();

/// Calls the entry --warmup times, then --repeat timed times. Returns the
/// times (ms) and leaves the last call's results in `results` (the earlier
/// ones are freed).
/// With `cuda`, each call ends with a synchronization of the device, inside
/// the timed interval: the launches of norm-lower-to-nvvm are synchronous
/// already (each creates a stream, launches and synchronizes it), a custom
/// pipeline's need not be.
std::vector<double> callTimed(const Compiled &c, ArgBuffers &args,
                              const std::vector<ShapedSig> &resultSigs,
                              const Options &o, const CudaRuntime *cuda,
                              std::vector<Buffer> &results);

/// The median and the minimum of `times` (not empty).
std::pair<double, double> medianMin(std::vector<double> times);

//===----------------------------------------------------------------------===//
// --compare-pipeline (NormRunCompare.cpp)
//===----------------------------------------------------------------------===//

/// Runs the compare pipeline's code on fresh arguments with the same values,
/// times it and compares every result and argument buffer with those of the
/// run (`args`, `results`; `median` its median time). Appends the `cmp_...`
/// fields to `line` and, when a buffer differs, prints each comparison.
/// Returns whether all matched; fails, with the error printed, when the
/// arguments cannot be allocated.
mlir::FailureOr<bool> runComparison(const Options &o, const Program &p,
                                    const CudaRuntime *cuda,
                                    const std::vector<Buffer> &args,
                                    const std::vector<Buffer> &results,
                                    double median, std::string &line);

//===----------------------------------------------------------------------===//
// --target=cuda (NormRunCuda.cpp)
//===----------------------------------------------------------------------===//

/// The entry points of libnorm_cuda_runtime.so that norm-run calls itself.
struct CudaRuntime {
  std::string path;
  int (*probe)(int *major, int *minor, char *name, size_t nameSize,
               char *message, size_t messageSize) = nullptr;
  void (*synchronize)() = nullptr;
  int (*isDeviceAllocation)(void *) = nullptr;
  void *(*memAlloc)(uint64_t, void *, bool) = nullptr;
  void (*memFree)(void *, void *) = nullptr;

  /// A buffer of `bytes` (at least 64) of managed memory; the runtime exits
  /// with its own error when the allocation fails.
  void *allocate(size_t bytes) const;
  /// Frees `pointer`: managed or device memory with mgpuMemFree, anything
  /// else (malloc'd by code compiled for the CPU) with free().
  void release(void *pointer) const;
};

/// Opens the runtime at `path` (it stays loaded) and resolves the entry
/// points. Returns an empty string or the error.
std::string openCudaRuntime(const std::string &path, CudaRuntime &rt);

/// Finds libnorm_cuda_runtime.so (a --shared-libs entry of that name, else
/// the one in the lib directory beside the bin directory of `executable`),
/// opens it into `rt` and checks that there is a driver and a GPU that can
/// run --chip code. Prints the error and fails otherwise.
mlir::LogicalResult startCuda(const Options &o, llvm::StringRef executable,
                              CudaRuntime &rt);

/// The passes (comma-separated, for a builtin.module pipeline) that run
/// before norm-lower-to-nvvm: bufferization as in norm-lower-to-cpu, then
/// every buffer the function allocates made managed memory.
std::string cudaPreparationPipeline();

} // namespace normrun

#endif // NORM_TOOLS_NORM_RUN_NORMRUN_H
