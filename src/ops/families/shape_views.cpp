//===- ops/families/shape_views.cpp - views, reshapes, joins, splits -----===//
//
// Shape ops keep their input's dtype; what they compute is the rank. The
// joins (cat, stack and friends) promote all their inputs in 1.13 (plain
// promote_types: every operand takes part, the legacy empty 1-D tensor too).
// The size/dim/len helpers return Python ints and lists.
//
//===----------------------------------------------------------------------===//
#include "ops/registry.h"
#include "ops/unit_dims.h"
#include "ops/vocabulary.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace dtf {
namespace {

using RankFn = std::function<RuleResult(const OpCall &, DType, Rank)>;

/// Result keeps self's dtype; `f` gives the rank from self's rank.
RuleFn keep(std::function<Rank(const OpCall &, Rank)> f, std::string self = "self") {
  return [f, self](const OpCall &c) -> RuleResult { return tensorOf(c.dtype(self), f(c, c.rank(self))); };
}

Rank same(const OpCall &, Rank r) { return r; }

/// Length of an int[] argument when known.
std::optional<int> listLen(const Value &v) {
  if (v.isList() && v.lengthKnown()) return static_cast<int>(v.elements().size());
  return std::nullopt;
}

Rank lenRank(const OpCall &c, std::string_view n) {
  if (auto l = listLen(c.arg(n))) return Rank::exact(*l);
  return Rank::top();
}

Rank plus(Rank r, int k) {
  if (auto v = r.value()) return Rank::exact(*v + k);
  if (k > 0) return Rank::atLeast1();
  return Rank::top();
}

Rank atLeast(Rank r, int k) {
  if (auto v = r.value()) return Rank::exact(std::max(*v, k));
  return Rank::atLeast1();
}

std::optional<int> normDim(int64_t d, int rank) {
  int n = std::max(rank, 1);
  if (d < -n || d >= n) return std::nullopt;
  return static_cast<int>(d < 0 ? d + n : d);
}

std::optional<RuleError> notZeroDim(const OpCall &c, const char *what) {
  if (auto r = c.rank("self").value(); r && *r == 0)
    return c.semantic("{}() cannot be applied to a 0-dim tensor", what);
  return std::nullopt;
}

/// promote_types over every tensor of a list (all count as dim-tier).
/// Unknown length: every promotion of a non-empty subset of the summary.
struct Joined {
  DTypeSet dtypes;
  Rank rank; ///< common rank (max of exact ranks), top when unknown
  bool ok = true;
  std::string error;
};

Joined joinList(const Value &l) {
  Joined j;
  if (!l.isList()) return {DTypeSet::all(), Rank::top(), true, {}};
  if (l.lengthKnown()) {
    if (l.elements().empty()) return {DTypeSet(), Rank::top(), false, "expected a non-empty list of tensors"};
    std::optional<DType> acc;
    int best = -1;
    bool exact = true, nonzero = false;
    for (const Value &e : l.elements()) {
      DType d = *e.dtype();
      acc = acc ? promoteTypes(*acc, d) : d;
      if (auto r = e.rank().value()) best = std::max(best, *r);
      else { exact = false; nonzero = true; }
    }
    j.dtypes = DTypeSet(*acc);
    j.rank = exact ? Rank::exact(best) : (nonzero ? Rank::atLeast1() : Rank::top());
    return j;
  }
  Value s = l.elementSummary();
  if (!s.isTensor()) return {DTypeSet::all(), Rank::top(), true, {}};
  DTypeSet in = s.dtypes(), out = in;
  for (bool grew = true; grew;) {
    grew = false;
    for (DType a : out)
      for (DType b : in) {
        DType p = promoteTypes(a, b);
        if (!out.contains(p)) { out.insert(p); grew = true; }
      }
  }
  j.dtypes = out;
  j.rank = s.rank().isExact() || s.rank() == Rank::atLeast1() ? s.rank() : Rank::top();
  return j;
}

RuleFn joinRule(std::function<Rank(Rank)> rankOf, bool rejectZeroDim) {
  return [=](const OpCall &c) -> RuleResult {
    const Value &l = c.arg("tensors");
    if (rejectZeroDim && l.isList() && l.lengthKnown())
      for (size_t i = 0; i < l.elements().size(); ++i)
        if (auto r = l.elements()[i].rank().value(); r && *r == 0)
          return c.semantic("zero-dimensional tensor (at position {}) cannot be concatenated", i);
    Joined j = joinList(l);
    if (!j.ok) return c.semantic("{}", j.error);
    return Value::tensor(j.dtypes, rankOf(j.rank));
  };
}

/// A list of tensors of unknown length, each with self's dtype and rank `r`.
Value tensorList(DType d, Rank r) { return Value::listOf(tensorOf(d, r)); }

RuleResult flattenRule(const OpCall &c) {
  DType d = c.dtype("self");
  auto r = c.rank("self").value();
  auto s = c.arg("start_dim").intValue(), e = c.arg("end_dim").intValue();
  if (!r) {
    if (s && e && *s == 0 && *e == -1) return tensorOf(d, Rank::exact(1));
    return tensorOf(d, Rank::atLeast1());
  }
  if (*r == 0) return tensorOf(d, Rank::exact(1));
  if (!s || !e) return tensorOf(d, Rank::atLeast1());
  auto ns = normDim(*s, *r), ne = normDim(*e, *r);
  if (!ns || !ne) return c.semantic("dimension out of range for a {}-D tensor", *r);
  if (*ns > *ne) return c.semantic("flatten() has invalid args: start_dim cannot come after end_dim");
  return tensorOf(d, Rank::exact(*r - (*ne - *ns)));
}

/// squeeze(dim): the rank drops by one exactly when that dim has size 1.
RuleResult squeezeDimRule(const OpCall &c) {
  DType d = c.dtype("self");
  const Value &self = c.arg("self");
  auto r = self.rank().value();
  auto dim = c.arg("dim").intValue();
  // A 0-dim tensor takes dim -1 or 0, as if it had one dim.
  if (r && dim && !normDim(*dim, *r)) return c.semantic("dimension {} out of range for a {}-D tensor", *dim, *r);
  if (r && *r == 0) return tensorOf(d, Rank::exact(0));
  if (r && dim) {
    auto nd = normDim(*dim, *r);
    UnitDims u = self.unitDims();
    uint32_t bit = *nd < 32 ? uint32_t{1} << *nd : 0;
    if (u.ones & bit) return tensorOf(d, Rank::exact(*r - 1)).withUnitDims(removeDim(u, *nd));
    if (u.others & bit) return tensorOf(d, Rank::exact(*r)).withUnitDims(u);
  }
  if (r && *r >= 2) return tensorOf(d, Rank::atLeast1());
  return tensorOf(d, Rank::top());
}

/// squeeze(): known when every dim is known to be 1 or not.
RuleResult squeezeAllRule(const OpCall &c) {
  DType d = c.dtype("self");
  const Value &self = c.arg("self");
  auto r = self.rank().value();
  if (r && *r == 0) return tensorOf(d, Rank::exact(0));
  UnitDims u = self.unitDims();
  if (r && *r <= 32 && std::popcount(u.ones | u.others) == *r) {
    int left = *r - std::popcount(u.ones);
    return tensorOf(d, Rank::exact(left)).withUnitDims({0, left >= 32 ? ~0u : (uint32_t{1} << left) - 1});
  }
  return tensorOf(d, Rank::top());
}

/// unsqueeze(dim): a new size-1 dim; dim in [-rank-1, rank].
RuleResult unsqueezeRule(const OpCall &c) {
  DType d = c.dtype("self");
  const Value &self = c.arg("self");
  auto r = self.rank().value();
  if (!r) return tensorOf(d, plus(self.rank(), 1));
  auto dim = c.arg("dim").intValue();
  if (!dim) return tensorOf(d, Rank::exact(*r + 1));
  auto nd = normDim(*dim, *r + 1);
  if (!nd) return c.semantic("dimension {} out of range for unsqueeze of a {}-D tensor", *dim, *r);
  return tensorOf(d, Rank::exact(*r + 1)).withUnitDims(insertUnitDim(self.unitDims(), *nd));
}

RuleResult sizeRule(const OpCall &c) {
  if (auto r = c.rank("self").value()) return Value::list(std::vector<Value>(*r, Value::number(NumKind::Int)));
  return Value::listOf(Value::number(NumKind::Int));
}

} // namespace

