//===- tests/oracle/oracle_version.h - which semantics the linked libtorch is -*- C++ -*-===//
//
// The oracle tests compare dtypeflow with the libtorch they link: 1.13 on
// the Debian 12 host, 2.14 in the Debian unstable root (scripts/torch214-root.sh);
// each a version of src/dtype/torch_versions.def.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ops/semantics.h"

#include <torch/version.h>

#include <string_view>

namespace dtf::oracle {

#define DTF_ORACLE_STR2(x) #x
#define DTF_ORACLE_STR(x) DTF_ORACLE_STR2(x)

/// The version of dtype/torch_versions.def the linked libtorch is ("2.14"
/// for 2.14.1); a libtorch not in the list fails to compile here.
consteval TorchVersion linkedTorchVersion() {
  constexpr std::string_view linked = DTF_ORACLE_STR(TORCH_VERSION_MAJOR) "." DTF_ORACLE_STR(TORCH_VERSION_MINOR);
  for (TorchVersion v : kTorchVersions)
    if (name(v) == linked) return v;
  throw "the oracle tests model the libtorch versions of src/dtype/torch_versions.def only";
}
inline constexpr TorchVersion kOracleTorch = linkedTorchVersion();

/// The semantics of the libtorch this test links.
inline const Semantics &oracleSemantics() { return Semantics::of(kOracleTorch); }

} // namespace dtf::oracle
