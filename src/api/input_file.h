//===- api/input_file.h - read an input, with reasons -*- C++ -*-===//
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace dtf::api {

/// Largest input read (a file, or stdin): 10^6-node graphs print to about
/// 100 MB; a larger input is refused rather than read into memory.
inline constexpr uint64_t kMaxInputBytes = uint64_t{512} << 20;

struct InputText {
  std::optional<std::string> text;
  std::string error; ///< when !text: why, as one line (`No such file or directory`)
};

/// The contents of `file` ("-": standard input), or why it cannot be read:
/// a missing file, a directory, no permission, an input over kMaxInputBytes.
InputText readInput(const std::string &file);

/// Why `file` cannot be read as a regular file ("" when it can).
std::string unreadable(const std::string &file);

/// `file` as shown in messages ("-" is "<stdin>"; control bytes escaped).
std::string shownName(const std::string &file);

} // namespace dtf::api
