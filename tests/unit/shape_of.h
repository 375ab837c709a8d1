//===- tests/unit/shape_of.h - a result's sizes as text ----------*- C++ -*-===//
#pragma once

#include "run_op.h"

#include <string>

namespace dtf::test {

/// Result `i`'s sizes as text (`[2*s0, 4]`, "?" when not known), or "error".
inline std::string shapeOf(const InferOutcome &o, size_t i = 0) {
  if (o.status != InferOutcome::Status::Ok || o.outputs.size() <= i) return "error";
  return o.outputs[i].shapeStr();
}

} // namespace dtf::test
