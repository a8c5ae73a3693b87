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
// arguments (memref form) or whose results are returned (tensor form) is
// compared with the float64 reference (lib/Reference). docs/norm-run.md is
// the manual.
//
// Every error is one `norm-run: error: ...` line (with the MLIR location
// where there is one) and a non-zero exit.
//
//===----------------------------------------------------------------------===//

#include "NormRun.h"

#include "norm/InitAll.h"
#include "norm/Reference/NormReference.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/LLVMTranslationInterface.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <optional>
#include <string>
#include <vector>

using namespace mlir;
using namespace normrun;
namespace ref = mlir::norm::reference;

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

/// The default --compare-tol of a buffer: 1e-4 for f32, 2e-2 for f16/bf16.
double defaultCompareTol(ElemType et) {
  return et == ElemType::F32 ? 1e-4 : 2e-2;
}

//===----------------------------------------------------------------------===//
// The run
//===----------------------------------------------------------------------===//

int run(const Options &o, llvm::StringRef executable) {
  if (!o.releaseMemory)
    keepFreedMemory();
  // Context with everything norm-opt registers, plus the LLVM IR
  // translations the ExecutionEngine needs.
  DialectRegistry registry;
  mlir::norm::registerAllDialects(registry);
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
  mlir::registerAllPasses();
  mlir::norm::registerAllPasses();
  registerCudaPreparationPasses();
  MLIRContext context(registry);
  // One line per diagnostic: no dump of the failing op.
  context.printOpOnDiagnostic(false);
  ScopedDiagnosticHandler diagHandler(&context, [](Diagnostic &diag) {
    printDiagnostic(diag);
    return success();
  });

  // Parse.
  std::string errorMessage;
  auto file = openInputFile(o.file, &errorMessage);
  if (!file) {
    error(errorMessage);
    return 1;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
  if (!module) {
    error("cannot parse '" + o.file + "'");
    return 1;
  }

  // The entry function.
  auto entry = module->lookupSymbol<func::FuncOp>(o.entry);
  if (!entry || entry.isExternal()) {
    std::vector<std::string> names;
    module->walk([&](func::FuncOp f) {
      if (!f.isExternal())
        names.push_back("@" + f.getSymName().str());
    });
    std::string avail =
        names.empty() ? std::string("none") : llvm::join(names, ", ");
    error(llvm::Twine(entry ? "function @" + o.entry +
                                  " is only a declaration"
                            : "no function @" + o.entry) +
          " in '" + o.file + "'; the functions with a body are: " + avail);
    return 1;
  }
  FunctionType fnType = entry.getFunctionType();
  std::vector<ShapedSig> argSigs, resultSigs;
  for (auto [i, t] : llvm::enumerate(fnType.getInputs())) {
    Location loc = entry.getBody().getArgument(i).getLoc();
    auto sig = checkSigType(t, "argument #" + std::to_string(i) + " of @" +
                                   o.entry,
                            loc);
    if (!sig)
      return 1;
    argSigs.push_back(*sig);
  }
  for (auto [i, t] : llvm::enumerate(fnType.getResults())) {
    auto sig = checkSigType(
        t, "result #" + std::to_string(i) + " of @" + o.entry, entry.getLoc());
    if (!sig)
      return 1;
    resultSigs.push_back(*sig);
  }

  // Dynamic dims.
  size_t numDynamic = 0;
  for (const ShapedSig &s : argSigs)
    numDynamic += llvm::count(s.shape, ShapedType::kDynamic);
  if (o.dims.size() != numDynamic) {
    std::vector<std::string> types;
    for (Type t : fnType.getInputs())
      types.push_back(typeStr(t));
    error("--dims gives " + llvm::Twine(o.dims.size()) +
          " value(s), but the arguments of @" + o.entry + " (" +
          llvm::join(types, ", ") + ") have " + llvm::Twine(numDynamic) +
          " dynamic dimension(s)");
    return 1;
  }

  // The norm ops, before lowering.
  std::vector<bool> outputArgs;
  std::vector<CheckSpec> specs = collectNormOps(entry, outputArgs);
  if (o.check && llvm::none_of(specs, [](const CheckSpec &s) {
        return s.checkable;
      })) {
    std::string why;
    for (const CheckSpec &s : specs)
      why += "; " + s.opName + " at " + s.location + " is not: " + s.reason;
    error("--check: @" + o.entry +
          " has no checkable norm op (a norm.rms_norm, norm.layer_norm or "
          "fused norm/matmul op whose operands are function arguments, or, "
          "on tensors, whose results are returned)" +
          (specs.empty() ? std::string("; it has no norm op at all") : why));
    return 1;
  }

  // Lower only @entry and what it references: the other functions become
  // private and symbol-dce drops those it does not call (faster, and a
  // function that does not lower cannot get in the way).
  entry->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                 UnitAttr::get(&context));
  entry.setPublic();
  for (auto f : module->getOps<func::FuncOp>())
    if (f != entry && !f.isExternal())
      f.setPrivate();
  {
    PassManager dce(&context);
    dce.addPass(createSymbolDCEPass());
    if (failed(dce.run(*module))) {
      error("symbol-dce failed on '" + o.file + "'");
      return 1;
    }
  }
  std::string pipelineKind, compareKind;
  std::string pipeline = pipelineText(o, o.pipeline, pipelineKind);
  bool comparing = !o.comparePipeline.empty();
  std::string comparePipeline =
      comparing ? pipelineText(o, o.comparePipeline, compareKind) : "";
  // --target/--threads only go into the project and upstream pipelines.
  bool optionsUsed = pipelineKind != "custom" ||
                     (comparing && compareKind != "custom");
  if (!optionsUsed && (o.threads != 0 || (o.target != "host" && !o.isCuda())))
    llvm::errs() << "norm-run: warning: --target and --threads are ignored "
                    "with a custom pipeline\n";
  // The module the compare pipeline lowers: the same IR, before lowering.
  OwningOpRef<ModuleOp> compareModule;
  if (comparing)
    compareModule = module->clone();
  if (failed(lowerModule(context, *module, pipeline, o, o.printIR)))
    return 1;
  if (comparing &&
      failed(lowerModule(context, *compareModule, comparePipeline, o,
                         /*printIR=*/false)))
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

  // JIT.
  std::vector<std::string> libs;
  for (const char *lib : {"libmlir_c_runner_utils.so", "libmlir_runner_utils.so",
                          "libomp.so"}) {
    std::string path = std::string(NORM_RUN_LLVM_LIBRARY_DIR "/") + lib;
    if (llvm::sys::fs::exists(path))
      libs.push_back(path);
  }
  for (const std::string &lib : o.sharedLibs) {
    if (!llvm::sys::fs::exists(lib)) {
      error("--shared-libs: no such file '" + lib + "'");
      return 1;
    }
    libs.push_back(lib);
  }
  if (cuda && !llvm::is_contained(libs, cuda->path))
    libs.push_back(cuda->path);
  std::vector<llvm::StringRef> libRefs(libs.begin(), libs.end());

  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  std::optional<Compiled> compiled = jitCompile(*module, o, libRefs);
  if (!compiled)
    return 1;
  std::optional<Compiled> compareCompiled;
  if (comparing) {
    compareCompiled = jitCompile(*compareModule, o, libRefs);
    if (!compareCompiled)
      return 1;
  }

  // Argument buffers.
  ArgBuffers args;
  if (failed(allocateArgs(argSigs, outputArgs, o, cuda, args)))
    return 1;
  for (const CheckSpec &spec : specs) {
    std::string why = validateArgShapes(spec, args.bufs);
    if (!why.empty()) {
      error(spec.location + ": the argument shapes (from the signature and "
                            "--dims) do not fit " +
            spec.opName + ": " + why);
      return 1;
    }
  }

  std::vector<Buffer> results;
  std::vector<double> times =
      callTimed(*compiled, args, resultSigs, o, cuda, results);

  // Report.
  auto [median, minMs] = medianMin(times);
  int64_t bytes = 0;
  std::vector<const char *> counted;
  auto count = [&](const Buffer &b) {
    if (b.data && llvm::is_contained(counted, b.data))
      return;
    counted.push_back(b.data);
    bytes += b.getNumBytes();
  };
  for (const Buffer &b : args.bufs)
    count(b);
  for (const Buffer &b : results)
    count(b);
  double gbps = median > 0.0 ? static_cast<double>(bytes) / (median * 1e-3) / 1e9
                             : 0.0;

  char line[512];
  std::string device =
      o.isCuda() ? " target=cuda chip=" + o.chip : std::string();
  std::snprintf(line, sizeof(line),
                "norm-run: entry=%s pipeline=%s%s threads=%lld bytes=%lld "
                "median_ms=%.6f min_ms=%.6f gbps=%.3f",
                o.entry.c_str(), pipelineKind.c_str(), device.c_str(),
                static_cast<long long>(o.threads),
                static_cast<long long>(bytes), median, minMs, gbps);
  std::string out = line;
  int rc = 0;
  if (o.check) {
    CheckOutcome outcome = checkAll(specs, args.bufs, results);
    std::snprintf(line, sizeof(line), " rel_err=%.3e tol=%.0e %s",
                  outcome.relErr, outcome.tol, outcome.ok ? "PASS" : "FAIL");
    out += line;
    if (!outcome.ok) {
      rc = 1;
      for (const std::string &d : outcome.details)
        llvm::errs() << "norm-run: check: " << d << "\n";
    }
  }

  // --compare-pipeline: the same inputs through the other pipeline, then
  // every result and every argument buffer compared with its counterpart.
  if (comparing) {
    ArgBuffers cargs;
    if (failed(allocateArgs(argSigs, outputArgs, o, cuda, cargs)))
      return 1;
    std::vector<Buffer> cresults;
    std::vector<double> ctimes =
        callTimed(*compareCompiled, cargs, resultSigs, o, cuda, cresults);
    auto [cmedian, cminMs] = medianMin(ctimes);
    double worstRatio = -1.0, worstErr = 0.0, worstTol = 0.0;
    bool ok = true;
    std::vector<std::string> details;
    auto compareBuffers = [&](const std::string &what, const Buffer &a,
                              const Buffer &b) {
      double tol = o.compareTol > 0.0 ? o.compareTol
                                      : defaultCompareTol(a.elemType);
      ref::CompareResult r = ref::compare(a.load(), b.load(), tol);
      double ratio = std::isnan(r.relErr) ? INFINITY : r.relErr / tol;
      if (ratio > worstRatio) {
        worstRatio = ratio;
        worstErr = r.relErr;
        worstTol = tol;
      }
      char d[256];
      std::snprintf(d, sizeof(d), "%s: rel_err=%.3e tol=%.0e %s",
                    what.c_str(), r.relErr, tol, r.ok ? "PASS" : "FAIL");
      details.push_back(d + (r.note.empty() ? "" : " (" + r.note + ")"));
      ok &= r.ok;
    };
    for (size_t i = 0; i < results.size(); ++i)
      compareBuffers("result #" + std::to_string(i), results[i], cresults[i]);
    for (size_t i = 0; i < args.bufs.size(); ++i)
      compareBuffers("argument #" + std::to_string(i), args.bufs[i],
                     cargs.bufs[i]);
    freeResults(cresults, cargs.bufs, cuda);
    if (worstRatio < 0.0) // nothing to compare
      worstTol = o.compareTol > 0.0 ? o.compareTol : 1e-4;
    std::snprintf(line, sizeof(line),
                  " cmp_pipeline=%s cmp_median_ms=%.6f cmp_min_ms=%.6f "
                  "speedup=%.3f cmp_rel_err=%.3e cmp_tol=%.0e %s",
                  compareKind.c_str(), cmedian, cminMs,
                  median > 0.0 ? cmedian / median : 0.0, worstErr, worstTol,
                  ok ? "PASS" : "FAIL");
    out += line;
    if (!ok) {
      rc = 1;
      for (const std::string &d : details)
        llvm::errs() << "norm-run: compare: " << d << "\n";
    }
  }
  llvm::outs() << out << "\n";
  llvm::outs().flush();
  freeResults(results, args.bufs, cuda);
  return rc;
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
