#include "api/input_file.h"

#include "frontends/text/printable.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

namespace dtf::api {
namespace {

std::string tooLarge() {
  return fmt::format("larger than {} MiB: refused (the limit keeps a huge input from exhausting memory)",
                     kMaxInputBytes >> 20);
}

/// Reads `f` to its end, up to one byte past the limit (to tell it was exceeded).
/// `sizeHint`: a regular file's size, read straight into a buffer of that size
/// (a 50 MB IR file grown 64 KiB at a time was copied and faulted in twice over).
InputText readStream(FILE *f, size_t sizeHint = 0) {
  InputText r;
  std::string text;
  if (sizeHint) {
    text.resize(sizeHint);
    text.resize(std::fread(text.data(), 1, sizeHint, f)); // the file may have shrunk meanwhile
  }
  char buf[1 << 16];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) { // the rest: a pipe, or a file that grew
    text.append(buf, n);
    if (text.size() > kMaxInputBytes) {
      r.error = tooLarge();
      return r;
    }
  }
  if (std::ferror(f)) {
    r.error = std::strerror(errno);
    return r;
  }
  r.text = std::move(text);
  return r;
}

} // namespace

InputText readInput(const std::string &file) {
  if (file == "-") return readStream(stdin);
  InputText r;
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0) {
    r.error = std::strerror(errno);
    return r;
  }
  if (S_ISDIR(st.st_mode)) {
    r.error = "is a directory, not a file";
    return r;
  }
  if (S_ISREG(st.st_mode) && static_cast<uint64_t>(st.st_size) > kMaxInputBytes) {
    r.error = tooLarge();
    return r;
  }
  FILE *f = std::fopen(file.c_str(), "rb");
  if (!f) {
    r.error = std::strerror(errno);
    return r;
  }
  r = readStream(f, S_ISREG(st.st_mode) ? static_cast<size_t>(st.st_size) : 0);
  std::fclose(f);
  return r;
}

std::string unreadable(const std::string &file) {
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0) return std::strerror(errno);
  if (S_ISDIR(st.st_mode)) return "is a directory, not a file";
  if (::access(file.c_str(), R_OK) != 0) return std::strerror(errno);
  return "";
}

std::string shownName(const std::string &file) { return file == "-" ? "<stdin>" : ir::printable(file); }

} // namespace dtf::api
