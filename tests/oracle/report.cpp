#include "oracle_version.h"
#include "report.h"

#include "ops/registry.h"
#include "refine/refine.h"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>
#include <set>

namespace dtf::oracle {
namespace {

struct Sum : TallyTotals {
  std::string row(const std::string &label) const {
    return fmt::format("| {} | {} | {} | {} | {} | **{}** | **{}** | **{}** | {} | {} |\n", label, ops, cases, agree,
                       unknown, wrong, weReject, torchRejects, kernelGap, valueDep);
  }
};

constexpr const char *kHeader =
    "| | ops | cases | agree | unknown | wrong dtype/rank/size-1 | we reject, torch accepts | torch rejects "
    "(semantic), we accept | CPU kernel gaps | value-dependent |\n|---|---|---|---|---|---|---|---|---|---|\n";

/// The seed's work list (torch-mlir's RefineTypes migration) and ops that
/// stand for each item.
struct SeedItem {
  const char *item;
  std::vector<const char *> ops;
};
const std::vector<SeedItem> kSeedWorkList = {
    {"dtype from first operand", {"aten::relu", "aten::hardtanh", "aten::flatten.using_ints", "aten::view", "aten::max_pool2d"}},
    {"dtype is always float32 (int -> float)", {"aten::sin", "aten::exp", "aten::sqrt", "aten::sigmoid"}},
    {"dtype from second operand", {"aten::ones_like", "aten::type_as", "aten::to.other"}},
    {"dtype is always i1 (bool)", {"aten::eq.Tensor", "aten::lt.Scalar", "aten::isnan", "aten::logical_and"}},
    {"dtype is always si64", {"aten::argmax", "aten::nonzero", "aten::randint.low"}},
    {"promote two dtypes, non-zero rank", {"aten::mul.Tensor", "aten::maximum", "aten::fmod.Tensor"}},
    {"promote two dtypes, possibly zero rank", {"aten::add.Tensor", "aten::sub.Tensor", "aten::div.Tensor"}},
    {"promote three dtypes", {"aten::addcmul", "aten::addcdiv", "aten::lerp.Tensor"}},
    {"promote LHS with scalar RHS", {"aten::add.Scalar", "aten::mul.Scalar", "aten::pow.Tensor_Scalar"}},
    {"promote 2nd and 3rd operands", {"aten::where.self", "aten::where.ScalarOther"}},
    {"2 results take dtype from first operand", {"aten::max.dim", "aten::sort", "aten::topk"}},
    {"3 results take dtype from first operand", {"aten::native_batch_norm", "aten::native_layer_norm"}},
    {"arange", {"aten::arange", "aten::arange.start", "aten::arange.start_step"}},
    {"reductions", {"aten::sum", "aten::sum.dim_IntList", "aten::mean.dim", "aten::prod"}},
    {"scalar to tensor", {"aten::scalar_tensor", "prim::NumToTensor.Scalar", "aten::tensor.float"}},
    {"constant tensor allocation", {"aten::zeros", "aten::ones", "aten::full", "aten::empty.memory_format"}},
    {"type conversion", {"aten::to.dtype", "aten::_to_copy", "aten::to.device"}},
    {"embedding", {"aten::embedding", "aten::_embedding_bag"}},
    {"softmax", {"aten::softmax.int", "aten::log_softmax.int", "aten::_softmax"}},
    {"binary scalar ops", {"aten::add.int", "aten::mul.float", "aten::eq.int"}},
    {"rand ops", {"aten::rand", "aten::randn", "aten::rand_like", "aten::randint.low"}},
    {"var_mean", {"aten::var_mean", "aten::var_mean.correction", "aten::var_mean.dim"}},
    {"misc: atan2, linear, max_pool2d_with_indices, tensor, cat, _shape_as_tensor, ScalarImplicit, NumToTensor",
     {"aten::atan2", "aten::linear", "aten::max_pool2d_with_indices", "aten::tensor", "aten::cat",
      "aten::_shape_as_tensor", "aten::ScalarImplicit", "prim::NumToTensor.Scalar"}},
};

/// Where the meta kernels (FakeTensor's, what torch.export records) differ
/// from the CPU's on the same cases: measured, listed per op.
std::string metaSection(const std::vector<OpTally> &tallies, const Sum &all) {
  std::string out = fmt::format(
      "\n## Meta kernels against CPU kernels (measured, listed)\n\n"
      "Every case also ran on the meta device: {} cases; {} gave another result dtype than the CPU kernel, and in {}\n"
      "the meta kernel raised where the CPU kernel ran (cases where the CPU kernel raises are not compared). Where the\n"
      "meta kernel ran, `--kernels meta` answered another dtype in {} cases (a difference not modelled yet).\n\n",
      all.metaCases, all.metaDtypeDiffers, all.metaRaises, all.metaWrong);
  if (all.metaCases == 0) return out;
  out += "| op | cases | another dtype on meta | meta raises, CPU runs | --kernels meta answers another | first |\n"
         "|---|---|---|---|---|---|\n";
  for (const OpTally &t : tallies) {
    if (!t.metaDtypeDiffers && !t.metaRaises && !t.metaWrong) continue;
    std::string first = t.metaExamples.empty() ? "" : t.metaExamples.front();
    std::replace(first.begin(), first.end(), '\n', ' ');
    std::replace(first.begin(), first.end(), '|', '/');
    out += fmt::format("| `{}` | {} | {} | {} | {} | {} |\n", t.key, t.metaCases, t.metaDtypeDiffers, t.metaRaises,
                       t.metaWrong, first);
  }
  return out;
}

/// The Markdown section of the shape coverage: totals, torch-mlir's shape
/// ops, then each op run whose sizes no case claimed (with its case counts).
std::string shapeSection(const ReportInputs &in) {
  const ShapeCoverage c = measureShapeCoverage(in.tallies, in.shapeTargetOps);
  std::string out = fmt::format(
      "\n## Shape coverage (issue 35)\n\n"
      "A case counts when torch returned tensor results and we answered each one's dtype and rank; it is\n"
      "*claimed* when we gave every size of every tensor result (each checked against torch's shape).\n\n"
      "- Ops run: **{}**; every size claimed in some case: **{}**; tensor results answered but no size claimed\n"
      "  in any case: **{}** (the rest ran no case with an answered tensor result).\n"
      "- Cases with answered tensor results: {}; every size claimed: **{}**.\n"
      "- torch-mlir's shape-function ops: **{} of {}** covered (some case claimed every size, {} of them as\n"
      "  data-dependent symbols checked against torch's sizes); run, no case claimed: {}; a dtype rule but not\n"
      "  in this run: {}; no dtype rule: {}.\n",
      c.ops, c.opsClaimed, c.opsUnclaimed, c.cases, c.casesClaimed, c.targetsCovered, c.targets,
      c.targetsByUnbacked.size(), c.targetsUnclaimed.size(), c.targetsNotRun.size(), c.targetsNoRule.size());
  auto list = [&](const char *what, const std::vector<std::string> &keys) {
    if (!keys.empty()) out += fmt::format("\n{} ({}): {}.\n", what, keys.size(), fmt::join(keys, ", "));
  };
  list("torch-mlir shape ops covered by data-dependent (unbacked) symbols", c.targetsByUnbacked);
  list("torch-mlir shape ops run with no size claimed", c.targetsUnclaimed);
  list("torch-mlir shape ops with no dtype rule", c.targetsNoRule);
  out += "\nOps with a dtype rule whose sizes no case claimed (cases with answered tensor results, claimed):\n\n"
         "| op | family | cases | claimed |\n|---|---|---|---|\n";
  for (const OpTally &t : in.tallies)
    if (t.shapeCases && !t.shapeCasesClaimed && !t.shapeCasesUnbacked)
      out += fmt::format("| `{}` | {} | {} | 0 |\n", t.key, t.family, t.shapeCases);
  return out;
}

} // namespace

ShapeCoverage measureShapeCoverage(const std::vector<OpTally> &tallies, const std::vector<std::string> &targets) {
  ShapeCoverage c;
  std::map<std::string_view, const OpTally *> byKey;
  for (const OpTally &t : tallies) {
    byKey[t.key] = &t;
    ++c.ops;
    c.opsClaimed += t.shapeCasesClaimed > 0;
    c.opsUnclaimed += t.shapeCases > 0 && t.shapeCasesClaimed == 0;
    c.cases += t.shapeCases;
    c.casesClaimed += t.shapeCasesClaimed;
  }
  const Registry &reg = oracleSemantics().registry();
  c.targets = targets.size();
  for (const std::string &k : targets) {
    auto it = byKey.find(k);
    if (it != byKey.end()) {
      if (it->second->shapeCasesClaimed) ++c.targetsCovered;
      else if (it->second->shapeCasesUnbacked) ++c.targetsCovered, c.targetsByUnbacked.push_back(k);
      else c.targetsUnclaimed.push_back(k);
    } else {
      (reg.find(k) ? c.targetsNotRun : c.targetsNoRule).push_back(k);
    }
  }
  return c;
}

std::string shapeCoverageLine(const ShapeCoverage &c) {
  return fmt::format("shape coverage: {} of {} ops run claimed every size in some case ({} of {} cases); "
                     "torch-mlir shape ops: {} of {} covered ({} by unbacked symbols), {} run unclaimed, {} not run, "
                     "{} without a rule",
                     c.opsClaimed, c.ops, c.casesClaimed, c.cases, c.targetsCovered, c.targets, c.targetsByUnbacked.size(),
                     c.targetsUnclaimed.size(), c.targetsNotRun.size(), c.targetsNoRule.size());
}

std::string renderReport(const ReportInputs &in) {
  std::map<std::string, const OpTally *> byKey;
  for (const OpTally &t : in.tallies) byKey[t.key] = &t;
  const Registry &reg = oracleSemantics().registry();

  Sum all;
  std::map<std::string, Sum> families;
  for (const OpTally &t : in.tallies) {
    all.add(t);
    families[t.family].add(t);
  }
  std::string out;
  // The header names the oracle this binary was built against, and how to
  // regenerate this very file (docs/conformance.md for 1.13 on the host,
  // docs/conformance-V.md in the root of a later version V).
  const bool host = kOracleTorch == TorchVersion::V1_13;
  const std::string v(name(kOracleTorch));
  const std::string oracle =
      host ? "Debian libtorch " TORCH_VERSION ", CPU"
           : fmt::format("Debian libtorch {}, CPU, in the root of `scripts/torch-root.sh {}`; `--torch {}` semantics",
                         TORCH_VERSION, v, v);
  const std::string regenerate =
      host ? "build/tests/oracle/dtypeflow_conformance --report docs/conformance.md"
           : fmt::format("scripts/torch-root.sh {0} run build-{0}/tests/oracle/dtypeflow_conformance -q --report "
                         "docs/conformance-{0}.md",
                         v);
  out += host ? "# dtypeflow conformance report\n\n" : fmt::format("# dtypeflow conformance report: PyTorch {}\n\n", v);
  out += fmt::format(
      "Generated by `dtypeflow_conformance` (tests/oracle/), which runs every\n"
      "registered dtype rule against real ATen ({}) over every dtype of each tensor\n"
      "argument at rank 0 and rank >= 1, every Python number kind of each Scalar argument and every dtype\n"
      "(and None) of each dtype argument, every kind of Python number list and pair of tensors for each generic\n"
      "`t[]` list argument, with the samples declared next to each rule. Lists are compared element by\n"
      "element; a Python number result by its kind, and by its value where we claim to know an int or bool.\n"
      "Each tensor operand carries its sample shape, as a traced input would; the sizes and size-1 facts a\n"
      "rule (or its shape rule) claims for a result are checked against the shape torch returns; each case\n"
      "runs again with every size of 2 or more a symbol (`n224`, as torch.export traces a dynamic dim), and\n"
      "the symbolic sizes claimed, evaluated at the case's sizes, are checked the same way.\n"
      "Regenerate with\n"
      "`{}`.\n\n",
      oracle, regenerate);
  out += fmt::format("**{} rules, {} cases, {:.1f} s on {} worker thread(s); size-1 facts checked in {} cases, "
                     "every size of a result in {}, symbolic sizes in {}.** Must-be-zero columns in bold.\n\n",
                     all.ops, all.cases, in.seconds, in.jobs, all.unitFactsChecked, all.shapesChecked, all.symbolicChecked);
  out += fmt::format("CPU kernel gaps: {} cases, {} of them named by the answer as a possible error of kind\n"
                     "`missing-kernel` (a rule's own, or the gaps measured here: data/cpu-kernel-gaps-*.txt, written by\n"
                     "`--kernel-gap-data`); the rest raise for a dtype the call's operands may not have (a gap is named\n"
                     "by the dtype PyTorch's message names, where an operand or a result may have it).\n\n",
                     all.kernelGap, all.kernelGapNamed);
  out += fmt::format("CPU: kind `{}` ({}; torch capability {}). Rules answered as on that kind (`--cpu {}`), and\n"
                     "each answer for any CPU (no `--cpu`) was checked to hold this CPU's, or to say \"may raise\"\n"
                     "where it raises: {} cases depended on the CPU, {} answers for any CPU were contradicted.\n\n",
                     name(in.cpu), describe(in.cpu), torchCapability(in.cpu), name(in.cpu), all.cpuDependent,
                     all.anyCpuContradicted);
  out += "Classes: *agree* = same result dtype(s) and rank(s), or both raise; *unknown* = we answer unknown where\n"
         "torch succeeds; *wrong* = a different dtype, rank or size, a size-1 fact that torch's result shape\n"
         "contradicts, or a rule breaking its own contract (a result count or an argument name its schema lacks,\n"
         "whatever torch does); *we reject* = we predict an error, torch succeeds; *torch rejects (semantic)* = torch\n"
         "raises a dtype error we did not predict, or an overflow converting a number argument that does not fit some dtype\n"
         "(an imaginary part, 300, 1e39, NaN: the rule knows the value, so it must predict it); *CPU kernel gap* = torch's\n"
         "CPU build lacks the kernel (`... not implemented for 'Half'`, a CPU-only internal assert); what\n"
         "depends on the kind of CPU (a oneDNN path: ops/cpu_capability.h) is predicted for this CPU; *value-dependent* = torch raised because of the sample values (non-0/1 mask bytes, a\n"
         "NaN result written into an integer out tensor, a multi-element tensor to a number, a size other than 1 that\n"
         "a rule cannot see: istft's real input whose last dim is not 2).\n\n"
         "Family *out_variant* holds the out overloads (`add.out`, `cat.out`, `max.dim_max`, `tanh_backward.grad_input` ...),\n"
         "each on its functional op's rule and samples, run with every output argument of float32, int64, bool and float64\n"
         "(and, with several, float32 then int64): when an output's dtype is not its result's, the op casts or raises by\n"
         "checks of its own, and the answer is unknown by design (most of that family's unknowns).\n\n";

  std::set<std::string> registered;
  for (const auto &[k, r] : reg.rules()) registered.insert(k);
  size_t targetCovered = 0;
  std::vector<std::string> targetMissing;
  for (const std::string &k : in.targetOps) {
    if (registered.count(k)) ++targetCovered;
    else targetMissing.push_back(k);
  }
  size_t exampleCovered = 0;
  std::vector<std::string> exampleMissing;
  // List mutation (append/insert/extend) is the solver's own transfer, not a dtype rule.
  auto solverOp = [&](const std::string &k) {
    return k.starts_with("prim::") || reg.facts(std::string_view(k).substr(0, k.find('.'))).has(OpFact::GrowsListByElements);
  };
  for (const std::string &k : in.exampleOps) {
    if (registered.count(k) || solverOp(k)) ++exampleCovered;
    else exampleMissing.push_back(k);
  }
  out += "## Coverage\n\n";
  out += fmt::format("- Registered rules: **{}**.\n", registered.size());
  out += fmt::format("- torch-mlir's dtype-function ops present in libtorch {}: **{} of {}** covered.\n",
                     name(kOracleTorch), targetCovered, in.targetOps.size());
  if (!targetMissing.empty())
    out += fmt::format("  Not yet covered: {}.\n", fmt::join(targetMissing, ", "));
  out += fmt::format("- aten ops used by the bundled examples: **{} of {}** covered (list mutation by the solver)", exampleCovered,
                     in.exampleOps.size());
  out += exampleMissing.empty() ? ".\n" : fmt::format(" (missing: {}).\n", fmt::join(exampleMissing, ", "));
  if (in.newOverloads) {
    out += fmt::format("- Overloads new in this version: **{} of {}** have a rule; each one left out, and why:\n\n",
                       in.newOverloads - in.newOverloadsLeftOut.size(), in.newOverloads);
    std::map<std::string, std::vector<std::string>> byReason;
    for (const auto &[k, why] : in.newOverloadsLeftOut) byReason[why].push_back("`" + k + "`");
    for (const auto &[why, keys] : byReason) out += fmt::format("  - {} ({}): {}.\n", why, keys.size(), fmt::join(keys, ", "));
  }
  out += "\n## Totals\n\n";
  out += kHeader;
  out += all.row("**all**");
  out += "\n## By family\n\n";
  out += kHeader;
  for (const auto &[f, s] : families) out += s.row(f);

  out += "\n## The seed's work list\n\n| item | ops | status |\n|---|---|---|\n";
  for (const SeedItem &item : kSeedWorkList) {
    size_t have = 0, clean = 0;
    for (const char *op : item.ops) {
      if (!registered.count(op)) continue;
      ++have;
      auto it = byKey.find(op);
      if (it != byKey.end() && it->second->mustBeZero() == 0 && it->second->configError.empty()) ++clean;
    }
    std::string status = have == item.ops.size() && clean == have ? "done, conformant"
                         : have == 0                              ? "not started"
                                                                  : fmt::format("{}/{} covered, {} conformant", have, item.ops.size(), clean);
    out += fmt::format("| {} | {} | {} |\n", item.item, fmt::join(item.ops, ", "), status);
  }

  out += "\n## By op\n\n*sizes*: cases with every size of every tensor result claimed / cases with answered tensor "
         "results (Shape coverage below).\n\n"
         "| op | family | cases | agree | unknown | wrong | we reject | torch rejects | kernel gaps | sizes | note |\n"
         "|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const OpTally &t : in.tallies) {
    std::string note = !t.configError.empty() ? "config error: " + t.configError
                       : !t.skipReason.empty() ? "not run: " + t.skipReason
                       : t.total > t.cases + t.skipped ? fmt::format("sampled {} of {}", t.cases, t.total)
                                                     : "";
    if (t.skipped) note += fmt::format("{}{} cases not constructible on CPU", note.empty() ? "" : "; ", t.skipped);
    out += fmt::format("| `{}` | {} | {} | {} | {} | {} | {} | {} | {} | {}/{} | {} |\n", t.key, t.family, t.cases, t.agree,
                       t.unknown, t.wrong(), t.weReject, t.torchRejectsSemantic, t.kernelGap, t.shapeCasesClaimed,
                       t.shapeCases, note);
  }
  out += "\n## CPU kernel gaps (allowed, listed; named as a possible error where measured)\n\n";
  for (const OpTally &t : in.tallies)
    for (const std::string &e : t.kernelGapExamples) out += fmt::format("- `{}`: {}\n", t.key, e);
  out += "\n## Value-dependent torch errors (allowed, listed)\n\n";
  for (const OpTally &t : in.tallies)
    for (const std::string &e : t.valueDependentExamples) out += fmt::format("- `{}`: {}\n", t.key, e);
  out += shapeSection(in);
  out += metaSection(in.tallies, all);
  return out;
}

