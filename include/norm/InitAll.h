//===- InitAll.h - register everything norm-mlir provides -------*- C++ -*-===//
//
// One call each for the dialect (with its external models), the passes and
// the pipelines; what norm-opt, the plugin and downstream tools use.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_INITALL_H
#define NORM_INITALL_H

namespace mlir {
class DialectRegistry;

namespace norm {

/// Inserts the norm dialect and registers its external interface models
/// (bufferization).
void registerAllDialects(DialectRegistry &registry);

/// Registers the norm passes and pipelines with the global pass registry.
void registerAllPasses();

} // namespace norm
} // namespace mlir

#endif // NORM_INITALL_H
