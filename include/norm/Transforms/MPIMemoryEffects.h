//===- MPIMemoryEffects.h - memory effects of the mpi ops -------*- C++ -*-===//
//
// Registration of the MemoryEffectOpInterface models that MLIR 22's mpi ops
// lack, so that buffer deallocation accepts lowered collectives.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_TRANSFORMS_MPIMEMORYEFFECTS_H
#define NORM_TRANSFORMS_MPIMEMORYEFFECTS_H

namespace mlir {
class DialectRegistry;
namespace norm {

/// Attaches MemoryEffectOpInterface to mpi.init, mpi.finalize,
/// mpi.allreduce, mpi.send and mpi.recv.
void registerMPIMemoryEffectsExternalModels(DialectRegistry &registry);

} // namespace norm
} // namespace mlir

#endif // NORM_TRANSFORMS_MPIMEMORYEFFECTS_H
