#include "dtype/torch_version.h"

namespace dtf {

std::optional<TorchVersion> parseTorchVersion(std::string_view text) {
  for (TorchVersion v : kTorchVersions) {
    std::string_view n = name(v);
    if (!text.starts_with(n)) continue;
    std::string_view rest = text.substr(n.size());
    // "2.14", "2.14.1", "2.14.1+debian", "1.13.0a0"; not "2.140"
    if (rest.empty() || rest[0] == '.' || rest[0] == '+') return v;
  }
  return std::nullopt;
}

std::string_view supportedTorchVersions() { return "1.13, 2.14"; }

} // namespace dtf
