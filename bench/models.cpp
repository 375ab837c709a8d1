//===- bench/models.cpp - real model graphs: dtypeflow vs DtypePropagation vs meta ----===//
//
// Each model's IR text is parsed twice: by dtypeflow's parser, and by
// libtorch's torch::jit::parseIR. Both analyses then see only the graph
// inputs' types (plus constants and GetAttr results, which are data):
//  - dtypeflow refines with the options `dtypeflow check` uses (written types
//    of other values are never read as facts);
//  - for DtypePropagation every other tensor value's type is reset to the
//    unshaped `Tensor` before each run (not timed), then the pass runs.
// Only the pass is timed. Both are compared with the trace's written types.
// The meta/fake-tensor routes are timed in Python by bench/meta_route.py
// (--meta=FILE.json) and only read here, for the ratios.
//
//===----------------------------------------------------------------------===//
#include "common.h"

#include "dtype/dtype.h"
#include "frontends/text/ir_parser.h"
#include "ops/semantics.h"
#include "refine/check.h"

#include <benchmark/benchmark.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <torch/csrc/jit/ir/ir.h>
#include <torch/csrc/jit/ir/irparser.h>
#include <torch/csrc/jit/passes/dtype_analysis.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>

namespace dtf::bench {
namespace {

namespace fs = std::filesystem;
namespace tj = torch::jit;
using refine::Verdict;

struct Counts {
  size_t correct = 0, unknown = 0, wrong = 0;
  size_t total() const { return correct + unknown + wrong; }
};

struct MetaRoute {
  std::optional<double> ms; ///< median per run; none when it fails
  std::string error;
};

struct Model {
  std::string name, path, origin; ///< origin: "bundled" or "zoo"
  std::string text;               ///< the IR text
  std::unique_ptr<ir::Graph> g;
  std::string parseError;
  // libtorch side
  std::shared_ptr<tj::Graph> tg;
  std::unordered_map<std::string, tj::Value *> vmap;
  std::vector<tj::Value *> stripped; ///< values whose type is reset before each run
  std::string torchError;            ///< parseIR or DtypePropagation threw
  // truth comparison
  Counts ours, ours_dtypeOnly, torch;
  size_t tensorValues = 0;
  // meta route: "ms"/"error" (eager forward on 'meta'), and every route of "routes"
  std::optional<double> metaMs;
  std::string metaError;
  std::map<std::string, MetaRoute> routes;
};

/// Route names in the order meta_route.py wrote them (first seen), with their description.
std::vector<std::pair<std::string, std::string>> &routeNames() {
  static std::vector<std::pair<std::string, std::string>> r;
  return r;
}

std::vector<std::unique_ptr<Model>> &models() {
  static std::vector<std::unique_ptr<Model>> m;
  return m;
}

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void forEachNode(tj::Block *b, const std::function<void(tj::Node *)> &f) {
  for (tj::Node *n : b->nodes()) {
    f(n);
    for (tj::Block *inner : n->blocks()) {
      for (tj::Value *p : inner->inputs()) (void)p;
      forEachNode(inner, f);
    }
  }
}

void stripTorch(Model &m) {
  for (tj::Value *v : m.stripped) v->setType(c10::TensorType::get());
}

/// Parse `text` with libtorch and reset every tensor type DtypePropagation
/// must infer (all but graph inputs, constants and GetAttr results).
std::shared_ptr<tj::Graph> parseStripped(const std::string &text, std::unordered_map<std::string, tj::Value *> &vmap,
                                         std::vector<tj::Value *> &stripped) {
  auto tg = std::make_shared<tj::Graph>();
  tj::parseIR(text, tg.get(), vmap, /*parse_tensor_constants=*/true);
  forEachNode(tg->block(), [&](tj::Node *n) {
    bool data = n->kind() == c10::prim::Constant || n->kind() == c10::prim::GetAttr;
    if (!data)
      for (tj::Value *o : n->outputs())
        if (o->type()->cast<c10::TensorType>()) stripped.push_back(o);
    for (tj::Block *b : n->blocks())
      for (tj::Value *p : b->inputs())
        if (p->type()->cast<c10::TensorType>()) stripped.push_back(p);
  });
  for (tj::Value *v : stripped) v->setType(c10::TensorType::get());
  return tg;
}

/// The torch analysis result for one of our values.
Verdict torchVerdict(const Model &m, ir::ValueId v) {
  const ir::TypeExpr &t = *m.g->values[v].type;
  auto it = m.vmap.find(m.g->values[v].name);
  if (it == m.vmap.end() || !m.torchError.empty()) return Verdict::Unknown;
  auto tt = it->second->type()->cast<c10::TensorType>();
  if (!tt || !tt->scalarType()) return Verdict::Unknown;
  auto d = fromC10Code(static_cast<int>(*tt->scalarType()));
  return d && *d == *t.dtype ? Verdict::Correct : Verdict::Wrong;
}

void prepare(Model &m) {
  std::string text = readFile(m.path);
  m.text = text;
  try {
    m.g = ir::parseIR(text);
  } catch (const std::exception &e) {
    m.parseError = e.what();
    return;
  }
  // libtorch: the same text.
  try {
    m.tg = parseStripped(text, m.vmap, m.stripped);
    tj::DtypePropagation(m.tg);
  } catch (const std::exception &e) {
    std::string msg = e.what();
    m.torchError = msg.substr(0, msg.find('\n'));
  }
  // Truth comparison, once.
  refine::Result r = refine::refineGraph(*m.g, refine::checkOptions(refine::Options{.semantics = Semantics::shared(TorchVersion::V1_13)}));
  for (size_t v = 0; v < m.g->values.size(); ++v) {
    auto id = static_cast<ir::ValueId>(v);
    Verdict ours = refine::checkWritten(*m.g, id, r.values[v]);
    if (ours == Verdict::NotChecked) continue;
    ++m.tensorValues;
    auto bump = [](Counts &c, Verdict x) {
      (x == Verdict::Correct ? c.correct : x == Verdict::Wrong ? c.wrong : c.unknown)++;
    };
    bump(m.ours, ours);
    // dtype alone (what DtypePropagation computes), for a like-for-like view.
    const Value &got = r.values[v];
    Verdict dOnly = got.isTensor() && got.dtype()
                        ? (*got.dtype() == *m.g->values[v].type->dtype ? Verdict::Correct : Verdict::Wrong)
                        : Verdict::Unknown;
    bump(m.ours_dtypeOnly, ours == Verdict::Wrong ? Verdict::Wrong : dOnly);
    bump(m.torch, torchVerdict(m, id));
  }
}

void loadMeta() {
  const std::string &path = settings().metaJson;
  if (path.empty()) return;
  std::ifstream in(path);
  if (!in) {
    fmt::print(stderr, "dtypeflow_bench: cannot read --meta={}\n", path);
    return;
  }
  // ordered_json keeps the routes in the file's order (the column order).
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(in, nullptr, false);
  if (!j.is_object()) {
    fmt::print(stderr, "dtypeflow_bench: --meta={} is not a JSON object\n", path);
    return;
  }
  for (auto &m : models()) {
    if (!j.contains(m->name) || !j[m->name].is_object()) continue;
    const auto &e = j[m->name];
    if (e.value("ms", nlohmann::ordered_json()).is_number()) m->metaMs = e["ms"].get<double>();
    if (e.value("error", nlohmann::ordered_json()).is_string()) m->metaError = e["error"].get<std::string>();
    if (!e.contains("routes") || !e["routes"].is_object()) continue; // older file: "ms" only
    for (const auto &[route, r] : e["routes"].items()) {
      MetaRoute &mr = m->routes[route];
      if (r.value("ms", nlohmann::ordered_json()).is_number()) mr.ms = r["ms"].get<double>();
      if (r.value("error", nlohmann::ordered_json()).is_string()) mr.error = r["error"].get<std::string>();
      auto &names = routeNames();
      if (std::none_of(names.begin(), names.end(), [&](const auto &n) { return n.first == route; }))
        names.emplace_back(route, r.value("what", std::string()));
    }
  }
}

void setCounters(benchmark::State &state, const Model &m, const Counts &c) {
  double n = static_cast<double>(std::max<size_t>(c.total(), 1));
  state.counters["nodes"] = static_cast<double>(m.g->nodes.size());
  state.counters["tensors"] = static_cast<double>(c.total());
  state.counters["right%"] = 100.0 * c.correct / n;
  state.counters["unknown%"] = 100.0 * c.unknown / n;
  state.counters["wrong%"] = 100.0 * c.wrong / n;
}

std::string dtfName(const Model &m) { return "refine/dtypeflow/" + m.name; }
std::string torchName(const Model &m) { return "refine/DtypePropagation/" + m.name; }
std::string plannedName(const Model &m) { return "refine/dtypeflow-planned/" + m.name; }
std::string warmName(const Model &m) { return "refine/dtypeflow-warm/" + m.name; }
std::string torchFirstName(const Model &m) { return "refine/DtypePropagation-first/" + m.name; }
// The same passes without tensor sizes (refine::Options::sizes = false): what sizes cost.
std::string dtypesName(const Model &m) { return "refine/dtypeflow-nosizes/" + m.name; }
std::string plannedDtypesName(const Model &m) { return "refine/dtypeflow-planned-nosizes/" + m.name; }

void benchDtypeflow(benchmark::State &state, Model *m) {
  refine::Options opts = refine::checkOptions(refine::Options{.semantics = Semantics::shared(TorchVersion::V1_13)});
  for (auto _ : state) {
    refine::Result r = refine::refineGraph(*m->g, opts);
    benchmark::DoNotOptimize(r.values.data());
  }
  setCounters(state, *m, m->ours);
  if (m->metaMs) state.counters["meta_ms"] = *m->metaMs;
}

/// The pass with the graph's plan built once (refine::Options::plan, not
/// timed), as a parsed TorchScript graph keeps each node's resolved operator
/// between DtypePropagation runs; each call still starts with a fresh memo.
void benchDtypeflowPlanned(benchmark::State &state, Model *m) {
  refine::Options opts = refine::checkOptions(refine::Options{.semantics = Semantics::shared(TorchVersion::V1_13)});
  opts.plan = refine::makeGraphPlan(*m->g, opts.semantics);
  for (auto _ : state) {
    refine::Result r = refine::refineGraph(*m->g, opts);
    benchmark::DoNotOptimize(r.values.data());
  }
}

/// The cold pass (planned: with the plan kept) without sizes, the dtype/rank pass alone.
void benchDtypeflowNoSizes(benchmark::State &state, Model *m, bool planned) {
  refine::Options opts = refine::checkOptions(refine::Options{.semantics = Semantics::shared(TorchVersion::V1_13)});
  opts.sizes = false;
  if (planned) opts.plan = refine::makeGraphPlan(*m->g, opts.semantics, /*sizes=*/false);
  for (auto _ : state) {
    refine::Result r = refine::refineGraph(*m->g, opts);
    benchmark::DoNotOptimize(r.values.data());
  }
}

/// The pass with the plan and a memo that outlive the call
/// (refine::Options::memo), as a compiler session refining many graphs
/// would use them: after one warm-up call every op evaluation of this graph
/// is a memo hit.
void benchDtypeflowWarm(benchmark::State &state, Model *m) {
  refine::Options opts = refine::checkOptions(refine::Options{.semantics = Semantics::shared(TorchVersion::V1_13)});
  opts.plan = refine::makeGraphPlan(*m->g, opts.semantics);
  opts.memo = refine::makeEvalMemo();
  refine::refineGraph(*m->g, opts); // warm-up, not timed
  for (auto _ : state) {
    refine::Result r = refine::refineGraph(*m->g, opts);
    benchmark::DoNotOptimize(r.values.data());
  }
}

void benchTorch(benchmark::State &state, Model *m) {
  if (!m->torchError.empty()) {
    state.SkipWithError(("DtypePropagation throws: " + m->torchError).c_str());
    for (auto _ : state) {}
    return;
  }
  double total = 0;
  for (auto _ : state) {
    stripTorch(*m); // not timed: restores the "only inputs typed" state
    auto t0 = std::chrono::steady_clock::now();
    bool changed = tj::DtypePropagation(m->tg);
    auto t1 = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(changed);
    double dt = std::chrono::duration<double>(t1 - t0).count();
    total += dt;
    state.SetIterationTime(dt);
  }
  setCounters(state, *m, m->torch);
  // Same run: how many times slower than dtypeflow's pass on this graph.
  auto it = timings().find(dtfName(*m));
  if (it != timings().end() && state.iterations() > 0)
    state.counters["x_dtypeflow"] = total / static_cast<double>(state.iterations()) / it->second;
}

/// DtypePropagation's first run on a freshly parsed graph (parsing not
/// timed): what a one-shot use costs, with each node's operator resolved in
/// the run, next to dtypeflow's one-shot (cold) pass.
void benchTorchFirst(benchmark::State &state, Model *m) {
  if (!m->torchError.empty()) {
    state.SkipWithError(("DtypePropagation throws: " + m->torchError).c_str());
    for (auto _ : state) {}
    return;
  }
  for (auto _ : state) {
    std::unordered_map<std::string, tj::Value *> vmap;
    std::vector<tj::Value *> stripped;
    auto tg = parseStripped(m->text, vmap, stripped); // not timed
    auto t0 = std::chrono::steady_clock::now();
    bool changed = tj::DtypePropagation(tg);
    auto t1 = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(changed);
    state.SetIterationTime(std::chrono::duration<double>(t1 - t0).count());
  }
}

/// "1234" / "12.3": route time over dtypeflow's pass time.
std::string timesOurs(double routeMs, double oursSeconds) {
  if (oursSeconds <= 0) return "-";
  double x = routeMs * 1e-3 / oursSeconds;
  return x < 10 ? fmt::format("{:.1f}", x) : fmt::format("{:.0f}", x);
}

/// What tensor sizes cost: each pass with sizes over the same pass without (issue 35: at most 2x).
void printSizesCost() {
  const auto &t = timings();
  fmt::print("\n== What sizes cost: the pass with tensor sizes vs without (refine::Options::sizes), same run ==\n");
  fmt::print("{:<20} | {:>10} {:>10} {:>6} | {:>10} {:>10} {:>6}\n", "model", "cold us", "no sizes", "x", "planned",
             "no sizes", "x");
  for (auto &mp : models()) {
    const Model &m = *mp;
    auto a = t.find(dtfName(m)), b = t.find(dtypesName(m)), c = t.find(plannedName(m)), d = t.find(plannedDtypesName(m));
    if (!m.g || a == t.end() || b == t.end()) continue;
    std::string planned = c != t.end() && d != t.end()
                              ? fmt::format("{:>10.1f} {:>10.1f} {:>6.2f}", c->second * 1e6, d->second * 1e6,
                                            c->second / d->second)
                              : "-";
    fmt::print("{:<20} | {:>10.1f} {:>10.1f} {:>6.2f} | {}\n", m.name, a->second * 1e6, b->second * 1e6,
               a->second / b->second, planned);
  }
}

/// One-shot use on both sides: dtypeflow's cold pass (nothing kept) next to
/// DtypePropagation's first run on a freshly parsed graph.
void printOneShot() {
  const auto &t = timings();
  fmt::print("\n== One-shot: dtypeflow's cold pass vs DtypePropagation's first run on a freshly parsed graph ==\n");
  fmt::print("{:<20} | {:>10} | {:>10} {:>8} | {:>10} {:>8}\n", "model", "dtypeflow", "DP first", "ratio", "DP steady",
             "ratio");
  for (auto &mp : models()) {
    const Model &m = *mp;
    auto a = t.find(dtfName(m)), f = t.find(torchFirstName(m)), b = t.find(torchName(m));
    if (!m.g || a == t.end() || f == t.end() || b == t.end() || !m.torchError.empty()) continue;
    fmt::print("{:<20} | {:>10.1f} | {:>10.1f} {:>8.1f} | {:>10.1f} {:>8.1f}\n", m.name, a->second * 1e6,
               f->second * 1e6, f->second / a->second, b->second * 1e6, b->second / a->second);
  }
}

/// One row per model, one (ms, x) column pair per route of --meta; failures grouped by message.
void printMetaRoutes() {
  const auto &names = routeNames();
  if (names.empty()) return;
  const auto &t = timings();
  fmt::print("\n== Meta/fake-tensor routes (bench/meta_route.py: Python, torch 1.13, 1 thread): median ms per run, "
             "x = route time / dtypeflow's pass ==\n");
  std::string head = fmt::format("{:<20} {:>10}", "model", "dtypeflow"), unit = fmt::format("{:<20} {:>10}", "", "us");
  for (const auto &[route, what] : names) {
    head += fmt::format(" | {:>17}", route);
    unit += fmt::format(" | {:>9} {:>7}", "ms", "x");
  }
  fmt::print("{}\n{}\n", head, unit);
  for (auto &mp : models()) {
    const Model &m = *mp;
    if (!m.g) continue;
    auto a = t.find(dtfName(m));
    double ours = a != t.end() ? a->second : 0;
    std::string row = fmt::format("{:<20} {:>10}", m.name, ours > 0 ? fmt::format("{:.1f}", ours * 1e6) : "-");
    for (const auto &[route, what] : names) {
      auto it = m.routes.find(route);
      std::string ms = "-", x = "-";
      if (it != m.routes.end() && it->second.ms) {
        ms = fmt::format("{:.2f}", *it->second.ms);
        x = timesOurs(*it->second.ms, ours);
      } else if (it != m.routes.end() && !it->second.error.empty()) {
        ms = "fails";
      }
      row += fmt::format(" | {:>9} {:>7}", ms, x);
    }
    fmt::print("{}\n", row);
  }
  for (const auto &[route, what] : names) {
    fmt::print("  {}: {}\n", route, what);
    // Same message on several models: print it once, with the models.
    std::vector<std::pair<std::string, std::string>> errs; // message, models
    for (auto &mp : models()) {
      auto it = mp->routes.find(route);
      if (!mp->g || it == mp->routes.end() || it->second.error.empty()) continue;
      auto e = std::find_if(errs.begin(), errs.end(), [&](const auto &p) { return p.first == it->second.error; });
      if (e == errs.end()) errs.emplace_back(it->second.error, mp->name);
      else e->second += ", " + mp->name;
    }
    for (const auto &[msg, who] : errs) fmt::print("      fails on {}: {}\n", who, msg);
  }
}

} // namespace

void registerModelBenchmarks() {
  const Settings &s = settings();
  for (const char *name : {"resnet18", "mobilenet_v2", "transformer_encoder", "token_embedding", "mixed_dtypes"}) {
    auto m = std::make_unique<Model>();
    m->name = name;
    m->origin = "bundled";
    m->path = s.sourceDir + "/examples/" + name + ".ir";
    models().push_back(std::move(m));
  }
  if (!s.zooDir.empty() && fs::is_directory(s.zooDir)) {
    std::vector<fs::path> files;
    for (const auto &e : fs::directory_iterator(s.zooDir))
      if (e.path().extension() == ".ir") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const fs::path &p : files) {
      auto m = std::make_unique<Model>();
      m->name = p.stem().string();
      m->origin = "zoo";
      m->path = p.string();
      models().push_back(std::move(m));
    }
  }
  for (auto &m : models()) prepare(*m);
  loadMeta();
  for (auto &m : models()) {
    if (!m->g) {
      fmt::print(stderr, "dtypeflow_bench: {}: not parsed: {}\n", m->path, m->parseError);
      continue;
    }
    Model *p = m.get();
    benchmark::RegisterBenchmark(dtfName(*p).c_str(), benchDtypeflow, p)->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(plannedName(*p).c_str(), benchDtypeflowPlanned, p)->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(warmName(*p).c_str(), benchDtypeflowWarm, p)->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(dtypesName(*p).c_str(), benchDtypeflowNoSizes, p, false)
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(plannedDtypesName(*p).c_str(), benchDtypeflowNoSizes, p, true)
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(torchName(*p).c_str(), benchTorch, p)
        ->Unit(benchmark::kMicrosecond)
        ->UseManualTime();
    // Each iteration parses a graph (untimed, up to ~10 ms): a fixed count keeps the run short.
    benchmark::RegisterBenchmark(torchFirstName(*p).c_str(), benchTorchFirst, p)
        ->Unit(benchmark::kMicrosecond)
        ->UseManualTime()
        ->Iterations(200);
  }
}

