//===- InitAll.cpp - register everything norm-mlir provides ----------------===//

#include "norm/InitAll.h"

#include "norm/Conversion/Passes.h"
#include "norm/Dialect/Norm/IR/NormDialect.h"
#include "norm/Dialect/Norm/Transforms/Passes.h"
#include "norm/Dialect/Norm/Transforms/Transforms.h"
#include "norm/Pipelines/Passes.h"

#include "mlir/IR/DialectRegistry.h"

void mlir::norm::registerAllDialects(DialectRegistry &registry) {
  registry.insert<NormDialect>();
  registerBufferizableOpInterfaceExternalModels(registry);
}

void mlir::norm::registerAllPasses() {
  registerNormPasses();
  registerNormConversionPasses();
  registerNormPipelines();
}
