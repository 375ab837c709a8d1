// The refinement pass on small graphs (expected dtypes checked with torch 1.13).
#include "frontends/text/ir_parser.h"
#include "ops/semantics.h"
#include "refine/refine.h"
#include "refine/check.h"

#include <gtest/gtest.h>
#include <map>

namespace dtf::refine {
namespace {

struct Refined {
  std::unique_ptr<ir::Graph> g;
  Result r;
  const Value &operator[](const std::string &name) const {
    for (size_t v = 0; v < g->values.size(); ++v)
      if (g->values[v].name == name) return r.values[v];
    throw std::runtime_error("no value " + name);
  }
  bool has(const std::string &category) const {
    for (const Diagnostic &d : r.diagnostics)
      if (d.category == category) return true;
    return false;
  }
};

Refined run(const std::string &text, Options opts = {.semantics = Semantics::shared(TorchVersion::V1_13)}) {
  Refined out;
  out.g = ir::parseIR(text);
  out.r = refineGraph(*out.g, opts);
  // A kept plan (Options::plan) must not change any value.
  opts.plan = makeGraphPlan(*out.g, opts.semantics);
  Result planned = refineGraph(*out.g, opts);
  for (size_t v = 0; v < out.r.values.size(); ++v)
    EXPECT_TRUE(planned.values[v].identical(out.r.values[v])) << "%" << out.g->values[v].name << " with a plan";
  return out;
}

TEST(GraphRefine, StraightLinePromotion) {
  auto r = run(R"(graph(%x : Int(2, 3), %d : Double(3)):
  %1 : int = prim::Constant[value=1]()
  %y : Tensor = aten::add(%x, %d, %1)
  %z : Tensor = aten::mul(%y, %x)
  return (%z)
)");
  EXPECT_EQ(r["y"].str(), "float64:r2");
  EXPECT_EQ(r["z"].str(), "float64:r2");
}

TEST(GraphRefine, TracedScalarConstantIsAPythonScalar) {
  // torch.jit.trace(lambda x: x * 2.5, int64 tensor): result float32, not float64.
  const char *ir = R"(graph(%x : Long(2, 3)):
  %1 : Double(requires_grad=0, device=cpu) = prim::Constant[value={2.5}]()
  %2 : Tensor = aten::mul(%x, %1)
  return (%2)
)";
  EXPECT_EQ(run(ir)["2"].str(), "float32:r2");
  Options strict{.semantics = Semantics::shared(kNewestTorch)};
  strict.tensorConstants = TensorConstantPolicy::Strict;
  auto s = run(ir, strict);
  EXPECT_FALSE(s["2"].dtype().has_value()); // float32 or float64: unknown
  EXPECT_TRUE(s.has("tensor-constant"));
  // A constant's own type is not a conflict.
  EXPECT_FALSE(run(ir).has("type-conflict"));
}

TEST(GraphRefine, ModuleParametersOfUnknownDtypeDoNotStopTheInputsDtype) {
  // `traced.inlined_graph`: parameters are prim::GetAttr values typed `Tensor`.
  auto r = run(R"(graph(%self : __torch__.M, %x : Float(1, 4, 8, 8)):
  %bn : __torch__.torch.nn.modules.batchnorm.BatchNorm2d = prim::GetAttr[name="bn"](%self)
  %w : Tensor = prim::GetAttr[name="weight"](%bn)
  %b : Tensor = prim::GetAttr[name="bias"](%bn)
  %m : Tensor = prim::GetAttr[name="running_mean"](%bn)
  %v : Tensor = prim::GetAttr[name="running_var"](%bn)
  %f : bool = prim::Constant[value=0]()
  %t : bool = prim::Constant[value=1]()
  %mo : float = prim::Constant[value=0.1]()
  %eps : float = prim::Constant[value=1.0000000000000001e-05]()
  %y : Tensor = aten::batch_norm(%x, %w, %b, %m, %v, %f, %mo, %eps, %t)
  %z : Tensor = aten::relu(%y)
  return (%z)
)");
  EXPECT_EQ(r["y"].str(), "float32:r4");
  EXPECT_EQ(r["z"].str(), "float32:r4");
}

TEST(GraphRefine, IfJoinsBranches) {
  auto r = run(R"(graph(%x : Float(2), %c : bool):
  %7 : int = prim::Constant[value=7]()
  %f : bool = prim::Constant[value=0]()
  %n : NoneType = prim::Constant()
  %same : Tensor = prim::If(%c)
    block0():
      %a : Tensor = aten::relu(%x)
      -> (%a)
    block1():
      -> (%x)
  %differ : Tensor = prim::If(%c)
    block0():
      %b : Tensor = aten::to(%x, %7, %f, %f, %n)
      -> (%b)
    block1():
      -> (%x)
  return (%same, %differ)
)");
  EXPECT_EQ(r["same"].str(), "float32:r1");
  EXPECT_EQ(r["differ"].dtypes().size(), 2);
  EXPECT_EQ(r["differ"].rank(), Rank::exact(1));
}

// Scripted `if w is None:` on an Optional argument: decided when the
// argument is known None (or known not None); the other arm is unreached.
TEST(GraphRefine, IsNoneTestOnAnOptionalArgumentIsDecided) {
  const char *ir = R"(graph(%x.1 : Tensor, %w.1 : Tensor?):
  %3 : NoneType = prim::Constant()
  %4 : bool = aten::__is__(%w.1, %3)
  %5 : bool = aten::__isnot__(%w.1, %3)
  %40 : Tensor = prim::If(%4)
    block0():
      %7 : Tensor = aten::sum(%x.1, %3)
      -> (%7)
    block1():
      %w.7 : Tensor = prim::unchecked_cast(%w.1)
      %36 : Tensor = aten::mul(%x.1, %w.7)
      %38 : Tensor = aten::sum(%36, %3)
      -> (%38)
  return (%40, %5)
)";
  Options none{.semantics = Semantics::shared(kNewestTorch)};
  none.inputTypes = {{"x.1", Value::tensor(DType::Int32, Rank::exact(2))}, {"w.1", Value::none()}};
  auto r = run(ir, none);
  EXPECT_EQ(r["4"].boolValue(), std::optional<bool>(true));
  EXPECT_EQ(r["5"].boolValue(), std::optional<bool>(false));
  EXPECT_EQ(r["40"].str(), "int64:r0"); // sum of int32 is int64
  EXPECT_FALSE(r.has("no-overload"));   // the mul arm is never analysed with a None w

