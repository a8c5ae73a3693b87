//===- Passes.h - norm-mlir conversion passes -------------------*- C++ -*-===//

#ifndef NORM_CONVERSION_PASSES_H
#define NORM_CONVERSION_PASSES_H

#include "norm/Conversion/NormToGPU/NormToGPU.h"
#include "norm/Conversion/NormToVector/NormToVector.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace norm {

#define GEN_PASS_DECL
#include "norm/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "norm/Conversion/Passes.h.inc"

} // namespace norm
} // namespace mlir

#endif // NORM_CONVERSION_PASSES_H
