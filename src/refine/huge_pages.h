//===- refine/huge_pages.h - big per-call arrays on huge pages -*- C++ -*-===//
//
// A refinement's state is one 40-byte Value per graph value: 40 MB for a
// 10^6-node graph, fresh memory on every call. Each 4 KiB page then faults
// on first touch, and in a VM a fault can cost 15 us: 10^4 faults were 3/4
// of a 10^6-node refinement (200 ms against 50 ms) on the benchmark machine.
// Asking for transparent huge pages on such an array makes 512x fewer
// faults. Advice only: where the kernel has no THP, nothing changes.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <vector>

namespace dtf::refine {

/// Advise huge pages for the 2 MiB-aligned interior of [p, p + bytes) when
/// it spans at least two huge pages; a no-op otherwise and off Linux.
void adviseHugePages(const void *p, size_t bytes);

/// Reserve room for `n` elements in `v`, advising huge pages for a new
/// buffer before anything touches it.
template <class T> void reserveOnHugePages(std::vector<T> &v, size_t n) {
  if (v.capacity() >= n) return;
  v.reserve(n);
  adviseHugePages(v.data(), n * sizeof(T));
}

} // namespace dtf::refine
