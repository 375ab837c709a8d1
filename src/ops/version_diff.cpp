#include "ops/version_diff.h"

#include "ops/cpu_capability.h"
#include "ops/autocast.h"
#include "ops/meta_kernels.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace dtf {
namespace {

std::string outcome(const DTypeSystem &t, std::span<const PromotionOperand> ops) {
  try {
    auto d = t.resultType(ops);
    return d ? std::string(name(*d)) : "none";
  } catch (const PromotionError &e) {
    return fmt::format("error: {}", e.what());
  }
}

std::string promoteOutcome(const DTypeSystem &t, DType a, DType b) {
  try {
    return std::string(name(t.promote(a, b)));
  } catch (const PromotionError &e) {
    return fmt::format("error: {}", e.what());
  }
}

/// Dtypes both versions name, in c10 order.
std::vector<DType> common(const DTypeSystem &a, const DTypeSystem &b) {
  std::vector<DType> out;
  for (DType d : DTypeSet::meet(a.named(), b.named())) out.push_back(d);
  return out;
}

void diffPromotion(const DTypeSystem &f, const DTypeSystem &t, VersionDiff &d) {
  const std::vector<DType> both = common(f, t);
  for (size_t i = 0; i < both.size(); ++i)
    for (size_t j = i; j < both.size(); ++j) {
      std::string x = promoteOutcome(f, both[i], both[j]), y = promoteOutcome(t, both[i], both[j]);
      if (x != y) d.promoteTypes.push_back({fmt::format("promote_types({}, {})", name(both[i]), name(both[j])), x, y});
    }
  // result_type: a rank-1 or 0-dim tensor with a Python number or a 0-dim
  // tensor (the tiers that can overrule a dimensioned tensor's category).
  static constexpr std::pair<NumKind, const char *> kNumbers[] = {
      {NumKind::Bool, "True"}, {NumKind::Int, "2"}, {NumKind::Float, "2.5"}, {NumKind::Complex, "1j"}};
  for (DType a : both)
    for (Tier tier : {Tier::Dim, Tier::ZeroDim}) {
      const char *shape = tier == Tier::Dim ? "r1" : "r0";
      auto record = [&](std::string what, std::span<const PromotionOperand> ops) {
        std::string x = outcome(f, ops), y = outcome(t, ops);
        if (x != y) d.resultType.push_back({std::move(what), x, y});
      };
      for (auto [kind, text] : kNumbers) {
        const PromotionOperand ops[] = {{a, tier}, {wrappedNumberDType(kind), Tier::Wrapped}};
        record(fmt::format("result_type({}:{}, {})", name(a), shape, text), ops);
      }
      for (DType b : both) {
        const PromotionOperand ops[] = {{a, tier}, {b, Tier::ZeroDim}};
        record(fmt::format("result_type({}:{}, {}:r0)", name(a), shape, name(b)), ops);
      }
    }
  if (f.wrappedOnlyKeepStoredDType() != t.wrappedOnlyKeepStoredDType()) {
    auto says = [](const DTypeSystem &s) { return s.wrappedOnlyKeepStoredDType() ? "float64 (the wrapped numbers' stored dtype)" : "float32 (result_type)"; };
    d.facts.push_back({"torch.add(2.5, 1.5): every operand a wrapped number of one dtype", says(f), says(t)});
  }
  for (DType a : both) {
    auto show = [](std::optional<DType> c) { return c ? std::string(name(*c)) : std::string("error"); };
    std::string x = show(f.toComplex(a)), y = show(t.toComplex(a));
    if (x != y) d.facts.push_back({fmt::format("the complex counterpart of {} (toComplexType)", name(a)), x, y});
  }
}

/// The oneDNN table of ops/cpu_capability.cpp, one row per dtype it names.
void diffCpuFacts(TorchVersion f, TorchVersion t, VersionDiff &d) {
  auto kinds = [](TorchVersion v, DType dt) {
    std::string out;
    for (CpuKind k : kCpuKinds)
      if (oneDnnTakes(v, k, dt)) out += (out.empty() ? "" : ", ") + std::string(name(k));
    return out.empty() ? std::string("none") : out;
  };
  for (DType dt : {DType::BFloat16, DType::Float16})
    d.cpuFacts.push_back({fmt::format("kinds of CPU whose oneDNN path takes {} (a convolution's bias, gelu_backward's "
                                      "grad checked there)", name(dt)),
                          kinds(f, dt), kinds(t, dt)});
}

void diffSchemas(const Semantics &f, const Semantics &t, VersionDiff &d) {
  std::map<std::string_view, std::string_view> before, after;
  for (auto [k, text] : f.schemas().declarations()) before.emplace(k, text);
  for (auto [k, text] : t.schemas().declarations()) after.emplace(k, text);
  for (auto [k, text] : after) {
    auto it = before.find(k);
    if (it == before.end()) d.schemasAdded.emplace_back(k);
    else if (it->second != text) d.schemasChanged.push_back({std::string(k), std::string(it->second), std::string(text)});
  }
  for (auto [k, text] : before)
    if (!after.contains(k)) d.schemasRemoved.emplace_back(k);
}

void diffRules(const Registry &f, const Registry &t, VersionDiff &d) {
  for (const auto &[k, rule] : t.rules()) {
    const OpRule *old = f.find(k);
    if (!old) d.rulesAdded.push_back(k);
    else if (rule.since != old->since) d.rulesChanged.push_back({k, old->family, rule.family});
  }
  for (const auto &[k, rule] : f.rules())
    if (!t.find(k)) d.rulesRemoved.push_back(k);
}

} // namespace

