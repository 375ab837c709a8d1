//===- dtype/lattice.h - abstract values with partial knowledge -*- C++ -*-===//
//
// What dtypeflow knows about one program value. Every component is a lattice
// with an explicit bottom (nothing known yet: unreached), top (anything) and
// a `join` (control-flow merge). A known dtype is a singleton DTypeSet; an
// unknown one is the full set. Keeping sets (not just known/unknown) lets a
// rule stay exact when the unknowns cannot change its answer.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dtype/dtype.h"
#include "shape/dim.h"

#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dtf {

//===----------------------------------------------------------------------===//
// DTypeSet
//===----------------------------------------------------------------------===//

/// A set of dtypes; empty = bottom, all = top (dtype unknown).
class DTypeSet {
public:
  constexpr DTypeSet() = default;
  constexpr DTypeSet(DType d) : bits_(Bits{1} << index(d)) {}
  static constexpr DTypeSet all() { return fromBits((uint64_t{1} << kNumDTypes) - 1); }
  static constexpr DTypeSet fromBits(uint64_t bits) { DTypeSet s; s.bits_ = static_cast<Bits>(bits); return s; }

  constexpr bool empty() const { return bits_ == 0; }
  constexpr bool isAll() const { return *this == all(); }
  /// The 13 dtypes every modelled version promotes among (dtypes.def's first lines).
  static constexpr DTypeSet classic() { return fromBits((uint64_t{1} << 13) - 1); }
  constexpr int size() const { return std::popcount(bits_); }
  constexpr bool contains(DType d) const { return bits_ >> index(d) & 1; }
  /// The dtype when exactly one is possible.
  constexpr std::optional<DType> only() const {
    if (bits_ == 0 || (bits_ & (bits_ - 1)) != 0) return std::nullopt; // not one bit
    return static_cast<DType>(std::countr_zero(bits_));
  }
  constexpr void insert(DType d) { bits_ |= Bits{1} << index(d); }
  constexpr uint64_t bits() const { return bits_; }
  static constexpr DTypeSet join(DTypeSet a, DTypeSet b) { return fromBits(a.bits_ | b.bits_); }
  static constexpr DTypeSet meet(DTypeSet a, DTypeSet b) { return fromBits(a.bits_ & b.bits_); }
  /// Every element of this set is in `o`.
  constexpr bool within(DTypeSet o) const { return (bits_ & ~o.bits_) == 0; }
  constexpr bool operator==(const DTypeSet &) const = default;

  class iterator {
  public:
    constexpr explicit iterator(uint64_t rest) : rest_(rest) {}
    constexpr DType operator*() const { return static_cast<DType>(std::countr_zero(rest_)); }
    constexpr iterator &operator++() { rest_ &= rest_ - 1; return *this; }
    constexpr bool operator!=(const iterator &o) const { return rest_ != o.rest_; }
  private:
    uint64_t rest_;
  };
  constexpr iterator begin() const { return iterator(bits_); }
  constexpr iterator end() const { return iterator(0); }

private:
  // Every modelled version's dtypes (a Value keeps this word where a number
  // keeps its imaginary part, so it costs a tensor nothing).
  using Bits = uint64_t;
  static_assert(kNumDTypes <= 64, "DTypeSet holds at most 64 dtypes");
  Bits bits_ = 0;
};

//===----------------------------------------------------------------------===//
// Rank
//===----------------------------------------------------------------------===//

/// A tensor's rank: bottom < exact(n) < atLeast1 (for n >= 1) < top.
/// Whether a rank may be zero is what promotion needs (zero-dim tier).
class Rank {
public:
  static constexpr int kMaxRank = 64; ///< larger ranks are refused as absurd
  constexpr Rank() = default; // bottom
  static constexpr Rank bottom() { return Rank(kBottom); }
  static constexpr Rank top() { return Rank(kTop); }
  static constexpr Rank atLeast1() { return Rank(kAtLeast1); }
  static constexpr Rank exact(int n) { return Rank(static_cast<int8_t>(n)); }

  constexpr bool isBottom() const { return v_ == kBottom; }
  constexpr bool isTop() const { return v_ == kTop; }
  constexpr bool isExact() const { return v_ >= 0; }
  constexpr std::optional<int> value() const { return isExact() ? std::optional<int>(v_) : std::nullopt; }
  constexpr bool mayBeZero() const { return v_ == 0 || v_ == kTop; }
  constexpr bool mayBeNonZero() const { return v_ > 0 || v_ == kTop || v_ == kAtLeast1; }

