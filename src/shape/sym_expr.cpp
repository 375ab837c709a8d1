#include "shape/sym_expr.h"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>
#include <stdexcept>

namespace dtf {
namespace {

using AtomPtr = std::shared_ptr<const SymAtom>;
using Term = SymExpr::Term;

int64_t checkedAdd(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) throw std::overflow_error("size expression overflows int64");
  return r;
}
int64_t checkedMul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) throw std::overflow_error("size expression overflows int64");
  return r;
}
/// Python's `//` and `%` on ints (b != 0).
int64_t pyFloorDiv(int64_t a, int64_t b) {
  if (a == INT64_MIN && b == -1) throw std::overflow_error("size expression overflows int64");
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
int64_t pyMod(int64_t a, int64_t b) { return b == -1 ? 0 : a - pyFloorDiv(a, b) * b; }

// Interval bounds as 128-bit ints; +-kBig stands for an infinite bound.
using Wide = __int128;
constexpr Wide kBig = Wide{1} << 100;
Wide widen(int64_t v) { return v == SymRange::kInf ? kBig : v == SymRange::kNegInf ? -kBig : Wide{v}; }
int64_t narrow(Wide v) {
  if (v >= kBig || v > Wide{INT64_MAX - 1}) return SymRange::kInf;
  if (v <= -kBig || v < Wide{INT64_MIN + 1}) return SymRange::kNegInf;
  return static_cast<int64_t>(v);
}
Wide satMul(Wide a, Wide b) {
  // No 128-bit division: a multiply with an overflow flag (sizes' ranges are
  // computed for every symbolic dim a rule builds).
  Wide r;
  if (__builtin_mul_overflow(a, b, &r) || r > kBig || r < -kBig) return (a < 0) != (b < 0) ? -kBig : kBig;
  return r;
}
struct Interval {
  Wide lo, hi;
  static Interval of(SymRange r) { return {widen(r.lo), widen(r.hi)}; }
  SymRange range() const { return {narrow(lo), narrow(hi)}; }
};
Interval mul(Interval a, Interval b) {
  Wide p[4] = {satMul(a.lo, b.lo), satMul(a.lo, b.hi), satMul(a.hi, b.lo), satMul(a.hi, b.hi)};
  return {*std::min_element(p, p + 4), *std::max_element(p, p + 4)};
}
Wide satAdd(Wide a, Wide b) {
  Wide r = a + b;
  return r > kBig ? kBig : r < -kBig ? -kBig : r;
}

/// Monomial order: higher degree first, then by the factors' texts.
bool monomialLess(const Term &a, const Term &b) {
  if (a.factors.size() != b.factors.size()) return a.factors.size() > b.factors.size();
  for (size_t i = 0; i < a.factors.size(); ++i)
    if (a.factors[i]->text != b.factors[i]->text) return a.factors[i]->text < b.factors[i]->text;
  return false;
}
bool sameMonomial(const Term &a, const Term &b) { return !monomialLess(a, b) && !monomialLess(b, a); }

std::vector<AtomPtr> mergeFactors(const std::vector<AtomPtr> &a, const std::vector<AtomPtr> &b) {
  std::vector<AtomPtr> out;
  out.reserve(a.size() + b.size());
  std::merge(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out),
             [](const AtomPtr &x, const AtomPtr &y) { return x->text < y->text; });
  return out;
}

/// Sorts terms, adds up equal monomials, drops zero coefficients.
std::vector<Term> normalize(std::vector<Term> terms) {
  std::sort(terms.begin(), terms.end(), monomialLess);
  std::vector<Term> out;
  for (Term &t : terms) {
    if (!out.empty() && sameMonomial(out.back(), t)) out.back().coeff = checkedAdd(out.back().coeff, t.coeff);
    else out.push_back(std::move(t));
    if (out.back().coeff == 0) out.pop_back();
  }
  return out;
}

uint64_t magnitude(int64_t v) { return v < 0 ? uint64_t{0} - static_cast<uint64_t>(v) : static_cast<uint64_t>(v); }

std::string termText(const Term &t) {
  std::string s;
  if (uint64_t c = magnitude(t.coeff); c != 1) s = fmt::format("{}", c);
  for (const AtomPtr &f : t.factors) {
    if (!s.empty()) s += '*';
    s += f->text;
  }
  return s;
}

