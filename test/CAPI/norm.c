//===- norm.c - The norm C API driven from C11 ----------------------------===//
//
// Compiled as C11 and linked against libNormMLIR-C.so only, as upstream's
// mlir-capi-ir-test is: registers the norm dialect and passes through the C
// API, parses, verifies and prints a norm op, runs a textual pipeline, and
// checks that malformed IR and a bad pipeline come back as diagnostics and
// null handles, not crashes.
//
//===----------------------------------------------------------------------===//

// RUN: norm-capi-test 2>&1 | FileCheck %s

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/Dialect/Tensor.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"
#include "norm-c/Dialects.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void printToStdout(MlirStringRef str, void *userData) {
  (void)userData;
  fwrite(str.data, 1, str.length, stdout);
}

static MlirLogicalResult printDiagnostic(MlirDiagnostic diagnostic,
                                         void *userData) {
  (void)userData;
  fprintf(stdout, "diagnostic: ");
  fflush(stdout);
  mlirDiagnosticPrint(diagnostic, printToStdout, NULL);
  fprintf(stdout, "\n");
  return mlirLogicalResultSuccess();
}

// Counts the operations named `name` nested in `op`.
static int countOps(MlirOperation op, const char *name) {
  int count = 0;
  MlirIdentifier opName = mlirOperationGetName(op);
  MlirStringRef str = mlirIdentifierStr(opName);
  if (str.length == strlen(name) && !strncmp(str.data, name, str.length))
    ++count;
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); ++r) {
    MlirRegion region = mlirOperationGetRegion(op, r);
    for (MlirBlock block = mlirRegionGetFirstBlock(region);
         !mlirBlockIsNull(block); block = mlirBlockGetNextInRegion(block))
      for (MlirOperation nested = mlirBlockGetFirstOperation(block);
           !mlirOperationIsNull(nested);
           nested = mlirOperationGetNextInBlock(nested))
        count += countOps(nested, name);
  }
  return count;
}

static const char *kRMSNorm =
    "func.func @rms(%x: tensor<4x8xf32>, %w: tensor<8xf32>,\n"
    "               %e: tensor<4x8xf32>) -> tensor<4x8xf32> {\n"
    "  %y = norm.rms_norm ins(%x : tensor<4x8xf32>)\n"
    "         weight(%w : tensor<8xf32>)\n"
    "         outs(%e : tensor<4x8xf32>) {epsilon = 1.0e-6 : f32}\n"
    "         -> tensor<4x8xf32>\n"
    "  return %y : tensor<4x8xf32>\n"
    "}\n";

// The weight's length does not match the normalized dimension.
static const char *kWrongWeight =
    "func.func @bad(%x: tensor<4x8xf32>, %w: tensor<7xf32>,\n"
    "               %e: tensor<4x8xf32>) -> tensor<4x8xf32> {\n"
    "  %y = norm.rms_norm ins(%x : tensor<4x8xf32>)\n"
    "         weight(%w : tensor<7xf32>)\n"
    "         outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>\n"
    "  return %y : tensor<4x8xf32>\n"
    "}\n";

static int testDialectHandle(void) {
  MlirDialectHandle handle = mlirGetDialectHandle__norm__();
  MlirStringRef ns = mlirDialectHandleGetNamespace(handle);
  fprintf(stdout, "namespace: %.*s\n", (int)ns.length, ns.data);
  // CHECK-LABEL: namespace: norm

  MlirContext ctx = mlirContextCreate();
  mlirDialectHandleRegisterDialect(handle, ctx);
  MlirDialect dialect = mlirDialectHandleLoadDialect(handle, ctx);
  fprintf(stdout, "loaded: %d\n", !mlirDialectIsNull(dialect));
  // CHECK: loaded: 1
  mlirContextDestroy(ctx);
  return 0;
}

