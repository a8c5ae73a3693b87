//===- NormRunSpecs.cpp - norm-run: the norm ops, recorded ------*- C++ -*-===//
//
// Before lowering, norm-run records every norm op of the entry function as
// a CheckSpec: the role of each operand (which function argument or
// returned result it is) and its attributes. Plain data, the records
// outlive the IR: at run time they give the output arguments
// (zero-filled), the check of the argument shapes against each op and,
// with --check, the float64 reference of each op (NormRunCheck.cpp).
//
//===----------------------------------------------------------------------===//

#include "NormRun.h"

#include "norm/Dialect/Norm/IR/NormGradOps.h"
#include "norm/Dialect/Norm/IR/NormNumerics.h"
#include "norm/Dialect/Norm/IR/NormOps.h"
#include "norm/Dialect/Norm/IR/NormQuantization.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <type_traits>
#include <vector>

using namespace mlir;
using namespace normrun;

std::optional<ElemType> normrun::toElemType(Type t) {
  if (t.isF32())
    return ElemType::F32;
  if (t.isF16())
    return ElemType::F16;
  if (t.isBF16())
    return ElemType::BF16;
  return std::nullopt;
}

std::optional<norm::reference::QuantType> normrun::toQuantType(Type t) {
  if (isa<Float8E4M3FNType>(t))
    return norm::reference::QuantType::F8E4M3FN;
  if (isa<Float8E5M2Type>(t))
    return norm::reference::QuantType::F8E5M2;
  if (t.isSignlessInteger(8))
    return norm::reference::QuantType::I8;
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Recording the norm ops
//===----------------------------------------------------------------------===//

namespace {

std::string formatLoc(Location loc) {
  if (auto fl = loc->findInstanceOf<FileLineColLoc>())
    return (fl.getFilename().str() + ":" + std::to_string(fl.getLine()) + ":" +
            std::to_string(fl.getColumn()));
  std::string s;
  llvm::raw_string_ostream os(s);
  loc.print(os);
  return s;
}

/// `v` with memref.cast / tensor.cast stripped.
Value stripCasts(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (!isa<memref::CastOp, tensor::CastOp>(def))
      break;
    v = def->getOperand(0);
  }
  return v;
}

/// Where a returned value goes: the result number and the views from the
/// value to the returned one.
struct Returned {
  unsigned index;
  std::vector<ViewStep> views;
};

/// Walks back from each returned value through casts and the views --check
/// follows (followView): every value on the way is returned, through the
/// views after it (the first return operand wins).
llvm::DenseMap<Value, Returned> collectReturned(func::FuncOp entry) {
  llvm::DenseMap<Value, Returned> returned;
  entry.walk([&](func::ReturnOp ret) {
    if (ret->getParentOp() != entry.getOperation())
      return;
    for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
      std::vector<ViewStep> views;
      Value value = v;
      while (value) {
        returned.try_emplace(value, Returned{static_cast<unsigned>(i), views});
        ViewStep step;
        bool isCast = false;
        value = followView(value.getDefiningOp(), step, isCast);
        if (value && !isCast)
          views.insert(views.begin(), std::move(step));
      }
    }
  });
  return returned;
}

/// The op through which `result` (not returned itself) reaches the return,
/// after the views --check follows: one it cannot follow (an
/// extract_slice, a computation). Null when `result` is not returned
/// through any op.
Operation *
unfollowedOpToReturn(Value result,
                     const llvm::DenseMap<Value, Returned> &returned) {
  SmallVector<Value> work{result};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (Operation *user : v.getUsers()) {
      ViewStep step;
      bool isCast = false;
      if (followView(user, step, isCast) == v) {
        work.push_back(user->getResult(0));
        continue;
      }
      for (Value r : user->getResults())
        if (returned.count(r))
          return user;
    }
  }
  return nullptr;
}

/// The argument number of `v` if it is an argument of `entry`'s body,
/// through casts and, when `views` is given, the views --check follows
/// (recorded into it from the argument to `v`).
std::optional<unsigned> argIndexOf(Value v, Block *entry,
                                   std::vector<ViewStep> *views = nullptr) {
  while (Operation *def = v.getDefiningOp()) {
    ViewStep step;
    bool isCast = false;
    Value source = followView(def, step, isCast);
    if (!source || (!isCast && !views))
      break;
    if (!isCast)
      views->insert(views->begin(), std::move(step));
    v = source;
  }
  auto arg = dyn_cast<BlockArgument>(v);
  if (!arg || arg.getOwner() != entry)
    return std::nullopt;
  return arg.getArgNumber();
}

/// Fills the roles of one op's operands.
class SpecBuilder {
public:
  SpecBuilder(CheckSpec &spec, Operation *op, Block *entry,
              const llvm::DenseMap<Value, Returned> &returned)
      : spec(spec), op(op), entry(entry), returned(returned) {}

