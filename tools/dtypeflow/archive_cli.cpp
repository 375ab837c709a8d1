#include "archive_cli.h"

#include "commands.h"

#include <fmt/format.h>

#include <map>

namespace dtf::cli {

refine::CheckCounts checkArchive(const std::string &file, const ir::Graph &g, const pt2::Program &p,
                                 const refine::Result &r, std::map<std::string, size_t> &unmodelled) {
  refine::CheckCounts counts;
  for (const api::ArchiveVerdict &c : api::compareArchive(g, p, r)) {
    const ir::ValueId v = c.value;
    const pt2::RecordedTensor &rec = *p.recorded[v];
    const Value &got = r.values[v];
    switch (c.verdict) {
    case refine::Verdict::Correct: ++counts.correct; break;
    case refine::Verdict::Wrong:
      ++counts.wrong;
      fmt::print("{}: wrong: %{} ({}): recorded {}, inferred {}\n", file, g.values[v].name, api::definedBy(g, v),
                 rec.str(), got.str());
      break;
    case refine::Verdict::Unknown:
      ++counts.unknown;
      fmt::print("{}: unknown: %{} ({}): inferred {} ({})\n", file, g.values[v].name, api::definedBy(g, v),
                 got.isBottom() ? "nothing" : got.str(), refine::describe(r.reasons[v]));
      break;
    case refine::Verdict::NotChecked: ++unmodelled[rec.dtypeName]; break;
    }
  }
  return counts;
}

void printArchiveDiagnostics(const std::string &file, const pt2::Program &p) {
  std::map<std::pair<std::string, std::string>, size_t> counted; // (severity, message) -> count, in message order
  for (const refine::Diagnostic &d : p.diagnostics) ++counted[{std::string(refine::name(d.severity)), d.message}];
  for (const auto &[key, n] : counted)
    fmt::print(stderr, "{}: {}: {}{}\n", file, key.first, key.second, n > 1 ? fmt::format(" (x{})", n) : "");
}

} // namespace dtf::cli
