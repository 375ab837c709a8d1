//===- ops/arg_checks.cpp - errors an argument's value alone raises -------===//
#include "ops/arg_checks.h"
#include "ops/vocabulary.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

namespace dtf::checks {
namespace {

RuleError refused(const OpCall &c, std::string_view message, const Value &got) {
  return c.error(ErrorKind::ValueDependent, "{}, got {}", message, got.str());
}

/// A known int, or each known int of a list (unknown elements skipped).
template <typename F>
bool anyKnownInt(const Value &v, F f) {
  if (auto i = v.isNumber() ? v.intValue() : std::nullopt) return f(*i);
  for (const Value &e : v.elements())
    if (auto i = e.isNumber() ? e.intValue() : std::nullopt; i && f(*i)) return true;
  return false;
}

/// A kernel/padding/dilation list's value for spatial dim i (one element: every dim).
std::optional<int64_t> windowAt(const std::vector<int64_t> &v, size_t i) {
  if (v.size() == 1) return v[0];
  return i < v.size() ? std::optional<int64_t>(v[i]) : std::nullopt;
}

} // namespace

RuleFn before(ArgCheck check, RuleFn rule) {
  return [check = std::move(check), rule = std::move(rule)](const OpCall &c) -> RuleResult {
    if (auto e = check(c)) return *std::move(e);
    return rule(c);
  };
}

ArgCheck oneOf(std::string arg, std::vector<std::string> choices) {
  return [arg = std::move(arg), choices = std::move(choices)](const OpCall &c) -> std::optional<RuleError> {
    const Value &v = c.arg(arg);
    auto text = v.isString() ? v.text() : std::nullopt;
    if (!text || std::find(choices.begin(), choices.end(), *text) != choices.end()) return std::nullopt;
    return c.error(ErrorKind::ValueDependent, "{} must be one of '{}', got '{}'", arg, fmt::join(choices, "', '"), *text);
  };
}

ArgCheck numberWithin(std::string arg, double least, double most, std::string message) {
  return [=](const OpCall &c) -> std::optional<RuleError> {
    const Value &v = c.arg(arg);
    auto x = v.floatValue();
    if (!x || (*x >= least && *x <= most)) return std::nullopt; // NaN fails both
    return refused(c, message, v);
  };
}

ArgCheck numberAbove(std::string arg, double bound, std::string message) {
  return [=](const OpCall &c) -> std::optional<RuleError> {
    const Value &v = c.arg(arg);
    auto x = v.floatValue();
    if (!x || *x > bound) return std::nullopt;
    return refused(c, message, v);
  };
}

ArgCheck notEqual(std::string arg, int64_t value, std::string message) {
  return [=](const OpCall &c) -> std::optional<RuleError> {
    const Value &v = c.arg(arg);
    if (!anyKnownInt(v, [&](int64_t i) { return i == value; })) return std::nullopt;
    return refused(c, message, v);
  };
}

ArgCheck positiveElements(std::string arg, std::string message) {
  return [=](const OpCall &c) -> std::optional<RuleError> {
    const Value &v = c.arg(arg);
    for (const Value &e : v.elements())
      if (auto x = e.floatValue(); x && *x <= 0) return refused(c, message, v);
    return std::nullopt;
  };
}

ArgCheck distinctDims(std::string tensor, std::vector<std::string> lists) {
  return [=](const OpCall &c) -> std::optional<RuleError> {
    auto rk = c.rank(tensor).value();
    if (!rk) return std::nullopt;
    for (const std::string &l : lists) {
      auto dims = knownInts(c.arg(l));
      if (!dims) continue;
      std::vector<int> seen;
      for (int64_t d : *dims) {
        auto w = wrapDim(d, *rk);
        if (!w) return std::nullopt; // out of range: infer's generic check says so
        if (std::find(seen.begin(), seen.end(), *w) != seen.end())
          return refused(c, fmt::format("dim {} appears more than once in '{}'", *w, l), c.arg(l));
        seen.push_back(*w);
      }
    }
    return std::nullopt;
  };
}

ArgCheck sameLength(std::string a, std::string b, std::string message) {
  return [=](const OpCall &c) -> std::optional<RuleError> {
    const Value &x = c.arg(a), &y = c.arg(b);
    if (!x.lengthKnown() || !y.lengthKnown() || x.elements().size() == y.elements().size()) return std::nullopt;
    return c.error(ErrorKind::ValueDependent, "{}: {} has {} elements, {} has {}", message, a, x.elements().size(), b,
                   y.elements().size());
  };
}

ArgCheck ordered(std::string low, std::string high, bool strict, std::string message) {
  return [=](const OpCall &c) -> std::optional<RuleError> {
    const Value &h = c.arg(high);
    if (h.isNone()) return std::nullopt;
    std::optional<double> lo = low.empty() ? std::optional<double>(0.0) : c.arg(low).floatValue(), hi = h.floatValue();
    if (!lo || !hi) return std::nullopt;
    const bool ok = strict ? *lo < *hi : *lo <= *hi; // NaN: false
    if (ok) return std::nullopt;
    return c.error(ErrorKind::ValueDependent, "{}, got {}={} and {}={}", message, low.empty() ? "low" : low,
                   low.empty() ? Value::integer(0).str() : c.arg(low).str(), high, h.str());
  };
}

ArgCheck poolWindow(int spatial, bool dilation) {
  return [spatial, dilation](const OpCall &c) -> std::optional<RuleError> {
    const auto n = static_cast<size_t>(spatial);
    for (const char *arg : {"kernel_size", "stride", "padding", "dilation"}) {
      if (!dilation && arg == std::string_view("dilation")) continue;
      const Value &v = c.arg(arg);
      if (!v.lengthKnown()) continue;
      const size_t len = v.elements().size();
      if (len != 1 && len != n && !(len == 0 && arg == std::string_view("stride")))
        return c.error(ErrorKind::ValueDependent, "{} must be a single int or a tuple of {} ints, got {}", arg, n,
                       v.str());
    }
    auto kernel = knownInts(c.arg("kernel_size")), padding = knownInts(c.arg("padding"));
    if (padding && std::any_of(padding->begin(), padding->end(), [](int64_t p) { return p < 0; }))
      return refused(c, "pad must be non-negative", c.arg("padding"));
    if (dilation && anyKnownInt(c.arg("dilation"), [](int64_t d) { return d <= 0; }))
      return refused(c, "dilation should be greater than zero", c.arg("dilation"));
    if (!kernel || !padding || kernel->empty() || padding->empty()) return std::nullopt;
    for (size_t i = 0; i < std::max(kernel->size(), padding->size()); ++i) {
      auto k = windowAt(*kernel, i), p = windowAt(*padding, i);
      if (k && p && *k > 0 && *p > *k / 2)
        return c.error(ErrorKind::ValueDependent, "pad should be at most half of kernel size, but got pad={} and "
                       "kernel_size={}", *p, *k);
    }
    return std::nullopt;
  };
}

ArgCheck padLength(std::string tensor, std::string pad) {
  return [=](const OpCall &c) -> std::optional<RuleError> {
    const Value &p = c.arg(pad);
    if (!p.lengthKnown()) return std::nullopt;
    const size_t n = p.elements().size();
    if (n % 2 != 0) return refused(c, "length of pad must be even", p);
    auto rk = c.rank(tensor).value();
    if (rk && n / 2 > static_cast<size_t>(*rk))
      return c.error(ErrorKind::ValueDependent, "length of pad should be no more than twice the number of dimensions "
                     "of the input: {} pads for {} dims", n, *rk);
    return std::nullopt;
  };
}

ArgCheck rankIn(std::string arg, std::vector<int> ranks, std::string message) {
  return [=](const OpCall &c) -> std::optional<RuleError> {
    if (!c.isTensor(arg)) return std::nullopt;
    auto r = c.rank(arg).value();
    if (!r || std::find(ranks.begin(), ranks.end(), *r) != ranks.end()) return std::nullopt;
    return c.error(ErrorKind::Semantic, "{}, got {} of {} dims", message, arg, *r);
  };
}

ArgCheck rankAtLeast(std::string arg, int least, std::string message) {
  return [=](const OpCall &c) -> std::optional<RuleError> {
    if (!c.isTensor(arg)) return std::nullopt;
    auto r = c.rank(arg).value();
    if (!r || *r >= least) return std::nullopt;
    return c.error(ErrorKind::Semantic, "{}, got {} of {} dims", message, arg, *r);
  };
}

ArgCheck rollShifts() {
  return [](const OpCall &c) -> std::optional<RuleError> {
    const Value &shifts = c.arg("shifts"), &dims = c.arg("dims");
    if (!shifts.lengthKnown() || !dims.lengthKnown()) return std::nullopt;
    const size_t s = shifts.elements().size(), d = dims.elements().size();
    if (s == 0) return c.error(ErrorKind::ValueDependent, "`shifts` required");
    if (s == d || (d == 0 && s == 1)) return std::nullopt;
    return c.error(ErrorKind::ValueDependent, "shifts and dimensions must align. shifts: {}, dims: {}", s, d);
  };
}

} // namespace dtf::checks