VersionDiff diffVersions(const Semantics &from, const Semantics &to) {
  VersionDiff d;
  d.from = from.version();
  d.to = to.version();
  for (DType x : to.types().named())
    if (!from.types().names(x)) d.dtypesAdded.push_back(x);
  for (DType x : from.types().named())
    if (!to.types().names(x)) d.dtypesRemoved.push_back(x);
  diffPromotion(from.types(), to.types(), d);
  diffSchemas(from, to, d);
  diffCpuFacts(from.version(), to.version(), d);
  diffRules(from.registry(), to.registry(), d);
  return d;
}

namespace {

std::string escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += ' ';
    else out += c;
  }
  return out;
}

void changeTable(std::string &md, const std::vector<VersionDiff::Change> &changes, const char *what, std::string_view from,
                 std::string_view to, bool code) {
  if (changes.empty()) {
    md += "None.\n\n";
    return;
  }
  md += fmt::format("| {} | {} | {} |\n|---|---|---|\n", what, from, to);
  const char *q = code ? "`" : "";
  for (const auto &c : changes)
    md += fmt::format("| {0}{1}{0} | {0}{2}{0} | {0}{3}{0} |\n", q, escape(c.what), escape(c.before), escape(c.after));
  md += "\n";
}

void keyList(std::string &md, const std::vector<std::string> &keys, size_t limit) {
  if (keys.empty()) {
    md += "None.\n\n";
    return;
  }
  const size_t n = limit ? std::min(limit, keys.size()) : keys.size();
  for (size_t i = 0; i < n; ++i) md += fmt::format("{}`{}`", i ? ", " : "", keys[i]);
  if (n < keys.size()) md += fmt::format(" ... and {} more", keys.size() - n);
  md += "\n\n";
}

} // namespace

