#include "frontends/torch_mlir/mlir_lexer.h"

#include <array>
#include <cstring>

namespace dtf::torch_mlir {
namespace {

// Character classes by table: the lexer looks at every byte of a module, and
// <cctype>'s calls (locale-aware, out of line) were a tenth of reading one.
enum : uint8_t { kAlpha = 1, kDigit = 2, kId = 4, kBare = 8, kHex = 16, kBlank = 32 };
constexpr std::array<uint8_t, 256> makeClasses() {
  std::array<uint8_t, 256> t{};
  for (int c = 0; c < 256; ++c) {
    bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    bool digit = c >= '0' && c <= '9';
    bool hex = digit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    // MLIR's suffix-id and bare-id characters (`%int-1`, `%arg0`, `torch.aten.add.Tensor`, `$` in names).
    bool bare = alpha || digit || c == '$' || c == '.';
    bool id = bare || c == '-';
    bool blank = c == ' ' || c == '\t' || c == '\r' || c == '\n';
    t[c] = (alpha ? kAlpha : 0) | (digit ? kDigit : 0) | (id ? kId : 0) | (bare ? kBare : 0) | (hex ? kHex : 0) |
           (blank ? kBlank : 0);
  }
  return t;
}
constexpr std::array<uint8_t, 256> kClasses = makeClasses();
bool is(char c, uint8_t cls) { return kClasses[static_cast<unsigned char>(c)] & cls; }

} // namespace

void Lexer::advance(size_t n) {
  // Only strings, comments and `{-#` sections can hold a newline where advance is used.
  size_t end = std::min(src_.size(), pos_ + n);
  for (; pos_ < end; ++pos_)
    if (src_[pos_] == '\n') {
      ++line_;
      lineStart_ = pos_ + 1;
    }
}

void Lexer::fail(const char *msg) const { throw ir::IRSyntaxError(line_, col(), msg); }

bool Lexer::skipCommentOrResources() {
  const size_t n = src_.size();
  const char *s = src_.data();
  size_t p = pos_;
  if (p + 1 < n && s[p] == '/' && s[p + 1] == '/') {
    const void *nl = std::memchr(s + p, '\n', n - p);
    pos_ = nl ? static_cast<size_t>(static_cast<const char *>(nl) - s) : n;
    return true;
  }
  if (p + 2 < n && s[p] == '{' && s[p + 1] == '-' && s[p + 2] == '#') {
    // `{-# dialect_resources: {...} #-}`: blobs of resource literals, not ops.
    size_t close = src_.find("#-}", p);
    if (close == std::string_view::npos) fail("unterminated '{-#' section");
    advance(close + 3 - p);
    return true;
  }
  return false;
}

void Lexer::skipSpaceAndComments() {
  const size_t n = src_.size();
  const char *s = src_.data();
  do {
    size_t p = pos_;
    for (; p < n && is(s[p], kBlank); ++p)
      if (s[p] == '\n') {
        ++line_;
        lineStart_ = p + 1;
      }
    pos_ = p;
  } while (pos_ < n && (s[pos_] == '/' || s[pos_] == '{') && skipCommentOrResources());
}

Tok Lexer::next() {
  skipSpaceAndComments();
  Tok t;
  t.line = line_;
  t.col = col();
  t.begin = pos_;
  const size_t n = src_.size();
  if (pos_ >= n) {
    t.end = pos_;
    return t;
  }
  using K = Tok::Kind;
  const char *s = src_.data();
  char c = s[pos_];
  auto finish = [&](K kind) {
    t.kind = kind;
    t.end = pos_;
    t.text = src_.substr(t.begin, t.end - t.begin);
    return t;
  };
  auto skipWhile = [&](uint8_t cls) {
    size_t p = pos_;
    while (p < n && is(s[p], cls)) ++p;
    pos_ = p;
  };
  auto quoted = [&] { // a string at pos_, escapes kept
    ++pos_;
    while (true) {
      if (pos_ >= n || s[pos_] == '\n') fail("unterminated string");
      char q = s[pos_++];
      if (q == '\\') {
        if (pos_ < n && s[pos_] == '\n') advance(); // an escaped newline still counts as a line
        else if (pos_ < n) ++pos_;
      } else if (q == '"') {
        break;
      }
    }
  };
  if (c == '%' || c == '@' || c == '^' || c == '!' || c == '#') {
    ++pos_;
    if (c == '@' && peek() == '"') {
      quoted();
      return finish(K::Symbol);
    }
    size_t start = pos_;
    skipWhile(kId);
    if (pos_ == start) fail(c == '%' ? "expected a value name after '%'" : "expected a name after the sigil");
    if (c == '%' && peek() == '#' && is(peek(1), kDigit)) { // `%0#1`: a result of a multi-result op
      ++pos_;
      skipWhile(kDigit);
    }
    return finish(c == '%' ? K::Value : c == '@' ? K::Symbol : c == '^' ? K::BlockLabel : c == '!' ? K::Bang : K::Hash);
  }
  if (c == '"') {
    quoted();
    return finish(K::String);
  }
  if (is(c, kDigit) || (c == '-' && is(peek(1), kDigit))) {
    if (c == '-') ++pos_;
    if (peek() == '0' && (peek(1) == 'x' || peek(1) == 'X')) {
      pos_ += 2;
      skipWhile(kHex);
      return finish(K::Number);
    }
    skipWhile(kDigit);
    if (peek() == '.') {
      ++pos_;
      skipWhile(kDigit);
    }
    if ((peek() == 'e' || peek() == 'E') &&
        (is(peek(1), kDigit) || ((peek(1) == '+' || peek(1) == '-') && is(peek(2), kDigit)))) {
      pos_ += 2;
      skipWhile(kDigit);
    }
    return finish(K::Number);
  }
  if (is(c, kAlpha)) {
    skipWhile(kBare);
    return finish(K::Ident);
  }
  if (c == '-' && peek(1) == '>') {
    pos_ += 2;
    return finish(K::Arrow);
  }
  switch (c) {
  case '(': case ')': case '[': case ']': case '{': case '}': case '<': case '>': case ',': case ':': case '=':
  case '*': case '?': case '+': case '-': case '|': case '.':
    t.punct = c;
    ++pos_;
    return finish(K::Punct);
  default: break;
  }
  fail("unexpected character");
}

std::optional<Tok> Lexer::skipBalanced(char open) {
  const size_t n = src_.size(), start = pos_, startLine = lineStart_;
  const uint32_t line0 = line_;
  auto giveUp = [&]() -> std::optional<Tok> {
    pos_ = start, lineStart_ = startLine, line_ = line0;
    return std::nullopt;
  };
  auto closerOf = [](char c) { return c == '(' ? ')' : c == '[' ? ']' : c == '{' ? '}' : '>'; };
  char closers[64];
  int depth = 0;
  closers[depth++] = closerOf(open);
  const char *s = src_.data();
  while (pos_ < n) {
    char c = s[pos_];
    if (c == '\n') {
      ++line_;
      lineStart_ = ++pos_;
    } else if (is(c, kBare) || c == ' ' || c == '\t' || c == '\r' || c == ',' || c == ':' || c == '?' || c == '*' ||
               c == '=') {
      ++pos_;
    } else if (c == '-') { // `->`, or a negative number; anything else is the tokens' to judge
      if (pos_ + 1 < n && s[pos_ + 1] == '>') pos_ += 2;
      else if (pos_ + 1 < n && is(s[pos_ + 1], kDigit)) ++pos_;
      else return giveUp();
    } else if (c == '!' || c == '#' || c == '%') { // a sigil starts a name
      if (pos_ + 1 >= n || !is(s[pos_ + 1], kId)) return giveUp();
      ++pos_;
    } else if (c == '"') {
      for (++pos_;; ++pos_) {
        if (pos_ >= n || s[pos_] == '\n' || s[pos_] == '\\') return giveUp();
        if (s[pos_] == '"') break;
      }
      ++pos_;
    } else if (c == '(' || c == '[' || c == '<' || (c == '{' && !(pos_ + 1 < n && s[pos_ + 1] == '-'))) {
      if (depth == 64) return giveUp();
      closers[depth++] = closerOf(c);
      ++pos_;
    } else if (c == ')' || c == ']' || c == '>' || c == '}') {
      if (closers[depth - 1] != c) return giveUp(); // the tokens name the mismatch
      Tok t;
      t.kind = Tok::Kind::Punct;
      t.punct = c;
      t.line = line_;
      t.col = col();
      t.begin = pos_++;
      t.end = pos_;
      t.text = src_.substr(t.begin, 1);
      if (--depth == 0) return t;
    } else {
      return giveUp();
    }
  }
  return giveUp(); // never closed: the tokens say where it opened
}

} // namespace dtf::torch_mlir
