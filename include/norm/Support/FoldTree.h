//===- FoldTree.h - combine values as a balanced tree -----------*- C++ -*-===//
//
// Header-only, upstream includes only (as TypeUtilities.h): the row kernels
// (lib/Conversion) and the elementwise vectorizer (lib/Transforms) both fold
// partial results this way.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_SUPPORT_FOLDTREE_H
#define NORM_SUPPORT_FOLDTREE_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir {
namespace norm {

/// `parts` combined pairwise, level by level: neighbours 0+1, 2+3, …, an odd
/// last one carried to the next level, until one value is left. The tree is
/// as shallow as the parts allow (independent combines), and its shape is
/// fixed by the count alone, so a floating-point sum has the same bits on
/// every run. `parts` must not be empty.
inline Value foldTree(ArrayRef<Value> parts,
                      llvm::function_ref<Value(Value, Value)> combine) {
  SmallVector<Value> level(parts);
  while (level.size() > 1) {
    SmallVector<Value> halved;
    for (size_t i = 0; i + 1 < level.size(); i += 2)
      halved.push_back(combine(level[i], level[i + 1]));
    if (level.size() % 2)
      halved.push_back(level.back());
    level = std::move(halved);
  }
  return level.front();
}

} // namespace norm
} // namespace mlir

#endif // NORM_SUPPORT_FOLDTREE_H
