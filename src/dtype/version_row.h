//===- dtype/version_row.h - one value per PyTorch version, all given -*- C++ -*-===//
//
// A row of a per-version table written in code (the kernel facts of
// ops/cpu_kernels.cpp, oneDNN's dtypes in ops/cpu_capability.cpp): one value
// per version of torch_versions.def, in its order. A row with another count
// does not compile, so a version added to the list cannot silently get an
// empty column: every table says what the new version does.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dtype/torch_version.h"

#include <concepts>

namespace dtf {

template <class T> class VersionRow {
public:
  template <class... A>
    requires(sizeof...(A) == kTorchVersions.size() && (std::convertible_to<A, T> && ...))
  constexpr VersionRow(A... values) : values_{T(values)...} {}
  constexpr const T &operator[](TorchVersion v) const { return values_[index(v)]; }

private:
  PerVersion<T> values_;
};

} // namespace dtf
