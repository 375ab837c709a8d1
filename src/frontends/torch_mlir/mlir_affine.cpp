//===- frontends/torch_mlir/mlir_affine.cpp - affine maps as size expressions ===//
#include "frontends/torch_mlir/mlir_affine.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fmt/format.h>
#include <stdexcept>
#include <string>

namespace dtf::torch_mlir {
namespace {

/// An expression while reading: nullopt once it uses a dim (or overflowed),
/// which poisons every expression it is part of.
using Part = std::optional<SymExpr>;

class AffineParser {
public:
  AffineParser(std::string_view s, std::span<const SymExpr> symbols) : s_(s), symbols_(symbols) {}

  std::vector<Part> map() {
    skipSpace();
    if (s_.substr(pos_).starts_with("affine_map")) {
      pos_ += 10;
      expect('<');
    }
    idList('(', ')'); // dims
    if (peek() == '[') idList('[', ']'); // symbols (named by position, whatever they are called)
    expect('-');
    expect('>');
    expect('(');
    std::vector<Part> out;
    if (peek() != ')') {
      out.push_back(sum(0));
      while (peek() == ',') {
        ++pos_;
        out.push_back(sum(0));
      }
    }
    expect(')');
    return out;
  }

private:
  static constexpr int kMaxDepth = 200; // a hostile nesting cannot exhaust the stack

  [[noreturn]] void fail(const std::string &what) const {
    throw std::invalid_argument(fmt::format("affine map, offset {}: {}", pos_, what));
  }
  void skipSpace() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  char peek() {
    skipSpace();
    return pos_ < s_.size() ? s_[pos_] : '\0';
  }
  void expect(char c) {
    if (peek() != c) fail(fmt::format("expected '{}'", c));
    ++pos_;
  }
  std::string_view word() {
    skipSpace();
    size_t b = pos_;
    while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) ++pos_;
    return s_.substr(b, pos_ - b);
  }
  void idList(char open, char close) {
    expect(open);
    while (peek() != close) {
      if (word().empty()) fail("expected a dim or symbol name");
      if (peek() == ',') ++pos_;
      else if (peek() != close) fail(fmt::format("expected ',' or '{}'", close));
    }
    ++pos_;
  }
  /// Applies `f` to two parts, poisoning on a dim operand or an overflow.
  template <class F> static Part both(const Part &a, const Part &b, F f) {
    if (!a || !b) return std::nullopt;
    try {
      return f(*a, *b);
    } catch (const std::overflow_error &) {
      return std::nullopt;
    }
  }
  Part sum(int depth) {
    Part acc = product(depth);
    for (char c = peek(); c == '+' || c == '-'; c = peek()) {
      ++pos_;
      Part rhs = product(depth);
      acc = both(acc, rhs, [&](const SymExpr &x, const SymExpr &y) -> Part { return c == '+' ? x + y : x - y; });
    }
    return acc;
  }
  Part product(int depth) {
    Part acc = unary(depth);
    for (;;) {
      if (peek() == '*') {
        ++pos_;
        Part rhs = unary(depth);
        acc = both(acc, rhs, [](const SymExpr &x, const SymExpr &y) -> Part { return x * y; });
        continue;
      }
      size_t save = pos_;
      std::string_view op = word();
      if (op == "floordiv" || op == "mod" || op == "ceildiv") {
        Part rhs = unary(depth);
        acc = both(acc, rhs, [&](const SymExpr &x, const SymExpr &y) -> Part {
          if (op == "floordiv") return SymExpr::floorDiv(x, y);
          if (op == "mod") return SymExpr::mod(x, y);
          auto q = SymExpr::floorDiv(-x, y); // ceil(x / y) = -floor(-x / y)
          return q ? Part(-*q) : std::nullopt;
        });
        continue;
      }
      pos_ = save;
      return acc;
    }
  }
  Part unary(int depth) {
    if (depth > kMaxDepth) fail("nested too deeply");
    char c = peek();
    if (c == '-') {
      ++pos_;
      Part p = unary(depth + 1);
      return both(p, SymExpr(0), [](const SymExpr &x, const SymExpr &) -> Part { return -x; });
    }
    if (c == '(') {
      ++pos_;
      Part p = sum(depth + 1);
      expect(')');
      return p;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      int64_t v = 0;
      auto [end, ec] = std::from_chars(s_.data() + pos_, s_.data() + s_.size(), v);
      if (ec != std::errc()) fail("number too large");
      pos_ = static_cast<size_t>(end - s_.data());
      return SymExpr(v);
    }
    std::string_view w = word();
    if (w.size() >= 2 && (w[0] == 's' || w[0] == 'd')) {
      size_t k = 0;
      auto [end, ec] = std::from_chars(w.data() + 1, w.data() + w.size(), k);
      if (ec == std::errc() && end == w.data() + w.size()) {
        if (w[0] == 'd') return std::nullopt; // a dim: not a function of the bound symbols
        if (k >= symbols_.size()) fail(fmt::format("{} names no bound symbol ({} bound)", w, symbols_.size()));
        return symbols_[k];
      }
    }
    fail(w.empty() ? std::string("expected an expression") : fmt::format("unexpected '{}'", w));
  }

