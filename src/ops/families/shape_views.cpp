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
#include "ops/arg_checks.h"
#include "ops/vocabulary.h"
#include "ops/shape_rules.h"
#include "shape/unbacked.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

namespace dtf {
namespace {

using RankFn = std::function<RuleResult(const OpCall &, DType, Rank)>;

/// Result keeps self's dtype; `f` gives the rank from self's rank.
RuleFn keep(std::function<Rank(const OpCall &, Rank)> f, std::string self = "self") {
  return [f, self](const OpCall &c) -> RuleResult { return tensorOf(c.dtype(self), f(c, c.rank(self))); };
}

Rank same(const OpCall &, Rank r) { return r; }

/// movedim(self, int source, int destination): self's size-1 facts with
/// dim `source` moved to `destination`.
RuleFn movingFacts(RuleFn fn) {
  return [fn](const OpCall &c) -> RuleResult {
    RuleResult r = fn(c);
    auto ns = knownDim(c, "self", "source"), nd = knownDim(c, "self", "destination");
    if (!r.ok() || !ns || !nd) return r;
    const UnitDims u = c.arg("self").unitDims();
    return r.outputs()[0].withUnitDims(insertUnitDim(removeDim(u, *ns), *nd).withDim(*nd, u.sizeIsOne(*ns)));
  };
}

/// unflatten's sizes: an empty list is refused (both versions).
std::optional<RuleError> sizesGiven(const OpCall &c) {
  const Value &v = c.arg("sizes");
  if (!v.isList() || !v.lengthKnown() || !v.elements().empty()) return std::nullopt;
  return c.error(ErrorKind::ValueDependent, "unflatten: sizes must be non-empty");
}

/// unflatten(self, dim, sizes): dim `dim` becomes one dim per size (1: size
/// 1; 0, 2, 3 ...: not; -1: unknown), the others keep self's facts.
RuleFn unflattenFacts(RuleFn fn) {
  return [fn](const OpCall &c) -> RuleResult {
    RuleResult r = fn(c);
    auto nd = knownDim(c, "self", "dim");
    const Value &sizes = c.arg("sizes");
    if (!r.ok() || !nd || !sizes.isList() || !sizes.lengthKnown()) return r;
    UnitDims u = removeDim(c.arg("self").unitDims(), *nd);
    for (size_t i = 0; i < sizes.elements().size(); ++i) {
      auto v = sizes.elements()[i].intValue();
      std::optional<bool> one = v && *v >= 0 ? std::optional<bool>(*v == 1) : std::nullopt;
      const int at = *nd + static_cast<int>(i);
      u = insertUnitDim(u, at).withDim(at, one);
    }
    return r.outputs()[0].withUnitDims(u);
  };
}

/// Length of an int[] argument when known.
std::optional<int> listLen(const Value &v) {
  if (v.isList() && v.lengthKnown()) return static_cast<int>(v.elements().size());
  return std::nullopt;
}

/// The indices Python's `l[start:end:step]` takes from a list of n
/// (PySlice_AdjustIndices: bounds clamp, negatives count from the end).
std::vector<int64_t> pythonSliceIndices(int64_t n, std::optional<int64_t> start, std::optional<int64_t> end,
                                        int64_t step) {
  auto adjust = [&](std::optional<int64_t> v, int64_t dflt) {
    if (!v) return dflt;
    int64_t x = *v < 0 ? *v + n : *v;
    const int64_t lo = step < 0 ? -1 : 0, hi = step < 0 ? n - 1 : n;
    return std::clamp(x, lo, hi);
  };
  const int64_t from = adjust(start, step < 0 ? n - 1 : 0), to = adjust(end, step < 0 ? -1 : n);
  std::vector<int64_t> out;
  for (int64_t i = from; step > 0 ? i < to : i > to; i += step) out.push_back(i);
  return out;
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

uint32_t bitOf(int i) { return i < 32 ? uint32_t{1} << i : 0; }

std::optional<RuleError> notZeroDim(const OpCall &c, const char *what, std::string_view arg = "self") {
  if (auto r = c.rank(arg).value(); r && *r == 0)
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

Joined joinList(const DTypeSystem &types, const Value &l) {
  Joined j;
  if (!l.isList()) return {DTypeSet::all(), Rank::top(), true, {}};
  if (l.lengthKnown()) {
    if (l.elements().empty()) return {DTypeSet(), Rank::top(), false, "expected a non-empty list of tensors"};
    std::optional<DType> acc;
    int best = -1;
    bool exact = true, nonzero = false;
    for (const Value &e : l.elements()) {
      DType d = *e.dtype();
      acc = acc ? types.promote(*acc, d) : d; // raises as cat does
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
        auto p = types.tryPromote(a, b); // the pairs that raise make no result
        if (p && !out.contains(*p)) { out.insert(*p); grew = true; }
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
    Joined j = joinList(c.types(), l);
    if (!j.ok) return c.semantic("{}", j.error);
    const Rank out = rankOf(j.rank);
    // cat's dim names an input dim, stack's a result dim: either way one of the result's
    if (auto d = c.has("dim") ? c.arg("dim").intValue() : std::nullopt; d && out.value() && *out.value() > 0 &&
                                                                       !wrapDim(*d, *out.value()))
      return c.semantic("Dimension out of range (expected to be in range of [{}, {}], but got {})", -*out.value(),
                        *out.value() - 1, *d);
    return Value::tensor(j.dtypes, out);
  };
}

/// cat's size-1 facts, when every input has the result's exact rank (no
/// legacy empty 1-D input is skipped): off the cat dim the inputs' sizes are
/// equal, so any input's fact holds; on it, two or more inputs of size 1
/// sum to more than 1.
RuleFn catFacts(RuleFn fn) {
  return [fn = std::move(fn)](const OpCall &c) -> RuleResult {
    RuleResult r = fn(c);
    const Value &l = c.arg("tensors");
    if (!r.ok() || r.outputs().size() != 1 || !l.isList() || !l.lengthKnown()) return r;
    Value out = r.outputs()[0];
    auto rk = out.isTensor() ? out.rank().value() : std::nullopt;
    auto dim = c.arg("dim").intValue();
    if (!rk || *rk == 0 || *rk > 32 || !dim) return r;
    auto nd = wrapDim(*dim, *rk);
    if (!nd) return r;
    UnitDims u;
    uint32_t allOnesAtDim = bitOf(*nd);
    for (const Value &e : l.elements()) {
      if (e.rank() != Rank::exact(*rk)) return r;
      UnitDims f = e.unitDims();
      u.ones |= f.ones & ~bitOf(*nd);
      u.others |= f.others & ~bitOf(*nd);
      allOnesAtDim &= f.ones;
    }
    if (allOnesAtDim && l.elements().size() >= 2) u.others |= bitOf(*nd);
    return out.withUnitDims(u);
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
  auto ns = wrapDim(*s, *r), ne = wrapDim(*e, *r);
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
  if (r && dim && !wrapDim(*dim, *r)) return c.semantic("dimension {} out of range for a {}-D tensor", *dim, *r);
  if (r && *r == 0) return tensorOf(d, Rank::exact(0));
  if (r && dim) {
    auto nd = wrapDim(*dim, *r);
    UnitDims u = self.unitDims();
    uint32_t bit = *nd < 32 ? uint32_t{1} << *nd : 0;
    if (u.ones & bit) return tensorOf(d, Rank::exact(*r - 1)).withUnitDims(removeDim(u, *nd));
    if (u.others & bit) return tensorOf(d, Rank::exact(*r)).withUnitDims(u);
  }
  if (r && *r >= 2) return tensorOf(d, Rank::atLeast1());
  return tensorOf(d, Rank::top());
}

/// squeeze.dims (2.x): each listed dim goes when its size is 1; the rank is
/// known when each listed dim is known to be 1 or not.
RuleResult squeezeDimsRule(const OpCall &c) {
  DType d = c.dtype("self");
  const Value &self = c.arg("self"), &dims = c.arg("dim");
  auto r = self.rank().value();
  if (!r || !dims.isList() || !dims.lengthKnown()) return tensorOf(d, Rank::top());
  if (*r == 0) return tensorOf(d, Rank::exact(0)); // dims -1 and 0 name the one pseudo-dim
  std::vector<int> gone;
  UnitDims u = self.unitDims();
  for (const Value &e : dims.elements()) {
    auto i = e.intValue();
    auto nd = i ? wrapDim(*i, *r) : std::nullopt;
    if (!i) return tensorOf(d, Rank::top());
    if (!nd) return c.semantic("dimension {} out of range for a {}-D tensor", *i, *r);
    uint32_t bit = *nd < 32 ? uint32_t{1} << *nd : 0;
    if (u.ones & bit) gone.push_back(*nd);
    else if (!(u.others & bit)) return tensorOf(d, Rank::top());
  }
  std::sort(gone.begin(), gone.end());
  gone.erase(std::unique(gone.begin(), gone.end()), gone.end());
  for (auto it = gone.rbegin(); it != gone.rend(); ++it) u = removeDim(u, *it);
  return tensorOf(d, Rank::exact(*r - static_cast<int>(gone.size()))).withUnitDims(u);
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
  auto nd = wrapDim(*dim, *r + 1);
  if (!nd) return c.semantic("dimension {} out of range for unsqueeze of a {}-D tensor", *dim, *r);
  return tensorOf(d, Rank::exact(*r + 1)).withUnitDims(insertUnitDim(self.unitDims(), *nd));
}

/// Size-1 facts of a shape list: a known 1 is a size-1 dim, another known
/// size a non-1 dim. For expand (`from` = self), -1 keeps self's dim
/// (right-aligned).
UnitDims factsOfSizes(const Value &sizes, const Value *from = nullptr) {
  UnitDims u;
  if (!sizes.isList() || !sizes.lengthKnown() || sizes.elements().size() > 32) return u;
  const auto &el = sizes.elements();
  int n = static_cast<int>(el.size());
  auto inRank = from ? from->rank().value() : std::nullopt;
  for (int i = 0; i < n; ++i) {
    auto v = el[i].isNumber() ? el[i].intValue() : std::nullopt;
    if (!v) continue;
    if (*v == 1) u.ones |= bitOf(i);
    else if (*v >= 0) u.others |= bitOf(i);
    else if (*v == -1 && from && inRank && i - (n - *inRank) >= 0) {
      int j = i - (n - *inRank);
      UnitDims in = from->unitDims();
      if (in.ones & bitOf(j)) u.ones |= bitOf(i);
      if (in.others & bitOf(j)) u.others |= bitOf(i);
    }
  }
  return u;
}

/// `fn`, with the facts of a shape list argument on its (exact-rank) result.
/// `fn`, after the known entries of size list `list` pass sizeListError.
RuleFn checkingSizes(RuleFn fn, std::string list, SizeList kind) {
  return [fn = std::move(fn), list, kind](const OpCall &c) -> RuleResult {
    if (auto e = sizeListError(c, list, kind)) return *e;
    return fn(c);
  };
}

RuleFn sizedBy(RuleFn fn, std::string list, bool expand) {
  return [fn = std::move(fn), list, expand](const OpCall &c) -> RuleResult {
    RuleResult r = fn(c);
    if (!r.ok() || r.outputs().size() != 1 || !r.outputs()[0].isTensor()) return r;
    const Value &self = c.arg("self");
    return r.outputs()[0].withUnitDims(factsOfSizes(c.arg(list), expand ? &self : nullptr));
  };
}

/// stack's size-1 facts: the inputs have one shape (else it raises), so any
/// input's fact holds off the new dim; the new dim has one entry per input.
RuleFn stackFacts(RuleFn fn) {
  return [fn = std::move(fn)](const OpCall &c) -> RuleResult {
    RuleResult r = fn(c);
    const Value &l = c.arg("tensors");
    if (!r.ok() || r.outputs().size() != 1 || !l.isList() || !l.lengthKnown() || l.elements().empty()) return r;
    Value out = r.outputs()[0];
    auto rk = out.isTensor() ? out.rank().value() : std::nullopt;
    auto dim = c.arg("dim").intValue();
    if (!rk || *rk > 32 || !dim) return r;
    auto nd = wrapDim(*dim, *rk);
    if (!nd) return r;
    UnitDims in;
    for (const Value &e : l.elements()) {
      if (e.rank() != Rank::exact(*rk - 1)) return r;
      in.ones |= e.unitDims().ones;
      in.others |= e.unitDims().others;
    }
    const uint32_t conflict = in.ones & in.others; // it raises there: claim nothing
    in.ones &= ~conflict;
    in.others &= ~conflict;
    UnitDims u = insertUnitDim(in, *nd); // the new dim: size 1 only for one input
    if (l.elements().size() >= 2) u = u.withDim(*nd, false);
    return out.withUnitDims(u);
  };
}

/// repeat's size-1 facts: result dim i (aligned to the right with self's
/// dims, leading dims new) has size self_i * repeats_i: self's fact when the
/// repeat is 1 (a new dim: size 1), never 1 for any other count (0 or >= 2).
/// `padded`: tile, whose short `dims` lists are padded with leading 1s.
RuleFn repeatFacts(RuleFn fn, std::string list, bool padded) {
  return [fn = std::move(fn), list, padded](const OpCall &c) -> RuleResult {
    RuleResult r = fn(c);
    const Value &reps = c.arg(list);
    auto in = c.rank("self").value();
    if (!r.ok() || r.outputs().size() != 1 || !in || !reps.isList() || !reps.lengthKnown()) return r;
    Value out = r.outputs()[0];
    auto rk = out.isTensor() ? out.rank().value() : std::nullopt;
    const int n = static_cast<int>(reps.elements().size());
    if (!rk || *rk > 32 || *rk != std::max(n, padded ? *in : n)) return r;
    const UnitDims self = c.arg("self").unitDims();
    UnitDims u;
    for (int i = 0; i < *rk; ++i) {
      const int k = i - (*rk - n), s = i - (*rk - *in); // index into repeats / self (< 0: padded / new)
      std::optional<int64_t> count = k >= 0 ? reps.elements()[k].intValue() : std::optional<int64_t>(1);
      if (!count) continue;
      if (*count != 1) u.others |= bitOf(i);
      else if (s < 0) u.ones |= bitOf(i);
      else {
        if (self.ones & bitOf(s)) u.ones |= bitOf(i);
        if (self.others & bitOf(s)) u.others |= bitOf(i);
      }
    }
    return out.withUnitDims(u);
  };
}

/// expand / broadcast_to / repeat: a size list shorter than self's rank is
/// refused (sizes only ever add leading dims).
RuleFn noFewerSizes(RuleFn fn, std::string list) {
  return [fn = std::move(fn), list](const OpCall &c) -> RuleResult {
    auto len = listLen(c.arg(list));
    auto rk = c.rank("self").value();
    if (len && rk && *len < *rk)
      return c.semantic("the number of sizes provided in {} ({}) must be greater or equal to the number of "
                        "dimensions in the tensor ({})", list, *len, *rk);
    return fn(c);
  };
}

/// Facts of self's dims reordered: result dim i is self's dim perm[i].
Value permuted(Value out, const Value &self, const std::vector<int> &perm) {
  UnitDims in = self.unitDims(), u;
  for (size_t i = 0; i < perm.size() && i < 32; ++i) {
    if (in.ones & bitOf(perm[i])) u.ones |= bitOf(static_cast<int>(i));
    if (in.others & bitOf(perm[i])) u.others |= bitOf(static_cast<int>(i));
  }
  return out.withUnitDims(u);
}

/// Same-rank rule that swaps dims a and b (given by argument names, or the
/// last two when empty) in the facts.
RuleFn swapping(RuleFn fn, std::string a, std::string b) {
  return [fn = std::move(fn), a, b](const OpCall &c) -> RuleResult {
    RuleResult r = fn(c);
    const Value &self = c.arg("self");
    auto rk = self.rank().value();
    if (!r.ok() || !rk || r.outputs().size() != 1 || !r.outputs()[0].isTensor()) return r;
    if (*rk < 2) return r.outputs()[0].withUnitDims(self.unitDims());
    std::optional<int> x = *rk - 2, y = *rk - 1;
    if (!a.empty()) {
      auto va = c.arg(a).intValue(), vb = c.arg(b).intValue();
      x = va ? wrapDim(*va, *rk) : std::nullopt;
      y = vb ? wrapDim(*vb, *rk) : std::nullopt;
    }
    if (!x || !y) return r;
    std::vector<int> perm(*rk);
    for (int i = 0; i < *rk; ++i) perm[i] = i;
    std::swap(perm[*x], perm[*y]);
    return permuted(r.outputs()[0], self, perm);
  };
}

/// A dim's size: 1 when the size-1 facts say so, else some int.
Value dimSize(const Value &self, int d) {
  if (Dim n = self.dimAt(d); n.known()) return Value::symInt(*n.expr());
  return self.unitDims().ones & bitOf(d) ? Value::integer(1) : Value::number(NumKind::Int);
}

RuleResult sizeRule(const OpCall &c) {
  const Value &self = c.arg("self");
  if (auto r = self.rank().value()) {
    std::vector<Value> out;
    for (int d = 0; d < *r; ++d) out.push_back(dimSize(self, d));
    return Value::list(out);
  }
  return Value::listOf(Value::number(NumKind::Int));
}

/// view, reshape, expand, repeat, tile, flatten: the sizes given decide the rank.
void registerReshapes(Registry &r) {
  const char *fam = "view";
  auto sizeOf = [](std::string n) {
    return [n](const OpCall &c, Rank) { return lenRank(c, n); };
  };
  auto shaped = [&](const char *list) {
    return checkingSizes(sizedBy(keep(sizeOf(list)), list, false), list, SizeList::Shape);
  };
  r.add("aten::view", fam, shaped("size")).sample("self", "sweep[2,2]").sample("size", "[-1]")
      .variant({{"self", "sweep![2,2]"}, {"size", "[1,4,1]"}}).variant({{"self", "sweep![2,2]"}, {"size", "[2,1,-1]"}})
      .variant({{"self", "float32[2,2]"}, {"size", "[-1,-1]"}}).variant({{"self", "float32[2,2]"}, {"size", "[-2,-2]"}});
  r.add("aten::_unsafe_view", fam, shaped("size")).sample("self", "sweep[2,2]").sample("size", "[-1]");
  r.add("aten::reshape", fam, shaped("shape")).sample("self", "sweep[2,2]").sample("shape", "[-1]")
      .variant({{"self", "sweep![2,2]"}, {"shape", "[1,4,1]"}}).variant({{"self", "sweep![2,2]"}, {"shape", "[2,1,-1]"}})
      .variant({{"self", "float32[2,2]"}, {"shape", "[-1,-1]"}}).variant({{"self", "float32[2,2]"}, {"shape", "[-2,-2]"}});
  r.add("aten::_reshape_alias", fam, keep(sizeOf("size")))
      .sample("self", "sweep![2,2]").sample("size", "[4]").sample("stride", "[1]");
  for (const char *k : {"aten::as_strided", "aten::as_strided_"}) // the in-place form restrides self
    r.add(k, fam, keep(sizeOf("size"))).sample("self", "sweep![2,2]").sample("size", "[2]").sample("stride", "[1]");
  RuleFn expanding = checkingSizes(noFewerSizes(sizedBy(keep(sizeOf("size")), "size", true), "size"), "size",
                                   SizeList::Expand);
  r.add("aten::expand", fam, expanding).sample("self", "sweep[2]").sample("size", "[2,2]")
      .variant({{"self", "sweep![1,2]"}, {"size", "[3,-1,-1]"}}).variant({{"self", "sweep![2,1]"}, {"size", "[-1,1]"}})
      .variant({{"self", "sweep![2,2,2]"}, {"size", "[2,2]"}})
      .variant({{"self", "float32[1,2]"}, {"size", "[-1,1,2]"}}).variant({{"self", "float32[1,2]"}, {"size", "[-2,2]"}});
  r.add("aten::expand_copy", fam, expanding)
      .sample("self", "sweep[2]").sample("size", "[2,2]").variant({{"self", "sweep![2,2]"}, {"size", "[2]"}});
  r.add("aten::broadcast_to", fam, expanding)
      .sample("self", "sweep[2]").sample("size", "[2,2]")
      .variant({{"self", "sweep![1,2]"}, {"size", "[1,-1,-1]"}}).variant({{"self", "sweep![2,2]"}, {"size", "[2]"}})
      .variant({{"self", "float32[2]"}, {"size", "[-1,2]"}});
  r.add("aten::repeat", fam, checkingSizes(repeatFacts(noFewerSizes(keep(sizeOf("repeats")), "repeats"), "repeats", false),
                                           "repeats", SizeList::Repeats))
      .sample("self", "sweep[2]").sample("repeats", "[2,2]").variant({{"self", "sweep![2,2]"}, {"repeats", "[2]"}})
      .variant({{"self", "sweep![1,2]"}, {"repeats", "[1,1,3]"}})
      .variant({{"self", "sweep![1,2]"}, {"repeats", "[3,0,1]"}})
      .variant({{"self", "float32[1,2]"}, {"repeats", "[-1,1]"}})
      .variant({{"self", "float32[2,3]"}, {"repeats", "[4,2,3]"}});
  r.declare("aten::tile", OpFact::DimsAreCounts); // its `dims` are repeat counts
  r.add("aten::tile", fam, repeatFacts(keep([](const OpCall &c, Rank rk) -> Rank {
     auto l = listLen(c.arg("dims"));
     if (auto v = rk.value(); v && l) return Rank::exact(std::max(*v, *l));
     if (l && *l > 0) return Rank::atLeast1();
     return Rank::top();
   }), "dims", true)).sample("self", "sweep[2]").sample("dims", "[2,2]")
      .variant({{"self", "sweep![1,2,1]"}, {"dims", "[1,2]"}})
      .variant({{"self", "sweep![1,2]"}, {"dims", "[1,1,3]"}})
      .variant({{"self", "float32[2,3,4]"}, {"dims", "[3,2]"}});
  for (const char *k : {"aten::view_as", "aten::reshape_as", "aten::expand_as"})
    r.add(k, fam, keepingShape([](const OpCall &c) -> RuleResult { // other's shape
       // expand cannot drop dims: other needs at least self's rank.
       auto rs = c.rank("self").value(), ro = c.rank("other").value();
       if (c.key() == "aten::expand_as" && rs && ro && *ro < *rs)
         return c.semantic("the number of sizes provided ({}) must be greater or equal to the number of dimensions "
                           "in the tensor ({})", *ro, *rs);
       return tensorOf(c.dtype("self"), c.rank("other"));
     }, "other"))
        .sample("self", "sweep[1]").sample("other", "float32[1]")
        .variant({{"self", "sweep![2]"}, {"other", "float32[2]"}})
        .variant({{"self", "sweep![1,1]"}, {"other", "float32[1]"}});

  r.add("aten::flatten.using_ints", fam, flattenRule).sample("self", "sweep[2,2]")
      .variant({{"self", "sweep![2,2,2]"}, {"start_dim", "1"}, {"end_dim", "2"}});
  // An empty sizes is refused whatever self is (both versions).
  r.add("aten::unflatten.int", fam, checks::before(sizesGiven,
                                                   unflattenFacts(keep([](const OpCall &c, Rank rk) -> Rank {
     auto l = listLen(c.arg("sizes"));
     if (auto v = rk.value(); v && l) return Rank::exact(*v - 1 + *l);
     return Rank::top();
   })))).sample("self", "sweep![4]").sample("dim", "0").sample("sizes", "[2,2]")
      .variant({{"self", "sweep![2,1]"}, {"dim", "1"}, {"sizes", "[]"}})
      .variant({{"self", "sweep![1,3,1]"}, {"dim", "1"}, {"sizes", "[3,1]"}})
      .variant({{"self", "sweep![2,4]"}, {"dim", "-1"}, {"sizes", "[1,-1,2]"}});
  r.add("aten::ravel", fam, keep([](const OpCall &, Rank) { return Rank::exact(1); }));
}

/// Views and copies of self's rank: flips, triangles, transposes, reorders.
void registerSameRankViews(Registry &r) {
  const char *fam = "view";
  // Same rank.
  struct Same { const char *key; std::map<std::string, std::string, std::less<>> samples; };
  for (const Same &s : std::vector<Same>{
           {"aten::alias", {{"self", "sweep"}}},
           {"aten::movedim.int", {{"self", "sweep![2,2]"}, {"source", "0"}, {"destination", "1"}}},
           {"aten::movedim.intlist", {{"self", "sweep![2,2]"}, {"source", "[0]"}, {"destination", "[1]"}}},
           {"aten::moveaxis.int", {{"self", "sweep![2,2]"}, {"source", "0"}, {"destination", "1"}}},
           {"aten::moveaxis.intlist", {{"self", "sweep![2,2]"}, {"source", "[0]"}, {"destination", "[1]"}}},
           {"aten::narrow", {{"self", "sweep![2,2]"}, {"dim", "0"}, {"start", "0"}, {"length", "1"}}},
           {"aten::narrow.Tensor", {{"self", "sweep![2,2]"}, {"dim", "0"}, {"start", "sweep[1]=0"}, {"length", "1"}}},
           {"aten::narrow_copy", {{"self", "sweep![2,2]"}, {"dim", "0"}, {"start", "0"}, {"length", "1"}}},
           {"aten::flip", {{"self", "sweep![2,2]"}, {"dims", "[0]"}}},
           {"aten::roll", {{"self", "sweep![2,2]"}, {"shifts", "[1]"}, {"dims", "[0]"}}},
       }) {
    RuleFn fn = keep(same);
    const std::string_view key = s.key;
    if (key == "aten::flip" || key == "aten::roll") fn = keepingShape(fn);
    const bool movesOneDim = key == "aten::movedim.int" || key == "aten::moveaxis.int";
    if (movesOneDim) fn = movingFacts(fn);
    const bool narrow = key.starts_with("aten::narrow");
    if (narrow) // narrow() cannot be applied to a 0-dim tensor
      fn = [fn, startTensor = key == "aten::narrow.Tensor"](const OpCall &c) -> RuleResult {
        // A tensor start is read first, whatever else is wrong (measured on 1.13).
        if (startTensor && (c.rank("start").mayBeNonZero() || !isIntegral(c.dtype("start"), false)))
          return c.semantic("start must be an 0-dim integral Tensor");
        if (auto e = notZeroDim(c, "narrow")) return *e;
        return fn(c);
      };
    auto e = r.add(s.key, fam, fn);
    for (auto &[a, v] : s.samples) e.sample(a, v);
    if (narrow) e.variant({{"self", "sweep![]"}}).atLeast("length", 0, "narrow(): length must be non-negative");
    if (key.ends_with(".intlist")) // (float32 variants: the moved sizes)
      e.variant({{"self", "float32[2,3,4]"}, {"source", "[0,2]"}, {"destination", "[2,0]"}})
          .variant({{"self", "float32[2,3,4,5]"}, {"source", "[-1,0]"}, {"destination", "[1,3]"}})
          .refuse(checks::sameLength("source", "destination", "movedim: invalid source or destination dims"),
               {{"source", "[0,1]"}, {"destination", "[1]"}})
          .refuse(checks::distinctDims("self", {"source", "destination"}), {{"source", "[0,-2]"}, {"destination", "[0,1]"}});
    if (key == "aten::flip") e.refuse(checks::distinctDims("self", {"dims"}), {{"dims", "[0,-2]"}});
    if (key == "aten::roll")
      e.refuse(checks::rollShifts(), {{"shifts", "[1,1]"}}).variant({{"shifts", "[]"}, {"dims", "[]"}});
    if (movesOneDim)
      e.variant({{"self", "sweep![1,2,3]"}, {"source", "0"}, {"destination", "-1"}})
          .variant({{"self", "sweep![2,3,1]"}, {"source", "-1"}, {"destination", "1"}})
          .variant({{"self", "float32[2,3,4]"}, {"source", "-1"}, {"destination", "0"}});
  }
  // fliplr needs 2 dims, flipud 1. (An init-capture: clang 14 cannot capture a structured binding.)
  for (auto [key, minRank] : {std::pair{"aten::fliplr", 2}, std::pair{"aten::flipud", 1}})
    r.add(key, fam, keepingShape([minRank = minRank](const OpCall &c) -> RuleResult {
       if (auto rk = c.rank("self").value(); rk && *rk < minRank)
         return c.semantic("input must be >= {}-d, got {}-D", minRank, *rk);
       return tensorOf(c.dtype("self"), c.rank("self"));
     })).sample("self", "sweep![2,2]").variant({{"self", "sweep[2]"}});
  // tril/triu wrap dims -2 and -1 (a 0-dim or 1-D self raises); rot90 needs
  // two distinct rotation dims of a tensor with at least 2 dims.
  for (const char *k : {"aten::tril", "aten::triu", "aten::tril_", "aten::triu_"})
    r.add(k, fam, keepingShape([](const OpCall &c) -> RuleResult {
       if (auto rk = c.rank("self").value(); rk && *rk < 2)
         return c.semantic("dimension out of range: self must have at least 2 dimensions, got {}-D", *rk);
       return tensorOf(c.dtype("self"), c.rank("self"));
     })).sample("self", "sweep![2,2]").variant({{"self", "sweep[2]"}});
  r.add("aten::rot90", fam, [](const OpCall &c) -> RuleResult {
     const Value &dims = c.arg("dims");
     if (auto l = listLen(dims); l && *l != 2)
       return c.semantic("expected total rotation dims == 2, but got dims = {}", *l);
     auto rk = c.rank("self").value();
     if (rk && *rk < 2) return c.semantic("expected total dims >= 2, but got total dims = {}", *rk);
     if (rk && dims.isList() && dims.lengthKnown()) {
       auto d0 = dims.elements()[0].intValue(), d1 = dims.elements()[1].intValue();
       auto n0 = d0 ? wrapDim(*d0, *rk) : std::nullopt, n1 = d1 ? wrapDim(*d1, *rk) : std::nullopt;
       if ((d0 && !n0) || (d1 && !n1)) return c.semantic("rotation dim out of range for a {}-D tensor", *rk);
       if (n0 && n1 && *n0 == *n1) return c.semantic("expected rotation dims to be different, but got dim0 = {} and dim1 = {}", *d0, *d1);
     }
     return tensorOf(c.dtype("self"), c.rank("self"));
   }).sample("self", "sweep![2,2]").variant({{"self", "sweep[2]"}}).variant({{"self", "sweep![2,2,2]"}, {"dims", "[-1,0]"}});
  // Matrix transposes. torch lists each twice (`aten::mT` and
  // `aten::mT.a`, identical schemas), and a graph node may resolve to either.
  for (const char *k : {"aten::mT", "aten::mT.a", "aten::mH", "aten::mH.a", "aten::matrix_H", "aten::matrix_H.a",
                        "aten::adjoint"})
    r.add(k, fam, swapping([](const OpCall &c) -> RuleResult {
       // 1.13 rejects 1-D (a 0-dim tensor is returned as is); matrix_H
       // (tensor.H) also rejects batches.
       auto rk = c.rank("self").value();
       if (rk && *rk == 1) return c.semantic("only supported on matrices or batches of matrices, got a 1-D tensor");
       if (rk && *rk > 2 && c.key().starts_with("aten::matrix_H"))
         return c.semantic("tensor.H is only supported on matrices (2-D tensors), got {}-D", *rk);
       return tensorOf(c.dtype("self"), c.rank("self"));
     }, "", "")).sample("self", "sweep![2,2]").variant({{"self", "sweep[2]"}}).variant({{"self", "sweep![3,1,2]"}});
  // Reorders carry the size-1 facts along.
  r.add("aten::permute", fam, [](const OpCall &c) -> RuleResult {
     const Value &self = c.arg("self");
     Value out = tensorOf(c.dtype("self"), self.rank());
     auto rk = self.rank().value();
     const Value &dims = c.arg("dims");
     if (!rk || !dims.isList() || !dims.lengthKnown()) return out;
     if (static_cast<int>(dims.elements().size()) != *rk)
       return c.semantic("number of dims don't match in permute: self is {}-D, dims has {} elements", *rk,
                         dims.elements().size());
     std::vector<int> perm;
     bool allKnown = true;
     for (const Value &d : dims.elements()) {
       auto v = d.intValue();
       if (!v) { allKnown = false; continue; }
       auto nd = wrapDim(*v, *rk);
       if (!nd) return c.semantic("dimension out of range (expected to be in range of [{}, {}], but got {})",
                                  -std::max(*rk, 1), std::max(*rk, 1) - 1, *v);
       if (std::find(perm.begin(), perm.end(), *nd) != perm.end())
         return c.semantic("repeated dim {} in permute", *v);
       perm.push_back(*nd);
     }
     if (!allKnown) return out;
     return permuted(out, self, perm);
   }).sample("self", "sweep![2,2]").sample("dims", "[1,0]").variant({{"self", "sweep![2,1,3]"}, {"dims", "[2,0,1]"}})
   .variant({{"dims", "[0]"}}).variant({{"dims", "[1,1]"}}).variant({{"self", "sweep[]"}, {"dims", "[0]"}});
  // In-place views may change self's rank: other names of the tensor see it.
  for (const char *k : {"aten::transpose_", "aten::swapdims_", "aten::swapaxes_", "aten::t_", "aten::squeeze_",
                        "aten::unsqueeze_", "aten::as_strided_"})
    r.declare(k, OpFact::ReshapesSelfInPlace);
  for (const char *k : {"aten::transpose.int", "aten::transpose_", "aten::swapdims", "aten::swapdims_"})
    r.add(k, fam, swapping(keep(same), "dim0", "dim1")).sample("self", "sweep![2,2]").sample("dim0", "0").sample("dim1", "1")
        .variant({{"self", "sweep![2,1,3]"}, {"dim0", "-1"}, {"dim1", "1"}});
  for (const char *k : {"aten::swapaxes", "aten::swapaxes_"})
    r.add(k, fam, swapping(keep(same), "axis0", "axis1")).sample("self", "sweep![2,2]").sample("axis0", "0")
        .sample("axis1", "1").variant({{"self", "sweep![2,1,3]"}, {"axis0", "-1"}, {"axis1", "1"}});
  // numpy_T (tensor.T) reverses every dim.
  for (const char *k : {"aten::numpy_T", "aten::numpy_T.a"})
    r.add(k, fam, [](const OpCall &c) -> RuleResult {
       const Value &self = c.arg("self");
       Value out = tensorOf(c.dtype("self"), self.rank());
       auto rk = self.rank().value();
       if (!rk) return out;
       std::vector<int> perm;
       for (int i = *rk - 1; i >= 0; --i) perm.push_back(i);
       return permuted(out, self, perm);
     }).sample("self", "sweep[2,2]").variant({{"self", "sweep![1,2,3]"}});
  // t() takes at most 2 dims.
  auto tRule = swapping([](const OpCall &c) -> RuleResult {
    if (auto rk = c.rank("self").value(); rk && *rk > 2)
      return c.semantic("t() expects a tensor with <= 2 dimensions, but self is {}-D", *rk);
    return tensorOf(c.dtype("self"), c.rank("self"));
  }, "", "");
  r.add("aten::t", fam, tRule).sample("self", "sweep[2]").variant({{"self", "sweep![1,2]"}})
      .variant({{"self", "sweep![1,2,2]"}});
  r.add("aten::t_", fam, tRule).sample("self", "sweep![1,2]").variant({{"self", "sweep![1,2,2]"}});
}

/// Slices, selects, squeezes, unsqueezes and diagonals: a dim gone or added.
void registerSlicesAndSqueezes(Registry &r) {
  const char *fam = "view";
  // Size-1 facts: the other dims keep theirs; a sliced dim of size 1 keeps
  // its one element when the clamped range [start, end) holds index 0, and
  // is empty (size 0) otherwise; a sliced dim of any other size: unknown.
  r.add("aten::slice.Tensor", fam, [](const OpCall &c) -> RuleResult {
     if (auto e = notZeroDim(c, "slice")) return *e;
     Value out = tensorOf(c.dtype("self"), c.rank("self"));
     auto rk = c.rank("self").value();
     auto dim = c.arg("dim").intValue();
     auto nd = rk && dim && *rk <= 32 ? wrapDim(*dim, *rk) : std::nullopt;
     if (!nd) return out;
     const UnitDims in = c.arg("self").unitDims();
     const uint32_t bit = bitOf(*nd);
     UnitDims u{in.ones & ~bit, in.others & ~bit};
     auto start = c.isNone("start") ? std::optional<int64_t>(0) : c.arg("start").intValue();
     auto end = c.isNone("end") ? std::optional<int64_t>(1) : c.arg("end").intValue();
     auto step = c.arg("step").intValue();
     if ((in.ones & bit) && start && end && step && *step > 0) {
       auto clamp = [](int64_t i) -> int64_t { return i < 0 ? std::max<int64_t>(i + 1, 0) : std::min<int64_t>(i, 1); };
       if (clamp(*start) < clamp(*end)) u.ones |= bit;
       else u.others |= bit;
     }
     return out.withUnitDims(u);
   }).sample("self", "sweep![2,2]").sample("start", "0").sample("end", "1")
      .variant({{"self", "sweep![1,2]"}, {"dim", "0"}, {"start", "0"}, {"end", "9223372036854775807"}})
      .variant({{"self", "sweep![1,2]"}, {"dim", "0"}, {"start", "-1"}, {"end", "None"}})
      .variant({{"self", "sweep![1,2]"}, {"dim", "0"}, {"start", "1"}, {"end", "None"}})
      .variant({{"self", "sweep![1,2]"}, {"dim", "0"}, {"start", "0"}, {"end", "-1"}})
      .variant({{"self", "sweep![1,2]"}, {"dim", "-1"}, {"start", "0"}, {"end", "1"}})
      .atLeast("step", 1, "slice step must be positive");
  r.add("aten::select.int", fam, [](const OpCall &c) -> RuleResult {
     if (auto e = notZeroDim(c, "select")) return *e;
     const Value &self = c.arg("self");
     auto rk = self.rank().value();
     if (!rk) return tensorOf(c.dtype("self"), Rank::top());
     Value out = tensorOf(c.dtype("self"), Rank::exact(*rk - 1));
     auto nd = c.arg("dim").intValue() ? wrapDim(*c.arg("dim").intValue(), *rk) : std::nullopt;
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
  r.add("aten::squeeze.dims", fam, squeezeDimsRule).sample("self", "sweep[1,2]").sample("dim", "[0]")
      .variant({{"dim", "[1]"}}).variant({{"dim", "[0,1]"}}).variant({{"self", "sweep![2,1]"}, {"dim", "[-1,0]"}});
  r.add("aten::squeeze_.dims", fam, squeezeDimsRule).sample("self", "sweep[1,2]").sample("dim", "[0]")
      .variant({{"dim", "[1]"}}).variant({{"dim", "[0,1]"}}).variant({{"self", "sweep![2,1]"}, {"dim", "[-1,0]"}});
  // unsqueeze's dim may name the dim it adds (-1 of a 1-D x is 2-D's last).
  r.declare("aten::unsqueeze", OpFact::DimsIncludeNew);
  r.declare("aten::unsqueeze_", OpFact::DimsIncludeNew);
  r.add("aten::unsqueeze", fam, unsqueezeRule).sample("dim", "0").variant({{"dim", "-1"}})
      .variant({{"self", "sweep![2,1]"}, {"dim", "1"}});
  r.add("aten::unsqueeze_", fam, unsqueezeRule).sample("dim", "0").variant({{"dim", "-1"}});
  r.add("aten::unfold", fam, keep([](const OpCall &, Rank rk) { return plus(rk, 1); }))
      .sample("self", "sweep![2,2]").sample("dimension", "0").sample("size", "1").sample("step", "1")
      .atLeast("step", 1, "step must be > 0").atLeast("size", 0, "size must be non-negative");
  r.add("aten::unfold_copy", fam, keep([](const OpCall &, Rank rk) { return plus(rk, 1); }))
      .sample("self", "sweep![2,2]").sample("dimension", "0").sample("size", "1").sample("step", "1");
  r.add("aten::diag", fam, [](const OpCall &c) -> RuleResult {
     auto rk = c.rank("self").value();
     if (rk && *rk != 1 && *rk != 2) return c.semantic("diag(): supports 1D or 2D tensors, got {}-D", *rk);
     return tensorOf(c.dtype("self"), rk ? Rank::exact(*rk == 1 ? 2 : 1) : Rank::atLeast1());
   }).sample("self", "sweep![2]").variant({{"self", "sweep![2,2]"}})
      .variant({{"self", "float32[3]"}, {"diagonal", "-2"}}).variant({{"self", "float32[3,5]"}, {"diagonal", "1"}})
      .variant({{"self", "float32[3,5]"}, {"diagonal", "-2"}});
  // dim1 and dim2 must be two distinct dims of a tensor of rank `rk`.
  auto diagDims = [](const OpCall &c, int rk) -> std::optional<RuleError> {
    auto d1 = c.arg("dim1").intValue(), d2 = c.arg("dim2").intValue();
    auto n1 = d1 ? wrapDim(*d1, rk) : std::nullopt, n2 = d2 ? wrapDim(*d2, rk) : std::nullopt;
    for (auto [d, n] : {std::pair{d1, n1}, std::pair{d2, n2}})
      if (d && (!n || rk == 0))
        return c.semantic("dimension out of range (expected to be in range of [{}, {}], but got {})",
                          -std::max(rk, 1), std::max(rk, 1) - 1, *d);
    if (n1 && n2 && *n1 == *n2) return c.semantic("diagonal dimensions cannot be identical {}, {}", *d1, *d2);
    return std::nullopt;
  };
  r.declare("aten::diag_embed", OpFact::DimsIncludeNew);
  r.add("aten::diag_embed", fam, [diagDims](const OpCall &c) -> RuleResult {
     auto rk = c.rank("self").value();
     if (rk)
       if (auto e = diagDims(c, *rk + 1)) return *e;
     return tensorOf(c.dtype("self"), plus(c.rank("self"), 1));
   }).sample("self", "sweep![2]").variant({{"self", "sweep[]"}}).variant({{"dim1", "1"}, {"dim2", "-1"}})
      .variant({{"self", "float32[2,3]"}, {"offset", "-1"}, {"dim1", "0"}, {"dim2", "2"}});
  for (auto [key, arg] : {std::pair{"aten::diagonal", "self"}, std::pair{"aten::linalg_diagonal", "A"}})
    r.add(key, fam, [arg = std::string(arg), diagDims](const OpCall &c) -> RuleResult {
       auto rk = c.rank(arg).value();
       if (rk && *rk < 2) return c.semantic("diagonal() needs at least 2 dimensions, got {}-D", *rk);
       if (rk)
         if (auto e = diagDims(c, *rk)) return *e;
       return tensorOf(c.dtype(arg), rk ? Rank::exact(*rk - 1) : Rank::top());
     }).sample(arg, "sweep![2,2]").variant({{"dim1", "1"}, {"dim2", "-1"}}).variant({{arg, "sweep![2,2,2]"}, {"dim2", "2"}})
        .variant({{arg, "float32[3,4,5]"}, {"offset", "2"}, {"dim1", "2"}, {"dim2", "0"}});
  for (auto [k, key, sequenceKey] : {std::tuple{1, "aten::atleast_1d", "aten::atleast_1d.Sequence"},
                                     std::tuple{2, "aten::atleast_2d", "aten::atleast_2d.Sequence"},
                                     std::tuple{3, "aten::atleast_3d", "aten::atleast_3d.Sequence"}}) {
    r.add(key, fam, keep([k = k](const OpCall &, Rank rk) { return atLeast(rk, k); }))
        .variant({{"self", "float32[3]"}}).variant({{"self", "float32[2,3]"}});
    r.add(sequenceKey, fam, [k = k](const OpCall &c) -> RuleResult {
      const Value &l = c.arg("tensors");
      if (l.isList() && l.lengthKnown()) {
        std::vector<Value> out;
        for (const Value &e : l.elements()) out.push_back(tensorOf(*e.dtype(), atLeast(e.rank(), k)));
        return Value::list(out);
      }
      Value s = l.isList() ? l.elementSummary() : Value::unknownTensor();
      return Value::listOf(Value::tensor(s.isTensor() ? s.dtypes() : DTypeSet::all(), Rank::atLeast1()));
    }).sample("tensors", "[sweep,sweep]").variant({{"tensors", "[float32[],float32[3],float32[2,3]]"}});
  }
}

/// Scatter-style writes and splits into lists of pieces.
void registerScattersAndSplits(Registry &r) {
  const char *fam = "view";
  // Scatter-style writes keep self's dtype; src is cast.
  // A 0-dim self names no dim to select or slice (dim 0 passes the generic dim check).
  auto scatterInto = [&](const char *view) -> RuleFn {
    return [view, kept = keep(same)](const OpCall &c) -> RuleResult {
      if (auto e = notZeroDim(c, view)) return *e;
      return kept(c);
    };
  };
  r.add("aten::select_scatter", fam, scatterInto("select"))
      .sample("self", "sweep![2,2]").sample("src", "sweep![2]").sample("dim", "0").sample("index", "0")
      .variant({{"self", "sweep![]"}, {"src", "sweep![]"}});
  r.add("aten::slice_scatter", fam, scatterInto("slice"))
      .sample("self", "sweep![2,2]").sample("src", "sweep![1,2]").sample("start", "0").sample("end", "1")
      .atLeast("step", 1, "slice step must be positive").variant({{"self", "sweep![]"}, {"src", "sweep![]"}});
  r.add("aten::diagonal_scatter", fam, keep(same)).sample("self", "sweep![2,2]").sample("src", "sweep![2]");
  r.add("aten::as_strided_scatter", fam, keep(same)).sample("self", "sweep![2,2]").sample("src", "sweep![2]")
      .sample("size", "[2]").sample("stride", "[1]");

  // Splits: lists of unknown length. Every piece keeps self's size-1 facts
  // off the split dim.
  auto splitRule = [](int rankDelta) {
    return [rankDelta](const OpCall &c) -> RuleResult {
      if (auto e = notZeroDim(c, "split")) return *e;
      const Value &self = c.arg("self");
      Value piece = tensorOf(c.dtype("self"), plus(self.rank(), rankDelta));
      auto rk = self.rank().value();
      auto d = c.has("dim") ? c.arg("dim").intValue() : std::nullopt;
      if (auto nd = rk && d ? wrapDim(*d, *rk) : std::nullopt; nd && rankDelta == 0) {
        UnitDims u = self.unitDims();
        piece = piece.withUnitDims({u.ones & ~bitOf(*nd), u.others & ~bitOf(*nd)});
      }
      return Value::listOf(piece);
    };
  };
  r.add("aten::chunk", fam, splitRule(0)).sample("self", "sweep![2,2]").sample("chunks", "2")
      .variant({{"self", "sweep![1,4]"}, {"dim", "1"}}).atLeast("chunks", 1, "chunk expects `chunks` to be greater than 0")
      .variant({{"self", "float32[5,3]"}, {"chunks", "3"}}).variant({{"self", "float32[5,3]"}, {"chunks", "6"}})
      .variant({{"self", "float32[0,3]"}, {"chunks", "2"}});
  // (float32 variants: the pieces' sizes, uneven and empty, and the size errors.)
  r.add("aten::split.Tensor", fam, splitRule(0)).sample("self", "sweep![2,2]").sample("split_size", "1")
      .variant({{"self", "sweep![1,4]"}, {"dim", "-1"}}).atLeast("split_size", 0, "split expects split_size be non-negative")
      .variant({{"self", "float32[5,3]"}, {"split_size", "2"}}).variant({{"self", "float32[2,3]"}, {"split_size", "0"}})
      .variant({{"self", "float32[0,3]"}, {"split_size", "0"}}).variant({{"self", "float32[3,7]"}, {"split_size", "3"}, {"dim", "1"}});
  r.add("aten::split", fam, splitRule(0)).sample("self", "sweep![2,2]").sample("split_sizes", "[1,1]")
      .variant({{"self", "float32[5,3]"}, {"split_sizes", "[2,3]"}}).variant({{"self", "float32[5,3]"}, {"split_sizes", "[3]"}});
  r.add("aten::split.sizes", fam, splitRule(0)).sample("self", "sweep![2,2]").sample("split_size", "[1,1]")
      .variant({{"self", "float32[5,3]"}, {"split_size", "[2,3]"}}).variant({{"self", "float32[5,3]"}, {"split_size", "[3]"}});
  r.add("aten::split_with_sizes", fam, splitRule(0)).sample("self", "sweep![2,2]").sample("split_sizes", "[1,1]")
      .variant({{"self", "float32[5,3]"}, {"split_sizes", "[2,0,3]"}}).variant({{"self", "float32[5,3]"}, {"split_sizes", "[2,2]"}})
      .variant({{"self", "float32[3,5]"}, {"split_sizes", "[4,1]"}, {"dim", "-1"}});
  // The unsafe_ forms (LSTMCell/GRUCell gates) split the same way.
  r.add("aten::unsafe_chunk", fam, splitRule(0)).sample("self", "sweep![2,2]").sample("chunks", "2")
      .variant({{"self", "sweep![1,4]"}, {"dim", "1"}}).atLeast("chunks", 1, "chunk expects `chunks` to be greater than 0");
  r.add("aten::unsafe_split.Tensor", fam, splitRule(0)).sample("self", "sweep![2,2]").sample("split_size", "1")
      .atLeast("split_size", 0, "split expects split_size be non-negative")
      .variant({{"self", "float32[5,3]"}, {"split_size", "2"}}).variant({{"self", "float32[2,3]"}, {"split_size", "0"}});
  r.add("aten::unsafe_split_with_sizes", fam, splitRule(0)).sample("self", "sweep![2,2]").sample("split_sizes", "[1,1]")
      .variant({{"self", "float32[5,3]"}, {"split_sizes", "[2,3]"}}).variant({{"self", "float32[5,3]"}, {"split_sizes", "[3]"}});
  r.add("aten::tensor_split.sections", fam, splitRule(0)).sample("self", "sweep![2,2]").sample("sections", "2")
      .atLeast("sections", 1, "number of sections must be larger than 0")
      .variant({{"self", "float32[5,3]"}, {"sections", "3"}}).variant({{"self", "float32[3,2]"}, {"sections", "4"}, {"dim", "1"}});
  r.add("aten::tensor_split.indices", fam, splitRule(0)).sample("self", "sweep![2,2]").sample("indices", "[1]")
      .variant({{"self", "sweep![1,4]"}, {"dim", "1"}})
      .variant({{"self", "float32[6,3]"}, {"indices", "[1,-2,9,4]"}}).variant({{"self", "float32[6,3]"}, {"indices", "[]"}});
  // The sections or indices given as a tensor: an int64 0-dim (sections) or 1-D (indices) one.
  r.add("aten::tensor_split.tensor_indices_or_sections", fam, [split = splitRule(0)](const OpCall &c) -> RuleResult {
     const char *arg = "tensor_indices_or_sections";
     if (c.dtype(arg) != DType::Int64)
       return c.semantic("tensor_split expected {} to have dtype of long, but got {}", arg, name(c.dtype(arg)));
     if (auto rk = c.rank(arg).value(); rk && *rk > 1)
       return c.semantic("tensor_split expected {} to be a zero-dimensional or one-dimensional tensor, but got {} dims",
                         arg, *rk);
     return split(c);
   }).sample("self", "sweep![2,2]").sample("tensor_indices_or_sections", "int64[]=2")
      .variant({{"self", "float32[2,2]"}, {"tensor_indices_or_sections", "sweep![1]=1"}})
      .variant({{"self", "float32[2,2]"}, {"tensor_indices_or_sections", "int64[1,1]=1"}})
      .variant({{"self", "float32[5,2]"}, {"tensor_indices_or_sections", "int64[2]=2"}});
  r.add("aten::unbind.int", fam, [](const OpCall &c) -> RuleResult {
     if (auto e = notZeroDim(c, "unbind")) return *e;
     const Value &self = c.arg("self");
     auto rk = self.rank().value();
     if (!rk) return tensorList(c.dtype("self"), Rank::top());
     Value piece = tensorOf(c.dtype("self"), Rank::exact(*rk - 1));
     if (auto d = c.arg("dim").intValue(); d && wrapDim(*d, *rk))
       piece = piece.withUnitDims(removeDim(self.unitDims(), *wrapDim(*d, *rk)));
     return Value::listOf(piece);
   }).sample("self", "sweep![2,2]").variant({{"self", "sweep![2,1,3]"}, {"dim", "2"}})
      .variant({{"self", "float32[3,4]"}, {"dim", "-1"}});

  // hsplit/vsplit/dsplit need at least 1/2/3 dims.
  struct DirSplit { const char *key, *name; bool sections; int minRank; const char *shape; };
  for (const DirSplit &d : std::vector<DirSplit>{{"aten::hsplit.int", "hsplit", true, 1, "[2]"},
                                                 {"aten::hsplit.array", "hsplit", false, 1, "[2]"},
                                                 {"aten::vsplit.int", "vsplit", true, 2, "[2,2]"},
                                                 {"aten::vsplit.array", "vsplit", false, 2, "[2,2]"},
                                                 {"aten::dsplit.int", "dsplit", true, 3, "[2,2,2]"},
                                                 {"aten::dsplit.array", "dsplit", false, 3, "[2,2,2]"}}) {
    auto e = r.add(d.key, fam, [d](const OpCall &c) -> RuleResult {
      if (auto rk = c.rank("self").value(); rk && *rk < d.minRank)
        return c.semantic("torch.{} requires a tensor with at least {} dimension, but got {}-D", d.name, d.minRank, *rk);
      return tensorList(c.dtype("self"), c.rank("self"));
    });
    e.sample("self", std::string("sweep") + d.shape);
    if (d.sections) e.sample("sections", "1");
    else e.sample("indices", "[1]");
    // Sizes: 6 along the split dim (hsplit of a 1-D self splits dim 0).
    std::string six = d.minRank == 1 ? "float32[2,6]" : d.minRank == 2 ? "float32[6,2]" : "float32[2,2,6]";
    if (d.sections) e.variant({{"self", six}, {"sections", "3"}}).variant({{"self", six}, {"sections", "4"}});
    else e.variant({{"self", six}, {"indices", "[1,4,-1]"}});
    if (d.minRank == 1) e.variant({{"self", "float32[6]"}, d.sections ? std::pair<const std::string, std::string>{"sections", "2"} : std::pair<const std::string, std::string>{"indices", "[2]"}});
  }
}

/// meshgrid, cartesian_prod, combinations, block_diag, diff, vander and the cats.
void registerJoins(Registry &r) {
  const char *fam = "view";
  // meshgrid: 0-D or 1-D inputs of one dtype; N outputs of rank N.
  for (const char *k : {"aten::meshgrid", "aten::meshgrid.indexing"}) {
    auto e = r.add(k, fam, [](const OpCall &c) -> RuleResult {
       const Value &l = c.arg("tensors");
       if (!l.isList() || !l.lengthKnown()) {
         Value s = l.isList() ? l.elementSummary() : Value::unknownTensor();
         return Value::listOf(Value::tensor(s.isTensor() ? s.dtypes() : DTypeSet::all(), Rank::top()));
       }
       const auto &el = l.elements();
       if (el.empty()) return c.semantic("expects a non-empty TensorList");
       for (const Value &e : el) {
         if (auto rk = e.rank().value(); rk && *rk > 1)
           return c.semantic("expected 0D or 1D tensor in the tensor list but got a {}-D tensor", *rk);
         if (*e.dtype() != *el[0].dtype()) return c.semantic("expects all tensors to have the same dtype");
       }
       if (c.has("indexing")) {
         auto ix = c.arg("indexing").text();
         if (ix && *ix != "ij" && *ix != "xy")
           return c.semantic("indexing must be one of \"xy\" or \"ij\", but received: {}", *ix);
       }
       int n = static_cast<int>(el.size());
       return Value::list(std::vector<Value>(el.size(), tensorOf(*el[0].dtype(), Rank::exact(n))));
     });
    e.sample("tensors", "[sweep,sweep]");
    e.variant({{"tensors", "[float32[2],float32[3],float32[]]"}});
    if (std::string_view(k).ends_with("indexing"))
      e.sample("indexing", "'xy'").variant({{"tensors", "[float32[2],float32[3]]"}, {"indexing", "'ij'"}})
          .variant({{"tensors", "[float32[2],float32[3],float32[4]]"}, {"indexing", "'xy'"}});
  }
  // cartesian_prod is meshgrid then stack: rank 1 for one input, else 2.
  r.add("aten::cartesian_prod", fam, [](const OpCall &c) -> RuleResult {
     const Value &l = c.arg("tensors");
     if (!l.isList() || !l.lengthKnown()) return Value::unknownTensor();
     const auto &el = l.elements();
     if (el.empty()) return c.semantic("expects a non-empty TensorList");
     for (const Value &e : el) {
       if (auto rk = e.rank().value(); rk && *rk != 1)
         return c.semantic("expected 1D tensor in the tensor list but got a {}-D tensor", *rk);
       if (*e.dtype() != *el[0].dtype()) return c.semantic("meshgrid expects all tensors to have the same dtype");
     }
     return tensorOf(*el[0].dtype(), Rank::exact(el.size() == 1 ? 1 : 2));
   }).sample("tensors", "[sweep![2],sweep![2]]").variant({{"tensors", "[sweep]"}})
      .variant({{"tensors", "[float32[2],float32[3],float32[4]]"}});
  // combinations(1-D self, r): rank 2 (r = 0: an empty 1-D tensor).
  r.add("aten::combinations", fam, [](const OpCall &c) -> RuleResult {
     if (auto rk = c.rank("self").value(); rk && *rk != 1)
       return c.semantic("expect a 1D vector, but got shape of rank {}", *rk);
     auto k = c.arg("r").intValue();
     if (k && *k < 0) return c.semantic("expect a non-negative number, but got {}", *k);
     return tensorOf(c.dtype("self"), !k ? Rank::top() : Rank::exact(*k == 0 ? 1 : 2));
   }).sample("self", "sweep[3]").variant({{"self", "sweep![3]"}, {"r", "0"}})
      .variant({{"self", "sweep![3]"}, {"r", "1"}}).variant({{"self", "sweep![3]"}, {"with_replacement", "True"}})
      .variant({{"self", "float32[5]"}, {"r", "3"}}).variant({{"self", "float32[2]"}, {"r", "3"}})
      .variant({{"self", "float32[4]"}, {"r", "3"}, {"with_replacement", "True"}});
  r.add("aten::diagflat", fam, keep([](const OpCall &, Rank) { return Rank::exact(2); })).sample("self", "sweep[2,2]")
      .variant({{"self", "float32[2,3]"}, {"offset", "-2"}}).variant({{"self", "float32[]"}, {"offset", "1"}});
  // block_diag: one rank-2 result of result_type(tensors) (0-D inputs in
  // their own tier), each input 0-D to 2-D.
  r.add("aten::block_diag", fam, [](const OpCall &c) -> RuleResult {
     const Value &l = c.arg("tensors");
     if (!l.isList() || !l.lengthKnown()) return Value::tensor(DTypeSet::all(), Rank::exact(2));
     if (l.elements().empty()) return Value::tensor(DTypeSet::all(), Rank::exact(2));
     std::vector<PromotionOperand> ops;
     for (size_t i = 0; i < l.elements().size(); ++i) {
       const Value &e = l.elements()[i];
       if (auto rk = e.rank().value(); rk && *rk > 2)
         return c.semantic("input tensors must have 2 or fewer dimensions, input {} has {}", i, *rk);
       ops.push_back({*e.dtype(), tierOf(e.rank())});
     }
     return tensorOf(c.resultType(ops), Rank::exact(2));
   }).sample("tensors", "[sweep,sweep![2,2]]").variant({{"tensors", "[float32[],float32[3],float32[2,4]]"}});
  // msort sorts along dim 0: CPU has no complex sort, a kernel gap in 1.13,
  // refused by name in 2.14.
  r.since(TorchVersion::V1_13).add("aten::msort", fam, keep(same)).sample("self", "sweep[3]");
  r.since(TorchVersion::V2_14).add("aten::msort", fam, [rule = keep(same)](const OpCall &c) -> RuleResult {
     if (isComplex(c.dtype("self"))) return c.semantic("Sort does not support complex dtypes on CPU");
     return rule(c);
   }).sample("self", "sweep[3]");
  // diff: n-th difference along dim of cat(prepend, self, append) (promoted
  // like cat); bool uses logical_xor and stays bool.
  r.add("aten::diff", fam, [](const OpCall &c) -> RuleResult {
     auto rk = c.rank("self").value();
     if (rk && *rk == 0) return c.semantic("diff expects input to be at least one-dimensional");
     DType d = c.dtype("self");
     for (const char *n : {"prepend", "append"})
       if (c.arg(n).isTensor()) {
         if (auto pr = c.rank(n).value(); pr && rk && *pr != *rk)
           return c.semantic("diff expects {} to have the same number of dimensions as the input", n);
         d = c.promote(d, c.dtype(n));
       }
     return tensorOf(d, c.rank("self"));
   }).sample("self", "sweep[3]").variant({{"self", "sweep![3]"}, {"prepend", "sweep![2]"}})
      .variant({{"self", "sweep![3]"}, {"append", "sweep![2]"}, {"n", "2"}})
      .variant({{"self", "float32[2,3]"}, {"dim", "0"}, {"prepend", "float32[1,3]"}, {"append", "float32[4,3]"}})
      .variant({{"self", "float32[2,3]"}, {"dim", "0"}, {"prepend", "float32[1,2]"}})
      .variant({{"self", "float32[3]"}, {"n", "5"}}).variant({{"self", "float32[3,4]"}, {"n", "0"}, {"append", "float32[3,1]"}});
  // vander: integral and bool inputs give int64, others keep their dtype.
  r.add("aten::vander", fam, [](const OpCall &c) -> RuleResult {
     if (auto rk = c.rank("x").value(); rk && *rk != 1) return c.semantic("x must be a one-dimensional tensor");
     DType d = c.dtype("x");
     if (auto e = vanderDType(c, d)) return *e;
     // Integers are raised to powers as int64: 2.14's uint16/32/64 do not promote with it.
     if (isIntegral(d, true)) (void)c.promote(d, DType::Int64);
     return tensorOf(isIntegral(d, true) ? DType::Int64 : d, Rank::exact(2));
   }).sample("x", "sweep[3]").variant({{"x", "float32[3]"}, {"N", "5"}}).variant({{"x", "float32[4]"}, {"N", "0"}});

  // Joins.
  r.add("aten::cat", fam, catFacts(joinRule([](Rank rk) { return rk; }, true)))
      .sample("tensors", "[sweep![2],sweep![2]]").variant({{"tensors", "[float32[2],sweep![2]]"}, {"dim", "1"}})
      .variant({{"tensors", "[sweep![1,2],float32[1,3]]"}, {"dim", "1"}})
      .variant({{"tensors", "[sweep![1,2],float32[1,2]]"}, {"dim", "0"}});
  r.add("aten::concat", fam, catFacts(joinRule([](Rank rk) { return rk; }, true)))
      .sample("tensors", "[sweep![2],sweep![2]]").variant({{"tensors", "[float32[2],sweep![2]]"}, {"dim", "1"}})
      .variant({{"tensors", "[sweep![1,2],float32[1,3]]"}, {"dim", "1"}})
      .variant({{"tensors", "[sweep![1,2],float32[1,2]]"}, {"dim", "0"}});
  r.add("aten::concatenate", fam, catFacts(joinRule([](Rank rk) { return rk; }, true)))
      .sample("tensors", "[sweep![2],sweep![2]]").variant({{"tensors", "[float32[2],sweep![2]]"}, {"dim", "1"}})
      .variant({{"tensors", "[sweep![1,2],float32[1,3]]"}, {"dim", "1"}})
      .variant({{"tensors", "[sweep![1,2],float32[1,2]]"}, {"dim", "0"}});
}

/// pad_sequence, the stacks, broadcast_tensors and repeat_interleave.
void registerStacksAndRepeats(Registry &r) {
  const char *fam = "view";
  // pad_sequence: a new tensor of the first sequence's dtype (the others
  // are copied into it, any dtype), one more dim; 0-dim sequences refused.
  r.add("aten::pad_sequence", fam, [](const OpCall &c) -> RuleResult {
     const Value &l = c.arg("sequences");
     if (!l.isList() || !l.lengthKnown()) return Value::tensor(elementDTypes(l), Rank::top());
     if (l.elements().empty()) return c.semantic("received an empty list of sequences");
     for (const Value &e : l.elements())
       if (e.rank() == Rank::exact(0)) return c.semantic("pad_sequence: a 0-dim sequence has no length");
     const Value &first = l.elements()[0];
     Rank r = first.rank();
     const Rank out = r.value() ? Rank::exact(*r.value() + 1) : Rank::atLeast1();
     // The result is first filled with padding_value (2.14: 0.0 does not fit float8_e8m0fnu).
     if (auto e = checkedFill(c, "padding_value", *first.dtype(), out)) return *e;
     return tensorOf(*first.dtype(), out);
   }).sample("sequences", "[sweep![2,3],sweep![1,3]]").variant({{"sequences", "[sweep[2],sweep[1]]"}});
  r.add("aten::stack", fam, stackFacts(joinRule([](Rank rk) { return plus(rk, 1); }, false)))
      .sample("tensors", "[sweep![2],sweep![2]]").variant({{"tensors", "[float32[2],sweep![2]]"}, {"dim", "-3"}})
      .variant({{"tensors", "[sweep[],sweep[]]"}})
      .variant({{"tensors", "[sweep![1,2],float32[1,2]]"}, {"dim", "1"}})
      .variant({{"tensors", "[sweep![1,2]]"}, {"dim", "-1"}});
  r.add("aten::hstack", fam, joinRule([](Rank rk) { return atLeast(rk, 1); }, false))
      .sample("tensors", "[sweep![2],sweep![2]]")
      .variant({{"tensors", "[float32[2,3],float32[2,1]]"}}).variant({{"tensors", "[float32[],float32[2]]"}})
      .variant({{"tensors", "[float32[0],float32[2,3]]"}}).variant({{"tensors", "[float32[2,3],float32[3,1]]"}})
      .variant({{"tensors", "[sweep[],sweep[]]"}})
      .variant({{"tensors", "[sweep,sweep]"}});
  for (const char *k : {"aten::vstack", "aten::row_stack"})
    r.add(k, fam, joinRule([](Rank rk) { return atLeast(rk, 2); }, false))
        .sample("tensors", "[sweep![2],sweep![2]]")
        .variant({{"tensors", "[sweep[],sweep[]]"}})
        .variant({{"tensors", "[float32[3],float32[2,3]]"}}).variant({{"tensors", "[float32[3],float32[0]]"}});
  r.add("aten::column_stack", fam, joinRule([](Rank rk) { return atLeast(rk, 2); }, false))
      .sample("tensors", "[sweep![2],sweep![2]]")
      .variant({{"tensors", "[float32[],float32[1],float32[1,3]]"}})
      .variant({{"tensors", "[sweep[],sweep[]]"}});
  r.add("aten::dstack", fam, joinRule([](Rank rk) { return atLeast(rk, 3); }, false))
      .sample("tensors", "[sweep![2],sweep![2]]")
      .variant({{"tensors", "[sweep[],sweep[]]"}})
      .variant({{"tensors", "[sweep![2,2,2],sweep![2,2,2]]"}})
      .variant({{"tensors", "[float32[3],float32[1,3]]"}}).variant({{"tensors", "[float32[2,3],float32[2,3,4]]"}});
  r.add("aten::broadcast_tensors", fam, [](const OpCall &c) -> RuleResult {
     const Value &l = c.arg("tensors");
     if (!l.isList() || !l.lengthKnown()) return Value::listOf(Value::unknownTensor());
     std::vector<Rank> ranks;
     for (const Value &e : l.elements()) ranks.push_back(e.rank());
     Rank b = broadcastRank(ranks);
     std::vector<Value> out;
     for (const Value &e : l.elements()) out.push_back(tensorOf(*e.dtype(), b));
     return Value::list(out);
   }).sample("tensors", "[sweep,sweep]").variant({{"tensors", "[float32[2,1],float32[3]]"}})
      .variant({{"tensors", "[float32[2],float32[3]]"}}).variant({{"tensors", "[float32[],float32[1,4],float32[3,1]]"}});

  r.add("aten::repeat_interleave.Tensor", fam, [](const OpCall &c) -> RuleResult {
     return tensorOf(c.dtype("repeats"), Rank::exact(1));
   }).sample("repeats", "sweep![2]").variant({{"repeats", "int64[3]"}, {"output_size", "3"}});
  auto riSelf = [](const OpCall &c) -> RuleResult {
    if (c.arg("repeats").isTensor())
      if (auto rr = c.rank("repeats").value(); rr && *rr > 1)
        return c.semantic("repeats must be 0-dim or 1-dim tensor, got {}-D", *rr);
    Rank rk = c.isNone("dim") ? Rank::exact(1) : c.rank("self");
    return tensorOf(c.dtype("self"), rk);
  };
  r.add("aten::repeat_interleave.self_int", fam, riSelf).sample("self", "sweep![2]").sample("repeats", "2")
      .atLeast("repeats", 0, "repeats can not be negative")
      .variant({{"self", "float32[2,3]"}, {"repeats", "3"}, {"dim", "-1"}}).variant({{"self", "float32[2,3]"}});
  r.add("aten::repeat_interleave.self_Tensor", fam, riSelf)
      .sample("self", "sweep![2]").sample("repeats", "int64[2]").variant({{"repeats", "int64[2,1]"}})
      .variant({{"self", "float32[2,3]"}, {"repeats", "int64[3]"}, {"dim", "1"}, {"output_size", "3"}});
}

/// Python-level shape queries and list operations.
void registerShapeQueries(Registry &r) {
  // Python-level shape queries.
  const char *py = "view.query";
  // "Dimension specified as 0 but tensor has no dimensions"
  r.declare("aten::size", OpFact::NoDimOfZeroDim);
  r.declare("aten::stride", OpFact::NoDimOfZeroDim);
  // append/insert/extend: what they add to their list the pass applies itself.
  for (const char *k : {"aten::append", "aten::insert", "aten::extend"}) r.declare(k, OpFact::GrowsListByElements);
  r.declare("aten::extend", OpFact::GrowsListByListElements);
  // A dim's size: its int, or the expression of a symbolic size (torch.export's sym_size).
  auto sizeOfDim = [](const OpCall &c) -> RuleResult {
    const Value &self = c.arg("self");
    auto rk = self.rank().value();
    auto d = c.arg("dim").intValue();
    auto nd = rk && d ? wrapDim(*d, *rk) : std::nullopt;
    if (nd && *rk > 0) return dimSize(self, *nd);
    return Value::number(NumKind::Int);
  };
  r.add("aten::size.int", py, sizeOfDim)
      .sample("self", "sweep![2]").sample("dim", "0").variant({{"self", "sweep![2,1]"}, {"dim", "-1"}});
  // torch.export's form (.pt2, 2.x). 1.13's JIT operator of that name does not
  // wrap negative dims and refuses some 0-dim calls (harness: 13 wrong, 13 we-reject).
  r.since(TorchVersion::V2_6).add("aten::sym_size.int", py, sizeOfDim)
      .sample("self", "sweep![2]").sample("dim", "0").variant({{"self", "sweep![2,1]"}, {"dim", "-1"}});
  r.add("aten::size", py, sizeRule).variant({{"self", "sweep![1,2]"}});
  auto numel = [](const OpCall &c) -> RuleResult {
    auto dims = c.arg("self").shape();
    Dim n = dims ? product(*dims) : Dim();
    return n.known() ? Value::symInt(*n.expr()) : Value::number(NumKind::Int);
  };
  r.add("aten::numel", py, numel);
  r.add("aten::sym_numel", py, numel);
  r.add("aten::dim", py, [](const OpCall &c) -> RuleResult {
    if (auto rk = c.rank("self").value()) return Value::integer(*rk);
    return Value::number(NumKind::Int);
  });
  r.add("aten::is_floating_point", py, [](const OpCall &c) -> RuleResult {
    return Value::boolean(isFloating(c.dtype("self")));
  });
  r.add("aten::is_complex", py, [](const OpCall &c) -> RuleResult { return Value::boolean(isComplex(c.dtype("self"))); });
  // Signed (c10::isSignedType): all but bool, the unsigned integers and
  // float8_e8m0fnu (2.14's unsigned scale type; measured).
  r.add("aten::is_signed", py, [](const OpCall &c) -> RuleResult {
    switch (c.dtype("self")) {
    case DType::Bool: case DType::UInt8: case DType::UInt16: case DType::UInt32: case DType::UInt64:
    case DType::UInt1: case DType::UInt2: case DType::UInt3: case DType::UInt4: case DType::UInt5:
    case DType::UInt6: case DType::UInt7: case DType::Float8E8M0FNU:
      return Value::boolean(false);
    default:
      return Value::boolean(true);
    }
  });
  r.add("aten::len.Tensor", py, [](const OpCall &c) -> RuleResult {
     if (auto e = notZeroDim(c, "len", "t")) return *e;
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
  // `xs[1:]` of a scripted list: Python's slice of it, element by element
  // when the length and bounds are known (a loop over `xs[1:]` then sees
  // xs's tensors); its elements' summary otherwise.
  r.add("aten::slice.t", py, [](const OpCall &c) -> RuleResult {
     const Value &l = c.arg("l");
     if (!l.isList()) return Value::top();
     auto bound = [&](std::string_view n) -> std::optional<std::optional<int64_t>> {
       const Value &v = c.arg(n);
       if (v.isNone()) return std::optional<int64_t>();
       if (auto i = v.intValue()) return std::optional<int64_t>(*i);
       return std::nullopt; // not known
     };
     auto step = c.arg("step").intValue();
     if (step && *step == 0) return c.semantic("slice step cannot be zero");
     auto start = bound("start"), end = bound("end");
     if (!l.lengthKnown() || !step || !start || !end) return Value::listOf(l.elementSummary());
     std::vector<Value> out;
     for (int64_t i : pythonSliceIndices(static_cast<int64_t>(l.elements().size()), *start, *end, *step))
       out.push_back(l.elements()[i]);
     return Value::list(std::move(out));
   }).sample("start", "1").sample("end", "None").sample("step", "1")
      .variant({{"start", "-2"}, {"end", "None"}, {"step", "-1"}})
      .variant({{"start", "None"}, {"end", "5"}, {"step", "2"}})
      .variant({{"step", "0"}});
  r.add("aten::list.t", py, [](const OpCall &c) -> RuleResult { return c.arg("l"); });
  // `a + b` of lists (scripted MultiheadAttention: [q] + kv.chunk(2)):
  // the concatenation, element by element when both lengths are known.
  r.add("aten::add.t", py, [](const OpCall &c) -> RuleResult {
    const Value &a = c.arg("a"), &b = c.arg("b");
    if (!a.isList() || !b.isList()) return Value::top();
    if (a.lengthKnown() && b.lengthKnown()) {
      std::vector<Value> elems = a.elements();
      elems.insert(elems.end(), b.elements().begin(), b.elements().end());
      return Value::list(std::move(elems));
    }
    return Value::listOf(Value::join(a.elementSummary(), b.elementSummary()));
  });
}

} // namespace

void registerShapeViews(Registry &r) {
  registerReshapes(r);
  registerSameRankViews(r);
  registerSlicesAndSqueezes(r);
  registerScattersAndSplits(r);
  registerJoins(r);
  registerStacksAndRepeats(r);
  registerShapeQueries(r);
}

//===----------------------------------------------------------------------===//
// Shape rules (ops/shape_rules.h)
//===----------------------------------------------------------------------===//

namespace {

using Outs = std::vector<std::optional<Dims>>;

/// at::infer_size: `sizes` with its one -1 solved from `numel` (exactly
/// when numel is a multiple of the other sizes' product, as symbols too:
/// `[-1, 4]` of 8*s0 elements is `[2*s0, 4]`). A mismatch of known sizes
/// is PyTorch's error; anything undecided leaves the dim unknown.
ShapeResult inferSize(const OpCall &c, Dims sizes, const Dim &numel) {
  int infer = -1;
  Dims known;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i].value() == -1) {
      if (infer >= 0) return c.semantic("only one dimension can be inferred");
      infer = static_cast<int>(i);
    } else if (auto v = sizes[i].value(); v && *v < 0) {
      return c.semantic("invalid shape dimension {}", *v);
    } else {
      known.push_back(sizes[i]);
    }
  }
  Dim rest = product(known);
  if (infer < 0) {
    auto n = numel.value(), p = rest.value();
    if (n && p && *n != *p) return c.semantic("shape '{}' is invalid for input of size {}", dimsText(sizes), *n);
    return sizes;
  }
  auto p = rest.value(), n = numel.value();
  if (p == 0) return Outs{std::nullopt}; // "-1 can be any value": PyTorch raises
  if (p && n && *n % *p != 0)
    return c.semantic("shape '{}' is invalid for input of size {}", dimsText(sizes), *n);
  Dim solved = floorDiv(numel, rest);
  // A symbolic quotient must be exact: keep it only when mod is 0.
  if (solved.known() && !solved.value() && mod(numel, rest).value() != 0) solved = Dim();
  sizes[infer] = solved;
  return sizes;
}

ShapeResult viewShape(const OpCall &c, std::string_view sizeArg) {
  auto self = dimsOf(c, "self");
  auto sizes = sizeListArg(c, sizeArg);
  if (!self || !sizes) return {};
  return inferSize(c, std::move(*sizes), product(*self));
}

/// at::expand: -1 keeps self's dim; new leading dims take the given size.
ShapeResult expandShape(const OpCall &c, const Dims &self, const Dims &sizes) {
  if (sizes.size() < self.size()) return {};
  Dims out(sizes.size());
  const size_t lead = sizes.size() - self.size();
  for (size_t i = 0; i < sizes.size(); ++i) {
    const Dim &want = sizes[i];
    if (i < lead) {
      if (want.value() && *want.value() < 0) return {};
      out[i] = want;
      continue;
    }
    const Dim &have = self[i - lead];
    if (want.value() == -1) out[i] = have;
    else if (have.isOne() == true || compareDims(have, want) == DimsEqual::Equal) out[i] = want;
    else if (compareDims(have, want) == DimsEqual::Differ && want.value() && *want.value() >= 0 && have.value())
      return c.semantic("the expanded size of the tensor ({}) must match the existing size ({}) at non-singleton "
                        "dimension {}",
                        want.str(), have.str(), i);
    else out[i] = (have.isOne() == false && want.known()) ? want : Dim();
  }
  return out;
}

/// Sizes with dims `a` and `b` swapped (transpose), or permuted.
std::optional<Dims> permutedDims(const Dims &self, const std::vector<int> &perm) {
  Dims out;
  for (int p : perm) {
    if (p < 0 || static_cast<size_t>(p) >= self.size()) return std::nullopt;
    out.push_back(self[p]);
  }
  return out;
}

ShapeResult transposeShape(const OpCall &c, std::string_view a, std::string_view b) {
  auto self = dimsOf(c, "self");
  auto d0 = intArg(c, a), d1 = intArg(c, b);
  if (!self || !d0 || !d1) return {};
  const int rank = static_cast<int>(self->size());
  auto w0 = wrapDim(*d0, rank), w1 = wrapDim(*d1, rank);
  if (!w0 || !w1) return {};
  if (rank == 0) return *self;
  std::swap((*self)[*w0], (*self)[*w1]);
  return *self;
}

/// Python's slice of a dim of `size` (at::slice: start/end clamped, step > 0).
/// The length of a slice of a symbolic size: each bound clamped into [0, n] (`Min`/`Max` that the
/// symbol's range often decides: [5:] of s0 >= 5 is s0 - 5), the difference rounded up by `step`.
Dim symbolicSliceLength(const SymExpr &n, int64_t start, int64_t end, int64_t step) {
  const SymRange r = n.range();
  auto clamp = [&](int64_t v) {
    if (v < 0) return SymExpr::max(n + SymExpr(v), SymExpr(0));
    return v >= r.hi ? n : SymExpr::min(SymExpr(v), n); // `end` None is INT64_MAX: n itself
  };
  try {
    // To the end (`x[5:]`, `x[-3:]`): n - Min(start, n) is Max(n - start, 0); n - Max(n + start, 0)
    // is Min(-start, n). Otherwise both bounds clamped, a negative length made 0.
    SymExpr len = end < r.hi ? SymExpr::max(clamp(end) - clamp(start), SymExpr(0))
                  : start >= 0 ? SymExpr::max(n - SymExpr(start), SymExpr(0))
                               : SymExpr::min(SymExpr(0) - SymExpr(start), n);
    auto q = step == 1 ? std::optional<SymExpr>(len) : SymExpr::floorDiv(len + SymExpr(step - 1), SymExpr(step));
    return q ? Dim(*q) : Dim();
  } catch (const std::overflow_error &) {
    return Dim();
  }
}

Dim sliceLength(const Dim &size, std::optional<int64_t> start, std::optional<int64_t> end, int64_t step) {
  auto n = size.value();
  if (size.known() && !n && start && end && step > 0) return symbolicSliceLength(*size.expr(), *start, *end, step);
  if (!n || !start || !end || step <= 0) return Dim();
  auto clamp = [&](int64_t v) { return v < 0 ? std::max<int64_t>(v + *n, 0) : std::min(v, *n); };
  int64_t s = clamp(*start), e = clamp(*end);
  if (e < s) e = s;
  return Dim((e - s) / step + ((e - s) % step != 0)); // ceil, without overflow
}

ShapeResult sliceShape(const OpCall &c) {
  auto self = dimsOf(c, "self");
  auto dim = intArg(c, "dim");
  auto step = intArg(c, "step");
  if (!self || !dim || !step || self->empty()) return {};
  auto w = wrapDim(*dim, static_cast<int>(self->size()));
  if (!w) return {};
  auto bound = [&](std::string_view n, int64_t dflt) -> std::optional<int64_t> {
    return c.arg(n).isNone() ? std::optional<int64_t>(dflt) : c.arg(n).intValue();
  };
  (*self)[*w] = sliceLength((*self)[*w], bound("start", 0), bound("end", INT64_MAX), *step);
  return *self;
}

ShapeResult selectShape(const OpCall &c) {
  auto self = dimsOf(c, "self");
  auto dim = intArg(c, "dim");
  if (!self || !dim || self->empty()) return {};
  auto w = wrapDim(*dim, static_cast<int>(self->size()));
  if (!w) return {};
  self->erase(self->begin() + *w);
  return *self;
}

ShapeResult unsqueezeShape(const OpCall &c) {
  auto self = dimsOf(c, "self");
  auto dim = intArg(c, "dim");
  if (!self || !dim) return {};
  auto w = wrapDim(*dim, static_cast<int>(self->size()) + 1);
  if (!w) return {};
  self->insert(self->begin() + *w, Dim(1));
  return *self;
}

/// squeeze of `dims` (all dims when nullopt): a dim goes when it is 1; one
/// that may be 1 leaves the result unknown (its rank is too).
ShapeResult squeezeShape(const OpCall &c, std::optional<std::vector<int64_t>> dims) {
  auto self = dimsOf(c, "self");
  if (!self) return {};
  const int rank = static_cast<int>(self->size());
  std::vector<bool> chosen(rank, !dims);
  if (dims)
    for (int64_t d : *dims) {
      auto w = wrapDim(d, rank);
      if (!w) return {};
      if (rank > 0) chosen[*w] = true;
    }
  Dims out;
  for (int i = 0; i < rank; ++i) {
    std::optional<bool> one = (*self)[i].isOne();
    if (chosen[i] && !one) return {};
    if (!(chosen[i] && *one)) out.push_back((*self)[i]);
  }
  return out;
}

ShapeResult flattenShape(const OpCall &c) {
  auto self = dimsOf(c, "self");
  auto s = intArg(c, "start_dim"), e = intArg(c, "end_dim");
  if (!self || !s || !e) return {};
  const int rank = static_cast<int>(self->size());
  if (rank == 0) return Dims{Dim(1)};
  auto ws = wrapDim(*s, rank), we = wrapDim(*e, rank);
  if (!ws || !we || *ws > *we) return {};
  Dims out(self->begin(), self->begin() + *ws);
  out.push_back(product(Dims(self->begin() + *ws, self->begin() + *we + 1)));
  out.insert(out.end(), self->begin() + *we + 1, self->end());
  return out;
}

/// The tensors of a `Tensor[]` argument, each of exact rank.
std::optional<std::vector<Dims>> listDims(const OpCall &c, std::string_view name) {
  const Value &l = c.arg(name);
  if (!l.isList() || !l.lengthKnown()) return std::nullopt;
  std::vector<Dims> out;
  for (const Value &t : l.elements()) {
    auto d = t.isTensor() ? t.shape() : std::nullopt;
    if (!d) return std::nullopt;
    out.push_back(std::move(*d));
  }
  return out;
}

/// at::cat: sizes add up along `dim`; 1-D tensors of size 0 are skipped
/// (the legacy empty tensor); every other dim is the first's.
ShapeResult catOf(const OpCall &c, std::optional<std::vector<Dims>> all, std::optional<int64_t> dim) {
  if (!all || !dim) return {};
  std::vector<Dims> parts;
  for (Dims &d : *all)
    if (!(d.size() == 1 && d[0].value() == 0)) parts.push_back(std::move(d));
  if (parts.empty()) return all->empty() ? ShapeResult{} : ShapeResult(Dims{Dim(0)});
  const int rank = static_cast<int>(parts[0].size());
  auto w = wrapDim(*dim, rank);
  if (!w || rank == 0) return {};
  Dims out = parts[0];
  for (size_t p = 1; p < parts.size(); ++p) {
    if (parts[p].size() != out.size()) return {};
    out[*w] = out[*w] + parts[p][*w];
    for (int i = 0; i < rank; ++i)
      if (i != *w) {
        DimsEqual eq = compareDims(out[i], parts[p][i]);
        if (eq == DimsEqual::Differ && out[i].value() && parts[p][i].value())
          return c.semantic("sizes of tensors must match except in dimension {}", *w);
        if (eq != DimsEqual::Equal) out[i] = out[i].known() ? out[i] : parts[p][i];
      }
  }
  return out;
}

ShapeResult catShape(const OpCall &c) { return catOf(c, listDims(c, "tensors"), intArg(c, "dim")); }

ShapeResult stackShape(const OpCall &c) {
  auto all = listDims(c, "tensors");
  auto dim = intArg(c, "dim");
  if (!all || !dim || all->empty()) return {};
  Dims out = (*all)[0];
  for (const Dims &d : *all) {
    if (d.size() != out.size()) return {};
    for (size_t i = 0; i < d.size(); ++i) {
      DimsEqual eq = compareDims(out[i], d[i]);
      if (eq == DimsEqual::Differ && out[i].value() && d[i].value())
        return c.semantic("stack expects each tensor to be equal size");
      if (eq != DimsEqual::Equal) out[i] = out[i].known() ? out[i] : d[i];
    }
  }
  auto w = wrapDim(*dim, static_cast<int>(out.size()) + 1);
  if (!w) return {};
  out.insert(out.begin() + *w, Dim(static_cast<int64_t>(all->size())));
  return out;
}

/// Splits: the pieces of `self` along `dim`, as a list (tensorsOfShapes).
/// The count must be known; a piece's split dim may stay unknown.
struct SplitInput {
  Dims self;
  int dim = 0;
  Dim size; ///< self's size along dim
};

std::optional<SplitInput> splitInput(const OpCall &c, std::optional<int64_t> dim) {
  auto in = dimsAndDim(c, "self", dim);
  if (!in) return std::nullopt;
  Dim size = in->dims[in->dim];
  return SplitInput{std::move(in->dims), in->dim, std::move(size)};
}

ShapeResult piecesOf(const SplitInput &in, const Dims &lengths) {
  std::vector<Dims> out;
  for (const Dim &l : lengths) out.push_back(withDimAt(in.self, in.dim, l));
  return ShapeResult::value(tensorsOfShapes(out));
}

/// split(self, split_size, dim): pieces of split_size, the last one shorter
/// (at least one piece; split_size 0 only for an empty dim).
ShapeResult splitBySize(const OpCall &c, const SplitInput &in, int64_t splitSize) {
  auto n = in.size.value();
  if (!n || splitSize < 0) return {};
  if (splitSize == 0 && *n != 0)
    return c.semantic("split_size can only be 0 if dimension size is 0, but got dimension size of {}", *n);
  int64_t count = splitSize == 0 ? 1 : std::max<int64_t>((*n + splitSize - 1) / splitSize, 1);
  if (count > 4096) return {}; // a list that long is not worth spelling out
  Dims lengths(count, Dim(splitSize));
  lengths.back() = Dim(*n - splitSize * (count - 1));
  return piecesOf(in, lengths);
}

/// split_with_sizes: the sizes given, which must add up to the dim's size.
ShapeResult splitWithSizes(const OpCall &c, const SplitInput &in, const Dims &sizes) {
  Dim sum(0);
  for (const Dim &d : sizes) {
    if (auto v = d.value(); v && *v < 0)
      return c.semantic("split_with_sizes expects split_sizes have only non-negative entries, but got "
                        "split_sizes={}", dimsText(sizes));
    sum = sum + d;
  }
  if (sum.value() && in.size.value() && *sum.value() != *in.size.value())
    return c.semantic("split_with_sizes expects split_sizes to sum exactly to {} (input tensor's size at "
                      "dimension {}), but got split_sizes={}", *in.size.value(), in.dim, dimsText(sizes));
  return piecesOf(in, sizes);
}

/// chunk of a symbolic size d: pieces of split = ceil(d / chunks), the last d - split * (count - 1),
/// answered where the count of pieces, ceil(d / split), is the same for every value d may take:
/// 2 for 2 chunks of d >= 2 (torch.export's least dynamic size), else by trying each value of a
/// range of at most 4096 (`chunk(3)` of d is 2 pieces for d = 4, 3 for d = 5).
ShapeResult symbolicChunks(const SplitInput &in, int64_t chunks) {
  const SymRange r = in.size.range();
  auto countAt = [&](int64_t d) { int64_t split = (d + chunks - 1) / chunks; return split ? (d + split - 1) / split : chunks; };
  std::optional<int64_t> count;
  if (chunks == 1) count = 1;
  else if (chunks == 2 && r.lo >= 2) count = 2;
  else if (r.hi != SymRange::kInf && r.hi - r.lo < 4096) {
    count = countAt(r.lo);
    for (int64_t d = r.lo + 1; d <= r.hi && count; ++d)
      if (countAt(d) != *count) count.reset();
  }
  if (!count || *count > 4096) return {};
  if (*count == 1) return piecesOf(in, {in.size});
  const Dim split = floorDiv(in.size + Dim(chunks - 1), Dim(chunks));
  Dims lengths(*count, split);
  lengths.back() = in.size - split * Dim(*count - 1);
  return piecesOf(in, lengths);
}

/// chunk: pieces of ceil(size / chunks) (chunks pieces of 0 for an empty dim).
ShapeResult chunkShape(const OpCall &c) {
  auto in = splitInput(c, intArg(c, "dim"));
  auto chunks = intArg(c, "chunks");
  if (in && chunks && *chunks > 0 && in->size.known() && !in->size.value()) return symbolicChunks(*in, *chunks);
  if (!in || !chunks || *chunks <= 0 || !in->size.value()) return {};
  int64_t n = *in->size.value(), size = n / *chunks + (n % *chunks != 0);
  if (n == 0 && *chunks <= 4096) return piecesOf(*in, Dims(*chunks, Dim(0)));
  return splitBySize(c, *in, size);
}

/// tensor_split into `sections`: the first size % sections pieces one longer.
ShapeResult tensorSplitSections(const SplitInput &in, int64_t sections) {
  if (sections <= 0 || sections > 4096) return {};
  auto n = in.size.value();
  Dims lengths;
  for (int64_t i = 0; i < sections; ++i)
    lengths.push_back(sections == 1 ? in.size : n ? Dim(*n / sections + (i < *n % sections)) : Dim());
  return piecesOf(in, lengths);
}

/// tensor_split at `indices`: slices between consecutive indices.
ShapeResult tensorSplitIndices(const SplitInput &in, const std::vector<int64_t> &indices) {
  Dims lengths;
  int64_t start = 0;
  for (int64_t end : indices) {
    lengths.push_back(sliceLength(in.size, start, end, 1));
    start = end;
  }
  lengths.push_back(sliceLength(in.size, start, INT64_MAX, 1));
  return piecesOf(in, lengths);
}

/// hsplit / vsplit / dsplit: tensor_split along `dim` (hsplit: 0 for a 1-D
/// self, else 1); an int must divide the dim's size.
ShapeResult directionalSplit(const OpCall &c, const char *name, int dim) {
  auto self = dimsOf(c, "self");
  if (!self) return {};
  if (std::string_view(name) == "hsplit") dim = self->size() == 1 ? 0 : 1;
  if (static_cast<int>(self->size()) <= dim) return {};
  auto in = splitInput(c, dim);
  if (!in) return {};
  if (c.has("indices")) {
    auto idx = intListArg(c, "indices");
    return idx ? tensorSplitIndices(*in, *idx) : ShapeResult{};
  }
  auto sections = intArg(c, "sections");
  if (!sections) return {};
  if (auto n = in->size.value(); n && *sections != 0 && *n % *sections != 0)
    return c.semantic("torch.{} attempted to split along dimension {}, but the size of the dimension {} is not "
                      "divisible by the split_size {}!", name, dim, *n, *sections);
  return tensorSplitSections(*in, *sections);
}

/// meshgrid: every output has one dim per input, of that input's numel
/// ("xy" swaps the first two).
ShapeResult meshgridShape(const OpCall &c) {
  auto all = listDims(c, "tensors");
  if (!all || all->empty()) return {};
  Dims grid;
  for (const Dims &d : *all) grid.push_back(product(d));
  auto ix = c.has("indexing") ? c.arg("indexing").text() : std::optional<std::string>("ij");
  if (!ix) return {};
  if (*ix == "xy" && grid.size() >= 2) std::swap(grid[0], grid[1]);
  return ShapeResult::value(tensorsOfShapes(std::vector<Dims>(all->size(), grid)));
}

/// repeat_interleave: `self` (flattened without a dim) with the dim's
/// length `length(size)`.
ShapeResult repeatedAlong(const OpCall &c, const std::function<Dim(const Dim &)> &length) {
  auto self = dimsOf(c, "self");
  if (!self) return {};
  if (c.isNone("dim")) return Dims{length(product(*self))};
  auto in = dimsAndDim(c, "self", intArg(c, "dim"));
  if (!in) return {};
  return withDimAt(in->dims, in->dim, length(in->dims[in->dim]));
}

/// output_size, the length a tensor of counts gives: the counts' sum, a
/// data-dependent size (an unbacked symbol, shape/unbacked.h) without it;
/// 0 when there is nothing to repeat (`along` known 0).
Dim givenOutputSize(const OpCall &c, const Dim &along) {
  if (c.isNone("output_size")) return along.value() == 0 ? Dim(0) : unbackedDim(0, {0, SymRange::kInf});
  auto given = sizeListArg(c, "output_size");
  return given && given->size() == 1 ? (*given)[0] : Dim();
}

void registerRepeatInterleaveShapes(Registry &r) {
  r.shape("aten::repeat_interleave.self_int", [](const OpCall &c) -> ShapeResult {
    auto repeats = sizeListArg(c, "repeats");
    if (!repeats || repeats->size() != 1) return {};
    Dim times = (*repeats)[0];
    if (auto v = times.value(); v && *v < 0) return {}; // negative: raises
    return repeatedAlong(c, [&](const Dim &d) { return d * times; });
  });
  r.shape("aten::repeat_interleave.self_Tensor", [](const OpCall &c) -> ShapeResult {
    return repeatedAlong(c, [&](const Dim &d) { return givenOutputSize(c, d); });
  });
  r.shape("aten::repeat_interleave.Tensor", [](const OpCall &c) -> ShapeResult {
    auto counts = dimsOf(c, "repeats");
    return Dims{givenOutputSize(c, counts ? product(*counts) : Dim())};
  });
}

/// repeat: self's sizes (padded with leading 1s) times the repeats; tile
/// pads the repeats with leading 1s instead when they are fewer.
ShapeResult repeatShape(const OpCall &c, std::string_view arg, bool tile) {
  auto self = dimsOf(c, "self");
  auto reps = sizeListArg(c, arg);
  if (!self || !reps) return {};
  if (tile && reps->size() < self->size()) reps->insert(reps->begin(), self->size() - reps->size(), Dim(1));
  if (reps->size() < self->size()) return {}; // raises: the dtype rule's
  self->insert(self->begin(), reps->size() - self->size(), Dim(1));
  for (size_t i = 0; i < reps->size(); ++i) {
    if (auto v = (*reps)[i].value(); v && *v < 0) return {};
    (*self)[i] = (*self)[i] * (*reps)[i];
  }
  return *self;
}

/// The length of the diagonal `offset` of a rows x cols matrix.
Dim diagonalLength(const Dim &rows, const Dim &cols, int64_t offset) {
  Dim len = offset >= 0 ? minDim(rows, cols - Dim(offset)) : minDim(rows + Dim(offset), cols);
  return maxDim(len, Dim(0));
}

ShapeResult diagonalShape(const OpCall &c, std::string_view arg) {
  auto self = dimsOf(c, arg);
  auto offset = intArg(c, "offset"), d1 = intArg(c, "dim1"), d2 = intArg(c, "dim2");
  if (!self || !offset || !d1 || !d2 || self->size() < 2) return {};
  const int rank = static_cast<int>(self->size());
  auto w1 = wrapDim(*d1, rank), w2 = wrapDim(*d2, rank);
  if (!w1 || !w2 || *w1 == *w2) return {};
  Dim len = diagonalLength((*self)[*w1], (*self)[*w2], *offset);
  Dims out;
  for (int i = 0; i < rank; ++i)
    if (i != *w1 && i != *w2) out.push_back((*self)[i]);
  out.push_back(len);
  return out;
}

/// diag_embed: the last dim becomes two dims of its size plus |offset|.
ShapeResult diagEmbedShape(const OpCall &c) {
  auto self = dimsOf(c, "self");
  auto offset = intArg(c, "offset"), d1 = intArg(c, "dim1"), d2 = intArg(c, "dim2");
  if (!self || !offset || !d1 || !d2 || self->empty() || *offset == INT64_MIN) return {};
  const int rank = static_cast<int>(self->size()) + 1;
  auto w1 = wrapDim(*d1, rank), w2 = wrapDim(*d2, rank);
  if (!w1 || !w2 || *w1 == *w2) return {};
  Dim n = self->back() + Dim(*offset < 0 ? -*offset : *offset);
  self->pop_back();
  self->insert(self->begin() + std::min(*w1, *w2), n);
  self->insert(self->begin() + std::max(*w1, *w2), n);
  return *self;
}

/// diag: a vector's square matrix, or a matrix's diagonal.
ShapeResult diagShape(const OpCall &c) {
  auto self = dimsOf(c, "self");
  auto k = intArg(c, "diagonal");
  if (!self || !k || *k == INT64_MIN) return {};
  if (self->size() == 1) {
    Dim n = (*self)[0] + Dim(*k < 0 ? -*k : *k);
    return Dims{n, n};
  }
  if (self->size() == 2) return Dims{diagonalLength((*self)[0], (*self)[1], *k)};
  return {};
}

void registerRepeatAndDiagonalShapes(Registry &r) {
  r.shape("aten::repeat", [](const OpCall &c) { return repeatShape(c, "repeats", false); });
  r.shape("aten::tile", [](const OpCall &c) { return repeatShape(c, "dims", true); });
  r.shape("aten::diag", diagShape);
  r.shape("aten::diag_embed", diagEmbedShape);
  r.shape("aten::diagonal", [](const OpCall &c) { return diagonalShape(c, "self"); });
  r.shape("aten::diagonal_copy", [](const OpCall &c) { return diagonalShape(c, "self"); });
  r.shape("aten::linalg_diagonal", [](const OpCall &c) { return diagonalShape(c, "A"); });
}

/// The splits' lists of pieces, and meshgrid's.
void registerSplitShapes(Registry &r) {
  for (const char *k : {"aten::split.Tensor", "aten::unsafe_split.Tensor", "aten::split_copy.Tensor"})
    r.shape(k, [](const OpCall &c) -> ShapeResult {
      auto in = splitInput(c, intArg(c, "dim"));
      auto size = intArg(c, "split_size");
      return in && size ? splitBySize(c, *in, *size) : ShapeResult{};
    });
  for (const char *k : {"aten::split", "aten::split.sizes", "aten::split_with_sizes", "aten::unsafe_split_with_sizes",
                        "aten::split_with_sizes_copy"})
    r.shape(k, [](const OpCall &c) -> ShapeResult {
      auto in = splitInput(c, intArg(c, "dim"));
      auto sizes = sizeListArg(c, c.has("split_sizes") ? "split_sizes" : "split_size");
      return in && sizes ? splitWithSizes(c, *in, *sizes) : ShapeResult{};
    });
  for (const char *k : {"aten::chunk", "aten::unsafe_chunk"}) r.shape(k, chunkShape);
  r.shape("aten::tensor_split.sections", [](const OpCall &c) -> ShapeResult {
    auto in = splitInput(c, intArg(c, "dim"));
    auto sections = intArg(c, "sections");
    return in && sections ? tensorSplitSections(*in, *sections) : ShapeResult{};
  });
  r.shape("aten::tensor_split.indices", [](const OpCall &c) -> ShapeResult {
    auto in = splitInput(c, intArg(c, "dim"));
    auto indices = intListArg(c, "indices");
    return in && indices ? tensorSplitIndices(*in, *indices) : ShapeResult{};
  });
  // Indices in a tensor: their count (a 1-D tensor's size) gives the pieces'
  // count, their values (not known) the split dim's sizes.
  r.shape("aten::tensor_split.tensor_indices_or_sections", [](const OpCall &c) -> ShapeResult {
    auto in = splitInput(c, intArg(c, "dim"));
    auto t = dimsOf(c, "tensor_indices_or_sections");
    if (!in || !t || t->size() != 1 || !(*t)[0].value() || *(*t)[0].value() >= 4096) return {};
    return piecesOf(*in, Dims(*(*t)[0].value() + 1, Dim()));
  });
  for (const char *k : {"aten::unbind.int", "aten::unbind_copy.int"})
    r.shape(k, [](const OpCall &c) -> ShapeResult {
      auto in = splitInput(c, intArg(c, "dim"));
      if (!in || !in->size.value() || *in->size.value() > 4096) return {};
      Dims piece = in->self;
      piece.erase(piece.begin() + in->dim);
      return ShapeResult::value(tensorsOfShapes(std::vector<Dims>(*in->size.value(), piece)));
    });
  for (auto [k, name, dim] : {std::tuple{"aten::hsplit.int", "hsplit", 1}, std::tuple{"aten::hsplit.array", "hsplit", 1},
                              std::tuple{"aten::vsplit.int", "vsplit", 0}, std::tuple{"aten::vsplit.array", "vsplit", 0},
                              std::tuple{"aten::dsplit.int", "dsplit", 2}, std::tuple{"aten::dsplit.array", "dsplit", 2}})
    r.shape(k, [name = name, dim = dim](const OpCall &c) { return directionalSplit(c, name, dim); });
  for (const char *k : {"aten::meshgrid", "aten::meshgrid.indexing"}) r.shape(k, meshgridShape);
  registerRepeatInterleaveShapes(r);
  registerRepeatAndDiagonalShapes(r);
}

} // namespace

//===--- issue 35 (shapes-corpus): matrix transposes, moves, stacks, joins ---===//

namespace {

/// mT / mH / matrix_H / adjoint: the last two dims swapped (a 0-dim tensor
/// as is; a 1-D one raises: the dtype rule says so).
ShapeResult matrixTransposeShape(const OpCall &c) {
  auto self = dimsOf(c, "self");
  if (!self || self->size() == 1) return {};
  if (self->size() >= 2) std::swap((*self)[self->size() - 2], self->back());
  return *self;
}

/// movedim / moveaxis (int or int[]): each source dim goes to its
/// destination; the other dims fill the positions left, in their order
/// (at::movedim). Repeated dims raise (the dtype rule's checks).
ShapeResult movedimShape(const OpCall &c) {
  auto self = dimsOf(c, "self");
  auto src = intListArg(c, "source"), dst = intListArg(c, "destination");
  if (!self || !src || !dst || src->size() != dst->size()) return {};
  const int rank = static_cast<int>(self->size());
  std::vector<int> perm(rank, -1);
  std::vector<bool> moved(rank, false);
  for (size_t i = 0; i < src->size(); ++i) {
    auto s = wrapDim((*src)[i], rank), d = wrapDim((*dst)[i], rank);
    if (!s || !d) return {};
    if (rank == 0) continue;
    if (perm[*d] != -1 || moved[*s]) return {};
    perm[*d] = *s;
    moved[*s] = true;
  }
  int next = 0;
  for (int &p : perm) {
    if (p != -1) continue;
    while (moved[next]) ++next;
    p = next;
    moved[next] = true;
  }
  auto out = permutedDims(*self, perm);
  return out ? ShapeResult(*out) : ShapeResult{};
}

/// atleast_{1,2,3}d: 0-dim -> [1]*k; atleast_2d/3d: [n] -> [1, n];
/// atleast_3d: [1, n] or [m, n] -> [.., 1].
Dims atLeastDims(Dims d, size_t k) {
  if (d.size() >= k) return d;
  if (d.empty()) return Dims(k, Dim(1));
  if (d.size() == 1) d.insert(d.begin(), Dim(1));
  if (d.size() == 2 && k == 3) d.push_back(Dim(1));
  return d;
}

/// hstack / vstack (row_stack) / dstack: atleast_{1,2,3}d of each, then cat
/// along dim 0 (hstack of 1-D tensors), 1 (hstack), 0 (vstack), 2 (dstack);
/// column_stack: 0-dim and 1-D tensors as [numel, 1] columns, cat along 1.
ShapeResult directionalStack(const OpCall &c, char kind) {
  auto all = listDims(c, "tensors");
  if (!all || all->empty()) return {};
  if (kind == 'c') {
    for (Dims &d : *all)
      if (d.size() <= 1) d = Dims{product(d), Dim(1)};
    return catOf(c, std::move(all), 1);
  }
  const size_t k = kind == 'h' ? 1 : kind == 'v' ? 2 : 3;
  for (Dims &d : *all) d = atLeastDims(std::move(d), k);
  const int64_t dim = kind == 'h' ? ((*all)[0].size() == 1 ? 0 : 1) : kind == 'v' ? 0 : 2;
  return catOf(c, std::move(all), dim);
}

/// broadcast_tensors: every tensor of the list at the broadcast shape.
ShapeResult broadcastTensorsShape(const OpCall &c) {
  auto all = listDims(c, "tensors");
  if (!all || all->empty()) return {};
  Broadcast b = broadcastShapes(*all);
  if (b.mismatch) return c.semantic("{}", *b.mismatch);
  if (!b.dims) return {};
  return ShapeResult::value(tensorsOfShapes(std::vector<Dims>(all->size(), *b.dims)));
}

/// block_diag: the blocks' rows and columns add up (a 0-dim block is 1x1, a
/// 1-D one a row); no blocks give [1, 0] (ATen's empty result).
ShapeResult blockDiagShape(const OpCall &c) {
  auto all = listDims(c, "tensors");
  if (!all) return {};
  if (all->empty()) return Dims{Dim(1), Dim(0)};
  Dim rows(0), cols(0);
  for (const Dims &d : *all) {
    if (d.size() > 2) return {};
    Dims m = atLeastDims(d, 2);
    rows = rows + m[0];
    cols = cols + m[1];
  }
  return Dims{rows, cols};
}

/// cartesian_prod of 1-D tensors: one input as is, else [product, count].
ShapeResult cartesianProdShape(const OpCall &c) {
  auto all = listDims(c, "tensors");
  if (!all || all->empty()) return {};
  Dim n(1);
  for (const Dims &d : *all) {
    if (d.size() != 1) return {};
    n = n * d[0];
  }
  if (all->size() == 1) return (*all)[0];
  return Dims{n, Dim(static_cast<int64_t>(all->size()))};
}

/// C(m, k), nullopt past 2^62.
std::optional<int64_t> binomial(int64_t m, int64_t k) {
  if (k > m) return 0;
  __int128 v = 1;
  for (int64_t i = 1; i <= k; ++i) {
    v = v * (m - k + i) / i; // exact: a product of i consecutive ints is divisible by i!
    if (v > (__int128(1) << 62)) return std::nullopt;
  }
  return static_cast<int64_t>(v);
}

/// combinations(1-D self of n, r): [C(n, r), r], with replacement
/// [C(n + r - 1, r), r]; r = 0 gives an empty 1-D tensor.
ShapeResult combinationsShape(const OpCall &c) {
  auto self = dimsOf(c, "self");
  auto k = intArg(c, "r");
  auto rep = boolArg(c, "with_replacement");
  if (!self || self->size() != 1 || !k || !rep || *k < 0) return {};
  if (*k == 0) return Dims{Dim(0)};
  const Dim &n = (*self)[0];
  if (*k == 1) return Dims{n, Dim(1)};
  auto nv = n.value();
  auto count = nv ? binomial(*rep ? *nv + *k - 1 : *nv, *k) : std::nullopt;
  if (!count) return {};
  return Dims{Dim(*count), Dim(*k)};
}

/// diff(self, n, dim, prepend, append): cat(prepend, self, append) along dim
/// (whose other sizes must match), n elements shorter (at least 0); n = 0
/// gives self (prepend and append checked, not joined: measured).
ShapeResult diffShape(const OpCall &c) {
  auto self = dimsOf(c, "self");
  auto n = intArg(c, "n");
  if (!self || self->empty() || !n || *n < 0) return {};
  auto w = wrappedDimArg(c, "dim", self->size());
  if (!w) return {};
  std::vector<Dims> parts;
  for (const char *arg : {"prepend", "self", "append"}) {
    if (!c.isTensor(arg)) continue;
    auto d = dimsOf(c, arg);
    if (!d || d->size() != self->size()) return {};
    parts.push_back(std::move(*d));
  }
  ShapeResult joined = catOf(c, std::move(parts), static_cast<int64_t>(*w));
  if (joined.error || joined.outputs.empty() || !joined.outputs[0]) return joined;
  if (*n == 0) return *self;
  Dims out = *joined.outputs[0];
  out[*w] = maxDim(out[*w] - Dim(*n), Dim(0));
  return out;
}

/// vander(x of n, N): [n, N] (N None: n).
ShapeResult vanderShape(const OpCall &c) {
  auto x = dimsOf(c, "x");
  if (!x || x->size() != 1) return {};
  if (c.isNone("N")) return Dims{(*x)[0], (*x)[0]};
  auto cols = intArg(c, "N");
  if (!cols || *cols < 0) return {};
  return Dims{(*x)[0], Dim(*cols)};
}

/// diagflat: a square of side numel + |offset|.
ShapeResult diagflatShape(const OpCall &c) {
  auto self = dimsOf(c, "self");
  auto offset = intArg(c, "offset");
  if (!self || !offset || *offset == INT64_MIN) return {};
  Dim n = product(*self) + Dim(*offset < 0 ? -*offset : *offset);
  return Dims{n, n};
}

void registerCorpusViewShapes(Registry &r) {
  for (const char *k : {"aten::mT", "aten::mT.a", "aten::mH", "aten::mH.a", "aten::matrix_H", "aten::matrix_H.a",
                        "aten::adjoint"})
    r.shape(k, matrixTransposeShape);
  for (const char *k : {"aten::numpy_T", "aten::numpy_T.a"})
    r.shape(k, [](const OpCall &c) -> ShapeResult {
      auto self = dimsOf(c, "self");
      if (!self) return {};
      std::reverse(self->begin(), self->end());
      return *self;
    });
  for (const char *k : {"aten::movedim.int", "aten::movedim.intlist", "aten::moveaxis.int", "aten::moveaxis.intlist"})
    r.shape(k, movedimShape);
  for (auto [k, key, sequenceKey] : {std::tuple{size_t{1}, "aten::atleast_1d", "aten::atleast_1d.Sequence"},
                                     std::tuple{size_t{2}, "aten::atleast_2d", "aten::atleast_2d.Sequence"},
                                     std::tuple{size_t{3}, "aten::atleast_3d", "aten::atleast_3d.Sequence"}}) {
    r.shape(key, [k = k](const OpCall &c) -> ShapeResult {
      auto self = dimsOf(c, "self");
      return self ? ShapeResult(atLeastDims(*self, k)) : ShapeResult{};
    });
    r.shape(sequenceKey, [k = k](const OpCall &c) -> ShapeResult {
      auto all = listDims(c, "tensors");
      if (!all || all->empty()) return {};
      for (Dims &d : *all) d = atLeastDims(std::move(d), k);
      return ShapeResult::value(tensorsOfShapes(*all));
    });
  }
  for (auto [k, kind] : {std::pair{"aten::hstack", 'h'}, std::pair{"aten::vstack", 'v'}, std::pair{"aten::row_stack", 'v'},
                         std::pair{"aten::dstack", 'd'}, std::pair{"aten::column_stack", 'c'}})
    r.shape(k, [kind = kind](const OpCall &c) { return directionalStack(c, kind); });
  r.shape("aten::broadcast_tensors", broadcastTensorsShape);
  r.shape("aten::block_diag", blockDiagShape);
  r.shape("aten::cartesian_prod", cartesianProdShape);
  r.shape("aten::combinations", combinationsShape);
  r.shape("aten::diff", diffShape);
  r.shape("aten::vander", vanderShape);
  r.shape("aten::msort", sameShapeAs());
  r.shape("aten::diagflat", diagflatShape);
}

/// A view's sizes that a scatter's src must have: PyTorch raises when they
/// differ ("expected src to have a size equal to the slice of self").
ShapeResult scatterInto(const OpCall &c, const ShapeFn &view) {
  auto self = dimsOf(c, "self");
  if (!self) return {};
  ShapeResult v = view(c);
  auto src = dimsOf(c, "src");
  if (v.error) return v; // a bad dim or index: the view raises first
  if (src && !v.outputs.empty() && v.outputs[0]) {
    const Dims &want = *v.outputs[0];
    bool differ = src->size() != want.size();
    for (size_t i = 0; !differ && i < want.size(); ++i) differ = compareDims((*src)[i], want[i]) == DimsEqual::Differ;
    if (differ)
      return c.semantic("expected src to have a size equal to the slice of self. src size = {}, slice size = {}",
                        dimsText(*src), dimsText(want));
  }
  return *self;
}

/// narrow (and narrow.Tensor, whose start is a 0-dim tensor, and
/// narrow_copy): dim `dim` becomes `length`, a SymInt (a negative one raises).
ShapeResult narrowShape(const OpCall &c) {
  auto self = dimsOf(c, "self");
  auto dim = intArg(c, "dim");
  Dim length = symIntArg(c, "length");
  if (!self || !dim || self->empty() || !length.known() || length.value().value_or(0) < 0) return {};
  auto w = wrapDim(*dim, static_cast<int>(self->size()));
  if (!w) return {};
  (*self)[*w] = length;
  return *self;
}

/// at::unfold: dim d becomes the count of windows, (n - size) / step + 1, and
/// a new last dim of `size`; a 0-dim self gives [size] (size at most 1).
ShapeResult unfoldShape(const OpCall &c) {
  auto self = dimsOf(c, "self");
  auto d = intArg(c, "dimension"), size = intArg(c, "size"), step = intArg(c, "step");
  if (!self || !d || !size || !step || *step <= 0 || *size < 0) return {};
  if (self->empty()) return *size <= 1 ? ShapeResult(Dims{Dim(*size)}) : ShapeResult{};
  auto w = wrapDim(*d, static_cast<int>(self->size()));
  if (!w) return {};
  const Dim &n = (*self)[*w];
  if (auto v = n.value(); v && *size > *v)
    return c.semantic("maximum size for tensor at dimension {} is {} but size is {}", *w, *v, *size);
  if (!n.value() && (!n.known() || n.expr()->range().lo < *size)) return {}; // a guard on the symbol: left unknown
  (*self)[*w] = floorDiv(n - Dim(*size), Dim(*step)) + Dim(1);
  self->push_back(Dim(*size));
  return *self;
}

/// at::unflatten: dim `dim` becomes `sizes`, one -1 solved from its size.
ShapeResult unflattenShape(const OpCall &c) {
  auto self = dimsOf(c, "self");
  auto dim = intArg(c, "dim");
  auto sizes = sizeListArg(c, "sizes");
  if (!self || !dim || !sizes || sizes->empty() || self->empty()) return {};
  auto w = wrapDim(*dim, static_cast<int>(self->size()));
  if (!w) return {};
  ShapeResult inner = inferSize(c, std::move(*sizes), (*self)[*w]);
  if (inner.error || inner.outputs.empty() || !inner.outputs[0]) return inner;
  Dims out(self->begin(), self->begin() + *w);
  out.insert(out.end(), inner.outputs[0]->begin(), inner.outputs[0]->end());
  out.insert(out.end(), self->begin() + *w + 1, self->end());
  return out;
}

/// rot90 by k quarter turns in the plane of `dims`: an odd k swaps them.
ShapeResult rot90Shape(const OpCall &c) {
  auto self = dimsOf(c, "self");
  auto k = intArg(c, "k");
  auto dims = intListArg(c, "dims");
  if (!self || !k || !dims || dims->size() != 2 || self->size() < 2) return {};
  auto a = wrapDim((*dims)[0], static_cast<int>(self->size())), b = wrapDim((*dims)[1], static_cast<int>(self->size()));
  if (!a || !b || *a == *b) return {};
  if (((*k % 4) + 4) % 2 == 1) std::swap((*self)[*a], (*self)[*b]);
  return *self;
}

/// Views of self written in place (t_, transpose_, unsqueeze_ ...) and the
/// `_copy` and `.Tensor` forms PyTorch adds beside a view (issue 35: the
/// torch-mlir shape ops left).
void registerLeftViewShapes(Registry &r) {
  r.shape("aten::t_", [](const OpCall &c) -> ShapeResult {
    auto self = dimsOf(c, "self");
    if (!self || self->size() > 2) return {};
    std::reverse(self->begin(), self->end());
    return *self;
  });
  for (const char *k : {"aten::transpose_", "aten::swapdims_"})
    r.shape(k, [](const OpCall &c) { return transposeShape(c, "dim0", "dim1"); });
  r.shape("aten::swapaxes_", [](const OpCall &c) { return transposeShape(c, "axis0", "axis1"); });
  r.shape("aten::unsqueeze_", unsqueezeShape);
  for (const char *k : {"aten::as_strided", "aten::as_strided_"})
    r.shape(k, [](const OpCall &c) -> ShapeResult {
      auto sizes = newTensorSizes(c, "size");
      return sizes ? ShapeResult(*sizes) : ShapeResult{};
    });
  for (const char *k : {"aten::narrow.Tensor", "aten::narrow_copy"}) r.shape(k, narrowShape);
  r.shape("aten::ravel", [](const OpCall &c) -> ShapeResult {
    auto self = dimsOf(c, "self");
    return self ? ShapeResult(Dims{product(*self)}) : ShapeResult{};
  });
  r.shape("aten::unflatten.int", unflattenShape);
  for (const char *k : {"aten::unfold", "aten::unfold_copy"}) r.shape(k, unfoldShape);
  r.shape("aten::rot90", rot90Shape);
  r.shape("aten::select_scatter", [](const OpCall &c) { return scatterInto(c, selectShape); });
  r.shape("aten::slice_scatter", [](const OpCall &c) { return scatterInto(c, sliceShape); });
  r.shape("aten::diagonal_scatter",
          [](const OpCall &c) { return scatterInto(c, [](const OpCall &cc) { return diagonalShape(cc, "self"); }); });
  r.shape("aten::as_strided_scatter", [](const OpCall &c) -> ShapeResult {
    return scatterInto(c, [](const OpCall &cc) -> ShapeResult {
      auto sizes = newTensorSizes(cc, "size");
      return sizes ? ShapeResult(*sizes) : ShapeResult{};
    });
  });
}

} // namespace

void registerShapeViewsShapes(Registry &r) {
  for (const char *k : {"aten::view", "aten::_unsafe_view", "aten::reshape"})
    r.shape(k, [](const OpCall &c) { return viewShape(c, c.has("size") ? "size" : "shape"); });
  r.shape("aten::_reshape_alias", [](const OpCall &c) { return viewShape(c, "size"); });
  for (const char *k : {"aten::view_as", "aten::reshape_as", "aten::expand_as"}) r.shape(k, sameShapeAs("other"));
  for (const char *k : {"aten::expand", "aten::expand_copy", "aten::broadcast_to"})
    r.shape(k, [](const OpCall &c) -> ShapeResult {
      auto self = dimsOf(c, "self");
      auto sizes = sizeListArg(c, c.has("size") ? "size" : "shape");
      if (!self || !sizes) return {};
      return expandShape(c, *self, *sizes);
    });
  r.shape("aten::flatten.using_ints", flattenShape);
  for (const char *k : {"aten::transpose.int", "aten::swapdims"})
    r.shape(k, [](const OpCall &c) { return transposeShape(c, "dim0", "dim1"); });
  r.shape("aten::swapaxes", [](const OpCall &c) { return transposeShape(c, "axis0", "axis1"); });
  for (const char *k : {"aten::t"})
    r.shape(k, [](const OpCall &c) -> ShapeResult {
      auto self = dimsOf(c, "self");
      if (!self || self->size() > 2) return {};
      std::reverse(self->begin(), self->end());
      return *self;
    });
  r.shape("aten::permute", [](const OpCall &c) -> ShapeResult {
    auto self = dimsOf(c, "self");
    auto dims = intListArg(c, "dims");
    if (!self || !dims || dims->size() != self->size()) return {};
    std::vector<int> perm;
    for (int64_t d : *dims) {
      auto w = wrapDim(d, static_cast<int>(self->size()));
      if (!w) return {};
      perm.push_back(*w);
    }
    auto out = permutedDims(*self, perm);
    return out ? ShapeResult(*out) : ShapeResult{};
  });
  r.shape("aten::slice.Tensor", sliceShape);
  r.shape("aten::select.int", selectShape);
  r.shape("aten::unsqueeze", unsqueezeShape);
  r.shape("aten::squeeze", [](const OpCall &c) { return squeezeShape(c, std::nullopt); });
  r.shape("aten::squeeze.dim", [](const OpCall &c) { return squeezeShape(c, intListArg(c, "dim")); });
  r.shape("aten::squeeze.dims", [](const OpCall &c) { return squeezeShape(c, intListArg(c, "dim")); });
  r.shape("aten::narrow", narrowShape);
  for (const char *k : {"aten::cat", "aten::concat", "aten::concatenate"}) r.shape(k, catShape);
  r.shape("aten::stack", stackShape);
  for (const char *k : {"aten::flip", "aten::roll", "aten::tril", "aten::triu", "aten::alias", "aten::fliplr",
                        "aten::flipud"})
    r.shape(k, sameShapeAs());
  registerSplitShapes(r);
  registerCorpusViewShapes(r);
  registerLeftViewShapes(r);
}

} // namespace dtf
