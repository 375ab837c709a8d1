//===- bench/pt2.cpp - reading a torch.export archive, against its bytes ---===//
//
// dtypeflow_bench_pt2 [--reps N] ARCHIVE.pt2 ...: for each archive, in one
// run (the minimum of N repetitions, default 30):
//  - json: simdjson parsing the archive's models/model.json alone (already in
//    memory, one parser kept across repetitions): what the bytes cost;
//  - read: api::readProgram, as `dtypeflow check` reads it (zip member, JSON,
//    the graph built from it);
//  - cold: one refinement with nothing kept (refine::Options as `check` runs);
//  - read+cold: both, one after the other, timed together;
// and read+cold / (json + cold): what reading costs beyond the bytes
// (docs/performance.md's .pt2 reading table; the goal is at most 2x).
// Needs no libtorch (built with the core whenever Google Benchmark is found,
// though it uses only its own clock).
//
//===----------------------------------------------------------------------===//
#include "api/program.h"
#include "frontends/pt2/zip_archive.h"
#include "ops/semantics.h"
#include "refine/refine.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace {

using namespace dtf;

/// The least time of `reps` calls of `fn`, in seconds.
template <class Fn> double best(int reps, Fn &&fn) {
  double least = 1e30;
  for (int i = 0; i < reps; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    fn();
    least = std::min(least, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return least;
}

/// The archive's models/model.json member (or its only models/*.json).
std::string modelJson(const std::string &path) {
  std::string error;
  auto zip = pt2::ZipArchive::open(path, error);
  if (!zip) throw std::runtime_error(path + ": " + error);
  for (const std::string &m : zip->names())
    if (m.find("/models/") != std::string::npos && m.ends_with(".json"))
      if (auto text = zip->read(m, error)) return *text;
  throw std::runtime_error(path + ": no models/*.json member");
}

std::string ms(double s) { return s < 1e-3 ? fmt::format("{:.0f} us", s * 1e6) : fmt::format("{:.2f} ms", s * 1e3); }

void benchArchive(const std::string &path, int reps) {
  const api::SemanticsRef sem = api::semantics("2.14");
  const std::string json = modelJson(path);
  simdjson::dom::parser parser;
  const simdjson::padded_string padded(json);
  const double parse = best(reps, [&] {
    auto doc = parser.parse(padded);
    if (doc.error()) throw std::runtime_error(path + ": " + simdjson::error_message(doc.error()));
  });
  api::LoadedProgram p = api::readProgram(path, "", *sem);
  const refine::Options opts = api::refineOptions(p, sem, api::ProgramOptions{{}, {}, "", /*check=*/true});
  const double read = best(reps, [&] { api::readProgram(path, "", *sem); });
  const double cold = best(reps, [&] { refine::refineGraph(*p.graph, opts); });
  const double readCold = best(reps, [&] {
    api::LoadedProgram q = api::readProgram(path, "", *sem);
    refine::refineGraph(*q.graph, api::refineOptions(q, sem, api::ProgramOptions{{}, {}, "", true}));
  });
  fmt::print("| {} | {} | {:.2f} MB | {} | {} | {} | {} | {:.2f}x |\n", std::filesystem::path(path).stem().string(),
             p.graph->nodes.size(), static_cast<double>(json.size()) / 1e6, ms(parse), ms(read), ms(cold),
             ms(readCold), readCold / (parse + cold));
}

} // namespace

int main(int argc, char **argv) {
  if (!std::getenv("TZ")) setenv("TZ", ":/etc/localtime", 0); // as the CLI does (tools/dtypeflow/main.cpp)
  int reps = 30;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--reps" && i + 1 < argc) reps = std::max(1, std::atoi(argv[++i]));
    else if (a == "--help" || a.starts_with("-")) {
      fmt::print("usage: dtypeflow_bench_pt2 [--reps N] ARCHIVE.pt2 ...\n");
      return a == "--help" ? 0 : 2;
    } else files.push_back(a);
  }
  fmt::print("| model | nodes | model.json | json (simdjson) | read | cold | read+cold | read+cold / (json + cold) |\n"
             "|---|---|---|---|---|---|---|---|\n");
  try {
    for (const std::string &f : files) benchArchive(f, reps);
  } catch (const std::exception &e) {
    fmt::print(stderr, "dtypeflow_bench_pt2: {}\n", e.what());
    return 2;
  }
  return 0;
}