  Options given{.semantics = Semantics::shared(kNewestTorch)};
  given.inputTypes = {{"x.1", Value::tensor(DType::Int32, Rank::exact(2))},
                      {"w.1", Value::tensor(DType::Float64, Rank::exact(2))}};
  auto g = run(ir, given);
  EXPECT_EQ(g["4"].boolValue(), std::optional<bool>(false));
  EXPECT_EQ(g["40"].str(), "float64:r0");

  auto unknown = run(ir); // w may or may not be None: both arms joined
  EXPECT_FALSE(unknown["4"].boolValue().has_value());
}

// `torch.sum(x, [])` traces to an empty int[]: sum.dim_IntList, not the
// dimension-name overload (printed `str[1] dim`), which has no rule.
TEST(GraphRefine, EmptyDimListPicksTheIntListOverload) {
  auto r = run(R"(graph(%x : Char(4)):
  %4 : int[] = prim::ListConstruct()
  %5 : bool = prim::Constant[value=0]()
  %6 : NoneType = prim::Constant()
  %7 : Tensor = aten::sum(%x, %4, %5, %6)
  return (%7)
)");
  EXPECT_EQ(r["7"].str(), "int64:r0");
  EXPECT_FALSE(r.has("no-rule"));
}

TEST(GraphRefine, RaisingBranchContributesNothing) {
  auto r = run(R"(graph(%x : Float(2), %c : bool):
  %s : str = prim::Constant[value="boom"]()
  %y : Tensor = prim::If(%c)
    block0():
       = prim::RaiseException(%s)
      %u : Tensor = prim::Uninitialized()
      -> (%u)
    block1():
      %a : Tensor = aten::neg(%x)
      -> (%a)
  return (%y)
)");
  EXPECT_EQ(r["y"].str(), "float32:r1");
}

TEST(GraphRefine, LoopCarriedValuesReachFixpoint) {
  // y = ids; for _ in range(2): y = y * 0.5  -> int64 joined with float32
  auto r = run(R"(graph(%ids : Long(3), %n : int):
  %t : bool = prim::Constant[value=1]()
  %h : float = prim::Constant[value=0.5]()
  %y : Tensor = prim::Loop(%n, %t, %ids)
    block0(%i : int, %y.9 : Tensor):
      %y.3 : Tensor = aten::mul(%y.9, %h)
      -> (%t, %y.3)
  return (%y)
)");
  EXPECT_EQ(r["y"].dtypes(), DTypeSet::join(DType::Int64, DType::Float32));
  EXPECT_EQ(r["y.9"].dtypes(), DTypeSet::join(DType::Int64, DType::Float32));
  EXPECT_EQ(r["y"].rank(), Rank::exact(1));
}

// Loop bodies are visited until the carried state is stable; only the
// visit on the fixpoint state reports: the first visit's int64 x float32 mm
// error is not certain (at the fixpoint %y.9 may be float32: "may raise"),
// while an error on every state is reported once (the loop surely runs: a
// trip count of 2).
TEST(GraphRefine, LoopDiagnosticsComeFromTheFixpointVisitOnly) {
  auto r = run(R"(graph(%ids : Long(2, 2), %f : Float(2, 2)):
  %n : int = prim::Constant[value=2]()
  %t : bool = prim::Constant[value=1]()
  %h : float = prim::Constant[value=0.5]()
  %y : Tensor = prim::Loop(%n, %t, %ids)
    block0(%i : int, %y.9 : Tensor):
      %z : Tensor = aten::mm(%y.9, %f)
      %b : Tensor = aten::mm(%f, %ids)
      %y.3 : Tensor = aten::mul(%y.9, %h)
      -> (%t, %y.3)
  return (%y)
)");
  EXPECT_EQ(r["z"].str(), "float32:r2");
  std::string all;
  for (const Diagnostic &d : r.r.diagnostics) all += d.category + ": " + d.message + "\n";
  ASSERT_EQ(r.r.diagnostics.size(), 2u) << all;
  for (const Diagnostic &d : r.r.diagnostics)
    EXPECT_EQ(d.category, d.loc.line == 7 ? "possible-dtype-error" : "dtype-error") << all;
}

// A raise inside code that may never run (an If arm on an unknown
// condition, a loop body with an unknown trip count) is a warning: scripted
// library code carries such arms (torch.norm's `nuc` branch on 1-D input).
TEST(GraphRefine, RaisesInArmsThatMayNotRunAreWarnings) {
  auto r = run(R"(graph(%ids : Long(2, 2), %f : Float(2, 2), %c : bool, %n : int):
  %t : bool = prim::Constant[value=1]()
  %a : Tensor = prim::If(%c)
    block0():
      %b : Tensor = aten::mm(%f, %ids)
      -> (%b)
    block1():
      -> (%f)
  %y : Tensor = prim::Loop(%n, %t, %f)
    block0(%i : int, %y.1 : Tensor):
      %z : Tensor = aten::mm(%ids, %f)
      -> (%t, %y.1)
  %w : Tensor = prim::If(%t)
    block0():
      %v : Tensor = aten::mm(%ids, %f)
      -> (%v)
    block1():
      -> (%f)
  return (%a, %y, %w)
)");
  std::map<int, std::string> byLine;
  for (const Diagnostic &d : r.r.diagnostics) byLine[d.loc.line] = d.category + ": " + d.message;
  EXPECT_EQ(byLine[5].rfind("branch-dtype-error: if this branch runs: aten::mm: PyTorch raises", 0), 0u) << byLine[5];
  std::string all;
  for (const auto &[line, text] : byLine) all += std::to_string(line) + " " + text + "\n";
  EXPECT_EQ(byLine[11].rfind("branch-dtype-error: if this branch runs:", 0), 0u) << all;
  EXPECT_EQ(byLine[15].rfind("dtype-error: aten::mm: PyTorch raises", 0), 0u) << byLine[15]; // its arm surely runs
}

