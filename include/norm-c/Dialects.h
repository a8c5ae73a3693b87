//===- Dialects.h - C API for the norm dialect --------------------*- C -*-===//
//
// C bindings: registration of the norm dialect and of its passes.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_C_DIALECTS_H
#define NORM_C_DIALECTS_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Norm, norm);

/// Registers the norm passes and pipelines (norm-decompose,
/// norm-lower-to-cpu) with the global registry.
MLIR_CAPI_EXPORTED void mlirNormRegisterPasses(void);

/// Registers the norm dialect and its external models into `registry`.
MLIR_CAPI_EXPORTED void mlirNormRegisterAllDialects(MlirDialectRegistry registry);

#ifdef __cplusplus
}
#endif

#endif // NORM_C_DIALECTS_H
