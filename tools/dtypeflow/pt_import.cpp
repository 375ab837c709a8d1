#include "pt_import.h"

#include <array>
#include <cstdio>
#include <filesystem>
#include <sys/wait.h>
#include <unistd.h>

namespace dtf::cli {
namespace {

std::string shellQuote(const std::string &s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string importerPath() {
  std::error_code ec;
  auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    auto sibling = self.parent_path() / "dtypeflow-pt-import";
    if (std::filesystem::exists(sibling, ec)) return sibling.string();
  }
  return "dtypeflow-pt-import"; // PATH
}

} // namespace

ImportResult importModule(const std::string &path) {
  ImportResult r;
  std::error_code ec;
  const auto fileStatus = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(fileStatus)) {
    r.error = ec ? ec.message() : "No such file or directory";
    return r;
  }
  if (std::filesystem::is_directory(fileStatus)) {
    r.error = "is a directory, not a file";
    return r;
  }
  std::string errFile = std::filesystem::temp_directory_path() / ("dtypeflow-import-" + std::to_string(getpid()));
  std::string cmd = shellQuote(importerPath()) + " " + shellQuote(path) + " 2>" + shellQuote(errFile);
  FILE *pipe = popen(cmd.c_str(), "r");
  if (!pipe) {
    r.error = "cannot start dtypeflow-pt-import";
    return r;
  }
  std::string out;
  std::array<char, 65536> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) out.append(buf.data(), n);
  int status = pclose(pipe);
  std::string err;
  if (FILE *e = fopen(errFile.c_str(), "r")) {
    while ((n = fread(buf.data(), 1, buf.size(), e)) > 0) err.append(buf.data(), n);
    fclose(e);
  }
  std::filesystem::remove(errFile);
  while (!err.empty() && err.back() == '\n') err.pop_back();
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    r.error = err.empty() ? "dtypeflow-pt-import failed (is it installed next to dtypeflow?)" : err;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
      r.error = "dtypeflow-pt-import not found (build with libtorch to read .pt files)";
    return r;
  }
  r.text = std::move(out);
  return r;
}

} // namespace dtf::cli
