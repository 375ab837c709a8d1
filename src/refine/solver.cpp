#include "refine/solver.h"
#include "refine/eval_memo.h"
#include "refine/huge_pages.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace dtf::refine {

std::string_view name(Severity s) {
  switch (s) {
  case Severity::Error: return "error";
  case Severity::Warning: return "warning";
  case Severity::Note: return "note";
  }
  return "note";
}

std::string_view describe(UnknownReason r) {
  switch (r) {
  case UnknownReason::None: return "known";
  case UnknownReason::NoRule: return "op without rule";
  case UnknownReason::UnknownOp: return "unknown op";
  case UnknownReason::UnknownInput: return "unknown input";
  case UnknownReason::RuleUnknown: return "rule answered unknown";
  case UnknownReason::NoOverload: return "no matching overload";
  case UnknownReason::AmbiguousOverload: return "ambiguous overload";
  case UnknownReason::TooManyUnknowns: return "too many unknowns to enumerate";
  case UnknownReason::LoopBound: return "loop iteration bound";
  case UnknownReason::AfterError: return "result of a dtype error";
  case UnknownReason::BranchJoin: return "branches disagree";
  case UnknownReason::Unsupported: return "unsupported construct";
  case UnknownReason::Unreached: return "unreached";
  case UnknownReason::kCount: break;
  }
  return "?";
}

bool fullyKnown(const Value &v) { return v.isTensor() && v.dtype() && v.rank().isExact(); }

const Semantics &semanticsOf(const Options &opts) {
  if (!opts.semantics)
    throw std::invalid_argument("refine::Options::semantics is not set: hand in the semantics to apply "
                                "(Semantics::shared(TorchVersion::V2_14), or one with user rules)");
  return *opts.semantics;
}


Result refineGraph(const ir::Graph &g, const Options &opts) {
  Result r;
  Solver s(g, opts, r);
  s.run();
  return r;
}

Solver::Solver(const ir::Graph &g, const Options &opts, Result &out)
    : g(g), opts(opts), semantics_(semanticsOf(opts)), out_(out) {
  if (opts.plan && !opts.plan->builtFor(g))
    throw std::invalid_argument("refineGraph: Options::plan was built for another graph (or before this one changed)");
  if (opts.plan && &opts.plan->semantics() != &semantics_)
    throw std::invalid_argument(fmt::format("refineGraph: Options::plan was built for PyTorch {}{}, not {}{}",
                                            opts.plan->semantics().versionName(),
                                            opts.plan->semantics().base() ? " with user rules" : "",
                                            semantics_.versionName(), semantics_.base() ? " with user rules" : ""));
  if (opts.plan && opts.plan->sizes() != opts.sizes)
    throw std::invalid_argument(fmt::format("refineGraph: Options::plan was built for a pass {} sizes, the call is {}",
                                            opts.plan->sizes() ? "with" : "without", opts.sizes ? "with" : "without"));
  if (!opts.plan) ownPlan_.emplace(g, semantics_, /*fixedValues=*/false, opts.sizes);
  plan_ = opts.plan ? opts.plan.get() : &*ownPlan_;
  reserveOnHugePages(out_.values, g.values.size());
  if (!plan_->initialValues.empty()) { // a kept plan: inputs and top-level fixed values in place
    out_.values = plan_->initialValues;
    out_.reasons = plan_->initialReasons;
  } else {
    out_.values.assign(g.values.size(), Value());
    out_.reasons.assign(g.values.size(), UnknownReason::None);
  }
  // Loops re-visit their bodies; past this many node visits they stop
  // iterating and widen instead, so nested loops cannot blow up.
  visitBudget_ = 16 * static_cast<uint64_t>(g.nodes.size()) + 1'000'000;
  if (opts.autocast) autocast_ = AutocastIn{*opts.autocast, semantics_.version()};
  memo_ = opts.memo && !opts.autocast ? opts.memo : makeEvalMemo();
  if (opts.memo) memo_->keepAlive(opts.semantics); // its entries name the semantics' schema spans
  if (!memo_->servesSizes(opts.sizes))
    throw std::invalid_argument(fmt::format("refineGraph: Options::memo holds evaluations {} sizes, the call is {}",
                                            opts.sizes ? "without" : "with", opts.sizes ? "with" : "without"));
  for (auto *scratch : {&args_, &matchArgs_, &wargs_}) scratch->reserve(16); // conv nodes take 13
  argPtrs_.reserve(16);
  if (!opts.valueFacts.empty()) {
    factOf_.assign(g.values.size(), ir::kNoId);
    for (size_t i = 0; i < opts.valueFacts.size(); ++i)
      if (opts.valueFacts[i].first < factOf_.size()) factOf_[opts.valueFacts[i].first] = static_cast<uint32_t>(i);
  }
}