  std::string_view s_;
  std::span<const SymExpr> symbols_;
  size_t pos_ = 0;
};

} // namespace

std::vector<std::optional<SymExpr>> affineMapResults(std::string_view text, std::span<const SymExpr> symbols) {
  return AffineParser(text, symbols).map();
}

std::optional<std::string> affineText(const SymExpr &e, const std::map<std::string, size_t> &index) {
  std::string out;
  for (const SymExpr::Term &t : e.terms()) {
    if (t.coeff == INT64_MIN) return std::nullopt;
    std::string term = t.coeff == 1 || t.coeff == -1 ? "" : std::to_string(t.coeff < 0 ? -t.coeff : t.coeff);
    for (const auto &atom : t.factors) {
      std::optional<std::string> f;
      if (auto it = index.find(atom->text); atom->op == SymAtom::Op::Symbol && it != index.end())
        f = fmt::format("s{}", it->second);
      if (atom->op == SymAtom::Op::FloorDiv || atom->op == SymAtom::Op::Mod) {
        auto a = affineText(atom->args[0], index), b = affineText(atom->args[1], index);
        if (a && b) // operands in parentheses: floordiv and mod bind as tightly as `*`
          f = fmt::format("(({}) {} ({}))", *a, atom->op == SymAtom::Op::Mod ? "mod" : "floordiv", *b);
      }
      if (!f) return std::nullopt;
      term += (term.empty() ? "" : " * ") + *f;
    }
    out += out.empty() ? (t.coeff < 0 ? "-" : "") + term : (t.coeff < 0 ? " - " : " + ") + term;
  }
  int64_t c = e.constantTerm();
  if (c == INT64_MIN) return std::nullopt;
  if (out.empty()) return std::to_string(c);
  if (c) out += fmt::format(" {} {}", c < 0 ? "-" : "+", c < 0 ? -c : c);
  return out;
}

std::optional<AffineBinding> affineBinding(const Dims &sizes) {
  if (std::none_of(sizes.begin(), sizes.end(), [](const Dim &d) { return d.known() && !d.value(); }))
    return std::nullopt;
  std::map<std::string, size_t> index;
  for (const Dim &d : sizes) {
    if (!d.known()) return std::nullopt; // a map states every size
    for (const std::string &sym : d.expr()->symbols()) index.emplace(sym, 0);
  }
  AffineBinding b;
  std::string syms, results;
  for (auto &[sym, i] : index) {
    i = b.symbols.size();
    syms += fmt::format("{}s{}", i ? ", " : "", i);
    b.symbols.push_back(sym);
  }
  for (const Dim &d : sizes) {
    auto text = affineText(*d.expr(), index);
    if (!text) return std::nullopt;
    results += (results.empty() ? "" : ", ") + *text;
  }
  b.map = fmt::format("affine_map<()[{}] -> ({})>", syms, results);
  return b;
}

} // namespace dtf::torch_mlir
