//===- tests/oracle/conformance.h - compare rules with libtorch -*- C++ -*-===//
#pragma once

#include "ops/autocast.h"
#include "ops/registry.h"

#include <array>
#include <cstdint>
#include <set>
#include <map>
#include <string>
#include <vector>

namespace dtf::oracle {

/// Per-op tallies. The three must-be-zero classes are wrong (a dtype, a
/// rank or a claimed size-1 fact torch's result contradicts), weReject and
/// torchRejectsSemantic.
struct OpTally {
  std::string key, family;
  uint64_t cases = 0, agree = 0, agreeError = 0, unknown = 0;
  uint64_t wrongDtype = 0, wrongRank = 0, wrongUnitDims = 0, wrongShape = 0, weReject = 0, torchRejectsSemantic = 0, kernelGap = 0;
  uint64_t unitFactsChecked = 0; ///< cases whose results claimed size-1 facts (all checked)
  uint64_t shapesChecked = 0;    ///< cases whose results claimed every size of a tensor (all checked)
  uint64_t symbolicChecked = 0;  ///< cases whose symbolic twin (sizes as symbols) claimed a symbolic size (all evaluated)
  /// Shape coverage: cases that ran with tensor results we answered (dtype
  /// and rank known, not wrong), and those where we claimed every size of
  /// every tensor result.
  uint64_t shapeCases = 0, shapeCasesClaimed = 0;
  /// Of the cases not claimed so: every size claimed as an int or as a
  /// data-dependent (unbacked) symbol whose range held torch's size
  /// (nonzero's [u0, 2]): all a static answer can say there.
  uint64_t shapeCasesUnbacked = 0;
  uint64_t valueDependent = 0; ///< torch raised because of the sample values, not the dtypes
  uint64_t skipped = 0;   ///< cases the harness could not build in libtorch
  /// Cases whose answer for any CPU (no --cpu) is "may raise, CPU-dependent"
  /// where this CPU's answer decides; and cases where the any-CPU answer is
  /// not a sound abstraction of this CPU's (a defect: must be 0).
  uint64_t cpuDependent = 0, anyCpuContradicted = 0;
  /// The same cases on the meta device (what FakeTensor and torch.export
  /// run), where both ran: a result dtype other than the CPU's; and where
  /// the CPU kernel ran and the meta kernel raised. Measured, not judged.
  uint64_t metaCases = 0, metaDtypeDiffers = 0, metaRaises = 0;
  /// Where the meta kernel ran: dtypeflow's answer with meta kernels
  /// (--kernels meta) names another dtype (a meta difference not modelled).
  uint64_t metaWrong = 0;
  std::vector<std::string> metaExamples;
  uint64_t total = 0;     ///< size of the full case space (before sampling)
  std::string configError; ///< samples missing or invalid, or no libtorch operator
  std::string skipReason;
  std::vector<std::string> examples; ///< first disagreements, with repro commands
  std::vector<std::string> kernelGapExamples;
  uint64_t kernelGapNamed = 0; ///< kernel gaps our answer names as a possible error (missing-kernel)
  /// The dtypes PyTorch's "not implemented for 'X'" named in kernel gaps (c10 names: Bool,
  /// Half ...), each with the kernel it named (`"abs_cpu"`): data/cpu-kernel-gaps-VERSION.txt.
  std::map<std::string, std::string> kernelGapDtypes;
  /// Which roles (argument by schema position, result `kResultRole + i`) trigger a kernel gap: per
  /// (role, c10 dtype) the cases torch ran or raised a kernel gap in where the role had that dtype,
  /// and those raising the gap for it; per gap dtype, the distinct sets (bitmasks) of roles holding
  /// it in a case that raised. The data's fourth column names a fewest set of roles covering every
  /// case that raised, the roles that raised most often first (gapRolesOf, report.cpp).
  static constexpr unsigned kResultRole = 32;
  std::map<std::pair<unsigned, std::string>, std::array<uint64_t, 2>> gapRoleCases;
  std::map<std::string, std::set<uint64_t>> gapRoleMasks;
  std::vector<std::string> argNames; ///< the schema's argument names (roles 0..n-1)
  std::vector<std::string> valueDependentExamples;
  double seconds = 0;

  uint64_t wrong() const { return wrongDtype + wrongRank + wrongUnitDims + wrongShape; }
  uint64_t mustBeZero() const { return wrong() + weReject + torchRejectsSemantic + anyCpuContradicted; }
};

/// Sums of OpTally over many ops (the run summary and the report's rows).
struct TallyTotals {
  uint64_t ops = 0, cases = 0, agree = 0, unknown = 0, wrong = 0, weReject = 0, torchRejects = 0,
           kernelGap = 0, valueDep = 0, skipped = 0, configErrors = 0, unitFactsChecked = 0, shapesChecked = 0, symbolicChecked = 0, cpuDependent = 0,
           anyCpuContradicted = 0, kernelGapNamed = 0, metaCases = 0, metaDtypeDiffers = 0, metaRaises = 0, metaWrong = 0;
  void add(const OpTally &t) {
    ++ops;
    cases += t.cases;
    agree += t.agree;
    unknown += t.unknown;
    wrong += t.wrong();
    weReject += t.weReject;
    torchRejects += t.torchRejectsSemantic;
    kernelGap += t.kernelGap;
    kernelGapNamed += t.kernelGapNamed;
    valueDep += t.valueDependent;
    skipped += t.skipped;
    configErrors += !t.configError.empty();
    unitFactsChecked += t.unitFactsChecked;
    shapesChecked += t.shapesChecked;
    symbolicChecked += t.symbolicChecked;
    cpuDependent += t.cpuDependent;
    anyCpuContradicted += t.anyCpuContradicted;
    metaCases += t.metaCases;
    metaDtypeDiffers += t.metaDtypeDiffers;
    metaRaises += t.metaRaises;
    metaWrong += t.metaWrong;
  }
};

struct RunOptions {
  size_t maxCasesPerVariant = 60000; ///< larger spaces are sampled with a fixed stride
  size_t examplesPerOp = 5;
  /// The registry the rules run from (user rules: a layer over the oracle's
  /// registry); null: the oracle version's built-in one.
  const Registry *registry = nullptr;
  /// The same rules for any CPU (no --cpu): each of its answers must hold
  /// this CPU's (`registry`'s), or say "may raise" where this CPU raises.
  /// Null: not checked.
  const Registry *anyCpuRegistry = nullptr;
  /// Also run every case on the meta device and count where it differs.
  bool meta = false;
  /// The rules with meta kernels (--kernels meta), checked against the meta
  /// device's outcomes; null: `registry`'s answers are.
  const Registry *metaRegistry = nullptr;
  /// Options the repro commands need (`--rules FILE `).
  std::string reproOptions;
  /// Run both sides inside this autocast context (libtorch: at::autocast on the
  /// worker thread; dtypeflow: inferUnderAutocast). CPU only.
  std::optional<AutocastContext> autocast;
  /// Count which roles trigger each kernel gap (OpTally::gapRoleCases), for --kernel-gap-data.
  bool gapRoles = false;
};

/// Run every case of one rule.
OpTally runRule(const OpRule &rule, const RunOptions &opts);

} // namespace dtf::oracle
