#include "frontends/torchscript/torchvision_ops.h"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <vector>

namespace dtf::torchscript {
namespace {

std::string findAndLoad() {
  std::vector<std::filesystem::path> candidates;
  if (const char *env = std::getenv("DTF_TORCHVISION_LIB")) candidates.emplace_back(env);
  std::error_code ec;
  for (const auto &e : std::filesystem::directory_iterator("/usr/lib/python3/dist-packages/torchvision", ec)) {
    std::string name = e.path().filename().string();
    if (name.starts_with("_C") && name.ends_with(".so")) candidates.push_back(e.path());
  }
  for (const auto &p : candidates)
    if (dlopen(p.c_str(), RTLD_NOW | RTLD_GLOBAL)) return p.string(); // kept loaded: the ops stay registered
  return {};
}

} // namespace

const std::string &loadTorchvisionOps() {
  static const std::string loaded = findAndLoad();
  return loaded;
}

} // namespace dtf::torchscript
