// User rules for custom ops: rule files, rules from code, Semantics::extend
// layered over the built-in semantics, and the refinement pass handed them.
#include "frontends/text/ir_parser.h"
#include "ops/custom_rules.h"
#include "ops/infer.h"
#include "ops/notation.h"
#include "refine/refine.h"

#include <gtest/gtest.h>

namespace dtf {
namespace {

constexpr const char *kMylib = R"toml(# a made-up operator library
[[op]]
schema = "mylib::fused_gelu(Tensor x, float approximate=0.0) -> Tensor"
dtype = { same_as = "x" }
refuse = { x = ["bool", "integral"] }

[[op]]
schema = "mylib::scale_shift(Tensor x, Tensor scale, Scalar shift=0) -> Tensor"
dtype = { promote = ["x", "scale", "shift"], kind = "int_to_float" }

[[op]]
schema = "mylib::sum_to(Tensor x, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor"
dtype = { from_arg = "dtype", default = { same_as = "x", bool = "int64", integral = "int64" } }
rank = { reduce = "x", dims = "dim", keepdim = "keepdim" }

[[op]]
schema = "mylib::stats(Tensor x) -> (Tensor mean, Tensor count, int n)"
results = [
  { dtype = { same_as = "x", bool = "float32", integral = "float32" }, rank = 0 },
  { dtype = "int64", rank = 0 },
  {},
]

[[op]]
schema = "mylib::close(Tensor a, Tensor b) -> Tensor"
dtype = { always = "bool" }
rank = { broadcast = ["a", "b"] }
same_dtype = ["a", "b"]

[[op]]
schema = "mylib::rem(Tensor a, Scalar b) -> Tensor"
dtype = { promote = ["a", "b"], refuse = ["bool", "complex"] }
)toml";

RuleSet mylib() {
  RuleSet rules;
  auto errors = rules.addText(kMylib, "mylib.toml");
  for (const RuleSetError &e : errors) ADD_FAILURE() << e.str();
  return rules;
}

std::shared_ptr<const Semantics> extended(const RuleSet &rules, TorchVersion v = TorchVersion::V2_14) {
  ExtendedSemantics ext = Semantics::extend(v, rules);
  for (const RuleSetError &e : ext.errors) ADD_FAILURE() << e.str();
  return ext.semantics;
}

/// `key` called with named arguments in the CLI notation, under `sem`.
InferOutcome call(const Semantics &sem, const std::string &key,
                  const std::vector<std::pair<std::string, std::string>> &named) {
  const Schema *s = sem.schemas().find(key);
  if (!s) {
    ADD_FAILURE() << "no schema " << key;
    return {};
  }
  std::vector<std::pair<std::string, Value>> args;
  for (const auto &[n, text] : named) {
    int i = s->argIndex(n);
    auto v = parseNotation(text, i >= 0 ? s->args[i].type.get() : nullptr, &sem.types());
    EXPECT_TRUE(v.value) << text << ": " << v.error;
    args.emplace_back(n, v.value.value_or(Value::top()));
  }
  BindResult b = bindArguments(*s, {}, args);
  EXPECT_TRUE(b.ok()) << b.error;
  return infer(sem.registry(), *s, b.args);
}

std::string str(const InferOutcome &o) {
  if (o.status == InferOutcome::Status::Error) return "error: " + o.error->message;
  std::string s;
  for (const Value &v : o.outputs) s += (s.empty() ? "" : ", ") + v.str();
  return s;
}

std::vector<std::string> messages(const std::vector<RuleSetError> &errors) {
  std::vector<std::string> out;
  for (const RuleSetError &e : errors) out.push_back(e.str());
  return out;
}

TEST(CustomRules, FileRulesGiveDTypesAndRanks) {
  auto sem = extended(mylib());
  ASSERT_TRUE(sem);
  EXPECT_EQ(str(call(*sem, "mylib::fused_gelu", {{"x", "bfloat16:r3"}})), "bfloat16:r3");
  EXPECT_EQ(str(call(*sem, "mylib::fused_gelu", {{"x", "uint8:r3"}})),
            "error: mylib::fused_gelu: x of dtype uint8 is not supported");
  EXPECT_EQ(str(call(*sem, "mylib::scale_shift", {{"x", "int8:r1"}, {"scale", "int32:r3"}})), "float32:r3");
  EXPECT_EQ(str(call(*sem, "mylib::scale_shift", {{"x", "float16:r1"}, {"scale", "float64:r0"}, {"shift", "2.5"}})),
            "float16:r1");
  EXPECT_EQ(str(call(*sem, "mylib::sum_to", {{"x", "bool:r2"}})), "int64:r0");
  EXPECT_EQ(str(call(*sem, "mylib::sum_to", {{"x", "complex64:r2"}, {"dim", "[-1]"}})), "complex64:r1");
  EXPECT_EQ(str(call(*sem, "mylib::sum_to", {{"x", "int8:r2"}, {"dim", "[1]"}, {"keepdim", "True"}, {"dtype", "float16"}})),
            "float16:r2");
  EXPECT_EQ(str(call(*sem, "mylib::sum_to", {{"x", "int8:r2"}, {"dim", "[1,-1]"}})),
            "error: mylib::sum_to: dim 1 appears multiple times in the list of dims");
  EXPECT_EQ(str(call(*sem, "mylib::stats", {{"x", "int16:r4"}})), "float32:r0, int64:r0, int");
  EXPECT_EQ(str(call(*sem, "mylib::close", {{"a", "float32:r1"}, {"b", "float32:r2"}})), "bool:r2");
  EXPECT_EQ(str(call(*sem, "mylib::close", {{"a", "float32:r1"}, {"b", "float64:r2"}})),
            "error: mylib::close: expected a and b to have the same dtype, but got float32 and float64");
  EXPECT_EQ(str(call(*sem, "mylib::rem", {{"a", "int8:r1"}, {"b", "2.5"}})), "float32:r1");
  EXPECT_EQ(str(call(*sem, "mylib::rem", {{"a", "int8:r1"}, {"b", "1j"}})),
            "error: mylib::rem: a complex64 result is not supported");
}

TEST(CustomRules, UnknownArgumentsAreLiftedAsForBuiltinRules) {
  auto sem = extended(mylib());
  ASSERT_TRUE(sem);
  // Any floating dtype: each keeps its own; integral and bool ones raise.
  InferOutcome o = call(*sem, "mylib::fused_gelu", {{"x", "?:r2"}});
  ASSERT_EQ(o.status, InferOutcome::Status::Ok);
  EXPECT_FALSE(o.outputs[0].dtype());
  EXPECT_EQ(o.outputs[0].rank(), Rank::exact(2));
  EXPECT_TRUE(o.possibleError);
  // An int8 tensor of unknown rank and an int scale: the dtype does not depend on the ranks.
  EXPECT_EQ(call(*sem, "mylib::scale_shift", {{"x", "int8"}, {"scale", "int8"}}).outputs[0].dtype(), DType::Float32);
}

TEST(CustomRules, BuiltinSemanticsAreUntouched) {
  const Semantics &builtin = Semantics::of(TorchVersion::V2_14);
  const size_t rulesBefore = builtin.registry().rules().size(), schemasBefore = builtin.schemas().size();
  RuleSet rules = mylib();
  ASSERT_FALSE(rules.addText(R"toml([[op]]
schema = "aten::relu(Tensor self) -> Tensor"
dtype = "float64"
rank = { same_as = "self" }
override = true
)toml",
                             "override.toml")
                   .size());
  auto sem = extended(rules);
  ASSERT_TRUE(sem);
  EXPECT_EQ(sem->base(), &builtin);
  EXPECT_EQ(builtin.registry().rules().size(), rulesBefore);
  EXPECT_EQ(builtin.schemas().size(), schemasBefore);
  EXPECT_EQ(builtin.schemas().find("mylib::fused_gelu"), nullptr);
  EXPECT_EQ(sem->schemas().size(), schemasBefore + 6);
  // The override replaces relu's rule in the layer only, on the built-in schema object.
  EXPECT_EQ(sem->schemas().find("aten::relu"), builtin.schemas().find("aten::relu"));
  EXPECT_EQ(str(call(*sem, "aten::relu", {{"self", "int8:r1"}})), "float64:r1");
  EXPECT_EQ(str(call(builtin, "aten::relu", {{"self", "int8:r1"}})), "int8:r1");
  EXPECT_EQ(sem->registry().rules().size(), 7u); // the layer's own
  EXPECT_EQ(sem->registry().allRules().size(), rulesBefore + 6);
  // Built-in rules not overridden come from the base.
  EXPECT_EQ(sem->registry().find("aten::add.Tensor"), builtin.registry().find("aten::add.Tensor"));
}

