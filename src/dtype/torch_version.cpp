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

std::string_view supportedTorchVersions() {
  static constexpr std::string_view kList = "" // "1.13, 2.14"
#define DTF_TORCH_VERSION(id, name, suite) name ", "
#include "dtype/torch_versions.def"
#undef DTF_TORCH_VERSION
      ;
  return kList.substr(0, kList.size() - 2);
}

} // namespace dtf
