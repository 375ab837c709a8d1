#include "refine/check.h"

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
  return checkTensor(*t.dtype, *t.rank, got);
}

Verdict checkTensor(DType dtype, int rank, const Value &got) {
  bool dtypeWrong = got.isTensor() && !got.dtypes().empty() && !got.dtypes().contains(dtype);
  bool rankWrong = got.isTensor() && ((got.rank().isExact() && *got.rank().value() != rank) ||
                                      (got.rank() == Rank::atLeast1() && rank == 0));
  bool kindWrong = !got.isTensor() && !got.isTop() && !got.isBottom();
  if (dtypeWrong || rankWrong || kindWrong) return Verdict::Wrong;
  return fullyKnown(got) ? Verdict::Correct : Verdict::Unknown;
}

CheckCounts checkAllWritten(const ir::Graph &g, const Result &r) {
  CheckCounts c;
  for (size_t v = 0; v < g.values.size(); ++v) {
    switch (checkWritten(g, static_cast<ir::ValueId>(v), r.values[v])) {
    case Verdict::Correct: ++c.correct; break;
    case Verdict::Unknown: ++c.unknown; break;
    case Verdict::Wrong: ++c.wrong; break;
    case Verdict::NotChecked: break;
    }
  }
  return c;
}

} // namespace dtf::refine
