#include "output.h"

#include "frontends/text/printable.h"

#include <cerrno>
#include <cstring>
#include <fmt/format.h>

namespace dtf::cli {

Output::~Output() {
  if (f_ && f_ != stdout) std::fclose(f_);
}

void Output::fail(int err) {
  std::string where = path_.empty() ? "the standard output" : "'" + ir::printable(path_) + "'";
  throw OutputError(fmt::format("cannot write {}: {}", where, std::strerror(err)));
}

void Output::write(std::string_view text) {
  if (!f_) {
    f_ = path_.empty() ? stdout : std::fopen(path_.c_str(), "wb");
    if (!f_) fail(errno);
  }
  if (std::fwrite(text.data(), 1, text.size(), f_) != text.size()) fail(errno ? errno : EIO);
}

void Output::finish() {
  if (!f_) write("");
  errno = 0;
  if (std::fflush(f_) != 0 || std::ferror(f_)) fail(errno ? errno : EIO);
  if (f_ != stdout) {
    FILE *f = f_;
    f_ = nullptr;
    if (std::fclose(f) != 0) fail(errno ? errno : EIO);
  }
}

std::string dumpJson(const nlohmann::json &j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string dumpJson(const nlohmann::ordered_json &j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

void finishStdout() {
  errno = 0;
  if (std::fflush(stdout) != 0 || std::ferror(stdout))
    throw OutputError(fmt::format("cannot write the standard output: {}", std::strerror(errno ? errno : EIO)));
}

void printSizesNote(const std::string &shown, const refine::CheckCounts &c, bool verbose) {
  if (verbose && c.sizesExact + c.sizesUnknown + c.sizesSymbolic > 0)
    fmt::print(stderr, "{}: note: sizes: {} exact, {}{} with a size unknown (of the values right in dtype and rank "
                       "whose sizes are recorded)\n",
               shown, c.sizesExact,
               c.sizesSymbolic ? fmt::format("{} symbolic (data-dependent sizes, right for the recorded run), ",
                                             c.sizesSymbolic)
                               : "",
               c.sizesUnknown);
}

} // namespace dtf::cli
