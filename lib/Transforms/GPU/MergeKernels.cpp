//===- MergeKernels.cpp - one gpu.module per distinct kernel --------------===//
//
// norm-gpu-merge-kernels (Passes.td says what it does): the outlined
// gpu.modules that differ only in their names are merged into the first,
// and the launches of the others retargeted, so that each distinct kernel
// is lowered and compiled to a gpu.binary once.
//
//===----------------------------------------------------------------------===//

#include "norm/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_NORMGPUMERGEKERNELSPASS
#include "norm/Transforms/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;

namespace {

/// `op`'s attributes (inherent ones included) but its symbol name: what a
/// kernel or its module is, whatever outlining called it.
DictionaryAttr attributesButName(Operation *op) {
  NamedAttrList attributes(op->getAttrDictionary());
  attributes.erase(SymbolTable::getSymbolAttrName());
  return attributes.getDictionary(op->getContext());
}

/// A bucket for modules that may be equal (sameModule decides): the
/// module's attributes, and each op's name, attributes and result types,
/// the kernels' names aside.
llvm::hash_code hashModule(gpu::GPUModuleOp module) {
  llvm::hash_code hash = hash_value(attributesButName(module));
  for (Operation &top : module.getBody()->getOperations()) {
    if (!isa<gpu::GPUFuncOp>(top)) {
      hash = llvm::hash_combine(hash,
                                OperationEquivalence::computeHash(
                                    &top, OperationEquivalence::ignoreHashValue,
                                    OperationEquivalence::ignoreHashValue,
                                    OperationEquivalence::IgnoreLocations));
      continue;
    }
    hash = llvm::hash_combine(hash, attributesButName(&top));
    top.walk([&](Operation *op) {
      if (op != &top)
        hash = llvm::hash_combine(hash,
                                  OperationEquivalence::computeHash(
                                      op, OperationEquivalence::ignoreHashValue,
                                      OperationEquivalence::ignoreHashValue,
                                      OperationEquivalence::IgnoreLocations));
    });
  }
  return hash;
}

/// Whether `a` and `b` compile to the same kernels: the same attributes and
/// ops, each gpu.func the same but for its name. Symbols the bodies refer
/// to must have the same names (a renamed callee is a different module).
bool sameModule(gpu::GPUModuleOp a, gpu::GPUModuleOp b) {
  if (attributesButName(a) != attributesButName(b))
    return false;
  auto &aOps = a.getBody()->getOperations();
  auto &bOps = b.getBody()->getOperations();
  if (aOps.size() != bOps.size())
    return false;
  for (auto [x, y] : llvm::zip_equal(aOps, bOps)) {
    auto xFunc = dyn_cast<gpu::GPUFuncOp>(x);
    auto yFunc = dyn_cast<gpu::GPUFuncOp>(y);
    if (!xFunc || !yFunc) {
      if (!OperationEquivalence::isEquivalentTo(
              &x, &y, OperationEquivalence::IgnoreLocations))
        return false;
      continue;
    }
    if (attributesButName(xFunc) != attributesButName(yFunc) ||
        !OperationEquivalence::isRegionEquivalentTo(
            &xFunc.getBody(), &yFunc.getBody(),
            OperationEquivalence::IgnoreLocations))
      return false;
  }
  return true;
}

struct NormGPUMergeKernelsPass
    : public norm::impl::NormGPUMergeKernelsPassBase<NormGPUMergeKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    // Who refers to each gpu.module: the launches are retargeted; a module
    // anything else names is kept.
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(&module.getBodyRegion());
    if (!uses)
      return;
    DenseMap<Operation *, SmallVector<gpu::LaunchFuncOp>> launches;
    DenseSet<Operation *> pinned;
    for (const SymbolTable::SymbolUse &use : *uses) {
      Operation *target = symbols.lookup(use.getSymbolRef().getRootReference());
      if (!isa_and_nonnull<gpu::GPUModuleOp>(target))
        continue;
      auto launch = dyn_cast<gpu::LaunchFuncOp>(use.getUser());
      if (launch && launch.getKernel() == use.getSymbolRef())
        launches[target].push_back(launch);
      else
        pinned.insert(target);
    }
    DenseMap<llvm::hash_code, SmallVector<gpu::GPUModuleOp>> buckets;
    for (gpu::GPUModuleOp candidate :
         llvm::make_early_inc_range(module.getOps<gpu::GPUModuleOp>())) {
      SmallVector<gpu::GPUModuleOp> &bucket = buckets[hashModule(candidate)];
      auto *found = llvm::find_if(bucket, [&](gpu::GPUModuleOp kept) {
        return sameModule(kept, candidate);
      });
      if (found == bucket.end() || pinned.contains(candidate)) {
        bucket.push_back(candidate);
        continue;
      }
      // The kernels pair up in order (sameModule checked it).
      DenseMap<StringAttr, StringAttr> kernelNames;
      for (auto [from, to] :
           llvm::zip_equal(candidate.getBody()->getOperations(),
                           found->getBody()->getOperations()))
        if (auto fromFunc = dyn_cast<gpu::GPUFuncOp>(from))
          kernelNames[SymbolTable::getSymbolName(fromFunc)] =
              SymbolTable::getSymbolName(&to);
      // A launch of something that is not a gpu.func of the module (the
      // verifier's business) keeps the module where it is.
      SmallVector<gpu::LaunchFuncOp> moduleLaunches =
          launches.lookup(candidate);
      if (!llvm::all_of(moduleLaunches, [&](gpu::LaunchFuncOp launch) {
            return kernelNames.contains(launch.getKernelName());
          })) {
        bucket.push_back(candidate);
        continue;
      }
      for (gpu::LaunchFuncOp launch : moduleLaunches) {
        StringAttr kernel = kernelNames.lookup(launch.getKernelName());
        launch.setKernelAttr(SymbolRefAttr::get(
            found->getSymNameAttr(), {FlatSymbolRefAttr::get(kernel)}));
      }
      symbols.erase(candidate);
    }
  }
};

} // namespace
