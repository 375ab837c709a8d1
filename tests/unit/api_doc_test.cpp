// The examples of docs/api.md, compiled and run as written there (through
// the one public include), so the document cannot drift from the API.
#include "dtypeflow.h"

#include <gtest/gtest.h>

namespace {

constexpr const char *kProgram = R"(graph(%x : Tensor, %y : Long(3)):
  %a : Tensor = mylib::mix(%x, %y)
  %b : Tensor = mylib::take(%a, %y)
  %c : Tensor = mylib::is_special(%b)
  %d : Tensor = aten::gelu(%x, %none)
  return (%c, %d)
)";

TEST(ApiDoc, ParseRefineRead) {
  std::unique_ptr<dtf::ir::Graph> g = dtf::ir::parseIR("graph(%x : Tensor):\n  %y : Tensor = aten::relu(%x)\n  return (%y)\n");
  dtf::refine::Options opts;
  opts.semantics = dtf::Semantics::shared(dtf::TorchVersion::V2_14);
  opts.inputTypes = {{"x", dtf::Value::tensor(dtf::DType::Float16, dtf::Rank::exact(4))}};
  dtf::refine::Result r = dtf::refine::refineGraph(*g, opts);
  int tensors = 0;
  for (size_t id = 0; id < g->values.size(); ++id) {
    const dtf::Value &v = r.values[id];
    if (!v.isTensor()) continue;
    ++tensors;
    EXPECT_EQ(v.dtype(), dtf::DType::Float16);
    EXPECT_EQ(v.rank().value(), 4);
    EXPECT_EQ(r.reasons[id], dtf::refine::UnknownReason::None);
  }
  EXPECT_EQ(tensors, 2);
  EXPECT_NE(dtf::ir::printIR(*g, &r).find("Half(*, *, *, *) = aten::relu"), std::string::npos);
}

// "Nothing picks a version for you": an Options or ReadOptions without
// semantics is refused, naming the field; the built-in handle is the version's
// one semantics, whichever way it is asked for.
TEST(ApiDoc, TheSemanticsAreHandedIn) {
  std::unique_ptr<dtf::ir::Graph> g = dtf::ir::parseIR("graph(%x : Float(2)):\n  return (%x)\n");
  auto refusal = [](auto call) {
    try {
      call();
    } catch (const std::invalid_argument &e) {
      return std::string(e.what());
    }
    return std::string("no std::invalid_argument");
  };
  EXPECT_NE(refusal([&] { dtf::refine::refineGraph(*g, dtf::refine::Options{}); }).find("refine::Options::semantics"),
            std::string::npos);
  EXPECT_NE(refusal([&] { dtf::refine::makeGraphPlan(*g, nullptr); }).find("semantics"), std::string::npos);
  EXPECT_NE(refusal([] { dtf::pt2::readArchive("model.pt2", {}); }).find("pt2::ReadOptions::semantics"),
            std::string::npos);
  EXPECT_NE(refusal([] { dtf::pt2::readExportedProgram("{}", "model.json", {}); }).find("pt2::ReadOptions::semantics"),
            std::string::npos);
  for (dtf::TorchVersion v : dtf::kTorchVersions) {
    std::shared_ptr<const dtf::Semantics> handle = dtf::Semantics::shared(v);
    EXPECT_EQ(handle.get(), &dtf::Semantics::of(v));
    EXPECT_EQ(dtf::Semantics::of(v).shared_from_this(), handle);
    EXPECT_EQ(handle->version(), v);
  }
}

TEST(ApiDoc, OneOpCall) {
  const dtf::Semantics &sem = dtf::Semantics::of(dtf::TorchVersion::V2_14);
  const dtf::Schema *s = sem.schemas().find("aten::add.Tensor");
  auto self = dtf::parseNotation("int32:r1", s->args[0].type.get(), &sem.types());
  auto other = dtf::parseNotation("float64:r0", s->args[1].type.get(), &sem.types());
  dtf::BindResult b = dtf::bindArguments(*s, std::vector{*self.value, *other.value}, {});
  dtf::InferOutcome out = dtf::infer(sem.registry(), *s, b.args);
  EXPECT_EQ(out.outputs[0].str(), "float64:r1"); // a 0-dim float64 outranks int32
}

TEST(ApiDoc, RulesForCustomOps) {
  dtf::RuleSet rules;
  EXPECT_FALSE(rules.add("mylib::mix(Tensor a, Tensor b) -> Tensor",
                         dtf::elementwise(dtf::PromotionKind::IntToFloat, {"a", "b"})));
  EXPECT_FALSE(rules.add("mylib::take(Tensor a, Tensor b) -> Tensor", [](const dtf::OpCall &c) -> dtf::RuleResult {
    if (dtf::isBool(c.dtype("a"))) return c.semantic("a must not be bool");
    return dtf::tensorOf(c.dtype("a"), c.rank("b"));
  }));
  dtf::RuleSpec spec = dtf::RuleSpec::of(dtf::DTypeSpec::always(dtf::DType::Bool), dtf::RankSpec::sameAs("x"));
  auto problems = rules.add("mylib::is_special(Tensor x) -> Tensor", spec);
  EXPECT_TRUE(problems.empty());
  dtf::CustomRuleOptions replace;
  replace.overrideBuiltin = true;
  EXPECT_FALSE(rules.add("aten::gelu(Tensor self, *, str approximate='none') -> Tensor", dtf::sameAs("self"), replace));

  dtf::ExtendedSemantics ext = dtf::Semantics::extend(dtf::TorchVersion::V2_14, rules);
  ASSERT_TRUE(ext.ok());
  std::string program = kProgram;
  program.replace(program.find("%none"), 5, "%s");
  program.insert(program.find("  %a"), "  %s : str = prim::Constant[value=\"none\"]()\n");
  std::unique_ptr<dtf::ir::Graph> g = dtf::ir::parseIR(program);
  dtf::refine::Options opts;
  opts.semantics = ext.semantics;
  opts.inputTypes = {{"x", dtf::Value::tensor(dtf::DType::Int8, dtf::Rank::exact(2))}};
  dtf::refine::Result r = dtf::refine::refineGraph(*g, opts);
  std::map<std::string, std::string> got;
  for (size_t id = 0; id < g->values.size(); ++id) got[g->values[id].name] = r.values[id].str();
  EXPECT_EQ(got["a"], "float32:r2");
  EXPECT_EQ(got["b"], "float32:r1");
  EXPECT_EQ(got["c"], "bool:r1");
  EXPECT_EQ(got["d"], "int8:r2"); // the overriding rule: the built-in one raises for integers
}

} // namespace
