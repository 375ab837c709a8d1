// Every registered rule resolves to a real libtorch 1.13 schema, and its
// conformance samples name real arguments of that schema.
#include "ops/semantics.h"
#include "ops/infer.h"
#include "ops/notation.h"
#include "ops/registry.h"

#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <stdexcept>

namespace dtf {
namespace {

TEST(SchemaTable, ParsesEveryLibtorchSchema) {
  const SchemaTable &t = SchemaTable::of(TorchVersion::V1_13);
  EXPECT_GT(t.size(), 4000u);
  EXPECT_NO_THROW(t.parseAll());
  const Schema *add = t.find("aten::add.Tensor");
  ASSERT_NE(add, nullptr);
  ASSERT_EQ(add->args.size(), 3u);
  EXPECT_EQ(add->args[2].name, "alpha");
  EXPECT_TRUE(add->args[2].kwargOnly);
  EXPECT_EQ(add->args[2].defaultText, "1");
  const Schema *sum = t.find("aten::sum");
  ASSERT_NE(sum, nullptr);
  EXPECT_EQ(sum->overload, "");
  EXPECT_EQ(sum->args[1].type->str(), "ScalarType?");
  const Schema *maxDim = t.find("aten::max.dim");
  ASSERT_NE(maxDim, nullptr);
  EXPECT_EQ(maxDim->returns.size(), 2u);
  EXPECT_EQ(maxDim->returns[1].name, "indices");
  EXPECT_EQ(t.find("aten::no_such_op"), nullptr);
  auto adds = t.overloads("aten::add");
  EXPECT_EQ(adds.size(), 16u); // not aten::add_ nor aten::addmm
  for (const Schema *s : adds) EXPECT_EQ(s->name, "aten::add");
}

TEST(SchemaTable, BadDeclarationsReportAColumn) {
  auto r = parseSchema("aten::f(Tensor self, -> Tensor");
  EXPECT_FALSE(r.schema.has_value());
  EXPECT_NE(r.error.find("column"), std::string::npos);
}

TEST(Registry, EveryRegisteredKeyExistsInSomeVersion) {
  // A key a version's table lacks is skipped there (an op PyTorch removed or
  // added); one no table has is a typo.
  for (TorchVersion v : kTorchVersions)
    for (const std::string &key : Semantics::of(v).registry().absentKeys()) {
      bool somewhere = false;
      for (TorchVersion w : kTorchVersions) somewhere = somewhere || SchemaTable::of(w).find(key);
      EXPECT_TRUE(somewhere) << key << ": in no version's schema table";
    }
  EXPECT_GT(Semantics::of(TorchVersion::V2_14).registry().rules().size(), 2150u);
  EXPECT_TRUE(Semantics::of(TorchVersion::V2_14).registry().find("aten::rms_norm"));
  EXPECT_FALSE(Semantics::of(TorchVersion::V1_13).registry().find("aten::rms_norm"));
}

// The out overloads registerOutVariants derives from the schema table are
// written whole in ops/families/out_variants.def (grep finds each key): the
// list is exactly each version's `out_variant` rules.
TEST(Registry, OutVariantListIsEachVersionsRules) {
  struct Row { const char *key, *versions; };
  static const Row kRows[] = {
#define DTF_OUT_VARIANT(key, versions) {key, versions},
#include "ops/families/out_variants.def"
#undef DTF_OUT_VARIANT
  };
  for (TorchVersion v : kTorchVersions) {
    std::set<std::string> listed, registered;
    for (const Row &row : kRows) {
      std::istringstream in(row.versions);
      for (std::string w; in >> w;)
        if (w == name(v)) listed.insert(row.key);
    }
    for (const auto &[key, rule] : Semantics::of(v).registry().rules())
      if (rule.family == "out_variant") registered.insert(key);
    EXPECT_GT(listed.size(), 600u) << name(v);
    EXPECT_EQ(listed, registered) << name(v) << ": regenerate with scripts/gen_out_variants_def.py";
  }
}

// Op facts (ops/op_facts.h) are declared beside the rules and read on the
// rule (Registry::finalize); one declared by key holds for that overload alone.
TEST(Registry, OpFactsAreOnTheRule) {
  for (TorchVersion v : kTorchVersions) {
    SCOPED_TRACE(std::string(name(v)));
    const Registry &r = Semantics::of(v).registry();
    for (const char *k : {"aten::to.dtype", "aten::type_as", "aten::_to_copy", "aten::_cast_Float",
                          "aten::_autocast_to_reduced_precision"})
      EXPECT_TRUE(r.find(k)->facts.has(OpFact::ConvertsDtype)) << k;
    EXPECT_FALSE(r.find("aten::add.Tensor")->facts.has(OpFact::ConvertsDtype));
    EXPECT_TRUE(r.find("aten::addbmm.out")->facts.has(OpFact::OutErrorsOwn));
    EXPECT_TRUE(r.find("aten::huber_loss.out")->facts.has(OpFact::OutErrorsOwn));
    EXPECT_FALSE(r.find("aten::addbmm")->facts.has(OpFact::OutErrorsOwn));
    EXPECT_FALSE(r.find("aten::add.out")->facts.has(OpFact::OutErrorsOwn));
    EXPECT_EQ(r.find("aten::native_batch_norm.out"), nullptr);
    EXPECT_TRUE(r.facts("aten::extend").has(OpFact::GrowsListByListElements));
    EXPECT_FALSE(r.facts("aten::append").has(OpFact::GrowsListByListElements));
    EXPECT_TRUE(r.facts("aten::append").has(OpFact::GrowsListByElements));
  }
  // Since 2.6 (measured: scripts/probes/version_facts.py).
  for (const char *k : {"aten::norm.dtype_out", "aten::ldexp.out"}) {
    EXPECT_FALSE(Semantics::of(TorchVersion::V1_13).registry().find(k)->facts.has(OpFact::OutErrorsOwn)) << k;
    EXPECT_TRUE(Semantics::of(TorchVersion::V2_6).registry().find(k)->facts.has(OpFact::OutErrorsOwn)) << k;
    EXPECT_TRUE(Semantics::of(TorchVersion::V2_14).registry().find(k)->facts.has(OpFact::OutErrorsOwn)) << k;
  }
}

// Registration by since (ops/registry.h): a version's registry keeps, per
// key, the registration with the newest since <= the version, in either
// code order; nothing is dropped unless a registration says so.
RuleFn noop() {
  return [](const OpCall &) -> RuleResult { return std::vector<Value>{}; };
}

TEST(Registry, SinceKeepsTheNewestRegistrationAtOrBeforeTheVersion) {
  for (bool changedFirst : {false, true})
    for (TorchVersion v : kTorchVersions) {
      Registry r(SchemaTable::of(v), DTypeSystem::of(v));
      auto original = [&] { r.add("aten::abs", "original", noop()).sample("self", "sweep[2]"); };
      auto changed = [&] { r.since(kNewestTorch).add("aten::abs", "changed", noop()); };
      if (changedFirst) changed(), original();
      else original(), changed();
      const OpRule *rule = r.find("aten::abs");
      ASSERT_NE(rule, nullptr) << name(v);
      const bool newest = v == kNewestTorch;
      EXPECT_EQ(rule->family, newest ? "changed" : "original") << name(v) << (changedFirst ? ", changed first" : "");
      EXPECT_EQ(rule->since, newest ? kNewestTorch : kOldestTorch);
      EXPECT_EQ(rule->samples.args.size(), newest ? 0u : 1u); // the replaced registration's samples went with it
      EXPECT_EQ(r.find(*SchemaTable::of(v).find("aten::abs")), rule);
    }
}

TEST(Registry, ARuleOrFactEndsOnlyWhereARegistrationSaysSo) {
  for (bool removalFirst : {false, true})
    for (TorchVersion v : kTorchVersions) {
      Registry r(SchemaTable::of(v), DTypeSystem::of(v));
      auto registrations = [&] {
        r.add("aten::abs", "original", noop());
        r.declare("aten::cummax", OpFact::AnyDimOfZeroDim | OpFact::NoDimOfZeroDim);
      };
      auto removals = [&] {
        r.since(kNewestTorch).remove("aten::abs");
        r.since(kNewestTorch).withdraw("aten::cummax", OpFact::AnyDimOfZeroDim);
      };
      if (removalFirst) removals(), registrations();
      else registrations(), removals();
      const bool newest = v == kNewestTorch;
      EXPECT_EQ(r.find("aten::abs") == nullptr, newest) << name(v);
      EXPECT_EQ(r.facts("aten::cummax").has(OpFact::AnyDimOfZeroDim), !newest) << name(v);
      EXPECT_TRUE(r.facts("aten::cummax").has(OpFact::NoDimOfZeroDim)) << name(v); // not withdrawn
    }
  // Two registrations with one since contradict each other, whatever their order.
  Registry r(SchemaTable::of(kNewestTorch), DTypeSystem::of(kNewestTorch));
  r.add("aten::abs", "a", noop());
  EXPECT_THROW(r.since(kOldestTorch).add("aten::abs", "b", noop()), std::logic_error);
  r.since(kNewestTorch).remove("aten::neg");
  EXPECT_THROW(r.since(kNewestTorch).add("aten::neg", "c", noop()), std::logic_error);
}

TEST(Registry, CummaxTakesAnyDimOfAZeroDimSelfUntilWithdrawn) {
  // misc_coverage.cpp: the fact 1.13 has and 2.14 withdraws.
  EXPECT_TRUE(Semantics::of(kOldestTorch).registry().facts("aten::cummax").has(OpFact::AnyDimOfZeroDim));
  EXPECT_FALSE(Semantics::of(kNewestTorch).registry().facts("aten::cummax").has(OpFact::AnyDimOfZeroDim));
}

TEST(SchemaTable, ParsesTheNewestTable) {
  const SchemaTable &t = SchemaTable::of(kNewestTorch);
  EXPECT_GT(t.size(), 4400u);
  EXPECT_NO_THROW(t.parseAll());
  EXPECT_NE(t.find("aten::scaled_dot_product_attention"), nullptr);
}

TEST(Registry, EveryRuleHasItsSchemaAndValidSamples) {
 for (TorchVersion v : kTorchVersions) {
  const Registry &reg = Semantics::of(v).registry();
  ASSERT_FALSE(reg.rules().empty());
  for (const auto &[key, rule] : reg.rules()) {
    ASSERT_NE(rule.schema, nullptr) << key;
    EXPECT_EQ(rule.schema->key(), key);
    EXPECT_FALSE(rule.family.empty()) << key;
    auto checkNames = [&rule = rule, &key = key](const auto &args) { // clang 14: no capture of a binding
      for (const auto &[arg, spec] : args)
        EXPECT_GE(rule.schema->argIndex(arg), 0) << key << ": sample for unknown argument '" << arg << "'";
    };
    checkNames(rule.samples.args);
    for (const SampleSpec &sv : rule.samples.variants) checkNames(sv.args);
  }
 }
}

TEST(Registry, EveryDefaultOfARuleSchemaIsReadable) {
  // Defaults feed every call; one we cannot read would silently be top.
 for (TorchVersion v : kTorchVersions)
  for (const auto &[key, rule] : Semantics::of(v).registry().rules()) {
    for (const SchemaArg &a : rule.schema->args) {
      if (a.defaultText && a.type->kind != SchemaType::Kind::Layout &&
          a.type->kind != SchemaType::Kind::MemoryFormat && a.type->kind != SchemaType::Kind::Device) {
        EXPECT_FALSE(defaultValue(a).isTop()) << key << ": default of '" << a.name << "' = " << *a.defaultText;
      }
    }
  }
}

TEST(Infer, NoRuleGivesUnknownNotAGuess) {
  const Schema *s = SchemaTable::of(TorchVersion::V1_13).find("aten::_test_string_default");
  ASSERT_NE(s, nullptr);
  auto bound = bindArguments(*s, std::vector<Value>{Value::tensor(DType::Float32, Rank::exact(1))}, {});
  ASSERT_TRUE(bound.ok()) << bound.error;
  InferOutcome out = infer(Semantics::of(TorchVersion::V1_13).registry(), *s, bound.args);
  EXPECT_EQ(out.status, InferOutcome::Status::NoRule);
  ASSERT_EQ(out.outputs.size(), 1u);
  EXPECT_FALSE(out.outputs[0].dtype().has_value());
}

TEST(Infer, BindingErrorsNameTheArgument) {
  const Schema &s = *SchemaTable::of(TorchVersion::V1_13).find("aten::add.Tensor");
  auto missing = bindArguments(s, std::vector<Value>{Value::tensor(DType::Float32)}, {});
  EXPECT_NE(missing.error.find("missing argument 'other'"), std::string::npos) << missing.error;
  std::vector<std::pair<std::string, Value>> named{{"othr", Value::integer(1)}};
  auto unknown = bindArguments(s, std::vector<Value>{Value::tensor(DType::Float32)}, named);
  EXPECT_NE(unknown.error.find("no argument named 'othr'"), std::string::npos) << unknown.error;
}

TEST(Infer, UnknownDtypeIsEnumeratedNotGuessed) {
  const Schema &s = *SchemaTable::of(TorchVersion::V1_13).find("aten::add.Tensor");
  std::vector<Value> args{Value::tensor(DType::Complex128, Rank::exact(1)),
                          Value::tensor(DTypeSet::all(), Rank::top()), Value::integer(1)};
  InferOutcome out = infer(Semantics::of(TorchVersion::V1_13).registry(), s, args);
  ASSERT_EQ(out.status, InferOutcome::Status::Ok);
  EXPECT_EQ(out.outputs[0].dtype(), DType::Complex128);
  args[0] = Value::tensor(DType::Float32, Rank::exact(1));
  out = infer(Semantics::of(TorchVersion::V1_13).registry(), s, args);
  EXPECT_FALSE(out.outputs[0].dtype().has_value()); // could be float64, complex ...
}

TEST(Notation, ReadsByExpectedType) {
  const Schema &sum = *SchemaTable::of(TorchVersion::V1_13).find("aten::sum");
  auto d = parseNotation("float64", sum.args[1].type.get()); // ScalarType?
  ASSERT_TRUE(d.value);
  EXPECT_EQ(d.value->intValue(), 7);
  auto t = parseNotation("float64:r2", nullptr);
  ASSERT_TRUE(t.value);
  EXPECT_EQ(t.value->dtype(), DType::Float64);
  EXPECT_EQ(t.value->rank(), Rank::exact(2));
  auto n = parseNotation("float", nullptr);
  ASSERT_TRUE(n.value);
  EXPECT_EQ(n.value->numKind(), NumKind::Float);
  EXPECT_FALSE(parseNotation("float33:r1", nullptr).value);
  EXPECT_FALSE(parseNotation("float32:r1000", nullptr).value); // absurd rank refused
  auto l = parseNotation("[float16:r1,int64:r1]", nullptr);
  ASSERT_TRUE(l.value);
  EXPECT_EQ(l.value->elements().size(), 2u);
}

} // namespace
} // namespace dtf