TEST(CustomRules, OneRuleSetExtendsEveryVersion) {
  RuleSet rules = mylib();
  for (TorchVersion v : kTorchVersions) {
    auto sem = extended(rules, v);
    ASSERT_TRUE(sem);
    EXPECT_EQ(sem->version(), v);
    // bfloat16 + a complex number: complex64 in 1.13 and 2.6, bcomplex32 in 2.14, as result_type says.
    EXPECT_EQ(str(call(*sem, "mylib::scale_shift", {{"x", "bfloat16:r1"}, {"scale", "bfloat16:r1"}, {"shift", "1j"}})),
              has(v, VersionFact::ComplexOfBFloat16IsBComplex32) ? "bcomplex32:r1" : "complex64:r1");
  }
}

TEST(CustomRules, RulesFromCode) {
  RuleSet rules;
  // Any RuleFn: here a vocabulary builder.
  EXPECT_FALSE(rules.add("mylib::mix(Tensor a, Tensor b) -> Tensor", elementwise(PromotionKind::IntToFloat, {"a", "b"})));
  // A declarative rule built in code.
  RuleSpec spec = RuleSpec::of(DTypeSpec::fromArg("dtype", DTypeSpec::always(DType::Float32)), RankSpec::fixedAt(1));
  EXPECT_TRUE(rules.add("mylib::arange_like(Tensor x, *, ScalarType? dtype=None) -> Tensor", spec).empty());
  // The same overload again is refused.
  auto again = rules.add("mylib::mix(Tensor a, Tensor b) -> Tensor", sameAs("a"));
  ASSERT_TRUE(again);
  EXPECT_EQ(again->str(), "error: mylib::mix has a rule already (in code)");

  auto sem = extended(rules);
  ASSERT_TRUE(sem);
  EXPECT_EQ(str(call(*sem, "mylib::mix", {{"a", "int8:r2"}, {"b", "uint8:r1"}})), "float32:r2");
  EXPECT_EQ(str(call(*sem, "mylib::arange_like", {{"x", "int8:r2"}})), "float32:r1");
  EXPECT_EQ(str(call(*sem, "mylib::arange_like", {{"x", "int8:r2"}, {"dtype", "int16"}})), "int16:r1");
}

