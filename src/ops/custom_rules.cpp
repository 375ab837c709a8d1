//===- ops/custom_rules.cpp - user rule sets, layered over a version ------===//
#include "ops/custom_rules.h"

#include <fmt/format.h>

namespace dtf {

std::string RuleSetError::str() const {
  if (where.file.empty()) return "error: " + message;
  if (where.line <= 0) return fmt::format("{}: error: {}", where.file, message);
  return fmt::format("{}:{}: error: {}", where.file, where.line, message);
}

namespace {

std::string describe(const SourcePos &p) {
  if (p.file.empty()) return "in code";
  return p.line > 0 ? fmt::format("{}:{}", p.file, p.line) : p.file;
}

/// The same arguments and returns (names, types, keyword-only), defaults aside.
bool sameSignature(const Schema &a, const Schema &b) {
  auto same = [](const std::vector<SchemaArg> &x, const std::vector<SchemaArg> &y, bool names) {
    if (x.size() != y.size()) return false;
    for (size_t i = 0; i < x.size(); ++i)
      if ((names && x[i].name != y[i].name) || x[i].type->str() != y[i].type->str() || x[i].kwargOnly != y[i].kwargOnly)
        return false;
    return true;
  };
  return a.varargs == b.varargs && a.varReturns == b.varReturns && same(a.args, b.args, true) &&
         same(a.returns, b.returns, false);
}

} // namespace

const CustomRule *RuleSet::find(std::string_view key) const {
  auto it = byKey_.find(key);
  return it == byKey_.end() ? nullptr : &rules_[it->second];
}

void RuleSet::push(CustomRule rule) {
  byKey_.emplace(rule.schema.key(), rules_.size());
  rules_.push_back(std::move(rule));
}

std::optional<RuleSetError> RuleSet::checkNew(const Schema &schema, const SourcePos &where) const {
  if (rules_.size() >= kMaxRules)
    return RuleSetError{where, fmt::format("more than {} user rules", kMaxRules)};
  if (const CustomRule *first = find(schema.key()))
    return RuleSetError{where, fmt::format("{} has a rule already ({})", schema.key(), describe(first->options.where))};
  return std::nullopt;
}

std::optional<RuleSetError> RuleSet::add(std::string_view schema, RuleFn fn, CustomRuleOptions options) {
  SchemaParseResult parsed = parseSchema(schema);
  if (!parsed.schema) return RuleSetError{options.where, "the schema does not parse: " + parsed.error};
  if (auto e = checkNew(*parsed.schema, options.where)) return e;
  if (!fn) return RuleSetError{options.where, parsed.schema->key() + ": no rule function"};
  push({std::move(*parsed.schema), std::move(fn), std::move(options), {}});
  return std::nullopt;
}

std::vector<RuleSetError> RuleSet::add(std::string_view schema, const RuleSpec &spec, CustomRuleOptions options) {
  SchemaParseResult parsed = parseSchema(schema);
  if (!parsed.schema) return {{options.where, "the schema does not parse: " + parsed.error}};
  auto at = [&](int line) { return SourcePos{options.where.file, line > 0 ? line : options.where.line}; };
  std::vector<RuleSetError> errors;
  for (SpecProblem &p : checkSpec(spec, *parsed.schema)) errors.push_back({at(p.line), std::move(p.message)});
  if (!errors.empty()) return errors;
  if (auto e = checkNew(*parsed.schema, options.where)) return {*e};
  std::vector<std::pair<DType, SourcePos>> named;
  for (auto [d, line] : namedResultDTypes(spec)) named.emplace_back(d, at(line));
  CustomRule rule{*parsed.schema, compileSpec(spec, *parsed.schema), std::move(options), std::move(named)};
  push(std::move(rule));
  return {};
}

ExtendedSemantics Semantics::extend(TorchVersion v, const RuleSet &rules) {
  const Semantics &base = of(v);
  ExtendedSemantics out;
  std::vector<Schema> extra;
  for (const CustomRule &r : rules.rules()) {
    const std::string key = r.schema.key();
    const Schema *builtin = base.schemas().find(key);
    auto fail = [&](std::string m) { out.errors.push_back({r.options.where, std::move(m)}); };
    if (base.registry().find(key) && !r.options.overrideBuiltin)
      fail(fmt::format("{} has a built-in rule in PyTorch {}: to replace it, say so (override = true)", key,
                       base.versionName()));
    else if (!builtin && r.options.overrideBuiltin)
      fail(fmt::format("override = true, but PyTorch {} has no op {} to override", base.versionName(), key));
    else if (builtin && !sameSignature(*builtin, r.schema))
      fail(fmt::format("the schema differs from PyTorch {}'s: {}", base.versionName(), builtin->text));
    for (const auto &[d, where] : r.namedDTypes)
      if (!base.types().names(d))
        out.errors.push_back({where, fmt::format("PyTorch {} has no dtype {}", base.versionName(), name(d))});
    if (!builtin) extra.push_back(r.schema);
  }
  if (!out.errors.empty()) return out;
  auto layer = std::shared_ptr<Semantics>(
      new Semantics(base, std::make_unique<const SchemaTable>(base.schemas(), std::move(extra))));
  for (const CustomRule &r : rules.rules())
    layer->registry_->add(r.schema.key(), r.options.family, r.fn).withSamples(r.options.samples);
  // The generic checks (dims, memory_format) of user rules, from their
  // schemas and the facts of the op they override, as for built-in rules.
  layer->registry_->finalize();
  out.semantics = std::move(layer);
  return out;
}

} // namespace dtf
