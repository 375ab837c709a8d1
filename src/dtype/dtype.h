//===- dtype/dtype.h - PyTorch dtypes and their categories ------*- C++ -*-===//
//
// The dtypes dtypeflow reasons about, generated from dtypes.def. A DType's
// underlying value is its position in that list (dense, for tables and bit
// sets); `c10Code` gives the value PyTorch uses.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dtype/torch_version.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace dtf {

/// bool < integral < floating < complex: the order result_type compares.
/// `Other` is none of c10's categories (quantized, bits, sub-byte shells):
/// every category predicate below is false for it.
enum class Category : uint8_t { Bool = 0, Integral = 1, Floating = 2, Complex = 3, Other = 4 };

enum class DType : uint8_t {
#define DTF_DTYPE(E, code, cat, name, c10, bytes, largest, since) E,
#include "dtype/dtypes.def"
#undef DTF_DTYPE
};

inline constexpr int kNumDTypes = 0
#define DTF_DTYPE(E, code, cat, name, c10, bytes, largest, since) +1
#include "dtype/dtypes.def"
#undef DTF_DTYPE
    ;

namespace detail {
struct DTypeInfo {
  int c10Code;
  Category category;
  std::string_view name;
  std::string_view c10Name;
  int bytes;
  long double largest;
  TorchVersion since;
};
inline constexpr std::array<DTypeInfo, kNumDTypes> kDTypeInfo{{
#define DTF_DTYPE(E, code, cat, name, c10, bytes, largest, since) {code, Category::cat, name, c10, bytes, largest, TorchVersion::since},
#include "dtype/dtypes.def"
#undef DTF_DTYPE
}};
} // namespace detail

inline constexpr std::array<DType, kNumDTypes> kAllDTypes = [] {
  std::array<DType, kNumDTypes> all{};
  for (int i = 0; i < kNumDTypes; ++i) all[i] = static_cast<DType>(i);
  return all;
}();

constexpr int index(DType d) { return static_cast<int>(d); }
constexpr const detail::DTypeInfo &info(DType d) { return detail::kDTypeInfo[index(d)]; }
constexpr Category category(DType d) { return info(d).category; }
constexpr std::string_view name(DType d) { return info(d).name; }
constexpr int c10Code(DType d) { return info(d).c10Code; }
constexpr int elementSize(DType d) { return info(d).bytes; }
/// The largest finite value of the type (of each part, for complex types).
constexpr long double largestValue(DType d) { return info(d).largest; }
/// The first modelled PyTorch version that names this dtype.
constexpr TorchVersion since(DType d) { return info(d).since; }
/// c10's spelling (`Float`, `Long`, `Float8_e4m3fn`), as TorchScript prints tensor types.
constexpr std::string_view c10Name(DType d) { return info(d).c10Name; }

constexpr bool isBool(DType d) { return d == DType::Bool; }
constexpr bool isIntegral(DType d, bool includeBool = false) {
  return category(d) == Category::Integral || (includeBool && isBool(d));
}
constexpr bool isFloating(DType d) { return category(d) == Category::Floating; }
constexpr bool isComplex(DType d) { return category(d) == Category::Complex; }

constexpr bool isQuantized(DType d) {
  return d == DType::QInt8 || d == DType::QUInt8 || d == DType::QInt32 || d == DType::QUInt4x2 || d == DType::QUInt2x4;
}
constexpr bool isFloat8(DType d) {
  return d == DType::Float8E5M2 || d == DType::Float8E4M3FN || d == DType::Float8E5M2FNUZ ||
         d == DType::Float8E4M3FNUZ || d == DType::Float8E8M0FNU;
}
/// The dtypes linalg and fft refuse as "low precision": float16, bfloat16,
/// their complex types and float8.
constexpr bool isLowPrecision(DType d) {
  return d == DType::Float16 || d == DType::BFloat16 || d == DType::Complex32 || d == DType::BComplex32 || isFloat8(d);
}
/// c10's isBarebonesUnsignedType: uint1-7 and uint16/32/64 (not uint8), which
/// promote only with a floating type.
constexpr bool isBarebonesUnsigned(DType d) {
  return d == DType::UInt16 || d == DType::UInt32 || d == DType::UInt64 ||
         (c10Code(d) >= c10Code(DType::UInt1) && c10Code(d) <= c10Code(DType::UInt7));
}
/// Not one of the 13 dtypes every modelled version has and promotes among.
constexpr bool isBeyondClassic(DType d) { return index(d) >= 13; }

/// The DType with this c10::ScalarType code, if dtypeflow models it (any
/// version: a Semantics narrows to its own).
std::optional<DType> fromC10Code(int64_t code);

/// Parse a PyTorch dtype name: canonical (`float32`), alias (`float`, `half`,
/// `long`, `cfloat`, ...), with or without a `torch.` prefix, or a c10 name
/// (`Float`, `Long`, `ComplexHalf`). Every modelled version's names.
std::optional<DType> parseDType(std::string_view text);

/// complex -> its real counterpart (c64 -> f32, bcomplex32 -> bf16); other
/// dtypes unchanged.
DType toRealValueType(DType d);
/// real floating -> complex of that precision as PyTorch 1.13 has it (f16 ->
/// c32, bf16/f32 -> c64, f64 -> c128); complex unchanged. Integral and bool
/// have none. 2.14 differs for bf16 (bcomplex32): ask the version's
/// DTypeSystem (dtype/dtype_system.h), as rules do.
std::optional<DType> toComplexType(DType d);

/// torch.can_cast: may an in-place / out= result of `from` land in `to`?
bool canCast(DType from, DType to);

} // namespace dtf
