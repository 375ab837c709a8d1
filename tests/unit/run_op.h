//===- tests/unit/run_op.h - call one rule from a test -----------*- C++ -*-===//
#pragma once

#include "ops/infer.h"
#include "ops/notation.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace dtf::test {

/// Run the rule for `key` with named arguments written in the CLI notation
/// (omitted arguments take their schema defaults), as `infer-op` does.
inline InferOutcome run(const std::string &key, const std::vector<std::pair<std::string, std::string>> &named) {
  const Schema *s = SchemaTable::builtin().find(key);
  EXPECT_NE(s, nullptr) << key;
  if (!s) return {};
  std::vector<std::pair<std::string, Value>> args;
  for (const auto &[n, text] : named) {
    int i = s->argIndex(n);
    EXPECT_GE(i, 0) << key << " has no argument " << n;
    if (i < 0) return {};
    auto v = parseNotation(text, s->args[i].type.get());
    EXPECT_TRUE(v.value.has_value()) << text << ": " << v.error;
    if (!v.value) return {};
    args.emplace_back(n, *v.value);
  }
  BindResult b = bindArguments(*s, {}, args);
  EXPECT_TRUE(b.ok()) << b.error;
  return infer(Registry::builtin(), *s, b.args);
}

} // namespace dtf::test
