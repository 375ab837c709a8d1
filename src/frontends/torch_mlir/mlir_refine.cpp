#include "frontends/torch_mlir/mlir_refine.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>

namespace dtf::torch_mlir {
namespace {

/// Past this many rounds the module's facts are widened to the written types.
constexpr int kMaxRounds = 64;

/// Grow `into` by `v`; true when it changed.
bool grow(Value &into, const Value &v) {
  Value j = Value::join(into, v);
  if (j == into) return false;
  into = std::move(j);
  return true;
}

Value written(const ir::Graph &g, ir::ValueId v) { return ir::valueOfType(*g.values[v].type, false); }

/// The user's input types that name an argument of `g`.
std::vector<std::pair<std::string, Value>> userTypes(const ir::Graph &g, const refine::Options &opts) {
  std::vector<std::pair<std::string, Value>> out;
  for (const auto &[name, v] : opts.inputTypes)
    for (ir::ValueId p : g.body().params)
      if (g.values[p].name == name || "%" + g.values[p].name == name) out.emplace_back(g.values[p].name, v);
  return out;
}

class ModuleRefiner {
public:
  ModuleRefiner(const Module &m, const refine::Options &opts) : m_(m), opts_(opts), st_(m.functions.size()) {
    resolveCallees();
    markRecursion();
    for (size_t i = 0; i < m_.functions.size(); ++i) initialFacts(i);
    for (size_t j : badSites_) st_[j].called = false;
  }

  RefinedModule run() {
    options_.resize(m_.functions.size());
    std::vector<refine::Result> results(m_.functions.size());
    bool converged = false;
    for (int round = 0; round < kMaxRounds && !converged; ++round) {
      for (size_t i : order_)
        if (st_[i].dirty) {
          results[i] = refineOne(i);
          st_[i].dirty = false;
        }
      converged = !update(results);
    }
    if (!converged) widen(results);
    for (size_t i = 0; i < m_.functions.size(); ++i) callDiagnostics(i, results[i]);
    return {std::move(options_), std::move(results)};
  }

private:
  struct State {
    std::vector<std::vector<Value>> blockArgs;   ///< per CfgBlock, per argument
    std::vector<std::vector<Value>> callResults; ///< per Call, per result
    std::vector<Value> sites;                    ///< per argument: join over call sites (private, called)
    bool called = false;
    bool dirty = true;
  };
  /// Why a call's results keep their written types (empty: they follow the callee).
  struct CallTarget {
    size_t callee = kNone;
    bool passes = false; ///< its arguments line up with the callee's (they may refine a private one)
    bool declared = false; ///< the callee is a declaration: its declared result types are facts, as inputs' are
    std::string why;
  };

  void resolveCallees() {
    std::map<std::pair<int, std::string>, size_t> byName;
    for (size_t i = 0; i < m_.functions.size(); ++i)
      byName.emplace(std::make_pair(m_.functions[i].split, m_.functions[i].name), i);
    targets_.resize(m_.functions.size());
    for (size_t i = 0; i < m_.functions.size(); ++i)
      for (const Call &c : m_.functions[i].calls) {
        CallTarget t;
        auto it = byName.find({m_.functions[i].split, c.callee});
        if (it == byName.end()) {
          t.why = fmt::format("@{} is not defined in this module", c.callee);
        } else {
          t.callee = it->second;
          const Function &f = m_.functions[t.callee];
          t.declared = f.declaration;
          if (f.declaration) t.why = fmt::format("@{} is a declaration (no body)", c.callee);
          else if (c.args.size() != f.graph->body().params.size())
            t.why = fmt::format("@{} takes {} argument(s), the call passes {}", c.callee, f.graph->body().params.size(),
                                c.args.size());
          else if (f.returnSites.empty())
            t.why = fmt::format("@{} never returns", c.callee);
          else if (c.node != ir::kNoId &&
                   m_.functions[i].graph->nodes[c.node].outputs.size() != f.returnSites.front().size())
            t.why = fmt::format("@{} returns {} value(s), the call takes {}", c.callee, f.returnSites.front().size(),
                                m_.functions[i].graph->nodes[c.node].outputs.size());
          t.passes = !f.declaration && c.args.size() == f.graph->body().params.size();
          // A site that does not line up: the callee trusts no site (its arguments as written).
          if (!t.passes && !f.declaration) badSites_.push_back(t.callee);
        }
        targets_[i].push_back(std::move(t));
      }
  }