TEST(CustomRules, SpecProblemsAreFoundInCode) {
  RuleSpec spec = RuleSpec::of(DTypeSpec::sameAs("y"));
  RuleSet rules;
  CustomRuleOptions where;
  where.where = {"generated.toml", 12};
  EXPECT_EQ(messages(rules.add("mylib::f(Tensor x) -> Tensor", spec, where)),
            std::vector<std::string>{"generated.toml:12: error: 'y' is not an argument of mylib::f (its arguments: x)"});
  EXPECT_TRUE(rules.empty());
}

TEST(CustomRules, FileErrorsNameTheirLines) {
  RuleSet rules;
  EXPECT_EQ(messages(rules.addText(R"toml([[op]]
schema = "mylib::f(Tensor x, Tensor w) -> Tensor"
dtype = { same_as = "x", kind = "int_to_flaot" }

[[op]]
schema = "mylib::g(Tensor x) -> Tensor"
dtype = { promote = ["x", "w"] }
rank = { reduce = "x", dims = "dim" }
)toml",
                                   "f.toml")),
            (std::vector<std::string>{
                "f.toml:3: error: unknown promotion kind 'int_to_flaot' (did you mean 'int_to_float'?); known: "
                "default, int_to_float, always_bool, complex_to_float, bool_to_long",
                "f.toml:7: error: 'w' is not an argument of mylib::g (its arguments: x)",
                "f.toml:8: error: 'dim' is not an argument of mylib::g (its arguments: x)"}));
  EXPECT_TRUE(rules.empty()); // a file with a problem adds nothing, not even mylib::f
}

TEST(CustomRules, DuplicatesAcrossFiles) {
  RuleSet rules = mylib();
  EXPECT_EQ(messages(rules.addText("[[op]]\nschema = \"mylib::fused_gelu(Tensor x) -> Tensor\"\ndtype = \"float32\"\n"
                                   "rank = 0\n",
                                   "other.toml")),
            std::vector<std::string>{"other.toml:2: error: mylib::fused_gelu has a rule already (mylib.toml:3)"});
}

TEST(CustomRules, ExtendRefusesWhatTheVersionContradicts) {
  RuleSet rules;
  ASSERT_TRUE(rules
                  .addText(R"toml([[op]]
schema = "aten::relu(Tensor self) -> Tensor"
dtype = { same_as = "self" }

[[op]]
schema = "aten::gelu(Tensor self, *, str approximate='none') -> Tensor"
dtype = { same_as = "self" }
override = true

[[op]]
schema = "mylib::pack(Tensor x) -> Tensor"
dtype = "uint16"
rank = 1
)toml",
                           "v.toml")
                  .empty());
  ExtendedSemantics v214 = Semantics::extend(TorchVersion::V2_14, rules);
  EXPECT_FALSE(v214.semantics);
  EXPECT_EQ(messages(v214.errors),
            std::vector<std::string>{"v.toml:2: error: aten::relu has a built-in rule in PyTorch 2.14: to replace it, "
                                     "say so (override = true)"});
  ExtendedSemantics v113 = Semantics::extend(TorchVersion::V1_13, rules);
  EXPECT_EQ(messages(v113.errors), (std::vector<std::string>{
                                       "v.toml:2: error: aten::relu has a built-in rule in PyTorch 1.13: to replace "
                                       "it, say so (override = true)",
                                       "v.toml:12: error: PyTorch 1.13 has no dtype uint16"}));
}

