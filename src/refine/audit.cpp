#include "refine/audit.h"

#include "dtype/dtype_system.h"
#include "graph/type_expr.h"
#include "ops/semantics.h"
#include "refine/explain.h"
#include "refine/graph_plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <unordered_set>

namespace dtf::refine {

std::string_view name(ChangeKind k) {
  switch (k) {
  case ChangeKind::Cast: return "cast";
  case ChangeKind::Promotion: return "promotion";
  case ChangeKind::Compute: return "compute";
  case ChangeKind::Result: return "result";
  case ChangeKind::kCount: break;
  }
  return "?";
}

namespace {

/// Significand bits (with the implicit one) of a real floating dtype: the
/// integers up to 2^bits are exact.
int significandBits(DType d) {
  switch (d) {
  case DType::Float16: return 11;
  case DType::BFloat16: return 8;
  case DType::Float32: return 24;
  case DType::Float64: return 53;
  case DType::Float8E5M2:
  case DType::Float8E5M2FNUZ: return 3;
  case DType::Float8E4M3FN:
  case DType::Float8E4M3FNUZ: return 4;
  case DType::Float8E8M0FNU: return 1;
  case DType::Float4E2M1FNx2: return 2;
  default: return 0;
  }
}

bool isSignedIntegral(DType d) {
  return d == DType::Int8 || d == DType::Int16 || d == DType::Int32 || d == DType::Int64;
}

} // namespace

bool exactIn(long double x, DType to) {
  const Category c = category(to);
  if (c == Category::Other) return false;
  if (c == Category::Bool) return x == 0 || x == 1;
  if (std::isnan(x) || std::isinf(x)) return c == Category::Floating || c == Category::Complex;
  const DType real = c == Category::Complex ? toRealValueType(to) : to;
  if (std::fabs(x) > largestValue(real)) return false;
  if (category(real) == Category::Integral) return x == std::trunc(x) && (x >= 0 || isSignedIntegral(real));
  if (x == 0) return true;
  int e = 0;
  long double m = std::frexp(x, &e); // x = m * 2^e, 0.5 <= |m| < 1
  long double scaled = std::ldexp(m, significandBits(real));
  return scaled == std::trunc(scaled);
}

bool convertsExactly(DType from, DType to) {
  if (from == to) return true;
  const Category cf = category(from), ct = category(to);
  if (cf == Category::Other || ct == Category::Other) return false;
  if (cf == Category::Bool) return true;
  if (ct == Category::Bool) return false;
  if (cf == Category::Complex) return ct == Category::Complex && convertsExactly(toRealValueType(from), toRealValueType(to));
  const DType real = ct == Category::Complex ? toRealValueType(to) : to;
  if (cf == Category::Integral) {
    if (category(real) == Category::Integral)
      return largestValue(real) >= largestValue(from) && (!isSignedIntegral(from) || isSignedIntegral(real));
    // exact integers of a float reach 2^significand
    return largestValue(from) <= std::ldexp(1.0L, significandBits(real));
  }
  // floating
  if (category(real) != Category::Floating) return false;
  return significandBits(real) >= significandBits(from) && largestValue(real) >= largestValue(from);
}

namespace {

class Auditor {
public:
  Auditor(const ir::Graph &g, const Result &r, const Options &opts)
      : g(g), r(r), opts(opts), sem(semanticsOf(opts)), plan(g, sem, /*fixedValues=*/false) {}

  AuditReport run() {
    // The tracer records autocast's cast of an operand as aten::to, then the
    // operand passing through aten::_autocast_to_*: such a cast is autocast's.
    for (const ir::Node &node : g.nodes)
      if (g.kindName(node.kind).starts_with("aten::_autocast_to_") && !node.inputs.empty() &&
          g.values[node.inputs[0]].def != ir::kNoId)
        autocastFed_.insert(g.values[node.inputs[0]].def);
    visit(0, 0);
    for (const DtypeChange &c : report.changes) {
      ++report.counts[static_cast<size_t>(c.kind)];
      report.lossy += c.losesPrecision;
    }
    return std::move(report);
  }

private:
  struct Operand {
    ir::ValueId value;
    DType dtype;
    bool scalar; ///< a 0-dim tensor or a Python number: a value, not an array
    bool number; ///< a Python number (its dtype is what its kind contributes)
    std::optional<long double> constant; ///< its value, when it is a constant of the graph
  };