void Solver::run() {
  const auto &params = g.body().params;
  for (size_t i = 0; i < params.size(); ++i) {
    const Value *given = nullptr;
    for (const auto &[name, val] : opts.inputTypes)
      if (name == g.values[params[i]].name) given = &val;
    if (given) set(params[i], opts.sizes ? *given : given->withoutShape());
    else if (plan_->initialValues.empty()) set(params[i], plan_->typedValue(*g.values[params[i]].type));
  }
  visitBlock(0, 0);
  // Whatever is still bottom was never reached. Written types are checked
  // here, on the final states, in one sequential sweep (checking them per
  // visited node cost ~20 % of a 10^6-node refinement in cache misses).
  size_t diagsOfVisits = out_.diagnostics.size();
  for (size_t v = 0; v < out_.values.size(); ++v) {
    const Value &s = out_.values[v];
    if (s.isBottom()) {
      if (g.values[v].type->isTensor()) out_.reasons[v] = UnknownReason::Unreached;
    } else if (opts.reportTypeConflicts && s.isTensor()) {
      checkWrittenType(static_cast<ir::ValueId>(v));
    }
  }
  // Report in node order, as if each node had been checked when visited.
  std::stable_sort(out_.diagnostics.begin() + static_cast<std::ptrdiff_t>(diagsOfVisits), out_.diagnostics.end(),
                   [](const Diagnostic &a, const Diagnostic &b) { return a.node < b.node; });
}

void Solver::set(ir::ValueId v, Value &&val, UnknownReason why) {
  if (isStaleList(v) && !val.isBottom()) {
    val = coarse(v); // may change behind an alias: only its written type is sure
    why = UnknownReason::Unsupported;
  }
  out_.reasons[v] = storedReason(val, why);
  out_.values[v] = std::move(val);
}

void Solver::set(ir::ValueId v, const Value &val, UnknownReason why) {
  if (isStaleList(v) && !val.isBottom()) return set(v, coarse(v), UnknownReason::Unsupported);
  out_.reasons[v] = storedReason(val, why);
  out_.values[v] = val;
}

void Solver::joinInto(ir::ValueId v, const Value &val) {
  if (isStaleList(v)) return; // already as written
  Value j = Value::join(out_.values[v], val);
  if (!(j == out_.values[v])) {
    out_.values[v] = std::move(j);
    mutated_.push_back(v);
  }
}

std::string Solver::diagnosticKey(ir::NodeId n, std::string_view category, std::string_view message) {
  return fmt::format("{}|{}|{}", n, category, message);
}

void Solver::diag(Severity s, ir::NodeId n, std::string category, std::string message, ir::ValueId v) {
  if (uncertain_ > 0 && s == Severity::Error && category == "dtype-error") {
    s = Severity::Warning;
    category = "branch-dtype-error";
    message = "if this branch runs: " + message;
  }
  if (!seen_.insert(diagnosticKey(n, category, message)).second) return;
  Diagnostic d;
  d.severity = s;
  d.category = std::move(category);
  d.message = std::move(message);
  d.node = n;
  d.value = v;
  if (n != ir::kNoId) d.loc = g.nodes[n].loc;
  out_.diagnostics.push_back(std::move(d));
}