  /// An input operand (null when the optional operand is absent), an
  /// argument or views of one.
  void input(Value v, Slot &slot, const char *name) {
    if (!v)
      return;
    std::vector<ViewStep> views;
    if (auto idx = argIndexOf(v, entry, &views)) {
      slot = {Slot::Arg, *idx, std::move(views)};
      return;
    }
    fail(std::string("its ") + name + " operand is not a function argument");
  }

  /// An `outs` operand (the first of `range`, which is empty when absent).
  /// `required`: the op cannot be checked without it.
  void output(MutableOperandRange range, Slot &slot, const char *name,
              bool required) {
    if (range.empty())
      return;
    OpOperand &init = range[0];
    if (isa<BaseMemRefType>(init.get().getType())) {
      if (auto idx = argIndexOf(init.get(), entry)) {
        slot = {Slot::Arg, *idx, {}};
        return;
      }
      // A buffer the function allocates and returns.
      auto it = returned.find(stripCasts(init.get()));
      if (it != returned.end() && it->second.views.empty()) {
        slot = {Slot::Result, it->second.index, {}};
        return;
      }
      if (required)
        fail(std::string("its ") + name +
             " destination is neither a function argument nor returned");
      return;
    }
    auto dps = cast<DestinationStyleOpInterface>(op);
    Value result = dps.getTiedOpResult(&init);
    auto it = returned.find(result);
    if (it != returned.end()) {
      slot = {Slot::Result, it->second.index, it->second.views};
      return;
    }
    if (!required)
      return;
    if (Operation *through = unfollowedOpToReturn(result, returned)) {
      spec.unfollowedView = spec.reason.empty();
      fail(std::string("its ") + name + " result reaches the return only " +
           "through '" + through->getName().getStringRef().str() +
           "', which --check cannot follow (it follows casts, "
           "tensor.expand_shape, tensor.collapse_shape, tensor.reshape, "
           "linalg.transpose and linalg.generic permutation copies)");
    } else {
      fail(std::string("its ") + name + " result is not returned");
    }
  }

private:
  void fail(const std::string &why) {
    if (spec.reason.empty())
      spec.reason = why;
    spec.checkable = false;
  }

  CheckSpec &spec;
  Operation *op;
  Block *entry;
  const llvm::DenseMap<Value, Returned> &returned;
};

/// Which dims of the rotary angles `cos` (null without) broadcast: the
/// static 1s of its type at the op.
void recordAngleBroadcast(Value cos, CheckSpec &spec) {
  if (!cos)
    return;
  for (int64_t size : cast<ShapedType>(cos.getType()).getShape())
    spec.angleBroadcast.push_back(size == 1);
}

template <typename OpT>
void setCommonParams(OpT op, CheckSpec &spec, bool isRms) {
  spec.params.isRms = isRms;
  spec.params.eps = op.getEpsilonValue();
  spec.params.offset = op.getWeightOffsetValue();
  spec.params.epsOutside = op.getEpsMode() == norm::EpsMode::outside_sqrt;
}

/// Records a norm.rms_norm or norm.layer_norm: its kind, attributes and
/// operand roles (β, the mean and `partial` exist on one of the two only).
template <typename OpT>
void recordUnfused(OpT o, CheckSpec &spec, SpecBuilder &b) {
  constexpr bool isRms = std::is_same_v<OpT, norm::RMSNormOp>;
  spec.kind = isRms ? CheckOpKind::RMSNorm : CheckOpKind::LayerNorm;
  setCommonParams(o, spec, isRms);
  if constexpr (isRms)
    spec.params.partial = o.getPartialValue();
  spec.params.castBeforeWeight =
      o.getCastMode() == norm::CastMode::before_weight;
  spec.axis = o.getNormalizedAxis();
  b.input(o.getInput(), spec.x, "input");
  b.input(o.getResidual(), spec.residual, "residual");
  b.input(o.getWeight(), spec.gamma, "weight");
  if constexpr (!isRms)
    b.input(o.getBias(), spec.beta, "bias");
  b.input(o.getCos(), spec.cos, "cos");
  b.input(o.getSin(), spec.sin, "sin");
  recordAngleBroadcast(o.getCos(), spec);
  spec.ropeInterleaved = o.getRopeMode() == norm::RopeMode::interleaved;
  spec.ropeEachStep = o.getRopeRounding() == norm::RopeRounding::each_step;
  b.output(o.getInitMutable(), spec.y, "outs", true);
  b.output(o.getSumInitMutable(), spec.sum, "sum_outs", false);
  if constexpr (!isRms)
    b.output(o.getMeanInitMutable(), spec.mean, "mean_outs", false);
  b.output(o.getRstdInitMutable(), spec.rstd, "rstd_outs", false);
  std::optional<norm::NormQuantization> quant = norm::getNormQuantization(o);
  if (!quant)
    return;
  spec.quant = toQuantType(quant->type);
  spec.groupSize = quant->groupSize;
  spec.scaleMin = quant->scaleMin;
  spec.staticScaled = !quant->isDynamic();
  // A static scale: a constant (f32 or a 0-d splat) or an argument.
  Attribute scale;
  if (quant->scale && matchPattern(quant->scale, m_Constant(&scale))) {
    if (auto f = dyn_cast<FloatAttr>(scale))
      spec.staticScale = f.getValueAsDouble();
    else if (auto d = dyn_cast<DenseFPElementsAttr>(scale); d && d.isSplat())
      spec.staticScale = d.getSplatValue<APFloat>().convertToDouble();
    else
      b.input(quant->scale, spec.scale, "scale");
  } else if (quant->scale) {
    b.input(quant->scale, spec.scale, "scale");
  }
  b.output(o.getScaleInitMutable(), spec.scales, "scale_outs", false);
}

