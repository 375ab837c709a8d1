// The registry of one op (ops/lazy_registry.h, what `infer-op` uses) holds
// every rule of that op exactly as the full registry does, for every op
// name of every version: same keys, same fields, same answers.
#include "ops/infer.h"
#include "ops/lazy_registry.h"
#include "ops/notation.h"
#include "ops/semantics.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dtf {
namespace {

bool sameFacts(OpFacts a, OpFacts b) { return a.without(b).empty() && b.without(a).empty(); }

void expectSameRule(const OpRule &full, const OpRule &one) {
  SCOPED_TRACE(full.key);
  EXPECT_EQ(one.family, full.family);
  EXPECT_EQ(one.schema, full.schema);
  EXPECT_EQ(one.since, full.since);
  EXPECT_EQ(one.anyCategory, full.anyCategory);
  EXPECT_EQ(one.dimArgs, full.dimArgs);
  EXPECT_EQ(one.dimsOf, full.dimsOf);
  EXPECT_EQ(one.memoryFormatArg, full.memoryFormatArg);
  EXPECT_TRUE(sameFacts(one.facts, full.facts));
  ASSERT_EQ(one.intBounds.size(), full.intBounds.size());
  for (size_t i = 0; i < full.intBounds.size(); ++i) {
    EXPECT_EQ(one.intBounds[i].arg, full.intBounds[i].arg);
    EXPECT_EQ(one.intBounds[i].least, full.intBounds[i].least);
    EXPECT_EQ(one.intBounds[i].message, full.intBounds[i].message);
  }
  EXPECT_EQ(one.samples.args, full.samples.args);
  EXPECT_EQ(one.samples.skipReason, full.samples.skipReason);
  ASSERT_EQ(one.samples.variants.size(), full.samples.variants.size());
  for (size_t i = 0; i < full.samples.variants.size(); ++i)
    EXPECT_EQ(one.samples.variants[i].args, full.samples.variants[i].args);
  EXPECT_EQ(one.fn.target_type(), full.fn.target_type()); // the same rule (captures aside)
}

/// Arguments of `s`: tensors written `tensor` in the operand notation,
/// tensor lists two of them, others their default (or unknown).
std::vector<Value> argumentsOf(const Schema &s, const DTypeSystem &types, const std::string &tensor) {
  std::vector<Value> args;
  for (const SchemaArg &a : s.args) {
    const SchemaType *t = a.type.get();
    if (t->kind == SchemaType::Kind::Optional && t->inner()) t = t->inner();
    std::optional<Value> v;
    if (t->kind == SchemaType::Kind::Tensor) v = parseNotation(tensor, a.type.get(), &types).value;
    else if (t->kind == SchemaType::Kind::List && t->inner()->kind == SchemaType::Kind::Tensor)
      v = parseNotation("[" + tensor + "," + tensor + "]", a.type.get(), &types).value;
    args.push_back(v ? *v : a.defaultText ? defaultValue(a) : unknownOfType(*a.type));
  }
  return args;
}

std::string outcomeText(const InferOutcome &o) {
  std::string s = std::to_string(static_cast<int>(o.status));
  for (const Value &v : o.outputs) s += " " + v.str();
  if (o.error) s += " error " + std::string(name(o.error->kind)) + ": " + o.error->message;
  if (o.possibleError) s += " possible " + std::string(name(o.possibleError->kind)) + ": " + o.possibleError->message;
  return s;
}

TEST(LazyRegistry, EveryOpNameAsTheFullRegistryHasIt) {
  for (TorchVersion v : kTorchVersions) {
    SCOPED_TRACE(std::string(name(v)));
    const Semantics &sem = Semantics::of(v);
    const Registry &full = sem.registry();
    ASSERT_FALSE(familyIndex(v).empty());
    std::map<std::string_view, std::vector<const OpRule *>> byName;
    for (const auto &[key, rule] : full.rules()) byName[opNameOfKey(key)].push_back(&rule);
    for (const auto &[opName, rules] : byName) {
      std::unique_ptr<Registry> one = registerOpName(sem.schemas(), sem.types(), opName);
      ASSERT_NE(one, nullptr);
      size_t ofName = 0;
      for (const auto &[key, rule] : one->rules()) ofName += opNameOfKey(key) == opName;
      EXPECT_EQ(ofName, rules.size()) << opName;
      for (const OpRule *rule : rules) {
        const OpRule *mine = one->find(*rule->schema);
        ASSERT_NE(mine, nullptr) << rule->key;
        expectSameRule(*rule, *mine);
        for (const char *tensor : {"float32:r1", "int64:r0", "bool:r2"}) {
          std::vector<Value> args = argumentsOf(*rule->schema, sem.types(), tensor);
          EXPECT_EQ(outcomeText(infer(*one, *rule->schema, args)), outcomeText(infer(full, *rule->schema, args)))
              << rule->key << " with tensors " << tensor;
        }
      }
    }
  }
}

/// Every rule of `names` in `some` as in `full`: keys, fields, facts, answers.
void expectSameRulesOf(const Registry &full, const Registry &some, const std::vector<std::string_view> &names,
                       const DTypeSystem &types) {
  for (std::string_view opName : names) {
    EXPECT_TRUE(sameFacts(some.facts(opName), full.facts(opName))) << opName;
    for (const auto &[key, rule] : full.rules()) {
      if (opNameOfKey(key) != opName) continue;
      const OpRule *mine = some.find(*rule.schema);
      ASSERT_NE(mine, nullptr) << key;
      expectSameRule(rule, *mine);
      std::vector<Value> args = argumentsOf(*rule.schema, types, "float32:r2");
      EXPECT_EQ(outcomeText(infer(some, *rule.schema, args)), outcomeText(infer(full, *rule.schema, args))) << key;
    }
  }
}

// The registry of a program's ops (Semantics::registryForOps, what the pass uses):
// every op name of every version in groups of 64 (key order: families' neighbours
// together), and a model's set.
TEST(LazyRegistry, SeveralOpNamesAsTheFullRegistryHasThem) {
  for (TorchVersion v : kTorchVersions) {
    SCOPED_TRACE(std::string(name(v)));
    const Semantics &sem = Semantics::of(v);
    const Registry &full = sem.registry();
    std::vector<std::string_view> all;
    for (const auto &[key, rule] : full.rules())
      if (all.empty() || all.back() != opNameOfKey(key)) all.push_back(opNameOfKey(key));
    std::vector<std::vector<std::string_view>> groups;
    for (size_t i = 0; i < all.size(); i += 64)
      groups.emplace_back(all.begin() + i, all.begin() + std::min(all.size(), i + 64));
    groups.push_back({"aten::_convolution", "aten::add_", "aten::adaptive_avg_pool2d", "aten::batch_norm", "aten::flatten",
                      "aten::linear", "aten::max_pool2d", "aten::relu_", "aten::size", "aten::Int", "prim::NumToTensor",
                      "aten::view", "aten::cat", "aten::to", "aten::softmax", "aten::lstm", "aten::mul", "aten::div"});
    for (const auto &names : groups) {
      std::unique_ptr<Registry> some = registerOpNames(sem.schemas(), sem.types(), names);
      ASSERT_NE(some, nullptr);
      expectSameRulesOf(full, *some, names, sem.types());
    }
  }
}

TEST(LazyRegistry, AnOpWithoutRulesGetsAnEmptyRegistry) {
  const Semantics &sem = Semantics::of(kNewestTorch);
  const Schema *s = sem.schemas().find("aten::_cudnn_rnn");
  ASSERT_NE(s, nullptr);
  ASSERT_EQ(sem.registry().find(*s), nullptr);
  std::unique_ptr<Registry> one = registerOpName(sem.schemas(), sem.types(), s->name);
  ASSERT_NE(one, nullptr);
  EXPECT_TRUE(one->rules().empty());
}

TEST(LazyRegistry, OpNameOfKey) {
  EXPECT_EQ(opNameOfKey("aten::add.Tensor"), "aten::add");
  EXPECT_EQ(opNameOfKey("aten::relu"), "aten::relu");
  EXPECT_EQ(opNameOfKey("quantized::add.out"), "quantized::add");
}

} // namespace
} // namespace dtf
