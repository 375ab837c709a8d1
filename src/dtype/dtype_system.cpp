#include "dtype/dtype_system.h"
#include "dtype/per_version.h"

#include <bit>
#include <fmt/format.h>
#include <vector>

namespace dtf {
namespace {

// c10's promotion table among the 13 dtypes every version has, measured
// with torch.promote_types over all pairs (identical in 1.13 and 2.14).
// Axes follow dtypes.def; a static_assert below pins that order.
using enum DType;
constexpr DType b1 = Bool, u8 = UInt8, i8 = Int8, i16 = Int16, i32 = Int32,
                i64 = Int64, f16 = Float16, bf16 = BFloat16, f32 = Float32,
                f64 = Float64, c32 = Complex32, c64 = Complex64,
                c128 = Complex128;
// clang-format off
constexpr std::array<std::array<DType, 13>, 13> kClassic{{
  /*          b1    u8    i8    i16   i32   i64   f16   bf16  f32   f64   c32   c64   c128 */
  /* b1  */ {{b1,   u8,   i8,   i16,  i32,  i64,  f16,  bf16, f32,  f64,  c32,  c64,  c128}},
  /* u8  */ {{u8,   u8,   i16,  i16,  i32,  i64,  f16,  bf16, f32,  f64,  c32,  c64,  c128}},
  /* i8  */ {{i8,   i16,  i8,   i16,  i32,  i64,  f16,  bf16, f32,  f64,  c32,  c64,  c128}},
  /* i16 */ {{i16,  i16,  i16,  i16,  i32,  i64,  f16,  bf16, f32,  f64,  c32,  c64,  c128}},
  /* i32 */ {{i32,  i32,  i32,  i32,  i32,  i64,  f16,  bf16, f32,  f64,  c32,  c64,  c128}},
  /* i64 */ {{i64,  i64,  i64,  i64,  i64,  i64,  f16,  bf16, f32,  f64,  c32,  c64,  c128}},
  /* f16 */ {{f16,  f16,  f16,  f16,  f16,  f16,  f16,  f32,  f32,  f64,  c32,  c64,  c128}},
  /* bf16*/ {{bf16, bf16, bf16, bf16, bf16, bf16, f32,  bf16, f32,  f64,  c64,  c64,  c128}},
  /* f32 */ {{f32,  f32,  f32,  f32,  f32,  f32,  f32,  f32,  f32,  f64,  c64,  c64,  c128}},
  /* f64 */ {{f64,  f64,  f64,  f64,  f64,  f64,  f64,  f64,  f64,  f64,  c128, c128, c128}},
  /* c32 */ {{c32,  c32,  c32,  c32,  c32,  c32,  c32,  c64,  c64,  c128, c32,  c64,  c128}},
  /* c64 */ {{c64,  c64,  c64,  c64,  c64,  c64,  c64,  c64,  c64,  c128, c64,  c64,  c128}},
  /* c128*/ {{c128, c128, c128, c128, c128, c128, c128, c128, c128, c128, c128, c128, c128}},
}};
// clang-format on
static_assert(index(Bool) == 0 && index(Complex128) == 12, "kClassic's axes must follow dtypes.def");

// 2.14's bcomplex32 (complex<bfloat16>) against the classic dtypes, measured:
// it keeps bool, integers and bfloat16; wider types widen it.
constexpr std::array<DType, 13> kBComplex32Row{BComplex32, BComplex32, BComplex32, BComplex32, BComplex32,
                                               BComplex32, Complex64,  BComplex32, Complex64,  Complex128,
                                               Complex64,  Complex64,  Complex128};

/// c10::promoteTypes for one version, in the order c10 checks (measured on
/// both versions over every pair of their dtypes: tests/oracle).
uint8_t promoteEntry(TorchVersion v, DType a, DType b) {
  if (a == b) return static_cast<uint8_t>(index(a));
  if (isQuantized(a) || isQuantized(b)) return DTypeSystem::kQuantized;
  if (has(v, VersionFact::Float8PromotionRaises) && (isFloat8(a) || isFloat8(b))) return DTypeSystem::kFloat8;
  if (has(v, VersionFact::BarebonesUnsignedPromoteOnlyWithFloating) && (isBarebonesUnsigned(a) || isBarebonesUnsigned(b))) {
    if (isFloating(a)) return static_cast<uint8_t>(index(a)); // only a floating type takes them
    if (isFloating(b)) return static_cast<uint8_t>(index(b));
    return DTypeSystem::kBarebonesUnsigned;
  }
  if (has(v, VersionFact::PromotesBComplex32)) {
    if (a == BComplex32 && !isBeyondClassic(b)) return static_cast<uint8_t>(index(kBComplex32Row[index(b)]));
    if (b == BComplex32 && !isBeyondClassic(a)) return static_cast<uint8_t>(index(kBComplex32Row[index(a)]));
  }
  if (isBeyondClassic(a) || isBeyondClassic(b)) return DTypeSystem::kNoPromotion; // bits, shells, float4
  return static_cast<uint8_t>(index(kClassic[index(a)][index(b)]));
}

} // namespace

DType wrappedNumberDType(NumKind kind) {
  switch (kind) {
  case NumKind::Bool: return DType::Bool;
  case NumKind::Int: return DType::Int64;
  case NumKind::Float: return DType::Float32;
  case NumKind::Complex: return DType::Complex64;
  }
  return DType::Float32;
}

DType storedNumberDType(NumKind kind) {
  switch (kind) {
  case NumKind::Bool: return DType::Bool;
  case NumKind::Int: return DType::Int64;
  case NumKind::Float: return DType::Float64;
  case NumKind::Complex: return DType::Complex128;
  }
  return DType::Float64;
}

DTypeSystem::DTypeSystem(TorchVersion v) : version_(v) {
  for (DType d : kAllDTypes) {
    if (since(d) > v) continue;
    named_.insert(d);
    if (category(d) != Category::Other) universe_.insert(d);
  }
  for (DType a : kAllDTypes)
    for (DType b : kAllDTypes) table_[index(a)][index(b)] = promoteEntry(v, a, b);
}

const DTypeSystem &DTypeSystem::of(TorchVersion v) {
  return lazyPerVersion<DTypeSystem>(v, [](TorchVersion w) { return DTypeSystem(w); });
}

std::optional<DType> DTypeSystem::parse(std::string_view text) const {
  auto d = parseDType(text);
  return d && names(*d) ? d : std::nullopt;
}

std::optional<DType> DTypeSystem::fromC10Code(int64_t code) const {
  auto d = dtf::fromC10Code(code);
  return d && names(*d) ? d : std::nullopt;
}

void DTypeSystem::throwPromotionError(DType a, DType b, uint8_t code) const {
  switch (code) {
  case kQuantized:
    throw PromotionError(fmt::format("promoteTypes with quantized numbers is not handled yet; figure out what the "
                                     "correct rules should be, offending types: {} {}", c10Name(a), c10Name(b)));
  case kFloat8:
    throw PromotionError(
        fmt::format("Promotion for Float8 Types is not supported, attempted to promote {} and {}", c10Name(a), c10Name(b)));
  case kBarebonesUnsigned:
    throw PromotionError(fmt::format("Promotion for uint16, uint32, uint64 types is not supported, attempted to "
                                     "promote {} and {}", c10Name(a), c10Name(b)));
  default:
    throw PromotionError(fmt::format("no promotion between {} and {} (c10 asserts)", c10Name(a), c10Name(b)));
  }
}

std::optional<DType> DTypeSystem::toComplex(DType d) const {
  switch (d) {
  case DType::Float16: return DType::Complex32;
  case DType::BFloat16: return has(version_, VersionFact::ComplexOfBFloat16IsBComplex32) ? DType::BComplex32 : DType::Complex64;
  case DType::Float32: return DType::Complex64;
  case DType::Float64: return DType::Complex128;
  default: return isComplex(d) ? std::optional(d) : std::nullopt;
  }
}

// TypeProperties.cpp's combine_categories: `lower` wins only with a strictly
// higher category; complex over a float keeps the float's precision.
std::optional<DType> DTypeSystem::combine(std::optional<DType> higher, std::optional<DType> lower) const {
  if (!higher) return lower;
  if (!lower) return higher;
  if (isComplex(*higher)) return higher;
  if (isComplex(*lower)) {
    if (!isFloating(*higher)) return lower;
    if (auto c = toComplex(*higher)) return c;
    throw PromotionError(fmt::format("Unknown Complex ScalarType for {}", c10Name(*higher)));
  }
  if (isFloating(*higher)) return higher;
  if (isBool(*higher) || isFloating(*lower)) return promote(*higher, *lower);
  return higher;
}

std::optional<DType> DTypeSystem::resultType(std::span<const PromotionOperand> operands) const {
  std::array<std::optional<DType>, 3> tiers;
  for (const PromotionOperand &op : operands) {
    auto &t = tiers[static_cast<int>(op.tier)];
    t = t ? promote(*t, op.dtype) : op.dtype;
  }
  return combine(tiers[0], combine(tiers[1], tiers[2]));
}

namespace {
// A set of possible per-tier folds: bit i for dtype position i, kEmptyTier
// for "nothing in this tier yet", kRaised for "the fold raised".
using FoldSet = uint64_t;
constexpr int kEmptyBit = kNumDTypes, kRaisedBit = kNumDTypes + 1;
constexpr FoldSet kEmptyTier = FoldSet{1} << kEmptyBit, kRaised = FoldSet{1} << kRaisedBit;
static_assert(kNumDTypes + 2 <= 64, "FoldSet needs two bits past the dtypes");

template <typename F> void forEachBit(uint64_t bits, F f) {
  for (; bits; bits &= bits - 1) f(std::countr_zero(bits));
}
} // namespace

PossibleDTypes DTypeSystem::resultTypeSet(std::span<const Value> operands) const {
  // Operands whose tier is unknown (tensor of unknown rank) are enumerated;
  // within a fixed tier assignment each tier's possible folds are tracked as a
  // set, which is exact because promotion is associative where it answers.
  PossibleDTypes out;
  auto raised = [&](const char *what) {
    if (!out.error) out.error = what;
  };
  auto foldInto = [&](FoldSet acc, DTypeSet add) {
    FoldSet res = acc & kRaised;
    forEachBit(acc & ~kRaised, [&](int i) {
      for (DType d : add) {
        if (i == kEmptyBit) {
          res |= FoldSet{1} << index(d);
          continue;
        }
        if (auto p = tryPromote(static_cast<DType>(i), d)) {
          res |= FoldSet{1} << index(*p);
          continue;
        }
        res |= kRaised;
        if (!out.error) { // the message costs a throw: only for the first raise
          try {
            promote(static_cast<DType>(i), d);
          } catch (const PromotionError &e) {
            raised(e.what());
          }
        }
      }
    });
    return res;
  };
  std::vector<int> undecided;
  for (int i = 0; i < static_cast<int>(operands.size()); ++i) {
    const Value &v = operands[i];
    if (v.isTensor() && v.rank().mayBeZero() && v.rank().mayBeNonZero()) undecided.push_back(i);
  }
  // Each tier assignment of the undecided operands is tried while there are
  // few (2^6 folds). Past that, each undecided operand joins either tier or
  // neither independently: a superset of the assignments, so still sound,
  // where exact enumeration would be exponential (12 unknown-rank operands
  // took seconds).
  constexpr size_t kExactUndecided = 6;
  const bool approximate = undecided.size() > kExactUndecided;
  const uint32_t masks = approximate ? 1u : 1u << undecided.size();
  for (uint32_t mask = 0; mask < masks; ++mask) {
    std::array<FoldSet, 3> tiers{kEmptyTier, kEmptyTier, kEmptyTier};
    size_t u = 0;
    for (int i = 0; i < static_cast<int>(operands.size()); ++i) {
      const Value &v = operands[i];
      if (v.isTensor()) {
        const DTypeSet ds = candidates(v.dtypes());
        if (ds.empty()) return {}; // unreachable operand
        bool zero;
        if (u < undecided.size() && undecided[u] == i) {
          if (approximate) {
            ++u;
            tiers[0] |= foldInto(tiers[0], ds);
            tiers[1] |= foldInto(tiers[1], ds);
            continue;
          }
          zero = mask >> u++ & 1;
        } else {
          zero = v.rank().mayBeZero();
        }
        auto &t = tiers[zero ? 1 : 0];
        t = foldInto(t, ds);
      } else if (v.isNumber()) {
        DTypeSet kinds;
        for (NumKind k : v.numKinds()) kinds.insert(wrappedNumberDType(k));
        tiers[2] = foldInto(tiers[2], kinds);
      } else if (!v.isNone()) {
        return {universe_, std::nullopt}; // not a promotion operand we understand
      }
    }
    auto member = [](int i) { return i == kEmptyBit ? std::nullopt : std::optional(static_cast<DType>(i)); };
    forEachBit(tiers[0] & ~kRaised, [&](int d) {
      forEachBit(tiers[1] & ~kRaised, [&](int z) {
        forEachBit(tiers[2] & ~kRaised, [&](int w) {
          try {
            if (auto r = combine(member(d), combine(member(z), member(w)))) out.dtypes.insert(*r);
          } catch (const PromotionError &e) {
            raised(e.what());
          }
        });
      });
    });
  }
  return out;
}

} // namespace dtf