  static constexpr Rank join(Rank a, Rank b) {
    if (a.isBottom()) return b;
    if (b.isBottom() || a == b) return a;
    if (a.mayBeZero() || b.mayBeZero()) return top();
    return atLeast1();
  }
  constexpr bool operator==(const Rank &) const = default;
  constexpr int8_t raw() const { return v_; } ///< for hashing

private:
  static constexpr int8_t kBottom = -3, kAtLeast1 = -2, kTop = -1;
  constexpr explicit Rank(int8_t v) : v_(v) {}
  int8_t v_ = kBottom;
};

//===----------------------------------------------------------------------===//
// Python number kinds
//===----------------------------------------------------------------------===//

/// The kinds of Python number, in result_type's category order.
enum class NumKind : uint8_t { Bool = 0, Int = 1, Float = 2, Complex = 3 };

/// A set of number kinds; all four = an unknown `number` (TorchScript Scalar).
class NumKinds {
public:
  constexpr NumKinds() = default;
  constexpr NumKinds(NumKind k) : bits_(uint8_t(1u << static_cast<int>(k))) {}
  static constexpr NumKinds all() { NumKinds s; s.bits_ = 0xF; return s; }
  static constexpr NumKinds fromBits(uint8_t b) { NumKinds s; s.bits_ = b & 0xF; return s; }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr int size() const { return std::popcount(bits_); }
  constexpr bool contains(NumKind k) const { return bits_ >> static_cast<int>(k) & 1; }
  constexpr std::optional<NumKind> only() const {
    if (bits_ == 0 || (bits_ & (bits_ - 1)) != 0) return std::nullopt;
    return static_cast<NumKind>(std::countr_zero(bits_));
  }
  constexpr uint8_t bits() const { return bits_; }
  static constexpr NumKinds join(NumKinds a, NumKinds b) { return fromBits(a.bits_ | b.bits_); }
  constexpr bool operator==(const NumKinds &) const = default;

  class iterator {
  public:
    constexpr explicit iterator(uint8_t rest) : rest_(rest) {}
    constexpr NumKind operator*() const { return static_cast<NumKind>(std::countr_zero(rest_)); }
    constexpr iterator &operator++() { rest_ &= rest_ - 1; return *this; }
    constexpr bool operator!=(const iterator &o) const { return rest_ != o.rest_; }
  private:
    uint8_t rest_;
  };
  constexpr iterator begin() const { return iterator(bits_); }
  constexpr iterator end() const { return iterator(0); }

private:
  uint8_t bits_ = 0;
};

std::string_view name(NumKind k);

//===----------------------------------------------------------------------===//
// Value
//===----------------------------------------------------------------------===//

enum class ValueKind : uint8_t {
  Bottom,  ///< nothing known yet (unreached)
  Tensor,  ///< dtype set + rank
  Number,  ///< Python bool/int/float/complex; a dtype argument is an int code
  None,
  String,
  Device,
  List,
  Tuple,
  Top,     ///< could be anything
};

class Value;

/// Which dimensions of a tensor are known to have size 1 (`ones`) or known
/// not to (`others`); bit i is dim i. squeeze's result rank depends on it.
/// Only kept for an exact rank and dims below 32; nothing known = {0, 0}.
struct UnitDims {
  uint32_t ones = 0, others = 0;
  bool operator==(const UnitDims &) const = default;
  /// Facts both sides agree on (the join).
  static UnitDims common(UnitDims a, UnitDims b) { return {a.ones & b.ones, a.others & b.others}; }
  /// Whether dim `d` has size 1: true / false when known, nullopt otherwise.
  std::optional<bool> sizeIsOne(int d) const {
    if (d < 0 || d >= 32) return std::nullopt;
    if (ones >> d & 1u) return true;
    if (others >> d & 1u) return false;
    return std::nullopt;
  }
  /// These facts with dim `d`'s replaced: size 1 (true), not 1 (false), unknown (nullopt).
  UnitDims withDim(int d, std::optional<bool> isOne) const {
    if (d < 0 || d >= 32) return *this;
    const uint32_t bit = uint32_t{1} << d;
    UnitDims u{ones & ~bit, others & ~bit};
    if (isOne) (*isOne ? u.ones : u.others) |= bit;
    return u;
  }
  /// Dim `d`'s facts alone, as dim 0 (a 1-D result of that dim's size).
  UnitDims dimAsFirst(int d) const {
    if (d < 0 || d >= 32) return {};
    return {ones >> d & 1u, others >> d & 1u};
  }
};