namespace {

/// The comment lines heading a data file the harness writes with `--OPTION` into data/FILE-V.txt:
/// its origin, `what` it holds (comment lines of their own), how to regenerate it, its columns.
std::string dataHeader(std::string_view option, std::string_view file, std::string_view what, std::string_view columns,
                       CpuKind cpu) {
  return fmt::format(
      "# generated by dtypeflow_conformance --{0} (tests/oracle/) from libtorch {1} on CPU kind {2}:\n"
      "{3}"
      "# Regenerate: build/tests/oracle/dtypeflow_conformance -q --{0} data/{4}-1.13.txt\n"
      "# (V = 2.6, 2.14: scripts/torch-root.sh V run build-V/tests/oracle/dtypeflow_conformance -q --{0} ...)\n"
      "# {5}\n",
      option, name(kOracleTorch), name(cpu), what, file, columns);
}

} // namespace

std::string renderMetaData(const std::vector<OpTally> &tallies, CpuKind cpu) {
  std::string out = dataHeader(
      "meta-data", "meta-kernels",
      "# every conformance case of every rule, run on the CPU and on the meta device (FakeTensor's kernels).\n",
      "op cases another_dtype_on_meta meta_raises_cpu_runs kernels_meta_answers_another", cpu);
  for (const OpTally &t : tallies)
    if (t.metaDtypeDiffers || t.metaRaises || t.metaWrong)
      out += fmt::format("{} {} {} {} {}\n", t.key, t.metaCases, t.metaDtypeDiffers, t.metaRaises, t.metaWrong);
  return out;
}

