//===- MPIMemoryEffects.cpp - what the mpi ops read and write -------------===//
//
// MLIR 22's mpi ops declare no memory effects, and the ownership-based
// buffer deallocation the CPU pipeline runs refuses ops with unknown
// effects. These external models say what each op touches: the buffers it
// sends (read) and receives (written), and for init/finalize the MPI
// library's state (the default resource).
//
//===----------------------------------------------------------------------===//

#include "norm/Transforms/MPIMemoryEffects.h"

#include "mlir/Dialect/MPI/IR/MPI.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace {

using Effects =
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>;

/// The MPI library's own state: init and finalize read and write it.
template <typename OpTy>
struct LibraryStateEffects
    : public MemoryEffectOpInterface::ExternalModel<LibraryStateEffects<OpTy>,
                                                    OpTy> {
  void getEffects(Operation *op, Effects &effects) const {
    effects.emplace_back(MemoryEffects::Read::get());
    effects.emplace_back(MemoryEffects::Write::get());
  }
};

struct AllReduceEffects
    : public MemoryEffectOpInterface::ExternalModel<AllReduceEffects,
                                                    mpi::AllReduceOp> {
  void getEffects(Operation *op, Effects &effects) const {
    auto allReduce = cast<mpi::AllReduceOp>(op);
    effects.emplace_back(MemoryEffects::Read::get(),
                         &allReduce.getSendbufMutable());
    effects.emplace_back(MemoryEffects::Read::get(),
                         &allReduce.getRecvbufMutable());
    effects.emplace_back(MemoryEffects::Write::get(),
                         &allReduce.getRecvbufMutable());
  }
};

/// A point-to-point message: its buffer, and the library's state (the
/// message itself). Without the latter a send, which only reads memory,
/// would be dead code to the canonicalizer, and sends and receives could
/// be reordered, which would deadlock a ring.
template <typename OpTy, bool writes>
struct BufferEffects
    : public MemoryEffectOpInterface::ExternalModel<BufferEffects<OpTy, writes>,
                                                    OpTy> {
  void getEffects(Operation *op, Effects &effects) const {
    OpOperand &buffer = cast<OpTy>(op).getRefMutable();
    if (writes)
      effects.emplace_back(MemoryEffects::Write::get(), &buffer);
    else
      effects.emplace_back(MemoryEffects::Read::get(), &buffer);
    effects.emplace_back(MemoryEffects::Read::get());
    effects.emplace_back(MemoryEffects::Write::get());
  }
};

} // namespace

void mlir::norm::registerMPIMemoryEffectsExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, mpi::MPIDialect *) {
    mpi::InitOp::attachInterface<LibraryStateEffects<mpi::InitOp>>(*ctx);
    mpi::FinalizeOp::attachInterface<LibraryStateEffects<mpi::FinalizeOp>>(
        *ctx);
    mpi::AllReduceOp::attachInterface<AllReduceEffects>(*ctx);
    mpi::SendOp::attachInterface<BufferEffects<mpi::SendOp, false>>(*ctx);
    mpi::RecvOp::attachInterface<BufferEffects<mpi::RecvOp, true>>(*ctx);
  });
}