/// `e`'s text, parenthesised unless it is one atom or a non-negative constant.
std::string operandText(const SymExpr &e) {
  std::string s = e.str();
  bool single = e.isConstant() ? *e.constant() >= 0
                               : e.constantTerm() == 0 && e.terms().size() == 1 && e.terms()[0].coeff == 1 &&
                                     e.terms()[0].factors.size() == 1;
  return single ? s : "(" + s + ")";
}

SymRange atomRange(SymAtom::Op op, const std::vector<SymExpr> &args) {
  SymRange a = args[0].range(), b = args.size() > 1 ? args[1].range() : SymRange{};
  switch (op) {
  case SymAtom::Op::Max: return {std::max(a.lo, b.lo), std::max(a.hi, b.hi)};
  case SymAtom::Op::Min: return {std::min(a.lo, b.lo), std::min(a.hi, b.hi)};
  case SymAtom::Op::Mod:
    if (b.lo > 0 && b.hi != SymRange::kInf) return {0, b.hi - 1};
    if (b.lo > 0) return {0, SymRange::kInf};
    break;
  case SymAtom::Op::FloorDiv:
    if (auto c = b.only(); c && *c > 0)
      return {a.lo == SymRange::kNegInf ? a.lo : pyFloorDiv(a.lo, *c), a.hi == SymRange::kInf ? a.hi : pyFloorDiv(a.hi, *c)};
    if (a.lo >= 0 && b.lo >= 1) return {0, a.hi};
    break;
  case SymAtom::Op::Symbol: break;
  }
  return {SymRange::kNegInf, SymRange::kInf};
}

SymExpr atomExpr(SymAtom::Op op, std::vector<SymExpr> args) {
  auto atom = std::make_shared<SymAtom>();
  atom->op = op;
  switch (op) {
  case SymAtom::Op::FloorDiv: atom->text = "(" + operandText(args[0]) + "//" + operandText(args[1]) + ")"; break;
  case SymAtom::Op::Mod: atom->text = "Mod(" + args[0].str() + ", " + args[1].str() + ")"; break;
  case SymAtom::Op::Max: atom->text = "Max(" + args[0].str() + ", " + args[1].str() + ")"; break;
  case SymAtom::Op::Min: atom->text = "Min(" + args[0].str() + ", " + args[1].str() + ")"; break;
  case SymAtom::Op::Symbol: break;
  }
  atom->range = atomRange(op, args);
  atom->args = std::move(args);
  Term t;
  t.factors.push_back(std::move(atom));
  t.coeff = 1;
  std::vector<Term> terms;
  terms.push_back(std::move(t));
  return SymExpr::fromTerms(0, std::move(terms));
}

} // namespace

bool SymExpr::Term::operator==(const Term &o) const { return coeff == o.coeff && sameMonomial(*this, o); }

const std::vector<SymExpr::Term> &SymExpr::terms() const {
  static const std::vector<Term> none;
  return terms_ ? *terms_ : none;
}

SymExpr SymExpr::fromTerms(int64_t c, std::vector<Term> terms) {
  // A term left without factors (a quotient that cancelled every symbol:
  // `s0*37632 // (s0*96)`) is a constant: folded in, or `392 + 1` would
  // not be 393 (and a known size would print as unknown).
  for (const Term &t : terms)
    if (t.factors.empty()) c = checkedAdd(c, t.coeff);
  std::erase_if(terms, [](const Term &t) { return t.factors.empty(); });
  SymExpr e(c);
  terms = normalize(std::move(terms));
  if (!terms.empty()) e.terms_ = std::make_shared<const std::vector<Term>>(std::move(terms));
  return e;
}

SymExpr SymExpr::symbol(std::string_view name, SymRange range) {
  auto atom = std::make_shared<SymAtom>();
  atom->text = std::string(name);
  atom->range = range;
  Term t;
  t.factors.push_back(std::move(atom));
  t.coeff = 1;
  return fromTerms(0, {std::move(t)});
}

