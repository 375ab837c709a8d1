//===- ops/families/out_variants.cpp - `.out` overloads take X's rule -----===//
//
// Most ops have an `out=` overload (add.out, cat.out, eq.Tensor_out ...):
// the functional overload's arguments, then one `Tensor(a!) out` (or one
// per result: max.dim_max's `max, indices`) that the op resizes to the
// result's shape, writes and returns. Its dtype is out's own, so when every
// out already has its result's dtype the answer is the functional's.
// Otherwise the op casts into out or raises, and its checks are not the
// functional's (addbmm.out takes a self of another dtype; nansum.out wants
// dtype= to be out's; max.dim_max wants int64 indices): unknown, not a
// guess (intoOutArguments). Left out, as measured by the conformance
// harness: the functionalization copies (X_copy.out copies into out,
// keeping out's shape) and random ops (out's shape is kept too). Runs
// after every family whose rules it reuses. Quirks of one out overload are
// op facts declared by key beside its functional's rule.
//
//===----------------------------------------------------------------------===//
#include "dtype/promotion.h"
#include "ops/registry.h"
#include "ops/vocabulary.h"

#include <string>
#include <vector>

namespace dtf {

namespace {

/// How many trailing arguments are the overload's outputs: keyword-only
/// mutated tensors (`out`; `grad_input`; `values, indices` ...), one per tensor
/// result, no other argument mutated. 0: not an out overload.
size_t outArgCount(const Schema &s) {
  if (s.varargs || s.returns.empty()) return 0;
  const size_t k = s.returns.size();
  if (s.args.size() < k) return 0;
  for (size_t i = 0; i < s.args.size(); ++i) {
    const SchemaType &t = *s.args[i].type;
    const bool isOut = i >= s.args.size() - k;
    if (t.mutated != isOut) return 0;
    if (isOut && (!s.args[i].kwargOnly || t.kind != SchemaType::Kind::Tensor)) return 0;
  }
  for (const SchemaArg &r : s.returns)
    if (r.type->kind != SchemaType::Kind::Tensor) return 0;
  return k;
}

/// `functional`'s arguments are `out`'s leading ones (names and types) and
/// it returns as many fresh tensors as `out` has output arguments.
bool isFunctionalOf(const Schema &functional, const Schema &out, size_t numOut) {
  if (functional.args.size() + numOut != out.args.size() || functional.returns.size() != numOut ||
      !functional.inPlace.empty() || functional.varargs)
    return false;
  for (const SchemaArg &r : functional.returns)
    if (r.type->kind != SchemaType::Kind::Tensor || r.type->mutated) return false;
  for (size_t i = 0; i < functional.args.size(); ++i)
    if (functional.args[i].name != out.args[i].name || functional.args[i].type->str() != out.args[i].type->str())
      return false;
  return true;
}

/// `errorsHold`: the functional's errors are the out overload's too (so
/// far every op's but a few: OpFact::OutErrorsOwn).
RuleFn outVariant(const OpRule &functional, size_t numOut, bool errorsHold) {
  return [&functional, numOut, errorsHold](const OpCall &c) -> RuleResult {
    const RuleResult unknown(std::vector<Value>(numOut, Value::unknownTensor()));
    RuleResult r = unknown;
    try {
      r = functional.fn(c.leading(*functional.schema, c.size() - numOut));
    } catch (const PromotionError &) { // a promotion the functional makes raises
      if (errorsHold) throw;
      return unknown;
    }
    if (!r.ok()) return errorsHold ? r : unknown;
    std::optional<RuleError> possible = r.possibleError(); // a CPU-dependent error holds for the out overload too
    RuleResult out = intoOutArguments(c, r.takeOutputs(), numOut);
    if (!possible || !out.ok()) return out;
    return RuleResult(out.takeOutputs(), std::move(*possible));
  };
}

} // namespace

void registerOutVariants(Registry &r) {
  std::vector<const OpRule *> functionals;
  for (const auto &[key, rule] : r.rules()) functionals.push_back(&rule);
  for (const OpRule *f : functionals) {
    if (f->family == "random" || f->key.ends_with("_copy") || f->key.find("_copy.") != std::string::npos) continue;
    for (const Schema *s : r.schemas().overloads(f->schema->name)) {
      const size_t numOut = outArgCount(*s);
      if (numOut == 0 || r.find(*s) || !isFunctionalOf(*f->schema, *s, numOut)) continue;
      // Quirks of one out overload, declared by key where its functional is
      // registered (OpFact::NoOutRule, OpFact::OutErrorsOwn).
      const std::string key = s->key();
      const OpFacts facts = r.facts(key);
      if (facts.has(OpFact::NoOutRule)) continue;
      const bool errorsHold = !facts.has(OpFact::OutErrorsOwn);
      // One family for them all: its unknowns (out of another dtype) are by design.
      Registry::Entry e = r.add(key, "out_variant", outVariant(*f, numOut, errorsHold));
      // Samples: the functional's main set, run once with the outputs of
      // each dtype a result commonly has (one of that dtype is checked,
      // others are unknown): float32, int64, bool (comparisons, any/all)
      // and float64 (float_power); with several outputs also float32
      // values and int64 others (max.dim_max, sort.values, topk.values).
      std::map<std::string, std::string, std::less<>> main = f->samples.args;
      for (const auto &[arg, spec] : main) e.sample(arg, spec);
      const size_t first = s->args.size() - numOut;
      for (size_t i = first; i < s->args.size(); ++i) e.sample(s->args[i].name, "float32[2]");
      std::vector<std::vector<const char *>> outs = {{"int64[2]"}, {"bool[2]"}, {"float64[2]"}};
      if (numOut > 1) outs.push_back({"float32[2]", "int64[2]"});
      for (const std::vector<const char *> &dtypes : outs) {
        for (size_t i = first; i < s->args.size(); ++i) main[s->args[i].name] = dtypes[i == first ? 0 : dtypes.size() - 1];
        e.variant(main);
      }
      if (!f->samples.skipReason.empty()) e.skipConformance(f->samples.skipReason);
    }
  }
}

} // namespace dtf
