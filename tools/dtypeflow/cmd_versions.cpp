//===- tools/dtypeflow/cmd_versions.cpp - what differs between versions -===//
#include "commands.h"

#include "ops/version_diff.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace dtf::cli {
namespace {

TorchVersion versionArg(const std::string &text) {
  auto v = parseTorchVersion(text);
  if (!v) throw UsageError(fmt::format("PyTorch '{}' is not modelled (supported: {})", text, supportedTorchVersions()));
  return *v;
}

nlohmann::json changes(const std::vector<VersionDiff::Change> &cs) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto &c : cs) a.push_back({{"what", c.what}, {"before", c.before}, {"after", c.after}});
  return a;
}

nlohmann::json names(const std::vector<DType> &ds) {
  nlohmann::json a = nlohmann::json::array();
  for (DType d : ds) a.push_back(std::string(name(d)));
  return a;
}

} // namespace

Action addVersions(CLI::App &app) {
  auto *sub = app.add_subcommand(
      "versions", "What dtypeflow models differently between two PyTorch versions: dtypes,\n"
                  "promote_types / result_type outcomes, schemas, and the rules registered per\n"
                  "version. Markdown (docs/versions.md is its output) or --json.");
  auto from = std::make_shared<std::string>("1.13"), to = std::make_shared<std::string>(std::string(name(kNewestTorch)));
  auto json = std::make_shared<bool>(false);
  auto limit = std::make_shared<size_t>(0);
  sub->add_option("--from", *from, "the older version")->capture_default_str();
  sub->add_option("--to", *to, "the newer version")->capture_default_str();
  sub->add_option("--limit", *limit, "list at most N op keys per list in Markdown (0: all)")->capture_default_str();
  sub->add_flag("--json", *json, "print the differences as JSON");
  return [=] {
    const VersionDiff d = diffVersions(Semantics::of(versionArg(*from)), Semantics::of(versionArg(*to)));
    if (!*json) {
      fmt::print("{}", versionDiffMarkdown(d, *limit));
      return 0;
    }
    nlohmann::json j = {{"from", std::string(name(d.from))},
                        {"to", std::string(name(d.to))},
                        {"dtypes_added", names(d.dtypesAdded)},
                        {"dtypes_removed", names(d.dtypesRemoved)},
                        {"promote_types", changes(d.promoteTypes)},
                        {"result_type", changes(d.resultType)},
                        {"facts", changes(d.facts)},
                        {"cpu_facts", changes(d.cpuFacts)},
                        {"schemas_added", d.schemasAdded},
                        {"schemas_removed", d.schemasRemoved},
                        {"schemas_changed", changes(d.schemasChanged)},
                        {"rules_added", d.rulesAdded},
                        {"rules_removed", d.rulesRemoved},
                        {"rules_changed", changes(d.rulesChanged)}};
    fmt::print("{}\n", j.dump(1));
    return 0;
  };
}

} // namespace dtf::cli
