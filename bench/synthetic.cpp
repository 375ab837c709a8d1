//===- bench/synthetic.cpp - scaling on synthetic graphs of 10^3 .. 10^6 nodes ----===//
//
// Graphs are built in memory through the IR API (no parsing):
//  chain   : x -> add(x, x, 1) -> mul(., 0.5) -> relu -> add ... (one long dependency chain)
//  fanout  : y_i = add(x, y_{i/2}, 1): every value feeds two nodes, x feeds all of them
//  nested  : a sequence of prim::Loop, each carrying a tensor through a prim::If
//            whose arms hold a prim::If and chains (unknown condition: every arm runs)
// The input x is Float(8, 16): every tensor gets sizes. Each graph runs with
// sizes (scale/) and without (scale-nosizes/: refine::Options::sizes = false,
// the dtype/rank pass alone), in the same run.
// Reported: nodes per second, the analysis state (sizeof per-value state x
// values / nodes) and the measured peak heap growth of one refinement per node.
//
//===----------------------------------------------------------------------===//
#include "common.h"

#include "graph/graph.h"
#include "ops/semantics.h"
#include "refine/refine.h"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <memory>

namespace dtf::bench {
namespace {

using ir::BlockId;
using ir::NodeId;
using ir::ValueId;
using TK = ir::TypeExpr::Kind;

ir::TypePtr makeType(TK kind, std::string text, std::optional<DType> d = {}, std::optional<int> rank = {}) {
  auto t = std::make_shared<ir::TypeExpr>();
  t->kind = kind;
  t->text = std::move(text);
  t->dtype = d;
  t->rank = rank;
  return t;
}

/// The graphs' input: Float(8, 16).
ir::TypePtr inputType() {
  auto t = std::const_pointer_cast<ir::TypeExpr>(makeType(TK::Tensor, "Float(8, 16)", DType::Float32, 2));
  t->dims = {Dim(8), Dim(16)};
  return t;
}

class Builder {
public:
  Builder() : g(std::make_unique<ir::Graph>()) {
    tensor = ir::tensorType();
    intT = makeType(TK::Int, "int");
    floatT = makeType(TK::Float, "float");
    boolT = makeType(TK::Bool, "bool");
  }
  ValueId input(const std::string &name, ir::TypePtr t) {
    ValueId v = g->addValue(name, std::move(t));
    g->values[v].paramOf = 0;
    g->body().params.push_back(v);
    return v;
  }
  ValueId param(BlockId b, ir::TypePtr t) {
    ValueId v = g->addValue(fresh(), std::move(t));
    g->values[v].paramOf = b;
    g->blocks[b].params.push_back(v);
    return v;
  }
  NodeId node(BlockId b, std::string_view kind, std::initializer_list<ValueId> inputs) {
    NodeId n = g->addNode(b, kind, {});
    g->nodes[n].inputs.assign(inputs.begin(), inputs.end());
    return n;
  }
  ValueId out(NodeId n, ir::TypePtr t) {
    ValueId v = g->addValue(fresh(), std::move(t));
    g->values[v].def = n;
    g->nodes[n].outputs.push_back(v);
    return v;
  }
  ValueId op(BlockId b, std::string_view kind, std::initializer_list<ValueId> inputs) {
    return out(node(b, kind, inputs), tensor);
  }
  ValueId constant(BlockId b, ir::TypePtr t, std::string text, ir::Attribute::LitKind lk, Value lit) {
    NodeId n = node(b, "prim::Constant", {});
    g->nodes[n].attrs.push_back(ir::Attribute{"value", std::move(text), lk, std::move(lit)});
    return out(n, std::move(t));
  }
  /// add(., ., 1) -> mul(., 0.5) -> relu: three nodes.
  ValueId chain3(BlockId b, ValueId v) {
    v = op(b, "aten::add", {v, v, one});
    v = op(b, "aten::mul", {v, half});
    return op(b, "aten::relu", {v});
  }
  std::string fresh() { return std::to_string(counter_++); }

