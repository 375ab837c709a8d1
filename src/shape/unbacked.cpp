#include "shape/unbacked.h"

#include <charconv>
#include <stdexcept>
#include <string>

namespace dtf {
namespace {

// A name no frontend reads as a symbol (`?` starts none), so a placeholder
// left unnamed by a bug can never equal a program's symbol.
constexpr std::string_view kPlaceholder = "?u";

std::optional<unsigned> placeholderOrdinal(const SymAtom &a) {
  if (a.op != SymAtom::Op::Symbol || !a.text.starts_with(kPlaceholder)) return std::nullopt;
  unsigned k = 0;
  const char *first = a.text.data() + kPlaceholder.size(), *last = a.text.data() + a.text.size();
  auto [end, ec] = std::from_chars(first, last, k);
  if (ec != std::errc() || end != last) return std::nullopt;
  return k;
}

bool usesPlaceholder(const SymExpr &e) {
  for (const SymExpr::Term &t : e.terms())
    for (const auto &f : t.factors) {
      if (placeholderOrdinal(*f)) return true;
      for (const SymExpr &arg : f->args)
        if (usesPlaceholder(arg)) return true;
    }
  return false;
}

std::optional<SymExpr> substituteAtom(const SymAtom &a,
                                      const std::function<std::optional<SymExpr>(const SymAtom &)> &symbolFor) {
  if (a.op == SymAtom::Op::Symbol) {
    if (auto s = symbolFor(a)) return s;
    return SymExpr::symbol(a.text, a.range);
  }
  auto x = substituteSymbols(a.args[0], symbolFor), y = substituteSymbols(a.args[1], symbolFor);
  if (!x || !y) return std::nullopt;
  switch (a.op) {
  case SymAtom::Op::FloorDiv: return SymExpr::floorDiv(*x, *y);
  case SymAtom::Op::Mod: return SymExpr::mod(*x, *y);
  case SymAtom::Op::Max: return SymExpr::max(*x, *y);
  case SymAtom::Op::Min: return SymExpr::min(*x, *y);
  case SymAtom::Op::Symbol: break;
  }
  return std::nullopt;
}

} // namespace

Dim unbackedDim(unsigned ordinal, SymRange range) {
  return Dim(SymExpr::symbol(std::string(kPlaceholder) + std::to_string(ordinal), range));
}

bool hasUnbackedPlaceholder(const Dims &dims) {
  for (const Dim &d : dims)
    if (d.known() && !d.value() && usesPlaceholder(*d.expr())) return true;
  return false;
}

std::optional<SymExpr> substituteSymbols(const SymExpr &e,
                                         const std::function<std::optional<SymExpr>(const SymAtom &)> &symbolFor) {
  try {
    SymExpr sum(e.constantTerm());
    for (const SymExpr::Term &t : e.terms()) {
      SymExpr p(t.coeff);
      for (const auto &f : t.factors) {
        auto v = substituteAtom(*f, symbolFor);
        if (!v) return std::nullopt;
        p = p * *v;
      }
      sum = sum + p;
    }
    return sum;
  } catch (const std::overflow_error &) {
    return std::nullopt;
  }
}

Dims renameUnbacked(const Dims &dims, const UnbackedNamer &name) {
  Dims out;
  out.reserve(dims.size());
  for (const Dim &d : dims) {
    if (!d.known() || d.value() || !usesPlaceholder(*d.expr())) {
      out.push_back(d);
      continue;
    }
    bool unnamed = false;
    auto renamed = substituteSymbols(*d.expr(), [&](const SymAtom &a) -> std::optional<SymExpr> {
      auto k = placeholderOrdinal(a);
      if (!k) return std::nullopt;
      auto s = name(*k, a.range);
      unnamed = unnamed || !s;
      return s;
    });
    out.push_back(renamed && !unnamed ? Dim(std::move(*renamed)) : Dim());
  }
  return out;
}

std::string unbackedName(unsigned index) { return "u" + std::to_string(index); }

void appendSymbols(const Dims &dims, std::vector<std::string> &out) {
  for (const Dim &d : dims)
    if (d.known() && !d.value())
      for (std::string &s : d.expr()->symbols()) out.push_back(std::move(s));
}

std::optional<unsigned> unbackedIndex(std::string_view name) {
  if (name.size() < 2 || name[0] != 'u') return std::nullopt;
  unsigned k = 0;
  auto [end, ec] = std::from_chars(name.data() + 1, name.data() + name.size(), k);
  if (ec != std::errc() || end != name.data() + name.size()) return std::nullopt;
  return k;
}

unsigned firstFreeUnbacked(const std::vector<std::string> &symbols) {
  unsigned next = 0;
  for (const std::string &s : symbols)
    if (auto k = unbackedIndex(s); k && *k >= next) next = *k + 1;
  return next;
}

} // namespace dtf
