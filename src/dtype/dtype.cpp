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
// Python attribute aliases (torch.float is float32 ...) and c10 enum names.
constexpr Alias kAliases[] = {
    {"float", DType::Float32},     {"double", DType::Float64},
    {"half", DType::Float16},      {"cfloat", DType::Complex64},
    {"cdouble", DType::Complex128}, {"chalf", DType::Complex32},
    {"long", DType::Int64},        {"int", DType::Int32},
    {"short", DType::Int16},       {"Byte", DType::UInt8},
    {"Char", DType::Int8},         {"Short", DType::Int16},
    {"Int", DType::Int32},         {"Long", DType::Int64},
    {"Half", DType::Float16},      {"BFloat16", DType::BFloat16},
    {"Float", DType::Float32},     {"Double", DType::Float64},
    {"ComplexHalf", DType::Complex32}, {"ComplexFloat", DType::Complex64},
    {"ComplexDouble", DType::Complex128}, {"Bool", DType::Bool},
};
} // namespace

std::optional<DType> parseDType(std::string_view text) {
  if (text.starts_with("torch.")) text.remove_prefix(6);
  for (DType d : kAllDTypes)
    if (name(d) == text) return d;
  for (const Alias &a : kAliases)
    if (a.text == text) return a.dtype;
  return std::nullopt;
}

std::string_view c10Name(DType d) {
  for (const Alias &a : kAliases)
    if (a.dtype == d && !a.text.empty() && a.text[0] >= 'A' && a.text[0] <= 'Z')
      return a.text;
  return name(d);
}

DType toRealValueType(DType d) {
  switch (d) {
  case DType::Complex32: return DType::Float16;
  case DType::Complex64: return DType::Float32;
  case DType::Complex128: return DType::Float64;
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