/// Payload shared by copies of a Value: list/tuple elements, text, or a
/// tensor's sizes.
struct Aggregate {
  std::vector<Value> elems;
  bool unknownLength = false; ///< list: elems[0] summarises every element
  std::string text;           ///< String / Device
  Dims dims;                  ///< Tensor: one per dim, some known (a 0-dim one: the int it holds); Number: its expression
  /// Value::hash of the payload, computed on first use (0: not yet). The
  /// payload is immutable once shared, so the hash never goes stale.
  mutable std::atomic<size_t> hash{0};
};

/// One abstract program value. Cheap to copy; immutable payloads are shared.
class Value {
public:
  Value() = default; // bottom
  static Value bottom() { return Value(); }
  static Value top() { Value v; v.kind_ = ValueKind::Top; return v; }
  static Value none() { Value v; v.kind_ = ValueKind::None; return v; }
  static Value tensor(DTypeSet dtypes, Rank rank = Rank::top());
  static Value unknownTensor() { return tensor(DTypeSet::all(), Rank::top()); }
  static Value number(NumKinds kinds);
  static Value boolean(bool b);
  static Value integer(int64_t i);
  static Value floating(double f);
  static Value complexNumber(double re, double im);
  static Value dtypeCode(DType d) { return integer(c10Code(d)); }
  /// A Python int computed from sizes: a known int for a constant
  /// expression, else an int of unknown value carrying its expression
  /// (aten::size of a symbolic dim, arithmetic on it).
  static Value symInt(const SymExpr &e);
  /// A 0-dim int64 tensor holding a Python int's value or expression: the
  /// tracer's `x.size(0)` (prim::NumToTensor), arithmetic on it, aten::Int back.
  static Value heldIntTensor(const SymExpr &e);
  static Value string(std::string text);
  static Value unknownString();
  static Value device(std::string text);
  static Value list(std::vector<Value> elems);
  /// A list of unknown length whose elements are all within `summary`.
  static Value listOf(Value summary);
  static Value tuple(std::vector<Value> elems);

  ValueKind kind() const { return kind_; }
  bool isBottom() const { return kind_ == ValueKind::Bottom; }
  bool isTop() const { return kind_ == ValueKind::Top; }
  bool isTensor() const { return kind_ == ValueKind::Tensor; }
  bool isNumber() const { return kind_ == ValueKind::Number; }
  bool isNone() const { return kind_ == ValueKind::None; }
  bool isString() const { return kind_ == ValueKind::String; }
  bool isList() const { return kind_ == ValueKind::List; }
  bool isTuple() const { return kind_ == ValueKind::Tuple; }

