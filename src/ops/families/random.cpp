//===- ops/families/random.cpp - rand, randint, bernoulli, normal ... -------===//
//
// Random factories default to float32 (randint with an explicit dtype=None
// too; its schema default is int64), randperm/multinomial give int64, and the
// in-place/functional samplers keep self's dtype. Integer kernels missing for
// the float samplers are kernel gaps, not dtype errors.
//
//===----------------------------------------------------------------------===//
#include "ops/unit_dims.h"
#include "ops/registry.h"
#include "ops/shape_rules.h"
#include "ops/arg_checks.h"
#include "ops/vocabulary.h"

#include <cmath>
#include <limits>
#include <tuple>

namespace dtf {
namespace {

Rank sizeRank(const Value &size) {
  if (size.isList() && size.lengthKnown()) return Rank::exact(static_cast<int>(size.elements().size()));
  return Rank::top();
}

RuleResult randFloat(const OpCall &c) {
  if (auto e = sizeListError(c, "size", SizeList::NewTensor)) return *e;
  return tensorOf(c.dtypeArg("dtype").value_or(DType::Float32), sizeRank(c.arg("size")));
}

/// The bounds check random integer sampling applies to the result dtype:
/// complex is rejected, and bool only holds [0, 2).
std::optional<RuleError> randomBounds(const OpCall &c, DType d, std::optional<int64_t> to) {
  if (isComplex(d))
    return c.semantic("random bounds handle only integral, floating-point and boolean types, got {}", name(d));
  if (d == DType::Bool && to && *to - 1 > 1)
    return c.error(ErrorKind::ValueDependent, "to - 1 ({}) is out of bounds for bool", *to - 1);
  return std::nullopt;
}

RuleResult randint(const OpCall &c) {
  DType d = c.dtypeArg("dtype").value_or(DType::Float32);
  if (auto e = randomBounds(c, d, c.arg("high").intValue())) return *e;
  if (auto e = sizeListError(c, "size", SizeList::NewTensor)) return *e;
  return tensorOf(d, sizeRank(c.arg("size")));
}

RuleResult randintLike(const OpCall &c) {
  DType d = c.dtypeArg("dtype").value_or(c.dtype("self"));
  if (auto e = randomBounds(c, d, c.arg("high").intValue())) return *e;
  return tensorOf(d, c.rank("self"));
}

/// randperm: int64 by default; a known n that the integer dtype cannot
/// count to raises.
RuleResult randperm(const OpCall &c) {
  DType d = c.dtypeArg("dtype").value_or(DType::Int64);
  if (auto n = c.arg("n").intValue(); n && *n < 0)
    return c.error(ErrorKind::ValueDependent, "Trying to create tensor with negative dimension {}: [{}]", *n, *n);
  if (auto n = c.arg("n").intValue()) {
    int64_t limit = std::numeric_limits<int64_t>::max();
    switch (d) {
    case DType::UInt8: limit = 256; break;
    case DType::Int8: limit = 128; break;
    case DType::Int16: limit = 32768; break;
    case DType::Int32: limit = int64_t{1} << 31; break;
    case DType::Float16: limit = 2049; break;
    default: break;
    }
    if (*n > limit) return c.error(ErrorKind::ValueDependent, "n = {} is too large for {}", *n, name(d));
  }
  return tensorOf(d, Rank::exact(1));
}

RuleResult keepSelf(const OpCall &c) { return tensorOf(c.dtype("self"), c.rank("self")); }

/// bernoulli(self, p: Tensor): p is expanded to self's shape.
RuleResult bernoulliTensor(const OpCall &c) {
  Rank s = c.rank("self"), p = c.rank("p");
  bool tooBig = (s == Rank::exact(0) && !p.mayBeZero()) || (s.value() && p.value() && *p.value() > *s.value());
  if (tooBig) return c.semantic("p (rank {}) cannot be expanded to self's shape", p.value() ? *p.value() : 1);
  return tensorOf(c.dtype("self"), s);
}

/// random_.from / random_.to: self's dtype under the integer bounds check.
RuleResult randomTo(const OpCall &c) {
  DType s = c.dtype("self");
  if (auto e = randomBounds(c, s, c.arg("to").intValue())) return *e;
  return tensorOf(s, c.rank("self"));
}

/// normal(mean: Tensor, std: Tensor): the output is mean's dtype, filled
/// then scaled in place by std, so std must be real and castable.
RuleResult normalTT(const OpCall &c) {
  DType m = c.dtype("mean"), s = c.dtype("std");
  if (isComplex(s)) return c.semantic("normal expects standard deviation to be non-complex, got {}", name(s));
  if (!canCast(c.promote(m, s), m))
    return c.semantic("std of dtype {} cannot scale a mean of dtype {} in place", name(s), name(m));
  return tensorOf(m, broadcastArgs(c, {"mean", "std"}));
}

RuleResult normalFT(const OpCall &c) {
  DType s = c.dtype("std");
  if (isComplex(s)) return c.semantic("normal expects standard deviation to be non-complex, got {}", name(s));
  return tensorOf(s, c.rank("std"));
}

RuleResult normalTF(const OpCall &c) { return tensorOf(c.dtype("mean"), c.rank("mean")); }

RuleResult multinomial(const OpCall &c) {
  DType s = c.dtype("self");
  if (!isFloating(s)) return c.semantic("multinomial only supports floating-point dtypes for input, got {}", name(s));
  Rank r = c.rank("self");
  if (auto n = r.value(); n && (*n < 1 || *n > 2))
    return c.semantic("prob_dist must be 1 or 2 dim, got {}", *n);
  return tensorOf(DType::Int64, r);
}

/// binomial(count, prob): both must share a dtype; 2.14 first asks for a
/// floating count.
template <bool FloatingCount> RuleResult binomial(const OpCall &c) {
  DType a = c.dtype("count"), b = c.dtype("prob");
  if (FloatingCount && !isFloating(a))
    return c.semantic("binomial only supports floating-point dtypes for count, got: {}", c10Name(a));
  if (a != b) return c.semantic("count ({}) and prob ({}) must have the same dtype", name(a), name(b));
  return tensorOf(a, broadcastArgs(c, {"count", "prob"}));
}

} // namespace

void registerRandom(Registry &r) {
  const std::string fam = "random";
  r.add("aten::rand", fam, randFloat).sample("size", "[2,3]");
  r.add("aten::rand.generator", fam, randFloat).sample("size", "[2,3]").sample("generator", "None");
  r.add("aten::randn", fam, randFloat).sample("size", "[2,3]").variant({{"size", "[2,-1]"}});
  r.add("aten::randn.generator", fam, randFloat).sample("size", "[2,3]").sample("generator", "None");
  // Named-tensor overloads (a traced `generator=None` ties with them; names never change the dtype).
  for (const char *k : {"aten::rand.names", "aten::randn.names"})
    r.add(k, fam, randFloat).sample("size", "[2,3]").sample("names", "None");
  for (const char *k : {"aten::rand.generator_with_names", "aten::randn.generator_with_names"})
    r.add(k, fam, randFloat).sample("size", "[2,3]").sample("generator", "None").sample("names", "None");
  // Sampler parameters PyTorch refuses whatever the dtype or size (an empty tensor too).
  const auto stdAtLeast0 = checks::numberWithin("std", 0, INFINITY, "normal expects std >= 0.0");
  const auto fromBelowHigh = checks::ordered("", "high", true, "random_ expects 'from' to be less than 'to'");
  const auto lowBelowHigh = checks::ordered("low", "high", true, "random_ expects 'from' to be less than 'to'");
  r.add("aten::normal.float_float", fam, randFloat).sample("size", "[2,3]").sample("mean", "0.0").sample("std", "1.0")
      .refuse(stdAtLeast0, {{"std", "-1.0"}});
  r.add("aten::randint", fam, randint).sample("high", "2").sample("size", "[2,3]").variant({{"high", "3"}, {"size", "[2]"}})
      .refuse(fromBelowHigh, {{"high", "0"}});
  r.add("aten::randint.generator", fam, randint).sample("high", "2").sample("size", "[2,3]").sample("generator", "None")
      .refuse(fromBelowHigh, {{"high", "0"}});
  r.add("aten::randint.low", fam, randint).sample("low", "0").sample("high", "2").sample("size", "[2,3]")
      .variant({{"low", "0"}, {"high", "3"}, {"size", "[2]"}}).refuse(lowBelowHigh, {{"low", "2"}});
  r.add("aten::randint.low_generator", fam, randint)
      .sample("low", "0").sample("high", "2").sample("size", "[2,3]").sample("generator", "None")
      .refuse(lowBelowHigh, {{"low", "2"}});
  r.add("aten::randperm", fam, randperm).sample("n", "3").variant({{"n", "-1"}});
  r.add("aten::randperm.generator", fam, randperm).sample("n", "3").sample("generator", "None");
  for (const char *k : {"aten::rand_like", "aten::randn_like", "aten::randint_like"})
    r.declare(k, OpFact::MemoryFormatKeepsShape);
  r.add("aten::rand_like", fam, keepingShape([](const OpCall &c) -> RuleResult {
    return tensorOf(c.dtypeArg("dtype").value_or(c.dtype("self")), c.rank("self"));
  }));
  r.add("aten::randn_like", fam, keepingShape([](const OpCall &c) -> RuleResult {
    return tensorOf(c.dtypeArg("dtype").value_or(c.dtype("self")), c.rank("self"));
  }));
  r.add("aten::randint_like", fam, keepingShape(randintLike)).sample("high", "2").variant({{"high", "3"}})
      .refuse(fromBelowHigh, {{"high", "0"}});
  r.add("aten::randint_like.low_dtype", fam, keepingShape(randintLike)).sample("low", "0").sample("high", "2")
      .refuse(lowBelowHigh, {{"low", "2"}});
  // 2.14's overloads taking a generator answer as their plain forms.
  r.add("aten::rand_like.generator", fam, r.find("aten::rand_like")->fn).sample("generator", "None");
  r.add("aten::randn_like.generator", fam, r.find("aten::randn_like")->fn).sample("generator", "None");
  r.add("aten::randint_like.generator", fam, keepingShape(randintLike)).sample("high", "2").sample("generator", "None")
      .variant({{"high", "3"}}).refuse(fromBelowHigh, {{"high", "0"}});
  r.add("aten::randint_like.low_generator_dtype", fam, keepingShape(randintLike)).sample("low", "0").sample("high", "2")
      .sample("generator", "None").refuse(lowBelowHigh, {{"low", "2"}});
  // bernoulli: self's dtype (p is read as a probability)
  r.add("aten::bernoulli", fam, keepSelf);
  const auto probability = checks::numberWithin("p", 0, 1, "bernoulli_ expects p to be in [0, 1]");
  r.add("aten::bernoulli.p", fam, keepSelf).sample("p", "0.5").refuse(probability, {{"p", "1.5"}});
  r.add("aten::bernoulli.Tensor", fam, bernoulliTensor).sample("p", "float32[2]");
  r.add("aten::bernoulli_.float", fam, keepSelf).refuse(probability, {{"p", "-0.5"}});
  r.add("aten::bernoulli_.Tensor", fam, bernoulliTensor).sample("p", "float32[2]");
  // samplers that keep self's dtype
  // 2.14 refuses a cauchy or exponential sample of a dtype that is not
  // floating ("... is a continuous probability distribution"); 1.13 took it.
  const ArgCheck continuous = [](const OpCall &c) -> std::optional<RuleError> {
    const DType d = c.dtype("self");
    if (isFloating(d)) return std::nullopt;
    return c.semantic("{} distribution is a continuous probability distribution. dtype must be a floating point but "
                      "you specified {}", c.key().starts_with("aten::cauchy") ? "Cauchy" : "Exponential", c10Name(d));
  };
  for (const char *k : {"aten::exponential", "aten::exponential_", "aten::cauchy_", "aten::cauchy"}) {
    for (auto [scope, rule] : {std::pair{r.since(TorchVersion::V1_13), RuleFn(keepSelf)},
                               std::pair{r.since(TorchVersion::V2_6), checks::before(continuous, keepSelf)}}) {
      auto e = scope.add(k, fam, rule);
      if (std::string_view(k).starts_with("aten::exponential"))
        e.refuse(checks::numberWithin("lambd", 0, INFINITY, "exponential_ expects lambda >= 0.0"), {{"lambd", "-1.0"}});
    }
  }
  for (const char *k : {"aten::uniform", "aten::uniform_", "aten::normal_functional", "aten::normal_",
                        "aten::log_normal_", "aten::random_", "aten::poisson", "aten::_standard_gamma",
                        // the functional forms of the in-place samplers
                        "aten::log_normal", "aten::random"}) {
    auto e = r.add(k, fam, keepSelf);
    const std::string_view key = k;
    if (key.starts_with("aten::uniform"))
      e.refuse(checks::ordered("from", "to", false, "uniform_ expects to return a [from, to) range"),
               {{"from", "2.0"}, {"to", "1.0"}});
    if (key.starts_with("aten::normal")) e.refuse(stdAtLeast0, {{"std", "-1.0"}});
    if (key.starts_with("aten::log_normal"))
      e.refuse(checks::numberAbove("std", 0, "log_normal_ expects std > 0.0"), {{"std", "0.0"}});
  }
  for (const char *k : {"aten::geometric_", "aten::geometric"})
    r.add(k, fam, keepSelf).sample("p", "0.5")
        .refuse(checks::numberAbove("p", 0, "geometric_ expects p to be in (0, 1)"), {{"p", "0.0"}})
        .refuse(checks::numberWithin("p", -INFINITY, std::nextafter(1.0, 0.0), "geometric_ expects p to be in (0, 1)"),
                {{"p", "1.0"}});
  for (const char *k : {"aten::random_.to", "aten::random.to"})
    r.add(k, fam, randomTo).sample("to", "2").variant({{"to", "3"}})
        .refuse(checks::ordered("", "to", true, "random_ expects 'from' to be less than 'to'"), {{"to", "0"}});
  for (const char *k : {"aten::random_.from", "aten::random.from"})
    r.add(k, fam, randomTo).sample("from", "0").sample("to", "2")
        .refuse(checks::ordered("from", "to", true, "random_ expects 'from' to be less than 'to'"), {{"from", "2"}});
  r.add("aten::normal.Tensor_Tensor", fam, normalTT);
  r.add("aten::normal.Tensor_float", fam, normalTF).refuse(stdAtLeast0, {{"std", "-1.0"}});
  r.add("aten::normal.float_Tensor", fam, normalFT).sample("mean", "0.0");
  r.add("aten::multinomial", fam, multinomial).sample("num_samples", "1")
      .variant({{"self", "float32[2,3]"}, {"num_samples", "2"}})
      .atLeast("num_samples", 1, "cannot sample n_sample <= 0 samples");
  r.since(TorchVersion::V1_13).add("aten::binomial", fam, binomial<false>);
  r.since(TorchVersion::V2_6).add("aten::binomial", fam, binomial<true>);
}

//===----------------------------------------------------------------------===//
// Shape rules (ops/shape_rules.h): the factories take their size list, the
// samplers keep self's sizes (their dtype rules say so where keepingShape
// wraps them), multinomial draws num_samples per row.
//===----------------------------------------------------------------------===//

void registerRandomShapes(Registry &r) {
  for (const char *k : {"aten::rand", "aten::rand.generator", "aten::rand.names", "aten::rand.generator_with_names",
                        "aten::randn", "aten::randn.generator", "aten::randn.names", "aten::randn.generator_with_names",
                        "aten::normal.float_float", "aten::randint", "aten::randint.generator", "aten::randint.low",
                        "aten::randint.low_generator"})
    r.shape(k, [](const OpCall &c) -> ShapeResult {
      auto sizes = newTensorSizes(c, "size");
      return sizes ? ShapeResult(*sizes) : ShapeResult{};
    });
  for (const char *k : {"aten::randperm", "aten::randperm.generator"})
    r.shape(k, [](const OpCall &c) -> ShapeResult {
      auto n = newTensorSizes(c, "n");
      return n ? ShapeResult(*n) : ShapeResult{};
    });
  for (const char *k : {"aten::bernoulli", "aten::bernoulli.p", "aten::bernoulli.Tensor", "aten::bernoulli_.Tensor",
                        "aten::bernoulli_.float", "aten::normal.Tensor_float", "aten::uniform", "aten::uniform_",
                        "aten::normal_functional", "aten::normal_", "aten::log_normal_", "aten::log_normal",
                        "aten::random_", "aten::random", "aten::random_.to", "aten::random.to", "aten::random_.from",
                        "aten::random.from", "aten::poisson", "aten::_standard_gamma", "aten::geometric_",
                        "aten::geometric", "aten::exponential", "aten::exponential_", "aten::cauchy_", "aten::cauchy"})
    if (!r.skips(k)) // (else its schema is not parsed)
      r.shape(k, sameShapeAs(r.schemas().find(k) && r.schemas().find(k)->argIndex("self") >= 0 ? "self" : "mean"));
  r.shape("aten::normal.float_Tensor", sameShapeAs("std"));
  for (auto [k, a, b] : {std::tuple{"aten::normal.Tensor_Tensor", "mean", "std"}, {"aten::binomial", "count", "prob"}})
    r.shape(k, [a = std::string(a), b = std::string(b)](const OpCall &c) -> ShapeResult {
      auto x = dimsOf(c, a), y = dimsOf(c, b);
      if (!x || !y) return {};
      std::vector<Dims> both{*x, *y};
      Broadcast out = broadcastShapes(both);
      return out.dims ? ShapeResult(*out.dims) : ShapeResult{};
    });
  // multinomial: [n] -> [num_samples], [b, n] -> [b, num_samples].
  r.shape("aten::multinomial", [](const OpCall &c) -> ShapeResult {
    auto self = dimsOf(c, "self");
    Dim n = symIntArg(c, "num_samples");
    if (!self || self->empty() || self->size() > 2 || !n.known()) return {};
    self->back() = n;
    return *self;
  });
}

} // namespace dtf
