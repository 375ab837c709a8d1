//===- refine/check_autocast.cpp - records made under an autocast context -===//
//
// torch.export run inside torch.autocast records the dtypes autocast gave
// (every conv bfloat16) while the graph holds plain aten ops and no autocast
// op: the context is not in the program. When the records disagree with the
// plain inference, `check` refines again under each context the version's
// autocast takes; one under which no value is wrong explains the records,
// and one diagnostic naming it says more than every wrong value listed.
//
//===----------------------------------------------------------------------===//
#include "refine/check.h"

#include "ops/semantics.h"

namespace dtf::refine {

std::vector<AutocastContext> autocastExplaining(const ir::Graph &g, const Options &opts,
                                                const std::function<CheckCounts(const Result &)> &count) {
  std::vector<AutocastContext> out;
  if (opts.autocast) return out; // the user gave the context
  for (const AutocastContext &ctx : autocastContexts(semanticsOf(opts).version())) {
    Options o = opts;
    o.autocast = ctx;
    o.plan = nullptr; // a plan holds no context, but keep this run apart from the caller's
    CheckCounts c = count(refineGraph(g, o));
    if (c.wrong == 0 && c.correct > 0) out.push_back(ctx);
  }
  return out;
}

} // namespace dtf::refine