SymRange SymExpr::range() const {
  if (!terms_) return Interval{c_, c_}.range(); // a known size: most dims
  Interval sum{c_, c_};
  for (const Term &t : terms()) {
    Interval p{t.coeff, t.coeff};
    for (const AtomPtr &f : t.factors) p = mul(p, Interval::of(f->range));
    sum = {satAdd(sum.lo, p.lo), satAdd(sum.hi, p.hi)};
  }
  return sum.range();
}

std::string SymExpr::str() const {
  std::string s;
  for (const Term &t : terms()) {
    if (s.empty()) s = t.coeff < 0 ? "-" : "";
    else s += t.coeff < 0 ? " - " : " + ";
    s += termText(t);
  }
  if (s.empty()) return fmt::format("{}", c_);
  if (c_ != 0) s += fmt::format(" {} {}", c_ < 0 ? '-' : '+', magnitude(c_));
  return s;
}

size_t SymExpr::hash() const {
  size_t h = std::hash<int64_t>()(c_);
  if (!terms_) return h; // a known size: most dims
  auto mix = [&](size_t x) { h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); };
  for (const Term &t : terms()) {
    mix(std::hash<int64_t>()(t.coeff));
    for (const AtomPtr &f : t.factors) mix(std::hash<std::string>()(f->text));
  }
  return h;
}

bool SymExpr::operator==(const SymExpr &o) const {
  if (c_ != o.c_) return false;
  if (terms_ == o.terms_) return true;
  return terms() == o.terms();
}

bool SymExpr::provablyDifferent(const SymExpr &o) const {
  SymRange d = (*this - o).range();
  return d.lo > 0 || d.hi < 0;
}

SymExpr operator+(const SymExpr &a, const SymExpr &b) {
  if (b.isConstant()) {
    SymExpr e = a;
    e.c_ = checkedAdd(a.c_, b.c_);
    return e;
  }
  if (a.isConstant()) return b + a;
  std::vector<Term> terms = a.terms();
  terms.insert(terms.end(), b.terms().begin(), b.terms().end());
  return SymExpr::fromTerms(checkedAdd(a.c_, b.c_), std::move(terms));
}

SymExpr operator*(const SymExpr &a, const SymExpr &b) {
  if (a.isConstant() && b.isConstant()) return SymExpr(checkedMul(a.c_, b.c_)); // known sizes: no terms to build
  if (b.isConstant() && !a.isConstant()) return b * a;
  if (a.isConstant()) { // scale b
    std::vector<Term> terms = b.terms();
    for (Term &t : terms) t.coeff = checkedMul(t.coeff, a.c_);
    return SymExpr::fromTerms(checkedMul(a.c_, b.c_), std::move(terms));
  }
  // A size expression is small; a product of large sums (a hostile `(a+b+...)**64`) is refused.
  if (a.terms().size() * b.terms().size() > 4096) throw std::overflow_error("size expression too large");
  std::vector<Term> terms;
  auto scaled = [&](const SymExpr &e, int64_t c) {
    for (const Term &t : e.terms()) terms.push_back({t.factors, checkedMul(t.coeff, c)});
  };
  scaled(a, b.c_);
  scaled(b, a.c_);
  for (const Term &x : a.terms())
    for (const Term &y : b.terms()) terms.push_back({mergeFactors(x.factors, y.factors), checkedMul(x.coeff, y.coeff)});
  return SymExpr::fromTerms(checkedMul(a.c_, b.c_), std::move(terms));
}

SymExpr operator-(const SymExpr &a, const SymExpr &b) {
  if (a.isConstant() && b.isConstant()) return SymExpr(checkedAdd(a.c_, checkedMul(b.c_, -1))); // as below, no terms
  return a + b * SymExpr(-1);
}

