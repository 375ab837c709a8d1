// Placeholder until the graph frontend lands: annotate/check report that
// they are not built in, rather than pretending.
#include "commands.h"
#include <fmt/format.h>
namespace dtf::cli {
Action addAnnotate(CLI::App &app) {
  app.add_subcommand("annotate", "(not yet available)");
  return [] { fmt::print(stderr, "annotate: not built yet\n"); return 2; };
}
Action addCheck(CLI::App &app) {
  app.add_subcommand("check", "(not yet available)");
  return [] { fmt::print(stderr, "check: not built yet\n"); return 2; };
}
} // namespace dtf::cli