TEST(GraphRefine, AppendMakesAnUnknownLengthList) {
  auto r = run(R"(graph(%x : Float(2, 3), %ids : Long(2, 3), %n : int):
  %t : bool = prim::Constant[value=1]()
  %z : int = prim::Constant[value=0]()
  %l : Tensor[] = prim::ListConstruct(%x)
  = prim::Loop(%n, %t)
    block0(%i : int):
      %a : Tensor[] = aten::append(%l, %ids)
      -> (%t)
  %c : Tensor = aten::cat(%l, %z)
  return (%c)
)");
  const Value &l = r["l"];
  EXPECT_TRUE(l.isList());
  EXPECT_FALSE(l.lengthKnown());
  EXPECT_EQ(l.elementSummary().dtypes(), DTypeSet::join(DType::Float32, DType::Int64));
}

TEST(GraphRefine, PrimOpsOnPythonValues) {
  auto r = run(R"(graph(%x : Half(2, 3)):
  %d : int = prim::dtype(%x)
  %a : int = prim::Constant[value=3]()
  %m : int = prim::min(%a, %d)
  %l : Tensor[] = prim::ListConstruct(%x, %x)
  %p : Tensor, %q : Tensor = prim::ListUnpack(%l)
  %tu : (Tensor, int) = prim::TupleConstruct(%p, %m)
  %k : int = prim::Constant[value=1]()
  %e : int = prim::TupleIndex(%tu, %k)
  return (%e)
)");
  EXPECT_EQ(r["d"].intValue(), 5); // c10 code of Half
  EXPECT_EQ(r["m"].intValue(), 3);
  EXPECT_EQ(r["q"].str(), "float16:r2");
  EXPECT_EQ(r["e"].intValue(), 3);
}

// Scripted MultiheadAttention: `[q] + kv.chunk(2)` is aten::add.t, unpacked
// into three tensors; `format(str, ...)` (varargs) binds without a warning.
TEST(GraphRefine, ListConcatenationAndVarargsOps) {
  auto r = run(R"(graph(%q : Float(2, 3), %kv : Double(2, 6), %e : int):
  %two : int = prim::Constant[value=2]()
  %one : int = prim::Constant[value=1]()
  %msg : str = prim::Constant[value="{} {}"]()
  %s : str = aten::format(%msg, %e, %q)
  %l : Tensor[] = prim::ListConstruct(%q)
  %c : Tensor[] = aten::chunk(%kv, %two, %one)
  %all : Tensor[] = aten::add(%l, %c)
  %a : Tensor, %b : Tensor, %d : Tensor = prim::ListUnpack(%all)
  %fixed : Tensor[] = aten::add(%l, %l)
  %x : Tensor, %y : Tensor = prim::ListUnpack(%fixed)
  return (%a, %b, %y)
)");
  // chunk's shape rule knows its count (2 pieces of a [2,6]), so `a` is q.
  EXPECT_EQ(r["a"].str(), "float32:r2");
  EXPECT_EQ(r["b"].str(), "float64:r2");
  EXPECT_EQ(r["y"].str(), "float32:r2");
  EXPECT_FALSE(r.has("no-overload")); // also what a refused binding reports
}

TEST(GraphRefine, UnknownOpIsAWarningNotACrash) {
  auto r = run(R"(graph(%x : Float(2)):
  %y : Tensor = foo::bar(%x)
  %z : Tensor = aten::relu(%y)
  return (%z)
)");
  EXPECT_TRUE(r.has("unknown-op"));
  EXPECT_FALSE(r["y"].dtype().has_value());
  EXPECT_EQ(r.r.reasons[r.g->values.size() - 2], UnknownReason::UnknownOp);
}

TEST(GraphRefine, WrittenTypeConflictIsReported) {
  auto r = run(R"(graph(%x : Float(2)):
  %y : Long(2) = aten::relu(%x)
  return (%y)
)");
  EXPECT_TRUE(r.has("type-conflict"));
}

TEST(GraphRefine, DeepLoopNestIsBounded) {
  std::string text = "graph(%x : Float(2), %n : int):\n  %t : bool = prim::Constant[value=1]()\n";
  int depth = 40;
  for (int i = 0; i < depth; ++i)
    text += "  %l" + std::to_string(i) + " : Tensor = prim::Loop(%n, %t, %" +
            (i ? "x" : "x") + ")\n    block0(%i" + std::to_string(i) + " : int, %c" + std::to_string(i) + " : Tensor):\n";
  text += "      %h : Tensor = aten::neg(%c" + std::to_string(depth - 1) + ")\n";
  for (int i = depth - 1; i >= 0; --i)
    text += "      -> (%t, %" + (i == depth - 1 ? std::string("h") : "l" + std::to_string(i + 1)) + ")\n";
  text += "  return (%l0)\n";
  auto r = run(text);
  EXPECT_EQ(r["l0"].dtypes().contains(DType::Float32), true);
}

