//===- OutlineKernels.cpp - each distinct kernel op as one function -------===//
//
// norm-outline-kernels: moves every memref-form kernel op (norm ops, linalg
// ops) of the module's functions into a private function, one per
// structurally distinct op (shared by at least min-sites sites), and calls
// it from each site, so that a model that repeats a layer N times generates
// and lowers each kernel once.
//
//===----------------------------------------------------------------------===//

#include "norm/Dialect/Norm/IR/NormDialect.h"
#include "norm/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_NORMOUTLINEKERNELSPASS
#include "norm/Transforms/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;
using namespace mlir::norm;

namespace {

/// A value the kernel may take as a clone rather than as an argument: a
/// constant that is not a buffer (a fill value, a constant captured by a
/// linalg body). The kernels fold such constants (an fpowi exponent becomes
/// multiplies), so they must stay constants in the function.
bool isClonableConstant(Value v) {
  return !isa<BaseMemRefType, TensorType>(v.getType()) &&
         matchPattern(v, m_Constant());
}

/// How `op` becomes a kernel function: its arguments (each distinct
/// non-constant operand once, in operand order) and the constants it uses,
/// or nothing when it stays where it is.
struct KernelSite {
  Operation *op;
  llvm::SetVector<Value> arguments;
  llvm::SetVector<Value> constants;
};

/// A kernel op: a norm or linalg op in destination-passing style on
/// buffers only, whose regions use no value from above but constants.
std::optional<KernelSite> matchKernelSite(Operation *op) {
  Dialect *dialect = op->getDialect();
  if (!dialect || !isa<NormDialect, linalg::LinalgDialect>(dialect))
    return std::nullopt;
  auto dps = dyn_cast<DestinationStyleOpInterface>(op);
  if (!dps || !dps.hasPureBufferSemantics() || op->getNumResults() != 0)
    return std::nullopt;
  KernelSite site{op, {}, {}};
  for (Value v : op->getOperands()) {
    if (isClonableConstant(v))
      site.constants.insert(v);
    else
      site.arguments.insert(v);
  }
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(op->getRegions(), captured);
  for (Value v : captured) {
    if (!isClonableConstant(v))
      return std::nullopt;
    site.constants.insert(v);
  }
  return site;
}

/// The function `site` becomes, detached and unnamed, and the op's clone
/// in it.
struct Kernel {
  func::FuncOp function;
  Operation *op;
};

Kernel buildKernel(const KernelSite &site) {
  Operation *op = site.op;
  SmallVector<Type> argTypes;
  for (Value v : site.arguments)
    argTypes.push_back(v.getType());
  auto function = func::FuncOp::create(
      op->getLoc(), "", FunctionType::get(op->getContext(), argTypes, {}));
  Block *body = function.addEntryBlock();
  OpBuilder b = OpBuilder::atBlockEnd(body);
  IRMapping mapping;
  mapping.map(site.arguments.getArrayRef(), body->getArguments());
  for (Value c : site.constants)
    b.clone(*c.getDefiningOp(), mapping);
  Operation *clone = b.clone(*op, mapping);
  func::ReturnOp::create(b, op->getLoc());
  return {function, clone};
}

/// A bucket for kernels that may be the same function: the argument types
/// and the op (its name and attributes; not its body or operands). The
/// whole body decides (sameKernel).
llvm::hash_code hashKernel(Kernel kernel) {
  return llvm::hash_combine(
      kernel.function.getFunctionType(),
      OperationEquivalence::computeHash(kernel.op,
                                        OperationEquivalence::ignoreHashValue,
                                        OperationEquivalence::ignoreHashValue,
                                        OperationEquivalence::IgnoreLocations));
}

/// The same function: argument types, and the body op for op (attributes,
/// regions, which argument or constant each operand is), locations aside.
bool sameKernel(func::FuncOp a, func::FuncOp b) {
  return a.getFunctionType() == b.getFunctionType() &&
         OperationEquivalence::isRegionEquivalentTo(
             &a.getBody(), &b.getBody(), OperationEquivalence::IgnoreLocations);
}

/// A site and the kernel it calls: an index into the pass's kernels.
struct PlannedSite {
  KernelSite site;
  unsigned kernel;
};

/// A distinct kernel: its function (detached until named) and how many
/// sites share it.
struct DistinctKernel {
  func::FuncOp function;
  unsigned sites = 0;
  bool named = false;
};

struct NormOutlineKernelsPass
    : public norm::impl::NormOutlineKernelsPassBase<NormOutlineKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    // The functions as they are now: the kernels added below are not
    // looked into.
    SmallVector<func::FuncOp> functions(module.getOps<func::FuncOp>());
    // Every site of every function first: whether a kernel is outlined
    // depends on how many sites of the module share it (min-sites).
    DenseMap<llvm::hash_code, SmallVector<unsigned>> buckets;
    SmallVector<DistinctKernel> kernels;
    SmallVector<SmallVector<PlannedSite>> plans;
    for (func::FuncOp function : functions) {
      SmallVector<PlannedSite> &plan = plans.emplace_back();
      function.walk<WalkOrder::PreOrder>([&](Operation *op) {
        std::optional<KernelSite> site = matchKernelSite(op);
        if (!site)
          return WalkResult::advance();
        Kernel candidate = buildKernel(*site);
        SmallVector<unsigned> &bucket = buckets[hashKernel(candidate)];
        auto *found = llvm::find_if(bucket, [&](unsigned existing) {
          return sameKernel(kernels[existing].function, candidate.function);
        });
        unsigned index;
        if (found != bucket.end()) {
          index = *found;
          candidate.function.erase();
        } else {
          index = kernels.size();
          kernels.push_back({candidate.function});
          bucket.push_back(index);
        }
        ++kernels[index].sites;
        plan.push_back({std::move(*site), index});
        return WalkResult::skip();
      });
    }
    unsigned numKernels = 0;
    for (auto [function, plan] : llvm::zip_equal(functions, plans)) {
      // New kernels go after the function that first calls them, in the
      // order of their first call.
      Operation *insertAfter = function;
      llvm::SetVector<Value> constants;
      for (PlannedSite &planned : plan) {
        DistinctKernel &distinct = kernels[planned.kernel];
        if (distinct.sites < minSites)
          continue;
        const KernelSite &site = planned.site;
        func::FuncOp kernel = distinct.function;
        if (!distinct.named) {
          std::string kind = site.op->getName().getStringRef().str();
          llvm::replace(kind, '.', '_');
          kernel.setSymName("__norm_kernel_" + std::to_string(numKernels++) +
                            "_" + kind);
          kernel.setPrivate();
          // convert-func-to-llvm gives a private function external
          // linkage unless told otherwise (the attribute it reads).
          kernel->setAttr(
              "llvm.linkage",
              LLVM::LinkageAttr::get(&getContext(), LLVM::Linkage::Internal));
          symbols.insert(kernel, std::next(Block::iterator(insertAfter)));
          insertAfter = kernel;
          distinct.named = true;
        }
        OpBuilder b(site.op);
        auto call = func::CallOp::create(b, site.op->getLoc(), kernel,
                                         site.arguments.getArrayRef());
        // The point is to compile each kernel once: an inliner must not
        // copy it back into every caller.
        call.setNoInline(true);
        site.op->erase();
        constants.insert(site.constants.begin(), site.constants.end());
      }
      // The constants the kernels took with them, where nothing else in
      // the caller uses them.
      for (Value c : constants)
        if (c.use_empty() && isOpTriviallyDead(c.getDefiningOp()))
          c.getDefiningOp()->erase();
    }
    // The kernels too few sites share, never inserted.
    for (DistinctKernel &distinct : kernels)
      if (!distinct.named)
        distinct.function.erase();
  }
};

} // namespace
