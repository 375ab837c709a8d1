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
};

/// The Markdown conformance report.
std::string renderReport(const ReportInputs &in);

/// The meta-kernel measurements as data (data/meta-kernels-VERSION.txt, which
/// `dtypeflow versions` lists): one line per op where the meta kernel differs.
std::string renderMetaData(const std::vector<OpTally> &tallies, CpuKind cpu);

} // namespace dtf::oracle
