//===- CheckRopeSizes.cpp - the norm-check-rope-sizes pass ---------------===//
//
// A dynamic rotary angle dim is the input's size (never a broadcast); the
// verifier can only check that where both sizes are static. The kernels
// index the angles by the input's rows (the CPU row kernel wraps around a
// shorter table, the decomposition reads past it), so a mismatch would give
// wrong numbers silently. Before each such op this pass compares the sizes
// at run time and, when they differ, writes the op, the operand, the dim and
// both sizes to stderr and aborts. `cf.assert` cannot say it: its message is
// static, and its `puts` writes to stdout, whose buffer `abort` drops when
// stdout is a pipe. `dprintf(2, ...)` writes to the file descriptor at once.
//
//===----------------------------------------------------------------------===//

#include "norm/Dialect/Norm/IR/NormOps.h"
#include "norm/Dialect/Norm/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace mlir {
namespace norm {
#define GEN_PASS_DEF_NORMCHECKROPESIZESPASS
#include "norm/Dialect/Norm/Transforms/Passes.h.inc"
} // namespace norm
} // namespace mlir

using namespace mlir;
using namespace mlir::norm;

namespace {

/// `loc` as a diagnostic starts: file:line:col where it has one.
std::string locationText(Location loc) {
  if (auto file = loc->findInstanceOf<FileLineColLoc>())
    return (file.getFilename().str() + ":" + std::to_string(file.getLine()) +
            ":" + std::to_string(file.getColumn()));
  std::string text;
  llvm::raw_string_ostream os(text);
  os << loc;
  return text;
}

/// `text` with printf's conversion character doubled.
std::string escapePercent(StringRef text) {
  std::string out;
  for (char c : text) {
    out += c;
    if (c == '%')
      out += '%';
  }
  return out;
}

class Checker {
public:
  Checker(ModuleOp module) : module(module), symbols(module) {}

  /// The checks of `op`'s angles `cos`, `sin` against `sizes`, the shape
  /// they are indexed like (static sizes, or kDynamic where `size(d)` gives
  /// the run-time value), `what` naming that shape in the message.
  LogicalResult check(Operation *op, Value cos, Value sin,
                      ArrayRef<int64_t> sizes,
                      function_ref<Value(OpBuilder &, int64_t)> size,
                      StringRef what) {
    ArrayRef<int64_t> angles = cast<ShapedType>(cos.getType()).getShape();
    // The last dim (D) is static and checked by the verifier.
    for (int64_t d = 0, e = static_cast<int64_t>(angles.size()) - 1; d < e;
         ++d) {
      if (angles[d] == 1 || (!ShapedType::isDynamic(angles[d]) &&
                             !ShapedType::isDynamic(sizes[d])))
        continue;
      if (failed(emit(op, cos, "cos", d, size, what)) ||
          failed(emit(op, sin, "sin", d, size, what)))
        return failure();
    }
    return success();
  }

private:
  LogicalResult emit(Operation *op, Value angles, StringRef name, int64_t d,
                     function_ref<Value(OpBuilder &, int64_t)> size,
                     StringRef what) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    Type i32 = b.getI32Type(), i64 = b.getI64Type();
    auto ptr = LLVM::LLVMPointerType::get(b.getContext());
    FailureOr<LLVM::LLVMFuncOp> dprintf = declare(
        op, "dprintf",
        LLVM::LLVMFunctionType::get(i32, {i32, ptr}, /*isVarArg=*/true));
    if (failed(dprintf))
      return failure();
    FailureOr<LLVM::LLVMFuncOp> abort =
        declare(op, "abort",
                LLVM::LLVMFunctionType::get(
                    LLVM::LLVMVoidType::get(b.getContext()), {}));
    if (failed(abort))
      return failure();
    Value have = linalg::createOrFoldDimOp(b, loc, angles, d);
    Value want = size(b, d);
    Value differ =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, have, want);
    auto ifOp = scf::IfOp::create(b, loc, differ, /*withElseRegion=*/false);
    b.setInsertionPointToStart(ifOp.thenBlock());
    std::string message =
        escapePercent(locationText(loc)) + ": error: '" +
        op->getName().getStringRef().str() + "': rope angle operand '" +
        name.str() + "' has size %lld in dim " + std::to_string(d) + ", " +
        what.str() + " has size %lld there (a dynamic angle dim is that " +
        "size, never a broadcast)\n";
    message.push_back('\0');
    Value format = LLVM::createGlobalString(loc, b, uniqueName(), message,
                                            LLVM::Linkage::Internal);
    Value fd = LLVM::ConstantOp::create(b, loc, i32, 2);
    auto toI64 = [&](Value v) {
      return arith::IndexCastOp::create(b, loc, i64, v).getResult();
    };
    LLVM::CallOp::create(b, loc, *dprintf,
                         ValueRange{fd, format, toI64(have), toI64(want)});
    LLVM::CallOp::create(b, loc, *abort, ValueRange{});
    return success();
  }

  /// The C function `name` of type `type` the check calls: the module's
  /// `llvm.func` of that name and type where it has one, else a new
  /// declaration. Another symbol of that name (a `func.func`, a global, an
  /// `llvm.func` of another type) cannot be called as that function and
  /// cannot be declared beside: that is an error at `op`, the op whose check
  /// needs it.
  FailureOr<LLVM::LLVMFuncOp> declare(Operation *op, StringRef name,
                                      LLVM::LLVMFunctionType type) {
    Operation *symbol = symbols.lookup(name);
    if (!symbol) {
      auto builder = OpBuilder::atBlockBegin(module.getBody());
      auto func =
          LLVM::LLVMFuncOp::create(builder, module.getLoc(), name, type);
      symbols.insert(func);
      return func;
    }
    auto func = dyn_cast<LLVM::LLVMFuncOp>(symbol);
    if (func && func.getFunctionType() == type)
      return func;
    InFlightDiagnostic diag =
        op->emitError() << "the rope size check calls '@" << name
                        << "' as the C function " << type
                        << ", but the module's symbol '@" << name << "' is ";
    if (func)
      diag << "an 'llvm.func' of type " << func.getFunctionType();
    else
      diag << "a '" << symbol->getName() << "'";
    diag.attachNote(symbol->getLoc()) << "symbol '@" << name << "' here";
    return diag;
  }

  /// A symbol name for the next message, unused in the module.
  std::string uniqueName() {
    std::string name;
    do
      name = "norm_rope_size_check_" + std::to_string(next++);
    while (symbols.lookup(name));
    return name;
  }

  ModuleOp module;
  SymbolTable symbols;
  unsigned next = 0;
};

