// The .pt2 reader: torch.export's serialized ExportedProgram (schema 8.x)
// into an ir::Graph, the archive around it, and its errors. Documents are
// built here in the serializer's shape (torch 2.14's serialize.py).
#include "api/program.h"
#include "ops/custom_rules.h"
#include "ops/semantics.h"
#include "frontends/pt2/pt2_reader.h"
#include "frontends/pt2/serde_enums.h"
#include "refine/check.h"
#include "refine/graph_plan.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <zip.h>

#include <filesystem>
#include <fstream>

namespace dtf::pt2 {
namespace {

using nlohmann::json;

// --- documents in the serializer's shape ------------------------------------

json sizesOf(std::vector<int64_t> sizes) { // -1: a symbolic size
  json out = json::array();
  for (int64_t s : sizes) out.push_back(s < 0 ? json{{"as_expr", {{"expr_str", "s0"}, {"hint", nullptr}}}} : json{{"as_int", s}});
  return out;
}

json meta(int dtype, std::vector<int64_t> sizes) {
  return {{"dtype", dtype},
          {"sizes", sizesOf(sizes)},
          {"requires_grad", false},
          {"device", {{"type", "cpu"}, {"index", nullptr}}},
          {"strides", json::array()},
          {"storage_offset", {{"as_int", 0}}},
          {"layout", 7}};
}

json tensor(const std::string &name) { return {{"as_tensor", {{"name", name}}}}; }
json named(const std::string &name, json arg, int kind = 1) { return {{"name", name}, {"arg", arg}, {"kind", kind}}; }

json node(const std::string &target, json inputs, json outputs) {
  return {{"target", target}, {"inputs", inputs}, {"outputs", outputs}, {"metadata", json::object()},
          {"is_hop_single_tensor_return", nullptr}, {"name", "n"}};
}

struct Doc {
  json inputs = json::array(), specs = json::array(), nodes = json::array(), outputs = json::array();
  json values = json::object();
  int major = 8;