Value Solver::coarse(ir::ValueId v) const { return ir::valueOfType(*g.values[v].type, false); }

bool Solver::visitBlock(ir::BlockId b, int depth) {
  if (depth > ir::kMaxNesting) {
    diag(Severity::Error, g.blocks[b].owner, "too-deep",
         fmt::format("blocks nested deeper than {} levels: not analysed", ir::kMaxNesting));
    return true;
  }
  const auto &nodes = g.blocks[b].nodes;
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (b == 0 && plan_->isPreplaced(nodes[i])) continue; // its value is in the initial state
    if (!visitNode(nodes[i], depth)) {
      // prim::RaiseException: the rest of the block never runs.
      for (size_t j = i + 1; j < nodes.size(); ++j)
        for (ir::ValueId o : g.nodes[nodes[j]].outputs) set(o, Value(), UnknownReason::Unreached);
      return false;
    }
  }
  return true;
}

bool Solver::visitNode(ir::NodeId n, int depth) {
  ++visits_;
  switch (kindClass(n)) {
  case KindClass::Raise: return false;
  case KindClass::If: visitIf(n, depth); break;
  case KindClass::Loop: visitLoop(n, depth); break;
  case KindClass::AutocastRegion: visitAutocastRegion(n, depth); break;
  default:
    if (!factOf_.empty() && applyFacts(n)) break;
    if (!transferPrim(n)) transferOp(n);
  }
  return true;
}

bool Solver::applyFacts(ir::NodeId n) {
  const auto &outs = g.nodes[n].outputs;
  bool all = !outs.empty();
  for (ir::ValueId o : outs) all = all && factOf_[o] != ir::kNoId;
  if (!all) return false;
  for (ir::ValueId o : outs) {
    const Value &fact = opts.valueFacts[factOf_[o]].second;
    set(o, opts.sizes ? fact : fact.withoutShape(), UnknownReason::BranchJoin);
  }
  return true;
}

void Solver::markUnreached(ir::BlockId b, int depth) {
  // Values of a dead branch stay bottom; nested blocks too (bounded depth).
  if (depth > ir::kMaxNesting) return;
  for (ir::NodeId n : g.blocks[b].nodes) {
    for (ir::ValueId o : g.nodes[n].outputs) set(o, Value(), UnknownReason::Unreached);
    for (ir::BlockId inner : g.nodes[n].blocks) markUnreached(inner, depth + 1);
  }
}

void Solver::markUnsupported(ir::NodeId n, int depth) {
  // What a construct not analysed defines is unknown, not unreached; nested blocks too (bounded depth).
  if (depth > ir::kMaxNesting) return;
  for (ir::ValueId o : g.nodes[n].outputs) set(o, coarse(o), UnknownReason::Unsupported);
  for (ir::BlockId b : g.nodes[n].blocks)
    for (ir::NodeId inner : g.blocks[b].nodes) markUnsupported(inner, depth + 1);
}

void Solver::visitIf(ir::NodeId n, int depth) {
  const ir::Node &node = g.nodes[n];
  if (node.blocks.size() != 2 || node.inputs.empty()) {
    diag(Severity::Warning, n, "malformed", "prim::If without a condition and two blocks");
    for (ir::ValueId o : node.outputs) set(o, coarse(o), UnknownReason::Unsupported);
    return;
  }
  std::optional<bool> cond = get(node.inputs[0]).boolValue();
  std::vector<Value> joined(node.outputs.size());
  std::vector<bool> branchKnown(node.outputs.size(), true);
  for (int arm = 0; arm < 2; ++arm) {
    ir::BlockId b = node.blocks[arm];
    if (cond && *cond != (arm == 0)) { markUnreached(b, depth + 1); continue; }
    uncertain_ += !cond;
    bool falls = visitBlock(b, depth + 1);
    uncertain_ -= !cond;
    if (!falls) continue; // raising branch contributes nothing
    const auto &rets = g.blocks[b].returns;
    for (size_t i = 0; i < joined.size() && i < rets.size(); ++i) {
      const Value &r = get(rets[i]);
      if (r.isTensor() && !fullyKnown(r)) branchKnown[i] = false;
      joined[i] = Value::join(joined[i], r);
    }
  }
  for (size_t i = 0; i < joined.size(); ++i) {
    UnknownReason why = branchKnown[i] ? UnknownReason::BranchJoin : UnknownReason::UnknownInput;
    set(node.outputs[i], joined[i], why);
  }
}

