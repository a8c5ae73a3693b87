//===- CheckLowered.h - located errors for ops a lowering left --*- C++ -*-===//
//
// The one check behind "no pipeline exits 0 with work left undone": the
// conversion passes call it on the ops they promised to lower, and the
// norm-check-lowered pass (which the pipelines append) on whole dialects.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_TRANSFORMS_CHECKLOWERED_H
#define NORM_TRANSFORMS_CHECKLOWERED_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace mlir {
namespace norm {

/// Emits "'<op>' op is left by <who>: <reason>" at every op under `root`
/// (not `root` itself) for which `leftoverReason` returns a non-empty
/// reason, and not inside an op already reported. Fails when there was any.
LogicalResult
checkLowered(Operation *root, StringRef who,
             function_ref<std::string(Operation *)> leftoverReason);

/// Why the row kernels cannot take `op`, a norm op: the operand whose rows
/// are not contiguous (a memref with a non-identity layout), or "".
std::string nonContiguousRowsReason(Operation *op, StringRef kernel);

/// A located error at each `gpu.launch` / `gpu.launch_func` under `root` with
/// a constant grid or block size of 0: no GPU runs an empty launch.
LogicalResult checkLaunchSizes(Operation *root);

} // namespace norm
} // namespace mlir

#endif // NORM_TRANSFORMS_CHECKLOWERED_H
