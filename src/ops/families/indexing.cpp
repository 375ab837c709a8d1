//===- ops/families/indexing.cpp - gathers, scatters, index ops ----------===//
//
// Indexing keeps self's dtype; what ATen checks are the index dtypes
// (gather/scatter/take/index_copy/index_fill need int64, index_select and
// index_add accept int32 too, advanced indexing takes int64, uint8 or bool)
// and that written values match self (scatter src, index_put values,
// index_add/index_copy source). Search ops return int64 (or int32).
//
//===----------------------------------------------------------------------===//
#include "ops/unit_dims.h"
#include "ops/registry.h"
#include "ops/arg_checks.h"
#include "ops/vocabulary.h"
#include "ops/shape_rules.h"
#include "shape/unbacked.h"

#include <algorithm>

#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace dtf {
namespace {

std::optional<RuleError> indexInt64(const OpCall &c, std::string_view n) {
  if (c.dtype(n) != DType::Int64) return c.semantic("expected dtype int64 for {}, but got {}", n, name(c.dtype(n)));
  return std::nullopt;
}

/// index_select / index_add / index_copy / index_fill / index_reduce take
/// a vector (or 0-dim) index.
std::optional<RuleError> vectorIndex(const OpCall &c) {
  if (auto r = c.rank("index").value(); r && *r > 1)
    return c.semantic("index is supposed to be a vector (or 0-dim), but got {} dims", *r);
  return std::nullopt;
}

std::optional<RuleError> indexInt32or64(const OpCall &c, std::string_view n) {
  DType d = c.dtype(n);
  if (d != DType::Int64 && d != DType::Int32)
    return c.semantic("expected dtype int32 or int64 for {}, but got {}", n, name(d));
  return std::nullopt;
}

std::optional<RuleError> sameAsSelf(const OpCall &c, std::string_view n) {
  if (c.dtype(n) != c.dtype("self"))
    return c.semantic("expected self ({}) and {} ({}) to have the same dtype", name(c.dtype("self")), n,
                      name(c.dtype(n)));
  return std::nullopt;
}

/// What advanced indexing takes, per version: 1.13 int64, uint8 or bool
/// indices, and index_put's masked_fill_ path takes either mask; 2.14 takes
/// int32 indices too, and that path refuses a uint8 mask
/// (scripts/probes/index_and_mask_dtypes.py).
struct IndexDTypes {
  bool int32Indices;
  bool byteMaskFills;
};
constexpr IndexDTypes kInt64IndicesByteMaskFills{false, true}, kInt32IndicesBoolMaskFills{true, false};

/// Advanced indexing: each index is int64, uint8 or bool (IndexDTypes). Result rank when
/// every rank is known: self's unindexed dims plus the broadcast of the
/// index ranks (a k-D mask consumes k dims and yields one).
struct IndexInfo {
  std::optional<RuleError> error;
  Rank rank = Rank::top();
};

template <IndexDTypes X> IndexInfo checkIndices(const OpCall &c) {
  auto indexDType = [](DType d) {
    return d == DType::Int64 || d == DType::UInt8 || d == DType::Bool || (X.int32Indices && d == DType::Int32);
  };
  IndexInfo info;
  const Value &l = c.arg("indices");
  if (!l.isList()) return info;
  if (!l.lengthKnown()) {
    Value s = l.elementSummary();
    if (s.isTensor()) {
      bool anyOk = false;
      for (DType d : s.dtypes())
        if (indexDType(d)) anyOk = true;
      if (!anyOk && !s.dtypes().empty())
        info.error = c.semantic("tensors used as indices must be long, byte or bool tensors");
    }
    return info;
  }
  auto selfRank = c.rank("self").value();
  int consumed = 0;
  std::vector<Rank> bcast;
  bool exact = selfRank.has_value();
  for (const Value &e : l.elements()) {
    if (e.isNone()) continue;
    if (!e.isTensor() || !e.dtype()) { exact = false; continue; }
    DType d = *e.dtype();
    if (!indexDType(d)) {
      info.error = c.semantic("tensors used as indices must be long, byte or bool tensors, got {}", name(d));
      return info;
    }
    auto r = e.rank().value();
    if (!r) { exact = false; continue; }
    if (d == DType::Int64 || d == DType::Int32) { consumed += 1; bcast.push_back(Rank::exact(*r)); }
    else { consumed += *r; bcast.push_back(Rank::exact(1)); }
  }
  if (exact && selfRank && *selfRank >= consumed) {
    Rank b = bcast.empty() ? Rank::exact(0) : broadcastRank(bcast);
    info.rank = Rank::exact(*selfRank - consumed + *b.value());
  }
  return info;
}

template <IndexDTypes X> RuleResult indexRule(const OpCall &c) {
  IndexInfo info = checkIndices<X>(c);
  if (info.error) return *info.error;
  return tensorOf(c.dtype("self"), info.rank);
}

/// index_put's indices when only one is defined and it is a mask (its
/// dtype), as far as the list and its dtypes are known.
enum class SoleMask { No, Bool, Byte, Unknown };
SoleMask soleMask(const OpCall &c) {
  const Value &l = c.arg("indices");
  if (!l.isList() || !l.lengthKnown()) return SoleMask::Unknown;
  int defined = 0;
  DType d = DType::Int64;
  for (const Value &e : l.elements()) {
    if (e.isNone()) continue;
    if (!e.isTensor() || !e.dtype()) return SoleMask::Unknown;
    ++defined;
    d = *e.dtype();
  }
  if (defined != 1) return SoleMask::No;
  return d == DType::Bool ? SoleMask::Bool : d == DType::UInt8 ? SoleMask::Byte : SoleMask::No;
}

/// index_put without accumulate goes to masked_fill_(mask, values.item())
/// when the only defined index is one bool/uint8 mask and values has one
/// element: then any values dtype is cast. A 0-dim values has one element;
/// a 1-D or larger one may (size-dependent), so the dtype check is certain
/// only for integer indices or accumulate=True.
bool mayMaskedFill(const OpCall &c) {
  auto acc = c.arg("accumulate").boolValue();
  return !(acc && *acc) && soleMask(c) != SoleMask::No;
}

/// The one uint8 mask of an index_put that certainly takes the masked_fill_
/// path (no accumulate, that mask the only index, a 0-dim values).
bool byteMaskFills(const OpCall &c) {
  return c.arg("accumulate").boolValue() == false && c.rank("values").value() == 0 && soleMask(c) == SoleMask::Byte;
}

template <IndexDTypes X> RuleResult indexPutRule(const OpCall &c) {
  IndexInfo info = checkIndices<X>(c);
  if (info.error) return *info.error;
  if (!X.byteMaskFills && byteMaskFills(c))
    return c.semantic("masked_fill_ only supports boolean masks, but got mask with dtype unsigned char");
  if (c.dtype("values") != c.dtype("self") && !mayMaskedFill(c))
    return c.semantic("index put requires the source and destination dtypes match, got {} for the destination and {} "
                      "for the source",
                      name(c.dtype("self")), name(c.dtype("values")));
  return tensorOf(c.dtype("self"), c.rank("self"));
}

/// The index dtypes gather and scatter take: int64 in 1.13, int32 too in
/// 2.14 (scripts/probes/index_and_mask_dtypes.py).
enum class GatherIndex : uint8_t { Int64, Int32or64 };

template <GatherIndex G> std::optional<RuleError> gatherIndex(const OpCall &c) {
  return G == GatherIndex::Int64 ? indexInt64(c, "index") : indexInt32or64(c, "index");
}

/// scatter with a src tensor: an index (gatherIndex), src of self's dtype.
template <GatherIndex G> RuleResult scatterSrc(const OpCall &c) {
  if (auto e = gatherIndex<G>(c)) return *e;
  if (auto e = sameAsSelf(c, "src")) return *e;
  return tensorOf(c.dtype("self"), c.rank("self"));
}

template <GatherIndex G> RuleResult scatterValue(const OpCall &c) {
  if (auto e = gatherIndex<G>(c)) return *e;
  if (auto e = checkedConversion(c, "value", c.dtype("self"))) return *e;
  return tensorOf(c.dtype("self"), c.rank("self"));
}

/// Advanced indexing: index and index_put, 1.13's and 2.14's.
void registerAdvancedIndexing(Registry &r) {
  const char *fam = "indexing";
  for (auto [scope, index, indexPut] :
       {std::tuple{r.since(TorchVersion::V1_13), RuleFn(indexRule<kInt64IndicesByteMaskFills>),
                   RuleFn(indexPutRule<kInt64IndicesByteMaskFills>)},
        std::tuple{r.since(TorchVersion::V2_6), RuleFn(indexRule<kInt32IndicesBoolMaskFills>),
                   RuleFn(indexPutRule<kInt32IndicesBoolMaskFills>)}}) {
    for (const char *k : {"aten::index.Tensor", "aten::index.Tensor_hacked_twin"})
      // self's first dim is 1 so that a [1] bool/uint8 mask fits it.
      // (float32 variants: the result's sizes, adjacent or not, with None entries.)
      scope.add(k, fam, index).sample("self", "sweep![1,2]").sample("indices", "[sweep![1]=0]")
          .variant({{"self", "float32[3,4,5]"}, {"indices", "[int64[2]=0,None,int64[2,1]=0]"}})
          .variant({{"self", "float32[3,4,5]"}, {"indices", "[None,int64[2,3]=0]"}})
          .variant({{"self", "float32[3,4,5]"}, {"indices", "[None,int64[2]=0,int64[1]=0]"}})
          .variant({{"self", "float32[3,4]"}, {"indices", "[bool[3]]"}})
          .variant({{"self", "float32[3,4]"}, {"indices", "[int64[2]=0,int64[3]=0]"}});
    // 2.x's _unsafe_index: integer indices only (no masks).
    for (const char *k : {"aten::_unsafe_index.Tensor", "aten::_unsafe_index.Tensor_hacked_twin"})
      scope.add(k, fam, [index = index](const OpCall &c) -> RuleResult {
        const Value &l = c.arg("indices");
        if (l.isList() && l.lengthKnown())
          for (const Value &e : l.elements())
            if (e.isTensor() && e.dtype() && (*e.dtype() == DType::UInt8 || *e.dtype() == DType::Bool))
              return c.semantic("_unsafe_index found unexpected index type {}", c10Name(*e.dtype()));
        return index(c);
      }).sample("self", "sweep![1,2]").sample("indices", "[sweep![1]=0]");
    for (const char *k : {"aten::index_put", "aten::index_put_", "aten::index_put.hacked_twin",
                          "aten::index_put_.hacked_twin", "aten::_index_put_impl", "aten::_index_put_impl_",
                          "aten::_index_put_impl_.hacked_twin", "aten::_unsafe_index_put",
                          "aten::_unsafe_index_put.hacked_twin"}) // the last two: 2.x
      scope.add(k, fam, keepingShape(indexPut))
          .sample("self", "sweep![1,2]").sample("indices", "[sweep![1]=0]").sample("values", "sweep![]")
          .variant({{"accumulate", "True"}})
          .variant({{"indices", "[int64[1]=0]"}, {"values", "sweep![2]"}});
  }

  r.add("aten::index_select", fam, [](const OpCall &c) -> RuleResult {
     if (auto e = vectorIndex(c)) return *e;
     if (auto e = indexInt32or64(c, "index")) return *e;
     Value out = tensorOf(c.dtype("self"), c.rank("self"));
     // self's shape, but dim `dim` has the index's length (a 0-dim index: 1).
     auto nd = knownDim(c, "self", "dim");
     if (!nd) return out;
     const Value &index = c.arg("index");
     std::optional<bool> one = index.rank() == Rank::exact(0) ? std::optional<bool>(true)
                               : index.rank() == Rank::exact(1) ? index.unitDims().sizeIsOne(0)
                                                                 : std::nullopt;
     return out.withUnitDims(c.arg("self").unitDims().withDim(*nd, one));
   }).sample("self", "sweep![2,2]").sample("dim", "0").sample("index", "sweep![1]=0")
      .variant({{"index", "sweep![1,1]=0"}}).variant({{"index", "int64[]=0"}})
      .variant({{"self", "float32[3,4]"}, {"dim", "1"}, {"index", "int64[5]=0"}})
      .variant({{"self", "float32[]"}, {"dim", "0"}, {"index", "int64[1]=0"}});
  r.add("aten::take", fam, keepingShape([](const OpCall &c) -> RuleResult { // index's shape
     if (auto e = indexInt64(c, "index")) return *e;
     return tensorOf(c.dtype("self"), c.rank("index"));
   }, "index")).sample("self", "sweep![2,2]").sample("index", "sweep[1]=0");
}

/// take_along_dim, gather and the scatters.
void registerGatherScatter(Registry &r) {
  const char *fam = "indexing";
  // take_along_dim: without a dim, self and indices are flattened and
  // gathered, so the index dtypes are gather's (2.14: int32 too); with a dim
  // it checks for int64 itself, in both versions.
  using IndexCheck = std::optional<RuleError> (*)(const OpCall &, std::string_view);
  for (auto [scope, flatIndex] : {std::pair{r.since(TorchVersion::V1_13), IndexCheck(indexInt64)},
                                  std::pair{r.since(TorchVersion::V2_14), IndexCheck(indexInt32or64)}})
    scope.add("aten::take_along_dim", fam, [flatIndex = flatIndex](const OpCall &c) -> RuleResult {
       if (auto e = c.isNone("dim") ? flatIndex(c, "indices") : indexInt64(c, "indices")) return *e;
       // With a dim, self and indices need the same number of dims.
       if (!c.isNone("dim"))
         if (auto rs = c.rank("self").value(), ri = c.rank("indices").value(); rs && ri && *rs != *ri)
           return c.semantic("input and indices should have the same number of dimensions, but got {} and {}", *rs, *ri);
       Rank rk = c.isNone("dim") ? Rank::exact(1) : broadcastRank({c.rank("self"), c.rank("indices")});
       return tensorOf(c.dtype("self"), rk);
     }).sample("self", "sweep![2,2]").sample("indices", "sweep![2,2]=0").sample("dim", "0")
        .variant({{"indices", "int64[2]=0"}})
        .variant({{"self", "bool[2,2]"}, {"indices", "sweep[2]=0"}, {"dim", "None"}})
        .variant({{"self", "float32[3,4]"}, {"indices", "int64[2,1]=0"}, {"dim", "0"}})
        .variant({{"self", "float32[3,1]"}, {"indices", "int64[1,4]=0"}, {"dim", "0"}})
        .variant({{"self", "float32[3,4]"}, {"indices", "int64[2,3]=0"}, {"dim", "None"}});

  // gather and scatter: 1.13's int64 index, and 2.14's int32 or int64, side by side.
  auto gatherScatter = [&](Registry::Scoped scope, RuleFn gather, RuleFn src, RuleFn value) {
    scope.add("aten::gather", fam, keepingShape(std::move(gather), "index"))
        .sample("self", "sweep![2,2]").sample("dim", "0").sample("index", "sweep![2,2]=0")
        .variant({{"self", "float32[3,4]"}, {"dim", "1"}, {"index", "int64[2,6]=0"}})
        .variant({{"self", "float32[3,4]"}, {"dim", "1"}, {"index", "int64[4,2]=0"}})
        .variant({{"self", "float32[3,4]"}, {"dim", "1"}, {"index", "int64[2]=0"}});
    for (const char *k : {"aten::scatter.src", "aten::scatter_.src", "aten::scatter_add", "aten::scatter_add_"})
      scope.add(k, fam, keepingShape(src))
          .sample("self", "sweep![2,2]").sample("dim", "0").sample("index", "sweep![2,2]=0").sample("src", "sweep![2,2]")
          .variant({{"self", "float32[3,4]"}, {"dim", "1"}, {"index", "int64[2,2]=0"}, {"src", "float32[2,3]"}})
          .variant({{"self", "float32[3,4]"}, {"dim", "1"}, {"index", "int64[4,2]=0"}, {"src", "float32[4,3]"}})
          .variant({{"self", "float32[3,4]"}, {"dim", "1"}, {"index", "int64[2,2]=0"}, {"src", "float32[2,1]"}});
    for (const char *k : {"aten::scatter.reduce", "aten::scatter_.reduce"})
      scope.add(k, fam, keepingShape(src))
          .sample("self", "sweep![2,2]").sample("dim", "0").sample("index", "sweep![2,2]=0").sample("src", "sweep![2,2]")
          .sample("reduce", "'add'").refuse(checks::oneOf("reduce", {"add", "multiply"}), {{"reduce", "'sum'"}});
    for (const char *k : {"aten::scatter_reduce.two", "aten::scatter_reduce_.two"})
      scope.add(k, fam, keepingShape(src))
          .sample("self", "sweep![2,2]").sample("dim", "0").sample("index", "sweep![2,2]=0").sample("src", "sweep![2,2]")
          .sample("reduce", "'sum'")
          .refuse(checks::oneOf("reduce", {"sum", "prod", "mean", "amax", "amin"}), {{"reduce", "'add'"}});
    for (const char *k : {"aten::scatter.value", "aten::scatter_.value"})
      scope.add(k, fam, keepingShape(value))
          .sample("self", "sweep![2,2]").sample("dim", "0").sample("index", "sweep![2,2]=0").sample("value", "2")
          .variant({{"index", "int64[2,2]=0"}, {"value", "sweep"}})
          .variant({{"index", "int64[2,2]=0"}, {"value", "magnitudes"}});
    for (const char *k : {"aten::scatter.value_reduce", "aten::scatter_.value_reduce"})
      scope.add(k, fam, keepingShape(value))
          .sample("self", "sweep![2,2]").sample("dim", "0").sample("index", "sweep![2,2]=0").sample("value", "2")
          .sample("reduce", "'add'").refuse(checks::oneOf("reduce", {"add", "multiply"}), {{"reduce", "'sum'"}});
  };
  gatherScatter(r.since(TorchVersion::V1_13), [](const OpCall &c) -> RuleResult { // index's shape
    if (auto e = gatherIndex<GatherIndex::Int64>(c)) return *e;
    return tensorOf(c.dtype("self"), c.rank("index"));
  }, scatterSrc<GatherIndex::Int64>, scatterValue<GatherIndex::Int64>);
  gatherScatter(r.since(TorchVersion::V2_14), [](const OpCall &c) -> RuleResult {
    if (auto e = gatherIndex<GatherIndex::Int32or64>(c)) return *e;
    return tensorOf(c.dtype("self"), c.rank("index"));
  }, scatterSrc<GatherIndex::Int32or64>, scatterValue<GatherIndex::Int32or64>);
}

/// index_add / index_reduce, index_fill and masked_select.
void registerIndexWrites(Registry &r) {
  const char *fam = "indexing";
  // index_add / index_reduce: an int32/int64 index, a source of self's dtype.
  auto indexAccumulate = [](const OpCall &c) -> RuleResult {
    if (auto e = vectorIndex(c)) return *e;
    if (auto e = indexInt32or64(c, "index")) return *e;
    if (auto e = sameAsSelf(c, "source")) return *e;
    return tensorOf(c.dtype("self"), c.rank("self"));
  };
  for (const char *k : {"aten::index_add", "aten::index_add_"})
    r.add(k, fam, keepingShape(indexAccumulate))
        .sample("self", "sweep![2,2]").sample("dim", "0").sample("index", "sweep![1]=0").sample("source", "sweep![1,2]")
        .sample("alpha", "1").variant({{"index", "int64[1,1]=0"}});
  for (const char *k : {"aten::index_reduce", "aten::index_reduce_"})
    r.add(k, fam, keepingShape(indexAccumulate))
        .sample("self", "sweep![2,2]").sample("dim", "0").sample("index", "sweep![1]=0").sample("source", "sweep![1,2]")
        .sample("reduce", "'prod'").variant({{"self", "sweep![2,2]"}, {"dim", "0"}, {"index", "sweep![1]=0"},
                                             {"source", "sweep![1,2]"}, {"reduce", "'amax'"}})
        .refuse(checks::oneOf("reduce", {"prod", "mean", "amax", "amin"}), {{"reduce", "'sum'"}});
  for (const char *k : {"aten::put", "aten::put_"})
    r.add(k, fam, keepingShape([](const OpCall &c) -> RuleResult {
       if (auto e = indexInt64(c, "index")) return *e;
       if (auto e = sameAsSelf(c, "source")) return *e;
       return tensorOf(c.dtype("self"), c.rank("self"));
     })).sample("self", "sweep[2,2]").sample("index", "sweep[1]=0").sample("source", "sweep[1]");
  for (const char *k : {"aten::index_copy", "aten::index_copy_"})
    r.add(k, fam, keepingShape([](const OpCall &c) -> RuleResult {
       if (auto e = vectorIndex(c)) return *e;
       if (auto e = indexInt64(c, "index")) return *e;
       if (auto e = sameAsSelf(c, "source")) return *e;
       return tensorOf(c.dtype("self"), c.rank("self"));
     })).sample("self", "sweep![2,2]").sample("dim", "0").sample("index", "sweep![1]=0").sample("source", "sweep![1,2]");
  // 2.14 converts the value for a complex32 self as complex<half> (1.13: complex<float>).
  for (auto [scope, parts] : {std::pair{r.since(TorchVersion::V1_13), ComplexHalfParts::AsFloat},
                              std::pair{r.since(TorchVersion::V2_6), ComplexHalfParts::AsHalf}})
  for (const char *k : {"aten::index_fill.int_Scalar", "aten::index_fill_.int_Scalar"})
    scope.add(k, fam, keepingShape([parts = parts](const OpCall &c) -> RuleResult {
       if (auto e = vectorIndex(c)) return *e;
       if (auto e = indexInt64(c, "index")) return *e;
       if (c.arg("value").numKind() == NumKind::Complex && !isComplex(c.dtype("self")))
         return c.semantic("converting a complex value to non-complex self {} is not supported", name(c.dtype("self")));
       if (auto e = checkedConversion(c, "value", c.dtype("self"), parts)) return *e;
       return tensorOf(c.dtype("self"), c.rank("self"));
     })).sample("self", "sweep![2,2]").sample("dim", "0").sample("index", "sweep![1]=0").sample("value", "2")
      .variant({{"index", "int64[1]=0"}, {"value", "sweep"}})
      .variant({{"index", "int64[1]=0"}, {"value", "magnitudes"}});
  for (const char *k : {"aten::index_fill.int_Tensor", "aten::index_fill_.int_Tensor"})
    r.add(k, fam, keepingShape([](const OpCall &c) -> RuleResult {
       if (auto e = vectorIndex(c)) return *e;
       if (auto e = indexInt64(c, "index")) return *e;
       if (auto rk = c.rank("value").value(); rk && *rk != 0)
         return c.semantic("index_fill_ only supports a 0-dimensional value tensor, got {}-D", *rk);
       if (isComplex(c.dtype("value")) && !isComplex(c.dtype("self")))
         return c.semantic("converting complex value {} to non-complex self {}", name(c.dtype("value")),
                           name(c.dtype("self")));
       return tensorOf(c.dtype("self"), c.rank("self"));
     })).sample("self", "sweep![2,2]").sample("dim", "0").sample("index", "sweep![1]=0").sample("value", "sweep![]");

  // 1.13 takes a bool or uint8 mask, 2.14 bool only (scripts/probes/index_and_mask_dtypes.py).
  r.since(TorchVersion::V1_13).add("aten::masked_select", fam, [](const OpCall &c) -> RuleResult {
     DType m = c.dtype("mask");
     if (m != DType::Bool && m != DType::UInt8)
       return c.semantic("masked_select: expected bool or uint8 mask, got {}", name(m));
     return tensorOf(c.dtype("self"), Rank::exact(1));
   }).sample("self", "sweep![2,2]").sample("mask", "sweep![2,2]");
  r.since(TorchVersion::V2_6).add("aten::masked_select", fam, [](const OpCall &c) -> RuleResult {
     if (c.dtype("mask") != DType::Bool) return c.semantic("masked_select: expected BoolTensor for mask");
     return tensorOf(c.dtype("self"), Rank::exact(1));
   }).sample("self", "sweep![2,2]").sample("mask", "sweep![2,2]");
}

/// nonzero, bucketize and searchsorted.
void registerSearches(Registry &r) {
  const char *fam = "indexing";
  // 2.x: nonzero with a fixed number of rows (`size`, padded with fill_value).
  r.add("aten::nonzero_static", fam, [](const OpCall &c) -> RuleResult {
    return tensorOf(DType::Int64, Rank::exact(2));
  }).sample("size", "3");
  for (const char *k : {"aten::nonzero", "aten::argwhere"})
    r.add(k, fam, [](const OpCall &c) -> RuleResult {
      // (number of nonzeros, self's rank): dim 1 is 1 exactly for a 1-D self.
      Value out = tensorOf(DType::Int64, Rank::exact(2));
      if (auto rk = c.rank("self").value()) out = out.withUnitDims(*rk == 1 ? UnitDims{2u, 0u} : UnitDims{0u, 2u});
      return out;
    }).variant({{"self", "float32[2,3]"}});
  r.add("aten::nonzero_numpy", fam, [](const OpCall &c) -> RuleResult {
    if (auto rk = c.rank("self").value())
      return Value::list(std::vector<Value>(std::max(*rk, 1), tensorOf(DType::Int64, Rank::exact(1))));
    return Value::listOf(tensorOf(DType::Int64, Rank::exact(1)));
  });

  // The boundaries and the values are brought to their result_type first,
  // which raises where promotion does (2.14: uint16 with bool, float8).
  auto searchOut = [](const OpCall &c, Rank rk) -> RuleResult {
    (void)promoteArgs(c, {c.has("boundaries") ? "boundaries" : "sorted_sequence", "self"});
    auto i32 = c.arg("out_int32").boolValue();
    if (!i32) return Value::tensor(DTypeSet::join(DType::Int32, DType::Int64), rk);
    return tensorOf(*i32 ? DType::Int32 : DType::Int64, rk);
  };
  r.add("aten::bucketize.Tensor", fam, [searchOut](const OpCall &c) -> RuleResult {
     return searchOut(c, c.rank("self"));
   }).sample("boundaries", "sweep![2]").variant({{"out_int32", "True"}})
      .refuse(checks::rankIn("boundaries", {1}, "boundaries tensor must be 1 dimension"), {{"boundaries", "float32[2,2]"}});
  r.add("aten::bucketize.Scalar", fam, [searchOut](const OpCall &c) -> RuleResult {
     return searchOut(c, Rank::exact(0));
   }).sample("boundaries", "sweep![2]")
      .refuse(checks::rankIn("boundaries", {1}, "boundaries tensor must be 1 dimension"), {{"boundaries", "float32[]"}});
  // side: 'left' or 'right', and not 'left' with right=True.
  const ArgCheck side = [](const OpCall &c) -> std::optional<RuleError> {
    if (auto e = checks::oneOf("side", {"left", "right"})(c)) return e;
    auto s = c.arg("side").isString() ? c.arg("side").text() : std::nullopt;
    if (s != "left" || c.arg("right").boolValue() != true) return std::nullopt;
    return c.error(ErrorKind::ValueDependent, "side and right can't be set to opposites, got side of left while right was True");
  };
  // The boundaries' rank, checked before anything (measured on 1.13): 1-D
  // for a number (or a 0-dim input), positive, and otherwise the input's.
  const ArgCheck boundariesRank = [](const OpCall &c) -> std::optional<RuleError> {
    auto b = c.rank("sorted_sequence").value();
    auto s = c.has("self") && c.isTensor("self") ? c.rank("self").value() : std::optional<int>(0);
    if (!b || !s) return std::nullopt;
    if (*s == 0 && *b != 1)
      return c.semantic("input value can be a scalar only when boundaries tensor dimension is 1, but we got "
                        "boundaries tensor dim({})", *b);
    if (*b == 0) return c.semantic("boundaries tensor should have positive dimension, but got 0 dimension");
    if (*b > 1 && *b != *s)
      return c.semantic("boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries tensor "
                        "and input value tensor must match");
    return std::nullopt;
  };
  r.add("aten::searchsorted.Tensor", fam, [searchOut](const OpCall &c) -> RuleResult {
     if (c.isTensor("sorter"))
       if (auto e = indexInt64(c, "sorter")) return *e;
     return searchOut(c, c.rank("self"));
   }).sample("sorted_sequence", "sweep![2]").sample("self", "sweep[2]").sample("sorter", "None")
      .variant({{"out_int32", "True"}})
      .refuse(side, {{"side", "'mid'"}}).variant({{"side", "'left'"}, {"right", "True"}})
      .refuse(boundariesRank, {{"sorted_sequence", "sweep[2,2]"}})
      .variant({{"sorted_sequence", "sweep![2,2]"}, {"self", "sweep![2,3]"}})
      .variant({{"sorted_sequence", "sweep![2,2]"}, {"self", "sweep![2,2,3]"}});
  r.add("aten::searchsorted.Scalar", fam, [searchOut](const OpCall &c) -> RuleResult {
     if (c.isTensor("sorter"))
       if (auto e = indexInt64(c, "sorter")) return *e;
     return searchOut(c, Rank::exact(0));
   }).sample("sorted_sequence", "sweep![2]").sample("sorter", "None")
      .refuse(side, {{"side", "'mid'"}}).variant({{"side", "'left'"}, {"right", "True"}})
      .refuse(boundariesRank, {{"sorted_sequence", "sweep[2,2]"}});
  r.add("aten::bincount", fam, [](const OpCall &c) -> RuleResult {
     if (!c.isTensor("weights")) return tensorOf(DType::Int64, Rank::exact(1));
     DType w = c.dtype("weights");
     return tensorOf(w == DType::Float32 ? DType::Float32 : DType::Float64, Rank::exact(1));
   }).sample("self", "sweep![2]=0").sample("weights", "None").variant({{"self", "int64[2]=0"}, {"weights", "sweep![2]"}})
      .atLeast("minlength", 0, "minlength should be >= 0")
      .refuse(checks::rankIn("self", {1}, "bincount only supports 1-d non-negative integral inputs"),
              {{"self", "int64[2,2]=0"}});
}

/// The unique family.
/// 2.6's FakeTensor runs _unique2 and unique_dim by a Python implementation that gives the inverse
/// and the counts self's dtype (float32 for a float32 self): what torch.export 2.6 records, where the
/// program returns int64 (measured with 2.6's FakeTensorMode; 2.14's gives int64). `--kernels meta`.
static RuleFn fakeUniqueOf26(RuleFn cpu) {
  return metaByReference(cpu, [cpu](const OpCall &c) -> RuleResult {
    RuleResult r = cpu(c);
    if (!r.ok()) return r;
    std::vector<Value> outs = r.takeOutputs();
    for (size_t i = 1; i < outs.size(); ++i)
      if (outs[i].isTensor()) outs[i] = outs[i].withDTypes(c.arg("self").dtypes());
    return outs;
  });
}

void registerUnique(Registry &r) {
  const char *fam = "indexing";
  // unique: values are 1-D (with dim=: self's rank). An inverse that was not
  // asked for is an empty 1-D tensor, else it has self's shape (with dim=:
  // one entry per slice); counts are 1-D.
  auto inverseRank = [](const OpCall &c, std::string_view flag, Rank asked) {
    auto f = c.arg(flag).boolValue();
    if (!f) return Rank::join(asked, Rank::exact(1));
    return *f ? asked : Rank::exact(1);
  };
  r.add("aten::_unique", fam, [inverseRank](const OpCall &c) -> RuleResult {
     return std::vector<Value>{tensorOf(c.dtype("self"), Rank::exact(1)),
                               tensorOf(DType::Int64, inverseRank(c, "return_inverse", c.rank("self")))};
   }).variant({{"return_inverse", "True"}});
  // _unique2 fills the inverse (self's shape) when either the inverse or
  // the counts are asked for in 1.13 (measured: counts alone give a 2-D
  // inverse); 2.14 only when the inverse is (else an empty 1-D one;
  // scripts/probes/unique2.py).
  auto unique2 = [](bool countsFillInverse) -> RuleFn {
    return [countsFillInverse](const OpCall &c) -> RuleResult {
      auto inv = c.arg("return_inverse").boolValue(), cnt = c.arg("return_counts").boolValue();
      if (!countsFillInverse) cnt = false;
      Rank self = c.rank("self"), inverse = Rank::join(self, Rank::exact(1));
      if ((inv && *inv) || (cnt && *cnt)) inverse = self;
      else if (inv && cnt) inverse = Rank::exact(1);
      return std::vector<Value>{tensorOf(c.dtype("self"), Rank::exact(1)), tensorOf(DType::Int64, inverse),
                                tensorOf(DType::Int64, Rank::exact(1))};
    };
  };
  for (auto [scope, fn] : {std::pair{r.since(TorchVersion::V1_13), unique2(true)},
                           std::pair{r.since(TorchVersion::V2_6), fakeUniqueOf26(unique2(false))},
                           std::pair{r.since(TorchVersion::V2_14), unique2(false)}})
    scope.add("aten::_unique2", fam, fn).variant({{"return_inverse", "True"}, {"return_counts", "True"}})
        .variant({{"self", "sweep![2,2]"}, {"return_counts", "True"}}).variant({{"self", "float32[]"}, {"return_counts", "True"}});
  r.add("aten::unique_consecutive", fam, [inverseRank](const OpCall &c) -> RuleResult {
     bool noDim = c.isNone("dim");
     Rank out = noDim ? Rank::exact(1) : c.rank("self");
     Rank inv = inverseRank(c, "return_inverse", noDim ? c.rank("self") : Rank::exact(1));
     return std::vector<Value>{tensorOf(c.dtype("self"), out), tensorOf(DType::Int64, inv),
                               tensorOf(DType::Int64, Rank::exact(1))};
   }).variant({{"return_inverse", "True"}, {"return_counts", "True"}})
      .variant({{"self", "sweep![2,2]"}, {"dim", "0"}}).variant({{"self", "sweep![2,2]"}, {"dim", "1"}, {"return_inverse", "True"}});
  // A 0-dim self has no dim to name (measured: even -1 raises).
  for (const char *k : {"aten::unique_dim", "aten::unique_dim_consecutive"}) r.declare(k, OpFact::NoDimOfZeroDim);
  const RuleFn uniqueDim = [](const OpCall &c) -> RuleResult {
    return std::vector<Value>{tensorOf(c.dtype("self"), c.rank("self")), tensorOf(DType::Int64, Rank::exact(1)),
                              tensorOf(DType::Int64, Rank::exact(1))};
  };
  for (const char *k : {"aten::unique_dim", "aten::unique_dim_consecutive"})
    for (auto [scope, fn] : {std::pair{r.since(TorchVersion::V1_13), uniqueDim},
                             std::pair{r.since(TorchVersion::V2_6),
                                       std::string_view(k) == "aten::unique_dim" ? fakeUniqueOf26(uniqueDim) : uniqueDim},
                             std::pair{r.since(TorchVersion::V2_14), uniqueDim}})
      scope.add(k, fam, fn).sample("self", "sweep![2,2]").sample("dim", "0")
          .variant({{"self", "sweep![2,2]"}, {"dim", "1"}, {"return_inverse", "True"}, {"return_counts", "True"}})
          .variant({{"self", "sweep![]"}, {"dim", "0"}}).variant({{"self", "sweep![]"}, {"dim", "-1"}});
}

/// The indices and masks the ops only read.
void registerReadIndices(Registry &r) {
  // Indices and masks select elements; they are never converted into the
  // result's dtype (refine/audit.h counts no promotion of them).
  for (const char *k : {"aten::gather", "aten::scatter", "aten::scatter_", "aten::scatter_add", "aten::scatter_add_",
                        "aten::scatter_reduce", "aten::scatter_reduce_", "aten::index_select", "aten::index_add",
                        "aten::index_add_", "aten::index_copy", "aten::index_copy_", "aten::index_fill",
                        "aten::index_fill_", "aten::index_reduce", "aten::index_reduce_", "aten::take"})
    r.declareRead(k, {"index"});
  for (const char *k : {"aten::index", "aten::index_put", "aten::index_put_", "aten::_index_put_impl_",
                        "aten::take_along_dim"})
    r.declareRead(k, {"indices"});
  r.declareRead("aten::masked_select", {"mask"});
}

} // namespace

