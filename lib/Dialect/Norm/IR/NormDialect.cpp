//===- NormDialect.cpp - norm dialect registration
//-------------------------===//
//
// Registers the norm ops (forward and gradient) and attributes.
//
//===----------------------------------------------------------------------===//

#include "norm/Dialect/Norm/IR/NormDialect.h"
#include "norm/Dialect/Norm/IR/NormGradOps.h"
#include "norm/Dialect/Norm/IR/NormOps.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::norm;

#include "norm/Dialect/Norm/IR/NormOpsDialect.cpp.inc"
#include "norm/Dialect/Norm/IR/NormEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "norm/Dialect/Norm/IR/NormAttrs.cpp.inc"

void NormDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "norm/Dialect/Norm/IR/NormOps.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "norm/Dialect/Norm/IR/NormGradOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "norm/Dialect/Norm/IR/NormAttrs.cpp.inc"
      >();
}
