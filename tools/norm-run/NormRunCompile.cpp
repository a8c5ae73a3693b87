//===- NormRunCompile.cpp - norm-run's lowering and JIT ---------*- C++ -*-===//
//
// Everything between the input file and a callable function: the context
// and its registrations, the parsing, the entry and its signature, the pass
// pipeline (chosen by --pipeline, or --compare-pipeline) and the check of
// its result, and the JIT compilation with the ExecutionEngine.
//
//===----------------------------------------------------------------------===//

#include "NormRun.h"

#include "norm/InitAll.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
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
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

using namespace mlir;
using namespace normrun;

//===----------------------------------------------------------------------===//
// The input and its entry
//===----------------------------------------------------------------------===//

namespace {

std::string typeStr(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return s;
}

/// Checks one argument or result type; prints the error (located at `loc`).
std::optional<ShapedSig> checkSigType(Type t, const std::string &what,
                                      Location loc, bool isResult) {
  const char *supported =
      "norm-run supports ranked memrefs (identity layout) and ranked tensors "
      "of f32, f16 or bf16";
  auto fail = [&](const std::string &why) -> std::optional<ShapedSig> {
    std::string where = formatLocation(loc);
    error((where.empty() ? "" : where + ": ") + what + " has type '" +
          typeStr(t) + "'" + why + "; " + supported);
    return std::nullopt;
  };
  ShapedSig sig;
  if (auto m = dyn_cast<MemRefType>(t)) {
    if (!m.getLayout().isIdentity())
      return fail(" (not the identity layout)");
    if (m.getMemorySpace())
      return fail(" (a memory space)");
    sig.isTensor = false;
  } else if (auto r = dyn_cast<RankedTensorType>(t)) {
    if (r.getEncoding())
      return fail(" (an encoding)");
    sig.isTensor = true;
  } else {
    return fail("");
  }
  auto shaped = cast<ShapedType>(t);
  auto et = toElemType(shaped.getElementType());
  // A result may be quantized (a norm's f8 / i8 output), compared as such.
  sig.quant = isResult ? toQuantType(shaped.getElementType()) : std::nullopt;
  if (!et && !sig.quant)
    return fail("");
  sig.elemType = et.value_or(ElemType::F32);
  sig.shape.assign(shaped.getShape().begin(), shaped.getShape().end());
  return sig;
}

/// Parses the input file. Prints the error and returns null otherwise.
OwningOpRef<ModuleOp> parseInput(MLIRContext &context, const Options &o) {
  std::string errorMessage;
  auto file = openInputFile(o.file, &errorMessage);
  if (!file) {
    error(errorMessage);
    return nullptr;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
  if (!module)
    error("cannot parse '" + o.file + "'");
  return module;
}

/// The function --entry names, if it has a body. Otherwise prints the error,
/// with the functions that have one, and returns null.
func::FuncOp findEntry(ModuleOp module, const Options &o) {
  auto entry = module.lookupSymbol<func::FuncOp>(o.entry);
  if (entry && !entry.isExternal())
    return entry;
  std::vector<std::string> names;
  module->walk([&](func::FuncOp f) {
    if (!f.isExternal())
      names.push_back("@" + f.getSymName().str());
  });
  std::string avail =
      names.empty() ? std::string("none") : llvm::join(names, ", ");
  error(llvm::Twine(entry ? "function @" + o.entry + " is only a declaration"
                          : "no function @" + o.entry) +
        " in '" + o.file + "'; the functions with a body are: " + avail);
  return nullptr;
}

/// Checks the types of `entry`'s arguments and results into `p`, then that
/// --dims gives one value per dynamic dimension of the arguments.
LogicalResult readSignature(func::FuncOp entry, const Options &o, Program &p) {
  FunctionType fnType = entry.getFunctionType();
  for (auto [i, t] : llvm::enumerate(fnType.getInputs())) {
    Location loc = entry.getBody().getArgument(i).getLoc();
    auto sig = checkSigType(
        t, "argument #" + std::to_string(i) + " of @" + o.entry, loc,
        /*isResult=*/false);
    if (!sig)
      return failure();
    p.argSigs.push_back(*sig);
  }
  for (auto [i, t] : llvm::enumerate(fnType.getResults())) {
    auto sig = checkSigType(
        t, "result #" + std::to_string(i) + " of @" + o.entry, entry.getLoc(),
        /*isResult=*/true);
    if (!sig)
      return failure();
    p.resultSigs.push_back(*sig);
  }

  size_t numDynamic = 0;
  for (const ShapedSig &s : p.argSigs)
    numDynamic += llvm::count(s.shape, ShapedType::kDynamic);
  if (o.dims.size() == numDynamic)
    return success();
  std::vector<std::string> types;
  for (Type t : fnType.getInputs())
    types.push_back(typeStr(t));
  error("--dims gives " + llvm::Twine(o.dims.size()) +
        " value(s), but the arguments of @" + o.entry + " (" +
        llvm::join(types, ", ") + ") have " + llvm::Twine(numDynamic) +
        " dynamic dimension(s)");
  return failure();
}

/// Lowers only @entry and what it references: the other functions become
/// private and symbol-dce drops those it does not call (faster, and a
/// function that does not lower cannot get in the way). Marks the entry
/// `llvm.emit_c_interface`.
LogicalResult isolateEntry(MLIRContext &context, ModuleOp module,
                           const Options &o) {
  auto entry = module.lookupSymbol<func::FuncOp>(o.entry);
  entry->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                 UnitAttr::get(&context));
  entry.setPublic();
  for (auto f : module.getOps<func::FuncOp>())
    if (f != entry && !f.isExternal())
      f.setPrivate();
  PassManager dce(&context);
  dce.addPass(createSymbolDCEPass());
  if (failed(dce.run(module))) {
    error("symbol-dce failed on '" + o.file + "'");
    return failure();
  }
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// The pipeline
//===----------------------------------------------------------------------===//

namespace {

/// The textual pipeline of `spec` (`project`, `upstream` or a textual
/// pipeline, as --pipeline and --compare-pipeline take it); `kind` is set to
/// project, upstream or custom.
std::string pipelineText(const Options &o, const std::string &spec,
                         std::string &kind) {
  std::string threads =
      o.threads > 0 ? " num-threads=" + std::to_string(o.threads) : "";
  if (spec == "project" && o.isCuda()) {
    kind = "project";
    return "builtin.module(" + cudaPreparationPipeline() +
           ", norm-lower-to-nvvm{chip=" + o.chip + " format=" + o.gpuFormat +
           "})";
  }
  if (spec == "project") {
    kind = "project";
    return "builtin.module(norm-lower-to-cpu{target=" + o.target + threads +
           "})";
  }
  if (spec == "upstream") {
    kind = "upstream";
    std::string opts = "codegen=upstream" + threads;
    return "builtin.module(norm-lower-to-cpu{" + opts + "})";
  }
  kind = "custom";
  return spec;
}

/// The pass manager of `pipeline`, which must name its anchor,
/// `builtin.module(...)`. Prints the error and fails otherwise.
LogicalResult parsePipeline(const std::string &pipeline, PassManager &pm) {
  std::string parseErrors;
  llvm::raw_string_ostream os(parseErrors);
  FailureOr<OpPassManager> parsed = parsePassPipeline(pipeline, os);
  os.flush();
  llvm::StringRef msg = llvm::StringRef(parseErrors).trim();
  if (failed(parsed)) {
    error("cannot parse the pass pipeline '" + pipeline + "'" +
          (msg.empty() ? "" : ": " + msg.str()));
    return failure();
  }
  if (parsed->getOpAnchorName() != ModuleOp::getOperationName()) {
    error("the pass pipeline '" + pipeline +
          "' must be anchored on builtin.module, as in "
          "'builtin.module(norm-lower-to-cpu)'");
    return failure();
  }
  static_cast<OpPassManager &>(pm) = std::move(*parsed);
  return success();
}

/// Checks that everything `pipeline` left in `module` translates to LLVM
/// IR and that the C interface of the entry exists. Prints the error and
/// fails otherwise.
LogicalResult checkLowered(ModuleOp module, const std::string &pipeline,
                           const Options &o) {
  Operation *untranslatable = nullptr;
  module->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == module.getOperation())
      return WalkResult::advance();
    Dialect *dialect = op->getDialect();
    if (!dialect ||
        !dialect->getRegisteredInterface<LLVMTranslationDialectInterface>()) {
      untranslatable = op;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (untranslatable) {
    std::string where = formatLocation(untranslatable->getLoc());
    error((where.empty() ? "" : where + ": ") + "the pass pipeline '" +
          pipeline + "' left '" + untranslatable->getName().getStringRef() +
          "', which has no translation to LLVM IR; the pipeline must lower "
          "everything to the LLVM dialect");
    return failure();
  }
  std::string cifaceName = "_mlir_ciface_" + o.entry;
  if (!module.lookupSymbol<LLVM::LLVMFuncOp>(cifaceName)) {
    error("the pass pipeline '" + pipeline + "' did not produce llvm.func @" +
          cifaceName + ", the C interface of @" + o.entry);
    return failure();
  }
  return success();
}

/// Runs `pipeline` on `module` and checks that it reached the LLVM dialect
/// with the C interface of the entry. Prints the error and fails otherwise.
LogicalResult lowerModule(MLIRContext &context, ModuleOp module,
                          const std::string &pipeline, const Options &o,
                          bool printIR) {
  PassManager pm(&context);
  if (failed(parsePipeline(pipeline, pm)))
    return failure();
  if (failed(pm.run(module))) {
    error("the pass pipeline '" + pipeline + "' failed on '" + o.file + "'");
    return failure();
  }
  if (printIR) {
    module->print(llvm::outs());
    llvm::outs() << "\n";
    llvm::outs().flush();
  }
  return checkLowered(module, pipeline, o);
}

} // namespace

//===----------------------------------------------------------------------===//
// The JIT
//===----------------------------------------------------------------------===//

namespace {

/// The libraries the JIT loads: MLIR's runner utilities and libomp where
/// they are, --shared-libs (which must exist) and the CUDA runtime. Prints
/// the error and fails when a --shared-libs entry does not exist.
LogicalResult jitLibraries(const Options &o, const CudaRuntime *cuda,
                           std::vector<std::string> &libs) {
  for (const char *lib :
       {"libmlir_c_runner_utils.so", "libmlir_runner_utils.so", "libomp.so"}) {
    std::string path = std::string(NORM_RUN_LLVM_LIBRARY_DIR "/") + lib;
    if (llvm::sys::fs::exists(path))
      libs.push_back(path);
  }
  for (const std::string &lib : o.sharedLibs) {
    if (!llvm::sys::fs::exists(lib)) {
      error("--shared-libs: no such file '" + lib + "'");
      return failure();
    }
    libs.push_back(lib);
  }
  if (cuda && !llvm::is_contained(libs, cuda->path))
    libs.push_back(cuda->path);
  return success();
}

/// JIT-compiles the lowered `module` (LLVM opt level 3, the host CPU) with
/// the libraries `libs`.
std::optional<Compiled> jitCompile(ModuleOp module, const Options &o,
                                   llvm::ArrayRef<llvm::StringRef> libs) {
  auto tmBuilder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!tmBuilder) {
    error("cannot detect the host target: " +
          llvm::toString(tmBuilder.takeError()));
    return std::nullopt;
  }
  tmBuilder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  auto tm = tmBuilder->createTargetMachine();
  if (!tm) {
    error("cannot create the target machine: " +
          llvm::toString(tm.takeError()));
    return std::nullopt;
  }
  auto transformer =
      makeOptimizingTransformer(/*optLevel=*/3, /*sizeLevel=*/0, tm->get());
  ExecutionEngineOptions engineOptions;
  engineOptions.transformer = transformer;
  engineOptions.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  engineOptions.sharedLibPaths = libs;
  engineOptions.enableGDBNotificationListener = false;
  engineOptions.enablePerfNotificationListener = false;
  auto engine = ExecutionEngine::create(module, engineOptions, std::move(*tm));
  if (!engine) {
    error("JIT compilation failed: " + llvm::toString(engine.takeError()));
    return std::nullopt;
  }
  // Compiles and links the module (an unresolved symbol fails here).
  auto fn = (*engine)->lookupPacked("_mlir_ciface_" + o.entry);
  if (!fn) {
    error("JIT compilation failed: " + llvm::toString(fn.takeError()));
    return std::nullopt;
  }
  Compiled c;
  c.engine = std::move(*engine);
  c.fn = *fn;
  // Runs the module's global constructors: the GPU code's load its kernels
  // (mgpuModuleLoad); lookupPacked does not run them.
  c.engine->initialize();
  return c;
}

} // namespace

//===----------------------------------------------------------------------===//
// The steps
//===----------------------------------------------------------------------===//

DialectRegistry normrun::createRegistry() {
  // Everything norm-opt registers, plus the LLVM IR translations the
  // ExecutionEngine needs.
  DialectRegistry registry;
  mlir::norm::registerAllDialects(registry);
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
  mlir::registerAllPasses();
  mlir::norm::registerAllPasses();
  return registry;
}

LogicalResult normrun::loadProgram(MLIRContext &context, const Options &o,
                                   Program &p) {
  p.module = parseInput(context, o);
  if (!p.module)
    return failure();
  func::FuncOp entry = findEntry(*p.module, o);
  if (!entry || failed(readSignature(entry, o, p)))
    return failure();
  // The norm ops, before lowering.
  p.specs = collectNormOps(entry, p.outputArgs);
  if (o.check && failed(requireCheckable(p.specs, o)))
    return failure();
  return success();
}

LogicalResult normrun::lowerProgram(MLIRContext &context, const Options &o,
                                    Program &p) {
  if (failed(isolateEntry(context, *p.module, o)))
    return failure();
  std::string pipeline = pipelineText(o, o.pipeline, p.pipelineKind);
  bool comparing = !o.comparePipeline.empty();
  std::string comparePipeline =
      comparing ? pipelineText(o, o.comparePipeline, p.compareKind) : "";
  // --target/--threads only go into the project and upstream pipelines.
  bool optionsUsed =
      p.pipelineKind != "custom" || (comparing && p.compareKind != "custom");
  if (!optionsUsed && (o.threads != 0 || (o.target != "host" && !o.isCuda())))
    llvm::errs() << "norm-run: warning: --target and --threads are ignored "
                    "with a custom pipeline\n";
  // The module the compare pipeline lowers: the same IR, before lowering.
  if (comparing)
    p.compareModule = p.module->clone();
  if (failed(lowerModule(context, *p.module, pipeline, o, o.printIR)))
    return failure();
  if (comparing &&
      failed(lowerModule(context, *p.compareModule, comparePipeline, o,
                         /*printIR=*/false)))
    return failure();
  return success();
}

LogicalResult normrun::jitProgram(const Options &o, const CudaRuntime *cuda,
                                  Program &p) {
  std::vector<std::string> libs;
  if (failed(jitLibraries(o, cuda, libs)))
    return failure();
  std::vector<llvm::StringRef> libRefs(libs.begin(), libs.end());

  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  // The kernels' inline assembly (norm-x86-nontemporal-stores).
  llvm::InitializeNativeTargetAsmParser();
  p.compiled = jitCompile(*p.module, o, libRefs);
  if (!p.compiled)
    return failure();
  if (p.compareModule) {
    p.compareCompiled = jitCompile(*p.compareModule, o, libRefs);
    if (!p.compareCompiled)
      return failure();
  }
  return success();
}
