//===- NormRunCompile.cpp - norm-run's lowering and JIT ---------*- C++ -*-===//
//
// Everything between the input file and a callable function: the check of
// the entry's signature, the pass pipeline (chosen by --pipeline, or
// --compare-pipeline) and its result, and the JIT compilation with the
// ExecutionEngine.
//
//===----------------------------------------------------------------------===//

#include "NormRun.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/LLVMTranslationInterface.h"

#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

using namespace mlir;
using namespace normrun;

//===----------------------------------------------------------------------===//
// The entry signature
//===----------------------------------------------------------------------===//

namespace {

std::optional<ElemType> toElemType(Type t) {
  if (t.isF32())
    return ElemType::F32;
  if (t.isF16())
    return ElemType::F16;
  if (t.isBF16())
    return ElemType::BF16;
  return std::nullopt;
}

} // namespace

std::string normrun::typeStr(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  t.print(os);
  return s;
}

std::optional<ShapedSig> normrun::checkSigType(Type t, const std::string &what,
                                               Location loc) {
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
  if (!et)
    return fail("");
  sig.elemType = *et;
  sig.shape.assign(shaped.getShape().begin(), shaped.getShape().end());
  return sig;
}

//===----------------------------------------------------------------------===//
// The pipeline
//===----------------------------------------------------------------------===//

std::string normrun::pipelineText(const Options &o, const std::string &spec,
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

LogicalResult normrun::lowerModule(MLIRContext &context, ModuleOp module,
                                   const std::string &pipeline,
                                   const Options &o, bool printIR) {
  PassManager pm(&context);
  {
    // The pipeline names its anchor, `builtin.module(...)`.
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
  }
  if (failed(pm.run(module))) {
    error("the pass pipeline '" + pipeline + "' failed on '" + o.file + "'");
    return failure();
  }
  if (printIR) {
    module->print(llvm::outs());
    llvm::outs() << "\n";
    llvm::outs().flush();
  }

  // Everything left must translate to LLVM IR, and the C interface of the
  // entry must exist.
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

std::optional<Compiled>
normrun::jitCompile(ModuleOp module, const Options &o,
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
