//===- tests/fuzz/fuzz_notation.cpp - libFuzzer: the operand notation -----===//
//
// The notation of result-type and infer-op read as the CLI reads it. The
// first byte picks a mode: result-type over whitespace-separated operands,
// or infer-op: an op (the first word, or one of a fixed list by the second
// byte) with NAME=VALUE / positional arguments, bound and inferred. Bad text
// must come back as an error, never a crash or an escaping exception.
//
//===----------------------------------------------------------------------===//
#include "ops/infer.h"
#include "ops/notation.h"
#include "ops/semantics.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace dtf;

std::vector<std::string> words(std::string_view s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size() && out.size() < 32) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\n' || s[i] == '\t')) ++i;
    size_t j = i;
    while (j < s.size() && s[j] != ' ' && s[j] != '\n' && s[j] != '\t') ++j;
    if (j > i) out.emplace_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

constexpr const char *kOps[] = {"aten::add.Tensor", "aten::sum.dim_IntList", "aten::cat", "aten::zeros",
                                "aten::narrow.Tensor", "aten::where.self", "aten::softmax.int", "aten::to.dtype",
                                "aten::conv2d", "aten::searchsorted.Scalar", "aten::empty.memory_format",
                                "aten::rrelu_with_noise_backward", "aten::index.Tensor", "aten::full",
                                "aten::mul.Scalar", "aten::batch_norm", "aten::__getitem__.t", "aten::add.int"};

void resultType(const Semantics &sem, const std::vector<std::string> &ops) {
  std::vector<Value> vals;
  for (const std::string &w : ops) {
    NotationResult r = parseNotation(w, nullptr, &sem.types());
    if (!r.value) return;
    if (!r.value->isTensor() && !r.value->isNumber()) return; // refused by the CLI
    vals.push_back(*r.value);
  }
  (void)sem.types().resultTypeSet(vals);
}

void inferOp(const Semantics &sem, std::vector<std::string> w, uint8_t pick) {
  const Schema *schema = !w.empty() ? sem.schemas().find(w[0]) : nullptr;
  if (schema) w.erase(w.begin());
  else schema = sem.schemas().find(kOps[pick % std::size(kOps)]);
  if (!schema) return;
  std::vector<Value> positional;
  std::vector<std::pair<std::string, Value>> named;
  for (const std::string &a : w) {
    size_t eq = a.find('=');
    bool isNamed = eq != std::string::npos && eq > 0 && a[0] != '\'' && a[0] != '"' && a[0] != '[';
    const SchemaType *type = nullptr;
    std::string argName;
    if (isNamed) {
      argName = a.substr(0, eq);
      int i = schema->argIndex(argName);
      if (i < 0) return;
      type = schema->args[i].type.get();
    } else {
      if (positional.size() >= schema->args.size()) return;
      type = schema->args[positional.size()].type.get();
    }
    NotationResult v = parseNotation(isNamed ? a.substr(eq + 1) : a, type, &sem.types());
    if (!v.value) return;
    if (isNamed) named.emplace_back(argName, *v.value);
    else positional.push_back(*v.value);
  }
  BindResult bound = bindArguments(*schema, positional, named);
  if (!bound.ok()) return;
  (void)infer(sem.registry(), *schema, bound.args);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 2) return 0;
  const Semantics &sem = Semantics::of(data[0] & 1 ? TorchVersion::V1_13 : TorchVersion::V2_14);
  std::string_view text(reinterpret_cast<const char *>(data + 2), size - 2);
  std::vector<std::string> w = words(text);
  if (data[0] & 2) resultType(sem, w);
  else inferOp(sem, std::move(w), data[1]);
  return 0;
}
