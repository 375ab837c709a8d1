//===- frontends/text/printable.h - input text safe to show -----*- C++ -*-===//
//
// Text taken from an input file (a value name, a bad character, a type)
// can hold any bytes; shown in a message on a terminal, control bytes would
// move the cursor or change colours. printable() escapes them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <string_view>

namespace dtf::ir {

/// `s` with control characters (C0, DEL, C1) and bytes that are not UTF-8
/// written as `\xNN`; valid UTF-8 text passes unchanged. At most `limit`
/// input bytes are shown, then `...`.
std::string printable(std::string_view s, size_t limit = 200);

/// Is `s` valid UTF-8 (what JSON output needs)?
bool isUtf8(std::string_view s);

} // namespace dtf::ir
