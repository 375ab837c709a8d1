//===- tests/oracle/autocast_guard.cpp - run an op inside at::autocast ----===//
#include "autocast_guard.h"

#include <ATen/autocast_mode.h>
#include <torch/version.h>

#include <stdexcept>

namespace dtf::oracle {
namespace {

c10::ScalarType toTorch(DType d) { return static_cast<c10::ScalarType>(c10Code(d)); }

/// Enables CPU autocast with a dtype for its lifetime (the API differs between 1.13 and 2.x).
class CpuAutocast {
public:
  explicit CpuAutocast(c10::ScalarType dtype) {
#if TORCH_VERSION_MAJOR >= 2
    wasEnabled_ = at::autocast::is_autocast_enabled(at::kCPU);
    oldDtype_ = at::autocast::get_autocast_dtype(at::kCPU);
    at::autocast::set_autocast_enabled(at::kCPU, true);
    at::autocast::set_autocast_dtype(at::kCPU, dtype);
#else
    wasEnabled_ = at::autocast::is_cpu_enabled();
    oldDtype_ = at::autocast::get_autocast_cpu_dtype();
    at::autocast::set_cpu_enabled(true);
    at::autocast::set_autocast_cpu_dtype(dtype);
#endif
  }
  ~CpuAutocast() {
    at::autocast::clear_cache();
#if TORCH_VERSION_MAJOR >= 2
    at::autocast::set_autocast_enabled(at::kCPU, wasEnabled_);
    at::autocast::set_autocast_dtype(at::kCPU, oldDtype_);
#else
    at::autocast::set_cpu_enabled(wasEnabled_);
    at::autocast::set_autocast_cpu_dtype(oldDtype_);
#endif
  }
  CpuAutocast(const CpuAutocast &) = delete;
  CpuAutocast &operator=(const CpuAutocast &) = delete;

private:
  bool wasEnabled_ = false;
  c10::ScalarType oldDtype_ = c10::ScalarType::BFloat16;
};

} // namespace

TorchOutcome runTorchUnderAutocast(const torch::jit::Operator &op, std::vector<c10::IValue> args,
                                   const AutocastContext &ctx) {
  if (ctx.device != AutocastDevice::CPU) throw std::invalid_argument("autocast oracle: CPU only (no GPU here)");
  CpuAutocast on(toTorch(ctx.dtype));
  return runTorch(op, std::move(args));
}

} // namespace dtf::oracle
