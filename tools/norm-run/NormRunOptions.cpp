//===- NormRunOptions.cpp - norm-run's command line -------------*- C++ -*-===//
//
// The command line of norm-run: the --help text, and argv parsed into
// Options with every check that does not need the input file (the values,
// and which options go together). Every error is one `norm-run: error: ...`
// line; main then exits with 2.
//
//===----------------------------------------------------------------------===//

#include "NormRun.h"

#include "norm/Target/CPUTarget.h"
#include "norm/Target/NVIDIATarget.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <cmath>
#include <cstdint>

using namespace normrun;

const char *const normrun::kUsage =
    R"(usage: norm-run FILE.mlir --entry=<func> [options]

  --entry=<func>          the func.func to run (required)
  --pipeline=<p>          project (default): norm-lower-to-cpu{target=T [num-threads=N]}
                          upstream: norm-lower-to-cpu{codegen=upstream [num-threads=N]}
                          anything else: a textual pass pipeline, e.g.
                          'builtin.module(norm-lower-to-cpu)'
  --target=<t>            host (default) | avx512 | avx2 | generic (project pipeline),
                          or cuda: run on an NVIDIA GPU; project is then
                          bufferization + norm-lower-to-nvvm{chip=C format=F},
                          upstream (only as --compare-pipeline) the CPU baseline
  --chip=<sm_XY>          --target=cuda: the GPU architecture (default sm_90)
  --gpu-format=<f>        --target=cuda: fatbin (default) | bin | isa (PTX)
  --threads=<n>           num-threads of the pipeline, 0 to 1024; 0 (default) keeps
                          its default (not with --target=cuda)
  --dims=D0,D1,...        the dynamic dims of the arguments, in argument order,
                          then dim order
  --seed=<s>              seed of the input data (default 1)
  --dist=uniform|normal   uniform in [mean-scale, mean+scale] (default) or
                          normal(mean, scale)
  --mean=<m>              default 0
  --arg-mean=I:M,...      argument I's data centred on M instead (e.g. a norm's
                          input with |mean| >> std and its other inputs not)
  --scale=<s>             default 1
  --warmup=<n>            untimed calls first (default 1)
  --repeat=<n>            timed calls (default 10); the median and min are printed
  --check                 compare the norm ops' outputs with the float64 reference
  --print-ir              print the IR after the pipeline
  --release-memory        leave glibc's malloc at its defaults, which hand large
                          freed blocks back to the kernel (by default the runner
                          keeps them for the next call, as a caching allocator
                          would)
  --shared-libs=a.so,...  more libraries for the JIT to load
  --compare-pipeline=<p>  also compile the function through <p> (as for
                          --pipeline), run it on the same inputs and compare
                          every result and argument buffer with it
  --compare-tol=<t>       the relative tolerance of --compare-pipeline
                          (default 1e-4 for f32, 2e-2 for f16/bf16)
)";

