//===- tools/dtypeflow/cmd_infer_op.cpp - infer-op and ops ----------------===//
#include "commands.h"

#include "frontends/text/ir_printer.h"
#include "ops/infer.h"
#include "ops/may_raise.h"
#include "ops/meta_kernels.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <set>
#include <nlohmann/json.hpp>

namespace dtf::cli {
namespace {

using json = nlohmann::json;

/// `withSizes`: the operands gave sizes (`float32:[2,s0]`), so results say theirs.
json resultJson(const Value &v, bool withSizes) {
  json j;
  if (v.isTensor()) {
    j["dtype"] = v.dtype() ? json(std::string(name(*v.dtype()))) : json(nullptr);
    j["rank"] = v.rank().value() ? json(*v.rank().value()) : json(nullptr);
    if (withSizes) ir::addShapeJson(j, v);
  } else {
    j["value"] = v.str();
  }
  return j;
}

/// {"kind", "message"}; a missing kernel adds "gap", the device gap in
/// words ("no CPU kernel for uint16 in 2.14").
json errorJson(const std::optional<RuleError> &e, std::string_view torch) {
  if (!e) return nullptr;
  json j = {{"kind", std::string(name(e->kind))}, {"message", e->message}};
  if (std::string gap = kernelGapText(*e, torch); !gap.empty()) j["gap"] = gap;
  return j;
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
  sub->add_flag("--json", *asJson,
                "print {\"op\", \"status\", \"results\", \"error\", \"possible_error\", \"torch\", \"cpu\",\n"
                "\"kernels\"}; an error is {\"kind\", \"message\"}, and a CPU kernel gap (kind missing-kernel)\n"
                "adds \"gap\": \"no CPU kernel for uint16 in 2.14\"");
  auto torch = addTorchOption(sub);
  addAutocastOption(sub, *torch);
  return [=] {
    const Semantics &sem = semanticsOf(*torch);
    std::vector<api::OpArg> args;
    for (const std::string &a : sub->remaining()) {
      if (a.starts_with("--")) throw UsageError(fmt::format("unknown option '{}'", a.substr(0, 80)));
      auto eq = a.find('=');
      // `name=value`, unless the '=' belongs to a literal such as `'a=b'`.
      bool isNamed = eq != std::string::npos && eq > 0 && a[0] != '\'' && a[0] != '"' && a[0] != '[';
      args.push_back(isNamed ? api::OpArg{a.substr(0, eq), a.substr(eq + 1)} : api::OpArg{"", a});
    }
    const api::OpCall call = api::inferOp(sem, *op, args, torch->autocast);
    const Schema &schema = *call.schema;
    const InferOutcome &out = call.outcome;
    std::optional<MetaKernelMeasure> metaDiffers = metaKernelMeasure(sem.version(), schema.key());
    if (metaDiffers && !metaDiffers->anotherDtype) metaDiffers.reset();

    if (*asJson) {
      json j;
      j["op"] = schema.key();
      j["status"] = std::string(api::statusName(out.status));
      j["results"] = json::array();
      // Sizes are reported when the operands gave some, or when the op takes
      // no tensor (a factory: zeros's size list, arange's bounds decide them).
      const bool sized = std::any_of(args.begin(), args.end(), [](const api::OpArg &a) {
        return a.text.find(":[") != std::string::npos;
      }) || std::none_of(schema.args.begin(), schema.args.end(), [](const SchemaArg &a) { return a.type->isTensorLike(); });
      for (const Value &v : out.outputs) j["results"].push_back(resultJson(v, sized));
      j["error"] = errorJson(out.error, sem.versionName());
      j["possible_error"] = errorJson(out.possibleError, sem.versionName());
      j["torch"] = std::string(sem.versionName());
      j["cpu"] = sem.context().cpu ? json(std::string(name(*sem.context().cpu))) : json(nullptr);
      j["kernels"] = std::string(name(sem.context().kernels));
      j["meta_kernels"] = nullptr; // where this version's meta kernel gives another dtype (measured)
      if (metaDiffers) j["meta_kernels"] = {{"cases", metaDiffers->cases}, {"another_dtype", metaDiffers->anotherDtype}};
      fmt::print("{}\n", j.dump());
    } else if (out.status == InferOutcome::Status::Error) {
      fmt::print("error: {}\n", out.error ? out.error->message : "unknown error");
    } else {
      if (out.status == InferOutcome::Status::NoRule)
        fmt::print(stderr, "warning: no dtype rule for {}; results unknown\n", schema.key());
      if (out.status == InferOutcome::Status::TooManyUnknowns)
        fmt::print(stderr, "warning: too many unknown arguments to enumerate; results unknown\n");
      for (const Value &v : out.outputs) fmt::print("{}\n", api::resultText(v));
      if (out.possibleError) fmt::print(stderr, "warning: PyTorch may raise: {}\n", out.possibleError->message);
      if (metaDiffers)
        fmt::print(stderr,
                   "note: PyTorch {}'s meta kernel (FakeTensor, torch.export) gives another dtype than its CPU kernel "
                   "in {} of {} measured calls of {} ({})\n",
                   sem.versionName(), metaDiffers->anotherDtype, metaDiffers->cases, schema.key(),
                   metaDiffers->notModelled
                       ? fmt::format("--kernels meta answers another dtype than it in {} of them: not modelled yet",
                                     metaDiffers->notModelled)
                       : std::string("--kernels meta answers as the meta kernel"));
    }
    return out.status == InferOutcome::Status::Error ? api::kRaises : api::kClean;
  };
}

Action addOps(CLI::App &app) {
  auto *sub = app.add_subcommand("ops", "List the op overloads that have a dtype rule, with their family");
  auto asJson = std::make_shared<bool>(false);
  auto family = std::make_shared<std::string>();
  auto opPrefix = std::make_shared<std::string>();
  sub->add_flag("--json", *asJson,
                "print [{\"op\", \"family\", \"schema\", \"torch\", \"shape\"}]; shape: the op has a shape rule "
                "(without one, sizes only where its dtype rule keeps or broadcasts them: docs/shape-coverage.md)");
  sub->add_option("--family", *family,
                  "only this family (prefix match: unary, binary, view ...; a filter matching nothing lists them)");
  sub->add_option("--op", *opPrefix, "only overloads whose key starts with this (aten::add)");
  auto torch = addTorchOption(sub);
  return [=] {
    const Semantics &sem = semanticsOf(*torch);
    const Registry &reg = sem.registry();
    // A filter that matches nothing is a mistake to report, not an empty list.
    auto none = [&](const std::string &what, const std::string &text) {
      std::set<std::string> families;
      for (const auto &[key, rule] : reg.rules()) families.insert(rule.family.substr(0, rule.family.find('.')));
      std::string hint = what == "--family" && reg.rules().lower_bound(text) != reg.rules().end() &&
                                 reg.rules().lower_bound(text)->first.starts_with(text)
                             ? fmt::format(" ('{}' names ops: use --op {})", text, text)
                             : "";
      return UsageError(fmt::format("{} {}: no op with a rule in PyTorch {} matches{}; families: {}", what,
                                    text.substr(0, 80), sem.versionName(), hint, fmt::join(families, ", ")));
    };
    json list = json::array();
    size_t shown = 0;
    for (const OpRule *rule : reg.allRules()) { // with --rules: the user rules too
      if (!rule->family.starts_with(*family) || !rule->key.starts_with(*opPrefix)) continue;
      ++shown;
      if (*asJson)
        list.push_back({{"op", rule->key}, {"family", rule->family}, {"schema", rule->schema->text},
                        {"torch", std::string(sem.versionName())}, {"shape", static_cast<bool>(rule->shape)}});
      else fmt::print("{:<48} {}\n", rule->key, rule->family);
    }
    if (shown == 0 && !opPrefix->empty()) throw none("--op", *opPrefix);
    if (shown == 0) throw none("--family", *family);
    if (*asJson) fmt::print("{}\n", list.dump());
    return 0;
  };
}

} // namespace dtf::cli