  Doc &user(const std::string &name, int dtype, std::vector<int64_t> sizes) {
    inputs.push_back(tensor(name));
    specs.push_back({{"user_input", {{"arg", tensor(name)}}}});
    values[name] = meta(dtype, sizes);
    return *this;
  }
  Doc &param(const std::string &name, const std::string &target, int dtype, std::vector<int64_t> sizes) {
    inputs.push_back(tensor(name));
    specs.push_back({{"parameter", {{"arg", {{"name", name}}}, {"parameter_name", target}}}});
    values[name] = meta(dtype, sizes);
    return *this;
  }
  Doc &buffer(const std::string &name, const std::string &target, int dtype, std::vector<int64_t> sizes) {
    inputs.push_back(tensor(name));
    specs.push_back({{"buffer", {{"arg", {{"name", name}}}, {"buffer_name", target}, {"persistent", true}}}});
    values[name] = meta(dtype, sizes);
    return *this;
  }
  /// A node with one tensor result `out` recorded as (dtype, sizes).
  Doc &op(const std::string &target, json inputs_, const std::string &out, int dtype, std::vector<int64_t> sizes) {
    nodes.push_back(node(target, inputs_, json::array({tensor(out)})));
    values[out] = meta(dtype, sizes);
    return *this;
  }
  Doc &ret(const std::string &name) {
    outputs.push_back(tensor(name));
    return *this;
  }
  json document() const {
    json graph = {{"inputs", inputs},          {"outputs", outputs},          {"nodes", nodes},
                  {"tensor_values", values},   {"sym_int_values", json::object()},
                  {"sym_bool_values", json::object()}, {"is_single_tensor_return", false}};
    json outSpecs = json::array();
    for (const json &o : outputs) outSpecs.push_back({{"user_output", {{"arg", o}}}});
    return {{"graph_module",
             {{"graph", graph},
              {"signature", {{"input_specs", specs}, {"output_specs", outSpecs}}},
              {"module_call_graph", json::array()},
              {"metadata", json::object()}}},
            {"opset_version", {{"aten", 10}}},
            {"range_constraints", json::object()},
            {"schema_version", {{"major", major}, {"minor", 20}}},
            {"verifiers", json::array()},
            {"torch_version", "2.14.1"}};
  }
};

// serde dtype numbers (not c10's)
constexpr int kInt32 = 4, kInt64 = 5, kFloat16 = 6, kFloat32 = 7, kFloat64 = 8, kBool = 12, kBFloat16 = 13,
              kFloat8E4M3 = 29;

struct Read {
  Program p;
  refine::Result r;
  ir::ValueId id(const std::string &name) const {
    for (size_t v = 0; v < p.graph->values.size(); ++v)
      if (p.graph->values[v].name == name) return static_cast<ir::ValueId>(v);
    throw std::runtime_error("no value " + name);
  }
  const Value &operator[](const std::string &name) const { return r.values[id(name)]; }
  bool noted(const std::string &category) const {
    for (const refine::Diagnostic &d : p.diagnostics)
      if (d.category == category) return true;
    return false;
  }
  /// Every recorded tensor past the inputs, compared with the inference.
  refine::CheckCounts check() const {
    refine::CheckCounts c;
    for (size_t v = 0; v < p.recorded.size(); ++v) {
      if (!p.recorded[v] || !p.recorded[v]->dtype || refine::isInputLike(*p.graph, static_cast<ir::ValueId>(v))) continue;
      switch (refine::checkTensor(*p.recorded[v]->dtype, p.recorded[v]->rank(), r.values[v])) {
      case refine::Verdict::Correct: ++c.correct; break;
      case refine::Verdict::Unknown: ++c.unknown; break;
      case refine::Verdict::Wrong: ++c.wrong; break;
      default: break;
      }
    }
    return c;
  }
};

/// Read with the newest version's semantics, as the CLI does by default.
ReadOptions newest() { return {.semantics = Semantics::shared(kNewestTorch)}; }

Read readDoc(const json &doc, TorchVersion torch = kNewestTorch) {
  ReadOptions ro;
  ro.semantics = Semantics::shared(torch);
  ReadResult rr = readExportedProgram(doc.dump(), "model.json", ro);
  if (!rr.program) throw std::runtime_error(rr.error);
  Read out{std::move(*rr.program), {}};
  refine::Options o;
  o.semantics = Semantics::shared(torch);
  out.r = refine::refineGraph(*out.p.graph, refine::checkOptions(o));
  return out;
}

std::string errorOf(const json &doc) {
  ReadResult rr = readExportedProgram(doc.dump(), "model.json", newest());
  EXPECT_FALSE(rr.program.has_value());
  return rr.error;
}

// --- enums ------------------------------------------------------------------

TEST(Pt2Serde, DTypeNumbersAreTheSerializersNotC10s) {
  EXPECT_EQ(serdeDTypeName(7), "float32"); // c10's Float is 6
  EXPECT_EQ(serdeDTypeName(13), "bfloat16");
  EXPECT_EQ(serdeDTypeName(28), "uint16");
  EXPECT_EQ(serdeDTypeName(29), "float8_e4m3fn");
  EXPECT_EQ(serdeDTypeName(33), "float8_e8m0fnu");
  EXPECT_EQ(serdeDTypeName(35), "uint64");
  EXPECT_EQ(serdeDTypeName(0), "unknown");
  EXPECT_FALSE(serdeDTypeName(14).has_value());
  EXPECT_FALSE(serdeDTypeName(36).has_value());
  const DTypeSystem &v113 = DTypeSystem::of(TorchVersion::V1_13), &v214 = DTypeSystem::of(TorchVersion::V2_14);
  EXPECT_EQ(modelledDType("float32", v113), DType::Float32);
  EXPECT_EQ(modelledDType("complex32", v113), DType::Complex32);
  EXPECT_FALSE(modelledDType("unknown", v214).has_value());
  EXPECT_EQ(modelledDType("float8_e4m3fn", v214), DType::Float8E4M3FN);
  EXPECT_FALSE(modelledDType("float8_e4m3fn", v113).has_value()); // 1.13 has no such dtype: unknown, never a guess
}

TEST(Pt2Serde, LayoutsAndMemoryFormatsBecomeC10Codes) {
  EXPECT_EQ(c10Layout(7), 0);        // Strided
  EXPECT_EQ(c10Layout(1), 1);        // SparseCoo
  EXPECT_EQ(c10Layout(6), 3);        // _mkldnn
  EXPECT_FALSE(c10Layout(0).has_value());
  EXPECT_EQ(c10MemoryFormat(1), 0);  // contiguous
  EXPECT_EQ(c10MemoryFormat(4), 1);  // preserve
  EXPECT_EQ(c10MemoryFormat(2), 2);  // channels_last
  EXPECT_FALSE(c10MemoryFormat(9).has_value());
}

// --- programs -----------------------------------------------------------------

TEST(Pt2Reader, InputsAreTypedFromTheirTensorMeta) {
  Doc d;
  d.param("p_w", "lin.weight", kFloat32, {3, 4}).buffer("b_s", "scale", kFloat16, {1, 4}).user("x", kInt64, {-1, 3});
  d.op("torch.ops.aten.add.Tensor", {named("self", tensor("p_w")), named("other", tensor("b_s"))}, "y", kFloat32, {3, 4});
  d.ret("y");
  Read r = readDoc(d.document());
  const ir::Graph &g = *r.p.graph;
  ASSERT_EQ(g.body().params.size(), 3u);
  EXPECT_EQ(g.values[g.body().params[0]].type->text, "Float(3, 4)");
  EXPECT_EQ(g.values[g.body().params[1]].type->text, "Half(1, 4)");
  EXPECT_EQ(g.values[g.body().params[2]].type->text, "Long(*, 3)"); // a symbolic size stays unknown
  EXPECT_EQ(r["b_s"].unitDims().sizeIsOne(0), true);
  EXPECT_EQ(r["x"].unitDims().sizeIsOne(0), std::nullopt);
  EXPECT_EQ(r["x"].unitDims().sizeIsOne(1), false);
  ASSERT_EQ(r.p.inputs.size(), 3u);
  EXPECT_EQ(r.p.inputs[0].kind, InputKind::Parameter);
  EXPECT_EQ(r.p.inputs[0].target, "lin.weight");
  EXPECT_EQ(r.p.inputs[1].kind, InputKind::Buffer);
  EXPECT_EQ(r.p.inputs[2].kind, InputKind::UserInput);
  EXPECT_EQ(r["y"].str(), "float32:r2");
  EXPECT_EQ(r.p.schemaMajor, 8);
  EXPECT_EQ(r.p.torchVersion, "2.14.1");
}

TEST(Pt2Reader, RecordedTypesStayOutOfTheGraph) {
  Doc d;
  d.user("x", kFloat32, {2});
  d.op("torch.ops.aten.relu.default", {named("self", tensor("x"))}, "y", kFloat32, {2}).ret("y");
  Read r = readDoc(d.document());
  ir::ValueId y = r.id("y");
  EXPECT_FALSE(r.p.graph->values[y].type->dtype.has_value()); // inference cannot read it
  ASSERT_TRUE(r.p.recorded[y].has_value());
  EXPECT_EQ(r.p.recorded[y]->str(), "Float(2)");
  EXPECT_EQ(r.check().correct, 1u);
}

TEST(Pt2Reader, TargetsArePinnedOverloads) {
  Doc d;
  d.user("x", kFloat32, {2});
  d.op("torch.ops.aten.add.Tensor", {named("self", tensor("x")), named("other", tensor("x"))}, "y", kFloat32, {2});
  d.op("torch.ops.aten.relu.default", {named("self", tensor("y"))}, "z", kFloat32, {2}).ret("z");
  Read r = readDoc(d.document());
  const ir::Graph &g = *r.p.graph;
  const ir::Node &add = g.nodes[g.values[r.id("y")].def];
  EXPECT_EQ(g.kindName(add.kind), "aten::add"); // prints as TorchScript does
  ASSERT_NE(g.pinnedOverload(add.kind), nullptr);
  EXPECT_EQ(*g.pinnedOverload(add.kind), "Tensor");
  const ir::Node &relu = g.nodes[g.values[r.id("z")].def];
  ASSERT_NE(g.pinnedOverload(relu.kind), nullptr);
  EXPECT_EQ(*g.pinnedOverload(relu.kind), ""); // `default`
  refine::GraphPlan plan(g, Semantics::of(kNewestTorch));
  EXPECT_EQ(plan.overloads[add.kind].size(), 1u);
  EXPECT_EQ(plan.overloads[add.kind][0]->key(), "aten::add.Tensor");
  EXPECT_TRUE(plan.pinned[add.kind]);
}

TEST(Pt2Reader, PythonNumbersForTensorsAreWrappedNumbers) {
  // torch.export records `ids * 2` as aten.mul.Tensor(ids, 2): PyTorch wraps 2
  // as a 0-dim tensor of the Python-number tier (int64 stays int64, not a
  // plain 0-dim tensor), and 2.5 gives the default dtype, not float64.
  Doc d;
  d.user("ids", kInt64, {4}).user("h", kFloat16, {4}).user("s", kInt32, {});
  d.op("torch.ops.aten.mul.Tensor", {named("self", tensor("ids")), named("other", {{"as_int", 2}})}, "a", kInt64, {4});
  d.op("torch.ops.aten.mul.Tensor", {named("self", tensor("ids")), named("other", {{"as_float", 2.5}})}, "b", kFloat32, {4});
  d.op("torch.ops.aten.add.Tensor", {named("self", tensor("h")), named("other", {{"as_float", 1.5}})}, "c", kFloat16, {4});
  d.op("torch.ops.aten.div.Tensor", {named("self", tensor("s")), named("other", {{"as_int", 3}})}, "e", kFloat32, {});
  d.op("torch.ops.aten.floor_divide.default", {named("self", tensor("ids")), named("other", {{"as_int", 2}})}, "f", kInt64, {4});
  d.ret("a");
  Read r = readDoc(d.document());
  EXPECT_EQ(r["a"].str(), "int64:r1");
  EXPECT_EQ(r["b"].str(), "float32:r1");
  EXPECT_EQ(r["c"].str(), "float16:r1");
  EXPECT_EQ(r["e"].str(), "float32:r0");
  EXPECT_EQ(r["f"].str(), "int64:r1");
  EXPECT_EQ(r.check().wrong, 0u);
  EXPECT_EQ(r.check().correct, 5u);
}

TEST(Pt2Reader, NamedArgumentsFollowTheSchemaWithDefaultsInGaps) {
  // sum.dim_IntList(self, dim, keepdim=False, *, dtype=None): keepdim left out, dtype given by keyword.
  Doc d;
  d.user("x", kInt32, {2, 3});
  d.op("torch.ops.aten.sum.dim_IntList",
       {named("self", tensor("x")), named("dim", {{"as_ints", {1}}}), named("dtype", {{"as_scalar_type", kFloat64}}, 2)},
       "s", kFloat64, {2});
  d.op("torch.ops.aten.sum.dim_IntList",
       {named("self", tensor("x")), named("dim", {{"as_ints", {1}}}), named("keepdim", {{"as_bool", true}})}, "k",
       kInt64, {2, 1});
  d.ret("s");
  Read r = readDoc(d.document());
  EXPECT_EQ(r["s"].str(), "float64:r1");
  EXPECT_EQ(r["k"].str(), "int64:r2");
  const ir::Graph &g = *r.p.graph;
  EXPECT_EQ(g.nodes[g.values[r.id("s")].def].inputs.size(), 4u); // keepdim's default filled in
  EXPECT_EQ(g.nodes[g.values[r.id("k")].def].inputs.size(), 3u); // trailing defaults left to the refinement
}

TEST(Pt2Reader, ListResultsAreUnpackedByName) {
  Doc d;
  d.user("x", kBFloat16, {4});
  json outs = json::array({{{"as_tensors", {{{"name", "p0"}}, {{"name", "p1"}}}}}});
  d.nodes.push_back(node("torch.ops.aten.split.Tensor", {named("self", tensor("x")), named("split_size", {{"as_int", 2}})}, outs));
  d.values["p0"] = meta(kBFloat16, {2});
  d.values["p1"] = meta(kBFloat16, {2});
  d.op("torch.ops.aten.add.Tensor", {named("self", tensor("p0")), named("other", tensor("p1"))}, "s", kBFloat16, {2});
  d.ret("s");
  Read r = readDoc(d.document());
  EXPECT_EQ(r["p1"].str(), "bfloat16:r1");
  EXPECT_EQ(r.check().correct, 3u);
}

TEST(Pt2Reader, SymbolicSizesFlowAsUnknownInts) {
  // view(x, [sym_size(x, 0), 3, 1]) of a dynamic batch: rank 3, the batch size unknown.
  Doc d;
  d.user("x", kFloat32, {-1, 3});
  d.nodes.push_back(node("torch.ops.aten.sym_size.int", {named("self", tensor("x")), named("dim", {{"as_int", 0}})},
                         json::array({{{"as_sym_int", {{"as_name", "b"}}}}})));
  d.op("torch.ops.aten.view.default",
       {named("self", tensor("x")),
        named("size", {{"as_sym_ints", {{{"as_name", "b"}}, {{"as_int", 3}}, {{"as_int", 1}}}}})},
       "v", kFloat32, {-1, 3, 1});
  d.nodes.push_back(node("_operator.mul", {named("a", {{"as_sym_int", {{"as_name", "b"}}}}), named("b", {{"as_int", 3}})},
                         json::array({{{"as_sym_int", {{"as_name", "b3"}}}}})));
  d.op("torch.ops.aten.view.default",
       {named("self", tensor("v")), named("size", {{"as_sym_ints", {{{"as_name", "b3"}}}}})}, "flat", kFloat32, {-1});
  d.ret("v");
  Read r = readDoc(d.document());
  EXPECT_EQ(r["v"].str(), "float32:r3");
  EXPECT_EQ(r["flat"].str(), "float32:r1");
  EXPECT_EQ(r["b"].numKind(), NumKind::Int);
  EXPECT_FALSE(r["b"].intValue().has_value()); // never its hint
}

TEST(Pt2Reader, UnknownTargetsAreDiagnosedNotGuessed) {
  Doc d;
  d.user("x", kFloat32, {2});
  d.op("torch.ops.aten.frobnicate.default", {named("self", tensor("x"))}, "a", kFloat32, {2});
  // add exists, its `NoSuch` overload does not: no other overload stands in for it.
  d.op("torch.ops.aten.add.NoSuch", {named("self", tensor("x")), named("other", tensor("x"))}, "b", kFloat32, {2});
  d.op("torch.ops.aten.relu.default", {named("self", tensor("a"))}, "c", kFloat32, {2});
  d.ret("c");
  Read r = readDoc(d.document());
  EXPECT_TRUE(r.noted("unknown-target"));
  EXPECT_FALSE(r["a"].dtype().has_value());
  EXPECT_FALSE(r["b"].dtype().has_value());
  EXPECT_FALSE(r["c"].dtype().has_value());
  EXPECT_EQ(r.check().wrong, 0u);
  EXPECT_EQ(r.check().unknown, 3u);
}

TEST(Pt2Reader, CustomOpTargetsMapWithUserRules) {
  RuleSet rules;
  ASSERT_TRUE(rules
                  .addText(R"toml([[op]]
schema = "mylib::fused_gelu(Tensor x, float approximate=0.0) -> Tensor"
dtype = { same_as = "x" }
)toml",
                           "mylib.toml")
                  .empty());
  ExtendedSemantics ext = Semantics::extend(TorchVersion::V2_14, rules);
  ASSERT_TRUE(ext.semantics);
  Doc d;
  d.user("x", kBFloat16, {2, 3});
  d.op("torch.ops.mylib.fused_gelu.default", {named("x", tensor("x")), named("approximate", {{"as_float", 0.5}})}, "g",
       kBFloat16, {2, 3});
  d.op("torch.ops.aten.relu.default", {named("self", tensor("g"))}, "r", kBFloat16, {2, 3});
  d.ret("r");
  // Without the rules the target is unknown, and so is what is computed from it.
  Read plain = readDoc(d.document());
  EXPECT_TRUE(plain.noted("unknown-target"));
  EXPECT_FALSE(plain["r"].dtype().has_value());

