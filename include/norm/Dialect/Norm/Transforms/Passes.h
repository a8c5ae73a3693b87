//===- Passes.h - norm dialect passes ---------------------------*- C++ -*-===//
//
// Declarations and registration of the norm dialect's passes.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_DIALECT_NORM_TRANSFORMS_PASSES_H
#define NORM_DIALECT_NORM_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace norm {

#define GEN_PASS_DECL
#include "norm/Dialect/Norm/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "norm/Dialect/Norm/Transforms/Passes.h.inc"

} // namespace norm
} // namespace mlir

#endif // NORM_DIALECT_NORM_TRANSFORMS_PASSES_H
