#include "refine/check.h"

#include "shape/unbacked.h"

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
    if (mine.value() && (theirs.value() || !theirs.expr()->symbols().empty())) return SizeVerdict::Wrong;
    if (mine.expr()->provablyDifferent(*theirs.expr())) return SizeVerdict::Wrong;
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
