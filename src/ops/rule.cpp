#include "ops/rule.h"

#include <algorithm>
#include <array>
#include <stdexcept>

namespace dtf {

std::string_view name(ErrorKind k) {
  switch (k) {
  case ErrorKind::Semantic: return "semantic";
  case ErrorKind::MissingKernel: return "missing-kernel";
  case ErrorKind::ValueDependent: return "value-dependent";
  case ErrorKind::CpuDependent: return "cpu-dependent";
  case ErrorKind::SizeDependent: return "size-dependent";
  }
  return "semantic";
}

std::optional<bool> OpCall::oneDnnTakes(DType d) const {
  if (auto k = cpu()) return dtf::oneDnnTakes(version(), *k, d);
  bool any = false, all = true;
  for (CpuKind k : kCpuKinds) {
    bool takes = dtf::oneDnnTakes(version(), k, d);
    any = any || takes;
    all = all && takes;
  }
  if (any == all) return any;
  return std::nullopt;
}

namespace {

/// "avx512, avx512_fp16": the kinds of CPU on which `onOneDnn` holds for `d`.
std::string kindsWhere(TorchVersion v, DType d, bool onOneDnn) {
  std::string out;
  for (CpuKind k : kCpuKinds)
    if (oneDnnTakes(v, k, d) == onOneDnn) out += (out.empty() ? "" : ", ") + std::string(name(k));
  return out;
}

} // namespace

RuleResult OpCall::byOneDnnPath(DType d, const std::function<RuleResult(bool)> &outcome) const {
  if (auto known = oneDnnTakes(d)) return outcome(*known);
  RuleResult on = outcome(true), off = outcome(false);
  if (!on.ok() && !off.ok()) return off;
  if (on.ok() && off.ok()) {
    if (on.outputs().size() != off.outputs().size()) return on;
    std::vector<Value> joined = on.takeOutputs();
    for (size_t i = 0; i < joined.size(); ++i) joined[i] = Value::join(joined[i], off.outputs()[i]);
    return joined;
  }
  const bool raisesOnOneDnn = !on.ok();
  RuleResult &runs = raisesOnOneDnn ? off : on;
  const RuleError &e = raisesOnOneDnn ? on.error() : off.error();
  std::string_view why = e.message;
  if (std::string prefix = key() + ": "; why.starts_with(prefix)) why.remove_prefix(prefix.size());
  RuleError possible{ErrorKind::CpuDependent,
                     fmt::format("{}: raises on CPUs {} oneDNN's {} path ({}; --cpu decides): {}", key(),
                                 raisesOnOneDnn ? "with" : "without", name(d), kindsWhere(version(), d, raisesOnOneDnn),
                                 why)};
  return RuleResult(runs.takeOutputs(), std::move(possible));
}

size_t OpCall::index(std::string_view name) const {
  int i = schema_.argIndex(name);
  if (i < 0 || static_cast<size_t>(i) >= args_.size())
    throw std::logic_error(key() + ": rule reads argument '" + std::string(name) +
                           "' that its schema lacks");
  return static_cast<size_t>(i);
}

const Value &OpCall::arg(std::string_view name) const { return read(index(name)); }

bool OpCall::isTensor(std::string_view name) const { return read(index(name), kPendingNone).isTensor(); }

bool OpCall::isNone(std::string_view name) const { return read(index(name), kPendingNone).isNone(); }

DType OpCall::dtype(std::string_view name) const {
  const Value &v = read(index(name), kPendingNone | kPendingDtype);
  if (auto d = v.dtype()) return *d;
  throw std::logic_error(key() + ": argument '" + std::string(name) + "' is " + v.str() +
                         ", not a tensor of one dtype");
}

Rank OpCall::rank(std::string_view name) const { return read(index(name), kPendingNone | kPendingRank).rank(); }

std::optional<DType> OpCall::dtypeArg(std::string_view name) const {
  const Value &v = arg(name);
  if (v.isNone()) return std::nullopt;
  if (auto code = v.intValue())
    if (auto d = types_.fromC10Code(*code)) return d;
  throw std::logic_error(key() + ": dtype argument '" + std::string(name) + "' is " + v.str());
}

Rank broadcastRank(std::span<const Rank> ranks) {
  int best = 0;
  bool exact = true, nonZero = false;
  for (Rank r : ranks) {
    if (auto n = r.value()) best = std::max(best, *n);
    else {
      exact = false;
      if (r == Rank::atLeast1()) nonZero = true;
    }
  }
  if (exact) return Rank::exact(best);
  if (nonZero || best > 0) return Rank::atLeast1();
  return Rank::top();
}

Rank broadcastRank(std::initializer_list<Rank> ranks) {
  return broadcastRank(std::span<const Rank>(ranks.begin(), ranks.size()));
}

namespace {
template <typename Names>
DType promoteNamed(const OpCall &call, const Names &names) {
  // On the stack for the usual few names (this runs on every rule call).
  std::array<PromotionOperand, 8> small;
  std::vector<PromotionOperand> large;
  if (names.size() > small.size()) large.resize(names.size());
  std::span<PromotionOperand> ops = large.empty() ? std::span<PromotionOperand>(small) : large;
  size_t n = 0;
  for (const auto &name : names) {
    const Value &v = call.arg(name);
    if (v.isTensor()) {
      ops[n++] = tensorOperand(call.dtype(name), v);
    } else if (v.isNumber()) {
      ops[n++] = {wrappedNumberDType(*v.numKind()), Tier::Wrapped};
    }
  }
  return call.resultType(ops.first(n));
}
} // namespace

DType promoteArgs(const OpCall &call, std::initializer_list<std::string_view> names) { return promoteNamed(call, names); }

DType promoteArgs(const OpCall &call, std::span<const std::string> names) { return promoteNamed(call, names); }

DType OpCall::resultType(std::span<const PromotionOperand> ops) const {
  auto r = types_.resultType(ops);
  if (!r) throw std::logic_error(key() + ": result_type over no operands");
  return *r;
}

DType commonDTypeArgs(const OpCall &call, std::initializer_list<std::string_view> names) {
  if (!call.types().wrappedOnlyKeepStoredDType()) return promoteArgs(call, names);
  std::optional<DType> same;
  for (std::string_view name : names) {
    const Value &v = call.arg(name);
    if (!v.isTensor() && !v.isNumber()) continue;
    if (v.isTensor() && !v.isWrappedNumber()) return promoteArgs(call, names); // no difference then
    // A Python number becomes a wrapped tensor of its stored type (float -> float64).
    const DType d = v.isTensor() ? call.dtype(name) : storedNumberDType(*v.numKind());
    if (same && *same != d) return promoteArgs(call, names);
    same = d;
  }
  return same ? *same : promoteArgs(call, names);
}

DType numberDType(NumKind k) { return wrappedNumberDType(k); }

} // namespace dtf
