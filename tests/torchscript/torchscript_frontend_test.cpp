// Annotated IR must be TorchScript that libtorch reads back; .pt modules load
// through the TorchScript frontend with parameters typed from their tensors.
#include "frontends/text/ir_parser.h"
#include "frontends/text/ir_printer.h"
#include "frontends/torchscript/module_loader.h"
#include "ops/semantics.h"
#include "refine/refine.h"

#include <torch/csrc/jit/ir/irparser.h>
#include <torch/csrc/jit/passes/freeze_module.h>
#include <torch/script.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <gtest/gtest.h>
#include <sstream>

namespace dtf {
namespace {

std::string readFile(const std::string &path) {
  std::ifstream in(path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string annotated(const std::string &text) {
  auto g = ir::parseIR(text);
  refine::Result r = refine::refineGraph(*g, {.semantics = Semantics::shared(TorchVersion::V1_13)});
  return ir::printIR(*g, &r);
}

/// Save `m`, load it back through the .pt frontend, and parse the IR it gives.
std::unique_ptr<ir::Graph> savedAndLoaded(torch::jit::Module &m, const std::string &fileName, std::string *text) {
  auto path = (std::filesystem::temp_directory_path() / fileName).string();
  m.save(path);
  *text = torchscript::loadModuleAsIR(path);
  std::filesystem::remove(path);
  return ir::parseIR(*text);
}

/// The return value's inferred type with `x.1` typed as `x` (constants read as
/// TorchScript runs a saved module, the CLI's default for .pt files).
std::string returnTypeWith(const ir::Graph &g, Value x) {
  refine::Options opts;
  opts.semantics = Semantics::shared(TorchVersion::V1_13);
  opts.tensorConstants = refine::TensorConstantPolicy::Runtime;
  opts.inputTypes.emplace_back("x.1", x);
  refine::Result r = refine::refineGraph(g, opts);
  return r.values[g.body().returns[0]].str();
}

class AnnotatedExample : public ::testing::TestWithParam<std::string> {};

TEST_P(AnnotatedExample, ReparsesWithLibtorch) {
  std::string text = annotated(readFile(std::string(DTF_SOURCE_DIR) + "/examples/" + GetParam() + ".ir"));
  auto graph = std::make_shared<torch::jit::Graph>();
  ASSERT_NO_THROW(torch::jit::parseIR(text, graph.get(), /*parse_tensor_constants=*/true)) << text;
  // The refined types survive the round trip: `Float(*, *)` is a rank-2 float tensor.
  bool sawRefined = false;
  for (torch::jit::Node *n : graph->nodes())
    for (torch::jit::Value *v : n->outputs())
      if (auto t = v->type()->cast<c10::TensorType>())
        if (t->scalarType() && t->dim()) sawRefined = true;
  EXPECT_TRUE(sawRefined);
}

INSTANTIATE_TEST_SUITE_P(Examples, AnnotatedExample,
                         ::testing::Values("resnet18", "mobilenet_v2", "transformer_encoder",
                                           "token_embedding", "mixed_dtypes"));

TEST(AnnotatedTypes, DtypeAndRankRoundTrip) {
  std::string text = annotated("graph(%x : Long(2, 3), %s : Double()):\n"
                               "  %one : int = prim::Constant[value=1]()\n"
                               "  %y : Tensor = aten::add(%x, %s, %one)\n"
                               "  %z : Tensor = aten::sum(%y, %one)\n"
                               "  return (%y)\n");
  auto graph = std::make_shared<torch::jit::Graph>();
  std::unordered_map<std::string, torch::jit::Value *> vmap;
  torch::jit::parseIR(text, graph.get(), vmap);
  auto t = vmap.at("y")->type()->expect<c10::TensorType>();
  // int64 dim tensor + 0-dim float64 tensor -> float64 (the 0-dim tensor's higher category)
  EXPECT_EQ(t->scalarType(), c10::ScalarType::Double);
  EXPECT_EQ(t->dim(), 2u);
}

TEST(ModuleLoader, LowersParametersToTypedInputs) {
  torch::jit::Module m("Scale");
  m.register_parameter("weight", torch::ones({3}, torch::kFloat64), false);
  m.register_buffer("offset", torch::zeros({3}, torch::kInt32));
  m.define(R"(
    def forward(self, x):
        return x * self.weight + self.offset
  )");
  auto path = (std::filesystem::temp_directory_path() / "dtf_module_loader_test.pt").string();
  m.save(path);
  std::string text = torchscript::loadModuleAsIR(path);
  auto g = ir::parseIR(text);
  refine::Options opts;
  opts.semantics = Semantics::shared(TorchVersion::V1_13);
  opts.inputTypes.emplace_back("x.1", Value::tensor(DType::Float32, Rank::exact(1)));
  refine::Result r = refine::refineGraph(*g, opts);
  const ir::Block &body = g->body();
  ASSERT_EQ(body.params.size(), 3u) << text;
  std::map<std::string, std::string> params;
  for (ir::ValueId p : body.params) params[g->values[p].name] = r.values[p].str();
  EXPECT_EQ(params["weight"], "float64:r1") << text;
  EXPECT_EQ(params["offset"], "int32:r1") << text;
  // float32 x * float64 weight (both dim tensors) -> float64; + int32 -> float64
  EXPECT_EQ(r.values[body.returns[0]].str(), "float64:r1") << ir::printIR(*g, &r);
  std::filesystem::remove(path);
}

// A scripted module reading non-tensor attributes (a bool, an int list) is
// beyond LowerGraph: the loader freezes it, lifts the tensors freezing folded
// in back out as typed inputs (the module reads them as tensors), and `self`
// goes away.
TEST(ModuleLoader, FreezesModulesWithNonTensorAttributes) {
  torch::jit::Module m("Gate");
  m.register_parameter("weight", torch::ones({3}, torch::kFloat64), false);
  m.register_attribute("use_weight", c10::BoolType::get(), true);
  m.register_attribute("dims", c10::ListType::ofInts(), c10::List<int64_t>({0}));
  m.define(R"(
    def forward(self, x):
        if self.use_weight:
            x = x * self.weight
        return x.sum(self.dims)
  )");
  std::string text;
  auto g = savedAndLoaded(m, "dtf_module_loader_frozen_test.pt", &text);
  ASSERT_EQ(g->body().params.size(), 2u) << text;
  EXPECT_EQ(g->values[g->body().params[0]].name, "x.1") << text; // forward's own name for it
  EXPECT_EQ(g->values[g->body().params[1]].name, "self.weight") << text;
  // int32 x * float64 weight -> float64; summed over one of two dims -> rank 1
  EXPECT_EQ(returnTypeWith(*g, Value::tensor(DType::Int32, Rank::exact(2))), "float64:r1") << text;
}

/// A module computing `x - self.c * 2` (`self.c`: a 0-dim int16 tensor
/// attribute; freezing folds `self.c * 2` into a constant named by number),
/// and reading a bool attribute, so that the loader freezes it.
torch::jit::Module subtractsAttribute() {
  torch::jit::Module m("Shift");
  m.register_attribute("c", c10::TensorType::get(), torch::tensor(3, torch::kInt16));
  m.register_attribute("on", c10::BoolType::get(), true);
  m.define(R"(
    def forward(self, x):
        if self.on:
            return x - self.c * 2
        return x
  )");
  return m;
}

// Measured on torch 1.13: the module reads `self.c` as a tensor (int8 0-dim x
// - int16 0-dim c * 2 -> int16), even though the loader freezes it to a constant.
TEST(ModuleLoader, FrozenAttributesStayTensors) {
  torch::jit::Module m = subtractsAttribute();
  std::string text;
  auto g = savedAndLoaded(m, "dtf_module_loader_attr_test.pt", &text);
  EXPECT_EQ(returnTypeWith(*g, Value::tensor(DType::Int8, Rank::exact(0))), "int16:r0") << text;
}

// A module saved after freezing holds `c` as a constant of its code, which the
// graph executor's CanonicalizeOps turns into a Python int: int8 - 3 -> int8.
TEST(ModuleLoader, ConstantsOfSavedCodeRunAsScalarsWhereTorchScriptMakesThemSo) {
  torch::jit::Module m = subtractsAttribute();
  m.eval();
  torch::jit::Module frozen = torch::jit::freeze_module(m);
  std::string text;
  auto g = savedAndLoaded(frozen, "dtf_module_loader_frozen_const_test.pt", &text);
  EXPECT_EQ(returnTypeWith(*g, Value::tensor(DType::Int8, Rank::exact(0))), "int8:r0") << text;
  // The same module run on its tensors: int16.
  auto x = torch::tensor(5, torch::kInt8);
  EXPECT_EQ(m.forward({x}).toTensor().scalar_type(), torch::kInt16);
  EXPECT_EQ(frozen.forward({x}).toTensor().scalar_type(), torch::kInt8);
}

// A module that sets an attribute (detection models' `_has_warned`) makes
// LowerGraph throw an ErrorReport, not a c10::Error: it is frozen too.
TEST(ModuleLoader, FreezesModulesThatSetAttributes) {
  torch::jit::Module m("Counter");
  m.register_parameter("weight", torch::ones({3}, torch::kFloat64), false);
  m.register_attribute("calls", c10::IntType::get(), 0);
  m.define(R"(
    def forward(self, x):
        self.calls = self.calls + 1
        return x + self.weight
  )");
  std::string text;
  auto g = savedAndLoaded(m, "dtf_module_loader_setattr_test.pt", &text);
  EXPECT_EQ(returnTypeWith(*g, Value::tensor(DType::Float32, Rank::exact(1))), "float64:r1") << text;
}

TEST(ModuleLoader, BadFileIsALoadError) {
  EXPECT_THROW(torchscript::loadModuleAsIR("/nonexistent/model.pt"), torchscript::LoadError);
}

} // namespace
} // namespace dtf