  /// Tarjan's strongly connected components of the call graph: a call within
  /// one (recursion) keeps its written result types. `order_` lists callees
  /// before their callers, so that most facts are final in the first round.
  void markRecursion() {
    const size_t n = m_.functions.size();
    std::vector<size_t> index(n, kNone), low(n, 0), component(n, kNone), stack;
    std::vector<bool> onStack(n, false);
    size_t next = 0, components = 0;
    std::function<void(size_t)> visit = [&](size_t v) {
      index[v] = low[v] = next++;
      stack.push_back(v);
      onStack[v] = true;
      for (const CallTarget &t : targets_[v]) {
        if (t.callee == kNone) continue;
        if (index[t.callee] == kNone) {
          visit(t.callee);
          low[v] = std::min(low[v], low[t.callee]);
        } else if (onStack[t.callee]) {
          low[v] = std::min(low[v], index[t.callee]);
        }
      }
      if (low[v] != index[v]) return;
      size_t w;
      do {
        w = stack.back();
        stack.pop_back();
        onStack[w] = false;
        component[w] = components;
        order_.push_back(w);
      } while (w != v);
      ++components;
    };
    for (size_t v = 0; v < n; ++v)
      if (index[v] == kNone) visit(v);
    for (size_t i = 0; i < n; ++i)
      for (size_t c = 0; c < targets_[i].size(); ++c) {
        CallTarget &t = targets_[i][c];
        if (t.callee != kNone && t.why.empty() && component[t.callee] == component[i])
          t.why = fmt::format("@{} is in a cycle of calls (recursion)", m_.functions[i].calls[c].callee);
      }
  }

  /// Every fact starts at "not reached", except what follows no branch or
  /// callee: a block entered from an unread op, a call whose callee is not followed.
  void initialFacts(size_t i) {
    const Function &f = m_.functions[i];
    State &s = st_[i];
    for (const CfgBlock &b : f.blocks) {
      s.blockArgs.emplace_back(b.argDefs.size());
      if (b.opaque)
        for (size_t k = 0; k < b.argDefs.size(); ++k) s.blockArgs.back()[k] = written(*f.graph, f.defs[b.argDefs[k]].value);
    }
    for (size_t c = 0; c < f.calls.size(); ++c) {
      ir::NodeId n = f.calls[c].node;
      s.callResults.emplace_back(n == ir::kNoId ? 0 : f.graph->nodes[n].outputs.size());
      if (!targets_[i][c].why.empty())
        for (size_t k = 0; k < s.callResults.back().size(); ++k) {
          ir::ValueId v = f.graph->nodes[n].outputs[k];
          s.callResults.back()[k] = targets_[i][c].declared ? ir::valueOfType(*f.graph->values[v].type, true)
                                                            : written(*f.graph, v);
        }
      if (targets_[i][c].passes) st_[targets_[i][c].callee].called = true;
    }
    if (f.graph) s.sites.resize(f.graph->body().params.size());
  }

  refine::Result refineOne(size_t i) {
    const Function &f = m_.functions[i];
    const State &s = st_[i];
    refine::Options o = opts_;
    o.inputTypes = userTypes(*f.graph, opts_);
    // One function's unbacked u0 would meet another's through calls: named only in a lone function.
    o.unbackedSymbols = o.unbackedSymbols && m_.functions.size() == 1;
    for (const auto &def : f.symbolDefs) o.reservedSymbols.push_back(def.first);
    if (f.isPrivate && s.called) {
      const auto &params = f.graph->body().params;
      for (size_t k = 0; k < params.size(); ++k) {
        const ir::ValueInfo &p = f.graph->values[params[k]];
        bool user = false;
        for (const auto &[n, uv] : o.inputTypes) user = user || n == p.name;
        if (user || !p.type->isTensor() || p.type->dtype) continue; // a written dtype is the function's own word
        const Value &site = s.sites[k];
        // What the sites pass, when it knows a dtype; "not reached" while no site is.
        if (site.isBottom() || (site.isTensor() && site.dtype())) o.inputTypes.emplace_back(p.name, site);
      }
    }
    for (size_t b = 0; b < f.blocks.size(); ++b)
      for (size_t k = 0; k < f.blocks[b].argDefs.size(); ++k)
        o.valueFacts.emplace_back(f.defs[f.blocks[b].argDefs[k]].value, s.blockArgs[b][k]);
    for (size_t c = 0; c < f.calls.size(); ++c)
      if (f.calls[c].node != ir::kNoId)
        for (size_t k = 0; k < s.callResults[c].size(); ++k)
          o.valueFacts.emplace_back(f.graph->nodes[f.calls[c].node].outputs[k], s.callResults[c][k]);
    options_[i] = o;
    return refine::refineGraph(*f.graph, o);
  }

