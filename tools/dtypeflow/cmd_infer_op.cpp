//===- tools/dtypeflow/cmd_infer_op.cpp - infer-op and ops ----------------===//
#include "commands.h"

#include "ops/infer.h"
#include "ops/notation.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace dtf::cli {
namespace {

using json = nlohmann::json;

json resultJson(const Value &v) {
  json j;
  if (v.isTensor()) {
    j["dtype"] = v.dtype() ? json(std::string(name(*v.dtype()))) : json(nullptr);
    j["rank"] = v.rank().value() ? json(*v.rank().value()) : json(nullptr);
  } else {
    j["value"] = v.str();
  }
  return j;
}

json errorJson(const std::optional<RuleError> &e) {
  if (!e) return nullptr;
  return {{"kind", std::string(name(e->kind))}, {"message", e->message}};
}

std::string_view statusName(InferOutcome::Status s) {
  switch (s) {
  case InferOutcome::Status::Ok: return "ok";
  case InferOutcome::Status::Error: return "error";
  case InferOutcome::Status::NoRule: return "no-rule";
  case InferOutcome::Status::TooManyUnknowns: return "too-many-unknowns";
  }
  return "ok";
}

} // namespace

Action addInferOp(CLI::App &app) {
  auto *sub = app.add_subcommand(
      "infer-op",
      "Result dtype(s) of one op call, by schema argument names; omitted arguments take\n"
      "their schema defaults. One line per result ('float32', 'unknown'), or 'error: ...'\n"
      "(exit 1) where PyTorch would raise.\n"
      "Example: infer-op aten::add.Tensor self=int32:r1 other=float64:r0 alpha=2");
  auto op = std::make_shared<std::string>();
  auto asJson = std::make_shared<bool>(false);
  sub->add_option("OP", *op, "overload key, e.g. aten::sum.dim_IntList")->required();
  // The arguments (NAME=VALUE or positional VALUE) are read verbatim from the
  // extras: a vector option would let CLI11 split a bracketed value (`[1,2]`,
  // a positional list) into several arguments.
  sub->allow_extras();
  sub->footer("ARGS: NAME=VALUE (or positional VALUE) in the operand notation, after OP.");
  sub->add_flag("--json", *asJson, "print {\"op\", \"status\", \"results\", \"error\", \"torch\"}");
  auto torch = addTorchOption(sub);
  return [=] {
    const Semantics &sem = semanticsOf(*torch);
    auto args = std::make_shared<std::vector<std::string>>(sub->remaining());
    for (const std::string &a : *args)
      if (a.starts_with("--")) throw UsageError(fmt::format("unknown option '{}'", a.substr(0, 80)));
    std::vector<api::OpArg> callArgs;
    for (const std::string &a : *args) {
      auto eq = a.find('=');
      // `name=value`, unless the '=' belongs to a literal such as `'a=b'`.
      bool isNamed = eq != std::string::npos && eq > 0 && a[0] != '\'' && a[0] != '"' && a[0] != '[';
      if (isNamed) callArgs.push_back({a.substr(0, eq), a.substr(eq + 1)});
      else callArgs.push_back({"", a});
    }
    api::OpCall call = api::inferOp(sem, *op, callArgs);
    const Schema &schema = *call.schema;
    const InferOutcome &out = call.outcome;

    if (*asJson) {
      json j;
      j["op"] = schema.key();
      j["status"] = std::string(statusName(out.status));
      j["results"] = json::array();
      for (const Value &v : out.outputs) j["results"].push_back(resultJson(v));
      j["error"] = errorJson(out.error);
      j["possible_error"] = errorJson(out.possibleError);
      j["torch"] = std::string(sem.versionName());
      fmt::print("{}\n", j.dump());
    } else if (out.status == InferOutcome::Status::Error) {
      fmt::print("error: {}\n", out.error ? out.error->message : "unknown error");
    } else {
      if (out.status == InferOutcome::Status::NoRule)
        fmt::print(stderr, "warning: no dtype rule for {}; results unknown\n", schema.key());
      if (out.status == InferOutcome::Status::TooManyUnknowns)
        fmt::print(stderr, "warning: too many unknown arguments to enumerate; results unknown\n");
      for (const Value &v : out.outputs) fmt::print("{}\n", api::resultText(v));
    }
    return out.status == InferOutcome::Status::Error ? 1 : 0;
  };
}

Action addOps(CLI::App &app) {
  auto *sub = app.add_subcommand("ops", "List the op overloads that have a dtype rule, with their family");
  auto asJson = std::make_shared<bool>(false);
  auto family = std::make_shared<std::string>();
  sub->add_flag("--json", *asJson, "print [{\"op\", \"family\", \"schema\", \"torch\"}]");
  sub->add_option("--family", *family, "only this family (prefix match)");
  auto torch = addTorchOption(sub);
  return [=] {
    const Semantics &sem = semanticsOf(*torch);
    const Registry &reg = sem.registry();
    json list = json::array();
    for (const auto &[key, rule] : reg.rules()) {
      if (!rule.family.starts_with(*family)) continue;
      if (*asJson)
        list.push_back({{"op", key}, {"family", rule.family}, {"schema", rule.schema->text},
                        {"torch", std::string(sem.versionName())}});
      else fmt::print("{:<48} {}\n", key, rule.family);
    }
    if (*asJson) fmt::print("{}\n", list.dump());
    return 0;
  };
}

} // namespace dtf::cli
