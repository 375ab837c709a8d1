//===- tests/oracle/torch_runner.h - run one op call in real libtorch -*- C++ -*-===//
#pragma once

#include <ATen/core/ivalue.h>
#include <torch/csrc/jit/runtime/operator.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dtf::oracle {

/// What one returned value was.
struct Observed {
  enum class Kind { Tensor, TensorList, List, Int, Float, Bool, Complex, None, Other } kind = Kind::Other;
  c10::ScalarType dtype = c10::ScalarType::Undefined; ///< Tensor
  int64_t dim = -1;                                   ///< Tensor
  std::vector<int64_t> sizes;                         ///< Tensor: its shape
  int64_t intValue = 0;            ///< Int / Bool: the value
  std::vector<Observed> elements;  ///< TensorList / List (any other list): each element
};

struct TorchOutcome {
  bool ok = false;
  std::vector<Observed> outputs;
  std::string error; ///< the exception text without backtrace
};

/// The JIT operator for an overload key (dispatcher ops and JIT-only ops alike).
std::shared_ptr<torch::jit::Operator> findTorchOperator(const std::string &key);

/// Run `op` on `args`; exceptions become an error outcome.
TorchOutcome runTorch(const torch::jit::Operator &op, std::vector<c10::IValue> args);

/// The same arguments with every tensor (alone, in a list, optional) on the
/// meta device, as FakeTensor and torch.export run an op: scalars stay.
std::vector<c10::IValue> onMeta(const std::vector<c10::IValue> &args);

/// Make c10 errors cheap: libtorch builds a backtrace for every c10::Error
/// (1.13: symbolized, 1-4 ms; 2.x: unwound eagerly, symbolized lazily); the
/// harness throws hundreds of thousands of them.
void disableTorchBacktraces();

} // namespace dtf::oracle
