//===- frontends/text/ir_lexer.h - tokens of TorchScript IR text -*- C++ -*-===//
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace dtf::ir {

/// A malformed input, at a 1-based line and column.
struct IRSyntaxError : std::runtime_error {
  IRSyntaxError(uint32_t line, uint32_t col, const std::string &msg)
      : std::runtime_error(msg), line(line), col(col) {}
  uint32_t line, col;
};

struct Token {
  enum class Kind : uint8_t { End, ValueName, Ident, Number, String, Punct, Arrow };
  Kind kind = Kind::End;
  std::string_view text; ///< for ValueName without the '%'; for String with quotes
  char punct = 0;
  uint32_t line = 0, col = 0;
  size_t begin = 0, end = 0; ///< offsets in the source
};

/// Splits the source into tokens; `#` comments are skipped.
class Lexer {
public:
  explicit Lexer(std::string_view src) : src_(src) {}
  Token next();
  /// Drop the rest of the current line unread (`, scope: a/b.c # file.py:1:0`
  /// suffixes that torch prints after a node hold arbitrary text).
  /// If the text from offset `from` (the start of the current token) is a
  /// printed multi-element tensor (` 1  2  3 [ CPUFloatType{3} ]`, possibly
  /// over several lines), move past it and return its c10 type name
  /// (`Float`); otherwise change nothing and return an empty view.
  std::string_view skipTensorDump(size_t from);
  /// The source offset the lexer has read up to (past the current token, or
  /// past what skipTensorDump skipped).
  size_t offset() const { return pos_; }
  void skipRestOfLine() {
    size_t from = pos_;
    while (pos_ < src_.size() && src_[pos_] != '\n') advance();
    // `, scope: a/b.c # model.py:1:0`: the source comment is in what was skipped.
    std::string_view rest = src_.substr(from, pos_ - from);
    if (size_t hash = rest.find(" #"); hash != std::string_view::npos) {
      lastComment_ = rest.substr(hash + 2);
      lastCommentLine_ = line_;
    }
  }
  /// The text of the `#` comment that ends line `line` (after the '#',
  /// trimmed), if the lexer has just skipped one there; else empty.
  std::string_view commentEndingLine(uint32_t line) const;
  /// Just after a '(' token: drop raw text up to its matching ')' on the
  /// same line, quotes respected. A Python op's scalar arguments are printed
  /// as Python reprs (`^Fn(2.0, <object at 0x..>)(%x)`), which no grammar
  /// covers. Fails naming the line when the ')' is missing.
  void skipRawParenthesised();

private:
  void skipSpaceAndComments();
  char peek(size_t ahead = 0) const { return pos_ + ahead < src_.size() ? src_[pos_ + ahead] : '\0'; }
  void advance(size_t n = 1);
  [[noreturn]] void fail(const std::string &msg) const;

  std::string_view src_;
  size_t pos_ = 0;
  uint32_t line_ = 1, col_ = 1;
  std::string_view lastComment_; ///< the last `#` comment skipped (without '#')
  uint32_t lastCommentLine_ = 0;
};

/// The contents of a quoted string token, with escapes resolved.
std::string unquote(std::string_view quoted);

} // namespace dtf::ir
