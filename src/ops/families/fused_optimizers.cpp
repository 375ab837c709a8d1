//===- ops/families/fused_optimizers.cpp - _fused_adam_ & co -----------===//
//
// The fused optimizer steps (`_fused_adam_`, `_fused_adamw_`, `_fused_sgd_`,
// `_fused_adagrad_`; torch.optim's fused=True) update lists of parameters
// and their state in one kernel. Measured on libtorch 2.14.1's CPU kernels
// (scripts/probes/fused_optimizers.py):
//   - each parameter self[i] is float16, bfloat16, float32 or float64
//     (other dtypes: `"fused_adam_kernel" not implemented for 'Long'`);
//   - grads[i] and each state list's [i] (exp_avgs, exp_avg_sqs, momentum
//     buffers, state sums) have self[i]'s dtype ("expected scalar type
//     Float but found Half"); parameters may differ from one another;
//   - grad_scale and found_inf are float32 whatever the parameters;
//   - state_steps and a tensor lr take any dtype (read with item());
//   - every list has self's length, but max_exp_avg_sqs is empty unless
//     amsgrad and momentum_buffer_list empty when momentum is 0; an empty
//     self raises ("There were no tensor arguments");
//   - a found_inf of value 1 (an overflow found) makes the step a no-op
//     before any check but the two above: with found_inf given, a later
//     check that fails leaves the answer unknown.
// The in-place forms return nothing; the functional forms return the
// updated copies of their lists, each element of its input's dtype and
// rank; the `.out` forms copy self's update into `out` (one tensor per
// parameter, of its dtype exactly: "Expected out tensor to have dtype
// float, but got long int instead") and return nothing.
//
//===----------------------------------------------------------------------===//
#include "ops/registry.h"

#include <string>
#include <vector>

