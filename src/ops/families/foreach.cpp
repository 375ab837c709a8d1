//===- ops/families/foreach.cpp - `_foreach_*`: an op over lists ----------===//
//
// The `_foreach_*` ops (optimizers' multi-tensor steps) apply one op to each
// tensor of a list, or of several lists position by position. On CPU they
// run the slow path: a loop calling the op itself (`_foreach_add.Tensor` is
// `add.Tensor(self[i], other, alpha)` for each i), so each element's dtype,
// rank and errors are that op's, and each rule here is the registered rule
// of its base op, run once per element. Measured in libtorch 2.14.1
// (scripts/probes/foreach.py: every dtype pair of a one-tensor list against
// the base op): no difference but these checks of the loop's own, which come
// first: every list non-empty and of one length (a Scalar[] list too), a
// `.Tensor` operand of add/mul/div 0-dim, addcdiv/addcmul's packed `scalars`
// 1-D (each element read with item(): a number of its dtype's kind). The
// in-place forms (`_foreach_add_.Tensor`) run the base op's in-place form
// and return nothing; the `_out` forms (`_foreach_add.Tensor_out`) run the
// functional one and copy each result into `out` (any dtype: copy_ casts),
// returning nothing. Runs after every family whose rules it reuses.
//
//===----------------------------------------------------------------------===//
#include "ops/infer.h"
#include "ops/registry.h"

#include <algorithm>
#include <string>
#include <vector>