  /// The numeric value of a constant (`prim::Constant[value=2.5]`, `{2.5}`).
  std::optional<long double> constantOf(ir::ValueId v) const {
    ir::NodeId def = g.values[v].def;
    if (def == ir::kNoId || plan.kindClass[g.nodes[def].kind] != KindClass::Constant) return std::nullopt;
    const ir::Attribute *a = g.attr(def, "value");
    if (!a) return std::nullopt;
    if (auto i = a->literal.intValue()) return static_cast<long double>(*i);
    if (auto f = a->literal.floatValue()) return *f;
    return std::nullopt;
  }

  void visit(ir::BlockId b, int depth) {
    if (depth > ir::kMaxNesting) return;
    for (ir::NodeId n : g.blocks[b].nodes) {
      if (givenByFrontend(n)) continue; // a block argument or call result: its dtype changed where it was computed
      node(n);
      for (ir::BlockId inner : g.nodes[n].blocks) visit(inner, depth + 1);
    }
  }

  /// Are `n`'s outputs Options::valueFacts (the frontend's joins), not computed by `n`?
  bool givenByFrontend(ir::NodeId n) const {
    if (opts.valueFacts.empty() || g.nodes[n].outputs.empty()) return false;
    for (ir::ValueId o : g.nodes[n].outputs)
      if (std::none_of(opts.valueFacts.begin(), opts.valueFacts.end(), [&](const auto &f) { return f.first == o; }))
        return false;
    return true;
  }

  void addOperand(ir::ValueId v, std::vector<Operand> &out, int depth = 0) {
    const Value &x = r.values[v];
    if (x.isTensor() && x.dtype()) {
      bool scalar = x.rank() == Rank::exact(0) || x.isWrappedNumber();
      out.push_back({v, *x.dtype(), scalar, false, scalar ? constantOf(v) : std::nullopt});
    } else if (x.isNumber() && x.numKind()) {
      out.push_back({v, wrappedNumberDType(*x.numKind()), true, true, constantOf(v)});
    } else if (x.isList() && depth == 0) {
      ir::NodeId def = g.values[v].def;
      if (def != ir::kNoId && plan.kindClass[g.nodes[def].kind] == KindClass::ListConstruct)
        for (ir::ValueId e : g.nodes[def].inputs) addOperand(e, out, depth + 1);
    }
  }

  /// The value of a `dtype` argument the node passes (not None), as text.
  std::string dtypeArgument(ir::NodeId n) const {
    auto overloads = plan.overloads[g.nodes[n].kind];
    for (const Schema *s : overloads) {
      int i = s->argIndex("dtype");
      if (i < 0 || static_cast<size_t>(i) >= g.nodes[n].inputs.size() || s->args.size() != g.nodes[n].inputs.size())
        continue;
      auto code = r.values[g.nodes[n].inputs[i]].intValue();
      if (!code) continue;
      if (auto d = sem.types().fromC10Code(*code)) return fmt::format("dtype={}", name(*d));
    }
    return {};
  }