  ReadOptions ro;
  ro.semantics = ext.semantics;
  ReadResult rr = readExportedProgram(d.document().dump(), "model.json", ro);
  ASSERT_TRUE(rr.program) << rr.error;
  Read withRules{std::move(*rr.program), {}};
  EXPECT_TRUE(withRules.p.diagnostics.empty());
  refine::Options o;
  o.semantics = ext.semantics;
  withRules.r = refine::refineGraph(*withRules.p.graph, refine::checkOptions(o));
  EXPECT_EQ(withRules["g"].str(), "bfloat16:r2");
  EXPECT_EQ(withRules["r"].str(), "bfloat16:r2");
  EXPECT_EQ(withRules.check().wrong, 0u);
  EXPECT_EQ(withRules.check().correct, 2u);
}

TEST(Pt2Reader, ArgumentsTheTableLacksLeaveTheNodeUnmapped) {
  Doc d;
  d.user("x", kFloat32, {2});
  d.op("torch.ops.aten.relu.default", {named("self", tensor("x")), named("inplace_hint", {{"as_bool", true}})}, "a",
       kFloat32, {2});
  d.ret("a");
  Read r = readDoc(d.document());
  EXPECT_TRUE(r.noted("schema-mismatch"));
  EXPECT_FALSE(r["a"].dtype().has_value());
}

TEST(Pt2Reader, DtypesTheVersionLacksAreUnknownNeverGuessed) {
  Doc d;
  d.user("q", kFloat8E4M3, {2}).user("x", kFloat32, {2});
  d.op("torch.ops.aten.to.dtype", {named("self", tensor("x")), named("dtype", {{"as_scalar_type", kFloat8E4M3}})}, "y",
       kFloat8E4M3, {2});
  d.op("torch.ops.aten.to.dtype", {named("self", tensor("q")), named("dtype", {{"as_scalar_type", kFloat32}})}, "z",
       kFloat32, {2});
  d.ret("y");
  // 2.14 knows float8_e4m3fn: a cast to it and from it are exact.
  Read r = readDoc(d.document());
  EXPECT_EQ(r["q"].str(), "float8_e4m3fn:r1");
  EXPECT_EQ(r["y"].str(), "float8_e4m3fn:r1");
  EXPECT_EQ(r["z"].str(), "float32:r1");
  EXPECT_EQ(r.check().wrong, 0u);
  // Read as 1.13, which has no float8: unknown where it flows, exact elsewhere.
  Read old = readDoc(d.document(), TorchVersion::V1_13);
  EXPECT_FALSE(old["q"].dtype().has_value());
  EXPECT_EQ(old.p.recorded[old.id("q")]->dtypeName, "float8_e4m3fn");
  EXPECT_FALSE(old["y"].dtype().has_value());
  EXPECT_EQ(old["z"].str(), "float32:r1");
  EXPECT_EQ(old.check().wrong, 0u);
}

TEST(Pt2Reader, CondBecomesAnIfWhoseBranchesJoin) {
  auto branch = [](const std::string &name, int dtype) {
    json values = {{"x", meta(kFloat32, {2})}, {"r", meta(dtype, {2})}};
    json g = {{"inputs", {tensor("x")}},
              {"outputs", {tensor("r")}},
              {"nodes", {node("torch.ops.aten.to.dtype",
                              {named("self", tensor("x")), named("dtype", {{"as_scalar_type", dtype}})},
                              json::array({tensor("r")}))}},
              {"tensor_values", values},
              {"sym_int_values", json::object()},
              {"sym_bool_values", json::object()},
              {"is_single_tensor_return", false}};
    return json{{"as_graph", {{"name", name}, {"graph", g}}}};
  };
  for (int other : {kFloat16, kBFloat16}) {
    Doc d;
    d.user("x", kFloat32, {2}).user("p", kBool, {});
    d.nodes.push_back(node("torch.ops.higher_order.cond",
                           {named("", tensor("p")), named("", branch("true_graph_0", kFloat16)),
                            named("", branch("false_graph_0", other)), named("", {{"as_tensors", {{{"name", "x"}}}}})},
                           json::array({tensor("y")})));
    d.values["y"] = meta(kFloat16, {2});
    d.ret("y");
    Read r = readDoc(d.document());
    if (other == kFloat16) EXPECT_EQ(r["y"].str(), "float16:r1");
    else EXPECT_FALSE(r["y"].dtype().has_value()); // float16 or bfloat16
    EXPECT_EQ(r["true_graph_0.r"].str(), "float16:r1");
    EXPECT_EQ(r.check().wrong, 0u);
  }
}

// --- errors -------------------------------------------------------------------

TEST(Pt2Errors, UnknownSchemaMajorVersion) {
  Doc d;
  d.major = 9;
  std::string e = errorOf(d.document());
  EXPECT_NE(e.find("model.json: schema_version.major: schema version 9.20 is not supported"), std::string::npos) << e;
}

TEST(Pt2Errors, UnknownDTypeNumberNamesTheField) {
  Doc d;
  d.user("x", 99, {2}).ret("x");
  std::string e = errorOf(d.document());
  EXPECT_NE(e.find("graph_module.graph.tensor_values.x.dtype: unknown dtype number 99"), std::string::npos) << e;
}

TEST(Pt2Errors, DocumentsThatDoNotMatchTheSchema) {
  Doc d;
  d.user("x", kFloat32, {2});
  d.op("torch.ops.aten.relu.default", {named("self", tensor("nowhere"))}, "y", kFloat32, {2}).ret("y");
  EXPECT_NE(errorOf(d.document()).find("graph_module.graph.nodes[0].inputs[0].arg.as_tensor.name: use of undefined "
                                       "value 'nowhere'"),
            std::string::npos);
  Doc withInput;
  withInput.user("x", kFloat32, {2});
  json noMetas = withInput.document();
  noMetas["graph_module"]["graph"].erase("tensor_values");
  EXPECT_NE(errorOf(noMetas).find("graph_module.graph: missing field 'tensor_values'"), std::string::npos);
  json twoTags = withInput.document();
  twoTags["graph_module"]["graph"]["inputs"][0]["as_none"] = true;
  EXPECT_NE(errorOf(twoTags).find("graph_module.graph.inputs[0]: expected a tagged union"), std::string::npos);
  json wrongKind = withInput.document();
  wrongKind["graph_module"]["graph"]["tensor_values"]["x"]["sizes"] = "2";
  EXPECT_NE(errorOf(wrongKind).find("tensor_values.x.sizes: expected an array, found a string"), std::string::npos);
  EXPECT_NE(errorOf(json::array()).find("model.json: expected an object, found an array"), std::string::npos);
}

TEST(Pt2Errors, InvalidJson) {
  ReadResult rr = readExportedProgram("{\"schema_version\": {", "m/models/model.json", newest());
  ASSERT_FALSE(rr.program);
  EXPECT_NE(rr.error.find("m/models/model.json: invalid JSON: parse error"), std::string::npos) << rr.error;
}

TEST(Pt2Errors, InvalidJsonNamesLineAndColumn) {
  ReadResult rr = readExportedProgram("{\"schema_version\":\n  {\"major\": 8,, \"minor\": 20}}", "m/models/model.json", newest());
  ASSERT_FALSE(rr.program);
  EXPECT_NE(rr.error.find("m/models/model.json: invalid JSON: parse error at line 2, column 15"), std::string::npos)
      << rr.error;
}

TEST(Pt2Errors, IntegersPastInt64) {
  Doc d;
  d.user("x", kFloat32, {2}).ret("x");
  std::string text = d.document().dump();
  // Past int64 but within uint64: read, then refused by the field that wanted an int64.
  std::string big = text;
  big.replace(big.find("\"major\":8"), 9, "\"major\":18446744073709551615");
  ReadResult rr = readExportedProgram(big, "m/models/model.json", newest());
  ASSERT_FALSE(rr.program);
  EXPECT_NE(rr.error.find("schema_version.major: integer 18446744073709551615 does not fit in int64"), std::string::npos)
      << rr.error;
  // Past 64 bits: JSON, but not one simdjson reads (nlohmann would read a float): refused with simdjson's reason.
  std::string huge = text;
  huge.replace(huge.find("\"major\":8"), 9, "\"major\":184467440737095516150");
  rr = readExportedProgram(huge, "m/models/model.json", newest());
  ASSERT_FALSE(rr.program);
  EXPECT_NE(rr.error.find("m/models/model.json: invalid JSON: parse error: "), std::string::npos) << rr.error;
}

TEST(Pt2Errors, RepeatedKeyInAUnionIsRefused) {
  // {"as_tensor": ..., "as_tensor": ...}: two members, not a tagged union (the first of repeated keys is read elsewhere).
  Doc d;
  d.user("x", kFloat32, {2});
  d.op("torch.ops.aten.relu.default", {named("self", tensor("x"))}, "y", kFloat32, {2}).ret("y");
  std::string text = d.document().dump();
  const std::string once = "{\"as_tensor\":{\"name\":\"x\"}}";
  size_t at = text.find(once);
  ASSERT_NE(at, std::string::npos) << text;
  text.replace(at, once.size(), "{\"as_tensor\":{\"name\":\"x\"},\"as_tensor\":{\"name\":\"x\"}}");
  ReadResult rr = readExportedProgram(text, "m/models/model.json", newest());
  ASSERT_FALSE(rr.program);
  EXPECT_NE(rr.error.find("expected a tagged union (an object of one member), found 2 members"), std::string::npos)
      << rr.error;
}

// --- archives -------------------------------------------------------------------

/// A zip written with libzip (stored members, as torch writes them).
std::string writeZip(const std::string &name, const std::vector<std::pair<std::string, std::string>> &members) {
  std::string path = (std::filesystem::temp_directory_path() / ("dtf_pt2_test_" + name)).string();
  int err = 0;
  zip_t *z = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &err);
  EXPECT_NE(z, nullptr);
  for (const auto &[m, data] : members) {
    zip_source_t *src = zip_source_buffer(z, data.data(), data.size(), 0);
    zip_file_add(z, m.c_str(), src, ZIP_FL_OVERWRITE);
  }
  EXPECT_EQ(zip_close(z), 0);
  return path;
}

