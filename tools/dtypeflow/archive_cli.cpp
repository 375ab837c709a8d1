#include "archive_cli.h"

#include "commands.h"
#include "frontends/pt2/serde_enums.h"

#include <fmt/format.h>

#include <map>
#include <set>

namespace dtf::cli {
namespace {

/// A floating or complex dtype, as nn.Module.to(dtype) requires.
DType castTarget(const std::string &option, const std::string &text) {
  auto d = parseDType(text);
  if (!d) throw UsageError(fmt::format("{} {}: unknown dtype", option, text.substr(0, 80)));
  if (!isFloating(*d) && !isComplex(*d))
    throw UsageError(fmt::format("{} {}: a floating or complex dtype is needed (as for Module.to)", option, text));
  return *d;
}

/// The node that defines `v`, as `aten::add.Tensor`.
std::string definedBy(const ir::Graph &g, ir::ValueId v) {
  ir::NodeId def = g.values[v].def;
  if (def == ir::kNoId) return "block parameter";
  const ir::Node &n = g.nodes[def];
  const std::string *pin = g.pinnedOverload(n.kind);
  return pin && !pin->empty() ? fmt::format("{}.{}", g.kindName(n.kind), *pin) : g.kindName(n.kind);
}

} // namespace

void retypeArchiveInputs(const pt2::Program &p, const ir::Graph &g, const ArchiveRetype &retype,
                         refine::Options &opts) {
  std::set<std::string> named;
  for (auto &[name, v] : opts.inputTypes) {
    named.insert(name);
    // `--input x=bfloat16`: the archive's rank and sizes of 1 stay.
    if (!v.isTensor() || !v.rank().isTop()) continue;
    for (ir::ValueId param : g.body().params)
      if (g.values[param].name == name) v = ir::valueOfType(*g.values[param].type, true).withDTypes(v.dtypes());
  }
  auto retypeGroup = [&](const std::string &option, const std::string &dtypeText, auto selected) {
    if (dtypeText.empty()) return;
    DType d = castTarget(option, dtypeText);
    for (const pt2::GraphInput &in : p.inputs) {
      if (!selected(in.kind) || in.value == ir::kNoId || !p.recorded[in.value]) continue;
      const std::string &name = g.values[in.value].name;
      if (named.count(name) || !pt2::isFloatingOrComplexName(p.recorded[in.value]->dtypeName)) continue;
      opts.inputTypes.emplace_back(name, ir::valueOfType(*g.values[in.value].type, true).withDTypes(DTypeSet(d)));
    }
  };
  retypeGroup("--params", retype.params,
              [](pt2::InputKind k) { return k == pt2::InputKind::Parameter || k == pt2::InputKind::Buffer; });
  retypeGroup("--float-inputs", retype.floatInputs, [](pt2::InputKind k) { return k == pt2::InputKind::UserInput; });
}

refine::CheckCounts checkArchive(const std::string &file, const ir::Graph &g, const pt2::Program &p,
                                 const refine::Result &r, std::map<std::string, size_t> &unmodelled,
                                 std::string &lines) {
  refine::CheckCounts counts;
  for (size_t i = 0; i < g.values.size() && i < p.recorded.size(); ++i) {
    const auto v = static_cast<ir::ValueId>(i);
    if (!p.recorded[v] || refine::isInputLike(g, v)) continue;
    const pt2::RecordedTensor &rec = *p.recorded[v];
    if (!rec.dtype) {
      ++unmodelled[rec.dtypeName];
      continue;
    }
    const Value &got = r.values[v];
    switch (refine::checkTensor(*rec.dtype, rec.rank(), got)) {
    case refine::Verdict::Correct: ++counts.correct; break;
    case refine::Verdict::Wrong:
      ++counts.wrong;
      lines += fmt::format("{}: wrong: %{} ({}): recorded {}, inferred {}\n", file, g.values[v].name, definedBy(g, v),
                           rec.str(), got.str());
      break;
    case refine::Verdict::Unknown:
      ++counts.unknown;
      lines += fmt::format("{}: unknown: %{} ({}): inferred {} ({})\n", file, g.values[v].name, definedBy(g, v),
                           got.isBottom() ? "nothing" : got.str(), refine::describe(r.reasons[v]));
      break;
    case refine::Verdict::NotChecked: break;
    }
  }
  return counts;
}

void printArchiveDiagnostics(const std::string &file, const pt2::Program &p) {
  std::map<std::pair<std::string, std::string>, size_t> counted; // (severity, message) -> count, in message order
  for (const refine::Diagnostic &d : p.diagnostics) ++counted[{std::string(refine::name(d.severity)), d.message}];
  for (const auto &[key, n] : counted)
    fmt::print(stderr, "{}: {}: {}{}\n", file, key.first, key.second, n > 1 ? fmt::format(" (x{})", n) : "");
}

} // namespace dtf::cli