std::string versionDiffMarkdown(const VersionDiff &d, size_t listLimit) {
  const std::string_view f = name(d.from), t = name(d.to);
  std::string md = fmt::format("# PyTorch {} to {}: what dtypeflow models differently\n\n", f, t);
  md += fmt::format("Generated by `dtypeflow versions --from {} --to {} > docs/versions.md` from the two versions' semantics\n"
                    "(dtypes, promotion, schema tables, rule registries); regenerate it with that command.\n\n",
                    f, t);
  md += "| | count |\n|---|---|\n";
  md += fmt::format("| dtypes added / removed | {} / {} |\n", d.dtypesAdded.size(), d.dtypesRemoved.size());
  md += fmt::format("| promote_types changes (dtypes both name) | {} |\n", d.promoteTypes.size());
  md += fmt::format("| result_type changes (tensor with a number or 0-dim tensor) | {} |\n", d.resultType.size());
  md += fmt::format("| other promotion facts changed | {} |\n", d.facts.size());
  md += fmt::format("| operator schemas added / removed / changed | {} / {} / {} |\n", d.schemasAdded.size(),
                    d.schemasRemoved.size(), d.schemasChanged.size());
  md += fmt::format("| rules only in {} / only in {} / registered per version | {} / {} / {} |\n\n", t, f,
                    d.rulesAdded.size(), d.rulesRemoved.size(), d.rulesChanged.size());
  md += fmt::format("## dtypes\n\nNew in {}: ", t);
  for (size_t i = 0; i < d.dtypesAdded.size(); ++i) md += fmt::format("{}`{}`", i ? ", " : "", name(d.dtypesAdded[i]));
  md += d.dtypesAdded.empty() ? "none.\n\n" : ".\n\n";
  if (!d.dtypesRemoved.empty()) {
    md += fmt::format("Gone in {}: ", t);
    for (size_t i = 0; i < d.dtypesRemoved.size(); ++i) md += fmt::format("{}`{}`", i ? ", " : "", name(d.dtypesRemoved[i]));
    md += ".\n\n";
  }
  md += "## promote_types, over the dtypes both versions name\n\n";
  changeTable(md, d.promoteTypes, "pair", f, t, true);
  md += "## result_type\n\n";
  changeTable(md, d.resultType, "operands", f, t, true);
  md += "## Other promotion facts\n\n";
  changeTable(md, d.facts, "fact", f, t, false);
  md += "## What the kind of CPU decides\n\nOutcomes a version does not decide alone (`--cpu`; without it, a possible "
        "error naming the CPUs): `src/ops/cpu_capability.cpp`, kinds in `src/ops/cpu_kinds.def`.\n\n";
  changeTable(md, d.cpuFacts, "fact", f, t, false);
  md += fmt::format("## Rules registered per version\n\nOps whose dtype rule or kernel facts PyTorch changed: a rule "
                    "registered since the version that changed it, side by side in the family file (`Registry::since`).\n\n");
  std::vector<std::string> changed;
  for (const auto &c : d.rulesChanged) changed.push_back(c.what);
  keyList(md, changed, 0);
  md += fmt::format("## Rules only in {} (ops {} added)\n\n", t, t);
  keyList(md, d.rulesAdded, listLimit);
  md += fmt::format("## Rules only in {} (ops {} removed, or whose {} rule is not written yet)\n\n", f, t, t);
  keyList(md, d.rulesRemoved, listLimit);
  md += fmt::format("## Operator schemas\n\nAdded in {} ({}): ", t, d.schemasAdded.size());
  keyList(md, d.schemasAdded, listLimit);
  md += fmt::format("Removed in {} ({}): ", t, d.schemasRemoved.size());
  keyList(md, d.schemasRemoved, listLimit);
  md += fmt::format("Changed ({}; most turn `int` into `SymInt`): ", d.schemasChanged.size());
  std::vector<std::string> keys;
  for (const auto &c : d.schemasChanged) keys.push_back(c.what);
  keyList(md, keys, listLimit);
  md += autocastListsMarkdown(d.from, d.to); // ops/autocast.h
  md += metaKernelsMarkdown(d.from, d.to);   // ops/meta_kernels.h
  return md;
}

} // namespace dtf
