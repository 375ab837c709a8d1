//===- tools/dtypeflow/cmd_infer_op.cpp - infer-op and ops ----------------===//
#include "commands.h"

#include "ops/infer.h"
#include "ops/notation.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <set>
#include <nlohmann/json.hpp>

namespace dtf::cli {
namespace {

using json = nlohmann::json;

const Schema &lookupOp(const Semantics &sem, const std::string &key) {
  const SchemaTable &table = sem.schemas();
  if (const Schema *s = table.find(key)) return *s;
  std::string base = key.substr(0, key.find('.', key.find("::") == std::string::npos ? 0 : key.find("::")));
  auto overloads = table.overloads(base);
  std::string hint;
  for (const Schema *s : overloads) hint += (hint.empty() ? "" : ", ") + s->key();
  if (!hint.empty()) throw UsageError(fmt::format("unknown op '{}'; overloads of {}: {}", key, base, hint));
  for (TorchVersion v : kTorchVersions) // an op of another version: say so
    if (v != sem.version() && SchemaTable::of(v).find(key))
      throw UsageError(fmt::format("unknown op '{}' in PyTorch {} (PyTorch {} has it: --torch {})", key,
                                   sem.versionName(), name(v), name(v)));
  throw UsageError(fmt::format("unknown op '{}' in PyTorch {} (ops are written aten::name.overload; a custom op "
                               "needs its rule file: --rules FILE)",
                               key, sem.versionName()));
}

std::string resultText(const Value &v) {
  if (v.isTensor()) return v.dtype() ? std::string(name(*v.dtype())) : "unknown";
  if (v.isTop() || v.isBottom()) return "unknown";
  if (v.isList() && !v.lengthKnown() && v.elementSummary().isTensor()) {
    Value s = v.elementSummary();
    return s.dtype() ? fmt::format("[{}...]", name(*s.dtype())) : "unknown";
  }
  return v.str();
}

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

/// Other overloads of the same op that take every argument name given.
std::string suggestOverloads(const SchemaTable &table, const Schema &schema, const std::vector<std::string> &args) {
  std::string out;
  for (const Schema *s : table.overloads(schema.name)) {
    if (s == &schema) continue;
    bool all = true;
    for (const std::string &a : args) {
      auto eq = a.find('=');
      if (eq != std::string::npos && eq > 0 && s->argIndex(a.substr(0, eq)) < 0) all = false;
    }
    if (all) out += (out.empty() ? "" : ", ") + s->key();
  }
  return out.empty() ? "" : "; overloads that take these arguments: " + out;
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
  addAutocastOption(sub, *torch);
  return [=] {
    const Semantics &sem = semanticsOf(*torch);
    const std::optional<AutocastContext> autocast = autocastOf(*torch);
    auto args = std::make_shared<std::vector<std::string>>(sub->remaining());
    for (const std::string &a : *args)
      if (a.starts_with("--")) throw UsageError(fmt::format("unknown option '{}'", a.substr(0, 80)));
    const Schema &schema = lookupOp(sem, *op);
    std::vector<Value> positional;
    std::vector<std::pair<std::string, Value>> named;
    std::optional<std::string> bindingRaises; ///< PyTorch refuses an argument's value while binding it
    for (const std::string &a : *args) {
      auto eq = a.find('=');
      // `name=value`, unless the '=' belongs to a literal such as `'a=b'`.
      bool isNamed = eq != std::string::npos && eq > 0 && a[0] != '\'' && a[0] != '"' && a[0] != '[';
      std::string argName = isNamed ? a.substr(0, eq) : std::string();
      std::string text = isNamed ? a.substr(eq + 1) : a;
      const SchemaType *type = nullptr;
      if (isNamed) {
        int i = schema.argIndex(argName);
        if (i < 0) {
          auto b = bindArguments(schema, {}, std::vector<std::pair<std::string, Value>>{{argName, Value()}});
          throw UsageError(b.error + suggestOverloads(sem.schemas(), schema, *args));
        }
        type = schema.args[i].type.get();
      } else {
        if (positional.size() >= schema.args.size())
          throw UsageError(fmt::format("{}: too many arguments", schema.key()));
        type = schema.args[positional.size()].type.get();
      }
      auto v = parseNotation(text, type, &sem.types());
      const std::string &shownName = isNamed ? argName : schema.args[positional.size()].name;
      if (!v.value && v.pytorchRaises) {
        if (!bindingRaises)
          bindingRaises = fmt::format("{}(): argument '{}'{} {}", schema.name.substr(schema.name.find("::") + 2),
                                      shownName, v.error.starts_with("must be") ? "" : ":", v.error);
        v.value = Value::top(); // a placeholder: the call raises before any rule runs
      }
      if (!v.value)
        throw UsageError(fmt::format("{}: argument '{}': {}", schema.key(), shownName, v.error));
      if (isNamed) named.emplace_back(argName, *v.value);
      else positional.push_back(*v.value);
    }
    BindResult bound = bindArguments(schema, positional, named);
    if (!bound.ok()) throw UsageError(bound.error);
    InferOutcome out;
    if (bindingRaises) {
      out.status = InferOutcome::Status::Error;
      out.error = RuleError{ErrorKind::ValueDependent, *bindingRaises};
      out.outputs.clear();
    } else {
      out = inferUnderAutocast(sem, autocast, schema, bound.args);
    }

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
      for (const Value &v : out.outputs) fmt::print("{}\n", resultText(v));
    }
    return out.status == InferOutcome::Status::Error ? 1 : 0;
  };
}

Action addOps(CLI::App &app) {
  auto *sub = app.add_subcommand("ops", "List the op overloads that have a dtype rule, with their family");
  auto asJson = std::make_shared<bool>(false);
  auto family = std::make_shared<std::string>();
  auto opPrefix = std::make_shared<std::string>();
  sub->add_flag("--json", *asJson, "print [{\"op\", \"family\", \"schema\", \"torch\"}]");
  sub->add_option("--family", *family, "only this family (prefix match: elementwise, view.query ...)");
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
                        {"torch", std::string(sem.versionName())}});
      else fmt::print("{:<48} {}\n", rule->key, rule->family);
    }
    if (shown == 0 && !opPrefix->empty()) throw none("--op", *opPrefix);
    if (shown == 0) throw none("--family", *family);
    if (*asJson) fmt::print("{}\n", list.dump());
    return 0;
  };
}

} // namespace dtf::cli
