//===- tests/oracle/report.h - docs/conformance.md ---------------*- C++ -*-===//
#pragma once

#include "conformance.h"
#include "ops/cpu_capability.h"

#include <string>
#include <vector>

namespace dtf::oracle {

struct ReportInputs {
  std::vector<OpTally> tallies;
  std::vector<std::string> targetOps;  ///< coverage floor (present in 1.13)
  std::vector<std::string> exampleOps; ///< ops used by examples/*.ir
  double seconds = 0;
  int jobs = 1;
  /// Overloads new in this version (--new-overloads): how many, and each one
  /// without a rule with the reason (from libtorch's dispatcher).
  size_t newOverloads = 0;
  std::vector<std::pair<std::string, std::string>> newOverloadsLeftOut;
  /// The kind of CPU the cases ran on, which rules answered for (--cpu).
  CpuKind cpu = CpuKind::Default;
  /// torch-mlir's shape-function ops (--shape-targets): the shape coverage floor.
  std::vector<std::string> shapeTargetOps;
};

/// Shape coverage measured by a run (issue 35): per op, whether some case
/// that ran with tensor results had every size of every one claimed; and
/// torch-mlir's shape-function ops against that.
struct ShapeCoverage {
  size_t ops = 0;           ///< ops run
  size_t opsClaimed = 0;    ///< ... with every size claimed in some case
  size_t opsUnclaimed = 0;  ///< ... with tensor results answered, sizes claimed in no case
  size_t cases = 0, casesClaimed = 0; ///< cases with answered tensor results; all sizes claimed
  size_t targets = 0, targetsCovered = 0;
  /// Of the covered, those whose cases claim data-dependent sizes as
  /// unbacked symbols (checked against torch's sizes), not ints.
  std::vector<std::string> targetsByUnbacked;
  std::vector<std::string> targetsUnclaimed; ///< run, no case claimed every size
  std::vector<std::string> targetsNotRun;    ///< a rule, but outside this run (--op/--family)
  std::vector<std::string> targetsNoRule;    ///< no dtype rule registered
};
ShapeCoverage measureShapeCoverage(const std::vector<OpTally> &tallies, const std::vector<std::string> &targets);
/// The one-line summary the harness prints.
std::string shapeCoverageLine(const ShapeCoverage &c);

/// The Markdown conformance report.
std::string renderReport(const ReportInputs &in);

/// The meta-kernel measurements as data (data/meta-kernels-VERSION.txt, which
/// `dtypeflow versions` lists): one line per op where the meta kernel differs.
std::string renderMetaData(const std::vector<OpTally> &tallies, CpuKind cpu);
/// data/cpu-kernel-gaps-VERSION.txt: `op c10_dtype kernel` per dtype whose CPU kernel an op lacks.
std::string renderKernelGapData(const std::vector<OpTally> &tallies, CpuKind cpu);

} // namespace dtf::oracle