std::string validDocument() {
  Doc d;
  d.user("x", kFloat32, {2});
  d.op("torch.ops.aten.relu.default", {named("self", tensor("x"))}, "y", kFloat32, {2}).ret("y");
  return d.document().dump();
}

TEST(Pt2Archive, ReadsTheModelMember) {
  std::string path = writeZip("ok.pt2", {{"m/archive_format", "pt2"}, {"m/models/model.json", validDocument()}});
  ReadResult rr = readArchive(path, newest());
  ASSERT_TRUE(rr.program) << rr.error;
  EXPECT_EQ(rr.program->member, "m/models/model.json");
  EXPECT_EQ(sniffFile(path), FileKind::Pt2);
}

TEST(Pt2Archive, TruncatedZip) {
  std::string path = writeZip("whole.pt2", {{"m/archive_format", "pt2"}, {"m/models/model.json", validDocument()}});
  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), {});
  std::string cut = path + ".cut";
  std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  ReadResult rr = readArchive(cut, newest());
  ASSERT_FALSE(rr.program);
  EXPECT_NE(rr.error.find("not a readable zip archive"), std::string::npos) << rr.error;
  std::string why;
  EXPECT_EQ(sniffFile(cut, &why), FileKind::BadZip);
  EXPECT_FALSE(why.empty());
}