namespace {

/// `a` = `c`*quotient + rest, with every coefficient of rest in [0, c).
std::pair<SymExpr, SymExpr> splitByConstant(const SymExpr &a, int64_t c) {
  std::vector<Term> q, r;
  for (const Term &t : a.terms()) {
    int64_t m = pyMod(t.coeff, c), d = pyFloorDiv(t.coeff, c);
    if (d != 0) q.push_back({t.factors, d});
    if (m != 0) r.push_back({t.factors, m});
  }
  int64_t cm = pyMod(a.constantTerm(), c);
  return {SymExpr::fromTerms(pyFloorDiv(a.constantTerm(), c), std::move(q)), SymExpr::fromTerms(cm, std::move(r))};
}

/// `a` / `b` when `b` (one term) divides every term of `a` and its constant is 0.
std::optional<SymExpr> exactMonomialQuotient(const SymExpr &a, const SymExpr &b) {
  if (b.constantTerm() != 0 || b.terms().size() != 1 || a.constantTerm() != 0) return std::nullopt;
  const Term &d = b.terms()[0];
  std::vector<Term> q;
  for (const Term &t : a.terms()) {
    if (d.coeff == 0 || t.coeff % d.coeff != 0) return std::nullopt;
    std::vector<AtomPtr> rest;
    size_t j = 0; // multiset difference of sorted factor lists
    for (const AtomPtr &f : t.factors) {
      if (j < d.factors.size() && f->text == d.factors[j]->text) ++j;
      else rest.push_back(f);
    }
    if (j != d.factors.size()) return std::nullopt;
    q.push_back({std::move(rest), t.coeff / d.coeff});
  }
  return SymExpr::fromTerms(0, std::move(q));
}

} // namespace

std::optional<SymExpr> SymExpr::floorDiv(const SymExpr &a, const SymExpr &b) {
  try {
    if (auto c = b.constant()) {
      if (*c == 0) return std::nullopt;
      if (auto x = a.constant()) return SymExpr(pyFloorDiv(*x, *c));
      if (*c < 0) return floorDiv(-a, -b); // a // -c == (-a) // c
      auto [q, r] = splitByConstant(a, *c);
      if (auto rc = r.constant()) return q + pyFloorDiv(*rc, *c);
      SymRange rr = r.range();
      if (rr.lo >= 0 && rr.hi < *c) return q; // the remainder is below the divisor
      return q + atomExpr(SymAtom::Op::FloorDiv, {r, b});
    }
    // A symbolic divisor is non-zero wherever PyTorch does not raise.
    if (auto q = exactMonomialQuotient(a, b)) return q;
    return atomExpr(SymAtom::Op::FloorDiv, {a, b});
  } catch (const std::overflow_error &) {
    return std::nullopt;
  }
}

std::optional<SymExpr> SymExpr::mod(const SymExpr &a, const SymExpr &b) {
  try {
    if (auto c = b.constant()) {
      if (*c == 0) return std::nullopt;
      if (auto x = a.constant()) return SymExpr(pyMod(*x, *c));
      if (*c < 0) return atomExpr(SymAtom::Op::Mod, {a, b});
      SymExpr r = splitByConstant(a, *c).second;
      if (r.isConstant()) return r;
      SymRange rr = r.range();
      if (rr.lo >= 0 && rr.hi < *c) return r;
      return atomExpr(SymAtom::Op::Mod, {r, b});
    }
    if (exactMonomialQuotient(a, b)) return SymExpr(0);
    return atomExpr(SymAtom::Op::Mod, {a, b});
  } catch (const std::overflow_error &) {
    return std::nullopt;
  }
}

namespace {
SymExpr extremum(const SymExpr &a, const SymExpr &b, bool isMax) {
  if (a == b) return a;
  SymRange d = (a - b).range(); // a - b >= 0: a is the max
  if (d.lo >= 0) return isMax ? a : b;
  if (d.hi <= 0) return isMax ? b : a;
  bool ordered = a.str() < b.str();
  return atomExpr(isMax ? SymAtom::Op::Max : SymAtom::Op::Min, ordered ? std::vector<SymExpr>{a, b} : std::vector<SymExpr>{b, a});
}
} // namespace

SymExpr SymExpr::max(const SymExpr &a, const SymExpr &b) { return extremum(a, b, true); }
SymExpr SymExpr::min(const SymExpr &a, const SymExpr &b) { return extremum(a, b, false); }