struct NormCheckRopeSizesPass
    : public norm::impl::NormCheckRopeSizesPassBase<NormCheckRopeSizesPass> {
  void runOnOperation() override {
    // Collected first: the checks go before the ops.
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (isa<RMSNormOp, LayerNormOp, MatmulRMSNormOp>(op))
        ops.push_back(op);
    });
    Checker checker(getOperation());
    for (Operation *op : ops)
      if (failed(checkOp(checker, op)))
        return signalPassFailure();
  }

  static LogicalResult checkOp(Checker &checker, Operation *op) {
    Location loc = op->getLoc();
    if (std::optional<NormRotary> rotary = getNormRotary(op)) {
      // Against the input.
      Value x = isa<RMSNormOp>(op) ? cast<RMSNormOp>(op).getInput()
                                   : cast<LayerNormOp>(op).getInput();
      return checker.check(
          op, rotary->cos, rotary->sin,
          cast<ShapedType>(x.getType()).getShape(),
          [&](OpBuilder &b, int64_t d) {
            return linalg::createOrFoldDimOp(b, loc, x, d);
          },
          "the input");
    }
    auto fused = dyn_cast<MatmulRMSNormOp>(op);
    if (!fused || !fused.getCos() || !fused.getHeadDim())
      return success();
    // Against the output viewed as [..., H, D]: its leading dims, then the
    // static H and D.
    Value y = fused.getInit();
    auto yType = cast<ShapedType>(y.getType());
    int64_t headDim = static_cast<int64_t>(*fused.getHeadDim());
    SmallVector<int64_t> heads(yType.getShape());
    if (!ShapedType::isDynamic(heads.back()))
      heads.back() /= headDim;
    heads.push_back(headDim);
    int64_t leading = yType.getRank() - 1;
    return checker.check(
        op, fused.getCos(), fused.getSin(), heads,
        [&](OpBuilder &b, int64_t d) -> Value {
          if (d < leading)
            return linalg::createOrFoldDimOp(b, loc, y, d);
          return arith::ConstantIndexOp::create(b, loc, heads[d]);
        },
        "the output viewed as [..., H, D]");
  }
};

} // namespace
