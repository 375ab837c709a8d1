//===- dtype/dtype.h - PyTorch dtypes and their categories ------*- C++ -*-===//
//
// The dtypes dtypeflow reasons about, generated from dtypes.def. A DType's
// underlying value is its position in that list (dense, for tables and bit
// sets); `c10Code` gives the value PyTorch uses.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace dtf {

/// bool < integral < floating < complex: the order result_type compares.
enum class Category : uint8_t { Bool = 0, Integral = 1, Floating = 2, Complex = 3 };

enum class DType : uint8_t {
#define DTF_DTYPE(E, code, cat, name, bytes, largest) E,
#include "dtype/dtypes.def"
#undef DTF_DTYPE
};

inline constexpr int kNumDTypes = 0
#define DTF_DTYPE(E, code, cat, name, bytes, largest) +1
#include "dtype/dtypes.def"
#undef DTF_DTYPE
    ;

namespace detail {
struct DTypeInfo {
  int c10Code;
  Category category;
  std::string_view name;
  int bytes;
  long double largest;
};
inline constexpr std::array<DTypeInfo, kNumDTypes> kDTypeInfo{{
#define DTF_DTYPE(E, code, cat, name, bytes, largest) {code, Category::cat, name, bytes, largest},
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

constexpr bool isBool(DType d) { return d == DType::Bool; }
constexpr bool isIntegral(DType d, bool includeBool = false) {
  return category(d) == Category::Integral || (includeBool && isBool(d));
}
constexpr bool isFloating(DType d) { return category(d) == Category::Floating; }
constexpr bool isComplex(DType d) { return category(d) == Category::Complex; }

/// The DType with this c10::ScalarType code, if dtypeflow models it.
std::optional<DType> fromC10Code(int64_t code);

/// Parse a PyTorch dtype name: canonical (`float32`), alias (`float`, `half`,
/// `long`, `cfloat`, ...), with or without a `torch.` prefix, or a c10 name
/// (`Float`, `Long`, `ComplexHalf`).
std::optional<DType> parseDType(std::string_view text);

/// c10's spelling (`Float`, `Long`), as TorchScript prints tensor types.
std::string_view c10Name(DType d);

/// complex -> its real counterpart (c64 -> f32); other dtypes unchanged.
DType toRealValueType(DType d);
/// real floating -> complex of that precision (f16 -> c32, bf16/f32 -> c64,
/// f64 -> c128); complex unchanged. Integral and bool have none.
std::optional<DType> toComplexType(DType d);

/// torch.can_cast: may an in-place / out= result of `from` land in `to`?
bool canCast(DType from, DType to);

} // namespace dtf
