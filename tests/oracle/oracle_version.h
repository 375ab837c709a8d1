//===- tests/oracle/oracle_version.h - which semantics the linked libtorch is -*- C++ -*-===//
//
// The oracle tests compare dtypeflow with the libtorch they link: 1.13 on
// the Debian 12 host, 2.14 in the Debian unstable root (scripts/torch214-root.sh).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ops/semantics.h"

#include <torch/version.h>

namespace dtf::oracle {

inline constexpr TorchVersion kOracleTorch = TORCH_VERSION_MAJOR >= 2 ? TorchVersion::V2_14 : TorchVersion::V1_13;
static_assert(TORCH_VERSION_MAJOR == 1 ? TORCH_VERSION_MINOR == 13 : TORCH_VERSION_MINOR == 14,
              "the oracle tests model libtorch 1.13 and 2.14 only");

/// The semantics of the libtorch this test links.
inline const Semantics &oracleSemantics() { return Semantics::of(kOracleTorch); }

} // namespace dtf::oracle