/// Records the input norm of a matmul → norm op (`input_epsilon`): the
/// parameters of the norm → matmul whose C is the op's S.
void recordInputNorm(norm::MatmulRMSNormOp o, CheckSpec &spec, SpecBuilder &b) {
  norm::NormNumerics num = norm::getInputNormNumerics(o);
  norm::reference::NormParams &p = spec.inputParams.emplace();
  p.eps = num.epsilon;
  p.offset = num.weightOffset;
  p.epsOutside = num.epsMode == norm::EpsMode::outside_sqrt;
  p.roundNormalized = num.roundsNormalized;
  p.castBeforeWeight =
      num.roundsNormalized && num.castMode == norm::CastMode::before_weight;
  b.input(o.getInputWeight(), spec.inputGamma, "input_weight");
}

/// Records one of the four fused ops, which have the same operands (β only
/// for LayerNorm).
template <typename OpT>
void recordFused(OpT o, CheckOpKind kind, bool isRms, CheckSpec &spec,
                 SpecBuilder &b) {
  spec.kind = kind;
  setCommonParams(o, spec, isRms);
  spec.transposeRhs = o.getTransposeRhs();
  if constexpr (std::is_same_v<OpT, norm::MatmulRMSNormOp> ||
                std::is_same_v<OpT, norm::MatmulLayerNormOp>) {
    spec.headDim = static_cast<int64_t>(o.getHeadDim().value_or(0));
    if constexpr (std::is_same_v<OpT, norm::MatmulRMSNormOp>) {
      if (o.hasInputNorm())
        recordInputNorm(o, spec, b);
      b.input(o.getCos(), spec.cos, "cos");
      b.input(o.getSin(), spec.sin, "sin");
      recordAngleBroadcast(o.getCos(), spec);
      spec.ropeInterleaved = o.getRopeMode() == norm::RopeMode::interleaved;
      spec.ropeEachStep = o.getRopeRounding() == norm::RopeRounding::each_step;
    }
  } else {
    // norm → matmul: the norm's rounding (cast_mode) and pRMSNorm prefix.
    std::optional<norm::CastMode> castMode = o.getCastMode();
    spec.params.roundNormalized = castMode.has_value();
    spec.params.castBeforeWeight = castMode == norm::CastMode::before_weight;
    if constexpr (std::is_same_v<OpT, norm::RMSNormMatmulOp>)
      spec.params.partial = o.getPartialValue();
  }
  b.input(o.getInput(), spec.x, "input");
  b.input(o.getResidual(), spec.residual, "residual");
  b.input(o.getWeight(), spec.gamma, "weight");
  if constexpr (std::is_same_v<OpT, norm::LayerNormMatmulOp> ||
                std::is_same_v<OpT, norm::MatmulLayerNormOp>)
    b.input(o.getBias(), spec.beta, "bias");
  b.input(o.getRhs(), spec.rhs, "rhs");
  b.input(o.getMatmulBias(), spec.matmulBias, "matmul_bias");
  b.output(o.getInitMutable(), spec.y, "outs", true);
  b.output(o.getSumInitMutable(), spec.sum, "sum_outs", false);
  if constexpr (std::is_same_v<OpT, norm::LayerNormMatmulOp> ||
                std::is_same_v<OpT, norm::MatmulLayerNormOp>)
    b.output(o.getMeanInitMutable(), spec.mean, "mean_outs", false);
  b.output(o.getRstdInitMutable(), spec.rstd, "rstd_outs", false);
}

