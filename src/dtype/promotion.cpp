#include "dtype/promotion.h"

#include <array>
#include <cassert>
#include <vector>

namespace dtf {
namespace {

// c10's promotion table, as measured on torch 1.13 (torch.promote_types over
// all pairs). Axes follow dtypes.def; a static_assert below pins that order.
#define DTF_ROW(...) {__VA_ARGS__}
using enum DType;
constexpr DType b1 = Bool, u8 = UInt8, i8 = Int8, i16 = Int16, i32 = Int32,
                i64 = Int64, f16 = Float16, bf16 = BFloat16, f32 = Float32,
                f64 = Float64, c32 = Complex32, c64 = Complex64,
                c128 = Complex128;
// clang-format off
constexpr std::array<std::array<DType, kNumDTypes>, kNumDTypes> kPromote{{
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
static_assert(kNumDTypes == 13 && index(Bool) == 0 && index(Complex128) == 12,
              "kPromote's axes must follow dtypes.def");

// TypeProperties.cpp's combine_categories: `lower` wins only with a strictly
// higher category; complex over a float keeps the float's precision.
std::optional<DType> combine(std::optional<DType> higher, std::optional<DType> lower) {
  if (!higher) return lower;
  if (!lower) return higher;
  if (isComplex(*higher)) return higher;
  if (isComplex(*lower)) return isFloating(*higher) ? toComplexType(*higher) : lower;
  if (isFloating(*higher)) return higher;
  if (isBool(*higher) || isFloating(*lower)) return promoteTypes(*higher, *lower);
  return higher;
}

} // namespace

DType promoteTypes(DType a, DType b) { return kPromote[index(a)][index(b)]; }

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

std::optional<DType> resultType(std::span<const PromotionOperand> operands) {
  std::array<std::optional<DType>, 3> tiers;
  for (const PromotionOperand &op : operands) {
    auto &t = tiers[static_cast<int>(op.tier)];
    t = t ? promoteTypes(*t, op.dtype) : op.dtype;
  }
  return combine(tiers[0], combine(tiers[1], tiers[2]));
}

namespace {
// A set of possible per-tier folds; bit kNumDTypes means "tier is empty".
using FoldSet = uint32_t;
constexpr FoldSet kEmptyTier = 1u << kNumDTypes;

FoldSet foldInto(FoldSet acc, DTypeSet add) {
  FoldSet out = 0;
  for (int i = 0; i <= kNumDTypes; ++i) {
    if (!(acc >> i & 1)) continue;
    for (DType d : add) {
      DType r = i == kNumDTypes ? d : promoteTypes(static_cast<DType>(i), d);
      out |= 1u << index(r);
    }
  }
  return out;
}

std::optional<DType> member(int i) {
  return i == kNumDTypes ? std::nullopt : std::optional(static_cast<DType>(i));
}
} // namespace

DTypeSet resultTypeSet(std::span<const Value> operands) {
  // Operands whose tier is unknown (tensor of unknown rank) are enumerated;
  // within a fixed tier assignment each tier's possible folds are tracked as a
  // set, which is exact because promoteTypes is associative.
  std::vector<int> undecided;
  for (int i = 0; i < static_cast<int>(operands.size()); ++i) {
    const Value &v = operands[i];
    if (v.isTensor() && v.rank().mayBeZero() && v.rank().mayBeNonZero())
      undecided.push_back(i);
  }
  if (undecided.size() > 12) return DTypeSet::all();
  DTypeSet result;
  for (uint32_t mask = 0; mask < (1u << undecided.size()); ++mask) {
    std::array<FoldSet, 3> tiers{kEmptyTier, kEmptyTier, kEmptyTier};
    size_t u = 0;
    for (int i = 0; i < static_cast<int>(operands.size()); ++i) {
      const Value &v = operands[i];
      if (v.isTensor()) {
        if (v.dtypes().empty()) return DTypeSet{}; // unreachable operand
        bool zero;
        if (u < undecided.size() && undecided[u] == i) zero = mask >> u++ & 1;
        else zero = v.rank().mayBeZero();
        auto &t = tiers[zero ? 1 : 0];
        t = foldInto(t, v.dtypes());
      } else if (v.isNumber()) {
        DTypeSet kinds;
        for (NumKind k : v.numKinds()) kinds.insert(wrappedNumberDType(k));
        tiers[2] = foldInto(tiers[2], kinds);
      } else if (!v.isNone()) {
        return DTypeSet::all(); // not a promotion operand we understand
      }
    }
    for (int d = 0; d <= kNumDTypes; ++d) {
      if (!(tiers[0] >> d & 1)) continue;
      for (int z = 0; z <= kNumDTypes; ++z) {
        if (!(tiers[1] >> z & 1)) continue;
        for (int w = 0; w <= kNumDTypes; ++w) {
          if (!(tiers[2] >> w & 1)) continue;
          if (auto r = combine(member(d), combine(member(z), member(w))))
            result.insert(*r);
        }
      }
    }
  }
  return result;
}

} // namespace dtf
