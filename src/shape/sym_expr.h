//===- shape/sym_expr.h - integer expressions over size symbols -*- C++ -*-===//
//
// A tensor dim is a known int, an expression over size symbols (`s0`,
// `2*s0 + 1`, `(s0 - 1)//2 + 1`), or unknown. Expressions are kept in one
// canonical form so that two equal expressions print the same and compare
// equal by structure:
//   - a polynomial: a constant plus terms `coeff * m`, where a monomial `m`
//     is a sorted product of atoms (powers repeat the atom); no zero
//     coefficients; terms ordered by degree (highest first), then by text;
//   - atoms: symbols, and `//`, `Mod`, `Max`, `Min` of canonical operands
//     that no rule below could simplify (Max/Min operands sorted).
// Symbols carry a value range (torch.export's range_constraints, or >= 0 for
// any size): ranges decide `Max`/`Min`, whether a dim may be 1 (broadcasting)
// and when `//` by a constant vanishes. An expression owns its atoms through
// shared pointers, so it needs no table or context to live in.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dtf {

/// An inclusive integer range; `kInf` stands for no upper bound.
struct SymRange {
  static constexpr int64_t kInf = INT64_MAX, kNegInf = INT64_MIN;
  int64_t lo = 0, hi = kInf;
  bool operator==(const SymRange &) const = default;
  bool contains(int64_t v) const { return lo <= v && v <= hi; }
  std::optional<int64_t> only() const { return lo == hi ? std::optional<int64_t>(lo) : std::nullopt; }
};

struct SymAtom;

class SymExpr {
public:
  struct Term {
    std::vector<std::shared_ptr<const SymAtom>> factors; ///< sorted by text; powers repeat
    int64_t coeff = 0;
    bool operator==(const Term &o) const;
  };

  SymExpr() = default; ///< 0
  SymExpr(int64_t c) : c_(c) {}
  /// A size symbol with its range (default: any size, >= 0).
  static SymExpr symbol(std::string_view name, SymRange range = {});

  bool isConstant() const { return !terms_; }
  std::optional<int64_t> constant() const { return isConstant() ? std::optional<int64_t>(c_) : std::nullopt; }
  /// The values this expression can take, from its symbols' ranges
  /// (interval arithmetic: sound, not always tight).
  SymRange range() const;
  /// Canonical text: `2*s0 + 1`, `s0*s1 - 3`, `(s0 + 1)//2`, `Max(s0, s1)`.
  std::string str() const;
  size_t hash() const;

  friend SymExpr operator+(const SymExpr &a, const SymExpr &b);
  friend SymExpr operator-(const SymExpr &a, const SymExpr &b);
  friend SymExpr operator*(const SymExpr &a, const SymExpr &b);
  SymExpr operator-() const { return SymExpr(0) - *this; }
  /// Python's floor division and modulo; nullopt when `b` is the constant 0
  /// (PyTorch raises), or an overflow.
  static std::optional<SymExpr> floorDiv(const SymExpr &a, const SymExpr &b);
  static std::optional<SymExpr> mod(const SymExpr &a, const SymExpr &b);
  static SymExpr max(const SymExpr &a, const SymExpr &b);
  static SymExpr min(const SymExpr &a, const SymExpr &b);

  /// Structural equality of canonical forms: equal means equal for every
  /// assignment of the symbols (the converse holds for polynomials only).
  bool operator==(const SymExpr &o) const;
  /// Known to differ for every assignment (the difference's range excludes 0).
  bool provablyDifferent(const SymExpr &o) const;

  /// The names of the symbols this expression uses (sorted, once each).
  std::vector<std::string> symbols() const;
  /// This expression with symbols replaced by values (nullopt if one is missing).
  std::optional<int64_t> evaluate(const std::vector<std::pair<std::string, int64_t>> &values) const;

  const std::vector<Term> &terms() const;
  int64_t constantTerm() const { return c_; }
  /// `c` plus `terms`, brought to canonical form (sorted, like terms added).
  static SymExpr fromTerms(int64_t c, std::vector<Term> terms);

private:
  int64_t c_ = 0;
  std::shared_ptr<const std::vector<Term>> terms_; ///< null: a constant
};

/// An atom of an expression: a symbol or an operation no rule simplified.
struct SymAtom {
  enum class Op : uint8_t { Symbol, FloorDiv, Mod, Max, Min };
  Op op = Op::Symbol;
  std::string text;          ///< canonical text; atoms compare by it
  std::vector<SymExpr> args; ///< operands (none for a symbol)
  SymRange range;            ///< a symbol's declared range; an operation's computed one
};

/// Parses an expression as torch.export and sympy print them (`s0`,
/// `2*s0 + 1`, `(s0//2)`, `FloorDiv(s0, 2)`, `Mod(s0, 2)`, `Max(1, s0)`,
/// `-s0 + 4`, `s0**2`) and as dtypeflow prints them. `rangeOf` gives each
/// symbol's range. Throws std::invalid_argument naming the column on bad input.
SymExpr parseSymExpr(std::string_view text, const std::function<SymRange(std::string_view)> &rangeOf = {});

} // namespace dtf
