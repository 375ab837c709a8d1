//===- tests/unit/run_op.h - call one rule from a test -----------*- C++ -*-===//
#pragma once

#include "ops/semantics.h"
#include "ops/infer.h"
#include "ops/notation.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace dtf::test {

/// A call of `key` under `sem`: its schema and its arguments bound (omitted
/// ones take their schema defaults), read from named arguments in the CLI
/// notation as `infer-op` reads them; nullopt after a failed expectation.
/// (`checkNames`: dtype names the version lacks are refused, as infer-op does.)
struct BoundCall {
  const Schema *schema;
  std::vector<Value> args;
};
inline std::optional<BoundCall> bindIn(const Semantics &sem, const std::string &key,
                                       const std::vector<std::pair<std::string, std::string>> &named,
                                       bool checkNames = true) {
  const Schema *s = sem.schemas().find(key);
  EXPECT_NE(s, nullptr) << key;
  if (!s) return std::nullopt;
  std::vector<std::pair<std::string, Value>> args;
  for (const auto &[n, text] : named) {
    int i = s->argIndex(n);
    EXPECT_GE(i, 0) << key << " has no argument " << n;
    if (i < 0) return std::nullopt;
    auto v = parseNotation(text, s->args[i].type.get(), checkNames ? &sem.types() : nullptr);
    EXPECT_TRUE(v.value.has_value()) << text << ": " << v.error;
    if (!v.value) return std::nullopt;
    args.emplace_back(n, *v.value);
  }
  BindResult b = bindArguments(*s, {}, args);
  EXPECT_TRUE(b.ok()) << b.error;
  if (!b.ok()) return std::nullopt;
  return BoundCall{s, std::move(b.args)};
}

/// Run the rule for `key` under `sem` (bindIn's arguments), as `infer-op` does.
inline InferOutcome runIn(const Semantics &sem, const std::string &key,
                          const std::vector<std::pair<std::string, std::string>> &named, bool checkNames = true) {
  std::optional<BoundCall> c = bindIn(sem, key, named, checkNames);
  if (!c) return InferOutcome{};
  InferOutcome o = infer(sem.registry(), *c->schema, c->args);
  nameUnbackedInCall(o, c->args); // data-dependent sizes named u0, u1 ... as infer-op names them
  return o;
}

/// The same under PyTorch 1.13 (where these tests' expectations were measured).
inline InferOutcome run(const std::string &key, const std::vector<std::pair<std::string, std::string>> &named) {
  return runIn(Semantics::of(TorchVersion::V1_13), key, named, /*checkNames=*/false);
}

/// Result `i` is a tensor of dtype `d` and rank `rank` (nullopt: unknown).
inline void expectTensor(const InferOutcome &o, size_t i, DType d, std::optional<int> rank) {
  ASSERT_EQ(o.status, InferOutcome::Status::Ok) << (o.error ? o.error->message : "");
  ASSERT_GT(o.outputs.size(), i);
  EXPECT_EQ(o.outputs[i].dtype(), d) << o.outputs[i].str();
  EXPECT_EQ(o.outputs[i].rank().value(), rank) << o.outputs[i].str();
}

/// PyTorch raises for every possible case.
inline void expectError(const InferOutcome &o) { EXPECT_EQ(o.status, InferOutcome::Status::Error); }

/// Result `i`'s sizes as text (`[2*s0, 4]`), "?" when not known, "error".
inline std::string shapeOf(const InferOutcome &o, size_t i = 0) {
  if (o.status != InferOutcome::Status::Ok || o.outputs.size() <= i) return "error";
  return o.outputs[i].shapeStr();
}

} // namespace dtf::test
