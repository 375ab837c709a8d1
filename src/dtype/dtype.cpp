#include "dtype/dtype.h"

#include <string>

namespace dtf {

std::optional<DType> fromC10Code(int64_t code) {
  for (DType d : kAllDTypes)
    if (c10Code(d) == code) return d;
  return std::nullopt;
}

namespace {
struct Alias {
  std::string_view text;
  DType dtype;
};
// Python attribute aliases (torch.float is float32 ...); c10 names come from dtypes.def.
constexpr Alias kAliases[] = {
    {"float", DType::Float32},     {"double", DType::Float64},
    {"half", DType::Float16},      {"cfloat", DType::Complex64},
    {"cdouble", DType::Complex128}, {"chalf", DType::Complex32},
    {"long", DType::Int64},        {"int", DType::Int32},
    {"short", DType::Int16},
};
} // namespace

std::optional<DType> parseDType(std::string_view text) {
  if (text.starts_with("torch.")) text.remove_prefix(6);
  for (DType d : kAllDTypes)
    if (name(d) == text || c10Name(d) == text) return d;
  for (const Alias &a : kAliases)
    if (a.text == text) return a.dtype;
  return std::nullopt;
}

DType toRealValueType(DType d) {
  switch (d) {
  case DType::Complex32: return DType::Float16;
  case DType::Complex64: return DType::Float32;
  case DType::Complex128: return DType::Float64;
  case DType::BComplex32: return DType::BFloat16;
  default: return d;
  }
}

std::optional<DType> toComplexType(DType d) {
  switch (d) {
  case DType::Float16: return DType::Complex32;
  case DType::BFloat16:
  case DType::Float32: return DType::Complex64;
  case DType::Float64: return DType::Complex128;
  default: return isComplex(d) ? std::optional(d) : std::nullopt;
  }
}

bool canCast(DType from, DType to) {
  if (isComplex(from) && !isComplex(to)) return false;
  if (isFloating(from) && isIntegral(to, /*includeBool=*/false)) return false;
  if (!isBool(from) && isBool(to)) return false;
  return true;
}

} // namespace dtf