void printModelSummary() {
  const auto &t = timings();
  auto pct = [](size_t x, size_t n) { return n ? 100.0 * x / n : 0.0; };
  fmt::print("\n== Real models: time per graph (pass only) and agreement with the trace's types ==\n");
  fmt::print("{:<20} {:>6} {:>7} | {:>10} {:>6} {:>6} {:>6} | {:>10} {:>8} {:>6} {:>6} {:>6} | {:>9} {:>8} | {:>9} "
             "{:>8} | {:>9} {:>8}\n",
             "model", "nodes", "tensors", "dtypeflow", "right", "unk", "wrong", "DtypeProp", "ratio", "right",
             "unk", "wrong", "meta", "ratio", "planned", "ratio", "warm memo", "ratio");
  fmt::print("{:<20} {:>6} {:>7} | {:>10} {:>6} {:>6} {:>6} | {:>10} {:>8} {:>6} {:>6} {:>6} | {:>9} {:>8} | {:>9} "
             "{:>8} | {:>9} {:>8}\n",
             "", "", "", "us", "%", "%", "%", "us", "x", "%", "%", "%", "ms", "x", "us", "x", "us", "x");
  for (auto &mp : models()) {
    const Model &m = *mp;
    if (!m.g) continue;
    auto a = t.find(dtfName(m)), b = t.find(torchName(m));
    // A variant's time and its ratio to DtypePropagation's ("-" when absent).
    auto variant = [&](const std::string &name) -> std::pair<std::string, std::string> {
      auto w = t.find(name);
      if (w == t.end()) return {"-", "-"};
      bool torchRan = b != t.end() && m.torchError.empty();
      return {fmt::format("{:.1f}", w->second * 1e6), torchRan ? fmt::format("{:.1f}", b->second / w->second) : "-"};
    };
    auto [plannedT, plannedR] = variant(plannedName(m));
    auto [warmT, warmR] = variant(warmName(m));
    double ours = a != t.end() ? a->second : 0;
    std::string torchT = m.torchError.empty() ? "-" : "throws", ratio = "-", metaT = "-", metaR = "-";
    if (b != t.end() && m.torchError.empty()) {
      torchT = fmt::format("{:.1f}", b->second * 1e6);
      if (ours > 0) ratio = fmt::format("{:.1f}", b->second / ours);
    }
    if (m.metaMs) {
      metaT = fmt::format("{:.2f}", *m.metaMs);
      metaR = timesOurs(*m.metaMs, ours);
    } else if (!m.metaError.empty()) {
      metaT = "fails";
    }
    size_t n = m.ours.total();
    fmt::print("{:<20} {:>6} {:>7} | {:>10.1f} {:>6.1f} {:>6.1f} {:>6.1f} | {:>10} {:>8} {:>6.1f} {:>6.1f} {:>6.1f} | "
               "{:>9} {:>8} | {:>9} {:>8} | {:>9} {:>8}\n",
               m.name, m.g->nodes.size(), n, ours * 1e6, pct(m.ours.correct, n), pct(m.ours.unknown, n),
               pct(m.ours.wrong, n), torchT, ratio, pct(m.torch.correct, n), pct(m.torch.unknown, n),
               pct(m.torch.wrong, n), metaT, metaR, plannedT, plannedR, warmT, warmR);
  }
  fmt::print("dtypeflow right = dtype and rank both known and equal to the trace; DtypePropagation is judged on "
             "dtype only.\n");
  for (auto &mp : models()) {
    if (!mp->g) continue;
    if (!mp->torchError.empty()) fmt::print("  {}: DtypePropagation throws: {}\n", mp->name, mp->torchError);
    if (!mp->metaError.empty()) fmt::print("  {}: meta route fails: {}\n", mp->name, mp->metaError);
    if (mp->ours.wrong || mp->ours.unknown)
      fmt::print("  {}: dtypeflow dtype-only: {} right, {} unknown, {} wrong\n", mp->name, mp->ours_dtypeOnly.correct,
                 mp->ours_dtypeOnly.unknown, mp->ours_dtypeOnly.wrong);
  }
  printSizesCost();
  printOneShot();
  printMetaRoutes();
}

} // namespace dtf::bench