void registerShapeViews(Registry &r) {
  const char *fam = "view";
  auto sizeOf = [](std::string n) {
    return [n](const OpCall &c, Rank) { return lenRank(c, n); };
  };
  r.add("aten::view", fam, keep(sizeOf("size"))).sample("self", "sweep[2,2]").sample("size", "[-1]");
  r.add("aten::_unsafe_view", fam, keep(sizeOf("size"))).sample("self", "sweep[2,2]").sample("size", "[-1]");
  r.add("aten::reshape", fam, keep(sizeOf("shape"))).sample("self", "sweep[2,2]").sample("shape", "[-1]");
  r.add("aten::_reshape_alias", fam, keep(sizeOf("size")))
      .sample("self", "sweep![2,2]").sample("size", "[4]").sample("stride", "[1]");
  r.add("aten::as_strided", fam, keep(sizeOf("size")))
      .sample("self", "sweep![2,2]").sample("size", "[2]").sample("stride", "[1]");
  r.add("aten::expand", fam, keep(sizeOf("size"))).sample("self", "sweep[2]").sample("size", "[2,2]");
  r.add("aten::expand_copy", fam, keep(sizeOf("size"))).sample("self", "sweep[2]").sample("size", "[2,2]");
  r.add("aten::broadcast_to", fam, keep(sizeOf("size"))).sample("self", "sweep[2]").sample("size", "[2,2]");
  r.add("aten::repeat", fam, keep(sizeOf("repeats"))).sample("self", "sweep[2]").sample("repeats", "[2,2]");
  r.add("aten::tile", fam, keep([](const OpCall &c, Rank rk) -> Rank {
     auto l = listLen(c.arg("dims"));
     if (auto v = rk.value(); v && l) return Rank::exact(std::max(*v, *l));
     if (l && *l > 0) return Rank::atLeast1();
     return Rank::top();
   })).sample("self", "sweep[2]").sample("dims", "[2,2]");
  for (const char *k : {"aten::view_as", "aten::reshape_as", "aten::expand_as"})
    r.add(k, fam, [](const OpCall &c) -> RuleResult { return tensorOf(c.dtype("self"), c.rank("other")); })
        .sample("self", "sweep[1]").sample("other", "float32[1]")
        .variant({{"self", "sweep![2]"}, {"other", "float32[2]"}});

  r.add("aten::flatten.using_ints", fam, flattenRule).sample("self", "sweep[2,2]")
      .variant({{"self", "sweep![2,2,2]"}, {"start_dim", "1"}, {"end_dim", "2"}});
  r.add("aten::unflatten.int", fam, keep([](const OpCall &c, Rank rk) -> Rank {
     auto l = listLen(c.arg("sizes"));
     if (auto v = rk.value(); v && l) return Rank::exact(*v - 1 + *l);
     return Rank::top();
   })).sample("self", "sweep![4]").sample("dim", "0").sample("sizes", "[2,2]");
  r.add("aten::ravel", fam, keep([](const OpCall &, Rank) { return Rank::exact(1); }));

  // Same rank.
  struct Same { const char *key; std::map<std::string, std::string, std::less<>> samples; };
  for (const Same &s : std::vector<Same>{
           {"aten::permute", {{"self", "sweep![2,2]"}, {"dims", "[1,0]"}}},
           {"aten::transpose.int", {{"self", "sweep![2,2]"}, {"dim0", "0"}, {"dim1", "1"}}},
           {"aten::swapaxes", {{"self", "sweep![2,2]"}, {"axis0", "0"}, {"axis1", "1"}}},
           {"aten::swapdims", {{"self", "sweep![2,2]"}, {"dim0", "0"}, {"dim1", "1"}}},
           {"aten::t", {{"self", "sweep[2]"}}},
           {"aten::numpy_T", {{"self", "sweep[2,2]"}}},
           {"aten::mT", {{"self", "sweep![2,2]"}}},
           {"aten::adjoint", {{"self", "sweep![2,2]"}}},
           {"aten::alias", {{"self", "sweep"}}},
           {"aten::movedim.int", {{"self", "sweep![2,2]"}, {"source", "0"}, {"destination", "1"}}},
           {"aten::movedim.intlist", {{"self", "sweep![2,2]"}, {"source", "[0]"}, {"destination", "[1]"}}},
           {"aten::moveaxis.int", {{"self", "sweep![2,2]"}, {"source", "0"}, {"destination", "1"}}},
           {"aten::moveaxis.intlist", {{"self", "sweep![2,2]"}, {"source", "[0]"}, {"destination", "[1]"}}},
           {"aten::narrow", {{"self", "sweep![2,2]"}, {"dim", "0"}, {"start", "0"}, {"length", "1"}}},
           {"aten::narrow.Tensor", {{"self", "sweep![2,2]"}, {"dim", "0"}, {"start", "int64[]=0"}, {"length", "1"}}},
           {"aten::flip", {{"self", "sweep![2,2]"}, {"dims", "[0]"}}},
           {"aten::fliplr", {{"self", "sweep![2,2]"}}},
           {"aten::flipud", {{"self", "sweep![2,2]"}}},
           {"aten::roll", {{"self", "sweep![2,2]"}, {"shifts", "[1]"}, {"dims", "[0]"}}},
           {"aten::rot90", {{"self", "sweep![2,2]"}}},
           {"aten::tril", {{"self", "sweep![2,2]"}}},
           {"aten::triu", {{"self", "sweep![2,2]"}}},
           {"aten::tril_", {{"self", "sweep![2,2]"}}},
           {"aten::triu_", {{"self", "sweep![2,2]"}}},
           {"aten::t_", {{"self", "sweep![2,2]"}}},
           {"aten::transpose_", {{"self", "sweep![2,2]"}, {"dim0", "0"}, {"dim1", "1"}}},
       }) {
    auto e = r.add(s.key, fam, keep(same));
    for (auto &[a, v] : s.samples) e.sample(a, v);
  }
  r.add("aten::slice.Tensor", fam, [](const OpCall &c) -> RuleResult {
     if (auto e = notZeroDim(c, "slice")) return *e;
     return tensorOf(c.dtype("self"), c.rank("self"));
   }).sample("self", "sweep![2,2]").sample("start", "0").sample("end", "1");
  r.add("aten::select.int", fam, [](const OpCall &c) -> RuleResult {
     if (auto e = notZeroDim(c, "select")) return *e;
     const Value &self = c.arg("self");
     auto rk = self.rank().value();
     if (!rk) return tensorOf(c.dtype("self"), Rank::top());
     Value out = tensorOf(c.dtype("self"), Rank::exact(*rk - 1));
     auto nd = c.arg("dim").intValue() ? normDim(*c.arg("dim").intValue(), *rk) : std::nullopt;
     return nd ? out.withUnitDims(removeDim(self.unitDims(), *nd)) : out;
   }).sample("self", "sweep![2,2]").sample("dim", "0").sample("index", "0")
      .variant({{"self", "sweep![2,1]"}}).variant({{"self", "sweep![2,1]"}, {"dim", "1"}});
  r.add("aten::squeeze", fam, squeezeAllRule).variant({{"self", "sweep![2,1]"}}).variant({{"self", "sweep![1,2]"}});
  // The in-place forms return self after the resize: their rank changes too.
  r.add("aten::squeeze_", fam, squeezeAllRule).variant({{"self", "sweep![2,1]"}}).variant({{"self", "sweep![1,2]"}});
  // squeeze(dim) on a size-1 dim and on another, both dims of [1,2] and [2,1].
  r.add("aten::squeeze.dim", fam, squeezeDimRule).sample("self", "sweep[1,2]").sample("dim", "0")
      .variant({{"dim", "1"}}).variant({{"self", "sweep![2,1]"}}).variant({{"self", "sweep![2,1]"}, {"dim", "-1"}});
  r.add("aten::squeeze_.dim", fam, squeezeDimRule).sample("self", "sweep[1,2]").sample("dim", "0")
      .variant({{"dim", "1"}}).variant({{"self", "sweep![2,1]"}}).variant({{"self", "sweep![2,1]"}, {"dim", "-1"}});
  r.add("aten::unsqueeze", fam, unsqueezeRule).sample("dim", "0").variant({{"dim", "-1"}})
      .variant({{"self", "sweep![2,1]"}, {"dim", "1"}});
  r.add("aten::unsqueeze_", fam, unsqueezeRule).sample("dim", "0").variant({{"dim", "-1"}});
  r.add("aten::unfold", fam, keep([](const OpCall &, Rank rk) { return plus(rk, 1); }))
      .sample("self", "sweep![2,2]").sample("dimension", "0").sample("size", "1").sample("step", "1");
  r.add("aten::unfold_copy", fam, keep([](const OpCall &, Rank rk) { return plus(rk, 1); }))
      .sample("self", "sweep![2,2]").sample("dimension", "0").sample("size", "1").sample("step", "1");
  r.add("aten::diag", fam, [](const OpCall &c) -> RuleResult {
     auto rk = c.rank("self").value();
     if (rk && *rk != 1 && *rk != 2) return c.semantic("diag(): supports 1D or 2D tensors, got {}-D", *rk);
     return tensorOf(c.dtype("self"), rk ? Rank::exact(*rk == 1 ? 2 : 1) : Rank::atLeast1());
   }).sample("self", "sweep![2]").variant({{"self", "sweep![2,2]"}});
  r.add("aten::diag_embed", fam, keep([](const OpCall &, Rank rk) { return plus(rk, 1); }))
      .sample("self", "sweep![2]");
  r.add("aten::diagonal", fam, [](const OpCall &c) -> RuleResult {
     auto rk = c.rank("self").value();
     if (rk && *rk < 2) return c.semantic("diagonal() needs at least 2 dimensions, got {}-D", *rk);
     return tensorOf(c.dtype("self"), rk ? Rank::exact(*rk - 1) : Rank::top());
   }).sample("self", "sweep![2,2]");
  for (int k : {1, 2, 3}) {
    std::string base = "aten::atleast_" + std::to_string(k) + "d";
    r.add(base, fam, keep([k](const OpCall &, Rank rk) { return atLeast(rk, k); }));
    r.add(base + ".Sequence", fam, [k](const OpCall &c) -> RuleResult {
      const Value &l = c.arg("tensors");
      if (l.isList() && l.lengthKnown()) {
        std::vector<Value> out;
        for (const Value &e : l.elements()) out.push_back(tensorOf(*e.dtype(), atLeast(e.rank(), k)));
        return Value::list(out);
      }
      Value s = l.isList() ? l.elementSummary() : Value::unknownTensor();
      return Value::listOf(Value::tensor(s.isTensor() ? s.dtypes() : DTypeSet::all(), Rank::atLeast1()));
    }).sample("tensors", "[sweep,sweep]");
  }

  // Scatter-style writes keep self's dtype; src is cast.
  r.add("aten::select_scatter", fam, keep(same))
      .sample("self", "sweep![2,2]").sample("src", "sweep![2]").sample("dim", "0").sample("index", "0");
  r.add("aten::slice_scatter", fam, keep(same))
      .sample("self", "sweep![2,2]").sample("src", "sweep![1,2]").sample("start", "0").sample("end", "1");
  r.add("aten::diagonal_scatter", fam, keep(same)).sample("self", "sweep![2,2]").sample("src", "sweep![2]");

  // Splits: lists of unknown length.
  auto splitRule = [](int rankDelta) {
    return [rankDelta](const OpCall &c) -> RuleResult {
      if (auto e = notZeroDim(c, "split")) return *e;
      return tensorList(c.dtype("self"), plus(c.rank("self"), rankDelta));
    };
  };
  r.add("aten::chunk", fam, splitRule(0)).sample("self", "sweep![2,2]").sample("chunks", "2");
  r.add("aten::split.Tensor", fam, splitRule(0)).sample("self", "sweep![2,2]").sample("split_size", "1");
  r.add("aten::split", fam, splitRule(0)).sample("self", "sweep![2,2]").sample("split_sizes", "[1,1]");
  r.add("aten::split.sizes", fam, splitRule(0)).sample("self", "sweep![2,2]").sample("split_size", "[1,1]");
  r.add("aten::split_with_sizes", fam, splitRule(0)).sample("self", "sweep![2,2]").sample("split_sizes", "[1,1]");
  r.add("aten::tensor_split.sections", fam, splitRule(0)).sample("self", "sweep![2,2]").sample("sections", "2");
  r.add("aten::tensor_split.indices", fam, splitRule(0)).sample("self", "sweep![2,2]").sample("indices", "[1]");
  r.add("aten::unbind.int", fam, [](const OpCall &c) -> RuleResult {
     if (auto e = notZeroDim(c, "unbind")) return *e;
     Rank rk = c.rank("self");
     return tensorList(c.dtype("self"), rk.value() ? Rank::exact(*rk.value() - 1) : Rank::top());
   }).sample("self", "sweep![2,2]");

  // Joins.
  r.add("aten::cat", fam, joinRule([](Rank rk) { return rk; }, true))
      .sample("tensors", "[sweep![2],sweep![2]]");
  r.add("aten::concat", fam, joinRule([](Rank rk) { return rk; }, true))
      .sample("tensors", "[sweep![2],sweep![2]]");
  r.add("aten::concatenate", fam, joinRule([](Rank rk) { return rk; }, true))
      .sample("tensors", "[sweep![2],sweep![2]]");
  r.add("aten::stack", fam, joinRule([](Rank rk) { return plus(rk, 1); }, false))
      .sample("tensors", "[sweep![2],sweep![2]]")
      .variant({{"tensors", "[sweep[],sweep[]]"}});
  r.add("aten::hstack", fam, joinRule([](Rank rk) { return atLeast(rk, 1); }, false))
      .sample("tensors", "[sweep![2],sweep![2]]")
      .variant({{"tensors", "[sweep[],sweep[]]"}})
      .variant({{"tensors", "[sweep,sweep]"}});
  r.add("aten::vstack", fam, joinRule([](Rank rk) { return atLeast(rk, 2); }, false))
      .sample("tensors", "[sweep![2],sweep![2]]")
      .variant({{"tensors", "[sweep[],sweep[]]"}});
  r.add("aten::column_stack", fam, joinRule([](Rank rk) { return atLeast(rk, 2); }, false))
      .sample("tensors", "[sweep![2],sweep![2]]")
      .variant({{"tensors", "[sweep[],sweep[]]"}});
  r.add("aten::broadcast_tensors", fam, [](const OpCall &c) -> RuleResult {
     const Value &l = c.arg("tensors");
     if (!l.isList() || !l.lengthKnown()) return Value::listOf(Value::unknownTensor());
     std::vector<Rank> ranks;
     for (const Value &e : l.elements()) ranks.push_back(e.rank());
     Rank b = broadcastRank(ranks);
     std::vector<Value> out;
     for (const Value &e : l.elements()) out.push_back(tensorOf(*e.dtype(), b));
     return Value::list(out);
   }).sample("tensors", "[sweep,sweep]");

  r.add("aten::repeat_interleave.Tensor", fam, [](const OpCall &c) -> RuleResult {
     return tensorOf(c.dtype("repeats"), Rank::exact(1));
   }).sample("repeats", "sweep![2]");
  auto riSelf = [](const OpCall &c) -> RuleResult {
    Rank rk = c.arg("dim").isNone() ? Rank::exact(1) : c.rank("self");
    return tensorOf(c.dtype("self"), rk);
  };
  r.add("aten::repeat_interleave.self_int", fam, riSelf).sample("self", "sweep![2]").sample("repeats", "2");
  r.add("aten::repeat_interleave.self_Tensor", fam, riSelf)
      .sample("self", "sweep![2]").sample("repeats", "int64[2]");

  // Python-level shape queries.
  const char *py = "view.query";
  r.add("aten::size.int", py, [](const OpCall &) -> RuleResult { return Value::number(NumKind::Int); })
      .sample("self", "sweep![2]").sample("dim", "0");
  r.add("aten::size", py, sizeRule);
  r.add("aten::numel", py, [](const OpCall &) -> RuleResult { return Value::number(NumKind::Int); });
  r.add("aten::dim", py, [](const OpCall &c) -> RuleResult {
    if (auto rk = c.rank("self").value()) return Value::integer(*rk);
    return Value::number(NumKind::Int);
  });
  r.add("aten::len.Tensor", py, [](const OpCall &c) -> RuleResult {
     if (auto e = notZeroDim(c, "len")) return *e;
     return Value::number(NumKind::Int);
   }).sample("t", "sweep![2]");
  r.add("aten::len.t", py, [](const OpCall &c) -> RuleResult {
     if (auto l = listLen(c.arg("a"))) return Value::integer(*l);
     return Value::number(NumKind::Int);
   });
  r.add("aten::__getitem__.t", py, [](const OpCall &c) -> RuleResult {
     const Value &l = c.arg("list");
     if (!l.isList()) return Value::top();
     if (l.lengthKnown()) {
       auto i = c.arg("idx").intValue();
       int64_t n = static_cast<int64_t>(l.elements().size());
       if (i) {
         int64_t k = *i < 0 ? *i + n : *i;
         if (k < 0 || k >= n) return c.error(ErrorKind::ValueDependent, "list index {} out of range", *i);
         return l.elements()[k];
       }
     }
     Value s = l.elementSummary();
     return s.isBottom() ? Value::top() : s;
   }).sample("idx", "1").variant({{"idx", "-2"}}).variant({{"idx", "2"}});
  r.add("aten::list.t", py, [](const OpCall &c) -> RuleResult { return c.arg("l"); });
}

} // namespace dtf