/// An autocast region inside the program (a .pt2's wrap_with_autocast): its
/// block runs in the region's context (none when the region disables
/// autocast, or as 2.6's torch.export records it: VersionFact::
/// ExportRecordsAutocastRegions), then the program's own context again. Its evaluations go to a
/// memo of their own: a memo's entries hold no context.
void Solver::visitAutocastRegion(ir::NodeId n, int depth) {
  const ir::Node &node = g.nodes[n];
  const std::string spec = node.attrs.size() == 1 && node.attrs[0].text.size() >= 2
                               ? node.attrs[0].text.substr(1, node.attrs[0].text.size() - 2)
                               : std::string("?");
  std::optional<AutocastIn> inner;
  std::string error = "a context the reader could not read";
  if (!spec.empty()) {
    std::optional<AutocastContext> ctx =
        spec == "?" ? std::nullopt : AutocastContext::parse(spec, semantics_.version(), error);
    if (!ctx || node.blocks.size() != 1) {
      if (error.starts_with("--autocast ")) error.erase(0, error.find(": ") + 2); // the spec is named already
      diag(Severity::Warning, n, "autocast-unknown",
           fmt::format("higher_order::wrap_with_autocast({}): {}; its results are unknown", spec, error));
      markUnsupported(n, depth);
      return;
    }
    // What torch.export records (--kernels meta) of 2.6: the region's values as without autocast.
    const bool recordedWithout = semantics_.context().kernels == Kernels::Meta &&
                                 !has(semantics_.version(), VersionFact::ExportRecordsAutocastRegions);
    if (!recordedWithout) inner = AutocastIn{*ctx, semantics_.version()};
  }
  std::swap(autocast_, inner);
  std::shared_ptr<EvalMemo> outerMemo = std::exchange(memo_, makeEvalMemo());
  const bool falls = visitBlock(node.blocks[0], depth + 1);
  memo_ = std::move(outerMemo);
  std::swap(autocast_, inner);
  const auto &rets = g.blocks[node.blocks[0]].returns;
  for (size_t i = 0; i < node.outputs.size(); ++i) {
    if (falls && i < rets.size()) set(node.outputs[i], get(rets[i]), UnknownReason::UnknownInput);
    else set(node.outputs[i], Value(), UnknownReason::Unreached);
  }
}