  // Tensor
  DTypeSet dtypes() const { return isTensor() ? DTypeSet::fromBits(dtypeBits_) : DTypeSet{}; }
  std::optional<DType> dtype() const { return dtypes().only(); }
  Rank rank() const { return rank_; }
  /// Size-1 facts of a tensor of exact rank ({} otherwise).
  UnitDims unitDims() const { return isTensor() ? UnitDims{unit_.ones, unit_.others} : UnitDims{}; }
  /// This tensor with these size-1 facts (cut to its exact rank; none otherwise).
  Value withUnitDims(UnitDims u) const {
    if (!isTensor()) return *this;
    Value v = *this;
    auto r = rank_.value();
    uint32_t mask = !r ? 0u : *r >= 32 ? ~0u : (uint32_t{1} << *r) - 1;
    uint32_t clash = u.ones & u.others; // contradictory facts: keep neither
    v.unit_ = {u.ones & mask & ~clash, u.others & mask & ~clash};
    v.agg_.reset(); // facts alone: sizes are set by withShape
    return v;
  }
  /// The sizes of a tensor of exact rank (unknown dims where nothing is
  /// known); nullopt when the rank is not exact or this is no tensor.
  std::optional<Dims> shape() const;
  /// Dim `i`'s size (unknown when not known or out of range).
  Dim dimAt(int i) const {
    if (!isTensor() || !agg_ || rank_ == Rank::exact(0) || i < 0 || static_cast<size_t>(i) >= agg_->dims.size()) return Dim();
    return agg_->dims[i];
  }
  /// Whether some dim's size is known (a 0-dim tensor has none to know).
  bool hasKnownDims() const { return isTensor() && agg_ != nullptr && rank_ != Rank::exact(0); }
  /// This tensor with these sizes: its rank becomes their number, its
  /// size-1 facts follow from them. Unchanged when they contradict its exact
  /// rank (a rule's rank is proven; a disagreeing size rule is not trusted).
  Value withShape(Dims dims) const;
  /// withShape(*sized.shape()), sharing `sized`'s sizes instead of copying
  /// them (a shape-keeping rule's output takes its input's sizes).
  Value withShapeOf(const Value &sized) const;
  /// This tensor without size knowledge beyond rank and size-1 facts.
  Value withoutShape() const {
    Value v = *this;
    if (isTensor()) v.agg_.reset();
    return v;
  }
  /// This tensor with another dtype set, its rank and size-1 facts kept.
  Value withDTypes(DTypeSet d) const;
  /// A wrapped number: the 0-dim tensor PyTorch makes of a Python scalar
  /// passed where a tensor is expected (`torch.add(2.5, x)`); result_type
  /// puts it in the Python-number tier, by its category.
  bool isWrappedNumber() const { return isTensor() && wrapped_; }
  Value asWrappedNumber() const {
    Value v = *this;
    v.wrapped_ = isTensor() && rank_ == Rank::exact(0);
    return v;
  }

  /// The int a 0-dim int64 tensor holds (heldIntTensor), if known.
  std::optional<SymExpr> heldInt() const {
    if (!isTensor() || rank_ != Rank::exact(0) || !agg_ || agg_->dims.size() != 1 || !agg_->dims[0].known() ||
        dtype() != DType::Int64)
      return std::nullopt;
    return *agg_->dims[0].expr();
  }

  // Number
  /// An int's expression: its known value, or the sizes expression it holds.
  std::optional<SymExpr> intExpr() const {
    if (auto i = intValue(); i && numKinds_ != NumKinds(NumKind::Float)) return SymExpr(*i);
    if (isNumber() && agg_ && !agg_->dims.empty() && agg_->dims[0].known()) return *agg_->dims[0].expr();
    return std::nullopt;
  }
  NumKinds numKinds() const { return numKinds_; }
  std::optional<NumKind> numKind() const { return numKinds_.only(); }
  bool hasNumValue() const { return hasNum_; }
  /// Known value as int64 (ints and bools; floats only if integral).
  std::optional<int64_t> intValue() const {
    if (!isNumber() || !hasNum_ || numKinds_ == NumKinds(NumKind::Complex)) return std::nullopt;
    if (!numIsFloat_) return i_;
    if (std::nearbyint(f_) == f_ && std::abs(f_) < 9e18) return static_cast<int64_t>(f_);
    return std::nullopt;
  }
  std::optional<double> floatValue() const { ///< not for complex numbers
    if (!isNumber() || !hasNum_ || numKinds_ == NumKinds(NumKind::Complex)) return std::nullopt;
    return numIsFloat_ ? f_ : static_cast<double>(i_);
  }
  /// A known complex number: (real, imag).
  std::optional<std::pair<double, double>> complexValue() const;
  std::optional<bool> boolValue() const {
    if (!isNumber() || !hasNum_ || numKinds_ != NumKinds(NumKind::Bool)) return std::nullopt;
    return i_ != 0;
  }

  // String / Device
  std::optional<std::string> text() const;

  // List / Tuple
  bool lengthKnown() const { return agg_ && !agg_->unknownLength; }
  /// Elements of a list or tuple of known length; empty span otherwise.
  const std::vector<Value> &elements() const {
    if ((kind_ == ValueKind::List || kind_ == ValueKind::Tuple) && lengthKnown()) return agg_->elems;
    return noElements();
  }
  /// For a list: the join of every element (bottom for an empty list).
  Value elementSummary() const;

