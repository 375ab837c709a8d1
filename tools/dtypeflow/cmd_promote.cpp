//===- tools/dtypeflow/cmd_promote.cpp - result-type and promote-types ----===//
#include "commands.h"

#include "dtype/dtype_system.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace dtf::cli {
namespace {

/// One answer: the dtype (or "unknown"), or the error PyTorch raises in
/// every case (exit 1). A raise in only some cases is a warning on stderr.
int print(const PossibleDTypes &p, bool json, const Semantics &sem) {
  const DTypeSet s = p.dtypes;
  if (!json) {
    if (p.alwaysRaises()) {
      fmt::print("error: {}\n", *p.error);
      return api::kRaises;
    }
    fmt::print("{}\n", s.only() ? name(*s.only()) : "unknown");
    if (p.error) fmt::print(stderr, "warning: PyTorch may raise: {}\n", *p.error);
    return api::kClean;
  }
  nlohmann::json j;
  j["dtype"] = s.only() ? nlohmann::json(std::string(name(*s.only()))) : nlohmann::json(nullptr);
  j["possible"] = nlohmann::json::array();
  for (DType d : s) j["possible"].push_back(std::string(name(d)));
  if (p.error) j[p.alwaysRaises() ? "error" : "possible_error"] = *p.error;
  j["torch"] = std::string(sem.versionName());
  fmt::print("{}\n", j.dump());
  return p.alwaysRaises() ? api::kRaises : api::kClean;
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
  sub->add_flag("--json", *json, "print {\"dtype\": ..., \"possible\": [...], \"torch\": VERSION}");
  auto torch = addTorchOption(sub);
  return [=] {
    const Semantics &sem = semanticsOf(*torch);
    auto operands = std::make_shared<std::vector<std::string>>(sub->remaining());
    for (const std::string &a : *operands)
      if (a.starts_with("--")) throw UsageError(fmt::format("unknown option '{}'", a.substr(0, 80)));
    return print(api::resultType(sem, *operands), *json, sem);
  };
}

Action addPromoteTypes(CLI::App &app) {
  auto *sub = app.add_subcommand("promote-types", "torch.promote_types(A, B) for two dtype names");
  auto a = std::make_shared<std::string>(), b = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  sub->add_option("A", *a, "dtype")->required();
  sub->add_option("B", *b, "dtype")->required();
  sub->add_flag("--json", *json, "print JSON");
  auto torch = addTorchOption(sub);
  return [=] {
    const Semantics &sem = semanticsOf(*torch);
    auto da = sem.types().parse(*a), db = sem.types().parse(*b);
    auto unknown = [&](const std::string &t) {
      return UsageError(fmt::format("unknown dtype '{}'{}", t.substr(0, 80),
                                    parseDType(t) ? fmt::format(" in PyTorch {}", sem.versionName()) : ""));
    };
    if (!da) throw unknown(*a);
    if (!db) throw unknown(*b);
    PossibleDTypes p;
    try {
      p.dtypes = sem.types().promote(*da, *db);
    } catch (const PromotionError &e) {
      p.error = e.what();
    }
    return print(p, *json, sem);
  };
}

} // namespace dtf::cli
