//===- dtype/torch_version.h - the PyTorch versions dtypeflow models -*- C++ -*-===//
//
// A version is a value every command and analysis is handed (see
// ops/semantics.h); this header only names them, so the dtype list can say
// which version introduced a dtype.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace dtf {

/// Ordered: a later version compares greater.
enum class TorchVersion : uint8_t { V1_13 = 0, V2_14 = 1 };

inline constexpr std::array<TorchVersion, 2> kTorchVersions{TorchVersion::V1_13, TorchVersion::V2_14};
/// What every command uses unless told otherwise.
inline constexpr TorchVersion kNewestTorch = TorchVersion::V2_14;

/// "1.13", "2.14".
constexpr std::string_view name(TorchVersion v) { return v == TorchVersion::V1_13 ? "1.13" : "2.14"; }

/// "1.13", "2.14", also with a patch level or local suffix ("2.14.1",
/// "2.14.1+debian", "1.13.0a0"); nullopt for a version not modelled.
std::optional<TorchVersion> parseTorchVersion(std::string_view text);

/// "1.13, 2.14": for messages.
std::string_view supportedTorchVersions();

} // namespace dtf
