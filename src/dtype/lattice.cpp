#include "dtype/lattice.h"

#include <bit>
#include <cmath>
#include <fmt/format.h>

namespace dtf {

std::string_view name(NumKind k) {
  switch (k) {
  case NumKind::Bool: return "bool";
  case NumKind::Int: return "int";
  case NumKind::Float: return "float";
  case NumKind::Complex: return "complex";
  }
  return "number";
}

Value Value::tensor(DTypeSet dtypes, Rank rank) {
  Value v;
  v.kind_ = ValueKind::Tensor;
  v.dtypeBits_ = dtypes.bits();
  v.rank_ = rank;
  return v;
}


std::optional<Dims> Value::shape() const {
  auto r = isTensor() ? rank_.value() : std::nullopt;
  if (!r) return std::nullopt;
  if (agg_ && *r != 0) return agg_->dims; // a 0-dim tensor's payload is the int it holds

  return Dims(static_cast<size_t>(*r));
}

std::optional<Value> Value::withShapeFacts(const Dims &dims, bool &anyKnown) const {
  if (!isTensor() || dims.size() > static_cast<size_t>(Rank::kMaxRank)) return std::nullopt;
  const int n = static_cast<int>(dims.size());
  if (auto r = rank_.value(); r ? *r != n : (rank_ == Rank::atLeast1() && n == 0)) return std::nullopt;
  Value v = *this;
  const bool sameRank = rank_ == Rank::exact(n);
  v.rank_ = Rank::exact(n);
  // Size-1 facts: what the sizes decide, else what was known of that dim.
  UnitDims u = sameRank ? unitDims() : UnitDims{};
  anyKnown = false;
  for (int i = 0; i < n; ++i) {
    anyKnown |= dims[i].known();
    if (auto one = dims[i].isOne()) u = u.withDim(i, one);
  }
  return v.withUnitDims(u); // also drops the old sizes
}

Value Value::withShape(Dims dims) const {
  bool anyKnown = false;
  std::optional<Value> v = withShapeFacts(dims, anyKnown);
  if (!v) return *this;
  if (anyKnown) {
    auto agg = std::make_shared<Aggregate>();
    agg->dims = std::move(dims);
    v->agg_ = std::move(agg);
  }
  return std::move(*v);
}

Value Value::withShapeOf(const Value &sized) const {
  if (!sized.hasKnownDims()) {
    auto dims = sized.shape();
    return dims ? withShape(std::move(*dims)) : *this;
  }
  bool anyKnown = false;
  std::optional<Value> v = withShapeFacts(sized.agg_->dims, anyKnown);
  if (!v) return *this;
  if (anyKnown) v->agg_ = sized.agg_; // immutable once shared: the same sizes, no copy
  return std::move(*v);
}

std::string Value::shapeStr() const {
  auto s = shape();
  return s ? dimsText(*s) : "?";
}

Value Value::withDTypes(DTypeSet d) const {
  Value v = *this;
  v.dtypeBits_ = d.bits();
  return v;
}

Value Value::number(NumKinds kinds) {
  Value v;
  v.kind_ = ValueKind::Number;
  v.numKinds_ = kinds;
  return v;
}

Value Value::boolean(bool b) {
  Value v = number(NumKind::Bool);
  v.hasNum_ = true;
  v.i_ = b;
  return v;
}

Value Value::integer(int64_t i) {
  Value v = number(NumKind::Int);
  v.hasNum_ = true;
  v.i_ = i;
  return v;
}

Value Value::symInt(const SymExpr &e) {
  if (auto c = e.constant()) return integer(*c);
  Value v = number(NumKind::Int);
  auto agg = std::make_shared<Aggregate>();
  agg->dims.push_back(Dim(e));
  v.agg_ = std::move(agg);
  return v;
}

Value Value::heldIntTensor(const SymExpr &e) {
  Value v = tensor(DTypeSet(DType::Int64), Rank::exact(0));
  auto agg = std::make_shared<Aggregate>();
  agg->dims.push_back(Dim(e));
  v.agg_ = std::move(agg);
  return v;
}

Value Value::floating(double f) {
  Value v = number(NumKind::Float);
  v.hasNum_ = true;
  v.numIsFloat_ = true;
  v.f_ = f;
  return v;
}

Value Value::string(std::string text) {
  Value v;
  v.kind_ = ValueKind::String;
  auto agg = std::make_shared<Aggregate>();
  agg->text = std::move(text);
  v.agg_ = std::move(agg);
  return v;
}

Value Value::unknownString() {
  Value v;
  v.kind_ = ValueKind::String;
  return v;
}

Value Value::device(std::string text) {
  Value v = string(std::move(text));
  v.kind_ = ValueKind::Device;
  return v;
}

Value Value::list(std::vector<Value> elems) {
  Value v;
  v.kind_ = ValueKind::List;
  auto agg = std::make_shared<Aggregate>();
  agg->elems = std::move(elems);
  v.agg_ = std::move(agg);
  return v;
}

Value Value::listOf(Value summary) {
  Value v;
  v.kind_ = ValueKind::List;
  auto agg = std::make_shared<Aggregate>();
  agg->elems.push_back(std::move(summary));
  agg->unknownLength = true;
  v.agg_ = std::move(agg);
  return v;
}

Value Value::tuple(std::vector<Value> elems) {
  Value v = list(std::move(elems));
  v.kind_ = ValueKind::Tuple;
  return v;
}

Value Value::complexNumber(double re, double im) {
  Value v = number(NumKind::Complex);
  v.hasNum_ = true;
  v.numIsFloat_ = true;
  v.f_ = re;
  v.im_ = im;
  return v;
}

std::optional<std::pair<double, double>> Value::complexValue() const {
  if (!isNumber() || !hasNum_) return std::nullopt;
  if (numKind() == NumKind::Complex) return std::pair(f_, im_);
  return std::pair(*floatValue(), 0.0);
}

std::optional<std::string> Value::text() const {
  if ((kind_ != ValueKind::String && kind_ != ValueKind::Device) || !agg_) return std::nullopt;
  return agg_->text;
}

const std::vector<Value> &Value::noElements() {
  static const std::vector<Value> kNone;
  return kNone;
}

Value Value::elementSummary() const {
  if (!isList() && !isTuple()) return top();
  if (!agg_) return top();
  Value s;
  for (const Value &e : agg_->elems) s = join(s, e);
  return s;
}

Value Value::join(const Value &a, const Value &b) {
  if (a.isBottom()) return b;
  if (b.isBottom()) return a;
  if (a.kind_ != b.kind_ || a.isTop()) return top();
  switch (a.kind_) {
  case ValueKind::Tensor: {
    Value v = tensor(DTypeSet::join(a.dtypes(), b.dtypes()), Rank::join(a.rank_, b.rank_));
    if (a.rank_ == b.rank_) v = v.withUnitDims(UnitDims::common(a.unitDims(), b.unitDims()));
    if (a.rank_ == Rank::exact(0) && b.rank_ == a.rank_ && a.agg_ && b.agg_) { // the int both hold, if the same
      if (a.agg_->dims == b.agg_->dims) v.agg_ = a.agg_;
    } else if (a.rank_ == b.rank_ && a.agg_ && b.agg_) { // sizes both sides agree on
      Dims dims = a.agg_->dims;
      for (size_t i = 0; i < dims.size(); ++i) dims[i] = Dim::join(dims[i], b.agg_->dims[i]);
      v = v.withShape(std::move(dims));
    }
    v.wrapped_ = a.wrapped_ && b.wrapped_;
    return v;
  }
  case ValueKind::Number: {
    if (a == b) return a;
    return number(NumKinds::join(a.numKinds_, b.numKinds_));
  }
  case ValueKind::None: return a;
  case ValueKind::String:
  case ValueKind::Device: {
    if (a == b) return a;
    Value v = unknownString();
    v.kind_ = a.kind_;
    return v;
  }
  case ValueKind::Tuple: {
    if (!a.lengthKnown() || !b.lengthKnown() || a.elements().size() != b.elements().size())
      return top();
    std::vector<Value> elems;
    for (size_t i = 0; i < a.elements().size(); ++i)
      elems.push_back(join(a.elements()[i], b.elements()[i]));
    return tuple(std::move(elems));
  }
  case ValueKind::List: {
    if (a.agg_ == b.agg_) return a;
    if (a.lengthKnown() && b.lengthKnown() && a.elements().size() == b.elements().size()) {
      std::vector<Value> elems;
      for (size_t i = 0; i < a.elements().size(); ++i)
        elems.push_back(join(a.elements()[i], b.elements()[i]));
      return list(std::move(elems));
    }
    if (!a.agg_ || !b.agg_) { Value v; v.kind_ = ValueKind::List; return v; }
    return listOf(join(a.elementSummary(), b.elementSummary()));
  }
  default: return top();
  }
}

bool Value::operator==(const Value &o) const {
  if (kind_ != o.kind_) return false;
  switch (kind_) {
  case ValueKind::Tensor:
    return dtypeBits_ == o.dtypeBits_ && rank_ == o.rank_ && wrapped_ == o.wrapped_ && unitDims() == o.unitDims() &&
           sameDims(o);
  case ValueKind::Number:
    if (numKinds_ != o.numKinds_ || hasNum_ != o.hasNum_ || !sameDims(o)) return false;
    if (!hasNum_) return true;
    return numIsFloat_ == o.numIsFloat_ && (numIsFloat_ ? f_ == o.f_ : i_ == o.i_) && im_ == o.im_;
  case ValueKind::String:
  case ValueKind::Device: return text() == o.text();
  case ValueKind::List:
  case ValueKind::Tuple:
    if (agg_ == o.agg_) return true;
    if (!agg_ || !o.agg_) return false;
    return agg_->unknownLength == o.agg_->unknownLength && agg_->elems == o.agg_->elems;
  default: return true;
  }
}

bool Value::identicalSlow(const Value &o) const {
  if (kind_ != o.kind_) return false;
  switch (kind_) {
  case ValueKind::Tensor: return identical(o);
  case ValueKind::Number:
    if (numKinds_ != o.numKinds_ || hasNum_ != o.hasNum_ || !sameDims(o)) return false;
    if (!hasNum_) return true;
    if (numIsFloat_ != o.numIsFloat_) return false;
    if (!numIsFloat_) return i_ == o.i_;
    return std::bit_cast<uint64_t>(f_) == std::bit_cast<uint64_t>(o.f_) &&
           std::bit_cast<uint64_t>(im_) == std::bit_cast<uint64_t>(o.im_);
  case ValueKind::List:
  case ValueKind::Tuple: {
    if (agg_ == o.agg_) return true; // one shared payload
    if (!agg_ || !o.agg_ || agg_->unknownLength != o.agg_->unknownLength) return false;
    const auto &x = agg_->elems, &y = o.agg_->elems;
    if (x.size() != y.size()) return false;
    if (agg_->hash && o.agg_->hash && agg_->hash != o.agg_->hash) return false;
    for (size_t i = 0; i < x.size(); ++i)
      if (!x[i].identical(y[i])) return false;
    return true;
  }
  default: return *this == o;
  }
}

namespace {
inline void mix(size_t &h, uint64_t x) { h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); }
} // namespace