TEST(GraphRefine, LargeDagInOnePass) {
  std::string text = "graph(%x : Float(2, 3)):\n";
  std::string prev = "x";
  for (int i = 0; i < 50000; ++i) {
    text += "  %v" + std::to_string(i) + " : Tensor = aten::neg(%" + prev + ")\n";
    prev = "v" + std::to_string(i);
  }
  text += "  return (%" + prev + ")\n";
  auto r = run(text);
  EXPECT_EQ(r[prev].str(), "float32:r2");
}

} // namespace
} // namespace dtf::refine

namespace dtf::refine {
namespace {

// torch.jit.script: m = [l]; l.append(x.double()); torch.cat(m[0]) is float64
// in torch 1.13. The list read back through m must not keep l's old state.
TEST(GraphRefine, ListMutatedThroughAnAliasIsNotStale) {
  auto r = run(R"(graph(%x.1 : Float(2)):
  %1 : NoneType = prim::Constant()
  %2 : bool = prim::Constant[value=0]()
  %3 : int = prim::Constant[value=7]()
  %4 : int = prim::Constant[value=0]()
  %l.1 : Tensor[] = prim::ListConstruct(%x.1)
  %m.1 : Tensor[][] = prim::ListConstruct(%l.1)
  %7 : Tensor = aten::to(%x.1, %3, %2, %2, %1)
  %8 : Tensor[] = aten::append(%l.1, %7)
  %9 : Tensor[] = aten::__getitem__(%m.1, %4)
  %10 : Tensor = aten::cat(%9, %4)
  return (%10)
)");
  EXPECT_FALSE(r["10"].dtype().has_value()) << r["10"].str(); // never the stale float32
}

// An If output naming one of two lists, appended to: both lists may change.
TEST(GraphRefine, ListMutatedThroughAnIfOutputIsNotStale) {
  auto r = run(R"(graph(%x.1 : Float(2), %c : bool):
  %1 : NoneType = prim::Constant()
  %2 : bool = prim::Constant[value=0]()
  %3 : int = prim::Constant[value=7]()
  %4 : int = prim::Constant[value=0]()
  %l : Tensor[] = prim::ListConstruct(%x.1)
  %l2 : Tensor[] = prim::ListConstruct(%x.1)
  %k : Tensor[] = prim::If(%c)
    block0():
      -> (%l)
    block1():
      -> (%l2)
  %7 : Tensor = aten::to(%x.1, %3, %2, %2, %1)
  %8 : Tensor[] = aten::append(%k, %7)
  %10 : Tensor = aten::cat(%l, %4)
  return (%10)
)");
  EXPECT_FALSE(r["10"].dtype().has_value()) << r["10"].str();
}

// The common case keeps its precision: appending to the list itself.
TEST(GraphRefine, ListAppendedDirectlyStaysPrecise) {
  auto r = run(R"(graph(%x.1 : Float(2)):
  %4 : int = prim::Constant[value=0]()
  %l : Tensor[] = prim::ListConstruct(%x.1)
  %8 : Tensor[] = aten::append(%l, %x.1)
  %10 : Tensor = aten::cat(%l, %4)
  return (%10)
)");
  EXPECT_EQ(r["10"].str(), "float32:r1");
}

} // namespace
} // namespace dtf::refine

