#include "frontends/torch_mlir/mlir_lexer.h"

#include <cctype>

namespace dtf::torch_mlir {
namespace {

bool alpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool digit(char c) { return c >= '0' && c <= '9'; }
/// MLIR's suffix-id and bare-id characters (`%int-1`, `%arg0`, `torch.aten.add.Tensor`, `$` in names).
bool idChar(char c) { return alpha(c) || digit(c) || c == '$' || c == '.' || c == '-'; }
bool bareChar(char c) { return alpha(c) || digit(c) || c == '$' || c == '.'; }

} // namespace

void Lexer::advance(size_t n) {
  for (size_t i = 0; i < n && pos_ < src_.size(); ++i) {
    if (src_[pos_] == '\n') { ++line_; col_ = 1; }
    else ++col_;
    ++pos_;
  }
}

void Lexer::fail(const char *msg) const { throw ir::IRSyntaxError(line_, col_, msg); }

void Lexer::skipSpaceAndComments() {
  while (pos_ < src_.size()) {
    char c = peek();
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      advance();
    } else if (c == '/' && peek(1) == '/') {
      while (pos_ < src_.size() && peek() != '\n') advance();
    } else if (c == '{' && peek(1) == '-' && peek(2) == '#') {
      // `{-# dialect_resources: {...} #-}`: blobs of resource literals, not ops.
      size_t close = src_.find("#-}", pos_);
      if (close == std::string_view::npos) fail("unterminated '{-#' section");
      advance(close + 3 - pos_);
    } else {
      break;
    }
  }
}

Tok Lexer::next() {
  skipSpaceAndComments();
  Tok t;
  t.line = line_;
  t.col = col_;
  t.begin = pos_;
  if (pos_ >= src_.size()) {
    t.end = pos_;
    return t;
  }
  using K = Tok::Kind;
  char c = peek();
  auto finish = [&](K kind) {
    t.kind = kind;
    t.end = pos_;
    t.text = src_.substr(t.begin, t.end - t.begin);
    return t;
  };
  auto quoted = [&] { // a string at pos_, escapes kept
    advance();
    while (true) {
      char q = peek();
      if (pos_ >= src_.size() || q == '\n') fail("unterminated string");
      advance();
      if (q == '\\') advance();
      else if (q == '"') break;
    }
  };
  if (c == '%' || c == '@' || c == '^' || c == '!' || c == '#') {
    advance();
    if (c == '@' && peek() == '"') {
      quoted();
      return finish(K::Symbol);
    }
    size_t start = pos_;
    while (pos_ < src_.size() && idChar(peek())) advance();
    if (pos_ == start) fail(c == '%' ? "expected a value name after '%'" : "expected a name after the sigil");
    if (c == '%' && peek() == '#' && digit(peek(1))) { // `%0#1`: a result of a multi-result op
      advance();
      while (digit(peek())) advance();
    }
    return finish(c == '%' ? K::Value : c == '@' ? K::Symbol : c == '^' ? K::BlockLabel : c == '!' ? K::Bang : K::Hash);
  }
  if (c == '"') {
    quoted();
    return finish(K::String);
  }
  if (digit(c) || (c == '-' && digit(peek(1)))) {
    if (c == '-') advance();
    if (peek() == '0' && (peek(1) == 'x' || peek(1) == 'X')) {
      advance(2);
      while (std::isxdigit(static_cast<unsigned char>(peek()))) advance();
      return finish(K::Number);
    }
    while (digit(peek())) advance();
    if (peek() == '.') {
      advance();
      while (digit(peek())) advance();
    }
    if ((peek() == 'e' || peek() == 'E') && (digit(peek(1)) || ((peek(1) == '+' || peek(1) == '-') && digit(peek(2))))) {
      advance(2);
      while (digit(peek())) advance();
    }
    return finish(K::Number);
  }
  if (alpha(c)) {
    while (pos_ < src_.size() && bareChar(peek())) advance();
    return finish(K::Ident);
  }
  if (c == '-' && peek(1) == '>') {
    advance(2);
    return finish(K::Arrow);
  }
  switch (c) {
  case '(': case ')': case '[': case ']': case '{': case '}': case '<': case '>': case ',': case ':': case '=':
  case '*': case '?': case '+': case '-': case '|': case '.':
    t.punct = c;
    advance();
    return finish(K::Punct);
  default: break;
  }
  fail("unexpected character");
}

} // namespace dtf::torch_mlir