void registerIndexing(Registry &r) {
  registerAdvancedIndexing(r);
  registerGatherScatter(r);
  registerIndexWrites(r);
  registerSearches(r);
  registerUnique(r);
  registerReadIndices(r);
}

} // namespace dtf

//===----------------------------------------------------------------------===//
// Shape rules (ops/shape_rules.h)
//===----------------------------------------------------------------------===//

namespace dtf {
namespace {

using Outs = std::vector<std::optional<Dims>>;

/// A 0-dim tensor counts as one of size 1 in gather's and scatter's checks
/// (ensure_nonempty_dim / ensure_nonempty_size).
Dims nonEmpty(Dims d) { return d.empty() ? Dims{Dim(1)} : d; }

/// gather_shape_check / scatter_shape_check, for a non-empty index: the
/// index has self's rank (and src's), and no larger size than self off
/// `dim` (nor than src anywhere). Only known sizes decide.
std::optional<RuleError> gatherScatterCheck(const OpCall &c, const Dims &self, const Dims &index,
                                            const std::optional<Dims> &src) {
  auto n = product(index).value();
  if (!n || *n == 0) return std::nullopt; // an empty index is not checked
  auto dim = intArg(c, "dim");
  auto w = dim ? wrapDim(*dim, static_cast<int>(self.size())) : std::nullopt;
  Dims s = nonEmpty(self), i = nonEmpty(index);
  if (s.size() != i.size())
    return c.semantic("index tensor must have the same number of dimensions as input tensor");
  auto larger = [](const Dim &a, const Dim &b) { return a.value() && b.value() && *a.value() > *b.value(); };
  for (size_t d = 0; d < s.size(); ++d)
    if (w && static_cast<int>(d) != *w && larger(i[d], s[d]))
      return c.semantic("size does not match at dimension {}: expected index {} to be smaller than self {} apart "
                        "from dimension {}", d, dimsText(index), dimsText(self), *w);
  if (src && nonEmpty(*src).size() == i.size())
    for (size_t d = 0; d < i.size(); ++d)
      if (larger(i[d], nonEmpty(*src)[d]))
        return c.semantic("expected index {} to be smaller than src {}", dimsText(index), dimsText(*src));
  return std::nullopt;
}

/// gather: index's sizes; scatter: self's.
ShapeResult gatherScatterShape(const OpCall &c, bool gather) {
  auto self = dimsOf(c, "self"), index = dimsOf(c, "index");
  if (!self || !index) return {};
  std::optional<Dims> src = c.has("src") ? dimsOf(c, "src") : std::nullopt;
  if (auto e = gatherScatterCheck(c, *self, *index, src)) return *e;
  return gather ? *index : *self;
}

/// index_select: self with `dim` as long as the index (a 0-dim index: 1).
ShapeResult indexSelectShape(const OpCall &c) {
  auto self = dimsOf(c, "self"), index = dimsOf(c, "index");
  auto dim = intArg(c, "dim");
  if (!self || !index || !dim || index->size() > 1) return {};
  if (self->empty()) return Dims{};
  auto w = wrapDim(*dim, static_cast<int>(self->size()));
  if (!w) return {};
  return withDimAt(*self, *w, index->empty() ? Dim(1) : (*index)[0]);
}

/// take_along_dim: with a dim, the broadcast of self and indices off that
/// dim, which is the indices'; without, the indices flattened.
ShapeResult takeAlongDimShape(const OpCall &c) {
  auto self = dimsOf(c, "self"), idx = dimsOf(c, "indices");
  if (!self || !idx) return {};
  if (c.isNone("dim")) return Dims{product(*idx)};
  auto dim = intArg(c, "dim");
  if (!dim || self->size() != idx->size() || self->empty()) return {};
  auto w = wrapDim(*dim, static_cast<int>(self->size()));
  if (!w) return {};
  std::vector<Dims> both{withDimAt(*self, *w, (*idx)[*w]), *idx};
  Broadcast b = broadcastShapes(both);
  if (b.mismatch) return c.semantic("{}", *b.mismatch);
  return b.dims ? ShapeResult(*b.dims) : ShapeResult{};
}

/// A data-dependent count (nonzero's rows, unique's values): torch.export
/// gives it a fresh unbacked symbol, and so does the pass, which names the
/// placeholder made here per graph node (shape/unbacked.h). `ordinal`
/// numbers the call's distinct counts; the count lies in [lo, hi].
Dim dataDependent(unsigned ordinal, int64_t lo, int64_t hi) {
  return lo == hi ? Dim(lo) : unbackedDim(ordinal, {lo, hi});
}

/// The most elements a tensor of these sizes holds (inf when unknown).
int64_t numelBound(const std::optional<Dims> &dims) {
  return dims ? product(*dims).range().hi : SymRange::kInf;
}

/// How many distinct values (or slices) a tensor of `n` elements (slices)
/// has: at least 1 when it is never empty.
Dim distinctCount(const Dim &n) {
  const SymRange r = n.range();
  return dataDependent(0, r.lo >= 1 ? 1 : 0, r.hi);
}

/// Advanced indexing (aten::index): a k-D bool/uint8 mask stands for k
/// index tensors of one data-dependent length; the index tensors broadcast
/// together; that shape replaces the indexed dims where they are adjacent,
/// else it leads. Unknown for a 0-dim mask or an undecided dtype.
ShapeResult advancedIndexShape(const OpCall &c) {
  auto self = dimsOf(c, "self");
  const Value &l = c.arg("indices");
  if (!self || !l.isList() || !l.lengthKnown()) return {};
  std::vector<Dims> bcast;
  std::vector<bool> indexed; // per self dim
  unsigned masks = 0;
  for (const Value &e : l.elements()) {
    if (e.isNone()) {
      indexed.push_back(false);
      continue;
    }
    auto d = e.isTensor() && e.dtype() ? e.shape() : std::nullopt;
    if (!d) return {};
    bool mask = *e.dtype() == DType::Bool || *e.dtype() == DType::UInt8;
    if (mask && d->empty()) return {};
    for (size_t k = 0; k < (mask ? d->size() : 1); ++k) indexed.push_back(true);
    // A mask stands for its nonzero count, one placeholder per mask.
    bcast.push_back(mask ? Dims{dataDependent(masks++, 0, numelBound(d))} : *d);
  }
  if (bcast.empty() || indexed.size() > self->size()) return {}; // "too many indices": the dtype rule's
  indexed.resize(self->size(), false);
  Broadcast b = broadcastShapes(bcast);
  if (b.mismatch) return c.semantic("shape mismatch: indexing tensors could not be broadcast together ({})", *b.mismatch);
  if (!b.dims) return {};
  auto first = std::find(indexed.begin(), indexed.end(), true) - indexed.begin();
  auto last = indexed.rend() - std::find(indexed.rbegin(), indexed.rend(), true);
  bool adjacent = std::find(indexed.begin() + first, indexed.begin() + last, false) == indexed.begin() + last;
  Dims out;
  if (adjacent) out.insert(out.end(), self->begin(), self->begin() + first);
  out.insert(out.end(), b.dims->begin(), b.dims->end());
  for (size_t i = adjacent ? first : 0; i < self->size(); ++i)
    if (!indexed[i]) out.push_back((*self)[i]);
  return out;
}

/// unique's inverse and counts when not asked for are empty 1-D tensors,
/// except `filled`: _unique2's inverse when 1.13 fills it for the counts
/// (true: filled, nullopt: unknown whether). `whenAsked`: its shape when asked for.
std::optional<Dims> uniqueExtra(std::optional<bool> asked, std::optional<bool> filled, std::optional<Dims> whenAsked) {
  if (asked == true) return whenAsked;
  if (asked == false && filled == false) return Dims{Dim(0)};
  if (asked == false && filled == true) return whenAsked;
  return std::nullopt;
}

/// unique over a dim: the values keep self's other dims; the inverse has
/// one entry per slice, the counts one per distinct slice.
ShapeResult uniqueDimShape(const OpCall &c) {
  auto in = dimsAndDim(c, "self", intArg(c, "dim"));
  if (!in) return {};
  const Dim count = distinctCount(in->dims[in->dim]); // values and counts: one per distinct slice
  return Outs{withDimAt(in->dims, in->dim, count), Dims{in->dims[in->dim]}, Dims{count}};
}

ShapeResult uniqueFlatShape(const OpCall &c) {
  auto self = dimsOf(c, "self");
  auto inv = boolArg(c, "return_inverse");
  auto cnt = c.has("return_counts") ? boolArg(c, "return_counts") : std::optional<bool>(false);
  const Dim count = self ? distinctCount(product(*self)) : dataDependent(0, 0, SymRange::kInf);
  // _unique2's inverse, not asked for: 1.13 fills it when the counts are (VersionFact::Unique2InverseOnlyWhenAsked).
  std::optional<bool> filled = false;
  if (c.key() == "aten::_unique2" && !has(c.version(), VersionFact::Unique2InverseOnlyWhenAsked)) filled = cnt;
  Outs out{Dims{count}, uniqueExtra(inv, filled, self)};
  if (c.has("return_counts")) out.push_back(uniqueExtra(cnt, false, Dims{count})); // one per value
  return out;
}

} // namespace

void registerIndexingShapes(Registry &r) {
  r.shape("aten::gather", [](const OpCall &c) { return gatherScatterShape(c, true); });
  for (const char *k : {"aten::scatter.src", "aten::scatter_.src", "aten::scatter.value", "aten::scatter_.value",
                        "aten::scatter.reduce", "aten::scatter_.reduce", "aten::scatter.value_reduce",
                        "aten::scatter_.value_reduce", "aten::scatter_add", "aten::scatter_add_",
                        "aten::scatter_reduce.two", "aten::scatter_reduce_.two"})
    r.shape(k, [](const OpCall &c) { return gatherScatterShape(c, false); });
  r.shape("aten::index_select", indexSelectShape);
  r.shape("aten::take_along_dim", takeAlongDimShape);
  r.shape("aten::take", sameShapeAs("index"));
  for (const char *k : {"aten::index.Tensor", "aten::index.Tensor_hacked_twin", "aten::_unsafe_index.Tensor",
                        "aten::_unsafe_index.Tensor_hacked_twin"})
    r.shape(k, advancedIndexShape);
  // Writes keep self's sizes (their values' sizes are checked at run time).
  for (const char *k : {"aten::index_put", "aten::index_put_", "aten::index_put.hacked_twin",
                        "aten::index_put_.hacked_twin", "aten::_index_put_impl", "aten::_index_put_impl_",
                        "aten::_index_put_impl_.hacked_twin", "aten::_unsafe_index_put",
                        "aten::_unsafe_index_put.hacked_twin", "aten::index_add", "aten::index_add_",
                        "aten::index_reduce", "aten::index_reduce_", "aten::index_copy", "aten::index_copy_",
                        "aten::index_fill.int_Scalar", "aten::index_fill_.int_Scalar", "aten::index_fill.int_Tensor",
                        "aten::index_fill_.int_Tensor", "aten::put", "aten::put_"})
    r.shape(k, sameShapeAs());
  // Data-dependent results (see dataDependent): the other dims are known.
  for (const char *k : {"aten::nonzero", "aten::argwhere"})
    r.shape(k, [](const OpCall &c) -> ShapeResult {
      auto self = dimsOf(c, "self");
      if (!self) return {};
      return Dims{dataDependent(0, 0, numelBound(self)), Dim(static_cast<int64_t>(self->size()))};
    });
  // where(condition) / nonzero_numpy: nonzero's columns, one [u0] per dim of
  // the input, a 0-dim one counting as 1-D (measured); one count: every
  // piece has it.
  for (auto [key, arg] : {std::pair{"aten::where", "condition"}, std::pair{"aten::nonzero_numpy", "self"}})
    r.shape(key, [arg = arg](const OpCall &c) -> ShapeResult {
      auto in = dimsOf(c, arg);
      if (!in) return {};
      const Dims piece{dataDependent(0, 0, numelBound(in))};
      return ShapeResult::value(tensorsOfShapes(std::vector<Dims>(std::max<size_t>(in->size(), 1), piece)));
    });
  // bucketize and searchsorted give one index per element of self (a scalar
  // self: 0-dim, which the rank already says).
  for (const char *k : {"aten::bucketize.Tensor", "aten::searchsorted.Tensor"}) r.shape(k, sameShapeAs("self"));
  r.shape("aten::nonzero_static", [](const OpCall &c) -> ShapeResult {
    auto self = dimsOf(c, "self");
    auto size = sizeListArg(c, "size");
    if (!self || !size || size->size() != 1) return {};
    if (auto v = (*size)[0].value(); v && *v < 0) return {}; // raises
    return Dims{(*size)[0], Dim(static_cast<int64_t>(self->size()))};
  });
  r.shape("aten::masked_select", [](const OpCall &c) -> ShapeResult {
    auto self = dimsOf(c, "self"), mask = dimsOf(c, "mask");
    if (!self || !mask) return Dims{dataDependent(0, 0, SymRange::kInf)};
    const Dims both[] = {*self, *mask};
    Broadcast b = broadcastShapes(both);
    if (b.mismatch) return c.semantic("the mask cannot be broadcast to self ({})", *b.mismatch);
    return Dims{dataDependent(0, 0, numelBound(b.dims))};
  });
  for (const char *k : {"aten::_unique", "aten::_unique2"}) r.shape(k, uniqueFlatShape);
  r.shape("aten::unique_consecutive", [](const OpCall &c) -> ShapeResult {
    return c.isNone("dim") ? uniqueFlatShape(c) : uniqueDimShape(c);
  });
  for (const char *k : {"aten::unique_dim", "aten::unique_dim_consecutive"}) r.shape(k, uniqueDimShape);
  // max(input) + 1 bins, at least minlength: minlength exactly for an empty input.
  r.shape("aten::bincount", [](const OpCall &c) -> ShapeResult {
    auto self = dimsOf(c, "self");
    auto minlength = intArg(c, "minlength");
    if (!self || self->size() != 1 || !minlength || *minlength < 0) return {};
    const SymRange n = (*self)[0].range();
    if (n.hi == 0) return Dims{Dim(*minlength)};
    return Dims{dataDependent(0, std::max<int64_t>(*minlength, n.lo >= 1 ? 1 : 0), SymRange::kInf)};
  });
}

} // namespace dtf
