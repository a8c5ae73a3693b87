//===- norm-opt.cpp - the norm-mlir optimizer driver -----------------------===//
//
// mlir-opt with the norm dialect, its passes and pipelines, and the upstream
// dialects, passes and extensions a user needs to take linalg/tensor/tosa IR
// (with norm ops) down to the LLVM dialect or to NVVM.
//
//===----------------------------------------------------------------------===//

#include "norm/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

namespace mlir::norm::test {
// Test-only passes (test/lib, CONVENTIONS.md 25).
void registerEmulateGPUOnCPUPass();
void registerVectorToNVGPUInLaunchesPass();
} // namespace mlir::norm::test

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::norm::registerAllDialects(registry);
  // The upstream side of a norm pipeline spans tosa/linalg/tensor down to
  // llvm and gpu/nvvm; all of it lives in the same libMLIR.so we link, so
  // registering it all costs nothing at link time.
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllPasses();
  mlir::norm::registerAllPasses();
  mlir::norm::test::registerEmulateGPUOnCPUPass();
  mlir::norm::test::registerVectorToNVGPUInLaunchesPass();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "norm-mlir optimizer driver\n", registry));
}