namespace dtf {

namespace {

struct FusedStep {
  const char *kernel;                 ///< the CPU kernel's name in its dtype error
  std::vector<const char *> lists;    ///< lists whose element i has self[i]'s dtype
  const char *optional = nullptr;     ///< a list of n elements when `when` holds, else empty
  const char *when = nullptr;         ///< a bool argument, or a float one meaning "non-zero"
  const char *steps = nullptr;        ///< state_steps: n elements of any dtype
};

bool paramDtype(DType d) {
  return d == DType::Float16 || d == DType::BFloat16 || d == DType::Float32 || d == DType::Float64;
}

/// Whether the optional list is in use: nullopt when its condition's value is unknown.
std::optional<bool> optionalInUse(const OpCall &c, const FusedStep &s) {
  const Value &v = c.arg(s.when);
  if (auto b = v.boolValue()) return *b;
  if (v.numKind() == NumKind::Bool) return std::nullopt;
  if (auto f = v.floatValue()) return *f != 0;
  return std::nullopt;
}

/// The checks a found_inf of value 1 returns before (the dispatcher's
/// and the kernel's first ones).
std::optional<RuleError> firstChecks(const OpCall &c) {
  if (c.arg("self").elements().empty()) return c.semantic("There were no tensor arguments to this function");
  for (const char *t : {"grad_scale", "found_inf"})
    if (c.isTensor(t) && c.dtype(t) != DType::Float32)
      return c.semantic("expected scalar type Float but found {} ({})", name(c.dtype(t)), t);
  return std::nullopt;
}

/// The step's checks after those, in the kernel's order per parameter;
/// nullopt when they pass. `known` turns false where a value the checks
/// need is unknown.
std::optional<RuleError> stepChecks(const OpCall &c, const FusedStep &s, bool &known) {
  const auto &self = c.arg("self").elements();
  const size_t n = self.size();
  std::vector<const char *> full = s.lists;
  if (s.steps) full.push_back(s.steps);
  if (s.optional) {
    auto inUse = optionalInUse(c, s);
    if (!inUse) {
      known = false;
      return std::nullopt;
    }
    if (*inUse) full.push_back(s.optional);
    else if (!c.arg(s.optional).elements().empty()) return c.semantic("Expected {}.empty() to be true", s.optional);
  }
  for (const char *l : full)
    if (c.arg(l).elements().size() != n) return c.semantic("Expected {}.size() == n_tensors to be true", l);
  for (size_t i = 0; i < n; ++i) {
    DType p = *self[i].dtype();
    if (!paramDtype(p)) return c.missingKernel("\"{}\" not implemented for {}", s.kernel, name(p));
    for (const char *l : full)
      if (l != s.steps)
        if (DType d = *c.arg(l).elements()[i].dtype(); d != p)
          return c.semantic("expected scalar type {} but found {} ({}[{}])", name(p), name(d), l, i);
  }
  return std::nullopt;
}

RuleFn fusedStep(FusedStep s) {
  return [s = std::move(s)](const OpCall &c) -> RuleResult {
    const Schema &schema = c.schema();
    auto unknown = [&] {
      std::vector<Value> outs(schema.returns.size(), Value::listOf(Value::unknownTensor()));
      return RuleResult(std::move(outs));
    };
    for (const SchemaArg &a : schema.args) // every list of known length
      if (a.type->kind == SchemaType::Kind::List && !c.arg(a.name).lengthKnown()) return unknown();
    if (auto e = firstChecks(c)) return *e;
    bool known = true;
    if (auto e = stepChecks(c, s, known)) return c.isTensor("found_inf") ? unknown() : RuleResult(*e);
    if (!known) return unknown();
    if (c.has("out")) { // self's update, copied into out of the same dtypes
      const auto &out = c.arg("out").elements(), &self = c.arg("self").elements();
      if (out.size() != self.size()) return c.semantic("dst.size() == src.size(): out has {} tensors", out.size());
      for (size_t i = 0; i < out.size(); ++i)
        if (*out[i].dtype() != *self[i].dtype())
          return c.semantic("Expected out tensor to have dtype {}, but got {} instead", name(*self[i].dtype()),
                            name(*out[i].dtype()));
      return std::vector<Value>{};
    }
    std::vector<Value> results; // `grads_out` is a copy of `grads` ...
    for (const SchemaArg &r : schema.returns) {
      std::string in = r.name.substr(0, r.name.size() - 4);
      std::vector<Value> copies;
      for (const Value &e : c.arg(in).elements()) copies.push_back(tensorOf(*e.dtype(), e.rank()));
      results.push_back(Value::list(std::move(copies)));
    }
    return results;
  };
}

/// Samples: every dtype of self's one element against float32 elsewhere,
/// then of each other list's (and of grad_scale, found_inf, a tensor lr).
void fusedSamples(Registry::Entry e, const Schema &schema, const FusedStep &s,
                  std::map<std::string, std::string, std::less<>> fixed) {
  fixed["self"] = "[float32[2]]";
  for (const char *l : s.lists) fixed[l] = "[float32[2]]";
  if (s.optional) fixed[s.optional] = "[float32[2]]";
  if (s.steps) fixed[s.steps] = "[float32[]]";
  if (schema.argIndex("out") >= 0) fixed["out"] = "[float32[2]]";
  fixed["grad_scale"] = fixed["found_inf"] = "None";
  const bool tensorLr = schema.args[schema.argIndex("lr")].type->kind == SchemaType::Kind::Tensor;
  if (tensorLr) fixed["lr"] = "float32[]";
  for (const auto &[arg, spec] : fixed) e.sample(arg, spec);
  auto swept = [&](const std::string &arg, const std::string &spec) {
    auto v = fixed;
    v[arg] = spec;
    e.variant(v);
  };
  swept("self", "[sweep]");
  for (const char *l : s.lists) swept(l, "[sweep]");
  if (s.steps) swept(s.steps, "[sweep]");
  if (schema.argIndex("out") >= 0) swept("out", "[sweep![2]]");
  for (const char *t : {"grad_scale", "found_inf"}) swept(t, "sweep![]");
  if (tensorLr) swept("lr", "sweep");
  if (s.optional) { // the optional list in use, and left empty though in use
    auto v = fixed;
    v[s.when] = std::string(s.when) == "amsgrad" ? "True" : "0.9";
    v[s.optional] = "[sweep]";
    e.variant(v);
    v[s.optional] = "[]";
    e.variant(v);
  }
}

} // namespace

void registerFusedOptimizers(Registry &r) {
  const char *fam = "optimizer.fused";
  const FusedStep adam{"fused_adam_kernel", {"grads", "exp_avgs", "exp_avg_sqs"}, "max_exp_avg_sqs", "amsgrad",
                       "state_steps"};
  const FusedStep sgd{"fused_sgd_kernel", {"grads"}, "momentum_buffer_list", "momentum"};
  const FusedStep adagrad{"fused_adagrad_kernel", {"grads", "state_sums"}, nullptr, nullptr, "state_steps"};
  const std::map<std::string, std::string, std::less<>> adamArgs = {
      {"lr", "0.1"}, {"beta1", "0.9"}, {"beta2", "0.99"}, {"weight_decay", "0.0"}, {"eps", "1e-08"},
      {"amsgrad", "False"}, {"maximize", "False"}};
  const std::map<std::string, std::string, std::less<>> sgdArgs = {
      {"weight_decay", "0.0"}, {"momentum", "0.0"}, {"lr", "0.1"}, {"dampening", "0.0"},
      {"nesterov", "False"}, {"maximize", "False"}, {"is_first_step", "False"}};
  const std::map<std::string, std::string, std::less<>> adagradArgs = {
      {"lr", "0.1"}, {"lr_decay", "0.0"}, {"weight_decay", "0.0"}, {"eps", "1e-10"}, {"maximize", "False"}};
  struct Op { const char *key; const FusedStep &step; const std::map<std::string, std::string, std::less<>> &args; };
  const std::vector<Op> ops = {
      {"aten::_fused_adam.tensor_lr", adam, adamArgs},
      {"aten::_fused_adam.tensor_lr_out", adam, adamArgs},
      {"aten::_fused_adam_.tensor_lr", adam, adamArgs},
      {"aten::_fused_adamw", adam, adamArgs},
      {"aten::_fused_adamw.out", adam, adamArgs},
      {"aten::_fused_adamw.tensor_lr", adam, adamArgs},
      {"aten::_fused_adamw.tensor_lr_out", adam, adamArgs},
      {"aten::_fused_adamw_", adam, adamArgs},
      {"aten::_fused_adamw_.tensor_lr", adam, adamArgs},
      {"aten::_fused_sgd", sgd, sgdArgs},
      {"aten::_fused_sgd.out", sgd, sgdArgs},
      {"aten::_fused_sgd.tensor_lr", sgd, sgdArgs},
      {"aten::_fused_sgd.tensor_lr_out", sgd, sgdArgs},
      {"aten::_fused_sgd_", sgd, sgdArgs},
      {"aten::_fused_sgd_.tensor_lr", sgd, sgdArgs},
      {"aten::_fused_adagrad", adagrad, adagradArgs},
      {"aten::_fused_adagrad.out", adagrad, adagradArgs},
      {"aten::_fused_adagrad.tensor_lr", adagrad, adagradArgs},
      {"aten::_fused_adagrad.tensor_lr_out", adagrad, adagradArgs},
      {"aten::_fused_adagrad_", adagrad, adagradArgs},
      {"aten::_fused_adagrad_.tensor_lr", adagrad, adagradArgs},
  };
  for (const Op &op : ops) {
    const Schema *schema = r.schemas().find(op.key);
    if (!schema) continue; // a version without it
    fusedSamples(r.add(op.key, fam, fusedStep(op.step)), *schema, op.step, op.args);
  }
  // In 1.13 these three have a CUDA kernel only (on CPU every call raises
  // "Could not run 'aten::_fused_adam_' with arguments from the 'CPU'
  // backend", measured): their rule holds from 2.14 on.
  for (const char *k : {"aten::_fused_adam", "aten::_fused_adam.out", "aten::_fused_adam_"})
    if (const Schema *schema = r.schemas().find(k))
      fusedSamples(r.since(TorchVersion::V2_14).add(k, fam, fusedStep(adam)), *schema, adam, adamArgs);
}

} // namespace dtf
