//===- norm-run.cpp - compile, run, time and check one function -----------===//
//
// norm-run FILE.mlir --entry=<func> [options]
//
// Parses FILE, finds func.func @<func>, checks that its arguments and results
// are ranked memrefs (identity layout) or ranked tensors of f32/f16/bf16,
// marks it `llvm.emit_c_interface`, runs a pass pipeline (the project's
// norm-lower-to-cpu by default; with --target=cuda, bufferization and
// norm-lower-to-nvvm), JIT-compiles the result with the ExecutionEngine (opt
// level 3, host CPU) and calls it on seeded random inputs: --warmup calls,
// then --repeat timed calls. It prints one line:
//
//   norm-run: entry=<f> pipeline=<project|upstream|custom>
//     [target=cuda chip=<sm_XY>] threads=<n>
//     bytes=<B> median_ms=<t> min_ms=<t> gbps=<B/median/1e9>
//     [rel_err=<e> tol=<t> PASS|FAIL]          (with --check)
//     [cmp_pipeline=<p> cmp_median_ms=<t> cmp_min_ms=<t> speedup=<x>
//      cmp_rel_err=<e> cmp_tol=<t> PASS|FAIL]  (with --compare-pipeline)
//
// With --check, every norm op of the function whose operands are function
// arguments (memref form) or whose results are returned (tensor form, maybe
// through reshapes) is compared with the float64 reference (lib/Reference).
// docs/norm-run.md is the manual.
//
// Every error is one `norm-run: error: ...` line (with the MLIR location
// where there is one) and a non-zero exit.
//
// This file is the driver: main, run() as a sequence of steps, the printing
// of errors and diagnostics, and the output line. The steps live in the
// other files of the tool, one job each; NormRun.h has a section per file.
//
//===----------------------------------------------------------------------===//

#include "NormRun.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <string>
#include <vector>

using namespace mlir;
using namespace normrun;

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

void normrun::error(const llvm::Twine &msg) {
  llvm::errs() << "norm-run: error: " << msg << "\n";
  llvm::errs().flush();
}

std::string normrun::formatLocation(Location loc) {
  if (auto fl = loc->findInstanceOf<FileLineColLoc>())
    return (fl.getFilename().str() + ":" + std::to_string(fl.getLine()) + ":" +
            std::to_string(fl.getColumn()));
  if (isa<UnknownLoc>(loc))
    return "";
  std::string s;
  llvm::raw_string_ostream os(s);
  loc.print(os);
  return s;
}

