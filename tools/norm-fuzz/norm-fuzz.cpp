//===- norm-fuzz.cpp - libFuzzer target for the norm passes ----*- C++ -*-===//
//
// Each input is parsed as an MLIR module; when it parses and verifies, each of
// the project's pipelines runs on its own clone with the verifier on. Every
// diagnostic is swallowed: what the fuzzer looks for is a crash, an assertion,
// a sanitizer report or a hang, never an error message. Built with
// -fsanitize=fuzzer,address,undefined by scripts/fuzz.sh
// (NORM_ENABLE_FUZZER=ON); see docs/testing.md.
//
//===----------------------------------------------------------------------===//

#include "norm/InitAll.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/SourceMgr.h"

#include <cstddef>
#include <cstdint>
#include <string>

using namespace mlir;

namespace {

/// The pipelines each input goes through (shared with the replay script).
constexpr const char *kPipelines[] = {
#include "FuzzPipelines.inc"
};

DialectRegistry &getRegistry() {
  static DialectRegistry *registry = [] {
    auto *r = new DialectRegistry();
    norm::registerAllDialects(*r);
    registerAllDialects(*r);
    registerAllExtensions(*r);
    return r;
  }();
  return *registry;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  registerAllPasses();
  norm::registerAllPasses();
  (void)getRegistry();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // A fresh context per input: no state leaks from one input to the next.
  MLIRContext context(getRegistry(), MLIRContext::Threading::DISABLED);
  ScopedDiagnosticHandler swallow(&context,
                                  [](Diagnostic &) { return success(); });
  // A copy, for the terminating null the lexer stops at: libFuzzer's buffer
  // ends at `size`, and reading past it is reported as a finding.
  std::string source(reinterpret_cast<const char *>(data), size);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &context);
  if (!module || failed(verify(*module)))
    return 0;
  for (const char *pipeline : kPipelines) {
    OwningOpRef<ModuleOp> clone = module->clone();
    PassManager pm(&context);
    if (failed(parsePassPipeline(pipeline, pm)))
      __builtin_trap(); // The list above is ours: it must parse.
    (void)pm.run(*clone);
  }
  return 0;
}
