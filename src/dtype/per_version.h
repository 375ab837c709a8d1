//===- dtype/per_version.h - one lazily made object per PyTorch version -*- C++ -*-===//
//
// The per-version singletons (DTypeSystem, SchemaTable, Semantics, autocast
// lists, meta-kernel measurements) are kept in an array indexed by the
// version, so a version added to torch_versions.def gets its own with no
// code. Each is made on first use (a process that asks for one version pays
// for that one) and never destroyed (freeing a table at exit cost a
// one-question command a tenth of its time).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dtype/torch_version.h"

#include <mutex>

namespace dtf {

/// The `T` of version `v`, made by `make(v)` on first use. Each call site
/// (each `Make` type) has its own array.
template <class T, class Make> const T &lazyPerVersion(TorchVersion v, Make make) {
  static PerVersion<std::once_flag> once;
  static PerVersion<const T *> made{};
  const size_t i = index(v);
  std::call_once(once[i], [&] { made[i] = new T(make(v)); });
  return *made[i];
}

/// The data files CMake embeds per version (CMakeLists.txt, from
/// torch_versions.def): data/<file>-<name>.txt.
enum class EmbeddedData : uint8_t {
  Schemas,     ///< torch_schemas-<V>.txt: the schema table (schema/schema.h)
  Autocast,    ///< autocast-<V>.txt: autocast's op lists (ops/autocast.h)
  MetaKernels, ///< meta-kernels-<V>.txt: where meta kernels differ (ops/meta_kernels.h)
  CpuKernelGaps, ///< cpu-kernel-gaps-<V>.txt: the dtypes CPU kernels lack (ops/cpu_kernels.h)
};
/// Version `v`'s embedded text of a kind (generated/embedded_data.cpp).
const char *embeddedText(EmbeddedData kind, TorchVersion v);

} // namespace dtf