namespace {

bool parseInt(llvm::StringRef name, llvm::StringRef value, int64_t &out,
              int64_t min, int64_t max = INT64_MAX) {
  long long v;
  if (value.trim().getAsInteger(10, v)) {
    error("--" + name + " expects an integer, got '" + value + "'");
    return false;
  }
  if (v < min) {
    error("--" + name + " must be >= " + llvm::Twine(min) + ", got " +
          llvm::Twine(v));
    return false;
  }
  if (v > max) {
    error("--" + name + " must be <= " + llvm::Twine(max) + ", got " +
          llvm::Twine(v));
    return false;
  }
  out = v;
  return true;
}

bool parseDouble(llvm::StringRef name, llvm::StringRef value, double &out) {
  if (value.trim().getAsDouble(out) || !std::isfinite(out)) {
    error("--" + name + " expects a finite number, got '" + value + "'");
    return false;
  }
  return true;
}

/// Whether --<name> takes a value.
bool takesValue(llvm::StringRef name) {
  return llvm::is_contained(
      {"entry", "pipeline", "target", "threads", "dims", "seed", "dist", "mean",
       "arg-mean", "scale", "warmup", "repeat", "shared-libs",
       "compare-pipeline", "compare-tol", "chip", "gpu-format"},
      name);
}

/// Sets --<name>, an option that takes a value, to `value`. Prints the error
/// and returns false on a bad value.
bool setOption(llvm::StringRef name, llvm::StringRef value, Options &o) {
  if (name == "entry") {
    o.entry = value.str();
  } else if (name == "pipeline") {
    o.pipeline = value.str();
  } else if (name == "target") {
    o.target = value.str();
  } else if (name == "chip") {
    o.chip = value.str();
    o.chipGiven = true;
  } else if (name == "gpu-format") {
    o.gpuFormat = value.str();
    o.gpuFormatGiven = true;
  } else if (name == "threads") {
    // libomp aborts (a crash dump) when it cannot start that many threads.
    if (!parseInt(name, value, o.threads, 0, mlir::norm::kMaxCPUThreads))
      return false;
  } else if (name == "dims") {
    o.dims.clear();
    o.dimsGiven = true;
    llvm::SmallVector<llvm::StringRef> parts;
    value.split(parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
    for (llvm::StringRef p : parts) {
      int64_t d;
      if (!parseInt("dims", p, d, 0))
        return false;
      o.dims.push_back(d);
    }
  } else if (name == "seed") {
    if (!parseInt(name, value, o.seed, INT64_MIN))
      return false;
  } else if (name == "dist") {
    o.dist = value.str();
  } else if (name == "mean") {
    if (!parseDouble(name, value, o.mean))
      return false;
  } else if (name == "arg-mean") {
    llvm::SmallVector<llvm::StringRef> parts;
    value.split(parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
    for (llvm::StringRef part : parts) {
      auto [index, mean] = part.split(':');
      int64_t arg;
      double m;
      if (mean.empty()) {
        error("--arg-mean expects I:M pairs, got '" + part.str() + "'");
        return false;
      }
      if (!parseInt(name, index, arg, 0) || !parseDouble(name, mean, m))
        return false;
      o.argMeans[static_cast<unsigned>(arg)] = m;
    }
  } else if (name == "scale") {
    if (!parseDouble(name, value, o.scale))
      return false;
  } else if (name == "warmup") {
    if (!parseInt(name, value, o.warmup, 0))
      return false;
  } else if (name == "repeat") {
    if (!parseInt(name, value, o.repeat, 1))
      return false;
  } else if (name == "compare-pipeline") {
    o.comparePipeline = value.str();
    if (o.comparePipeline.empty()) {
      error("--compare-pipeline needs a pipeline (project, upstream or a "
            "textual pipeline)");
      return false;
    }
  } else if (name == "compare-tol") {
    if (!parseDouble(name, value, o.compareTol))
      return false;
    if (o.compareTol <= 0.0) {
      error("--compare-tol must be > 0, got '" + value + "'");
      return false;
    }
  } else if (name == "shared-libs") {
    llvm::SmallVector<llvm::StringRef> parts;
    value.split(parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
    for (llvm::StringRef p : parts)
      o.sharedLibs.push_back(p.trim().str());
  }
  return true;
}

/// Parses the option argv[i], taking its value from argv[i + 1] (and
/// advancing `i`) when it has no `=value`. Prints the error and returns
/// false on a bad option.
bool parseOption(int argc, char **argv, int &i, Options &o) {
  llvm::StringRef arg(argv[i]);
  llvm::StringRef body = arg.drop_front(arg.starts_with("--") ? 2 : 1);
  auto [name, value] = body.split('=');
  bool hasValue = body.contains('=');
  if (name == "help" || name == "h") {
    o.help = true;
    return true;
  }
  if (name == "check" || name == "print-ir" || name == "release-memory") {
    if (hasValue) {
      error("--" + name + " takes no value");
      return false;
    }
    (name == "check"      ? o.check
     : name == "print-ir" ? o.printIR
                          : o.releaseMemory) = true;
    return true;
  }
  if (!takesValue(name)) {
    error("unknown option '" + arg + "' (see --help)");
    return false;
  }
  if (!hasValue) {
    if (i + 1 >= argc) {
      error("--" + name + " needs a value");
      return false;
    }
    value = argv[++i];
  }
  return setOption(name, value, o);
}

/// The checks of the options of --target=cuda.
bool validateCudaOptions(const Options &o) {
  // Checked here, not only by the pipeline: the value goes into the
  // pipeline text, and the device check needs the number. Only the chips
  // (of NormTarget's table) that the pipeline's default PTX level can
  // target: norm-run passes no `features`, and another chip makes the
  // pipeline refuse it (e.g. sm_100 needs PTX 8.6, sm_80a does not exist).
  llvm::SmallVector<llvm::StringRef> chips =
      mlir::norm::getNVIDIAChipsUpToPTX(mlir::norm::kDefaultPTXVersion);
  if (!llvm::is_contained(chips, o.chip)) {
    error("--chip must be one of " + llvm::join(chips, ", ") + ", got '" +
          o.chip + "'");
    return false;
  }
  if (o.gpuFormat != "fatbin" && o.gpuFormat != "bin" && o.gpuFormat != "isa") {
    error("--gpu-format must be fatbin, bin or isa (PTX), got '" + o.gpuFormat +
          "'");
    return false;
  }
  if (o.threads != 0) {
    error("--threads does not apply to --target=cuda (the GPU pipeline has "
          "no thread count)");
    return false;
  }
  if (o.pipeline == "upstream") {
    error("--pipeline=upstream compiles for the CPU (upstream MLIR has no "
          "GPU code generation of norm ops); with --target=cuda use it as "
          "--compare-pipeline=upstream, the CPU baseline");
    return false;
  }
  return true;
}

/// The checks of the options together. Prints the error and returns false
/// on the first that fails.
bool validateOptions(const Options &o) {
  if (o.entry.empty()) {
    error("--entry=<func> is required");
    return false;
  }
  if (o.target != "host" && o.target != "avx512" && o.target != "avx2" &&
      o.target != "generic" && o.target != "cuda") {
    error("--target must be host, avx512, avx2, generic or cuda, got '" +
          o.target + "'");
    return false;
  }
  if (!o.isCuda() && (o.chipGiven || o.gpuFormatGiven)) {
    error(llvm::Twine(o.chipGiven ? "--chip" : "--gpu-format") +
          " only applies to --target=cuda");
    return false;
  }
  if (o.isCuda() && !validateCudaOptions(o))
    return false;
  if (o.dist != "uniform" && o.dist != "normal") {
    error("--dist must be uniform or normal, got '" + o.dist + "'");
    return false;
  }
  if (o.scale < 0.0) {
    error("--scale must be >= 0");
    return false;
  }
  return true;
}

} // namespace

bool normrun::parseOptions(int argc, char **argv, Options &o) {
  bool haveFile = false;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    if (arg.starts_with("-") && arg != "-") {
      if (!parseOption(argc, argv, i, o))
        return false;
      continue;
    }
    if (haveFile) {
      error("more than one input file ('" + o.file + "' and '" + arg + "')");
      return false;
    }
    o.file = arg.str();
    haveFile = true;
  }
  if (o.help)
    return true;
  if (!haveFile) {
    error("no input file (usage: norm-run FILE.mlir --entry=<func> ...)");
    return false;
  }
  return validateOptions(o);
}
