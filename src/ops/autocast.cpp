//===- ops/autocast.cpp - autocast's op lists and casts -------------------===//
#include "ops/autocast.h"
#include "dtype/per_version.h"

#include "ops/infer.h"
#include "ops/semantics.h"
#include "schema/schema.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>

#include <array>
#include <sstream>
#include <string>
#include <unordered_map>

namespace dtf {


std::string_view name(AutocastDevice d) { return d == AutocastDevice::CPU ? "cpu" : "cuda"; }

namespace {

constexpr std::array<std::pair<std::string_view, AutocastPolicy>, 8> kPolicyNames{{
    {"lower_precision_fp", AutocastPolicy::LowerPrecisionFp},
    {"fp32", AutocastPolicy::Fp32},
    {"fp32_set_opt_dtype", AutocastPolicy::Fp32SetOptDtype},
    {"fp32_append_dtype", AutocastPolicy::Fp32AppendDtype},
    {"promote", AutocastPolicy::Promote},
    {"banned", AutocastPolicy::Banned},
    {"none", AutocastPolicy::None},
    {"unknown", AutocastPolicy::Unknown},
}};

/// One version's lists: per device, op key -> policy.
struct AutocastLists {
  std::array<std::unordered_map<std::string, AutocastPolicy>, 2> byDevice;
};

AutocastLists parseLists(const char *text) {
  AutocastLists lists;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string device, key, policy;
    fields >> device >> key >> policy;
    auto p = AutocastPolicy::Unknown; // a policy name this build does not know: unknown, never a guess
    for (auto [n, v] : kPolicyNames)
      if (n == policy) p = v;
    lists.byDevice[device == "cuda" ? 1 : 0].emplace(std::move(key), p);
  }
  return lists;
}

const AutocastLists &listsOf(TorchVersion torch) {
  // data/autocast-<V>.txt
  return lazyPerVersion<AutocastLists>(torch, [](TorchVersion v) { return parseLists(embeddedText(EmbeddedData::Autocast, v)); });
}

/// Autocast casts a tensor only when it is eligible: real floating point, not
/// float64 (on the device: assumed, see the header).
bool eligible(DType d) { return isFloating(d) && d != DType::Float64; }

bool isTensorArg(const SchemaType &t) {
  const SchemaType *x = &t;
  if (x->kind == SchemaType::Kind::Optional && x->inner()) x = x->inner();
  if (x->kind == SchemaType::Kind::List && x->inner()) x = x->inner();
  if (x->kind == SchemaType::Kind::Optional && x->inner()) x = x->inner();
  return x->kind == SchemaType::Kind::Tensor;
}

/// `v` (a tensor, or a list of them) with each eligible dtype mapped to `to`.
Value castValue(const Value &v, DType to) {
  if (v.isTensor()) {
    if (v.isWrappedNumber()) return v; // a Python scalar: float64/int64/complex128, never eligible
    DTypeSet out;
    for (DType d : v.dtypes()) out.insert(eligible(d) ? to : d);
    return v.withDTypes(out);
  }
  if (v.isList() && v.lengthKnown()) {
    std::vector<Value> elems;
    for (const Value &e : v.elements()) elems.push_back(castValue(e, to));
    return Value::list(std::move(elems));
  }
  if (v.isList()) return Value::listOf(castValue(v.elementSummary(), to));
  return v;
}

/// Every tensor among the tensor arguments (list elements included); false if one is not known.
bool tensorsOf(const Value &v, std::vector<Value> &out) {
  if (v.isTensor()) { out.push_back(v); return true; }
  if (v.isList() && !v.lengthKnown()) return false;
  if (v.isList() || v.isTuple()) {
    for (const Value &e : v.elements())
      if (!tensorsOf(e, out)) return false;
    return true;
  }
  return v.isNone();
}

} // namespace

std::string_view name(AutocastPolicy p) {
  for (auto [n, v] : kPolicyNames)
    if (v == p) return n;
  return "unknown";
}

std::optional<AutocastContext> AutocastContext::parse(std::string_view spec, TorchVersion torch, std::string &error) {
  const size_t colon = spec.find(':');
  const std::string_view dev = spec.substr(0, colon);
  AutocastContext ctx;
  if (dev == "cpu") ctx.device = AutocastDevice::CPU;
  else if (dev == "cuda") ctx.device = AutocastDevice::CUDA;
  else {
    error = fmt::format("--autocast {}: the device is cpu or cuda (as in cpu:bfloat16)", spec.substr(0, 40));
    return std::nullopt;
  }
  if (colon == std::string_view::npos) {
    // torch.autocast's defaults: bfloat16 on CPU, float16 on CUDA.
    ctx.dtype = ctx.device == AutocastDevice::CPU ? DType::BFloat16 : DType::Float16;
    return ctx;
  }
  auto d = parseDType(spec.substr(colon + 1));
  for (const AutocastContext &c : autocastContexts(torch))
    if (d && c.device == ctx.device && c.dtype == *d) return c;
  std::string takes;
  for (const AutocastContext &c : autocastContexts(torch))
    if (c.device == ctx.device) takes += (takes.empty() ? "" : ", ") + c.spec();
  error = fmt::format("--autocast {}: PyTorch {}'s autocast takes {}", spec.substr(0, 40), name(torch), takes);
  return std::nullopt;
}

