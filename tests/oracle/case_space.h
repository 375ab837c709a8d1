//===- tests/oracle/case_space.h - the cases the harness runs per rule -*- C++ -*-===//
//
// Turns a rule's schema and its SampleSpec into the list of argument axes to
// enumerate. Each alternative carries both sides of the comparison: the
// abstract Value dtypeflow sees and a recipe for the real libtorch IValue.
//
// Generic lists (`t[]`, `Any[]`) take, besides registry.h's notation:
// `sweep` (the default) = a list of each Python number kind, flat and nested
// one level, and every pair of swept tensors; a number list literal
// (`[2,3]`, `[[1j],[2j]]`, typed like TorchScript: List[List[complex]]); or
// a tensor list spec (`[sweep]`, `[int64[2],sweep]`).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ops/registry.h"

#include <ATen/core/ivalue.h>
#include <ATen/core/function_schema.h>

#include <functional>
#include <string>
#include <vector>

namespace dtf::oracle {

/// One possible value of one argument.
struct Alternative {
  Value ours;
  std::function<c10::IValue()> make; ///< builds the real argument (fresh each call)
  std::string notation;              ///< infer-op notation, for repro commands
  std::string python;                ///< Python expression, for repro commands
};

struct Axis {
  std::string argName;
  std::vector<Alternative> alternatives;
};

struct CaseSpace {
  std::vector<Axis> axes; ///< one per schema argument, in order
  std::string error;      ///< non-empty: cannot build (missing sample ...)
  size_t size() const;
};

/// Build the case space for a rule, with `overrides` (a variant) applied on
/// top of the rule's main samples.
CaseSpace buildCaseSpace(const OpRule &rule, const c10::FunctionSchema &torchSchema,
                         const std::map<std::string, std::string, std::less<>> &overrides);

} // namespace dtf::oracle
