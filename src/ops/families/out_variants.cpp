//===- ops/families/out_variants.cpp - `.out` overloads take X's rule -----===//
//
// Most ops have an `out=` overload (add.out, cat.out, eq.Tensor_out ...):
// the functional overload's arguments, then one `Tensor(a!) out` that the
// op resizes to the result's shape, writes and returns. Its dtype is out's
// own, so when out already has the functional result's dtype the answer is
// that result. Otherwise the op casts into out or raises, and its checks
// are not the functional's (addbmm.out takes a self of another dtype;
// nansum.out wants dtype= to be out's): unknown, not a guess. Left out, as
// measured by the conformance harness: the functionalization copies
// (X_copy.out copies into out, keeping out's shape) and random ops (out's
// shape is kept too).  Runs after every family whose rules it reuses.
//
//===----------------------------------------------------------------------===//
#include "ops/registry.h"
#include "ops/vocabulary.h"

#include <string>
#include <vector>

namespace dtf {

namespace {

/// One trailing mutated tensor argument named `out`, one tensor result.
bool isSingleOutOverload(const Schema &s) {
  if (s.args.empty() || s.returns.size() != 1 || s.varargs) return false;
  const SchemaArg &last = s.args.back();
  if (last.name != "out" || !last.kwargOnly || last.type->kind != SchemaType::Kind::Tensor || !last.type->mutated)
    return false;
  for (size_t i = 0; i + 1 < s.args.size(); ++i)
    if (s.args[i].type->mutated) return false;
  return s.returns[0].type->kind == SchemaType::Kind::Tensor;
}

/// `functional`'s arguments are `out`'s leading ones (names and types) and
/// it returns one fresh tensor.
bool isFunctionalOf(const Schema &functional, const Schema &out) {
  if (functional.args.size() + 1 != out.args.size() || functional.returns.size() != 1 || !functional.inPlace.empty() ||
      functional.returns[0].type->kind != SchemaType::Kind::Tensor || functional.varargs)
    return false;
  for (size_t i = 0; i < functional.args.size(); ++i)
    if (functional.args[i].name != out.args[i].name || functional.args[i].type->str() != out.args[i].type->str())
      return false;
  return true;
}

/// `errorsHold`: the functional's errors are the out overload's too (so
/// far every op's but two, see registerOutVariants).
RuleFn outVariant(const OpRule &functional, bool errorsHold) {
  return [&functional, errorsHold](const OpCall &c) -> RuleResult {
    RuleResult r = functional.fn(c.leading(*functional.schema, c.size() - 1));
    if (!r.ok()) return errorsHold ? r : RuleResult(Value::unknownTensor());
    if (!r.outputs()[0].isTensor()) return Value::unknownTensor();
    const Value &v = r.outputs()[0];
    const DType out = c.dtype("out");
    const bool dtypeArgIsOut = !c.has("dtype") || c.isNone("dtype") || c.dtypeArg("dtype") == out;
    if (dtypeArgIsOut && v.dtype() == out) return v;
    return Value::tensor(DTypeSet::all(), v.rank());
  };
}

} // namespace

void registerOutVariants(Registry &r) {
  std::vector<const OpRule *> functionals;
  for (const auto &[key, rule] : r.rules()) functionals.push_back(&rule);
  for (const OpRule *f : functionals) {
    if (f->family == "random" || f->key.ends_with("_copy") || f->key.find("_copy.") != std::string::npos) continue;
    for (const Schema *s : r.schemas().overloads(f->schema->name)) {
      if (!isSingleOutOverload(*s) || r.find(*s) || !isFunctionalOf(*f->schema, *s)) continue;
      // Measured: addbmm.out takes a self of another dtype, huber_loss.out
      // a result that would not cast to self's dtype.
      bool errorsHold = f->schema->name != "aten::addbmm" && f->schema->name != "aten::huber_loss";
      // One family for them all: its unknowns (out of another dtype) are by design.
      Registry::Entry e = r.add(s->key(), "out_variant", outVariant(*f, errorsHold));
      // Samples: the functional's main set, run once with out of each
      // dtype a result commonly has (one of that dtype is checked, others
      // are unknown): float32, int64, bool (comparisons, any/all) and
      // float64 (float_power).
      std::map<std::string, std::string, std::less<>> main = f->samples.args;
      for (const auto &[arg, spec] : main) e.sample(arg, spec);
      e.sample("out", "float32[2]");
      for (const char *out : {"int64[2]", "bool[2]", "float64[2]"}) {
        main["out"] = out;
        e.variant(main);
      }
      if (!f->samples.skipReason.empty()) e.skipConformance(f->samples.skipReason);
    }
  }
}

} // namespace dtf
