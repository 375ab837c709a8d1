//===- tests/oracle/autocast_guard.h - run an op inside at::autocast -*- C++ -*-===//
#pragma once

#include "ops/autocast.h"
#include "torch_runner.h"

namespace dtf::oracle {

/// runTorch inside autocast(ctx.device, ctx.dtype) on this thread (CPU only: there is
/// no GPU here), as `torch.autocast('cpu', dtype=...)` around the call; the previous
/// state is restored and the cast cache cleared after it.
TorchOutcome runTorchUnderAutocast(const torch::jit::Operator &op, std::vector<c10::IValue> args,
                                   const AutocastContext &ctx);

} // namespace dtf::oracle
