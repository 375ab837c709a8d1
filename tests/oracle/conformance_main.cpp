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
#include <ATen/core/dispatch/Dispatcher.h>
#include <CLI/CLI.hpp>
#include <dlfcn.h>
#include <atomic>
#include <chrono>
#include <fmt/format.h>
#include <fstream>
#include <mutex>
#include <thread>
#include <sstream>
#include <map>
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
    if (stripMarked && line.find("(not in libtorch ") != std::string::npos) continue;
    ops.push_back(line.substr(0, line.find(' ')));
  }
  return ops;
}

/// Disagreements known and accepted for now (--known FILE): per op key, at
/// most this many we-reject and torch-rejects cases. Never a wrong answer:
/// a rule that answers wrong is scoped away from the version instead.
struct Known {
  uint64_t weReject = 0, torchRejects = 0;
  bool configError = false;
};

std::map<std::string, Known, std::less<>> readKnown(const std::string &path) {
  std::map<std::string, Known, std::less<>> known;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("--known " + path + ": cannot read");
  std::string line;
  for (size_t n = 1; std::getline(in, line); ++n) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::string key, what;
    Known k;
    words >> key >> what;
    if (what == "config") k.configError = true;
    else if (!(std::istringstream(what) >> k.weReject) || !(words >> k.torchRejects))
      throw std::runtime_error(fmt::format("{}:{}: expected 'KEY WE_REJECT TORCH_REJECTS' or 'KEY config'", path, n));
    known[key] = k;
  }
  return known;
}

/// Why an overload has no rule, from libtorch's dispatcher: no CPU, meta or
/// composite kernel (a CUDA/MPS/XPU or sparse/nested backend op: nothing to
/// check on CPU), or a kernel that runs here and a rule still to write.
std::string whyNoRule(const std::string &key) {
  const size_t dot = key.find('.');
  c10::OperatorName name(key.substr(0, dot), dot == std::string::npos ? "" : key.substr(dot + 1));
  auto op = c10::Dispatcher::singleton().findOp(name);
  if (!op) return "not in libtorch's dispatcher (registered from Python or a JIT-only op)";
  using K = c10::DispatchKey;
  for (K k : {K::CPU, K::Meta, K::CompositeImplicitAutograd, K::CompositeExplicitAutograd,
              K::CompositeExplicitAutogradNonFunctional})
    if (op->hasKernelForDispatchKey(k)) return fmt::format("has a {} kernel: no rule yet", c10::toString(k));
  return "no CPU, meta or composite kernel (another device's or backend's op): nothing runs on CPU";
}

} // namespace

