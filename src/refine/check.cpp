#include "refine/check.h"

#include "shape/unbacked.h"
#include "shape/sym_expr.h"

#include <algorithm>

namespace dtf::refine {

bool isInputLike(const ir::Graph &g, ir::ValueId v) {
  const ir::ValueInfo &info = g.values[v];
  if (info.paramOf == 0) return true; // graph input
  if (info.def == ir::kNoId) return false;
  const std::string &k = g.kindOf(info.def);
  return k == "prim::Constant" || k == "prim::GetAttr"; // data, typed as written
}

Verdict checkWritten(const ir::Graph &g, ir::ValueId v, const Value &got) {
  const ir::TypeExpr &t = *g.values[v].type;
  if (!t.isFullTensor() || isInputLike(g, v)) return Verdict::NotChecked;
  return checkTensor(*t.dtype, *t.rank, got, &t.dims);
}

namespace {

bool boundIn(const SizeBinding &b, const std::string &s) {
  return std::any_of(b.values.begin(), b.values.end(), [&](const auto &e) { return e.first == s; }) ||
         std::any_of(b.symbols.begin(), b.symbols.end(), [&](const auto &e) { return e.first == s; });
}

/// The symbol `e` is, when it is one symbol alone and not bound yet.
std::optional<std::string> loneUnbound(const SymExpr &e, const SizeBinding &b) {
  auto syms = e.symbols();
  if (syms.size() != 1 || e.str() != syms[0] || boundIn(b, syms[0])) return std::nullopt;
  return syms[0];
}

/// A symbolic dim of ours against a recorded int, under `binding` (see checkSizes).
SizeVerdict bindOrEvaluate(const SymExpr &mine, int64_t theirs, SizeBinding &binding) {
  if (auto s = loneUnbound(mine, binding)) {
    if (!mine.range().contains(theirs)) return SizeVerdict::Wrong;
    binding.values.emplace_back(*s, theirs);
    return SizeVerdict::Symbolic;
  }
  auto value = mine.evaluate(binding.values);
  if (!value) return SizeVerdict::Unknown;
  return *value == theirs ? SizeVerdict::Symbolic : SizeVerdict::Wrong;
}

/// A symbolic dim of ours against a recorded symbolic one that differs from
/// it, under `binding` (see checkSizes).
SizeVerdict bindOrSubstitute(const SymExpr &mine, const SymExpr &theirs, SizeBinding &binding) {
  auto mineAlone = loneUnbound(mine, binding);
  auto theirSyms = theirs.symbols();
  // Only ours made for a data-dependent size (`uK`, named past every symbol
  // the program uses, so never the record's) bind to a record's symbol.
  if (mineAlone && unbackedIndex(*mineAlone) && theirSyms.size() == 1 && theirs.str() == theirSyms[0]) {
    binding.symbols.emplace_back(*mineAlone, theirs);
    return SizeVerdict::Symbolic;
  }
  if (binding.symbols.empty()) return SizeVerdict::Unknown;
  auto substituted = substituteSymbols(mine, [&](const SymAtom &a) -> std::optional<SymExpr> {
    for (const auto &[name, expr] : binding.symbols)
      if (a.text == name) return expr;
    return std::nullopt;
  });
  if (!substituted) return SizeVerdict::Unknown;
  if (*substituted == theirs) return SizeVerdict::Symbolic;
  return substituted->provablyDifferent(theirs) ? SizeVerdict::Wrong : SizeVerdict::Unknown;
}

/// Whether two expressions agree wherever their symbols may be: evaluated at every assignment
/// of sample points of each symbol's range (its low end and the next ones, a few far above,
/// its high end). True: equal at each (the record's `P//(P//7)` where P is a multiple of 7 by
/// construction, and ours `7`); false: some point differs; nullopt: none evaluated. Sampling,
/// not proof: a record may also hold only where the program's runtime assertions do.
std::optional<bool> agreeAtSamples(const SymExpr &mine, const SymExpr &theirs) {
  std::vector<std::pair<std::string, SymRange>> symbols;
  auto collect = [&](const SymExpr &e) {
    (void)substituteSymbols(e, [&](const SymAtom &a) -> std::optional<SymExpr> {
      if (std::none_of(symbols.begin(), symbols.end(), [&](const auto &s) { return s.first == a.text; }))
        symbols.emplace_back(a.text, a.range);
      return std::nullopt;
    });
  };
  collect(mine);
  collect(theirs);
  if (symbols.empty() || symbols.size() > 4) return std::nullopt;
  const int64_t near = symbols.size() <= 2 ? 12 : 5;
  std::vector<std::vector<int64_t>> points;
  for (const auto &symbol : symbols) {
    const SymRange &r = symbol.second; // (clang 14 cannot capture a structured binding)
    std::vector<int64_t> p;
    const int64_t lo = std::max<int64_t>(r.lo, 0);
    for (int64_t k = 0; k < near; ++k) p.push_back(lo + k);
    for (int64_t far : {lo + 97, lo + 1000, lo + 65537}) p.push_back(far);
    if (r.hi != SymRange::kInf) p.push_back(r.hi);
    std::erase_if(p, [&](int64_t x) { return !r.contains(x); });
    if (p.empty()) return std::nullopt;
    points.push_back(std::move(p));
  }
  std::vector<size_t> at(symbols.size(), 0);
  std::vector<std::pair<std::string, int64_t>> values(symbols.size());
  bool evaluated = false;
  while (true) {
    for (size_t i = 0; i < symbols.size(); ++i) values[i] = {symbols[i].first, points[i][at[i]]};
    auto a = mine.evaluate(values), b = theirs.evaluate(values);
    if (a && b) {
      if (*a != *b) return false;
      evaluated = true;
    }
    size_t i = 0;
    while (i < at.size() && ++at[i] == points[i].size()) at[i++] = 0;
    if (i == at.size()) break;
  }
  return evaluated ? std::optional<bool>(true) : std::nullopt;
}

} // namespace

SizeVerdict checkSizes(const Dims &recorded, const Value &got, SizeBinding *binding) {
  auto ours = got.isTensor() ? got.shape() : std::nullopt;
  if (recorded.empty() || !ours || ours->size() != recorded.size()) return SizeVerdict::NotChecked;
  SizeVerdict v = SizeVerdict::Exact;
  bool unknown = false;
  for (size_t i = 0; i < recorded.size(); ++i) {
    const Dim &theirs = recorded[i], &mine = (*ours)[i];
    if (!theirs.known()) continue;
    if (!mine.known()) {
      unknown = true;
      continue;
    }
    if (*mine.expr() == *theirs.expr()) continue;
    if (mine.value() && theirs.value()) return SizeVerdict::Wrong;
    if (mine.expr()->provablyDifferent(*theirs.expr())) return SizeVerdict::Wrong;
    // A dim the record keeps dynamic (a symbol alone, of more than one value) that ours fixes.
    if (mine.value() && theirs.expr()->symbols().size() == 1 && theirs.expr()->str() == theirs.expr()->symbols()[0] &&
        theirs.expr()->range().lo != theirs.expr()->range().hi)
      return SizeVerdict::Wrong;
    // Written another way (the record's `P//(P//7)` for our 7): equal wherever the symbols may be.
    if (agreeAtSamples(*mine.expr(), *theirs.expr()) == true) continue;
    if (mine.value()) { // a constant of ours against an expression of the record's that is not it everywhere:
      unknown = true;   // it may be only where the program's assertions hold (not read)
      continue;
    }
    if (binding) {
      SizeVerdict b = theirs.value() ? bindOrEvaluate(*mine.expr(), *theirs.value(), *binding)
                                     : bindOrSubstitute(*mine.expr(), *theirs.expr(), *binding);
      if (b == SizeVerdict::Wrong) return b;
      unknown = unknown || b == SizeVerdict::Unknown;
      v = SizeVerdict::Symbolic;
      continue;
    }
    unknown = true; // symbolic both, equal only under a guard
  }
  return unknown ? SizeVerdict::Unknown : v;
}

Verdict checkTensor(DType dtype, int rank, const Value &got, const Dims *sizes) {
  if (sizes && checkSizes(*sizes, got) == SizeVerdict::Wrong) return Verdict::Wrong;
  bool dtypeWrong = got.isTensor() && !got.dtypes().empty() && !got.dtypes().contains(dtype);
  bool rankWrong = got.isTensor() && ((got.rank().isExact() && *got.rank().value() != rank) ||
                                      (got.rank() == Rank::atLeast1() && rank == 0));
  bool kindWrong = !got.isTensor() && !got.isTop() && !got.isBottom();
  if (dtypeWrong || rankWrong || kindWrong) return Verdict::Wrong;
  return fullyKnown(got) ? Verdict::Correct : Verdict::Unknown;
}

void count(CheckCounts &c, Verdict v, SizeVerdict s) {
  switch (v) {
  case Verdict::Correct: ++c.correct; break;
  case Verdict::Unknown: ++c.unknown; break;
  case Verdict::Wrong: ++c.wrong; return;
  case Verdict::NotChecked: return;
  }
  if (s == SizeVerdict::Exact) ++c.sizesExact;
  if (s == SizeVerdict::Unknown) ++c.sizesUnknown;
  if (s == SizeVerdict::Symbolic) ++c.sizesSymbolic;
}

CheckCounts checkAllWritten(const ir::Graph &g, const Result &r) {
  CheckCounts c;
  SizeBinding binding;
  for (size_t v = 0; v < g.values.size(); ++v) {
    Verdict verdict = checkWritten(g, static_cast<ir::ValueId>(v), r.values[v]);
    const SizeVerdict sizes =
        verdict == Verdict::NotChecked ? SizeVerdict::NotChecked : checkSizes(g.values[v].type->dims, r.values[v], &binding);
    if (sizes == SizeVerdict::Wrong) verdict = Verdict::Wrong; // wrong only under the run's binding
    count(c, verdict, sizes);
  }
  return c;
}

} // namespace dtf::refine
