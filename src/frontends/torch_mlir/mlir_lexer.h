//===- frontends/torch_mlir/mlir_lexer.h - tokens of MLIR text --*- C++ -*-===//
//
// The tokens of MLIR's textual form as torch-mlir prints it (pretty and
// generic): `%0`, `%1#2`, `@f`, `^bb0`, `!torch.vtensor`, `#loc1`, bare
// identifiers (`torch.aten.add.Tensor`, `f32`, `dense`), numbers, strings,
// punctuation and `->`. `//` comments (and `// -----` split markers) are
// skipped; errors carry line and column (ir::IRSyntaxError).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "frontends/text/ir_lexer.h" // IRSyntaxError

#include <cstdint>
#include <optional>
#include <string_view>

namespace dtf::torch_mlir {

struct Tok {
  enum class Kind : uint8_t { End, Value, Symbol, BlockLabel, Bang, Hash, Ident, Number, String, Punct, Arrow };
  Kind kind = Kind::End;
  std::string_view text; ///< as written, with its sigil (`%0`, `@f`, `!torch.int`), strings with quotes
  char punct = 0;
  uint32_t line = 0, col = 0;
  size_t begin = 0, end = 0; ///< offsets in the source
};

class Lexer {
public:
  explicit Lexer(std::string_view src) : src_(src) {}
  Tok next();
  /// Just after an opening bracket (the last token read): past its balanced
  /// closer, as reading the tokens one by one would go, returning the
  /// closer's token. A byte scan: a type's `<[1,64,112,112],f32>` is a dozen
  /// tokens. Nothing is consumed and nullopt returned where the scan does not
  /// judge the text (a comment, a character outside types' and attributes'
  /// usual ones, a mismatched bracket, deep nesting): the caller reads tokens.
  std::optional<Tok> skipBalanced(char open);

private:
  void skipSpaceAndComments();
  /// A comment or `{-# ... #-}` at pos_: skipped (true), else false. Kept out of the hot loop.
  [[gnu::noinline]] bool skipCommentOrResources();
  char peek(size_t ahead = 0) const { return pos_ + ahead < src_.size() ? src_[pos_ + ahead] : '\0'; }
  void advance(size_t n = 1);
  /// The column of pos_ (1-based, in bytes).
  uint32_t col() const { return static_cast<uint32_t>(pos_ - lineStart_ + 1); }
  [[noreturn]] void fail(const char *msg) const;

  std::string_view src_;
  size_t pos_ = 0, lineStart_ = 0;
  uint32_t line_ = 1;
};

} // namespace dtf::torch_mlir
