//===- NormPlugin.cpp - norm-mlir as an mlir-opt plugin --------------------===//
//
// `mlir-opt --load-dialect-plugin=NormPlugin.so --load-pass-plugin=NormPlugin.so`
// gives an upstream mlir-opt the norm dialect, its passes and pipelines.
//
//===----------------------------------------------------------------------===//

#include "norm/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "NormDialect", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            mlir::norm::registerAllDialects(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "NormPasses", LLVM_VERSION_STRING,
          []() { mlir::norm::registerAllPasses(); }};
}
