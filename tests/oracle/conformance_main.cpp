//===- tests/oracle/conformance_main.cpp - the conformance harness CLI ----===//
//
// Runs every registered rule (or those selected) against libtorch and prints
// per-op tallies; exits non-zero when any must-be-zero class is non-zero or a
// rule's samples are broken. `--report` writes docs/conformance.md.
// `--rules FILE --load-library LIB.so` checks the rules of a rule file
// (docs/custom-ops.md) instead, against the custom ops LIB registers.
//
//===----------------------------------------------------------------------===//
#include "oracle_version.h"
#include "conformance.h"
#include "report.h"
#include "torch_runner.h"

#include "ops/custom_rules.h"

#include <ATen/Parallel.h>
#include <CLI/CLI.hpp>
#include <dlfcn.h>
#include <atomic>
#include <chrono>
#include <fmt/format.h>
#include <fstream>
#include <mutex>
#include <thread>
#include <torch/version.h>

using namespace dtf;
using namespace dtf::oracle;

namespace {

std::vector<std::string> readOpList(const std::string &path, bool stripMarked) {
  std::vector<std::string> ops;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (stripMarked && line.find("(not in libtorch 1.13)") != std::string::npos) continue;
    ops.push_back(line.substr(0, line.find(' ')));
  }
  return ops;
}

} // namespace

int main(int argc, char **argv) {
  CLI::App app{"dtypeflow_conformance: check every dtype rule against real ATen (libtorch " TORCH_VERSION ")"};
  std::vector<std::string> ops;
  std::string family, reportPath;
  std::string targets = std::string(DTF_SOURCE_DIR) + "/../shared/targets/torch-mlir-dtype-ops.txt";
  std::string exampleOps = std::string(DTF_SOURCE_DIR) + "/examples/ops_used.txt";
  bool verbose = false, quiet = false;
  int jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  RunOptions opts;
  app.add_option("--op", ops, "only this overload key (repeatable)");
  app.add_option("--family", family, "only rules whose family starts with this");
  app.add_option("--report", reportPath, "write the Markdown report here (e.g. docs/conformance.md)");
  app.add_option("--targets", targets, "coverage floor list (torch-mlir ops)");
  app.add_option("--example-ops", exampleOps, "ops used by the bundled examples");
  app.add_option("--jobs,-j", jobs, "worker threads")->check(CLI::Range(1, 64));
  app.add_option("--max-cases", opts.maxCasesPerVariant, "cap per sample variant; larger spaces are strided");
  app.add_flag("--verbose,-v", verbose, "print every op, with its first disagreements");
  app.add_flag("--quiet,-q", quiet, "print only failures and the summary");
  std::vector<std::string> ruleFiles, libraries;
  app.add_option("--rules", ruleFiles, "check the rules of this rule file instead (repeatable)");
  app.add_option("--load-library", libraries, "load this library first: it registers custom ops (repeatable)");
  CLI11_PARSE(app, argc, argv);

  disableTorchBacktraces();
  at::set_num_threads(1);
  for (const std::string &lib : libraries) // kept loaded: TORCH_LIBRARY registers at load
    if (!dlopen(lib.c_str(), RTLD_NOW | RTLD_GLOBAL)) {
      fmt::print(stderr, "--load-library {}: {}\n", lib, dlerror());
      return 2;
    }
  std::shared_ptr<const Semantics> withRules;
  if (!ruleFiles.empty()) {
    RuleSet rules;
    std::vector<RuleSetError> errors;
    for (const std::string &f : ruleFiles)
      for (RuleSetError &e : rules.addFile(f)) errors.push_back(std::move(e));
    if (errors.empty()) {
      ExtendedSemantics ext = Semantics::extend(kOracleTorch, rules);
      errors = std::move(ext.errors);
      withRules = std::move(ext.semantics);
    }
    for (const RuleSetError &e : errors) fmt::print(stderr, "{}\n", e.str());
    if (!errors.empty()) return 2;
    opts.registry = &withRules->registry();
    for (const std::string &f : ruleFiles) opts.reproOptions += "--rules " + f + " ";
  }
  // With --rules, the rule files' rules only (the layer over the built-in ones).
  const Registry &reg = withRules ? withRules->registry() : oracleSemantics().registry();
  std::vector<const OpRule *> selected;
  for (const auto &[key, rule] : reg.rules()) {
    if (!ops.empty() && std::find(ops.begin(), ops.end(), key) == ops.end()) continue;
    if (!rule.family.starts_with(family)) continue;
    selected.push_back(&rule);
  }
  for (const std::string &k : ops)
    if (!reg.find(k)) { fmt::print(stderr, "no rule registered for {}\n", k); return 2; }

  auto t0 = std::chrono::steady_clock::now();
  std::vector<OpTally> tallies(selected.size());
  std::atomic<size_t> next{0}, done{0};
  std::mutex printMutex;
  auto worker = [&] {
    for (size_t i; (i = next++) < selected.size();) {
      tallies[i] = runRule(*selected[i], opts);
      size_t d = ++done;
      const OpTally &t = tallies[i];
      bool bad = t.mustBeZero() || !t.configError.empty();
      std::lock_guard lock(printMutex);
      if (verbose || bad) {
        fmt::print("{:<44} {:>6} cases  agree {:>6}  unknown {:>5}  wrong {}  we-reject {}  torch-rejects {}  "
                   "kernel-gap {}  value-dependent {}  size-1 facts checked {}{}\n",
                   t.key, t.cases, t.agree, t.unknown, t.wrong(), t.weReject,
                   t.torchRejectsSemantic, t.kernelGap, t.valueDependent, t.unitFactsChecked,
                   t.configError.empty() ? "" : "  CONFIG: " + t.configError);
        for (const std::string &e : t.examples) fmt::print("    {}\n", e);
      } else if (!quiet && (d % 50 == 0 || d == selected.size())) {
        fmt::print(stderr, "[{}/{}] rules checked\n", d, selected.size());
      }
    }
  };
  std::vector<std::thread> pool;
  for (int j = 0; j < jobs; ++j) pool.emplace_back(worker);
  for (auto &th : pool) th.join();
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  TallyTotals sum;
  for (const OpTally &t : tallies) sum.add(t);
  fmt::print("conformance: {} rules, {} cases in {:.1f} s: {} agree, {} unknown, {} wrong, {} we-reject, "
             "{} torch-rejects (semantic), {} CPU kernel gaps, {} value-dependent, {} config errors; "
             "size-1 facts checked in {} cases\n",
             selected.size(), sum.cases, seconds, sum.agree, sum.unknown, sum.wrong, sum.weReject, sum.torchRejects,
             sum.kernelGap, sum.valueDep, sum.configErrors, sum.unitFactsChecked);

  if (!reportPath.empty()) {
    ReportInputs in{tallies, readOpList(targets, true), readOpList(exampleOps, false), seconds, jobs};
    std::ofstream(reportPath) << renderReport(in);
    fmt::print("report written to {}\n", reportPath);
  }
  bool fail = sum.wrong || sum.weReject || sum.torchRejects || sum.configErrors;
  return fail ? 1 : 0;
}