std::vector<std::string> SymExpr::symbols() const {
  std::vector<std::string> out;
  std::vector<const SymAtom *> todo;
  for (const Term &t : terms())
    for (const AtomPtr &f : t.factors) todo.push_back(f.get());
  while (!todo.empty()) {
    const SymAtom *a = todo.back();
    todo.pop_back();
    if (a->op == SymAtom::Op::Symbol) out.push_back(a->text);
    for (const SymExpr &e : a->args)
      for (const Term &t : e.terms())
        for (const AtomPtr &f : t.factors) todo.push_back(f.get());
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::optional<int64_t> SymExpr::evaluate(const std::vector<std::pair<std::string, int64_t>> &values) const {
  std::function<std::optional<int64_t>(const SymAtom &)> atomValue = [&](const SymAtom &a) -> std::optional<int64_t> {
    if (a.op == SymAtom::Op::Symbol) {
      for (const auto &[n, v] : values)
        if (n == a.text) return v;
      return std::nullopt;
    }
    auto x = a.args[0].evaluate(values), y = a.args[1].evaluate(values);
    if (!x || !y) return std::nullopt;
    switch (a.op) {
    case SymAtom::Op::FloorDiv: return *y == 0 ? std::nullopt : std::optional<int64_t>(pyFloorDiv(*x, *y));
    case SymAtom::Op::Mod: return *y == 0 ? std::nullopt : std::optional<int64_t>(pyMod(*x, *y));
    case SymAtom::Op::Max: return std::max(*x, *y);
    case SymAtom::Op::Min: return std::min(*x, *y);
    case SymAtom::Op::Symbol: break;
    }
    return std::nullopt;
  };
  try {
    int64_t sum = c_;
    for (const Term &t : terms()) {
      int64_t p = t.coeff;
      for (const AtomPtr &f : t.factors) {
        auto v = atomValue(*f);
        if (!v) return std::nullopt;
        p = checkedMul(p, *v);
      }
      sum = checkedAdd(sum, p);
    }
    return sum;
  } catch (const std::overflow_error &) {
    return std::nullopt;
  }
}

namespace {

/// Recursive descent over sympy's / torch.export's printing of size
/// expressions (see parseSymExpr).
class SymParser {
public:
  SymParser(std::string_view text, const std::function<SymRange(std::string_view)> &rangeOf)
      : s_(text), rangeOf_(rangeOf) {}

  SymExpr parse() {
    SymExpr e = sum();
    skip();
    if (pos_ != s_.size()) fail("unexpected '" + std::string(1, s_[pos_]) + "'");
    return e;
  }

private:
  [[noreturn]] void fail(const std::string &what) const {
    throw std::invalid_argument(fmt::format("size expression '{}', column {}: {}", s_, pos_ + 1, what));
  }
  void skip() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool eat(std::string_view tok) {
    skip();
    if (s_.substr(pos_, tok.size()) != tok) return false;
    pos_ += tok.size();
    return true;
  }
  static SymExpr need(std::optional<SymExpr> e, const char *what) {
    if (!e) throw std::invalid_argument(std::string("size expression: ") + what + " by zero");
    return *e;
  }

  SymExpr sum() {
    SymExpr e = product();
    for (;;) {
      if (eat("+")) e = e + product();
      else if (eat("-")) e = e - product();
      else return e;
    }
  }
  SymExpr product() {
    SymExpr e = unary();
    for (;;) {
      if (eat("//")) e = need(SymExpr::floorDiv(e, unary()), "floor division");
      else if (eat("**")) e = power(e);
      else if (eat("*")) e = e * unary();
      else if (eat("%")) e = need(SymExpr::mod(e, unary()), "modulo");
      else if (eat("/")) fail("true division is not a size expression");
      else return e;
    }
  }
  SymExpr power(const SymExpr &base) {
    SymExpr exp = unary();
    auto n = exp.constant();
    if (!n || *n < 0 || *n > 16) fail("a power needs a small non-negative constant exponent (at most 16)");
    SymExpr e(1);
    for (int64_t i = 0; i < *n; ++i) e = e * base;
    return e;
  }
  SymExpr unary() {
    if (++depth_ > 200) fail("nested more than 200 levels"); // a hostile text cannot exhaust the stack
    struct Leave { int &d; ~Leave() { --d; } } leave{depth_};
    if (eat("-")) return -unary();
    if (eat("+")) return unary();
    return primary();
  }
  SymExpr primary() {
    skip();
    if (eat("(")) {
      SymExpr e = sum();
      if (!eat(")")) fail("expected ')'");
      return e;
    }
    if (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) return number();
    std::string_view name = identifier();
    if (name.empty()) fail("expected a number, a symbol or '('");
    if (eat("(")) return call(name);
    return SymExpr::symbol(name, rangeOf_ ? rangeOf_(name) : SymRange{});
  }
  SymExpr number() {
    int64_t v = 0;
    while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
      if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, s_[pos_] - '0', &v)) fail("number too large");
      ++pos_;
    }
    return SymExpr(v);
  }
  std::string_view identifier() {
    size_t start = pos_;
    while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) ++pos_;
    return s_.substr(start, pos_ - start);
  }
  /// sympy's srepr form, as torch.export 2.x writes expr_str:
  /// `Symbol('s23', positive=True, integer=True)`, `Integer(2)`,
  /// `Add(...)`, `Mul(...)`, `Pow(x, Integer(2))`.
  std::optional<SymExpr> srepr(std::string_view fn) {
    if (fn == "Symbol") {
      skip();
      if (pos_ >= s_.size() || (s_[pos_] != '\'' && s_[pos_] != '"')) fail("expected a quoted symbol name");
      char q = s_[pos_++];
      size_t start = pos_;
      while (pos_ < s_.size() && s_[pos_] != q) ++pos_;
      if (pos_ >= s_.size()) fail("unterminated symbol name");
      std::string_view name = s_.substr(start, pos_++ - start);
      while (eat(",")) { // assumptions (positive=True, integer=True): sizes are ints; ranges come separately
        skip();
        identifier();
        if (!eat("=")) fail("expected '=' in a symbol's assumption");
        skip();
        identifier();
      }
      if (!eat(")")) fail("expected ')' after the symbol");
      return SymExpr::symbol(name, rangeOf_ ? rangeOf_(name) : SymRange{});
    }
    if (fn == "Integer") {
      SymExpr e = unary();
      if (!e.isConstant() || !eat(")")) fail("Integer takes one integer");
      return e;
    }
    if (fn != "Add" && fn != "Mul" && fn != "Pow") return std::nullopt;
    std::vector<SymExpr> args{sum()};
    while (eat(",")) args.push_back(sum());
    if (!eat(")")) fail("expected ')' after the arguments of " + std::string(fn));
    if (fn == "Pow") {
      if (args.size() != 2) fail("Pow takes two arguments");
      auto n = args[1].constant();
      if (!n || *n < 0 || *n > 16) fail("a power needs a small non-negative constant exponent (at most 16)");
      SymExpr e(1);
      for (int64_t i = 0; i < *n; ++i) e = e * args[0];
      return e;
    }
    SymExpr e(fn == "Add" ? 0 : 1);
    for (const SymExpr &a : args) e = fn == "Add" ? e + a : e * a;
    return e;
  }
  SymExpr call(std::string_view fn) {
    if (auto e = srepr(fn)) return *e;
    std::vector<SymExpr> args{sum()};
    while (eat(",")) args.push_back(sum());
    if (!eat(")")) fail("expected ')' after the arguments of " + std::string(fn));
    auto two = [&] {
      if (args.size() != 2) fail(std::string(fn) + " takes two arguments");
    };
    if (fn == "Max" || fn == "Min") {
      SymExpr e = args[0];
      for (size_t i = 1; i < args.size(); ++i) e = fn == "Max" ? SymExpr::max(e, args[i]) : SymExpr::min(e, args[i]);
      return e;
    }
    if (fn == "FloorDiv") return two(), need(SymExpr::floorDiv(args[0], args[1]), "floor division");
    if (fn == "Mod" || fn == "PythonMod") return two(), need(SymExpr::mod(args[0], args[1]), "modulo");
    fail("unsupported function '" + std::string(fn) + "'");
  }

  std::string_view s_;
  const std::function<SymRange(std::string_view)> &rangeOf_;
  size_t pos_ = 0;
  int depth_ = 0;
};

} // namespace

SymExpr parseSymExpr(std::string_view text, const std::function<SymRange(std::string_view)> &rangeOf) {
  try {
    return SymParser(text, rangeOf).parse();
  } catch (const std::overflow_error &e) {
    throw std::invalid_argument(fmt::format("size expression '{}': {}", text, e.what()));
  }
}

} // namespace dtf
