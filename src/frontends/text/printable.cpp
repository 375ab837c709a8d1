#include "frontends/text/printable.h"

#include <fmt/format.h>

namespace dtf::ir {
namespace {

/// Length of the UTF-8 sequence starting at s[i] (1-4), or 0 when invalid.
size_t utf8Length(std::string_view s, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = byte(i);
  if (c < 0x80) return 1;
  size_t n = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c <= 0xDF ? 2 : 0;
  if (n == 0 || c > 0xF4 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  unsigned char c1 = byte(i + 1);
  if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 >= 0xA0) || (c == 0xF0 && c1 < 0x90) || (c == 0xF4 && c1 >= 0x90))
    return 0; // overlong, surrogate or beyond U+10FFFF
  return n;
}

} // namespace

std::string printable(std::string_view s, size_t limit) {
  std::string out;
  size_t i = 0;
  for (; i < s.size() && i < limit;) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t n = utf8Length(s, i);
    bool control = c < 0x20 || c == 0x7F || (n == 2 && c == 0xC2 && static_cast<unsigned char>(s[i + 1]) < 0xA0);
    if (n == 0 || control) {
      for (size_t k = 0; k < std::max<size_t>(n, 1); ++k)
        out += fmt::format("\\x{:02x}", static_cast<unsigned char>(s[i + k]));
      i += std::max<size_t>(n, 1);
      continue;
    }
    out.append(s.substr(i, n));
    i += n;
  }
  if (i < s.size()) out += "...";
  return out;
}

bool isUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    size_t n = utf8Length(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

} // namespace dtf::ir