std::string AutocastContext::spec() const { return fmt::format("{}:{}", name(device), dtf::name(dtype)); }
std::string AutocastContext::str() const { return fmt::format("autocast({}, {})", name(device), dtf::name(dtype)); }

std::vector<AutocastContext> autocastContexts(TorchVersion torch) {
  // 1.13's CPU autocast takes bfloat16 only (float16 disables it with a warning); 2.x adds float16.
  std::vector<AutocastContext> out{{AutocastDevice::CPU, DType::BFloat16}};
  if (has(torch, VersionFact::CpuAutocastTakesFloat16)) out.push_back({AutocastDevice::CPU, DType::Float16});
  out.push_back({AutocastDevice::CUDA, DType::Float16});
  out.push_back({AutocastDevice::CUDA, DType::BFloat16});
  return out;
}

std::optional<AutocastPolicy> autocastPolicy(TorchVersion torch, AutocastDevice device, std::string_view opKey) {
  const auto &m = listsOf(torch).byDevice[device == AutocastDevice::CUDA];
  auto it = m.find(std::string(opKey));
  if (it == m.end()) return std::nullopt;
  return it->second;
}

size_t autocastListSize(TorchVersion torch, AutocastDevice device) {
  return listsOf(torch).byDevice[device == AutocastDevice::CUDA].size();
}

std::string autocastListsMarkdown(TorchVersion from, TorchVersion to) {
  std::string md = "## Autocast lists\n\nThe ops `torch.autocast` wraps per device and their cast policy "
                   "(data/autocast-*.txt; `--autocast`). Policies per version:\n\n";
  for (AutocastDevice dev : {AutocastDevice::CPU, AutocastDevice::CUDA}) {
    for (TorchVersion v : {from, to}) {
      std::map<std::string_view, size_t> counts;
      for (const auto &[key, p] : listsOf(v).byDevice[dev == AutocastDevice::CUDA]) ++counts[name(p)];
      std::string row;
      for (const auto &[p, n] : counts) row += fmt::format("{}{} {}", row.empty() ? "" : ", ", n, p);
      md += fmt::format("- {} {}: {} ops ({})\n", name(dev), dtf::name(v), autocastListSize(v, dev), row);
    }
    std::vector<std::string> added, removed, changed;
    const auto &a = listsOf(from).byDevice[dev == AutocastDevice::CUDA];
    const auto &b = listsOf(to).byDevice[dev == AutocastDevice::CUDA];
    for (const auto &[key, p] : b) {
      auto it = a.find(key);
      if (it == a.end()) added.push_back(fmt::format("`{}` ({})", key, name(p)));
      else if (it->second != p) changed.push_back(fmt::format("`{}` ({} -> {})", key, name(it->second), name(p)));
    }
    for (const auto &[key, p] : a)
      if (!b.count(key)) removed.push_back(fmt::format("`{}` ({})", key, name(p)));
    for (auto *list : {&added, &removed, &changed}) std::sort(list->begin(), list->end());
    md += fmt::format("\n{}: added in {} ({}): {}\n\nRemoved ({}): {}\n\nPolicy changed ({}): {}\n\n", name(dev),
                      dtf::name(to), added.size(), fmt::join(added, ", "), removed.size(), fmt::join(removed, ", "),
                      changed.size(), fmt::join(changed, ", "));
  }
  return md;
}

