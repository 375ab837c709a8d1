#include "frontends/text/ir_lexer.h"
#include "frontends/text/printable.h"

#include <cctype>
#include <fmt/format.h>

namespace dtf::ir {
namespace {

bool identStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
/// A value's debug name is printed unescaped and may hold any character
/// (module names like regnet's `block1-0` become `%trunk.block1-0.weight`):
/// it runs to whitespace or punctuation that follows a name in the printer's
/// output (`%x : T`, `(%a, %b)`, `%x = ...`).
constexpr bool valueNameChar(char c) {
  if (static_cast<unsigned char>(c) <= ' ') return false;
  switch (c) {
  case ',': case '(': case ')': case '[': case ']': case '{': case '}': case ':': case '=': case '"': case '\'':
    return false;
  default: return true;
  }
}
bool digit(char c) { return c >= '0' && c <= '9'; }

/// The classes above as a table (a 10^6-node file is ~50 MB of them).
struct CharTable {
  bool valueName[256], ident[256];
  constexpr CharTable() : valueName(), ident() {
    for (int c = 0; c < 256; ++c) {
      valueName[c] = valueNameChar(static_cast<char>(c));
      ident[c] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
    }
  }
};
constexpr CharTable kChars;

} // namespace



void Lexer::advance(size_t n) {
  for (size_t i = 0; i < n && pos_ < src_.size(); ++i) {
    if (src_[pos_] == '\n') { ++line_; col_ = 1; }
    else ++col_;
    ++pos_;
  }
}

std::string_view Lexer::skipTensorDump(size_t from) {
  size_t type = src_.find("Type{", from);
  if (type == std::string_view::npos) return {};
  size_t close = src_.find("} ]", type);
  size_t open = src_.rfind("[ ", type);
  if (close == std::string_view::npos || open == std::string_view::npos || open < from) return {};
  std::string_view body = src_.substr(from, open - from);
  // Still inside this constant: no value names, operators or attribute ends.
  if (body.find_first_of("%[]\"<>{}") != std::string_view::npos || body.find("::") != std::string_view::npos)
    return {};
  std::string_view name = src_.substr(open + 2, type - open - 2); // `CPUFloat`, `Variable[CPUFloat`
  if (size_t cpu = name.rfind("CPU"); cpu != std::string_view::npos) name.remove_prefix(cpu + 3);
  size_t end = close + 3;
  if (end > pos_) advance(end - pos_);
  return name;
}

void Lexer::skipRawParenthesised() {
  int depth = 1;
  char quote = 0;
  uint32_t line = line_, col = col_ - 1; // the '(' just read
  while (depth > 0) {
    char c = peek();
    if (c == '\0' || c == '\n') throw IRSyntaxError(line, col, "unterminated '(' in a Python op's arguments");
    if (quote) {
      if (c == '\\') advance();
      else if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '(') {
      ++depth;
    } else if (c == ')') {
      --depth;
    }
    advance();
  }
}

void Lexer::fail(const std::string &msg) const { throw IRSyntaxError(line_, col_, msg); }

std::string_view Lexer::commentEndingLine(uint32_t line) const {
  if (lastCommentLine_ != line) return {};
  std::string_view c = lastComment_;
  while (!c.empty() && (c.front() == ' ' || c.front() == '\t')) c.remove_prefix(1);
  while (!c.empty() && (c.back() == ' ' || c.back() == '\t' || c.back() == '\r')) c.remove_suffix(1);
  return c;
}

void Lexer::skipSpaceAndComments() {
  while (pos_ < src_.size()) {
    char c = src_[pos_];
    if (c == '#') {
      size_t from = pos_ + 1;
      while (pos_ < src_.size() && src_[pos_] != '\n') advance();
      lastComment_ = src_.substr(from, pos_ - from);
      lastCommentLine_ = line_;
    } else if (c == ' ') { // most of the text between tokens
      ++pos_;
      ++col_;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      advance();
    } else {
      return;
    }
  }
}

Token Lexer::next() {
  skipSpaceAndComments();
  Token t;
  t.line = line_;
  t.col = col_;
  t.begin = pos_;
  auto finish = [&](Token::Kind k, size_t from) {
    t.kind = k;
    t.text = src_.substr(from, pos_ - from);
    t.end = pos_;
    return t;
  };
  if (pos_ >= src_.size()) { t.end = pos_; return t; }
  // Move past the characters `table` marks (none is a newline, so the
  // column moves with the offset); how many.
  auto scanSameLine = [&](const bool *table) {
    size_t e = pos_;
    while (e < src_.size() && table[static_cast<unsigned char>(src_[e])]) ++e;
    const size_t n = e - pos_;
    col_ += static_cast<uint32_t>(n);
    pos_ = e;
    return n;
  };
  char c = peek();
  if (c == '%') {
    advance();
    size_t from = pos_;
    if (scanSameLine(kChars.valueName) == 0) fail("expected a value name after '%'");
    return finish(Token::Kind::ValueName, from);
  }
  if (identStart(c) || (c == '^' && identStart(peek(1)))) { // `^Name`: a Python op
    size_t from = pos_;
    if (c == '^') advance();
    while (true) {
      scanSameLine(kChars.ident);
      if (peek() == ':' && peek(1) == ':' && identStart(peek(2))) advance(2);
      else break;
    }
    return finish(Token::Kind::Ident, from);
  }
  // `-inf` and `-nan` (x86 prints inf - inf as a negative NaN) are numbers.
  bool negInfOrNan = c == '-' && ((peek(1) == 'i' && peek(2) == 'n' && peek(3) == 'f') ||
                                  (peek(1) == 'n' && peek(2) == 'a' && peek(3) == 'n'));
  if (digit(c) || (c == '-' && digit(peek(1))) || negInfOrNan) {
    size_t from = pos_;
    if (c == '-') advance();
    if (negInfOrNan) { advance(3); return finish(Token::Kind::Number, from); }
    while (digit(peek())) advance();
    if (peek() == '.') { advance(); while (digit(peek())) advance(); }
    if ((peek() == 'e' || peek() == 'E') &&
        (digit(peek(1)) || ((peek(1) == '-' || peek(1) == '+') && digit(peek(2))))) {
      advance(2);
      while (digit(peek())) advance();
    }
    if (peek() == 'j') {
      advance(); // imaginary literal `1j`
    } else if ((peek() == '+' || peek() == '-') && (digit(peek(1)) || peek(1) == '.')) {
      // A complex literal as torch prints it: `0.+1.j`, `1.5-2e-3j` (one line, no spaces).
      size_t k = 1;
      while (digit(peek(k))) ++k;
      if (peek(k) == '.') for (++k; digit(peek(k));) ++k;
      if ((peek(k) == 'e' || peek(k) == 'E') && (peek(k + 1) == '-' || peek(k + 1) == '+' || digit(peek(k + 1))))
        for (k += 2; digit(peek(k));) ++k;
      if (peek(k) == 'j') advance(k + 1);
    }
    return finish(Token::Kind::Number, from);
  }
  if (c == '"' || c == '\'') {
    size_t from = pos_;
    advance();
    while (true) {
      if (pos_ >= src_.size() || peek() == '\n') throw IRSyntaxError(t.line, t.col, "unterminated string literal");
      if (peek() == '\\') { advance(2); continue; }
      if (peek() == c) { advance(); break; }
      advance();
    }
    return finish(Token::Kind::String, from);
  }
  if (c == '-' && peek(1) == '>') {
    size_t from = pos_;
    advance(2);
    return finish(Token::Kind::Arrow, from);
  }
  static constexpr std::string_view kPunct = "()[]{},:=?*<>|";
  if (kPunct.find(c) != std::string_view::npos) {
    size_t from = pos_;
    advance();
    t.punct = c;
    return finish(Token::Kind::Punct, from);
  }
  fail(fmt::format("unexpected character '{}'", printable(src_.substr(pos_, 1))));
}

std::string unquote(std::string_view q) {
  std::string out;
  if (q.size() < 2) return out;
  for (size_t i = 1; i + 1 < q.size(); ++i) {
    char c = q[i];
    if (c != '\\' || i + 2 >= q.size()) { out += c; continue; }
    char e = q[++i];
    switch (e) {
    case 'n': out += '\n'; break;
    case 't': out += '\t'; break;
    case 'r': out += '\r'; break;
    default: out += e; break;
    }
  }
  return out;
}

} // namespace dtf::ir