namespace dtf::refine {
namespace {

// torch.jit.script: y = x * 2; y.unsqueeze_(0); return y + 1 -> shape [1, 1, 3].
// Scripted code keeps using %y after the in-place op: its rank is not 2 any more.
TEST(GraphRefine, InPlaceRankChangeReachesLaterUses) {
  auto r = run(R"(graph(%x.1 : Float(1, 3)):
  %1 : int = prim::Constant[value=1]()
  %2 : int = prim::Constant[value=2]()
  %3 : int = prim::Constant[value=0]()
  %y.1 : Tensor = aten::mul(%x.1, %2)
  %5 : Tensor = aten::unsqueeze_(%y.1, %3)
  %6 : Tensor = aten::add(%y.1, %1, %1)
  return (%6)
)");
  EXPECT_EQ(r["5"].str(), "float32:r3");
  EXPECT_NE(r["6"].rank(), Rank::exact(2)) << r["6"].str(); // never the stale rank
  EXPECT_EQ(r["6"].dtype(), DType::Float32);
}

// w = x.clone() of shape [1, 3]; w.transpose_(0, 1); w.squeeze(0) keeps rank 2
// in torch: the size-1 facts of the clone must not survive the transpose.
TEST(GraphRefine, InPlaceTransposeDropsSizeFacts) {
  auto r = run(R"(graph(%x.1 : Float(1, 3)):
  %0 : int = prim::Constant[value=0]()
  %1 : int = prim::Constant[value=1]()
  %n : NoneType = prim::Constant()
  %w.1 : Tensor = aten::clone(%x.1, %n)
  %5 : Tensor = aten::transpose_(%w.1, %0, %1)
  %6 : Tensor = aten::squeeze(%w.1, %0)
  return (%6)
)");
  EXPECT_NE(r["6"].rank(), Rank::exact(1)) << r["6"].str();
}

// torch.jit.script: y = x.clone(); ls = [y, y]; ls[0].unsqueeze_(0);
// z = x + 1 (a fresh tensor); return ls[1] + 1, z -> ls[1] is y, now 3-D.
TEST(GraphRefine, InPlaceRankChangeReachesOtherNamesOfTheObject) {
  auto r = run(R"(graph(%x.1 : Float(2, 3)):
  %0 : int = prim::Constant[value=0]()
  %1 : int = prim::Constant[value=1]()
  %n : NoneType = prim::Constant()
  %y.1 : Tensor = aten::clone(%x.1, %n)
  %z : Tensor = aten::add(%y.1, %1, %1)
  %m : Tensor = aten::mul(%y.1, %1)
  %ls.1 : Tensor[] = prim::ListConstruct(%y.1, %y.1)
  %t.1 : Tensor = aten::__getitem__(%ls.1, %0)
  %5 : Tensor = aten::unsqueeze_(%t.1, %0)
  %t.2 : Tensor = aten::__getitem__(%ls.1, %1)
  %6 : Tensor = aten::add(%t.2, %1, %1)
  %7 : Tensor = aten::add(%z, %1, %1)
  %8 : Tensor = aten::add(%m, %1, %1)
  return (%6, %7, %8)
)");
  EXPECT_EQ(r["5"].str(), "float32:r3");
  EXPECT_NE(r["6"].rank(), Rank::exact(2)) << r["6"].str(); // never the stale rank
  EXPECT_EQ(r["6"].dtype(), DType::Float32);
  // add and mul make new tensors (mul's node is mul.Scalar, never mul.out,
  // whose result aliases `out`): not other names of y
  EXPECT_EQ(r["7"].str(), "float32:r2");
  EXPECT_EQ(r["8"].str(), "float32:r2");
}

// for t in [y, y]: t.unsqueeze_(0) -- the mutation is the loop body's last
// node, and the next iteration reads the list again: t is 2-D, then 3-D.
TEST(GraphRefine, InPlaceRankChangeAtTheEndOfALoopBody) {
  auto r = run(R"(graph(%x.1 : Float(2, 3)):
  %0 : int = prim::Constant[value=0]()
  %1 : int = prim::Constant[value=1]()
  %true : bool = prim::Constant[value=1]()
  %n : NoneType = prim::Constant()
  %y.1 : Tensor = aten::clone(%x.1, %n)
  %ls.1 : Tensor[] = prim::ListConstruct(%y.1, %y.1)
  %len : int = aten::len(%ls.1)
   = prim::Loop(%len, %true)
    block0(%i : int):
      %t.1 : Tensor = aten::__getitem__(%ls.1, %i)
      %5 : Tensor = aten::unsqueeze_(%t.1, %0)
      -> (%true)
  %6 : Tensor = aten::add(%y.1, %1, %1)
  return (%6)
)");
  EXPECT_NE(r["t.1"].rank(), Rank::exact(2)) << r["t.1"].str();
  EXPECT_NE(r["6"].rank(), Rank::exact(2)) << r["6"].str();
  EXPECT_EQ(r["6"].dtype(), DType::Float32);
}

// Traced graphs use the in-place op's output afterwards: no precision lost.
TEST(GraphRefine, InPlaceOutputUsedLaterKeepsTheInputPrecise) {
  auto r = run(R"(graph(%x : Float(1, 3)):
  %2 : int = prim::Constant[value=2]()
  %0 : int = prim::Constant[value=0]()
  %y.1 : Tensor = aten::mul(%x, %2)
  %y : Tensor = aten::unsqueeze_(%y.1, %0)
  return (%y)
)");
  EXPECT_EQ(r["y.1"].str(), "float32:r2");
  EXPECT_EQ(r["y"].str(), "float32:r3");
}

} // namespace
} // namespace dtf::refine

