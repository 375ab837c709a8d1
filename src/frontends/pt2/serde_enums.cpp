#include "frontends/pt2/serde_enums.h"

namespace dtf::pt2 {
namespace {

struct SerdeDType {
  int64_t code;
  std::string_view name;
};
// torch._export.serde.schema.ScalarType (schema 8.20, torch 2.14), in torch's
// dtype names; 14-27 are not used.
constexpr SerdeDType kSerdeDTypes[] = {
    {0, "unknown"},         {1, "uint8"},          {2, "int8"},           {3, "int16"},
    {4, "int32"},           {5, "int64"},          {6, "float16"},        {7, "float32"},
    {8, "float64"},         {9, "complex32"},      {10, "complex64"},     {11, "complex128"},
    {12, "bool"},           {13, "bfloat16"},      {28, "uint16"},        {29, "float8_e4m3fn"},
    {30, "float8_e5m2"},    {31, "float8_e4m3fnuz"}, {32, "float8_e5m2fnuz"}, {33, "float8_e8m0fnu"},
    {34, "uint32"},         {35, "uint64"},
};

} // namespace

std::optional<std::string_view> serdeDTypeName(int64_t code) {
  for (const SerdeDType &d : kSerdeDTypes)
    if (d.code == code) return d.name;
  return std::nullopt;
}

std::optional<DType> modelledDType(std::string_view torchName, const DTypeSystem &types) {
  if (torchName == "unknown") return std::nullopt;
  return types.parse(torchName);
}

bool isFloatingOrComplexName(std::string_view n) {
  return n.starts_with("float") || n.starts_with("bfloat") || n.starts_with("complex");
}

std::optional<int64_t> c10Layout(int64_t serdeLayout) {
  // serde: SparseCoo 1, SparseCsr 2, SparseCsc 3, SparseBsr 4, SparseBsc 5, _mkldnn 6, Strided 7.
  // c10:   Strided 0, Sparse 1, SparseCsr 2, Mkldnn 3, SparseCsc 4, SparseBsr 5, SparseBsc 6.
  switch (serdeLayout) {
  case 1: return 1;
  case 2: return 2;
  case 3: return 4;
  case 4: return 5;
  case 5: return 6;
  case 6: return 3;
  case 7: return 0;
  default: return std::nullopt;
  }
}

std::optional<int64_t> c10MemoryFormat(int64_t serdeFormat) {
  // serde: ContiguousFormat 1, ChannelsLast 2, ChannelsLast3d 3, PreserveFormat 4.
  // c10:   Contiguous 0, Preserve 1, ChannelsLast 2, ChannelsLast3d 3.
  switch (serdeFormat) {
  case 1: return 0;
  case 2: return 2;
  case 3: return 3;
  case 4: return 1;
  default: return std::nullopt;
  }
}

} // namespace dtf::pt2