TEST(Pt2Archive, MissingModelJson) {
  std::string path = writeZip("nomodel.pt2", {{"m/archive_format", "pt2"}, {"m/data/weights/weight_0", "1234"}});
  ReadResult rr = readArchive(path, newest());
  ASSERT_FALSE(rr.program);
  EXPECT_NE(rr.error.find("no NAME/models/*.json member"), std::string::npos) << rr.error;
}

TEST(Pt2Archive, BadJsonMember) {
  std::string path = writeZip("badjson.pt2", {{"m/archive_format", "pt2"}, {"m/models/model.json", "{not json"}});
  ReadResult rr = readArchive(path, newest());
  ASSERT_FALSE(rr.program);
  EXPECT_NE(rr.error.find("m/models/model.json: invalid JSON"), std::string::npos) << rr.error;
}

TEST(Pt2Archive, NotAnExportArchive) {
  std::string path = writeZip("module.pt", {{"m/data.pkl", "x"}, {"m/code/m.py", "y"}});
  EXPECT_EQ(sniffFile(path), FileKind::TorchScript);
  ReadResult rr = readArchive(path, newest());
  ASSERT_FALSE(rr.program);
  EXPECT_NE(rr.error.find("not a torch.export archive"), std::string::npos) << rr.error;
  std::string other = writeZip("other.zip", {{"readme.txt", "hi"}});
  EXPECT_EQ(sniffFile(other), FileKind::OtherZip);
}

