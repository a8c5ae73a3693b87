//===- OpenMPLoopNowait.cpp - one barrier per parallel loop --------------===//
//
// convert-scf-to-openmp makes each scf.parallel an omp.parallel around an
// omp.wsloop that keeps its implicit barrier; the parallel region's end is
// a barrier too, so every call waits for all threads twice. A loop that is
// the region's last op needs only the second one.
//
//===----------------------------------------------------------------------===//

#include "norm/Transforms/Passes.h"

#include "mlir/Dialect/OpenMP/OpenMPDialect.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_NORMOPENMPLOOPNOWAITPASS
#include "norm/Transforms/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;
using namespace mlir::norm;

namespace {

/// Whether the join at the end of `loop`'s parallel region already orders
/// everything after the loop: the loop is the region's last op before its
/// terminator, and has no reductions (whose combined value a nowait loop
/// would publish without a barrier of its own).
bool endsItsParallelRegion(omp::WsloopOp loop) {
  if (!isa_and_nonnull<omp::ParallelOp>(loop->getParentOp()))
    return false;
  if (!loop.getReductionVars().empty())
    return false;
  return isa_and_nonnull<omp::TerminatorOp>(loop->getNextNode());
}

struct OpenMPLoopNowaitPass
    : public norm::impl::NormOpenMPLoopNowaitPassBase<OpenMPLoopNowaitPass> {
  void runOnOperation() override {
    getOperation()->walk([](omp::WsloopOp loop) {
      if (!loop.getNowait() && endsItsParallelRegion(loop))
        loop.setNowait(true);
    });
  }
};

} // namespace
