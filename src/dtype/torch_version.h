//===- dtype/torch_version.h - the PyTorch versions dtypeflow models -*- C++ -*-===//
//
// A version is a value every command and analysis is handed (see
// ops/semantics.h); this header only names them, so the dtype list can say
// which version introduced a dtype. The versions are the list in
// torch_versions.def, what changed when the list in version_facts.def.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace dtf {

/// Ordered: a later version compares greater (torch_versions.def's order).
enum class TorchVersion : uint8_t {
#define DTF_TORCH_VERSION(id, name, suite) id,
#include "dtype/torch_versions.def"
#undef DTF_TORCH_VERSION
};

inline constexpr std::array kTorchVersions{
#define DTF_TORCH_VERSION(id, name, suite) TorchVersion::id,
#include "dtype/torch_versions.def"
#undef DTF_TORCH_VERSION
};
/// A plain registration holds from here (ops/registry.h).
inline constexpr TorchVersion kOldestTorch = kTorchVersions.front();
/// What every command uses unless told otherwise.
inline constexpr TorchVersion kNewestTorch = kTorchVersions.back();

/// "1.13", "2.14".
constexpr std::string_view name(TorchVersion v) {
  constexpr std::array<std::string_view, kTorchVersions.size()> names{
#define DTF_TORCH_VERSION(id, name, suite) name,
#include "dtype/torch_versions.def"
#undef DTF_TORCH_VERSION
  };
  return names[static_cast<size_t>(v)];
}

/// "1.13", "2.14", also with a patch level or local suffix ("2.14.1",
/// "2.14.1+debian", "1.13.0a0"); nullopt for a version not modelled.
std::optional<TorchVersion> parseTorchVersion(std::string_view text);

/// "1.13, 2.14": for messages.
std::string_view supportedTorchVersions();

/// A behaviour that changed at a version (version_facts.def).
enum class VersionFact : uint8_t {
#define DTF_VERSION_FACT(fact, since) fact,
#include "dtype/version_facts.def"
#undef DTF_VERSION_FACT
};

/// The first version with fact `f`.
constexpr TorchVersion since(VersionFact f) {
  constexpr std::array kSince{
#define DTF_VERSION_FACT(fact, since) TorchVersion::since,
#include "dtype/version_facts.def"
#undef DTF_VERSION_FACT
  };
  return kSince[static_cast<size_t>(f)];
}

/// Does version `v` have fact `f`?
constexpr bool has(TorchVersion v, VersionFact f) { return v >= since(f); }

/// One `T` per version, indexed by it: the per-version tables and singletons.
template <class T> using PerVersion = std::array<T, kTorchVersions.size()>;
constexpr size_t index(TorchVersion v) { return static_cast<size_t>(v); }

} // namespace dtf
