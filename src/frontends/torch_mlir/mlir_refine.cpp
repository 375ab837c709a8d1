#include "frontends/torch_mlir/mlir_refine.h"

#include <map>
#include <optional>
#include <optional>

namespace dtf::torch_mlir {
namespace {

/// The user's input types that name an argument of `g`.
std::vector<std::pair<std::string, Value>> userTypes(const ir::Graph &g, const refine::Options &opts) {
  std::vector<std::pair<std::string, Value>> out;
  for (const auto &[name, v] : opts.inputTypes)
    for (ir::ValueId p : g.body().params)
      if (g.values[p].name == name || "%" + g.values[p].name == name) out.emplace_back(g.values[p].name, v);
  return out;
}

/// What the call sites of private function `callee` pass each untyped
/// argument: the join over every site, kept only when it knows a dtype.
std::vector<std::pair<std::string, Value>> fromCallSites(const Module &m, size_t callee,
                                                         const std::vector<refine::Result> &results) {
  const Function &f = m.functions[callee];
  const auto &params = f.graph->body().params;
  std::vector<std::optional<Value>> joined(params.size());
  bool any = false;
  for (size_t i = 0; i < m.functions.size(); ++i)
    for (const Call &c : m.functions[i].calls) {
      if (c.callee != f.name) continue;
      if (c.args.size() != params.size()) return {}; // not this function's signature: trust nothing
      any = true;
      for (size_t k = 0; k < params.size(); ++k) {
        const Value &v = results[i].values[c.args[k]];
        joined[k] = joined[k] ? Value::join(*joined[k], v) : v;
      }
    }
  std::vector<std::pair<std::string, Value>> out;
  if (!any) return out;
  for (size_t k = 0; k < params.size(); ++k) {
    const ir::ValueInfo &p = f.graph->values[params[k]];
    // Only what the written type leaves open: a written dtype is the function's own word.
    if (p.type->isTensor() && !p.type->dtype && joined[k] && joined[k]->isTensor() && joined[k]->dtype())
      out.emplace_back(p.name, *joined[k]);
  }
  return out;
}

} // namespace

std::vector<refine::Result> refineModule(const Module &m, const refine::Options &opts) {
  std::vector<refine::Result> results;
  std::vector<std::vector<std::pair<std::string, Value>>> sites(m.functions.size());
  auto refineOne = [&](size_t i) {
    refine::Options o = opts;
    o.inputTypes = userTypes(*m.functions[i].graph, opts);
    for (const auto &[name, v] : sites[i]) {
      bool user = false;
      for (const auto &[n, uv] : o.inputTypes) user = user || n == name;
      if (!user) o.inputTypes.emplace_back(name, v);
    }
    return refine::refineGraph(*m.functions[i].graph, o);
  };
  for (size_t i = 0; i < m.functions.size(); ++i) results.push_back(refineOne(i));
  // Call chains settle in as many rounds as they are long; 8 bounds a cycle of calls.
  for (int round = 0; round < 8; ++round) {
    bool changed = false;
    for (size_t j = 0; j < m.functions.size(); ++j) {
      if (!m.functions[j].isPrivate) continue;
      auto now = fromCallSites(m, j, results);
      bool same = now.size() == sites[j].size();
      for (size_t k = 0; same && k < now.size(); ++k)
        same = now[k].first == sites[j][k].first && now[k].second == sites[j][k].second;
      if (same) continue;
      sites[j] = std::move(now);
      results[j] = refineOne(j);
      changed = true;
    }
    if (!changed) break;
  }
  return results;
}

} // namespace dtf::torch_mlir
