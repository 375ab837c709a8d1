//===- frontends/pt2/serde_enums.h - torch.export's enum numbering -*- C++ -*-===//
//
// The serialized ExportedProgram numbers dtypes, layouts and memory formats
// its own way (torch/_export/serde/schema.py), not as c10 does: float32 is 7
// there (c10: 6), uint16 is 28. These tables map them to torch's names and
// to the c10 codes TorchScript passes as `int` arguments.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dtype/dtype_system.h"
#include "dtype/dtype.h"

#include <cstdint>
#include <optional>
#include <string_view>

namespace dtf::pt2 {

/// The schema major version this reader knows (torch 2.14 writes 8.20);
/// minor versions only add fields, which are ignored.
inline constexpr int64_t kSchemaMajor = 8;

/// torch's name of a serde ScalarType number (`7` -> "float32",
/// `29` -> "float8_e4m3fn", `0` -> "unknown"); nullopt for a number the schema
/// does not define.
std::optional<std::string_view> serdeDTypeName(int64_t code);

/// The dtype a torch dtype name denotes in the PyTorch version `types`
/// models, if any ("float8_e4m3fn" under 1.13, or "unknown": nullopt, an
/// unknown dtype, never a guess).
std::optional<DType> modelledDType(std::string_view torchName, const DTypeSystem &types);

/// A floating or complex dtype by torch's name (what nn.Module.to(dtype) converts).
bool isFloatingOrComplexName(std::string_view torchName);

/// c10::Layout's code for a serde Layout number (serde Strided = 7 is c10's 0);
/// nullopt for a number the schema does not define (or Unknown = 0).
std::optional<int64_t> c10Layout(int64_t serdeLayout);

/// c10::MemoryFormat's code for a serde MemoryFormat number (serde
/// ContiguousFormat = 1 is c10's 0); nullopt as above.
std::optional<int64_t> c10MemoryFormat(int64_t serdeFormat);

} // namespace dtf::pt2
