#include "archive_cli.h"

#include "frontends/text/printable.h"

#include <fmt/format.h>

#include <map>

namespace dtf::cli {

void printArchiveDiagnostics(const std::string &shown, const pt2::Program &p) {
  std::map<std::pair<std::string, std::string>, size_t> counted; // (severity, message) -> count, in message order
  for (const refine::Diagnostic &d : p.diagnostics) ++counted[{std::string(refine::name(d.severity)), d.message}];
  for (const auto &[key, n] : counted)
    fmt::print(stderr, "{}: {}: {}{}\n", shown, key.first, ir::printable(key.second, 2000),
               n > 1 ? fmt::format(" (x{})", n) : "");
}

} // namespace dtf::cli
