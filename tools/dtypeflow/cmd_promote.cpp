//===- tools/dtypeflow/cmd_promote.cpp - result-type and promote-types ----===//
#include "commands.h"

#include "dtype/promotion.h"
#include "ops/notation.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace dtf::cli {
namespace {

Value parseOperand(const std::string &text) {
  auto r = parseNotation(text, nullptr);
  if (!r.value) throw UsageError("bad operand " + r.error);
  if (!r.value->isTensor() && !r.value->isNumber())
    throw UsageError(fmt::format("bad operand '{}': expected a tensor or a Python number", text));
  return *r.value;
}

void print(DTypeSet s, bool json) {
  if (!json) {
    fmt::print("{}\n", s.only() ? name(*s.only()) : "unknown");
    return;
  }
  nlohmann::json j;
  j["dtype"] = s.only() ? nlohmann::json(std::string(name(*s.only()))) : nlohmann::json(nullptr);
  j["possible"] = nlohmann::json::array();
  for (DType d : s) j["possible"].push_back(std::string(name(d)));
  fmt::print("{}\n", j.dump());
}

} // namespace

Action addResultType(CLI::App &app) {
  auto *sub = app.add_subcommand(
      "result-type", "The dtype torch.result_type gives for these operands (or 'unknown' when\n"
                     "the unknowns could change it). Example: result-type int8:r1 float -> float32");
  auto json = std::make_shared<bool>(false);
  // The operands are read verbatim from the extras: a vector option would let
  // CLI11 read `[a,b]` as two operands.
  sub->allow_extras();
  sub->footer("OPERANDS: tensors (DTYPE:rN) and Python numbers, one or more.");
  sub->add_flag("--json", *json, "print {\"dtype\": ..., \"possible\": [...]}");
  return [=] {
    auto operands = std::make_shared<std::vector<std::string>>(sub->remaining());
    for (const std::string &a : *operands)
      if (a.starts_with("--")) throw UsageError(fmt::format("unknown option '{}'", a.substr(0, 80)));
    if (operands->empty()) throw UsageError("operands is required");
    std::vector<Value> vals;
    for (auto &t : *operands) vals.push_back(parseOperand(t));
    print(resultTypeSet(vals), *json);
    return 0;
  };
}

Action addPromoteTypes(CLI::App &app) {
  auto *sub = app.add_subcommand("promote-types", "torch.promote_types(A, B) for two dtype names");
  auto a = std::make_shared<std::string>(), b = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  sub->add_option("A", *a, "dtype")->required();
  sub->add_option("B", *b, "dtype")->required();
  sub->add_flag("--json", *json, "print JSON");
  return [=] {
    auto da = parseDType(*a), db = parseDType(*b);
    if (!da) throw UsageError(fmt::format("unknown dtype '{}'", *a));
    if (!db) throw UsageError(fmt::format("unknown dtype '{}'", *b));
    print(promoteTypes(*da, *db), *json);
    return 0;
  };
}

} // namespace dtf::cli