  /// Grow every fact by what the last results say; true when one grew
  /// (the functions that read it are refined again).
  bool update(const std::vector<refine::Result> &results) {
    bool any = false;
    for (size_t i = 0; i < m_.functions.size(); ++i) {
      const Function &f = m_.functions[i];
      State &s = st_[i];
      for (size_t b = 0; b < f.blocks.size(); ++b)
        for (const auto &pred : f.blocks[b].preds)
          for (size_t k = 0; k < pred.size(); ++k)
            if (grow(s.blockArgs[b][k], results[i].values[f.defs[f.uses[pred[k]].def].value])) s.dirty = any = true;
      for (size_t c = 0; c < f.calls.size(); ++c) {
        const CallTarget &t = targets_[i][c];
        if (!t.passes) continue;
        State &callee = st_[t.callee];
        for (size_t k = 0; k < f.calls[c].args.size() && k < callee.sites.size(); ++k)
          if (grow(callee.sites[k], results[i].values[f.calls[c].args[k]]) && m_.functions[t.callee].isPrivate &&
              callee.called)
            callee.dirty = any = true;
        if (!t.why.empty()) continue;
        for (const auto &ret : m_.functions[t.callee].returnSites)
          for (size_t k = 0; k < s.callResults[c].size() && k < ret.size(); ++k)
            if (grow(s.callResults[c][k], results[t.callee].values[ret[k]])) s.dirty = any = true;
      }
    }
    return any;
  }

  /// No fixpoint within kMaxRounds: every fact as written, the module refined once more.
  void widen(std::vector<refine::Result> &results) {
    for (size_t i = 0; i < m_.functions.size(); ++i) {
      const Function &f = m_.functions[i];
      State &s = st_[i];
      for (size_t b = 0; b < f.blocks.size(); ++b)
        for (size_t k = 0; k < f.blocks[b].argDefs.size(); ++k) s.blockArgs[b][k] = written(*f.graph, f.defs[f.blocks[b].argDefs[k]].value);
      for (size_t c = 0; c < f.calls.size(); ++c)
        for (size_t k = 0; k < s.callResults[c].size(); ++k)
          s.callResults[c][k] = written(*f.graph, f.graph->nodes[f.calls[c].node].outputs[k]);
      s.called = false;
    }
    for (size_t i = 0; i < m_.functions.size(); ++i) {
      results[i] = refineOne(i);
      refine::Diagnostic d;
      d.category = "loop-bound";
      d.message = fmt::format("branches and calls of the module did not reach a fixpoint within {} rounds; block "
                              "arguments and call results are taken as written",
                              kMaxRounds);
      d.loc = m_.functions[i].loc;
      if (!m_.functions[i].blocks.empty() || !m_.functions[i].calls.empty()) results[i].diagnostics.push_back(d);
    }
  }

  /// Why each call not followed keeps its written result types.
  void callDiagnostics(size_t i, refine::Result &r) {
    const Function &f = m_.functions[i];
    for (size_t c = 0; c < f.calls.size(); ++c) {
      const CallTarget &t = targets_[i][c];
      if (t.why.empty() || f.calls[c].node == ir::kNoId) continue;
      refine::Diagnostic d;
      d.category = "unsupported-op";
      d.message = fmt::format("func.call: {}; its results are {}", t.why,
                              t.declared ? "as the declaration states them" : "as written (dtype unknown)");
      d.node = f.calls[c].node;
      d.loc = f.calls[c].loc;
      r.diagnostics.push_back(std::move(d));
    }
  }

  const Module &m_;
  const refine::Options &opts_;
  std::vector<State> st_;
  std::vector<std::vector<CallTarget>> targets_; ///< per function, per Call
  std::vector<size_t> order_;                    ///< callees before callers
  std::vector<refine::Options> options_;          ///< per function: what it was last refined under
  std::vector<size_t> badSites_;                 ///< callees some call passes the wrong number of arguments
};

} // namespace

std::vector<refine::Result> refineModule(const Module &m, const refine::Options &opts) {
  return ModuleRefiner(m, opts).run().results;
}

RefinedModule refineModuleWithOptions(const Module &m, const refine::Options &opts) {
  return ModuleRefiner(m, opts).run();
}

} // namespace dtf::torch_mlir
