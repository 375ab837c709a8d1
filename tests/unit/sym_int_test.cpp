// Python ints that hold sizes (issue 35): arithmetic on them keeps the
// expression, comparisons their symbols' ranges decide are decided, and a
// graph that computes a view's sizes from x.size(0) keeps the symbol.
#include "run_op.h"

#include "frontends/text/ir_parser.h"
#include "refine/refine.h"

#include <gtest/gtest.h>

namespace dtf {
namespace {

using test::run;

/// Result `i` as the compact text (`int=2*s0`, `int=6`, `bool=True`).
std::string out(const InferOutcome &o, size_t i = 0) {
  if (o.status != InferOutcome::Status::Ok || o.outputs.size() <= i) return "error";
  return o.outputs[i].str();
}

TEST(SymInt, ArithmeticKeepsTheExpression) {
  EXPECT_EQ(out(run("aten::mul.int", {{"a", "s0"}, {"b", "2"}})), "int=2*s0");
  EXPECT_EQ(out(run("aten::add.int", {{"a", "2*s0"}, {"b", "s1"}})), "int=2*s0 + s1");
  EXPECT_EQ(out(run("aten::sub.int", {{"a", "s0 + 3"}, {"b", "s0"}})), "int=3"); // symbols cancel: a known int
  EXPECT_EQ(out(run("aten::floordiv.int", {{"a", "4*s0 + 8"}, {"b", "4"}})), "int=s0 + 2");
  EXPECT_EQ(out(run("aten::remainder.int", {{"a", "4*s0 + 3"}, {"b", "2"}})), "int=1");
  EXPECT_EQ(out(run("aten::neg.int", {{"a", "s0"}})), "int=-s0");
  EXPECT_EQ(out(run("prim::max.int", {{"a", "s0"}, {"b", "s0 + 1"}})), "int=s0 + 1");
  EXPECT_EQ(out(run("aten::mul.int_float", {{"a", "s0"}, {"b", "2.5"}})), "float");
  // A symbolic divisor of 0 is still an error where it is known.
  test::expectError(run("aten::floordiv.int", {{"a", "s0"}, {"b", "0"}}));
}

TEST(SymInt, ComparisonsTheRangesDecide) {
  // A size symbol written by a user is >= 0: s0 + 1 > 0 always, s0 == 3 not decided.
  EXPECT_EQ(out(run("aten::gt.int", {{"a", "s0 + 1"}, {"b", "0"}})), "True");
  EXPECT_EQ(out(run("aten::lt.int", {{"a", "s0"}, {"b", "s0 + 1"}})), "True");
  EXPECT_EQ(out(run("aten::eq.int", {{"a", "s0"}, {"b", "s0 + 1"}})), "False");
  EXPECT_EQ(out(run("aten::ne.int", {{"a", "2*s0"}, {"b", "s0 + s0"}})), "False");
  EXPECT_EQ(out(run("aten::eq.int", {{"a", "s0"}, {"b", "3"}})), "bool");
  EXPECT_EQ(out(run("aten::ge.int", {{"a", "s0"}, {"b", "1"}})), "bool");
}

/// The graph's value named `name` after refining with x typed `xType`.
std::string refined(const std::string &ir, const std::string &name, const std::string &xType) {
  auto g = ir::parseIR(ir);
  refine::Options opts{.semantics = Semantics::shared(TorchVersion::V1_13)};
  auto v = parseNotation(xType, nullptr, nullptr);
  EXPECT_TRUE(v.value.has_value()) << v.error;
  opts.inputTypes.emplace_back("x", *v.value);
  refine::Result r = refine::refineGraph(*g, opts);
  for (size_t i = 0; i < g->values.size(); ++i)
    if (g->values[i].name == name) return r.values[i].isTensor() ? r.values[i].shapeStr() : r.values[i].str();
  return "no value " + name;
}

TEST(SymInt, ScriptedViewKeepsTheSymbol) {
  // torch.jit.script: x.view(x.size(0) * 2, -1), and zeros(x.size(1) // 2 + x.size(0)).
  const char *ir = R"(graph(%x : Tensor):
  %0 : int = prim::Constant[value=0]()
  %1 : int = prim::Constant[value=1]()
  %2 : int = prim::Constant[value=2]()
  %m1 : int = prim::Constant[value=-1]()
  %none : NoneType = prim::Constant()
  %n : int = aten::size(%x, %0)
  %n2 : int = aten::mul(%n, %2)
  %sizes : int[] = prim::ListConstruct(%n2, %m1)
  %y : Tensor = aten::view(%x, %sizes)
  %c : int = aten::size(%x, %1)
  %h : int = aten::floordiv(%c, %2)
  %k : int = aten::add(%h, %n)
  %zs : int[] = prim::ListConstruct(%k)
  %z : Tensor = aten::zeros(%zs, %none, %none, %none, %none)
  %big : bool = aten::gt(%k, %m1)
  return (%y, %z, %big)
)";
  EXPECT_EQ(refined(ir, "y", "float32:[s0,8]"), "[2*s0, 4]");
  EXPECT_EQ(refined(ir, "z", "float32:[s0,8]"), "[s0 + 4]");
  EXPECT_EQ(refined(ir, "z", "float32:[s0,t]"), "[(t//2) + s0]");
  EXPECT_EQ(refined(ir, "big", "float32:[s0,t]"), "True");
  EXPECT_EQ(refined(ir, "y", "float32:[3,8]"), "[6, 4]");
}

TEST(SymInt, HeldIntsJoinOnlyWhereTheyAgree) {
  SymExpr s0 = SymExpr::symbol("s0");
  Value a = Value::heldIntTensor(s0 * SymExpr(2)), b = Value::heldIntTensor(s0);
  EXPECT_TRUE(Value::join(a, a).identical(a));
  EXPECT_EQ(Value::join(a, a).heldInt(), s0 * SymExpr(2));
  EXPECT_EQ(Value::join(a, b).heldInt(), std::nullopt);
  EXPECT_EQ(Value::join(a, b).str(), "int64:r0");
  EXPECT_EQ(a.shape(), Dims{}); // a 0-dim tensor: no sizes, whatever it holds
  EXPECT_FALSE(a.hasKnownDims());
  EXPECT_EQ(a.withDTypes(DTypeSet(DType::Float32)).heldInt(), std::nullopt); // only int64 tensors hold ints
}

TEST(SymInt, TracedRoundTripThroughZeroDimTensors) {
  // torch.jit.trace (1.13) of x.view(x.size(0) * 2, -1) + x.new_zeros(x.size(0) // 2 * 4, x.size(1) // 2):
  // the tracer records the int arithmetic on 0-dim int64 tensors.
  const char *ir = R"(graph(%x : Float(4, 6, strides=[6, 1], requires_grad=0, device=cpu)):
  %0 : int = prim::Constant[value=0]()
  %1 : int = prim::Constant[value=1]()
  %m1 : int = prim::Constant[value=-1]()
  %none : NoneType = prim::Constant()
  %2 : int = aten::size(%x, %0)
  %3 : Long(device=cpu) = prim::NumToTensor(%2)
  %4 : Long(requires_grad=0, device=cpu) = prim::Constant[value={2}]()
  %5 : Long(requires_grad=0, device=cpu) = aten::mul(%3, %4)
  %6 : int = aten::Int(%5)
  %8 : int[] = prim::ListConstruct(%6, %m1)
  %y : Float(8, 3, strides=[3, 1], requires_grad=0, device=cpu) = aten::view(%x, %8)
  %13 : Long(requires_grad=0, device=cpu) = prim::Constant[value={2}]()
  %14 : Long(requires_grad=0, device=cpu) = aten::floor_divide(%3, %13)
  %15 : Long(requires_grad=0, device=cpu) = prim::Constant[value={4}]()
  %16 : Long(requires_grad=0, device=cpu) = aten::mul(%14, %15)
  %22 : int = aten::Int(%16)
  %18 : int = aten::size(%x, %1)
  %19 : Long(device=cpu) = prim::NumToTensor(%18)
  %21 : Long(requires_grad=0, device=cpu) = aten::floor_divide(%19, %13)
  %23 : int = aten::Int(%21)
  %24 : int[] = prim::ListConstruct(%22, %23)
  %z : Float(8, 3, strides=[3, 1], requires_grad=0, device=cpu) = aten::new_zeros(%x, %24, %none, %none, %none, %none)
  %w : Float(8, 3, strides=[3, 1], requires_grad=0, device=cpu) = aten::add(%y, %z, %1)
  %v : Float(8, 3, strides=[3, 1], requires_grad=0, device=cpu) = aten::relu_(%w)
  return (%v)
)";
  EXPECT_EQ(refined(ir, "y", "float32:[4,6]"), "[8, 3]");
  EXPECT_EQ(refined(ir, "y", "float32:[s0,6]"), "[2*s0, 3]");
  EXPECT_EQ(refined(ir, "22", "float32:[s0,6]"), "int=4*(s0//2)");
  EXPECT_EQ(refined(ir, "z", "float32:[4,6]"), "[8, 3]");
  EXPECT_EQ(refined(ir, "v", "float32:[4,6]"), "[8, 3]"); // an in-place result has self's sizes
}

} // namespace
} // namespace dtf
