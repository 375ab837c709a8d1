// Pinned overloads (Graph::internPinnedKind): a node kind that names its
// overload, as torch.export's targets do, is resolved to that overload alone.
#include "graph/graph.h"
#include "ops/semantics.h"
#include "refine/refine.h"
#include "schema/schema.h"

#include <gtest/gtest.h>

namespace dtf {
namespace {

TEST(PinnedOverload, KindsAreInternedPerOverloadAndPrintAsTheOp) {
  ir::Graph g;
  ir::KindId plain = g.internKind("aten::add");
  ir::KindId tensor = g.internPinnedKind("aten::add", "Tensor");
  EXPECT_NE(plain, tensor);
  EXPECT_EQ(g.internPinnedKind("aten::add", "Tensor"), tensor);
  EXPECT_NE(g.internPinnedKind("aten::add", ""), tensor);
  EXPECT_EQ(g.kindName(tensor), "aten::add");
  EXPECT_EQ(g.pinnedOverload(plain), nullptr);
  EXPECT_EQ(*g.pinnedOverload(tensor), "Tensor");
}

TEST(PinnedOverload, SpansAreTheirOwnSoMemoKeysDiffer) {
  // The memo keys evaluations by the overload span's address: a pinned
  // span must never share one with the op's full overload list.
  const SchemaTable &t = SchemaTable::of(kNewestTorch);
  auto all = t.overloadSpan("aten::add");
  auto first = t.pinnedSpan(all[0]->key());
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0], all[0]);
  EXPECT_NE(first.data(), all.data());
  EXPECT_EQ(t.pinnedSpan(all[0]->key()).data(), first.data()); // stable
  EXPECT_TRUE(t.pinnedSpan("aten::add.NoSuch").empty());
}

TEST(PinnedOverload, ResolutionTakesThePinnedOverload) {
  // `sub(2.5, %x)`: no overload of aten::sub takes a number first, so matching
  // finds none; pinned to sub.Tensor (as torch.export records `2.5 - x` where
  // the Python binding wraps the number) it runs with a wrapped number.
  ir::Graph g;
  ir::ValueId x = g.addValue("x", ir::tensorType()), n = g.addValue("n", ir::tensorType());
  for (ir::ValueId v : {x, n}) {
    g.values[v].paramOf = 0;
    g.body().params.push_back(v);
  }
  auto sub = [&](ir::KindId k, const std::string &out) {
    ir::NodeId node = g.addNode(0, k, {});
    g.nodes[node].inputs = {n, x};
    ir::ValueId o = g.addValue(out, ir::tensorType());
    g.values[o].def = node;
    g.nodes[node].outputs.push_back(o);
    return o;
  };
  ir::ValueId pinned = sub(g.internPinnedKind("aten::sub", "Tensor"), "pinned");
  ir::ValueId matched = sub(g.internKind("aten::sub"), "matched");
  ir::ValueId other = sub(g.internPinnedKind("aten::sub", "int"), "other"); // sub.int(int, int): x is a tensor
  g.body().returns = {pinned};
  refine::Options o{.semantics = Semantics::shared(kNewestTorch)};
  o.inputTypes = {{"x", Value::tensor(DType::Int8, Rank::exact(1))}, {"n", Value::number(NumKind::Float)}};
  o.memo = refine::makeEvalMemo(); // one memo for the three: their keys must differ
  refine::Result r = refine::refineGraph(g, o);
  EXPECT_EQ(r.values[pinned].str(), "float32:r1");
  EXPECT_FALSE(r.values[matched].isTensor() && r.values[matched].dtype());
  EXPECT_FALSE(r.values[other].isTensor() && r.values[other].dtype()); // never another overload
  size_t noOverload = 0;
  for (const refine::Diagnostic &d : r.diagnostics) noOverload += d.category == "no-overload";
  EXPECT_EQ(noOverload, 2u);
}

TEST(PinnedOverload, ConstantNumbersForTensorsWithAKeptPlan) {
  // mul.Tensor(%x, 2.5) with 2.5 a graph constant: a kept plan resolves op
  // sites with constant arguments once; the number is still a wrapped one.
  ir::Graph g;
  ir::ValueId x = g.addValue("x", ir::tensorType());
  g.values[x].paramOf = 0;
  g.body().params.push_back(x);
  auto floatType = std::make_shared<ir::TypeExpr>();
  floatType->kind = ir::TypeExpr::Kind::Float;
  floatType->text = "float";
  ir::finishType(*floatType);
  ir::NodeId c = g.addNode(0, "prim::Constant", {});
  g.nodes[c].attrs.push_back({"value", "2.5", ir::Attribute::LitKind::Float, Value::floating(2.5)});
  ir::ValueId two = g.addValue("c", floatType);
  g.values[two].def = c;
  g.nodes[c].outputs.push_back(two);
  ir::NodeId mul = g.addNode(0, g.internPinnedKind("aten::mul", "Tensor"), {});
  g.nodes[mul].inputs = {x, two};
  ir::ValueId y = g.addValue("y", ir::tensorType());
  g.values[y].def = mul;
  g.nodes[mul].outputs.push_back(y);
  g.body().returns = {y};
  for (bool kept : {false, true}) {
    refine::Options o{.semantics = Semantics::shared(kNewestTorch)};
    o.inputTypes = {{"x", Value::tensor(DType::Int64, Rank::exact(2))}};
    if (kept) o.plan = refine::makeGraphPlan(g, o.semantics);
    EXPECT_EQ(refine::refineGraph(g, o).values[y].str(), "float32:r2") << (kept ? "kept plan" : "own plan");
  }
}

} // namespace
} // namespace dtf
