//===- ops/custom_rules.h - rules for ops no built-in library knows -*- C++ -*-===//
//
// A team's own TORCH_LIBRARY ops, fused kernels, vendor ops: a RuleSet holds
// their schemas and dtype/rank rules, from rule files (TOML, documented in
// docs/custom-ops.md) or from code, and Semantics::extend layers them over a
// PyTorch version's built-in rules without changing those:
//
//   dtf::RuleSet rules;
//   for (const dtf::RuleSetError &e : rules.addFile("mylib.toml")) std::cerr << e.str() << "\n";
//   dtf::ExtendedSemantics ext = dtf::Semantics::extend(dtf::TorchVersion::V2_14, rules);
//   dtf::refine::Options opts;
//   opts.semantics = ext.semantics; // null when ext.errors is not empty
//
// The same RuleSet extends every modelled version. Replacing a built-in rule
// is explicit (CustomRuleOptions::overrideBuiltin, a file's `override = true`).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ops/rule_spec.h"
#include "ops/semantics.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dtf {

/// Where a user rule comes from: a rule file and a line in it, or code
/// (an empty file name).
struct SourcePos {
  std::string file;
  int line = 0;
};

/// A problem with a user rule, printed as `file:line: error: message`.
struct RuleSetError {
  SourcePos where;
  std::string message;
  std::string str() const;
};

/// How a user rule is registered.
struct CustomRuleOptions {
  /// Replace the built-in rule of the same overload (refused otherwise).
  bool overrideBuiltin = false;
  /// The family `dtypeflow ops` lists it under.
  std::string family = "custom";
  /// How the conformance harness exercises it (ops/registry.h).
  SampleSpec samples;
  /// Where it was declared, for messages.
  SourcePos where;
};

/// One user rule: a parsed schema and its rule.
struct CustomRule {
  Schema schema;
  RuleFn fn;
  CustomRuleOptions options;
  /// Result dtypes it names (an `always` dtype ...), which a version it
  /// extends must have; checked by Semantics::extend.
  std::vector<std::pair<DType, SourcePos>> namedDTypes;
};

/// User rules, independent of any PyTorch version. Every add checks what it
/// can without a version (the schema parses, the rule's arguments are in it,
/// no overload twice) and adds nothing when it finds a problem.
class RuleSet {
public:
  /// A rule written in code: any RuleFn (ops/vocabulary.h's builders, a lambda).
  std::optional<RuleSetError> add(std::string_view schema, RuleFn fn, CustomRuleOptions options = {});
  /// A declarative rule (ops/rule_spec.h), checked against its schema.
  std::vector<RuleSetError> add(std::string_view schema, const RuleSpec &spec, CustomRuleOptions options = {});
  /// Every rule of a rule file (TOML, docs/custom-ops.md); none when the
  /// file has any problem (each comes back with its line).
  std::vector<RuleSetError> addFile(const std::string &path);
  /// The same, from a file's text (`fileName` names it in messages).
  std::vector<RuleSetError> addText(std::string_view text, const std::string &fileName);

  const std::vector<CustomRule> &rules() const { return rules_; }
  bool empty() const { return rules_.empty(); }
  /// The rule for an overload key (`mylib::fused_gelu`), or null.
  const CustomRule *find(std::string_view key) const;

  /// Rule files are at most this large, and hold at most this many ops.
  static constexpr size_t kMaxFileBytes = 1 << 20;
  static constexpr size_t kMaxRules = 10000;

private:
  std::optional<RuleSetError> checkNew(const Schema &schema, const SourcePos &where) const;
  void push(CustomRule rule);
  std::vector<CustomRule> rules_;
  std::map<std::string, size_t, std::less<>> byKey_; ///< into rules_
};

/// Semantics::extend's answer: the semantics, or the problems that stop it.
struct ExtendedSemantics {
  std::shared_ptr<const Semantics> semantics; ///< null when `errors` is not empty
  std::vector<RuleSetError> errors;
  bool ok() const { return errors.empty(); }
};

} // namespace dtf
