//===- frontends/torchscript/torchvision_ops.h - register torchvision ops -*- C++ -*-===//
//
// torchvision's C++ operators (torchvision::nms, roi_align ...) live in its
// Python package's `_C` library, which depends only on libtorch. Loading it
// registers them with libtorch, so saved detection models load and the
// conformance harness can run them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>

namespace dtf::torchscript {

/// Load torchvision's operator library once (thread-safe). Searched: the
/// DTF_TORCHVISION_LIB file if set, then Debian's python3-torchvision
/// (`/usr/lib/python3/dist-packages/torchvision/_C*.so`). Returns the loaded
/// path, or empty when it is not installed (or failed to load).
const std::string &loadTorchvisionOps();

} // namespace dtf::torchscript