  static Value join(const Value &a, const Value &b);
  bool operator==(const Value &o) const;
  /// Strict identity (what a rule can observe): like operator==, but floats
  /// compare bit for bit (-0.0 vs 0.0, NaN) and list elements recursively so.
  bool identical(const Value &o) const {
    if (kind_ != o.kind_) return false;
    if (kind_ == ValueKind::Tensor)
      return dtypeBits_ == o.dtypeBits_ && rank_ == o.rank_ && wrapped_ == o.wrapped_ && unit_.ones == o.unit_.ones &&
             unit_.others == o.unit_.others && sameDims(o);
    if (kind_ == ValueKind::Number) // known values bit for bit (-0.0 is not 0.0)
      return numKinds_ == o.numKinds_ && hasNum_ == o.hasNum_ && sameDims(o) &&
             (!hasNum_ || (numIsFloat_ == o.numIsFloat_ && std::bit_cast<uint64_t>(i_) == std::bit_cast<uint64_t>(o.i_) &&
                           std::bit_cast<uint64_t>(im_) == std::bit_cast<uint64_t>(o.im_)));
    if (agg_ == o.agg_ && (kind_ == ValueKind::List || kind_ == ValueKind::Tuple)) return true; // one shared payload
    return identicalSlow(o);
  }
  /// A hash consistent with identical(); list hashes are computed once per payload.
  size_t hash() const {
    // Tensors and numbers (nearly every argument) inline; payloads out of line.
    if (kind_ == ValueKind::Tensor)
      return (dtypeBits_ * 0x9e3779b97f4a7c15ULL) ^ (uint64_t(uint8_t(rank_.raw())) << 56) ^
             (uint64_t{unit_.ones} << 32 | unit_.others) ^ (0x51 + wrapped_) ^ (agg_ ? dimsHash() : 0);
    if (kind_ == ValueKind::Number)
      return ((hasNum_ ? std::bit_cast<uint64_t>(i_) : 0) * 0xff51afd7ed558ccdULL) ^
             (uint64_t(numKinds_.bits()) << 3 | hasNum_ << 1 | numIsFloat_) ^ (agg_ ? dimsHash() : 0);
    if ((kind_ == ValueKind::List || kind_ == ValueKind::Tuple) && agg_) {
      // A list's payload hash, once computed, is kept with the payload.
      size_t kept = agg_->hash.load(std::memory_order_relaxed);
      if (kept != 0) return listHash(kind_, kept);
    }
    return aggregateHash();
  }
  /// The hash of a list or tuple whose payload hash is `payloadHash` (aggregateHash's mixing).
  static size_t listHash(ValueKind k, size_t payloadHash) {
    size_t h = static_cast<size_t>(k);
    h ^= payloadHash + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h;
  }

  /// Compact human form: `float32:r2`, `?:r?`, `int=3`, `[int64:r1,None]`.
  std::string str() const;

  /// `[2, s0, ?]` for a tensor of exact rank, `?` otherwise.
  std::string shapeStr() const;

private:
  size_t aggregateHash() const;
  size_t dimsHash() const;
  /// withShape's rank and size-1 facts, no sizes (nullopt: `dims` contradict the rank).
  std::optional<Value> withShapeFacts(const Dims &dims, bool &anyKnown) const;
  bool sameDims(const Value &o) const {
    if (agg_ == o.agg_) return true;
    return agg_ && o.agg_ && agg_->dims == o.agg_->dims;
  }
  static const std::vector<Value> &noElements();
  bool identicalSlow(const Value &o) const;

  ValueKind kind_ = ValueKind::Bottom;
  Rank rank_;
  NumKinds numKinds_;
  bool hasNum_ = false;
  bool numIsFloat_ = false; // the stored value is a double
  bool wrapped_ = false;    // tensor: a wrapped number
  // Numbers keep their value here, tensors their size-1 facts.
  struct UnitBits { uint32_t ones, others; };
  union { int64_t i_ = 0; double f_; UnitBits unit_; };
  // Tensors keep their dtype set here (DTypeSet's bits), numbers their
  // imaginary part: a Value stays 40 bytes with 64 possible dtypes.
  union { uint64_t dtypeBits_ = 0; double im_; };
  std::shared_ptr<const Aggregate> agg_;
};

} // namespace dtf