  std::unique_ptr<ir::Graph> g;
  ir::TypePtr tensor, intT, floatT, boolT;
  ValueId one = 0, half = 0;

private:
  size_t counter_ = 0;
};

std::unique_ptr<ir::Graph> buildChain(size_t nodes) {
  Builder b;
  ValueId x = b.input("x", inputType());
  b.one = b.constant(0, b.intT, "1", ir::Attribute::LitKind::Int, Value::integer(1));
  b.half = b.constant(0, b.floatT, "0.5", ir::Attribute::LitKind::Float, Value::floating(0.5));
  ValueId v = x;
  while (b.g->nodes.size() + 3 <= nodes) v = b.chain3(0, v);
  b.g->body().returns = {v};
  return std::move(b.g);
}

std::unique_ptr<ir::Graph> buildFanout(size_t nodes) {
  Builder b;
  ValueId x = b.input("x", inputType());
  b.one = b.constant(0, b.intT, "1", ir::Attribute::LitKind::Int, Value::integer(1));
  std::vector<ValueId> ys = {x};
  while (b.g->nodes.size() < nodes) ys.push_back(b.op(0, "aten::add", {x, ys[ys.size() / 2], b.one}));
  b.g->body().returns = {ys.back()};
  return std::move(b.g);
}

/// Loop(trip, true, t) { If(flag) { chain3; If(flag) {chain3} else {chain3} } else { chain3 } } : 16 nodes.
std::unique_ptr<ir::Graph> buildNested(size_t nodes) {
  Builder b;
  ValueId x = b.input("x", inputType());
  ValueId trip = b.input("n", b.intT);
  ValueId flag = b.input("flag", b.boolT);
  b.one = b.constant(0, b.intT, "1", ir::Attribute::LitKind::Int, Value::integer(1));
  b.half = b.constant(0, b.floatT, "0.5", ir::Attribute::LitKind::Float, Value::floating(0.5));
  ValueId yes = b.constant(0, b.boolT, "1", ir::Attribute::LitKind::Int, Value::boolean(true));
  auto makeIf = [&](BlockId parent, ValueId in, auto &&thenArm, auto &&elseArm) {
    NodeId n = b.node(parent, "prim::If", {flag});
    BlockId t = b.g->addBlock(n, {}), e = b.g->addBlock(n, {});
    b.g->blocks[t].returns = {thenArm(t, in)};
    b.g->blocks[e].returns = {elseArm(e, in)};
    return b.out(n, b.tensor);
  };
  auto arm3 = [&](BlockId blk, ValueId in) { return b.chain3(blk, in); };
  ValueId v = x;
  while (b.g->nodes.size() + 16 <= nodes) {
    NodeId loop = b.node(0, "prim::Loop", {trip, yes, v});
    BlockId body = b.g->addBlock(loop, {});
    b.param(body, b.intT);
    ValueId carried = b.param(body, b.tensor);
    ValueId r = makeIf(body, carried,
                       [&](BlockId blk, ValueId in) {
                         ValueId w = b.chain3(blk, in);
                         return makeIf(blk, w, arm3, arm3);
                       },
                       arm3);
    b.g->blocks[body].returns = {yes, r};
    v = b.out(loop, b.tensor);
  }
  b.g->body().returns = {v};
  return std::move(b.g);
}

struct ScaleRow {
  size_t nodes = 0, values = 0;
  double stateBytesPerNode = 0, peakHeapPerNode = 0;
  size_t known = 0, tensors = 0;
};
std::map<std::string, ScaleRow> &rows() {
  static std::map<std::string, ScaleRow> r;
  return r;
}

using BuildFn = std::unique_ptr<ir::Graph> (*)(size_t);

std::string scaleName(const std::string &shape, size_t n, bool sizes) {
  return fmt::format("{}/{}/{}", sizes ? "scale" : "scale-nosizes", shape, n);
}

void benchScale(benchmark::State &state, std::string shape, BuildFn build, size_t n, bool sizes) {
  std::unique_ptr<ir::Graph> g = build(n);
  const std::string name = scaleName(shape, n, sizes);
  refine::Options opts{.semantics = Semantics::shared(TorchVersion::V1_13)};
  opts.sizes = sizes;
  // One untimed refinement to measure memory and check the result.
  ScaleRow row;
  {
    trackHeap(true);
    refine::Result r = refine::refineGraph(*g, opts);
    row.peakHeapPerNode = static_cast<double>(heapPeak()) / g->nodes.size();
    trackHeap(false);
    for (const Value &v : r.values)
      if (v.isTensor()) ++row.tensors, row.known += refine::fullyKnown(v);
  }
  row.nodes = g->nodes.size();
  row.values = g->values.size();
  row.stateBytesPerNode = static_cast<double>((sizeof(Value) + sizeof(refine::UnknownReason)) * row.values) / row.nodes;
  rows()[name] = row;
  for (auto _ : state) {
    refine::Result r = refine::refineGraph(*g, opts);
    benchmark::DoNotOptimize(r.values.data());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * g->nodes.size()));
  state.counters["nodes"] = static_cast<double>(row.nodes);
  state.counters["state_B/node"] = row.stateBytesPerNode;
  state.counters["peakheap_B/node"] = row.peakHeapPerNode;
  state.counters["known%"] = row.tensors ? 100.0 * row.known / row.tensors : 0;
}

} // namespace