namespace {

/// Prints every MLIR diagnostic as `norm-run: <severity>: <loc>: <message>`
/// (its notes as `norm-run: note: ...`).
void printDiagnostic(Diagnostic &diag) {
  auto print = [](DiagnosticSeverity sev, Location loc, const std::string &msg) {
    const char *kind = "error";
    if (sev == DiagnosticSeverity::Warning)
      kind = "warning";
    else if (sev == DiagnosticSeverity::Note)
      kind = "note";
    else if (sev == DiagnosticSeverity::Remark)
      kind = "remark";
    std::string where = formatLocation(loc);
    llvm::errs() << "norm-run: " << kind << ": "
                 << (where.empty() ? "" : where + ": ") << msg << "\n";
  };
  print(diag.getSeverity(), diag.getLocation(), diag.str());
  for (Diagnostic &note : diag.getNotes())
    print(note.getSeverity(), note.getLocation(), note.str());
  llvm::errs().flush();
}

//===----------------------------------------------------------------------===//
// The report
//===----------------------------------------------------------------------===//

/// The bytes the buffers of a call cover, each buffer once (a result that
/// is an argument counts once).
int64_t countBytes(const std::vector<Buffer> &args,
                   const std::vector<Buffer> &results) {
  int64_t bytes = 0;
  std::vector<const char *> counted;
  auto count = [&](const Buffer &b) {
    if (b.data && llvm::is_contained(counted, b.data))
      return;
    counted.push_back(b.data);
    bytes += b.getNumBytes();
  };
  for (const Buffer &b : args)
    count(b);
  for (const Buffer &b : results)
    count(b);
  return bytes;
}

/// The first fields of the output line: the entry, the pipeline, the bytes,
/// the times and the bandwidth.
std::string formatTimes(const Options &o, const Program &p, int64_t bytes,
                        double median, double minMs) {
  double gbps =
      median > 0.0 ? static_cast<double>(bytes) / (median * 1e-3) / 1e9 : 0.0;
  char line[512];
  std::string device =
      o.isCuda() ? " target=cuda chip=" + o.chip : std::string();
  std::snprintf(line, sizeof(line),
                "norm-run: entry=%s pipeline=%s%s threads=%lld bytes=%lld "
                "median_ms=%.6f min_ms=%.6f gbps=%.3f",
                o.entry.c_str(), p.pipelineKind.c_str(), device.c_str(),
                static_cast<long long>(o.threads),
                static_cast<long long>(bytes), median, minMs, gbps);
  return line;
}

/// --check: appends the worst output's `rel_err=<e> tol=<t>` and PASS or
/// FAIL to `line`; on FAIL prints every comparison. Returns whether it
/// passed.
bool appendCheck(const Program &p, const std::vector<Buffer> &args,
                 const std::vector<Buffer> &results, std::string &line) {
  CheckOutcome outcome = checkAll(p.specs, args, results);
  // Quantized outputs: how many elements were one step off at a boundary.
  std::string quantField;
  if (outcome.quantElements)
    quantField = " quant_one_step=" + std::to_string(outcome.quantSteps) + "/" +
                 std::to_string(outcome.quantElements);
  char fields[512];
  std::snprintf(fields, sizeof(fields), " rel_err=%.3e tol=%.0e%s %s",
                outcome.relErr, outcome.tol, quantField.c_str(),
                outcome.ok ? "PASS" : "FAIL");
  line += fields;
  if (!outcome.ok)
    for (const std::string &d : outcome.details)
      llvm::errs() << "norm-run: check: " << d << "\n";
  return outcome.ok;
}

//===----------------------------------------------------------------------===//
// The run
//===----------------------------------------------------------------------===//

/// Runs the compiled entry on fresh arguments: the timed calls, --check,
/// --compare-pipeline and the output line. Returns the exit code.
int execute(const Options &o, const Program &p, const CudaRuntime *cuda) {
  ArgBuffers args;
  if (failed(allocateArgs(p.argSigs, p.outputArgs, o, cuda, args)) ||
      failed(checkArgShapes(p.specs, args.bufs)))
    return 1;
  std::vector<Buffer> results;
  std::vector<double> times =
      callTimed(*p.compiled, args, p.resultSigs, o, cuda, results);
  auto [median, minMs] = medianMin(times);
  std::string line =
      formatTimes(o, p, countBytes(args.bufs, results), median, minMs);
  int rc = 0;
  if (o.check && !appendCheck(p, args.bufs, results, line))
    rc = 1;
  if (p.compareCompiled) {
    FailureOr<bool> same =
        runComparison(o, p, cuda, args.bufs, results, median, line);
    if (failed(same))
      return 1;
    if (!*same)
      rc = 1;
  }
  llvm::outs() << line << "\n";
  llvm::outs().flush();
  freeResults(results, args.bufs, cuda);
  return rc;
}

int run(const Options &o, llvm::StringRef executable) {
  if (!o.releaseMemory)
    keepFreedMemory();
  MLIRContext context(createRegistry());
  // One line per diagnostic: no dump of the failing op.
  context.printOpOnDiagnostic(false);
  ScopedDiagnosticHandler diagHandler(&context, [](Diagnostic &diag) {
    printDiagnostic(diag);
    return success();
  });

  Program program;
  if (failed(loadProgram(context, o, program)) ||
      failed(lowerProgram(context, o, program)))
    return 1;
  // --target=cuda: the runtime, and a driver and a GPU, before any code
  // runs (the JIT runs the kernels' loading at initialization). After the
  // pipelines, so that a bad input reports its own error first.
  CudaRuntime cudaRuntime;
  const CudaRuntime *cuda = nullptr;
  if (o.isCuda()) {
    if (failed(startCuda(o, executable, cudaRuntime)))
      return 1;
    cuda = &cudaRuntime;
  }
  if (failed(jitProgram(o, cuda, program)))
    return 1;
  return execute(o, program, cuda);
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  static int anchor;
  std::string executable = llvm::sys::fs::getMainExecutable(argv[0], &anchor);
  Options options;
  if (!parseOptions(argc, argv, options))
    return 2;
  if (options.help) {
    llvm::outs() << kUsage;
    return 0;
  }
  return run(options, executable);
}