AutocastArgs applyAutocast(const AutocastContext &ctx, TorchVersion torch, const Schema &s,
                           std::span<const Value> args) {
  AutocastArgs r;
  auto policy = autocastPolicy(torch, ctx.device, s.key());
  if (!policy) return r;
  r.policy = *policy;
  const size_t n = std::min(args.size(), s.args.size());
  auto castAll = [&](DType to) {
    r.args.assign(args.begin(), args.end());
    for (size_t i = 0; i < n; ++i)
      if (isTensorArg(*s.args[i].type)) r.args[i] = castValue(args[i], to);
    r.status = AutocastArgs::Status::Cast;
  };
  // The first tensor argument (set_opt_dtype and append_dtype decide on it).
  std::optional<size_t> first;
  for (size_t i = 0; i < n && !first; ++i)
    if (s.args[i].type->kind == SchemaType::Kind::Tensor) first = i;
  switch (*policy) {
  case AutocastPolicy::LowerPrecisionFp: castAll(ctx.dtype); return r;
  case AutocastPolicy::Fp32: castAll(DType::Float32); return r;
  case AutocastPolicy::Fp32AppendDtype:
    // Redispatches to the overload taking a dtype, with float32 when the first
    // tensor is eligible: for a real floating input that is the op on it cast to float32.
    if (!first) return r;
    r.args.assign(args.begin(), args.end());
    r.args[*first] = castValue(args[*first], DType::Float32);
    r.status = AutocastArgs::Status::Cast;
    return r;
  case AutocastPolicy::Fp32SetOptDtype: {
    size_t dtypeArg = n;
    for (size_t i = 0; i < n; ++i)
      if (s.args[i].name == "dtype") dtypeArg = i;
    if (!first || dtypeArg == n || !args[dtypeArg].isNone()) return r;
    const DTypeSet ds = args[*first].dtypes();
    bool all = true, any = false;
    for (DType d : ds) {
      any = any || eligible(d);
      all = all && eligible(d);
    }
    if (!any) return r;
    if (!all) {
      r.status = AutocastArgs::Status::Unknown;
      r.message = "the first tensor may or may not be eligible for autocast";
      return r;
    }
    r.args.assign(args.begin(), args.end());
    r.args[dtypeArg] = Value::dtypeCode(DType::Float32);
    r.status = AutocastArgs::Status::Cast;
    return r;
  }
  case AutocastPolicy::Promote: {
    // at::autocast::promote_type: start at the autocast dtype; an eligible
    // float32 makes it float32; an eligible dtype that is neither raises.
    std::vector<Value> tensors;
    for (size_t i = 0; i < n; ++i)
      if (isTensorArg(*s.args[i].type) && !tensorsOf(args[i], tensors)) {
        r.status = AutocastArgs::Status::Unknown;
        r.message = "a tensor list of unknown length";
        return r;
      }
    DType to = ctx.dtype;
    for (const Value &t : tensors) {
      if (t.isWrappedNumber()) continue;
      auto d = t.dtype();
      if (!d) {
        bool anyEligible = false;
        for (DType x : t.dtypes()) anyEligible = anyEligible || eligible(x);
        if (!anyEligible) continue;
        r.status = AutocastArgs::Status::Unknown;
        r.message = "a tensor of unknown dtype decides autocast's promote type";
        return r;
      }
      if (!eligible(*d)) continue;
      if (to == DType::Float32 || *d == DType::Float32) to = DType::Float32;
      else if (*d != ctx.dtype) {
        r.status = AutocastArgs::Status::Raises;
        r.message = "Unexpected floating ScalarType in at::autocast::prioritize";
        return r;
      }
    }
    castAll(to);
    return r;
  }
  case AutocastPolicy::None: return r;
  case AutocastPolicy::Banned:
    r.status = AutocastArgs::Status::Raises;
    r.message = fmt::format("{} is unsafe to autocast (use binary_cross_entropy_with_logits)", s.name);
    return r;
  case AutocastPolicy::Unknown:
    r.status = AutocastArgs::Status::Unknown;
    r.message = fmt::format("{} is wrapped by {}, with a cast policy not known", s.key(), ctx.str());
    return r;
  }
  return r;
}

InferOutcome inferUnderAutocast(const Semantics &sem, const std::optional<AutocastContext> &ctx, const Schema &s,
                                std::span<const Value> args) {
  return inferUnderAutocast(sem.registryFor(s), sem.version(), ctx, s, args);
}

InferOutcome inferUnderAutocast(const Registry &registry, TorchVersion torch, const std::optional<AutocastContext> &ctx,
                                const Schema &s, std::span<const Value> args) {
  if (!ctx) return infer(registry, s, args);
  AutocastArgs cast = applyAutocast(*ctx, torch, s, args);
  switch (cast.status) {
  case AutocastArgs::Status::Unchanged: return infer(registry, s, args);
  case AutocastArgs::Status::Cast: return infer(registry, s, cast.args);
  case AutocastArgs::Status::Raises: {
    InferOutcome out;
    out.status = InferOutcome::Status::Error;
    out.error = RuleError{ErrorKind::Semantic, fmt::format("{}: under {}: {}", s.key(), ctx->str(), cast.message)};
    return out;
  }
  case AutocastArgs::Status::Unknown: break;
  }
  InferOutcome out;
  out.outputs.assign(s.returns.size(), Value::top());
  return out;
}

} // namespace dtf
