//===- PrecompiledHeaders.h - upstream headers most libraries include -----===//
//
// Parsed once per build into a precompiled header that every project
// library's sources reuse (cmake/modules/AddNorm.cmake). A source spent about
// half of its compile time parsing these MLIR headers; with the PCH,
// NormOps.cpp went from 27 s to 15 s (-O3, the 2-core VM). Only upstream
// headers belong here: a project header in it would not save more (each
// source includes its own) but would rebuild the PCH on every change. The PCH
// is included first into every source, so a source that forgets one of these
// includes still compiles; configure with -DNORM_PRECOMPILED_HEADERS=OFF to
// find such a source.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"