/// Records a norm.group_norm: statistics per (sample, group), γ/β per
/// channel.
void recordGroupNorm(norm::GroupNormOp o, CheckSpec &spec, SpecBuilder &b) {
  spec.kind = CheckOpKind::GroupNorm;
  spec.params.isRms = false;
  spec.params.eps = o.getEpsilonValue();
  spec.groups = o.getNumGroups();
  b.input(o.getInput(), spec.x, "input");
  b.input(o.getWeight(), spec.gamma, "weight");
  b.input(o.getBias(), spec.beta, "bias");
  b.output(o.getInitMutable(), spec.y, "outs", true);
  b.output(o.getMeanInitMutable(), spec.mean, "mean_outs", false);
  b.output(o.getRstdInitMutable(), spec.rstd, "rstd_outs", false);
}

/// Records a norm.rms_norm_grad or norm.layer_norm_grad: dy, x, the
/// statistics (inputs here) and the three optional results.
template <typename OpT>
void recordGrad(OpT o, CheckSpec &spec, SpecBuilder &b) {
  constexpr bool isRms = std::is_same_v<OpT, norm::RMSNormGradOp>;
  spec.kind = isRms ? CheckOpKind::RMSNormGrad : CheckOpKind::LayerNormGrad;
  setCommonParams(o, spec, isRms);
  if constexpr (isRms)
    spec.params.partial = o.getPartialValue();
  spec.axis = o.getNormalizedAxis();
  b.input(o.getGrad(), spec.dy, "grad");
  b.input(o.getInput(), spec.x, "input");
  b.input(o.getSumGrad(), spec.sumGrad, "sum_grad");
  b.input(o.getWeight(), spec.gamma, "weight");
  if constexpr (!isRms)
    b.input(o.getMean(), spec.mean, "mean");
  b.input(o.getRstd(), spec.rstd, "rstd");
  b.output(o.getInitMutable(), spec.y, "outs", false);
  b.output(o.getWeightGradInitMutable(), spec.weightGrad, "weight_grad_outs",
           false);
  if constexpr (!isRms)
    b.output(o.getBiasGradInitMutable(), spec.biasGrad, "bias_grad_outs",
             false);
}

/// Records `op` into `spec` when it is one of the nine checkable kinds.
/// Returns false for any other op.
bool recordOp(Operation *op, CheckSpec &spec, SpecBuilder &b) {
  return llvm::TypeSwitch<Operation *, bool>(op)
      .Case([&](norm::RMSNormOp o) {
        recordUnfused(o, spec, b);
        return true;
      })
      .Case([&](norm::LayerNormOp o) {
        recordUnfused(o, spec, b);
        return true;
      })
      .Case([&](norm::RMSNormMatmulOp o) {
        recordFused(o, CheckOpKind::RMSNormMatmul, true, spec, b);
        return true;
      })
      .Case([&](norm::LayerNormMatmulOp o) {
        recordFused(o, CheckOpKind::LayerNormMatmul, false, spec, b);
        return true;
      })
      .Case([&](norm::MatmulRMSNormOp o) {
        recordFused(o, CheckOpKind::MatmulRMSNorm, true, spec, b);
        return true;
      })
      .Case([&](norm::MatmulLayerNormOp o) {
        recordFused(o, CheckOpKind::MatmulLayerNorm, false, spec, b);
        return true;
      })
      .Case([&](norm::GroupNormOp o) {
        recordGroupNorm(o, spec, b);
        return true;
      })
      .Case([&](norm::RMSNormGradOp o) {
        recordGrad(o, spec, b);
        return true;
      })
      .Case([&](norm::LayerNormGradOp o) {
        recordGrad(o, spec, b);
        return true;
      })
      .Default([](Operation *) { return false; });
}

} // namespace

std::vector<CheckSpec> normrun::collectNormOps(func::FuncOp entry,
                                               std::vector<bool> &outputArgs) {
  Block *body = &entry.getBody().front();
  outputArgs.assign(entry.getNumArguments(), false);

  // Returned values (through casts and views) -> result number.
  llvm::DenseMap<Value, Returned> returned = collectReturned(entry);

  std::vector<CheckSpec> specs;
  entry.walk([&](Operation *op) {
    if (!isa<norm::NormDialect>(op->getDialect()))
      return;
    // Every destination of a norm op is an output of the function.
    if (auto dps = dyn_cast<DestinationStyleOpInterface>(op))
      for (OpOperand &init : dps.getDpsInitsMutable())
        if (auto idx = argIndexOf(init.get(), body))
          outputArgs[*idx] = true;

    CheckSpec spec;
    spec.opName = op->getName().getStringRef().str();
    spec.location = formatLoc(op->getLoc());
    spec.checkable = true;
    SpecBuilder b(spec, op, body, returned);
    if (!recordOp(op, spec, b))
      return;
    Value input = op->getOperand(0);
    if (auto et =
            toElemType(cast<ShapedType>(input.getType()).getElementType())) {
      spec.elemType = *et;
    } else {
      spec.checkable = false;
      spec.reason = "its element type is not f32, f16 or bf16";
    }
    specs.push_back(std::move(spec));
  });
  return specs;
}
