//===- tests/oracle/enumeration_property_test.cpp - lifting = brute force --===//
//
// ops/infer.cpp lifts a rule to unknown arguments by enumerating, on demand,
// only the aspects (None or not, dtype, rank) the rule reads, where the full
// product of cases is large. This checks that shortcut against brute force, for every rule of the registry: take
// cases of the rule's conformance case space, make one or two tensor
// arguments unknown (dtype, rank, or both), and compare infer() on the
// unknown arguments with the join of infer() on every concrete case they
// stand for. No libtorch call: the case space only supplies valid arguments.
//
//===----------------------------------------------------------------------===//
#include "oracle_version.h"
#include "case_space.h"
#include "ops/infer.h"
#include "torch_runner.h"

#include <gtest/gtest.h>

#include <fmt/format.h>

namespace dtf::oracle {
namespace {

enum class Forget { DType, Rank, Both };

/// The abstract value of `v` with `what` forgotten, and the concrete values it stands for.
std::pair<Value, std::vector<Value>> forget(const Value &v, Forget what) {
  std::vector<Value> concrete;
  // An unknown dtype is the version's universe (DTypeSystem::candidates maps
  // DTypeSet::all() there too; a rule passing it through would keep all()).
  const DTypeSet universe = oracleSemantics().types().universe();
  if (what == Forget::DType) {
    for (DType d : universe) concrete.push_back(v.withDTypes(d));
    return {v.withDTypes(universe), concrete};
  }
  DTypeSet ds = what == Forget::Both ? universe : v.dtypes();
  for (DType d : ds)
    for (Rank r : {Rank::exact(0), Rank::atLeast1()}) concrete.push_back(Value::tensor(d, r));
  return {Value::tensor(ds, Rank::top()), concrete};
}

struct Tally {
  size_t compared = 0, overBudget = 0, coarserRank = 0; /// coarserRank: see compare()
};

/// infer() on `abstract` against the join of infer() over the concrete products.
void compare(const OpRule &rule, const std::vector<Value> &abstract, const std::vector<size_t> &positions,
             const std::vector<std::vector<Value>> &alternatives, const std::string &what, Tally &tally) {
  const Registry &registry = oracleSemantics().registry();
  // 0: the on-demand enumeration even where the full product is small.
  InferOutcome lifted = infer(registry, *rule.schema, abstract, /*fullProductCases=*/0);
  if (lifted.status == InferOutcome::Status::TooManyUnknowns) {
    ++tally.overBudget;
    return;
  }
  std::optional<std::vector<Value>> joined;
  bool anyError = false, anyInternal = false, anyBySizes = false;
  std::vector<Value> args = abstract;
  std::vector<size_t> pick(positions.size(), 0);
  for (bool more = true; more;) {
    for (size_t k = 0; k < positions.size(); ++k) args[positions[k]] = alternatives[k][pick[k]];
    InferOutcome one = infer(registry, *rule.schema, args);
    const bool internal = one.possibleError && one.possibleError->message.starts_with("internal: ");
    // A concrete alternative of known sizes (a 0-dim tensor) that its shape
    // rule refuses: sizes the abstract call does not know, hence not lifted.
    const bool bySizes = one.status == InferOutcome::Status::Error && one.error->kind == ErrorKind::SizeDependent;
    if (bySizes) {
      anyBySizes = true;
    } else if (one.status == InferOutcome::Status::Error) {
      anyError = true;
    } else if (internal) {
      anyInternal = true;
    } else {
      anyError = anyError || one.possibleError.has_value(); // a case that runs but may raise
      if (!joined) joined = one.outputs;
      else
        for (size_t i = 0; i < joined->size(); ++i) (*joined)[i] = Value::join((*joined)[i], one.outputs[i]);
    }
    more = false;
    for (size_t k = 0; k < positions.size() && !more; ++k) {
      if (++pick[k] < alternatives[k].size()) more = true;
      else pick[k] = 0;
    }
  }
  ++tally.compared;
  const std::string where = fmt::format("{} with {}", rule.key, what);
  if (anyInternal) {
    EXPECT_EQ(lifted.outputs, unknownOutputs(*rule.schema)) << where;
    return;
  }
  if (!joined) {
    EXPECT_EQ(lifted.status, InferOutcome::Status::Error) << where;
    return;
  }
  ASSERT_EQ(lifted.status, InferOutcome::Status::Ok) << where;
  // Sizes are not lifted: a concrete alternative has its sample's sizes (and so size-1 facts and,
  // through shape rules, sometimes its rank), the abstract operand none. So the lifted answer must
  // cover the join (sound) and have its dtypes exactly (the lifting this test is about); it equals
  // the join once sizes are set aside, unless a shape rule refused some alternative (bySizes).
  for (size_t i = 0; i < lifted.outputs.size() && i < joined->size(); ++i) {
    Value l = lifted.outputs[i].withUnitDims({}), j = (*joined)[i].withUnitDims({});
    if (!(j.isTensor() && j.rank() == Rank::top())) // a concrete alternative of unknown rank: nothing to cover
      EXPECT_EQ(Value::join(l, j), l) << where << ": lifted " << l.str() << " does not cover " << j.str();
    EXPECT_EQ(l.dtypes(), j.dtypes()) << where << ": lifted " << l.str() << ", joined " << j.str();
    if (!anyBySizes && l.rank() != j.rank())
      ++tally.coarserRank; // counted: a rank only the concrete sizes decide (shape rules)
  }
  EXPECT_EQ(lifted.outputs.size(), joined->size()) << where;
  EXPECT_EQ(lifted.possibleError.has_value(), anyError) << where;
}

TEST(EnumerationProperty, OnDemandLiftingEqualsBruteForceForEveryRule) {
  const Registry &registry = oracleSemantics().registry();
  Tally tally;
  size_t rules = 0;
  for (const auto &[key, rule] : registry.rules()) {
    if (!rule.samples.skipReason.empty()) continue;
    auto op = findTorchOperator(key);
    if (!op) continue; // torchvision ops without the library: nothing to build cases from
    CaseSpace space = buildCaseSpace(rule, op->schema(), {});
    if (!space.error.empty() || space.size() == 0) continue;
    ++rules;
    // Eight cases spread over the space, the same ones every run.
    const size_t total = space.size(), picks = std::min<size_t>(total, 8);
    for (size_t p = 0; p < picks; ++p) {
      const size_t index = p * total / picks;
      std::vector<Value> base(space.axes.size());
      size_t rest = index;
      for (size_t a = space.axes.size(); a-- > 0;) {
        size_t n = space.axes[a].alternatives.size();
        base[a] = space.axes[a].alternatives[rest % n].ours;
        rest /= n;
      }
      std::vector<size_t> tensors;
      for (size_t a = 0; a < base.size(); ++a)
        if (base[a].isTensor() && base[a].dtype() && !base[a].isWrappedNumber()) tensors.push_back(a);
      // One tensor argument at a time, each aspect.
      for (size_t a : tensors)
        for (Forget f : {Forget::DType, Forget::Rank, Forget::Both}) {
          auto [abs, alts] = forget(base[a], f);
          std::vector<Value> args = base;
          args[a] = abs;
          compare(rule, args, {a}, {alts}, fmt::format("{} = {}", space.axes[a].argName, abs.str()), tally);
        }
      // An optional tensor (`Tensor? weight`) not even known to be given.
      for (size_t a = 0; a < base.size(); ++a) {
        const SchemaType &t = *rule.schema->args[a].type;
        if (t.kind != SchemaType::Kind::Optional || !t.inner() || t.inner()->kind != SchemaType::Kind::Tensor) continue;
        std::vector<Value> alts = forget(Value::unknownTensor(), Forget::Both).second;
        alts.insert(alts.begin(), Value::none());
        std::vector<Value> args = base;
        args[a] = Value::top();
        compare(rule, args, {a}, {alts}, fmt::format("{} = None or any tensor", space.axes[a].argName), tally);
      }
      // Pairs among the first three tensor arguments, dtype and rank unknown.
      for (size_t i = 0; i < tensors.size() && i < 3; ++i)
        for (size_t j = i + 1; j < tensors.size() && j < 3; ++j) {
          auto [abs0, alts0] = forget(base[tensors[i]], Forget::Both);
          auto [abs1, alts1] = forget(base[tensors[j]], Forget::Both);
          std::vector<Value> args = base;
          args[tensors[i]] = abs0;
          args[tensors[j]] = abs1;
          compare(rule, args, {tensors[i], tensors[j]}, {alts0, alts1},
                  fmt::format("{} and {} unknown", space.axes[tensors[i]].argName, space.axes[tensors[j]].argName),
                  tally);
        }
      // An unknown element of a tensor list (cat, stack, index ...).
      for (size_t a = 0; a < base.size(); ++a) {
        if (!base[a].isList() || !base[a].lengthKnown() || base[a].elements().empty()) continue;
        const Value &e = base[a].elements()[0];
        if (!e.isTensor() || !e.dtype()) continue;
        auto [abs, alts] = forget(e, Forget::DType);
        std::vector<Value> elems = base[a].elements();
        elems[0] = abs;
        std::vector<Value> args = base;
        args[a] = Value::list(elems);
        std::vector<Value> lists;
        for (const Value &alt : alts) {
          elems[0] = alt;
          lists.push_back(Value::list(elems));
        }
        compare(rule, args, {a}, {lists}, fmt::format("{}[0] = {}", space.axes[a].argName, abs.str()), tally);
      }
    }
  }
  // Guards against a vacuous pass: most rules were reached and compared.
  EXPECT_GT(rules, 1400u);
  EXPECT_GT(tally.compared, 40000u);
  // Two unknown tensors range over 13 x 13 dtypes in 1.13 but 23 x 23 in
  // 2.14 (uint16-64, float8, float4, bcomplex32), so more pairs exceed the
  // enumeration budget there (answered unknown: sound, less precise). Measured:
  // 4,372 of 88,668 comparisons (4.9 %) under 2.14.
  const size_t budgetShare = oracle::kOracleTorch == TorchVersion::V1_13 ? 100 : 16;
  EXPECT_LT(tally.overBudget, tally.compared / budgetShare);
  std::printf("%zu rules, %zu comparisons, %zu over the enumeration budget, %zu with a rank only sizes decide\n", rules,
              tally.compared, tally.overBudget, tally.coarserRank);
  EXPECT_LT(tally.coarserRank, tally.compared / 100); // rare: not a way for lifting to lose ranks unnoticed
}

} // namespace
} // namespace dtf::oracle
