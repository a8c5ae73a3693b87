//===- Dialects.cpp - C API for the norm dialect ---------------------------===//

#include "norm-c/Dialects.h"

#include "norm/Dialect/Norm/IR/NormDialect.h"
#include "norm/InitAll.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Norm, norm, mlir::norm::NormDialect)

void mlirNormRegisterPasses(void) { mlir::norm::registerAllPasses(); }

void mlirNormRegisterAllDialects(MlirDialectRegistry registry) {
  mlir::norm::registerAllDialects(*unwrap(registry));
}