void Solver::visitLoop(ir::NodeId n, int depth) {
  const ir::Node &node = g.nodes[n];
  // prim::Loop(%max_trip, %cond, %carried...) block0(%i, %carried...) -> (%cond, %carried...)
  if (node.blocks.size() != 1 || node.inputs.size() < 2) {
    diag(Severity::Warning, n, "malformed", "prim::Loop without trip count, condition and a body");
    for (ir::ValueId o : node.outputs) set(o, coarse(o), UnknownReason::Unsupported);
    return;
  }
  const ir::Block &body = g.blocks[node.blocks[0]];
  size_t carried = node.inputs.size() - 2;
  if (body.params.size() != carried + 1 || body.returns.size() != carried + 1 ||
      node.outputs.size() != carried) {
    diag(Severity::Warning, n, "malformed", "prim::Loop whose carried values do not line up");
    for (ir::ValueId o : node.outputs) set(o, coarse(o), UnknownReason::Unsupported);
    return;
  }
  std::vector<Value> state(carried);
  for (size_t i = 0; i < carried; ++i) state[i] = get(node.inputs[i + 2]);
  auto enter = [&] {
    set(body.params[0], Value::number(NumKind::Int));
    for (size_t i = 0; i < carried; ++i) set(body.params[i + 1], state[i], UnknownReason::BranchJoin);
  };
  // The body surely runs once when the trip count is known positive and the condition true.
  auto trips = get(node.inputs[0]).intValue();
  const bool mayNotRun = !(trips && *trips > 0 && get(node.inputs[1]).boolValue() == std::optional<bool>(true));
  uncertain_ += mayNotRun;
  bool converged = false;
  for (int it = 0; it < opts.maxLoopIterations && visits_ < visitBudget_; ++it) {
    enter();
    size_t mark = mutated_.size(), diagMark = out_.diagnostics.size();
    bool falls = visitBlock(node.blocks[0], depth + 1);
    bool same = true;
    for (size_t i = 0; i < carried && falls; ++i) {
      Value next = Value::join(state[i], get(body.returns[i + 1]));
      if (!(next == state[i])) { state[i] = std::move(next); same = false; }
    }
    // Converged when the carried state is stable and the body grew no list
    // defined outside it (lists inside are rebuilt by each visit).
    bool grewOutside = false;
    for (size_t k = mark; k < mutated_.size() && !grewOutside; ++k)
      grewOutside = !definedInside(mutated_[k], node.blocks[0]);
    // This visit was entered with the fixpoint state: its values and
    // diagnostics are the final ones (no second visit needed).
    if (same && !grewOutside) { converged = true; break; }
    dropDiagnosticsFrom(diagMark); // reported on a state that was not the fixpoint
  }
  if (!converged) {
    for (size_t i = 0; i < carried; ++i) state[i] = coarse(node.outputs[i]);
    diag(Severity::Warning, n, "loop-bound",
         fmt::format("loop did not reach a fixpoint within {} iterations; its carried values are left unknown",
                     opts.maxLoopIterations));
    enter(); // the body once more, on the widened state
    visitBlock(node.blocks[0], depth + 1);
  }
  uncertain_ -= mayNotRun;
  for (size_t i = 0; i < carried; ++i) {
    Value fin = converged ? Value::join(state[i], get(body.returns[i + 1])) : state[i];
    set(node.outputs[i], fin, converged ? UnknownReason::BranchJoin : UnknownReason::LoopBound);
  }
}

void Solver::dropDiagnosticsFrom(size_t mark) {
  auto &ds = out_.diagnostics;
  for (size_t i = mark; i < ds.size(); ++i) seen_.erase(diagnosticKey(ds[i].node, ds[i].category, ds[i].message));
  ds.resize(std::min(mark, ds.size()));
}

bool Solver::definedInside(ir::ValueId v, ir::BlockId b) const {
  const ir::ValueInfo &info = g.values[v];
  ir::BlockId cur = info.def != ir::kNoId ? g.nodes[info.def].parent : info.paramOf;
  for (int hops = 0; cur != ir::kNoId && hops <= ir::kMaxNesting + 1; ++hops) {
    if (cur == b) return true;
    ir::NodeId owner = g.blocks[cur].owner;
    if (owner == ir::kNoId) return false;
    cur = g.nodes[owner].parent;
  }
  return false;
}

void Solver::checkWrittenType(ir::ValueId o) {
  const ir::ValueInfo &info = g.values[o];
  const ir::TypeExpr &t = *info.type;
  if (!t.isTensor() || info.def == ir::kNoId) return; // graph and block inputs are given, not inferred
  const Value &v = get(o);
  bool dtypeConflict = t.dtype && !v.dtypes().contains(*t.dtype) && !v.dtypes().empty();
  bool rankConflict = false;
  if (t.rank) {
    Rank r = v.rank();
    rankConflict = r.isExact() ? *r.value() != *t.rank : (r == Rank::atLeast1() && *t.rank == 0);
  }
  if (!dtypeConflict && !rankConflict) return;
  KindClass c = kindClass(info.def);
  if (c == KindClass::Constant || c == KindClass::GetAttr) return; // taken as written
  diag(Severity::Warning, info.def, "type-conflict",
       fmt::format("%{}: written type {} conflicts with inferred {}", info.name, t.text, v.str()), o);
}

} // namespace dtf::refine