namespace dtf::refine {
namespace {

// torch.jit.trace of `torch.floor_divide(2.5, x)`, `torch.add(2.5, x)` (x uint8)
// and `torch.mul(3, z)` (z int32, 0-dim): the scalar is a wrapped number in
// eager mode, so torch 1.13 gives float32, float32 and int32.
TEST(GraphRefine, TracedScalarInATensorOnlyPositionIsAWrappedNumber) {
  // One constant per use, as the tracer makes them for Python scalars.
  auto r = run(R"(graph(%x : Byte(3), %z : Int()):
  %c : Double(requires_grad=0, device=cpu) = prim::Constant[value={2.5}]()
  %q : Tensor = aten::floor_divide(%c, %x)
  %one : int = prim::Constant[value=1]()
  %c2 : Double(requires_grad=0, device=cpu) = prim::Constant[value={2.5}]()
  %s : Tensor = aten::add(%c2, %x, %one)
  %k : Long(requires_grad=0, device=cpu) = prim::Constant[value={3}]()
  %m : Tensor = aten::mul(%k, %z)
  return (%q, %s, %m)
)");
  EXPECT_EQ(r["q"].str(), "float32:r1"); // `2.5 // x`: Python's reverse floordiv puts the scalar first
  // First operands of add/mul: torch.add(2.5, x) (float32) and a tensor
  // attribute plus x (float64) print the same: both readings, joined.
  EXPECT_EQ(r["s"].str(), "{float32|float64}:r1");
  EXPECT_EQ(r["m"].str(), "{int32|int64}:r0");
  EXPECT_TRUE(r.has("tensor-constant"));
}

// Both operands constants (torch-mlir's e2e ElementwiseAddScalar_NumToTensorFloat
// traces NumToTensor(5.0) + 3 to this text; torch.add(5.0, 3) too).
constexpr const char *kConstantOnlyArithmetic = R"(graph():
  %a : Double(requires_grad=0, device=cpu) = prim::Constant[value={5}]()
  %b : Double(requires_grad=0, device=cpu) = prim::Constant[value={1.5}]()
  %one : int = prim::Constant[value=1]()
  %sum : Tensor = aten::add(%a, %b, %one)
  %a2 : Double(requires_grad=0, device=cpu) = prim::Constant[value={5}]()
  %b2 : Double(requires_grad=0, device=cpu) = prim::Constant[value={1.5}]()
  %prod : Tensor = aten::mul(%a2, %b2)
  %a3 : Double(requires_grad=0, device=cpu) = prim::Constant[value={5}]()
  %k3 : Long(requires_grad=0, device=cpu) = prim::Constant[value={3}]()
  %one3 : int = prim::Constant[value=1]()
  %mixed : Tensor = aten::add(%a3, %k3, %one3)
  return (%sum, %prod, %mixed)
)";

TEST(GraphRefine, ConstantOnlyArithmeticStaysATensorOp) {
  auto r = run(kConstantOnlyArithmetic);
  // Two wrapped float64 tensors of one dtype: TensorIterator keeps float64
  // (torch.add(5.0, 1.5) is float64), and a tensor, never mul.float's number.
  EXPECT_EQ(r["sum"].str(), "float64:r0");
  EXPECT_EQ(r["prod"].str(), "float64:r0");
  // torch.add(5.0, 3) is float32, torch.add(NumToTensor(5.0), 3) float64.
  EXPECT_EQ(r["mixed"].str(), "{float32|float64}:r0");
}

// 2.14 computes wrapped-number-only arithmetic in result_type's dtype
// (torch.add(5.0, 1.5) is float32) while a traced float64 0-dim tensor stays
// float64: the constants may be either, so both.
TEST(GraphRefine, ConstantOnlyArithmeticUnder214) {
  auto r = run(kConstantOnlyArithmetic, {.semantics = Semantics::shared(TorchVersion::V2_14)});
  EXPECT_EQ(r["sum"].str(), "{float32|float64}:r0");
  EXPECT_EQ(r["prod"].str(), "{float32|float64}:r0");
  EXPECT_EQ(r["mixed"].str(), "{float32|float64}:r0");
}

// String comparisons on constants decide branches (torch.norm's scripted
// body tests `p == "nuc"`): the dead arm is unreached and reports nothing.
TEST(GraphRefine, StringEqualityOfConstantsFoldsBranches) {
  auto r = run(R"(graph(%x : Float(3), %s : str):
  %p : str = prim::Constant[value="fro"]()
  %nuc : str = prim::Constant[value="nuc"]()
  %c : bool = aten::eq(%p, %nuc)
  %y : Tensor = prim::If(%c)
    block0():
      %n : Tensor = aten::mm(%x, %x)
      -> (%n)
    block1():
      %f : Tensor = aten::mul(%x, %x)
      -> (%f)
  %d : bool = aten::ne(%s, %nuc)
  return (%y, %d)
)");
  EXPECT_EQ(r["y"].str(), "float32:r1");
  EXPECT_TRUE(r.r.diagnostics.empty());
  EXPECT_FALSE(r["d"].boolValue()); // an unknown string: unknown
}

// torch.jit.fork: the fork node refines its section on the arguments, and
// aten::wait gives what the section returns; a section's own forks name the
// sections of the file; a raise in a section is reported on its line.
TEST(GraphRefine, ForkedSectionsAreRefinedWhereTheyAreForked) {
  auto r = run(R"(graph(%x : Int(3), %f : Float(2, 2)):
  %fut : Future[Tensor] = prim::fork_0(%x)
  %y : Tensor = aten::wait(%fut)
  %g : Future[Tensor] = prim::fork_2(%x)
  %z : Tensor = aten::wait(%g)
  %h : Future[Tensor] = prim::fork_1(%f)
  %e : Tensor = aten::wait(%h)
  return (%y, %z, %e)
with prim::fork_0 = graph(%a : Tensor):
  %c : float = prim::Constant[value=0.5]()
  %m : Tensor = aten::mul(%a, %c)
  %inner : Future[Tensor] = prim::fork_1(%m)
  %w : Tensor = aten::wait(%inner)
  return (%w)
with prim::fork_1 = graph(%b : Tensor):
  %d : Tensor = aten::mm(%b, %b)
  return (%d)
)");
  EXPECT_FALSE(r["y"].dtype());            // fork_1's mm on a 1-D tensor raises
  EXPECT_FALSE(r["z"].dtype());            // no section prim::fork_2
  EXPECT_EQ(r["e"].str(), "float32:r2");
  std::string all;
  for (const Diagnostic &d : r.r.diagnostics) all += std::to_string(d.loc.line) + " " + d.category + ": " + d.message + "\n";
  EXPECT_NE(all.find("16 dtype-error: in prim::fork_0: in prim::fork_1: aten::mm: PyTorch raises"), std::string::npos) << all;
  EXPECT_NE(all.find("4 unsupported: prim::fork_2: no `with prim::fork_2 = graph(...)` section"), std::string::npos) << all;
}

// TensorConstantPolicy::Runtime (the CLI's default for .pt files), measured
// on torch 1.13 with saved traced and frozen modules: the graph executor's
// CanonicalizeOps turns a 0-dim tensor constant `other` of add/sub/mul/div
// into `other.item()` whatever its dtype; every other use is a tensor.
TEST(GraphRefine, RuntimePolicyReadsConstantsAsTorchScriptRunsThem) {
  Options o;
  o.semantics = Semantics::shared(TorchVersion::V1_13);
  o.tensorConstants = TensorConstantPolicy::Runtime;
  auto r = run(R"(graph(%x : Char(), %i : Int(3), %h : Half()):
  %one : int = prim::Constant[value=1]()
  %c : Short(requires_grad=0, device=cpu) = prim::Constant[value={3}]()
  %s : Tensor = aten::sub(%x, %c, %one)
  %r : Tensor = aten::sub(%c, %x, %one)
  %d : Double(requires_grad=0, device=cpu) = prim::Constant[value={2.5}]()
  %f : Tensor = aten::floor_divide(%i, %d)
  %m : Tensor = aten::mul(%i, %d)
  %p : Float(requires_grad=0, device=cpu) = prim::Constant[value={2}]()
  %q : Tensor = aten::div(%h, %p)
  %b : Bool(requires_grad=0, device=cpu) = prim::Constant[value={1}]()
  %a : Tensor = aten::add(%i, %b, %one)
  %v : Double(1, strides=[1], requires_grad=0, device=cpu) = prim::Constant[value={2}]()
  %w : Tensor = aten::mul(%h, %v)
  return (%s, %r, %f, %m, %q, %a, %w)
)", o);
  EXPECT_EQ(r["w"].str(), "float64:r1"); // one element, but 1-D: stays a tensor
  EXPECT_EQ(r["s"].str(), "int8:r0");    // int8 - int(3); as a tensor: int16
  EXPECT_EQ(r["r"].str(), "int16:r0");   // `self` stays a tensor
  EXPECT_EQ(r["f"].str(), "float64:r1"); // floor_divide: a tensor (a saved trace of `x // 2.5`)
  EXPECT_EQ(r["m"].str(), "float32:r1"); // int32 * float(2.5)
  EXPECT_EQ(r["q"].str(), "float16:r0"); // half / float(2.0); as a tensor: float32
  EXPECT_FALSE(r["a"].dtype());          // a bool: no overload takes it, the module raises
  bool warned = false;
  for (const Diagnostic &d : r.r.diagnostics) warned = warned || d.message.find("0-dim bool constant") != std::string::npos;
  EXPECT_TRUE(warned);
}

// The tracer bakes a tensor it did not make (a module attribute
// `self.c = torch.tensor(1.5, dtype=torch.float64)`) into one constant that
// every use shares, and a Python scalar into a fresh constant per use; so a
// shared 0-dim literal is a tensor in a plain trace, or pooled Python scalars
// after constant pooling: both readings joined (unknown where they differ).
TEST(GraphRefine, SharedScalarLiteralIsReadBothWays) {
  auto r = run(R"(graph(%x : Int(2, 3), %y : Float(2, 3)):
  %c : Double(requires_grad=0, device=cpu) = prim::Constant[value={1.5}]()
  %m : Tensor = aten::mul(%x, %c)
  %g : Tensor = aten::mul(%y, %c)
  return (%m, %g)
)");
  EXPECT_EQ(r["m"].str(), "{float32|float64}:r2"); // float64 as a tensor, float32 as a Python scalar
  EXPECT_EQ(r["g"].str(), "float32:r2");            // both readings agree
  EXPECT_TRUE(r.has("tensor-constant"));
}

// Only add/sub/mul/div/true_divide/floor_divide take Python numbers as
// tensors; `torch.where(c, x, 2.5)` traces to where.ScalarOther with a float.
// So a 0-dim Double constant given to where is a real tensor (an attribute).
TEST(GraphRefine, ScalarLiteralOutsideTheWrappingOpsIsATensor) {
  auto r = run(R"(graph(%x : Long(2, 3)):
  %z : int = prim::Constant[value=0]()
  %m : Tensor = aten::gt(%x, %z)
  %c : Double(requires_grad=0, device=cpu) = prim::Constant[value={1.5}]()
  %w : Tensor = aten::where(%m, %x, %c)
  %c2 : Double(requires_grad=0, device=cpu) = prim::Constant[value={1.5}]()
  %p : Tensor = aten::mul(%x, %c2)
  return (%w, %p)
)");
  EXPECT_EQ(r["w"].str(), "float64:r2"); // int64 with a 0-dim float64 tensor
  EXPECT_EQ(r["p"].str(), "float32:r2"); // mul: read as the Python scalar the tracer records
}

// `x[i, :, j]` traces to index(x, [i, None, j]): only index.Tensor takes a
// None element (its hacked twin takes Tensor[]), so the rank is known.
TEST(GraphRefine, IndexWithNoneElementsKeepsTheRank) {
  auto r = run(R"(graph(%x : Float(3, 4, 5), %i : Long(2, 2), %j : Long(2)):
  %n : NoneType = prim::Constant()
  %l : Tensor?[] = prim::ListConstruct(%i, %n, %j)
  %y : Tensor = aten::index(%x, %l)
  return (%y)
)");
  EXPECT_EQ(r["y"].str(), "float32:r3");
  EXPECT_FALSE(r.has("possible-dtype-error"));
}

// Quantized tensor types are read with their dtype; quantize_per_tensor gives
// its dtype argument (13: quint8), int_repr the integer type under it, and a
// rule written for plain tensors (sigmoid) unknown, not the floating dtypes.
TEST(GraphRefine, QuantizedTensorTypesKeepTheirDType) {
  auto r = run(R"(graph(%x : Float(2, 3)):
  %s : float = prim::Constant[value=0.1]()
  %z : int = prim::Constant[value=0]()
  %dt : int = prim::Constant[value=13]()
  %q : QUInt8(2, 3, strides=[3, 1], requires_grad=0, device=cpu) = aten::quantize_per_tensor(%x, %s, %z, %dt)
  %d : Float(2, 3) = aten::dequantize(%q)
  %i : Tensor = aten::int_repr(%q)
  %g : Tensor = aten::sigmoid(%q)
  return (%q, %d, %i, %g)
)");
  EXPECT_EQ(r["q"].str(), "quint8:r2");
  EXPECT_EQ(r["d"].str(), "float32:r2");
  EXPECT_EQ(r["i"].str(), "uint8:r2");
  EXPECT_FALSE(r["g"].dtype().has_value()) << r["g"].str();
  EXPECT_TRUE(r["g"].dtypes().contains(DType::QUInt8)) << r["g"].str(); // sigmoid of quint8 is quint8
}

TEST(GraphRefine, QuantizedGraphInputsAreKnown) {
  auto r = run(R"(graph(%q : QInt8(4, strides=[1], requires_grad=0, device=cpu)):
  %i : Tensor = aten::int_repr(%q)
  return (%i)
)");
  EXPECT_EQ(r["q"].str(), "qint8:r1");
  EXPECT_EQ(r["i"].str(), "int8:r1");
}

// `x ** 1j` traces to a complex constant printed `0.+1.j`.
TEST(GraphRefine, ComplexLiteralConstant) {
  auto r = run(R"(graph(%x : Float(3)):
  %c : complex = prim::Constant[value=0.+1.j]()
  %o : Tensor = aten::pow(%x, %c)
  return (%o)
)");
  EXPECT_EQ(r["o"].str(), "complex64:r1");
}

} // namespace
} // namespace dtf::refine