  void node(ir::NodeId n) {
    const ir::Node &node = g.nodes[n];
    const KindClass cls = plan.kindClass[node.kind];
    if (cls != KindClass::Op) return;
    ir::ValueId out = ir::kNoId;
    for (ir::ValueId o : node.outputs)
      if (r.values[o].isTensor() && r.values[o].dtype()) {
        out = o;
        break;
      }
    if (out == ir::kNoId) return;
    const DType to = *r.values[out].dtype();
    std::vector<Operand> ops;
    const Schema *s = overloadRun(g, r, n, plan.overloads[node.kind]);
    // Indices, masks and conditions (declared per op: Registry::declareRead)
    // are read, never converted: no promotion of theirs to report.
    for (size_t i = 0; i < node.inputs.size(); ++i)
      if (!s || (i < s->args.size() && isPromotionOperand(s->args[i]) &&
                 !sem.registry().readsOnly(s->name, s->args[i].name)))
        addOperand(node.inputs[i], ops);
    // A scalar operand (0-dim tensor, Python number) converted into the
    // tensors' dtype changes nothing where it is a constant that dtype holds
    // exactly (`x * 0.5` in bfloat16); any other does.
    auto converted = [&](const Operand &o) {
      if (o.number) return category(o.dtype) > category(to) || (o.constant && !exactIn(*o.constant, to));
      if (o.dtype == to) return false;
      return !o.scalar || !o.constant || !exactIn(*o.constant, to);
    };
    bool anyTensor = false, changed = false;
    for (const Operand &o : ops) {
      anyTensor = anyTensor || !o.number;
      changed = changed || converted(o);
    }
    if (!anyTensor || !changed) return; // factories; ops that keep their operands' dtype
    DtypeChange c;
    c.node = n;
    c.output = out;
    c.to = to;
    const std::string &op = g.kindOf(n);
    for (const Operand &o : ops)
      if (converted(o) && !o.number) c.from.emplace_back(o.value, o.dtype);
    bool tensorDtypesDiffer = false, numberOutranks = false;
    std::optional<DType> firstTensor;
    for (const Operand &o : ops) {
      if (o.number) {
        numberOutranks = numberOutranks || (category(o.dtype) > Category::Bool && o.dtype == to);
        continue;
      }
      if (!firstTensor) firstTensor = o.dtype;
      tensorDtypesDiffer = tensorDtypesDiffer || o.dtype != *firstTensor;
    }
    bool allNonIntegral = true;
    for (const Operand &o : ops) allNonIntegral = allNonIntegral && !isIntegral(o.dtype, true);
    // Conversion ops (OpFact::ConvertsDtype): the dtype they give is the
    // point of the op. The flag is on the rule; an op without one by name.
    const OpRule *rule = s ? sem.registry().find(*s) : nullptr;
    if ((rule ? rule->facts : sem.registry().facts(op)).has(OpFact::ConvertsDtype)) {
      c.kind = ChangeKind::Cast;
      c.from.resize(std::min<size_t>(c.from.size(), 1)); // self; dtype/other give the target only
      if (op.find("autocast") != std::string::npos || autocastFed_.count(n)) c.detail = "autocast";
    } else if (isBool(to) || (isIntegral(to, false) && allNonIntegral)) {
      c.kind = ChangeKind::Result;
    } else if ((tensorDtypesDiffer || numberOutranks) && promotesTo(ops) != to && firstTensor == to) {
      // Not a promotion: the op keeps its input's dtype and reads the other
      // operands in theirs (batch_norm of bfloat16 with float32 parameters).
      return;
    } else if (tensorDtypesDiffer || numberOutranks) {
      c.kind = ChangeKind::Promotion;
      if (!tensorDtypesDiffer) c.detail = "by a Python number";
      else if (std::all_of(c.from.begin(), c.from.end(), [&](const auto &f) { return isScalarOperand(ops, f.first); }))
        c.detail = "a 0-dim operand converted into the tensors' dtype";
    } else {
      // Only a Python number converted (`x * 0.9` in float16: 0.9 is rounded): no tensor's dtype changes.
      if (c.from.empty()) return;
      c.kind = ChangeKind::Compute;
      c.detail = dtypeArgument(n);
      if (c.detail.empty() && isIntegral(c.from.front().second, true) && !isIntegral(to, true))
        c.detail = "integer operand, floating result";
      else if (c.detail.empty())
        c.detail = fmt::format("computes in {}", name(to));
    }
    if (c.from.empty() && c.kind != ChangeKind::Result) return;
    if (c.kind != ChangeKind::Result)
      for (const auto &[v, d] : c.from)
        for (const Operand &o : ops)
          if (o.value == v)
            c.losesPrecision = c.losesPrecision || (o.constant ? !exactIn(*o.constant, to) : !convertsExactly(d, to));
    report.changes.push_back(std::move(c));
  }

  /// at::result_type of the operands (nullopt where promotion raises).
  std::optional<DType> promotesTo(const std::vector<Operand> &ops) const {
    std::vector<PromotionOperand> p;
    for (const Operand &o : ops)
      p.push_back({o.dtype, o.number ? Tier::Wrapped : o.scalar ? Tier::ZeroDim : Tier::Dim});
    try {
      return sem.types().resultType(p);
    } catch (const PromotionError &) {
      return std::nullopt;
    }
  }

  static bool isScalarOperand(const std::vector<Operand> &ops, ir::ValueId v) {
    for (const Operand &o : ops)
      if (o.value == v) return o.scalar;
    return false;
  }

  const ir::Graph &g;
  const Result &r;
  const Options &opts;
  const Semantics &sem;
  GraphPlan plan;
  AuditReport report;
  std::unordered_set<ir::NodeId> autocastFed_; ///< casts whose result autocast's own op takes
};

} // namespace

AuditReport audit(const ir::Graph &g, const Result &r, const Options &opts) { return Auditor(g, r, opts).run(); }

} // namespace dtf::refine