TEST(Pt2Archive, ChoosesTheModelByName) {
  std::string path = writeZip("two.pt2", {{"a/archive_format", "pt2"},
                                          {"a/models/encoder.json", validDocument()},
                                          {"a/models/decoder.json", validDocument()}});
  EXPECT_NE(readArchive(path, newest()).error.find("no model named 'model' (the archive has: decoder, encoder)"), std::string::npos);
  ReadOptions o = newest();
  o.model = "decoder";
  EXPECT_TRUE(readArchive(path, o).program);
}

// torch 2.6's torch.export.save: the program at the archive's root, no archive_format.
TEST(Pt2Archive, ReadsTheOlderLayout) {
  std::string path = writeZip("old.pt2", {{"serialized_exported_program.json", validDocument()},
                                          {"serialized_state_dict.pt", "x"},
                                          {"version", "8.2"}});
  EXPECT_EQ(sniffFile(path), FileKind::Pt2);
  ReadResult rr = readArchive(path, newest());
  ASSERT_TRUE(rr.program) << rr.error;
  EXPECT_EQ(rr.program->member, "serialized_exported_program.json");
  ReadOptions o = newest();
  o.model = "encoder";
  EXPECT_NE(readArchive(path, o).error.find("no model named 'encoder': this archive (the older layout"), std::string::npos);
  std::string bad = writeZip("oldbad.pt2", {{"serialized_exported_program.json", "{not json"}, {"version", "8.2"}});
  EXPECT_NE(readArchive(bad, newest()).error.find("serialized_exported_program.json: invalid JSON"), std::string::npos);
  // Only the pickles, no program: neither layout.
  std::string none = writeZip("oldnone.pt2", {{"serialized_state_dict.pt", "x"}, {"version", "8.2"}});
  EXPECT_NE(readArchive(none, newest()).error.find("no serialized_exported_program.json (the older one"), std::string::npos);
}