namespace {
/// The roles whose dtype `c10` raises the kernel gap: a fewest set that holds the dtype in every
/// case that raised, taken greedily by how often a role of that dtype raised (nll_loss's `self`
/// always, its int64 `target` only beside an int64 self: self alone; cumsum's result `#0` of bool,
/// not its bool `self`, which sums in int64). Comma-separated (`self`, `#1` the second result);
/// empty when a raising case held it in no role: the gap is then named for any role of that dtype.
std::string gapRolesOf(const OpTally &t, const std::string &c10) {
  auto masks = t.gapRoleMasks.find(c10);
  if (masks == t.gapRoleMasks.end()) return "";
  struct Candidate {
    unsigned role;
    double ratio;
    uint64_t raised;
  };
  std::vector<Candidate> candidates;
  for (const auto &[key, c] : t.gapRoleCases)
    if (key.second == c10 && c[1] > 0 && key.first < 64)
      candidates.push_back({key.first, static_cast<double>(c[1]) / static_cast<double>(c[0]), c[1]});
  std::sort(candidates.begin(), candidates.end(), [](const Candidate &a, const Candidate &b) {
    return a.ratio != b.ratio ? a.ratio > b.ratio : a.raised != b.raised ? a.raised > b.raised : a.role < b.role;
  });
  std::vector<uint64_t> uncovered(masks->second.begin(), masks->second.end());
  if (std::find(uncovered.begin(), uncovered.end(), uint64_t{0}) != uncovered.end()) return "";
  uint64_t chosen = 0;
  for (const Candidate &c : candidates) {
    if (uncovered.empty()) break;
    const uint64_t bit = uint64_t{1} << c.role;
    if (std::none_of(uncovered.begin(), uncovered.end(), [&](uint64_t m) { return m & bit; })) continue;
    chosen |= bit;
    std::erase_if(uncovered, [&](uint64_t m) { return m & bit; });
  }
  if (!uncovered.empty()) return "";
  std::string out;
  for (unsigned r = 0; r < 64; ++r) {
    if (!(chosen >> r & 1)) continue;
    std::string name = r >= OpTally::kResultRole ? fmt::format("#{}", r - OpTally::kResultRole)
                       : r < t.argNames.size()    ? t.argNames[r]
                                                  : "";
    if (name.empty()) return "";
    out += (out.empty() ? "" : ",") + name;
  }
  return out;
}
} // namespace

std::string renderKernelGapData(const std::vector<OpTally> &tallies, CpuKind cpu) {
  std::string out = dataHeader(
      "kernel-gap-data", "cpu-kernel-gaps",
      "# the dtypes whose CPU kernel an op lacks, as PyTorch names them in its conformance cases' errors\n"
      "# (\"abs_cpu\" not implemented for 'Bool'): the op's rule answers the dtype another device computes,\n"
      "# and infer names the gap as a possible error (ops/cpu_kernels.h).\n",
      "op c10_dtype kernel [roles: the arguments (by name) and results (#i) whose dtype raises it]", cpu);
  for (const OpTally &t : tallies)
    for (const auto &[dtype, kernel] : t.kernelGapDtypes) {
      std::string roles = gapRolesOf(t, dtype);
      out += fmt::format("{} {} {}{}{}\n", t.key, dtype, kernel, roles.empty() ? "" : " ", roles);
    }
  return out;
}

} // namespace dtf::oracle
