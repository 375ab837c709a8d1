//===- ops/autocast.h - autocast as part of the semantics -------*- C++ -*-===//
//
// Inside `torch.autocast(device, dtype)` the dispatcher's Autocast kernels cast
// an op's tensor arguments before the op runs, by the op's cast policy. The
// ops each version wraps, per device, and their policies are data
// (data/autocast-<version>.txt, scripts/gen_autocast_lists.py: CPU policies
// measured, CUDA from PyTorch's source); every other op is left alone.
//
// Only eligible tensors are cast: real floating point, not float64, on the
// autocast device (scripts/probes/autocast.py, both versions). dtypeflow does
// not track devices: under an autocast context every tensor is taken to be on
// its device (a model run under autocast(cpu) with CPU tensors).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dtype/dtype.h"
#include "dtype/lattice.h"
#include "dtype/torch_version.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dtf {

struct Schema;

enum class AutocastDevice : uint8_t { CPU, CUDA };
std::string_view name(AutocastDevice d);

enum class AutocastPolicy : uint8_t {
  LowerPrecisionFp, ///< eligible tensors to the autocast dtype
  Fp32,             ///< eligible tensors to float32
  Fp32SetOptDtype,  ///< `dtype=None` becomes float32 when the first tensor is eligible
  Fp32AppendDtype,  ///< runs the dtype-taking overload with float32 when the first tensor is eligible
  Promote,          ///< eligible tensors to the widest of them (float32 over the autocast dtype)
  Banned,           ///< the Autocast kernel always raises (CUDA binary_cross_entropy)
  None,             ///< registered, yet casts nothing (measured: 1.13's CPU cat)
  Unknown,          ///< wrapped, policy not known: results unknown
};
std::string_view name(AutocastPolicy p);

/// An autocast context: `torch.autocast(device, dtype=dtype)` around the program.
struct AutocastContext {
  AutocastDevice device = AutocastDevice::CPU;
  DType dtype = DType::BFloat16;
  bool operator==(const AutocastContext &) const = default;
  /// `cpu:bfloat16`, `cuda:float16` ... for `torch`: nullopt and `error` set when
  /// the device or dtype is not one that version's autocast takes.
  static std::optional<AutocastContext> parse(std::string_view spec, TorchVersion torch, std::string &error);
  /// `cpu:bfloat16` (what --autocast takes).
  std::string spec() const;
  /// `autocast(cpu, bfloat16)` (for messages).
  std::string str() const;
};

/// The contexts a version's autocast takes (CPU first), for `check` to try.
std::vector<AutocastContext> autocastContexts(TorchVersion torch);

/// The policy of `opKey` (`aten::conv2d.padding`, `aten::mm`) under `device`;
/// nullopt when autocast leaves the op alone.
std::optional<AutocastPolicy> autocastPolicy(TorchVersion torch, AutocastDevice device, std::string_view opKey);

/// How many ops a version's list wraps on a device (`dtypeflow versions`, tests).
size_t autocastListSize(TorchVersion torch, AutocastDevice device);

/// docs/versions.md's autocast section: each version's lists per device (policy counts)
/// and the ops whose membership or policy differs between `from` and `to`.
std::string autocastListsMarkdown(TorchVersion from, TorchVersion to);

/// The arguments an op of schema `s` runs with under `ctx`.
struct AutocastArgs {
  enum class Status : uint8_t { Unchanged, Cast, Raises, Unknown };
  Status status = Status::Unchanged;
  std::vector<Value> args;      ///< Cast: the arguments after autocast's casts
  std::string message;          ///< Raises: what torch says; Unknown: why
  AutocastPolicy policy = AutocastPolicy::Unknown;
};
AutocastArgs applyAutocast(const AutocastContext &ctx, TorchVersion torch, const Schema &s,
                           std::span<const Value> args);

} // namespace dtf

namespace dtf {
class Semantics;
class Registry;
struct InferOutcome;
/// infer() for one op call inside `ctx` (none: infer itself): autocast's casts,
/// then the rule. An autocast kernel that raises is an Error; policies not known
/// give unknown outputs (status Ok, outputs top).
InferOutcome inferUnderAutocast(const Semantics &sem, const std::optional<AutocastContext> &ctx, const Schema &s,
                                std::span<const Value> args);
/// The same with a registry of `torch`'s (user rules layered on, as the conformance harness runs).
InferOutcome inferUnderAutocast(const Registry &registry, TorchVersion torch, const std::optional<AutocastContext> &ctx,
                                const Schema &s, std::span<const Value> args);
} // namespace dtf
