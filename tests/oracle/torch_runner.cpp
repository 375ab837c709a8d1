#include "torch_runner.h"

#include "frontends/torchscript/torchvision_ops.h"

#include <c10/util/Exception.h>
#include <c10/util/Logging.h>
#include <torch/version.h>

namespace dtf::oracle {

std::shared_ptr<torch::jit::Operator> findTorchOperator(const std::string &key) {
  if (key.starts_with("torchvision::")) torchscript::loadTorchvisionOps();
  std::string name = key, overload;
  size_t sep = key.find("::");
  if (size_t dot = key.find('.', sep); dot != std::string::npos) {
    name = key.substr(0, dot);
    overload = key.substr(dot + 1);
  }
  for (const auto &op : torch::jit::getAllOperatorsFor(c10::Symbol::fromQualString(name)))
    if (op->schema().overload_name() == overload) return op;
  return nullptr;
}

namespace {
Observed observe(const c10::IValue &v) {
  Observed o;
  if (v.isTensor()) {
    o.kind = Observed::Kind::Tensor;
    o.dtype = v.toTensor().scalar_type();
    o.dim = v.toTensor().dim();
    o.sizes = v.toTensor().sizes().vec();
  } else if (v.isList()) {
    // Tensor[] and every other list (int[], float[][] ...), element by element.
    o.kind = v.isTensorList() ? Observed::Kind::TensorList : Observed::Kind::List;
    for (const c10::IValue &e : v.toListRef()) o.elements.push_back(observe(e));
  } else if (v.isInt()) {
    o.kind = Observed::Kind::Int;
    o.intValue = v.toInt();
  } else if (v.isBool()) {
    o.kind = Observed::Kind::Bool;
    o.intValue = v.toBool();
  } else if (v.isDouble()) o.kind = Observed::Kind::Float;
  else if (v.isComplexDouble()) o.kind = Observed::Kind::Complex;
  else if (v.isNone()) o.kind = Observed::Kind::None;
  return o;
}
} // namespace

TorchOutcome runTorch(const torch::jit::Operator &op, std::vector<c10::IValue> args) {
  TorchOutcome out;
  // Copied, not moved: `args` keeps every argument alive through the call.
  // A boxed call pops its arguments before it pushes its results, and the
  // results of an op with several out arguments (max.dim_max's values and
  // indices) are references to those: with the stack holding the only
  // reference, 1.13 frees the out tensors and returns dangling ones.
  torch::jit::Stack stack(args.begin(), args.end());
  try {
    op.getOperation()(stack);
  } catch (const c10::Error &e) {
    out.error = e.what_without_backtrace();
    return out;
  } catch (const std::exception &e) {
    out.error = e.what();
    return out;
  }
  out.ok = true;
  size_t nret = op.schema().returns().size();
  if (op.schema().is_varret()) nret = stack.size();
  for (size_t i = stack.size() - std::min(nret, stack.size()); i < stack.size(); ++i) {
    if (stack[i].isTuple()) {
      for (const auto &e : stack[i].toTupleRef().elements()) out.outputs.push_back(observe(e));
    } else {
      out.outputs.push_back(observe(stack[i]));
    }
  }
  return out;
}

namespace {
c10::IValue toMeta(const c10::IValue &v) {
  if (v.isTensor()) return v.toTensor().to(at::kMeta);
  if (v.isTensorList()) {
    c10::List<at::Tensor> out;
    for (const at::Tensor &t : v.toTensorList()) out.push_back(t.to(at::kMeta));
    return out;
  }
  if (v.isList() && v.toList().elementType()->kind() == c10::TypeKind::OptionalType) {
    c10::List<c10::optional<at::Tensor>> out;
    for (const c10::IValue &e : v.toListRef())
      out.push_back(e.isTensor() ? c10::optional<at::Tensor>(e.toTensor().to(at::kMeta)) : c10::nullopt);
    return out;
  }
  return v;
}
} // namespace

std::vector<c10::IValue> onMeta(const std::vector<c10::IValue> &args) {
  std::vector<c10::IValue> out;
  out.reserve(args.size());
  for (const c10::IValue &a : args) out.push_back(toMeta(a));
  return out;
}

void disableTorchBacktraces() {
#if TORCH_VERSION_MAJOR >= 2
  // 2.x fetches a lazy c10::Backtrace: the default still walks the stack on
  // every throw (symbolizing only if printed). One shared empty value instead.
  static const c10::Backtrace empty = std::make_shared<c10::PrecomputedLazyValue<std::string>>(std::string());
  c10::SetStackTraceFetcher([]() -> c10::Backtrace { return empty; });
#else
  c10::SetStackTraceFetcher([] { return std::string(); });
#endif
}

} // namespace dtf::oracle
