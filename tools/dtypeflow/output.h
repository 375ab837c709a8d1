//===- tools/dtypeflow/output.h - where results go, checked -------*- C++ -*-===//
#pragma once

#include "refine/check.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace dtf::cli {

/// A write that failed (a full disk, /dev/full, a closed pipe): exit 2 with
/// the reason. A result that was not written is never a success.
struct OutputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// stdout, or the file named by -o (created on the first write); every
/// write and the final flush are checked.
class Output {
public:
  explicit Output(std::string path) : path_(std::move(path)) {}
  ~Output();
  Output(const Output &) = delete;
  Output &operator=(const Output &) = delete;

  void write(std::string_view text);
  /// Flush and close, throwing OutputError on failure.
  void finish();
  bool toStdout() const { return path_.empty(); }
  /// Something was written (the file, with -o, exists).
  bool started() const { return f_ != nullptr; }

private:
  [[noreturn]] void fail(int err);
  std::string path_;
  FILE *f_ = nullptr;
};

/// JSON text with invalid UTF-8 (a value name or string of another
/// encoding in the input) replaced by U+FFFD: JSON holds only UTF-8.
std::string dumpJson(const nlohmann::json &j, int indent = -1);
std::string dumpJson(const nlohmann::ordered_json &j, int indent = -1);

/// Flush stdout and fail (OutputError) if any write to it failed: `dtypeflow
/// ... > /dev/full` must not exit 0.
void finishStdout();

/// `check -v`'s account of sizes, of the values right in dtype and rank whose
/// sizes are written (recorded): JSON `"sizes": {"exact", "unknown"}` and a
/// note on stderr; nothing where no value had sizes to compare.
void printSizesNote(const std::string &shown, const refine::CheckCounts &c, bool verbose);
template <class Json> void addSizesJson(Json &j, const refine::CheckCounts &c, bool verbose) {
  if (verbose && c.sizesExact + c.sizesUnknown + c.sizesSymbolic > 0)
    j["sizes"] = {{"exact", c.sizesExact}, {"unknown", c.sizesUnknown}, {"symbolic", c.sizesSymbolic}};
}

} // namespace dtf::cli