namespace dtf::refine {
namespace {

// Data-dependent sizes: one unbacked symbol per node (two nonzero calls on
// one tensor are memoized together but count apart), kept through size
// arithmetic; inside a loop body unknown (each iteration counts anew), and
// named past the program's own `uK` symbols.
TEST(GraphRefine, DataDependentSizesAreOneSymbolPerNode) {
  auto r = run(R"(graph(%x : Float(3, 4), %n : int):
  %0 : int = prim::Constant[value=0]()
  %3 : int = prim::Constant[value=3]()
  %none : NoneType = prim::Constant()
  %t : bool = prim::Constant[value=1]()
  %a : Tensor = aten::nonzero(%x)
  %b : Tensor = aten::nonzero(%x)
  %k : int = aten::size(%a, %0)
  %sz : int[] = prim::ListConstruct(%k, %3)
  %z : Tensor = aten::zeros(%sz, %none, %none, %none, %none)
  %y : Tensor = prim::Loop(%n, %t, %a)
    block0(%i : int, %y.1 : Tensor):
      %c : Tensor = aten::nonzero(%x)
      -> (%t, %c)
  return (%z, %b, %y)
)");
  EXPECT_EQ(r["a"].shapeStr(), "[u0, 2]");
  EXPECT_EQ(r["b"].shapeStr(), "[u1, 2]");
  EXPECT_EQ((*r["a"].shape())[0].range(), (SymRange{0, 12}));
  EXPECT_EQ(r["z"].shapeStr(), "[u0, 3]");
  EXPECT_EQ(r["c"].shapeStr(), "[?, 2]");
  EXPECT_EQ(r["y"].shapeStr(), "[?, 2]");

  Options o{.semantics = Semantics::shared(TorchVersion::V1_13)};
  o.inputTypes.emplace_back("x", Value::tensor(DType::Float32, Rank::exact(2)).withShape({Dim(SymExpr::symbol("u3")), Dim(4)}));
  auto named = run(R"(graph(%x : Tensor):
  %a : Tensor = aten::nonzero(%x)
  return (%a)
)", o);
  EXPECT_EQ(named["a"].shapeStr(), "[u4, 2]");
}

// `check` binds a data-dependent symbol to the traced run's size where it
// first meets one, then holds every other use to it.
TEST(GraphRefine, CheckBindsDataDependentSizesToTheTrace) {
  const char *ir = R"(graph(%x : Float(3, 4)):
  %0 : int = prim::Constant[value=0]()
  %3 : int = prim::Constant[value=3]()
  %none : NoneType = prim::Constant()
  %a : Long(5, 2) = aten::nonzero(%x)
  %k : int = aten::size(%a, %0)
  %sz : int[] = prim::ListConstruct(%k, %3)
  %z : Float(ZSIZE, 3) = aten::zeros(%sz, %none, %none, %none, %none)
  return (%z)
)";
  auto counts = [&](const std::string &zsize) {
    std::string text = ir;
    text.replace(text.find("ZSIZE"), 5, zsize);
    auto g = ir::parseIR(text);
    Result res = refineGraph(*g, checkOptions({.semantics = Semantics::shared(TorchVersion::V1_13)}));
    return checkAllWritten(*g, res);
  };
  CheckCounts same = counts("5");
  EXPECT_EQ(same.wrong, 0u);
  EXPECT_EQ(same.sizesSymbolic, 2u);
  CheckCounts differs = counts("6");
  EXPECT_EQ(differs.wrong, 1u);
  EXPECT_EQ(differs.sizesSymbolic, 1u);
}

// A .pt2 records its own data-dependent symbols (`u0`), and ours are named
// past them (`u1`): a lone symbol of ours meeting a lone recorded one binds
// to it, and later dims of ours are compared after substitution.
TEST(GraphRefine, CheckBindsOurUnbackedSymbolsToTheRecordsOwn) {
  auto tensor = [](Dims d) {
    return Value::tensor(DType::Float32, Rank::exact(static_cast<int>(d.size()))).withShape(std::move(d));
  };
  const SymExpr u0 = SymExpr::symbol("u0", {0, 12}), u1 = SymExpr::symbol("u1", {0, 12});
  const SymExpr s0 = SymExpr::symbol("s0", {2, SymRange::kInf});
  SizeBinding b;
  EXPECT_EQ(checkSizes({Dim(u0), Dim(2)}, tensor({Dim(u1), Dim(2)}), &b), SizeVerdict::Symbolic);
  ASSERT_EQ(b.symbols.size(), 1u);
  EXPECT_EQ(b.symbols[0].first, "u1");
  EXPECT_EQ(checkSizes({Dim(u0 * SymExpr(2))}, tensor({Dim(u1 * SymExpr(2))}), &b), SizeVerdict::Symbolic);
  EXPECT_EQ(checkSizes({Dim(u0)}, tensor({Dim(u1 + SymExpr(1))}), &b), SizeVerdict::Wrong);
  // Another recorded symbol may hold the same number in a run: not decided.
  EXPECT_EQ(checkSizes({Dim(SymExpr::symbol("u7"))}, tensor({Dim(u1)}), &b), SizeVerdict::Unknown);
  // Only our own data-dependent symbols bind so: an input's s0 is the record's own name.
  SizeBinding fresh;
  EXPECT_EQ(checkSizes({Dim(u0)}, tensor({Dim(s0)}), &fresh), SizeVerdict::Unknown);
  EXPECT_TRUE(fresh.symbols.empty());
  // Without a binding (a value alone), symbolic both stays unknown.
  EXPECT_EQ(checkSizes({Dim(u0)}, tensor({Dim(u1)})), SizeVerdict::Unknown);
}

} // namespace
} // namespace dtf::refine