// The committed archives (tests/pt2/archives, made by tests/pt2/gen_pt2.py with
// torch 2.14.1): every recorded value is inferred right or left unknown.
// Through the door, as `dtypeflow check` compares: a record that only the
// meta kernels' answer matches (threshold_backward_mixed.pt2; three values of
// fake_references.pt2, FakeTensor's Python references) is right.
TEST(Pt2Archive, CommittedArchivesHaveNoWrongValue) {
  std::filesystem::path dir = std::filesystem::path(DTF_SOURCE_DIR) / "tests/pt2/archives";
  const api::SemanticsRef sem = api::semantics("2.14");
  size_t archives = 0, settledByMeta = 0;
  for (const auto &entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".pt2") continue;
    ++archives;
    api::LoadedProgram p = api::readProgram(entry.path().string(), "", *sem);
    api::ProgramOptions po;
    po.check = true;
    const refine::Options opts = api::refineOptions(p, sem, po);
    const refine::Result r = refine::refineGraph(*p.graph, opts);
    api::CheckReport report = api::checkProgram(p, r, false);
    settledByMeta += api::settleByMetaKernels(p, opts, r, report).size();
    EXPECT_EQ(report.counts.wrong, 0u) << entry.path();
    EXPECT_GT(report.counts.correct, 0u) << entry.path();
  }
  EXPECT_GE(archives, 8u);
  EXPECT_EQ(settledByMeta, 4u); // threshold_backward_mixed's one value, fake_references' pow and two losses
}

} // namespace
} // namespace dtf::pt2