size_t Value::dimsHash() const {
  size_t kept = agg_->hash.load(std::memory_order_relaxed);
  if (kept != 0) return kept;
  size_t h = 0x7a;
  for (const Dim &d : agg_->dims) mix(h, d.hash());
  h = h ? h : 1;
  agg_->hash.store(h, std::memory_order_relaxed);
  return h;
}

size_t Value::aggregateHash() const {
  size_t h = static_cast<size_t>(kind_);
  switch (kind_) {
  case ValueKind::String:
  case ValueKind::Device:
    if (agg_) mix(h, std::hash<std::string>()(agg_->text));
    break;
  case ValueKind::List:
  case ValueKind::Tuple: {
    if (!agg_) break;
    size_t cached = agg_->hash.load(std::memory_order_relaxed);
    if (cached == 0) {
      size_t e = agg_->unknownLength;
      for (const Value &v : agg_->elems) mix(e, v.hash());
      cached = e ? e : 1;
      agg_->hash.store(cached, std::memory_order_relaxed);
    }
    return listHash(kind_, cached);
  }
  default: break;
  }
  return h;
}

std::string Value::str() const {
  switch (kind_) {
  case ValueKind::Bottom: return "bottom";
  case ValueKind::Top: return "?";
  case ValueKind::None: return "None";
  case ValueKind::Tensor: {
    std::string d;
    if (auto one = dtype()) d = std::string(name(*one));
    else if (DTypeSet::classic().within(dtypes())) d = "?"; // every version's unknown covers these
    else {
      d = "{";
      for (DType x : dtypes()) d += (d.size() > 1 ? "|" : "") + std::string(name(x));
      d += "}";
    }
    if (auto r = rank_.value()) return fmt::format("{}:r{}", d, *r);
    if (rank_ == Rank::atLeast1()) return d + ":r+";
    return d + ":r?";
  }
  case ValueKind::Number: {
    std::string k;
    if (auto one = numKind()) k = std::string(name(*one));
    else if (numKinds_ == NumKinds::all()) k = "number";
    else {
      for (NumKind x : numKinds_) k += (k.empty() ? "" : "|") + std::string(name(x));
    }
    if (!hasNum_) return agg_ && !agg_->dims.empty() ? k + "=" + agg_->dims[0].str() : k; // `int=s0`
    if (numKind() == NumKind::Bool) return i_ ? "True" : "False";
    if (numKind() == NumKind::Complex) return fmt::format("complex=({}{:+}j)", f_, im_);
    return numIsFloat_ ? fmt::format("{}={}", k, f_) : fmt::format("{}={}", k, i_);
  }
  case ValueKind::String:
  case ValueKind::Device: {
    auto t = text();
    return t ? fmt::format("'{}'", *t) : (kind_ == ValueKind::String ? "str" : "Device");
  }
  case ValueKind::List:
  case ValueKind::Tuple: {
    bool tup = kind_ == ValueKind::Tuple;
    if (!agg_) return tup ? "(?)" : "[?]";
    if (agg_->unknownLength) return fmt::format("[{}...]", agg_->elems[0].str());
    std::string s = tup ? "(" : "[";
    for (size_t i = 0; i < agg_->elems.size(); ++i) s += (i ? "," : "") + agg_->elems[i].str();
    return s + (tup ? ")" : "]");
  }
  }
  return "?";
}

} // namespace dtf