TEST(CustomRules, NewOverloadOfABuiltinName) {
  RuleSet rules;
  ASSERT_TRUE(rules.add("aten::add.mylib_packed(Tensor self, Tensor packed) -> Tensor", sameAs("self")) == std::nullopt);
  auto sem = extended(rules);
  ASSERT_TRUE(sem);
  const Semantics &builtin = Semantics::of(TorchVersion::V2_14);
  auto mine = sem->schemas().overloadSpan("aten::add");
  auto theirs = builtin.schemas().overloadSpan("aten::add");
  EXPECT_EQ(mine.size(), theirs.size() + 1);
  EXPECT_NE(mine.data(), theirs.data()); // memo keys of the two never meet
  EXPECT_TRUE(std::is_sorted(mine.begin(), mine.end(), [](auto *a, auto *b) { return a->key() < b->key(); }));
}

TEST(CustomRules, AnOverrideKeepsTheOpsFacts) {
  // unsqueeze's dim may name the dim it adds (OpFact::DimsIncludeNew, declared
  // beside the built-in rule): a replacement rule keeps that check.
  const Schema *builtin = Semantics::of(TorchVersion::V2_14).schemas().find("aten::unsqueeze");
  ASSERT_TRUE(builtin);
  RuleSet rules;
  CustomRuleOptions options;
  options.overrideBuiltin = true;
  ASSERT_TRUE(rules.add(builtin->text, sameAs("self"), options) == std::nullopt);
  auto sem = extended(rules);
  ASSERT_TRUE(sem);
  EXPECT_EQ(str(call(*sem, "aten::unsqueeze", {{"self", "float16:r1"}, {"dim", "1"}})).substr(0, 7), "float16");
  EXPECT_EQ(str(call(*sem, "aten::unsqueeze", {{"self", "float16:r1"}, {"dim", "2"}})),
            "error: aten::unsqueeze: Dimension out of range (expected to be in range of [-2, 1], but got 2)");
}

TEST(CustomRules, NonUtf8AndBadTomlNameTheirLines) {
  RuleSet rules;
  auto e = rules.addText("[[op]]\nschema = \"mylib::caf\xe9(Tensor x) -> Tensor\"\n", "latin1.toml");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].where.line, 2);
  e = rules.addText("[[op]]\nschema = 'x'\n\ndtype = {\n", "syntax.toml");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].where.line, 4);
  e = rules.addText(std::string(RuleSet::kMaxFileBytes + 1, '#'), "big.toml");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_NE(e[0].message.find("rule files hold at most"), std::string::npos);
}

TEST(CustomRules, RefineWithUserRules) {
  auto g = ir::parseIR(R"(graph(%x : Float(2, 3), %ids : Long(2, 3)):
  %approx : float = prim::Constant[value=0.5]()
  %none : NoneType = prim::Constant()
  %false : bool = prim::Constant[value=0]()
  %g : Tensor = mylib::fused_gelu(%x, %approx)
  %s : Tensor = mylib::scale_shift(%ids, %g, %approx)
  %t : Tensor = mylib::sum_to(%ids, %none, %false, %none)
  %u : Tensor = aten::add(%t, %s, %approx)
  return (%u)
)");
  auto valueOf = [&](const refine::Result &r, const std::string &name) {
    for (size_t v = 0; v < g->values.size(); ++v)
      if (g->values[v].name == name) return r.values[v].str();
    return std::string("no value");
  };
  refine::Options plain{.semantics = Semantics::shared(TorchVersion::V2_14)};
  refine::Result before = refine::refineGraph(*g, plain);
  EXPECT_EQ(valueOf(before, "g"), "?:r?"); // an unknown op, and what is computed from it
  EXPECT_NE(valueOf(before, "u"), "float32:r2");

  refine::Options opts;
  opts.semantics = extended(mylib());
  opts.memo = refine::makeEvalMemo();
  refine::Result r = refine::refineGraph(*g, opts);
  EXPECT_EQ(valueOf(r, "g"), "float32:r2");
  EXPECT_EQ(valueOf(r, "s"), "float32:r2");
  EXPECT_EQ(valueOf(r, "t"), "int64:r0");
  EXPECT_EQ(valueOf(r, "u"), "float32:r2");
  for (const refine::Diagnostic &d : r.diagnostics) EXPECT_NE(d.category, "unknown-op") << d.message;

  // A kept plan belongs to its semantics.
  opts.plan = refine::makeGraphPlan(*g, opts.semantics);
  EXPECT_EQ(valueOf(refine::refineGraph(*g, opts), "u"), "float32:r2");
  plain.plan = opts.plan;
  EXPECT_THROW(refine::refineGraph(*g, plain), std::invalid_argument);
}

} // namespace
} // namespace dtf