int main(int argc, char **argv) {
  CLI::App app{"dtypeflow_conformance: check every dtype rule against real ATen (libtorch " TORCH_VERSION ")"};
  std::vector<std::string> ops;
  std::string family, reportPath;
  const std::string targetDir = std::string(DTF_SOURCE_DIR) + "/../shared/targets/";
  // Report-only lists: torch-mlir's ops (2.14's list, else 1.13's: there is none
  // for 2.6), and the overloads new in 2.14.
  const bool v214 = kOracleTorch == TorchVersion::V2_14;
  std::string targets = targetDir + (v214 ? "torch-mlir-dtype-ops-2.14.txt" : "torch-mlir-dtype-ops.txt");
  // Shape coverage floor: torch-mlir's shape-function ops (only a 2.14 list exists).
  std::string shapeTargets = targetDir + "torch-mlir-shape-ops-2.14.txt";
  std::string newOverloads = v214 ? targetDir + "aten-overloads-new-in-2.14.txt" : "";
  std::string exampleOps = std::string(DTF_SOURCE_DIR) + "/examples/ops_used.txt";
  bool verbose = false, quiet = false;
  int jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  RunOptions opts;
  app.add_option("--op", ops, "only this overload key (repeatable)");
  app.add_option("--family", family, "only rules whose family starts with this");
  app.add_option("--report", reportPath, "write the Markdown report here (e.g. docs/conformance.md)");
  std::string metaDataPath, gapDataPath;
  app.add_option("--kernel-gap-data", gapDataPath,
                 "write the dtypes each op's CPU kernel lacks, as data (data/cpu-kernel-gaps-VERSION.txt)");
  app.add_option("--meta-data", metaDataPath,
                 "write where the meta kernels differ from the CPU's, as data (data/meta-kernels-VERSION.txt)");
  app.add_option("--targets", targets, "coverage floor list (torch-mlir ops)");
  app.add_option("--shape-targets", shapeTargets, "shape coverage floor list (torch-mlir's shape-function ops)");
  app.add_option("--example-ops", exampleOps, "ops used by the bundled examples");
  app.add_option("--new-overloads", newOverloads, "overloads new in this version: the report gives each one left out and why");
  app.add_option("--jobs,-j", jobs, "worker threads")->check(CLI::Range(1, 64));
  app.add_option("--max-cases", opts.maxCasesPerVariant, "cap per sample variant; larger spaces are strided");
  app.add_option("--examples", opts.examplesPerOp, "disagreements shown per op with -v (default 5)");
  app.add_flag("--verbose,-v", verbose, "print every op, with its first disagreements");
  app.add_flag("--quiet,-q", quiet, "print only failures and the summary");
  std::vector<std::string> ruleFiles, libraries;
  app.add_option("--rules", ruleFiles, "check the rules of this rule file instead (repeatable)");
  app.add_option("--load-library", libraries, "load this library first: it registers custom ops (repeatable)");
  std::string cpuText = "host";
  app.add_option("--cpu", cpuText,
                 fmt::format("answer as on this kind of CPU ({}, or host: this machine's); every answer for any "
                             "CPU is also checked against it", cpuKindNames()));
  app.add_flag("--meta,!--no-meta", opts.meta,
               "also run every case on the meta device (FakeTensor's kernels) and report where its dtype or "
               "outcome differs from the CPU's (default: on)");
  opts.meta = true;
  std::string knownPath;
  app.add_option("--known", knownPath,
                 "disagreements accepted for now (KEY WE_REJECT TORCH_REJECTS per line, or KEY config):\n"
                 "the run fails only on a wrong answer or on more disagreements than listed");
  // --autocast: the ops of the version's CPU autocast list only, inside the context.
  std::string autocastSpec;
  app.add_option("--autocast", autocastSpec,
                 "run the rules of the CPU autocast list's ops inside autocast, e.g. cpu:bfloat16 (both sides)");
  CLI11_PARSE(app, argc, argv);
  opts.gapRoles = !gapDataPath.empty(); // which roles raise each kernel gap, for the data file
  if (!autocastSpec.empty()) {
    std::string error;
    opts.autocast = AutocastContext::parse(autocastSpec, kOracleTorch, error);
    if (opts.autocast && opts.autocast->device != AutocastDevice::CPU) error = "--autocast: CPU only (no GPU here)";
    if (!error.empty()) { fmt::print(stderr, "{}\n", error); return 2; }
    opts.reproOptions += "--autocast " + autocastSpec + " ";
  }
  std::map<std::string, Known, std::less<>> known;
  try {
    if (!knownPath.empty()) known = readKnown(knownPath);
  } catch (const std::exception &e) {
    fmt::print(stderr, "{}\n", e.what());
    return 2;
  }

  std::optional<CpuKind> cpu = cpuText == "host" ? std::optional(hostCpuKind()) : parseCpuKind(cpuText);
  if (!cpu) {
    fmt::print(stderr, "--cpu {}: not a kind of CPU ({}, host)\n", cpuText, cpuKindNames());
    return 2;
  }
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
  const std::shared_ptr<const Semantics> base = withRules ? withRules : oracleSemantics().shared_from_this();
  const Registry &reg = base->registry();
  // Rules answer as on this CPU (ops/cpu_capability.h); their answers for
  // any CPU are checked against those.
  std::shared_ptr<const Semantics> onThisCpu = Semantics::inContext(base, ExecContext{cpu});
  opts.anyCpuRegistry = &reg;
  opts.registry = &onThisCpu->registry();
  const ExecContext onMeta{cpu, Kernels::Meta};
  std::shared_ptr<const Semantics> metaKernels = Semantics::inContext(base, onMeta);
  opts.metaRegistry = &metaKernels->registry();
  opts.reproOptions += fmt::format("--cpu {} ", name(*cpu));
  if (!quiet)
    fmt::print(stderr, "conformance: PyTorch {}, CPU kind {} (torch capability {}: {})\n", name(kOracleTorch),
               name(*cpu), torchCapability(*cpu), describe(*cpu));
  std::vector<const OpRule *> selected;
  for (const auto &[key, rule] : reg.rules()) {
    if (!ops.empty() && std::find(ops.begin(), ops.end(), key) == ops.end()) continue;
    if (!rule.family.starts_with(family)) continue;
    if (opts.autocast && !autocastPolicy(kOracleTorch, opts.autocast->device, key)) continue;
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
                   "kernel-gap {}  value-dependent {}  size-1 facts checked {}  sizes checked {} (symbolic {}){}\n",
                   t.key, t.cases, t.agree, t.unknown, t.wrong(), t.weReject,
                   t.torchRejectsSemantic, t.kernelGap, t.valueDependent, t.unitFactsChecked, t.shapesChecked,
                   t.symbolicChecked,
                   t.configError.empty() ? "" : "  CONFIG: " + t.configError);
        for (const std::string &e : t.examples) fmt::print("    {}\n", e);
        if (verbose)
          for (const std::string &e : t.metaExamples) fmt::print("    {}\n", e);
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
             "{} torch-rejects (semantic), {} CPU kernel gaps ({} named as a possible error), {} value-dependent, {} config errors; "
             "size-1 facts checked in {} cases, every size of a result in {}, symbolic sizes evaluated in {}; CPU kind {}: {} cases CPU-dependent, {} any-CPU answers contradicted; "
             "meta kernels: {} cases, {} with another result dtype, {} raise where the CPU runs, {} where --kernels "
             "meta answers another dtype\n",
             selected.size(), sum.cases, seconds, sum.agree, sum.unknown, sum.wrong, sum.weReject, sum.torchRejects,
             sum.kernelGap, sum.kernelGapNamed, sum.valueDep, sum.configErrors, sum.unitFactsChecked, sum.shapesChecked, sum.symbolicChecked,
             name(*cpu), sum.cpuDependent,
             sum.anyCpuContradicted, sum.metaCases, sum.metaDtypeDiffers, sum.metaRaises, sum.metaWrong);

  const std::vector<std::string> shapeTargetOps = readOpList(shapeTargets, true);
  fmt::print("{}\n", shapeCoverageLine(measureShapeCoverage(tallies, shapeTargetOps)));
  if (!reportPath.empty()) {
    ReportInputs in{tallies, readOpList(targets, true), readOpList(exampleOps, false), seconds, jobs};
    in.cpu = *cpu;
    in.shapeTargetOps = shapeTargetOps;
    if (!newOverloads.empty()) {
      const std::vector<std::string> keys = readOpList(newOverloads, false);
      in.newOverloads = keys.size();
      for (const std::string &k : keys)
        if (!oracleSemantics().registry().find(k)) in.newOverloadsLeftOut.emplace_back(k, whyNoRule(k));
    }
    std::ofstream(reportPath) << renderReport(in);
    fmt::print("report written to {}\n", reportPath);
  }
  if (!metaDataPath.empty()) {
    if (!opts.meta) fmt::print(stderr, "--meta-data needs the meta runs (drop --no-meta)\n");
    else std::ofstream(metaDataPath) << renderMetaData(tallies, *cpu);
  }
  if (!gapDataPath.empty()) std::ofstream(gapDataPath) << renderKernelGapData(tallies, *cpu);
  if (knownPath.empty()) {
    bool fail = sum.wrong || sum.weReject || sum.torchRejects || sum.configErrors || sum.anyCpuContradicted;
    return fail ? 1 : 0;
  }
  // With --known: a wrong answer always fails; other disagreements fail where
  // they exceed the list (a new one, or more of a known kind).
  size_t beyond = 0, knownOps = 0;
  for (const OpTally &t : tallies) {
    auto it = known.find(t.key);
    const Known k = it == known.end() ? Known{} : it->second;
    const bool over = t.wrong() || t.anyCpuContradicted || t.weReject > k.weReject || t.torchRejectsSemantic > k.torchRejects ||
                      (!t.configError.empty() && !k.configError);
    if (over) {
      ++beyond;
      fmt::print("NOT KNOWN: {}: wrong {}, we-reject {} (known {}), torch-rejects {} (known {}){}\n", t.key, t.wrong(),
                 t.weReject, k.weReject, t.torchRejectsSemantic, k.torchRejects,
                 t.configError.empty() ? "" : ", config error: " + t.configError);
    } else if (it != known.end()) {
      ++knownOps;
    }
  }
  fmt::print("known disagreements ({}): {} ops within their listed counts; {} beyond\n", knownPath, knownOps, beyond);
  return beyond ? 1 : 0;
}
