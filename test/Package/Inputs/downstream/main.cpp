//===- main.cpp - a downstream user of the NormMLIR package ---------------===//
//
// Registers the dialect and passes through the C++ API, parses a norm op and
// decomposes it with a textual pipeline; then registers the dialect through
// the C API's dialect handle and checks that it loads.
//
//===----------------------------------------------------------------------===//

#include "norm-c/Dialects.h"
#include "norm/InitAll.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

static const char *kSource = R"mlir(
func.func @f(%x: tensor<4x8xf32>, %e: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = norm.rms_norm ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
)mlir";

int main() {
  // C++ API.
  mlir::DialectRegistry registry;
  mlir::norm::registerAllDialects(registry);
  registry.insert<mlir::func::FuncDialect, mlir::tensor::TensorDialect>();
  mlir::norm::registerAllPasses();
  mlir::MLIRContext context(registry);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(kSource, &context);
  if (!module)
    return 1;
  mlir::PassManager pm(&context, mlir::ModuleOp::getOperationName());
  if (mlir::failed(mlir::parsePassPipeline("norm-decompose", pm)) ||
      mlir::failed(pm.run(*module)))
    return 2;
  int generics = 0, norms = 0;
  module->walk([&](mlir::Operation *op) {
    generics += op->getName().getStringRef() == "linalg.generic";
    norms += op->getName().getDialectNamespace() == "norm";
  });
  llvm::outs() << "cpp: decomposed into " << generics << " linalg.generic, "
               << norms << " norm ops left\n";

  // C API: the dialect handle's hooks and the registration helpers.
  MlirDialectHandle handle = mlirGetDialectHandle__norm__();
  auto *hooks = static_cast<const MlirDialectRegistrationHooks *>(handle.ptr);
  MlirStringRef ns = hooks->getNamespaceHook();
  mlir::DialectRegistry capiRegistry;
  hooks->insertHook(wrap(&capiRegistry));
  mlir::MLIRContext capiContext(capiRegistry);
  capiContext.loadAllAvailableDialects();
  mlirNormRegisterPasses();
  llvm::outs() << "capi: namespace " << llvm::StringRef(ns.data, ns.length)
               << ", loaded " << (capiContext.getLoadedDialect("norm") ? 1 : 0)
               << "\n";
  return 0;
}