static MlirContext createContext(void) {
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirNormRegisterAllDialects(registry);
  // The test IR's functions and tensors come from upstream's C API.
  mlirDialectHandleInsertDialect(mlirGetDialectHandle__func__(), registry);
  mlirDialectHandleInsertDialect(mlirGetDialectHandle__tensor__(), registry);
  MlirContext ctx = mlirContextCreate();
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  mlirContextLoadAllAvailableDialects(ctx);
  mlirContextAttachDiagnosticHandler(ctx, printDiagnostic, NULL, NULL);
  return ctx;
}

// Parses a pass pipeline into a new pass manager; the caller destroys it.
static MlirLogicalResult parsePipeline(MlirContext ctx, const char *pipeline,
                                       MlirPassManager *pm) {
  *pm = mlirPassManagerCreate(ctx);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(*pm);
  return mlirParsePassPipeline(opm, mlirStringRefCreateFromCString(pipeline),
                               printToStdout, NULL);
}

static MlirModule parseModule(MlirContext ctx, const char *source) {
  return mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(source));
}

static int testParseVerifyPrint(MlirContext ctx) {
  fprintf(stdout, "@parse\n");
  // CHECK-LABEL: @parse
  MlirModule module = parseModule(ctx, kRMSNorm);
  if (mlirModuleIsNull(module))
    return 1;
  MlirOperation op = mlirModuleGetOperation(module);
  fprintf(stdout, "verified: %d\n", mlirOperationVerify(op));
  // CHECK: verified: 1
  mlirOperationPrint(op, printToStdout, NULL);
  // CHECK: norm.rms_norm ins(%{{[a-z0-9]+}} : tensor<4x8xf32>)
  // CHECK-SAME: weight(%{{[a-z0-9]+}} : tensor<8xf32>)
  // CHECK-SAME: epsilon = 9.99999997E-7 : f32
  fprintf(stdout, "\n");
  mlirModuleDestroy(module);
  return 0;
}

static int testPipeline(MlirContext ctx) {
  fprintf(stdout, "@pipeline\n");
  // CHECK-LABEL: @pipeline
  MlirModule module = parseModule(ctx, kRMSNorm);
  if (mlirModuleIsNull(module))
    return 1;
  MlirOperation op = mlirModuleGetOperation(module);
  MlirPassManager pm;
  MlirLogicalResult parsed =
      parsePipeline(ctx, "builtin.module(norm-decompose)", &pm);
  if (mlirLogicalResultIsFailure(parsed))
    return 2;
  MlirLogicalResult ran = mlirPassManagerRunOnOp(pm, op);
  fprintf(stdout, "ran: %d, rms_norm left: %d, linalg.generic: %d\n",
          mlirLogicalResultIsSuccess(ran), countOps(op, "norm.rms_norm"),
          countOps(op, "linalg.generic") > 0);
  // CHECK: ran: 1, rms_norm left: 0, linalg.generic: 1
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  return 0;
}

static int testErrors(MlirContext ctx) {
  fprintf(stdout, "@errors\n");
  // CHECK-LABEL: @errors
  MlirModule module = parseModule(ctx, kWrongWeight);
  // CHECK: diagnostic: 'norm.rms_norm' op
  fprintf(stdout, "wrong weight gives a null module: %d\n",
          mlirModuleIsNull(module));
  // CHECK: wrong weight gives a null module: 1

  MlirPassManager pm;
  MlirLogicalResult parsed =
      parsePipeline(ctx, "builtin.module(norm-no-such-pass)", &pm);
  fprintf(stdout, "\nunknown pass refused: %d\n",
          mlirLogicalResultIsFailure(parsed));
  // CHECK: 'norm-no-such-pass' does not refer to a registered pass
  // CHECK: unknown pass refused: 1
  mlirPassManagerDestroy(pm);
  return 0;
}

int main(void) {
  mlirNormRegisterPasses();
  if (testDialectHandle())
    return 1;
  MlirContext ctx = createContext();
  int status = testParseVerifyPrint(ctx);
  if (!status)
    status = testPipeline(ctx);
  if (!status)
    status = testErrors(ctx);
  mlirContextDestroy(ctx);
  fprintf(stdout, "status: %d\n", status);
  // CHECK: status: 0
  return status;
}