namespace dtf {

namespace {

/// How a base-op argument is made from the `_foreach` call's arguments.
enum class Take : uint8_t {
  Whole,   ///< the argument itself (a Scalar, a Tensor, a bool)
  Element, ///< element i of a Tensor[] or Scalar[] list
  Item,    ///< element i of a 1-D tensor, read with item(): a number of its dtype's kind
};

struct From {
  const char *baseArg; ///< the base op's argument
  const char *arg;     ///< the `_foreach` op's argument
  Take take;
};

struct ForEachOp {
  const char *key;  ///< `aten::_foreach_add.Tensor`
  const char *base; ///< the op each element runs: `aten::add.Tensor`
  std::vector<From> from;
  const char *zeroDim = nullptr; ///< a Tensor operand the loop wants 0-dim
};

/// The number kind item() gives for a tensor of this dtype.
NumKind itemKind(DType d) {
  if (d == DType::Bool) return NumKind::Bool;
  if (isIntegral(d)) return NumKind::Int;
  if (isComplex(d)) return NumKind::Complex;
  return NumKind::Float;
}

/// The loop's own checks on its lists: nullopt when they pass, the error
/// otherwise. `n` is set to the lists' length (the first Element list's).
std::optional<RuleError> listChecks(const OpCall &c, const ForEachOp &op, size_t &n) {
  std::optional<size_t> first;
  for (const From &f : op.from) {
    if (f.take != Take::Element) continue;
    const size_t len = c.arg(f.arg).elements().size();
    if (!first) {
      if (len == 0) return c.semantic("Tensor list must have at least one tensor.");
      first = len;
    } else if (len != *first) {
      return c.semantic("Tensor lists must have the same number of elements, got {} and {}", *first, len);
    }
  }
  n = first.value_or(0);
  if (op.zeroDim && !c.rank(op.zeroDim).mayBeZero())
    return c.semantic("scalar tensor expected to be 0 dim but it is not");
  for (const From &f : op.from)
    if (auto rk = f.take == Take::Item ? c.rank(f.arg).value() : std::nullopt; rk && *rk != 1)
      return c.semantic("Expected packed scalar Tensor to be of dimension 1. Got {} instead.", *rk);
  return std::nullopt;
}

/// Whether every list the op reads has a known length, and a packed
/// `scalars` tensor a known rank (else nothing is known of the elements,
/// nor of the loop's checks).
bool lengthsKnown(const OpCall &c, const ForEachOp &op) {
  for (const From &f : op.from) {
    if (f.take == Take::Element && !c.arg(f.arg).lengthKnown()) return false;
    if (f.take == Take::Item && !c.rank(f.arg).isExact()) return false; // 1-D or not?
  }
  return true;
}

/// The base op's arguments for element i; nullopt when one is not concrete
/// enough for a rule (a Scalar[] element of several number kinds).
std::optional<std::vector<Value>> elementArgs(const OpCall &c, const ForEachOp &op, const Schema &base, size_t i) {
  std::vector<Value> args;
  args.reserve(base.args.size());
  for (const SchemaArg &a : base.args) args.push_back(defaultValue(a));
  for (const From &f : op.from) {
    const int at = base.argIndex(f.baseArg);
    if (at < 0) throw std::logic_error(std::string(op.key) + ": base op has no argument " + f.baseArg);
    Value v = f.take == Take::Whole     ? c.arg(f.arg)
              : f.take == Take::Element ? c.arg(f.arg).elements()[i]
                                        : Value::number(itemKind(c.dtype(f.arg)));
    if (v.isNumber() && !v.numKind()) return std::nullopt;
    args[static_cast<size_t>(at)] = std::move(v);
  }
  return args;
}

/// The rule of `op`, running `base`'s per element. A functional form
/// returns the list of the results; an in-place or `_out` form (returning
/// nothing) only raises where an element's op does.
RuleFn forEach(ForEachOp op, const OpRule &base) {
  return [op = std::move(op), &base](const OpCall &c) -> RuleResult {
    const bool returnsList = !c.schema().returns.empty();
    // Nothing known: an unknown list (no result to type for the forms returning nothing).
    auto unknown = [&](Value list) {
      return returnsList ? RuleResult(std::move(list)) : RuleResult(std::vector<Value>{});
    };
    if (!lengthsKnown(c, op)) return unknown(Value::listOf(Value::unknownTensor()));
    size_t n = 0;
    if (auto e = listChecks(c, op, n)) return *e;
    std::vector<Value> results;
    for (size_t i = 0; i < n; ++i) {
      auto args = elementArgs(c, op, *base.schema, i);
      // Rules were written for c10's four dtype categories (ops/infer.cpp).
      if (!args || (!base.anyCategory && std::ranges::any_of(*args, [](const Value &v) {
                      return v.dtype() && category(*v.dtype()) == Category::Other;
                    })))
        return unknown(Value::top());
      RuleResult r = base.fn(OpCall(c.types(), *base.schema, *args));
      if (!r.ok()) return c.error(r.error().kind, "element {}: {}", i, r.error().message);
      // An element that may raise, or of unknown dtype (which may raise): nothing is known.
      if (r.possibleError() || !r.outputs().at(0).dtype()) return unknown(Value::top());
      results.push_back(r.outputs().at(0));
    }
    if (!returnsList) return std::vector<Value>{};
    return Value::list(std::move(results));
  };
}

/// The base op's samples, each Element argument as a one-tensor list of
/// its base spec (a Scalar[] as one number), an Item one as a 1-D tensor.
void sampleFrom(Registry::Entry &e, const ForEachOp &op, const OpRule &base, const Schema &schema) {
  for (const From &f : op.from) {
    auto it = base.samples.args.find(f.baseArg);
    const std::string spec = it == base.samples.args.end() ? "sweep" : it->second;
    const SchemaType &t = *schema.args[static_cast<size_t>(schema.argIndex(f.arg))].type;
    if (f.take == Take::Item) e.sample(f.arg, "sweep![1]");
    else if (f.take == Take::Whole) { // a tensor's or a number's spec; others keep their default
      if (t.kind == SchemaType::Kind::Tensor || t.kind == SchemaType::Kind::Number) e.sample(f.arg, spec);
    }
    else if (t.inner() && t.inner()->isTensorLike()) e.sample(f.arg, "[" + spec + "]");
    else // a Scalar[]: one number of each kind, a case set each
      e.sample(f.arg, "[2]").variant({{f.arg, "[True]"}}).variant({{f.arg, "[2.5]"}}).variant({{f.arg, "[1j]"}});
  }
}

} // namespace

void registerForEach(Registry &r) {
  const std::string fam = "foreach";
  // Each op, its in-place form and its `_out` form, on the base op they loop over.
  // maximum/minimum by a number loop over clamp_min/clamp_max (measured: same dtypes).
  const From self{"self", "self", Take::Element};
  const From other{"other", "other", Take::Whole};
  const From alpha{"alpha", "alpha", Take::Whole};
  const From tensor1{"tensor1", "tensor1", Take::Element}, tensor2{"tensor2", "tensor2", Take::Element};
  const From packed{"value", "scalars", Take::Item};
  const From end{"end", "tensors1", Take::Element};
  const std::vector<ForEachOp> ops = {
      {"aten::_foreach_add.Tensor", "aten::add.Tensor", {self, other, alpha}, "other"},
      {"aten::_foreach_add_.Tensor", "aten::add_.Tensor", {self, other, alpha}, "other"},
      {"aten::_foreach_add.Tensor_out", "aten::add.Tensor", {self, other, alpha}, "other"},
      {"aten::_foreach_mul.Tensor", "aten::mul.Tensor", {self, other}, "other"},
      {"aten::_foreach_mul_.Tensor", "aten::mul_.Tensor", {self, other}, "other"},
      {"aten::_foreach_mul.Tensor_out", "aten::mul.Tensor", {self, other}, "other"},
      {"aten::_foreach_div.Tensor", "aten::div.Tensor", {self, other}, "other"},
      {"aten::_foreach_div_.Tensor", "aten::div_.Tensor", {self, other}, "other"},
      {"aten::_foreach_div.Tensor_out", "aten::div.Tensor", {self, other}, "other"},
      {"aten::_foreach_addcdiv.Tensor", "aten::addcdiv", {self, tensor1, tensor2, packed}},
      {"aten::_foreach_addcdiv_.Tensor", "aten::addcdiv_", {self, tensor1, tensor2, packed}},
      {"aten::_foreach_addcdiv.Tensor_out", "aten::addcdiv", {self, tensor1, tensor2, packed}},
      {"aten::_foreach_addcmul.Tensor", "aten::addcmul", {self, tensor1, tensor2, packed}},
      {"aten::_foreach_addcmul_.Tensor", "aten::addcmul_", {self, tensor1, tensor2, packed}},
      {"aten::_foreach_addcmul.Tensor_out", "aten::addcmul", {self, tensor1, tensor2, packed}},
      {"aten::_foreach_clamp_max.List", "aten::clamp_max.Tensor", {self, {"max", "other", Take::Element}}},
      {"aten::_foreach_clamp_max_.List", "aten::clamp_max_.Tensor", {self, {"max", "other", Take::Element}}},
      {"aten::_foreach_clamp_max.List_out", "aten::clamp_max.Tensor", {self, {"max", "other", Take::Element}}},
      {"aten::_foreach_clamp_max.Scalar", "aten::clamp_max", {self, {"max", "scalar", Take::Whole}}},
      {"aten::_foreach_clamp_max_.Scalar", "aten::clamp_max_", {self, {"max", "scalar", Take::Whole}}},
      {"aten::_foreach_clamp_max.Scalar_out", "aten::clamp_max", {self, {"max", "scalar", Take::Whole}}},
      {"aten::_foreach_clamp_max.ScalarList", "aten::clamp_max", {self, {"max", "scalars", Take::Element}}},
      {"aten::_foreach_clamp_max_.ScalarList", "aten::clamp_max_", {self, {"max", "scalars", Take::Element}}},
      {"aten::_foreach_clamp_max.ScalarList_out", "aten::clamp_max", {self, {"max", "scalars", Take::Element}}},
      {"aten::_foreach_clamp_min.List", "aten::clamp_min.Tensor", {self, {"min", "other", Take::Element}}},
      {"aten::_foreach_clamp_min_.List", "aten::clamp_min_.Tensor", {self, {"min", "other", Take::Element}}},
      {"aten::_foreach_clamp_min.List_out", "aten::clamp_min.Tensor", {self, {"min", "other", Take::Element}}},
      {"aten::_foreach_clamp_min.Scalar", "aten::clamp_min", {self, {"min", "scalar", Take::Whole}}},
      {"aten::_foreach_clamp_min_.Scalar", "aten::clamp_min_", {self, {"min", "scalar", Take::Whole}}},
      {"aten::_foreach_clamp_min.Scalar_out", "aten::clamp_min", {self, {"min", "scalar", Take::Whole}}},
      {"aten::_foreach_clamp_min.ScalarList", "aten::clamp_min", {self, {"min", "scalars", Take::Element}}},
      {"aten::_foreach_clamp_min_.ScalarList", "aten::clamp_min_", {self, {"min", "scalars", Take::Element}}},
      {"aten::_foreach_clamp_min.ScalarList_out", "aten::clamp_min", {self, {"min", "scalars", Take::Element}}},
      {"aten::_foreach_maximum.Scalar", "aten::clamp_min", {self, {"min", "scalar", Take::Whole}}},
      {"aten::_foreach_maximum_.Scalar", "aten::clamp_min_", {self, {"min", "scalar", Take::Whole}}},
      {"aten::_foreach_maximum.Scalar_out", "aten::clamp_min", {self, {"min", "scalar", Take::Whole}}},
      {"aten::_foreach_maximum.ScalarList", "aten::clamp_min", {self, {"min", "scalars", Take::Element}}},
      {"aten::_foreach_maximum_.ScalarList", "aten::clamp_min_", {self, {"min", "scalars", Take::Element}}},
      {"aten::_foreach_maximum.ScalarList_out", "aten::clamp_min", {self, {"min", "scalars", Take::Element}}},
      {"aten::_foreach_minimum.Scalar", "aten::clamp_max", {self, {"max", "scalar", Take::Whole}}},
      {"aten::_foreach_minimum_.Scalar", "aten::clamp_max_", {self, {"max", "scalar", Take::Whole}}},
      {"aten::_foreach_minimum.Scalar_out", "aten::clamp_max", {self, {"max", "scalar", Take::Whole}}},
      {"aten::_foreach_minimum.ScalarList", "aten::clamp_max", {self, {"max", "scalars", Take::Element}}},
      {"aten::_foreach_minimum_.ScalarList", "aten::clamp_max_", {self, {"max", "scalars", Take::Element}}},
      {"aten::_foreach_minimum.ScalarList_out", "aten::clamp_max", {self, {"max", "scalars", Take::Element}}},
      {"aten::_foreach_lerp.List", "aten::lerp.Tensor", {self, end, {"weight", "weights", Take::Element}}},
      {"aten::_foreach_lerp_.List", "aten::lerp_.Tensor", {self, end, {"weight", "weights", Take::Element}}},
      {"aten::_foreach_lerp.List_out", "aten::lerp.Tensor", {self, end, {"weight", "weights", Take::Element}}},
      {"aten::_foreach_lerp.Scalar", "aten::lerp.Scalar", {self, end, {"weight", "weight", Take::Whole}}},
      {"aten::_foreach_lerp_.Scalar", "aten::lerp_.Scalar", {self, end, {"weight", "weight", Take::Whole}}},
      {"aten::_foreach_lerp.Scalar_out", "aten::lerp.Scalar", {self, end, {"weight", "weight", Take::Whole}}},
      {"aten::_foreach_lerp.ScalarList", "aten::lerp.Scalar", {self, end, {"weight", "weight", Take::Element}}},
      {"aten::_foreach_lerp_.ScalarList", "aten::lerp_.Scalar", {self, end, {"weight", "weight", Take::Element}}},
      {"aten::_foreach_lerp.ScalarList_out", "aten::lerp.Scalar", {self, end, {"weight", "weight", Take::Element}}},
      {"aten::_foreach_pow.List", "aten::pow.Tensor_Tensor", {self, {"exponent", "exponent", Take::Element}}},
      {"aten::_foreach_pow_.List", "aten::pow_.Tensor", {self, {"exponent", "exponent", Take::Element}}},
      {"aten::_foreach_pow.List_out", "aten::pow.Tensor_Tensor", {self, {"exponent", "exponent", Take::Element}}},
      {"aten::_foreach_pow.Scalar", "aten::pow.Tensor_Scalar", {self, {"exponent", "exponent", Take::Whole}}},
      {"aten::_foreach_pow_.Scalar", "aten::pow_.Scalar", {self, {"exponent", "exponent", Take::Whole}}},
      {"aten::_foreach_pow.Scalar_out", "aten::pow.Tensor_Scalar", {self, {"exponent", "exponent", Take::Whole}}},
      {"aten::_foreach_pow.ScalarList", "aten::pow.Tensor_Scalar", {self, {"exponent", "exponent", Take::Element}}},
      {"aten::_foreach_pow_.ScalarList", "aten::pow_.Scalar", {self, {"exponent", "exponent", Take::Element}}},
      {"aten::_foreach_pow.ScalarList_out", "aten::pow.Tensor_Scalar", {self, {"exponent", "exponent", Take::Element}}},
      {"aten::_foreach_pow.ScalarAndTensor", "aten::pow.Scalar", {{"self", "self", Take::Whole}, {"exponent", "exponent", Take::Element}}},
      {"aten::_foreach_clone", "aten::clone", {self, {"memory_format", "memory_format", Take::Whole}}},
      {"aten::_foreach_clone.out", "aten::clone", {self, {"memory_format", "memory_format", Take::Whole}}},
      {"aten::_foreach_copy", "aten::copy", {self, {"src", "src", Take::Element}, {"non_blocking", "non_blocking", Take::Whole}}},
      {"aten::_foreach_copy_", "aten::copy_", {self, {"src", "src", Take::Element}, {"non_blocking", "non_blocking", Take::Whole}}},
      {"aten::_foreach_copy.out", "aten::copy", {self, {"src", "src", Take::Element}, {"non_blocking", "non_blocking", Take::Whole}}},
      {"aten::_foreach_max", "aten::max", {self}},
      {"aten::_foreach_max.out", "aten::max", {self}},
      {"aten::_foreach_mm", "aten::mm", {self, {"mat2", "mat2", Take::Element}}},
      {"aten::_foreach_rsqrt", "aten::rsqrt", {self}},
      {"aten::_foreach_rsqrt_", "aten::rsqrt_", {self}},
      {"aten::_foreach_rsqrt.out", "aten::rsqrt", {self}},
      {"aten::_foreach_sign", "aten::sign", {self}},
      {"aten::_foreach_sign_", "aten::sign_", {self}},
      {"aten::_foreach_sign.out", "aten::sign", {self}},
      // powsum: linalg__powsum of each whole tensor
      {"aten::_foreach_powsum.Scalar", "aten::linalg__powsum", {self, {"ord", "ord", Take::Whole}, {"dtype", "dtype", Take::Whole}}},
      {"aten::_foreach_powsum.Scalar_out", "aten::linalg__powsum", {self, {"ord", "ord", Take::Whole}, {"dtype", "dtype", Take::Whole}}},
  };
  for (const ForEachOp &op : ops) {
    const OpRule *base = r.find(op.base);
    const Schema *schema = r.schemas().find(op.key);
    if (!base || !schema) continue; // a version without the op or its base rule
    Registry::Entry e = r.add(op.key, fam, forEach(op, *base));
    sampleFrom(e, op, *base, *schema);
    if (schema->args.back().name == "out") e.sample("out", "[float32[2]]").variant({{"out", "[complex64[2]]"}});
  }
}

} // namespace dtf