void registerSyntheticBenchmarks() {
  struct Shape { const char *name; BuildFn fn; };
  for (Shape s : {Shape{"chain", buildChain}, Shape{"fanout", buildFanout}, Shape{"nested", buildNested}})
    for (size_t n : settings().scales)
      for (bool sizes : {true, false})
        benchmark::RegisterBenchmark(scaleName(s.name, n, sizes).c_str(), benchScale, std::string(s.name), s.fn, n,
                                     sizes)
            ->Unit(benchmark::kMillisecond)
            ->MinTime(n >= 1000000 ? 2.0 : 0.5);
}

void printSyntheticSummary() {
  if (rows().empty()) return;
  const auto &t = timings();
  fmt::print("\n== Scaling: synthetic graphs ==\n");
  fmt::print("{:<24} {:>9} {:>9} {:>10} {:>9} {:>10} {:>10} {:>12} {:>7}\n", "graph", "nodes", "values", "time ms",
             "ns/node", "Mnodes/s", "state B/n", "peakheap B/n", "known%");
  for (const auto &[name, r] : rows()) {
    auto it = t.find(name);
    double sec = it != t.end() ? it->second : 0;
    fmt::print("{:<24} {:>9} {:>9} {:>10.3f} {:>9.1f} {:>10.2f} {:>10.1f} {:>12.1f} {:>7.1f}\n", name, r.nodes,
               r.values, sec * 1e3, sec * 1e9 / r.nodes, sec > 0 ? r.nodes / sec / 1e6 : 0, r.stateBytesPerNode,
               r.peakHeapPerNode, r.tensors ? 100.0 * r.known / r.tensors : 0);
  }
  fmt::print("state B/n = sizeof(Value) + sizeof(UnknownReason) = {} + {} bytes per value, times values / nodes.\n",
             sizeof(Value), sizeof(refine::UnknownReason));
  fmt::print("\nWhat sizes cost (issue 35: at most 2x): time with sizes / without, same run\n");
  for (const auto &[name, r] : rows()) {
    if (!name.starts_with("scale/")) continue;
    auto with = t.find(name), without = t.find("scale-nosizes/" + name.substr(6));
    if (with != t.end() && without != t.end() && without->second > 0)
      fmt::print("{:<24} {:>8.3f} ms / {:>8.3f} ms = {:.2f}x\n", name, with->second * 1e3, without->second * 1e3,
                 with->second / without->second);
  }
}

} // namespace dtf::bench
