// A kept GraphPlan (Options::plan) must change nothing but the time: every
// value, reason and diagnostic equal to a plain refineGraph call, on every
// bundled example and corpus module, on the first and on a repeated use.
#include "frontends/text/ir_parser.h"
#include "ops/semantics.h"
#include "refine/check.h"
#include "refine/refine.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace dtf::refine {
namespace {

namespace fs = std::filesystem;

std::unique_ptr<ir::Graph> load(const fs::path &p) {
  std::ifstream in(p);
  std::stringstream text;
  text << in.rdbuf();
  return ir::parseIR(text.str());
}

void expectSame(const ir::Graph &g, const Result &a, const Result &b, const std::string &what) {
  ASSERT_EQ(a.values.size(), b.values.size()) << what;
  for (size_t v = 0; v < a.values.size(); ++v) {
    EXPECT_TRUE(a.values[v].identical(b.values[v]))
        << what << ": %" << g.values[v].name << ": " << a.values[v].str() << " vs " << b.values[v].str();
    EXPECT_EQ(a.reasons[v], b.reasons[v]) << what << ": %" << g.values[v].name;
  }
  ASSERT_EQ(a.diagnostics.size(), b.diagnostics.size()) << what;
  for (size_t i = 0; i < a.diagnostics.size(); ++i) {
    EXPECT_EQ(a.diagnostics[i].category, b.diagnostics[i].category) << what;
    EXPECT_EQ(a.diagnostics[i].message, b.diagnostics[i].message) << what;
    EXPECT_EQ(a.diagnostics[i].node, b.diagnostics[i].node) << what;
  }
}

std::vector<fs::path> graphFiles() {
  std::vector<fs::path> files;
  for (const char *dir : {"examples", "tests/corpus"})
    for (const auto &e : fs::directory_iterator(fs::path(DTF_SOURCE_DIR) / dir))
      if (e.path().extension() == ".ir") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

TEST(GraphPlan, KeptPlanGivesTheSameResultsEverywhere) {
  auto files = graphFiles();
  ASSERT_GE(files.size(), 50u);
  size_t values = 0;
  for (const fs::path &p : files) {
    auto g = load(p);
    for (bool check : {false, true}) { // both option sets the tools use
      const Options v113{.semantics = Semantics::shared(TorchVersion::V1_13)};
      Options opts = check ? checkOptions(v113) : v113;
      Result plain = refineGraph(*g, opts);
      opts.plan = makeGraphPlan(*g, opts.semantics);
      expectSame(*g, plain, refineGraph(*g, opts), p.filename().string() + " (first use)");
      expectSame(*g, plain, refineGraph(*g, opts), p.filename().string() + " (reused)");
      opts.memo = makeEvalMemo(); // plan and memo together (the warm benchmark)
      refineGraph(*g, opts);
      expectSame(*g, plain, refineGraph(*g, opts), p.filename().string() + " (with a warm memo)");
      values += plain.values.size();
    }
  }
  EXPECT_GT(values, 5'000u);
}

TEST(GraphPlan, OneMemoSharedByEveryGraphAndPlanChangesNothing) {
  // A compiler session: one memo for all graphs, each graph's plan dropped
  // after its call (signature keys keep their signatures alive; a new plan
  // can never reuse an old signature's address while the memo holds it), and
  // a second round on fresh plans finds the first round's evaluations.
  auto files = graphFiles();
  auto memo = makeEvalMemo();
  for (int round = 0; round < 2; ++round)
    for (const fs::path &p : files) {
      auto g = load(p);
      Options opts = checkOptions(Options{.semantics = Semantics::shared(TorchVersion::V1_13)});
      Result plain = refineGraph(*g, opts);
      opts.memo = memo;
      opts.plan = makeGraphPlan(*g, opts.semantics);
      expectSame(*g, plain, refineGraph(*g, opts), p.filename().string() + " (shared memo, round " +
                                                       std::to_string(round) + ")");
      opts.plan = nullptr; // and without a plan, on the same memo
      expectSame(*g, plain, refineGraph(*g, opts), p.filename().string() + " (shared memo, no plan)");
    }
}

TEST(GraphPlan, InputTypesStillOverrideTheWrittenOnes) {
  auto g = ir::parseIR(R"(graph(%x : Tensor, %y : Float(2, 3)):
  %1 : int = prim::Constant[value=1]()
  %z : Tensor = aten::add(%x, %y, %1)
  return (%z)
)");
  Options opts;
  opts.semantics = Semantics::shared(TorchVersion::V1_13);
  opts.plan = makeGraphPlan(*g, opts.semantics);
  opts.inputTypes = {{"x", Value::tensor(DType::Float64, Rank::exact(2))}};
  Result r = refineGraph(*g, opts);
  EXPECT_EQ(r.values[g->body().returns[0]].str(), "float64:r2");
  opts.inputTypes = {{"x", Value::tensor(DType::Int32, Rank::exact(1))}};
  r = refineGraph(*g, opts); // the same plan, other input types
  EXPECT_EQ(r.values[g->body().returns[0]].str(), "float32:r2");
}

TEST(GraphPlan, AListAnOpMayGrowIsNeverASiteConstant) {
  // add_ has a list-mutating overload (`t[](a!) self += t[]`), so lists may
  // change in this graph: [0] stays a site constant for the sums that only
  // read it, but not once append can grow it (the second sum of the same
  // tensor must not find the first one's evaluation), nor when it is stored
  // in another list.
  auto g = ir::parseIR(R"(graph(%x : Float(2, 3, 4), %y : Float(2, 3, 4)):
  %0 : int = prim::Constant[value=0]()
  %1 : int = prim::Constant[value=1]()
  %f : bool = prim::Constant[value=0]()
  %n : NoneType = prim::Constant()
  %l : int[] = prim::ListConstruct(%0)
  %k : int[] = prim::ListConstruct(%0)
  %s1 : Tensor = aten::sum(%y, %l, %f, %n)
  %z : Tensor = aten::add_(%x, %y, %1)
  %a : int[] = aten::append(%l, %1)
  %s2 : Tensor = aten::sum(%y, %l, %f, %n)
  %s3 : Tensor = aten::sum(%y, %k, %f, %n)
  %m : int[][] = prim::ListConstruct(%k)
  %s4 : Tensor = aten::sum(%y, %k, %f, %n)
  return (%s1, %s2, %s3, %s4, %m)
)");
  Options opts = checkOptions(Options{.semantics = Semantics::shared(TorchVersion::V1_13)});
  Result plain = refineGraph(*g, opts);
  opts.plan = makeGraphPlan(*g, opts.semantics);
  Result planned = refineGraph(*g, opts);
  expectSame(*g, plain, planned, "list mutation");
  const auto &ret = g->body().returns;
  EXPECT_EQ(planned.values[ret[0]].str(), "float32:r2");
  EXPECT_NE(planned.values[ret[1]].rank(), Rank::exact(2)) << planned.values[ret[1]].str(); // [0, 1] or unknown
  EXPECT_EQ(planned.values[ret[2]].dtypes(), DTypeSet(DType::Float32));
}

TEST(GraphPlan, APlanOfAnotherGraphIsRefused) {
  const char *text = R"(graph(%x : Float(2)):
  %y : Tensor = aten::relu(%x)
  return (%y)
)";
  auto a = ir::parseIR(text), b = ir::parseIR(text);
  Options opts;
  opts.semantics = Semantics::shared(TorchVersion::V1_13);
  opts.plan = makeGraphPlan(*a, opts.semantics);
  EXPECT_NO_THROW(refineGraph(*a, opts));
  try {
    refineGraph(*b, opts);
    ADD_FAILURE() << "a plan of another graph was accepted";
  } catch (const std::invalid_argument &e) {
    EXPECT_NE(std::string(e.what()).find("another graph"), std::string::npos) << e.what();
  }
  // The graph grew after the plan was built: refused too.
  a->addValue("z", a->values[0].type);
  EXPECT_THROW(refineGraph(*a, opts), std::invalid_argument);
}

TEST(GraphPlan, WithoutSizesTheDtypesAndRanksStayAndNoSizeIsKnown) {
  // Options::sizes = false (the benchmarks' dtype/rank pass): every tensor
  // of every bundled example and corpus module gets the dtype and rank it
  // gets with sizes, never a size; kept plans and memos serve one mode.
  size_t tensors = 0, sized = 0, rankRefined = 0;
  for (const fs::path &p : graphFiles()) {
    auto g = load(p);
    Options opts = checkOptions(Options{.semantics = Semantics::shared(TorchVersion::V1_13)});
    Result with = refineGraph(*g, opts);
    opts.sizes = false;
    Result without = refineGraph(*g, opts);
    opts.plan = makeGraphPlan(*g, opts.semantics, /*sizes=*/false);
    opts.memo = makeEvalMemo();
    expectSame(*g, without, refineGraph(*g, opts), p.filename().string() + " (no sizes, kept plan and memo)");
    for (size_t v = 0; v < g->values.size(); ++v) {
      const Value &a = with.values[v], &b = without.values[v];
      if (!a.isTensor()) continue;
      ++tensors;
      sized += a.hasKnownDims();
      EXPECT_FALSE(b.hasKnownDims()) << p.filename() << ": %" << g->values[v].name << ": " << b.str();
      // Sizes may decide a dtype or rank a rule leaves open (trapezoid's early return for an empty
      // dim), never contradict it.
      EXPECT_EQ(DTypeSet::join(a.dtypes(), b.dtypes()), b.dtypes()) << p.filename() << ": %" << g->values[v].name;
      EXPECT_EQ(Rank::join(a.rank(), b.rank()), b.rank()) << p.filename() << ": %" << g->values[v].name;
      rankRefined += !(a.rank() == b.rank()) || !(a.dtypes() == b.dtypes());
    }
  }
  EXPECT_GT(tensors, 2'000u);
  EXPECT_GT(sized, tensors / 2) << "the sized pass knows sizes";
  EXPECT_LT(rankRefined, tensors / 100) << "dtypes and ranks come from the dtype rules, sizes only settle a few";
}

TEST(GraphPlan, APlanOrMemoOfTheOtherSizesModeIsRefused) {
  auto g = ir::parseIR(R"(graph(%x : Float(2, 3)):
  %y : Tensor = aten::relu(%x)
  return (%y)
)");
  Options opts;
  opts.semantics = Semantics::shared(TorchVersion::V1_13);
  opts.plan = makeGraphPlan(*g, opts.semantics, /*sizes=*/false);
  EXPECT_EQ(refineGraph(*g, [&] { Options o = opts; o.sizes = false; return o; }()).values[1].str(), "float32:r2");
  EXPECT_THROW(refineGraph(*g, opts), std::invalid_argument); // a plan without sizes, a call with
  opts.plan = nullptr;
  opts.memo = makeEvalMemo();
  EXPECT_EQ(refineGraph(*g, opts).values[1].shapeStr(), "[2, 3]");
  opts.sizes = false;
  EXPECT_THROW(refineGraph(*g, opts), std::invalid_argument); // a memo filled with sizes
}

} // namespace
} // namespace dtf::refine
