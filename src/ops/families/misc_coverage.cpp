//===- ops/families/misc_coverage.cpp - polar, resize_, fake-quant, prims ---===//
//
// Odd ops from the coverage floor that fit no other family. Every rule was
// measured on torch 1.13.1 (CPU):
//  - polar: abs and angle must both be Half/Float/Double and the same dtype;
//    the result is the complex type of that dtype (Half -> complex32; the CPU
//    kernel is missing, CUDA has it). Shapes broadcast.
//  - resize_: self's dtype, rank = len(size).
//  - upsample_nearest2d_backward: grad_output's dtype; grad_output must be
//    4-D; the result is 4-D. (Integer/complex only lack kernels.)
//  - fake_quantize_*: the output keeps self's dtype (floating only: the
//    kernels dispatch over floating types and nothing else on any device;
//    BFloat16 only lacks a CPU kernel), the cachemask forms add a bool mask.
//    Per-tensor qparams given as tensors take any dtype/rank (they are read
//    with item()). Per-channel: self must have a dimension, scale and
//    zero_point must be 1-D, zero_point must be int32/float32/float16, axis in
//    [0, self.dim()) (no wrapping). scale of a non-float32 dtype only trips a
//    CPU-loop internal assert, so it is accepted.
//  - prims::squeeze / view_of / split_dim: input dtype (checked by hand; the
//    prims are registered from Python, libtorch has no kernel).
//  - prims::sqrt: a prim never promotes (meta keeps an integral or bool
//    dtype), but 1.13's CPU path is aten::sqrt (integral/bool -> float32):
//    an integral input may give either, so the answer is that pair.
//
//===----------------------------------------------------------------------===//
#include "ops/unit_dims.h"
#include "ops/registry.h"
#include "ops/shape_rules.h"
#include "ops/vocabulary.h"
#include "dtype/promotion.h"

#include <cmath>

#include <optional>
#include <string>

namespace dtf {
namespace {

std::optional<int> listLen(const Value &v) {
  if (v.isList() && v.lengthKnown()) return static_cast<int>(v.elements().size());
  return std::nullopt;
}

bool isZeroDim(Rank r) { return r.value() && *r.value() == 0; }

/// A channels_last (c10 code 2) or channels_last_3d (3) memory format for a
/// result of known rank other than 4 or 5: the restride refuses it.
std::optional<RuleError> memoryFormatFits(const OpCall &c, std::optional<int> rank) {
  auto format = c.arg("memory_format").intValue();
  if (!format || !rank || (*format != 2 && *format != 3)) return std::nullopt;
  const int need = *format == 2 ? 4 : 5;
  if (*rank == need) return std::nullopt;
  return c.semantic("required rank {} tensor to use {} format", need, *format == 2 ? "channels_last" : "channels_last_3d");
}

RuleResult polar(const OpCall &c) {
  DType a = c.dtype("abs"), b = c.dtype("angle");
  auto ok = [](DType d) { return d == DType::Float16 || d == DType::Float32 || d == DType::Float64; };
  if (!ok(a) || !ok(b))
    return c.semantic("expected both inputs to be half, float or double tensors but got {} and {}", name(a), name(b));
  if (a != b) return c.semantic("angle must have the same dtype as abs ({}), got {}", name(a), name(b));
  return tensorOf(*c.toComplex(a), broadcastRank({c.rank("abs"), c.rank("angle")}));
}

/// fake_quantize kernels dispatch over floating types only.
std::optional<RuleError> floatingSelf(const OpCall &c) {
  DType d = c.dtype("self");
  if (!isFloating(d)) return c.semantic("fake quantization is not implemented for self of dtype {}", name(d));
  return std::nullopt;
}

RuleResult fqPerTensor(const OpCall &c, bool mask) {
  if (auto e = floatingSelf(c)) return *e;
  Rank r = c.rank("self");
  if (mask) return std::vector<Value>{tensorOf(c.dtype("self"), r), tensorOf(DType::Bool, r)};
  return tensorOf(c.dtype("self"), r);
}

/// The scale dtypes fake_quantize_per_channel takes: any in 1.13, float32
/// in 2.6 ("Scale must be Float"), float32 or bfloat16 in 2.14.
enum class FqScale { Any, Float, FloatOrBFloat16 };

/// Per channel: 2.6 on also check the scale's dtype (FqScale).
template <FqScale Scale> RuleResult fqPerChannel(const OpCall &c, bool mask) {
  if (auto e = floatingSelf(c)) return *e;
  if (DType s = c.dtype("scale"); Scale != FqScale::Any && s != DType::Float32) {
    if (Scale == FqScale::Float) return c.semantic("Scale must be Float, found {}", c10Name(s));
    if (s != DType::BFloat16) return c.semantic("Scale must be Float or BFloat16, found {}", c10Name(s));
  }
  DType zp = c.dtype("zero_point");
  if (zp != DType::Int32 && zp != DType::Float32 && zp != DType::Float16)
    return c.semantic("zero-point must be int32, float32 or float16, found {}", name(zp));
  Rank r = c.rank("self");
  if (isZeroDim(r)) return c.semantic("self must have at least one dimension (per-channel axis)");
  auto oneD = [](Rank k) { return !k.value() || *k.value() == 1; }; // atLeast1 may be 1
  if (!oneD(c.rank("scale"))) return c.semantic("scale should be a 1-D tensor");
  if (!oneD(c.rank("zero_point"))) return c.semantic("zero point should be a 1-D tensor");
  if (auto ax = c.arg("axis").intValue()) {
    if (*ax < 0) return c.semantic("`axis` must be between 0 and number of dimensions of input");
    if (auto n = r.value(); n && *ax >= *n)
      return c.semantic("`axis` must be between 0 and number of dimensions of input");
  }
  if (mask) return std::vector<Value>{tensorOf(c.dtype("self"), r), tensorOf(DType::Bool, r)};
  return tensorOf(c.dtype("self"), r);
}

/// torch.export's runtime asserts and their dependency tokens (2.14,
/// measured): the asserts return nothing (raising on a false value), the
/// functional forms return their dep_token, _make_dep_token makes a 0-dim
/// tensor of dtype= (float32). _is_all_true/_is_any_true take bool only
/// (another dtype trips an internal assert) and give a 0-dim bool.
void registerExportAsserts(Registry &r) {
  const char *fam = "misc.assert";
  const RuleFn nothing = [](const OpCall &c) -> RuleResult {
    if (c.has("self") && !c.isTensor("self"))
      if (auto v = c.arg("self").intValue(); v && *v == 0) // a known false scalar: the assert raises
        return c.error(ErrorKind::ValueDependent, "{}", c.arg("assert_msg").text().value_or("assertion failed"));
    return std::vector<Value>{};
  };
  const RuleFn token = [](const OpCall &c) -> RuleResult { return tensorOf(c.dtype("dep_token"), c.rank("dep_token")); };
  r.add("aten::_assert_scalar", fam, nothing).sample("self", "True").sample("assert_msg", "'m'")
      .variant({{"self", "0"}, {"assert_msg", "'m'"}});
  r.add("aten::_assert_async.msg", fam, nothing).sample("self", "sweep![]").sample("assert_msg", "'m'");
  r.add("aten::sym_constrain_range", fam, nothing).sample("size", "3").sample("min", "0").sample("max", "5");
  r.add("aten::sym_constrain_range_for_size", fam, nothing).sample("size", "3").sample("min", "0").sample("max", "5");
  r.add("aten::_print", fam, nothing).sample("s", "'x'");
  r.add("aten::_functional_assert_scalar", fam, token).sample("self", "True").sample("assert_msg", "'m'");
  r.add("aten::_functional_assert_async.msg", fam, token).sample("self", "bool[]").sample("assert_msg", "'m'");
  r.add("aten::_functional_sym_constrain_range", fam, token).sample("size", "3").sample("min", "0").sample("max", "5");
  r.add("aten::_functional_sym_constrain_range_for_size", fam, token).sample("size", "3").sample("min", "0")
      .sample("max", "5");
  r.add("aten::_make_dep_token", fam, [](const OpCall &c) -> RuleResult {
    return tensorOf(c.dtypeArg("dtype").value_or(DType::Float32), Rank::exact(0));
  }).sample("memory_format", "None");
  for (const char *k : {"aten::_is_all_true", "aten::_is_any_true"})
    r.add(k, fam, [](const OpCall &c) -> RuleResult {
      if (c.dtype("self") != DType::Bool) return c.semantic("self.scalar_type() == at::kBool INTERNAL ASSERT FAILED");
      return tensorOf(DType::Bool, Rank::exact(0));
    });
}

/// resize_, resize_as(_), requires_grad_, upsample_nearest2d_backward: self's dtype, a new rank.
void registerResizes(Registry &r) {
  for (const char *k : {"aten::resize_", "aten::resize_as_", "aten::resize_as_sparse_", "aten::set_",
                        "aten::sparse_resize_", "aten::sparse_resize_and_clear_", "aten::_resize_output_"})
    r.declare(k, OpFact::ReshapesSelfInPlace);
  // A channels_last memory format needs a 4-D result (channels_last_3d 5-D):
  // the new size's, or the template's (measured on 1.13 and 2.14.1).
  r.add("aten::resize_", "misc.resize", [](const OpCall &c) -> RuleResult {
     auto n = listLen(c.arg("size"));
     if (auto e = memoryFormatFits(c, n)) return *e;
     return tensorOf(c.dtype("self"), n ? Rank::exact(*n) : Rank::top());
   }).sample("size", "[2,3]")
      .variant({{"size", "[]"}})
      .variant({{"size", "[4]"}})
      .variant({{"size", "[2,3]"}, {"memory_format", "channels_last"}})
      .variant({{"size", "[1,2,1,2]"}, {"memory_format", "channels_last"}});

  // resize_as(_)(self, the_template): self's dtype, the template's rank.
  for (const char *k : {"aten::resize_as_", "aten::resize_as"})
    r.add(k, "misc.resize", [](const OpCall &c) -> RuleResult {
       if (auto e = memoryFormatFits(c, c.rank("the_template").value())) return *e;
       return tensorOf(c.dtype("self"), c.rank("the_template"));
     }).sample("the_template", "float32[2,3]").variant({{"the_template", "sweep"}})
        .variant({{"the_template", "float32[2,3]"}, {"memory_format", "channels_last"}})
        .variant({{"self", "float32[1,2,1,2]"}, {"the_template", "float32[2,3]"}, {"memory_format", "channels_last"}})
        .variant({{"the_template", "float32[1,2,1,2]"}, {"memory_format", "channels_last_3d"}})
        .variant({{"the_template", "sweep![1,2,1,2]"}, {"memory_format", "channels_last"}});
  // requires_grad_: only floating and complex tensors can require gradients.
  r.add("aten::requires_grad_", "misc.resize", [](const OpCall &c) -> RuleResult {
     DType d = c.dtype("self");
     if (c.arg("requires_grad").boolValue() == true && !isFloating(d) && !isComplex(d))
       return c.semantic("only Tensors of floating point and complex dtype can require gradients, got {}", name(d));
     return tensorOf(d, c.rank("self"));
   }).variant({{"requires_grad", "False"}});

  r.add("aten::upsample_nearest2d_backward", "misc.upsample_backward", [](const OpCall &c) -> RuleResult {
     Rank g = c.rank("grad_output");
     if (auto v = g.value(); v && *v != 4)
       return c.semantic("expected grad_output to be a tensor of dimension 4 but got: dimension {}", *v);
     return tensorOf(c.dtype("grad_output"), Rank::exact(4));
   }).sample("grad_output", "sweep[1,1,2,2]")
      .sample("output_size", "[2,2]")
      .sample("input_size", "[1,1,1,1]");
}

/// fake_quantize_per_tensor / per_channel_affine and their cachemask forms.
void registerFakeQuantize(Registry &r) {
  auto qsamples = [](Registry::Entry e) {
    e.sample("quant_min", "0").sample("quant_max", "255");
  };

  qsamples(r.add("aten::fake_quantize_per_tensor_affine", "misc.fake_quantize",
                 [](const OpCall &c) { return fqPerTensor(c, false); })
               .sample("scale", "0.1")
               .sample("zero_point", "0"));
  qsamples(r.add("aten::fake_quantize_per_tensor_affine_cachemask", "misc.fake_quantize",
                 [](const OpCall &c) { return fqPerTensor(c, true); })
               .sample("scale", "0.1")
               .sample("zero_point", "0"));
  qsamples(r.add("aten::fake_quantize_per_tensor_affine.tensor_qparams", "misc.fake_quantize",
                 [](const OpCall &c) { return fqPerTensor(c, false); })
               .sample("scale", "sweep[1]")
               .sample("zero_point", "sweep[1]"));
  qsamples(r.add("aten::_fake_quantize_per_tensor_affine_cachemask_tensor_qparams", "misc.fake_quantize",
                 [](const OpCall &c) { return fqPerTensor(c, true); })
               .sample("scale", "sweep[1]")
               .sample("zero_point", "sweep[1]")
               .sample("fake_quant_enabled", "sweep[1]"));
  for (auto [scope, perChannel] :
       {std::pair{r.since(TorchVersion::V1_13), &fqPerChannel<FqScale::Any>},
        std::pair{r.since(TorchVersion::V2_6), &fqPerChannel<FqScale::Float>},
        std::pair{r.since(TorchVersion::V2_14), &fqPerChannel<FqScale::FloatOrBFloat16>}}) {
    qsamples(scope.add("aten::fake_quantize_per_channel_affine", "misc.fake_quantize",
                       [perChannel = perChannel](const OpCall &c) { return perChannel(c, false); })
                 .sample("axis", "0")
                 .variant({{"self", "sweep![3,2]"}, {"axis", "1"}})
                 .variant({{"self", "float32[3,2]"}, {"axis", "-1"}})
                 .variant({{"self", "float32[3,2]"}, {"axis", "2"}}));
    qsamples(scope.add("aten::fake_quantize_per_channel_affine_cachemask", "misc.fake_quantize",
                       [perChannel = perChannel](const OpCall &c) { return perChannel(c, true); })
                 .sample("axis", "0")
                 .variant({{"self", "sweep![3,2]"}, {"axis", "1"}}));
  }
}

/// prims:: ops (2.x's table; registered from Python, so no conformance).
void registerPrims(Registry &r) {
  const char *prims = "prims ops are registered from Python; libtorch has no kernel";
  // prims::collapse (2.x's table): dims start..end become one; a's dtype.
  r.add("prims::collapse", "misc.prims", [](const OpCall &c) -> RuleResult {
     Rank rk = c.rank("a");
     auto s = c.arg("start").intValue(), e = c.arg("end").intValue();
     if (rk.value() && s && e && *s >= 0 && *e >= *s && *e < *rk.value())
       return tensorOf(c.dtype("a"), Rank::exact(*rk.value() - static_cast<int>(*e - *s)));
     return Value::tensor(c.dtype("a"), Rank::top());
   }).sample("a", "sweep![2,3]").sample("start", "0").sample("end", "1").skipConformance(prims);
  r.add("prims::iota", "misc.prims", [](const OpCall &c) -> RuleResult {
     DType d = *c.dtypeArg("dtype");
     if (!isIntegral(d)) return c.semantic("prims.iota only supports integer dtypes, got {}", name(d));
     return tensorOf(d, Rank::exact(1));
   }).sample("length", "3").sample("start", "0").sample("step", "1").sample("device", "cpu").sample("requires_grad", "False")
      .skipConformance(prims);
  r.add("prims::view_of", "misc.prims", [](const OpCall &c) -> RuleResult {
     return tensorOf(c.dtype("a"), c.rank("a"));
   }).skipConformance(prims);
  // prims::squeeze: its meta function asserts each dim named is 1; on CPU it
  // runs torch.squeeze per dim, which keeps a dim that is not 1 (measured,
  // 2.14: [1,3,1,2] with [1] stays 4-D). So the rank drops by the count only
  // where every dim named is known to be 1.
  r.add("prims::squeeze", "misc.prims", [](const OpCall &c) -> RuleResult {
     Rank a = c.rank("a");
     auto n = listLen(c.arg("dimensions"));
     if (n && *n == 0) return tensorOf(c.dtype("a"), a);
     if (n && a.value()) {
       if (*n > *a.value()) return c.semantic("cannot squeeze {} dimensions of a {}-d tensor", *n, *a.value());
       const UnitDims u = c.arg("a").unitDims();
       bool allOne = true;
       for (const Value &d : c.arg("dimensions").elements()) {
         auto i = d.intValue();
         allOne = allOne && i && *i >= 0 && *i < *a.value() && u.sizeIsOne(static_cast<int>(*i)) == true;
       }
       if (allOne) return tensorOf(c.dtype("a"), Rank::exact(*a.value() - *n));
     }
     return tensorOf(c.dtype("a"), Rank::top());
   }).skipConformance(prims);
  r.add("prims::sqrt", "misc.prims", [](const OpCall &c) -> RuleResult {
     DType s = c.dtype("self");
     if (isIntegral(s, true)) return Value::tensor(DTypeSet::join(s, DType::Float32), c.rank("self"));
     return tensorOf(s, c.rank("self"));
   }).skipConformance("1.13 CPU prims route through aten (integral -> float32); meta keeps the dtype");
  r.add("prims::split_dim", "misc.prims", [](const OpCall &c) -> RuleResult {
     Rank a = c.rank("a");
     if (isZeroDim(a)) return c.semantic("split_dim needs a tensor with at least one dimension");
     if (auto v = a.value()) return tensorOf(c.dtype("a"), Rank::exact(*v + 1));
     return tensorOf(c.dtype("a"), Rank::atLeast1());
   }).skipConformance(prims);
}

/// _conj, cummax/cummin, complex, frexp, igamma, fill_diagonal_, histc, histogram.
void registerMiscMath(Registry &r) {
  // _conj (what a traced conj() of a complex tensor records) exists only for
  // complex tensors: ATen asserts isComplexType on every device.
  r.add("aten::_conj", "misc.conj", [](const OpCall &c) -> RuleResult {
    if (!isComplex(c.dtype("self")))
      return c.semantic("self must be complex, got {}", name(c.dtype("self")));
    return tensorOf(c.dtype("self"), c.rank("self"));
  });
  // cummax / cummin: running values keep self's dtype, indices are int64;
  // no kernel for complex on any device (they order elements); a 0-dim
  // self is copied without one (measured: cummax(complex64 0-dim) works).
  // 1.13 and 2.6 take any dim of a 0-dim self; 2.14 wants -1 or 0, as every op:
  // the fact is withdrawn there (its rules did not change).
  for (const char *op : {"aten::cummax", "aten::cummin"}) {
    r.declare(op, OpFact::AnyDimOfZeroDim);
    r.since(TorchVersion::V2_14).withdraw(op, OpFact::AnyDimOfZeroDim);
  }
  for (const char *op : {"aten::cummax", "aten::cummin"})
    r.add(op, "misc.cumulative", keepingShape([](const OpCall &c) -> RuleResult { // values and indices
       if (isComplex(c.dtype("self")) && c.rank("self") != Rank::exact(0))
         return c.semantic("not implemented for complex self ({})", name(c.dtype("self")));
       Rank rk = c.rank("self");
       return std::vector<Value>{tensorOf(c.dtype("self"), rk), tensorOf(DType::Int64, rk)};
     })).sample("dim", "0");

  // complex(real, imag): both Half/Float/Double of one dtype (measured).
  r.add("aten::complex", "misc.polar", [](const OpCall &c) -> RuleResult {
     DType a = c.dtype("real"), b = c.dtype("imag");
     auto ok = [](DType d) { return d == DType::Float16 || d == DType::Float32 || d == DType::Float64; };
     if (!ok(a) || !ok(b))
       return c.semantic("expected both inputs to be half, float or double tensors but got {} and {}", name(a), name(b));
     if (a != b) return c.semantic("expected imag of dtype {}, got {}", name(a), name(b));
     return tensorOf(*c.toComplex(a), broadcastRank({c.rank("real"), c.rank("imag")}));
   });
  // frexp: floating self only; mantissa of self's dtype, int32 exponent.
  r.add("aten::frexp.Tensor", "misc.frexp", [](const OpCall &c) -> RuleResult {
    DType d = c.dtype("self");
    if (!isFloating(d)) return c.semantic("torch.frexp() only supports floating-point dtypes, got {}", name(d));
    Rank rk = c.rank("self");
    return std::vector<Value>{tensorOf(d, rk), tensorOf(DType::Int32, rk)};
  });
  // igamma/igammac compute in the promoted dtype: floating only (the
  // integral and complex kernels are missing).
  RuleFn igamma = [](const OpCall &c) -> RuleResult {
    DType p = promoteArgs(c, {"self", "other"});
    Rank rk = broadcastRank({c.rank("self"), c.rank("other")});
    if (!isFloating(p)) return c.missingKernel("no igamma kernel for {}", name(p));
    return tensorOf(p, rk);
  };
  for (const char *op : {"aten::igamma", "aten::igammac", "aten::special_gammainc", "aten::special_gammaincc"})
    r.add(op, "misc.igamma", igamma);
  for (const char *op : {"aten::igamma_", "aten::igammac_"})
    r.add(op, "misc.igamma", inPlace(igamma, {{"other"}}));
  // fill_diagonal_(self, fill_value, wrap): self's dtype; at least 2-D (all
  // dims equal beyond 2); the value must fit self's dtype (value-dependent).
  r.add("aten::fill_diagonal_", "misc.fill_diagonal", [](const OpCall &c) -> RuleResult {
     DType d = c.dtype("self");
     Rank rk = c.rank("self");
     if (auto n = rk.value(); n && *n < 2) return c.semantic("fill_diagonal_: dimensions must be larger than 1, got {}", *n);
     if (auto e = checkedConversion(c, "fill_value", d)) return *e;
     return tensorOf(d, rk);
   })
      .sample("self", "sweep![2,2]")
      .variant({{"self", "sweep![2,2,2]"}})
      .variant({{"self", "sweep![2,2]"}, {"fill_value", "magnitudes"}})
      .variant({{"self", "sweep![3]"}})
      .variant({{"self", "sweep![2,2]"}, {"wrap", "True"}});
  // histc: a 1-D histogram of self's dtype; floating only (integral, bool
  // and complex CPU kernels are missing; CUDA has integral ones).
  r.add("aten::histc", "misc.histc", [](const OpCall &c) -> RuleResult {
    DType d = c.dtype("self");
    for (const char *bound : {"min", "max"}) // converted to double before anything else
      if (auto e = checkedConversion(c, bound, DType::Float64)) return *e;
    auto lo = c.arg("min").floatValue(), hi = c.arg("max").floatValue();
    // (value-dependent) Equal bounds mean the data's own range; other bounds
    // must be finite (a NaN never equals) and are converted into self's dtype.
    const bool nanBound = (lo && std::isnan(*lo)) || (hi && std::isnan(*hi));
    if (nanBound || (lo && hi && *lo != *hi && (!std::isfinite(*lo) || !std::isfinite(*hi))))
      return c.error(ErrorKind::ValueDependent, "torch.histc: range of [{}, {}] is not finite", c.arg("min").str(),
                     c.arg("max").str());
    if (lo && hi && *lo != *hi && isFloating(d))
      for (const char *bound : {"min", "max"})
        if (auto e = checkedConversion(c, bound, d)) return *e;
    if (lo && hi && *lo > *hi) return c.semantic("torch.histc: max must be larger than min");
    if (!isFloating(d)) return c.missingKernel("no histc kernel for {}", name(d));
    return tensorOf(d, Rank::exact(1));
  }).variant({{"self", "sweep![3]"}, {"min", "-1"}, {"max", "magnitudes"}})
      .variant({{"self", "sweep![3]"}, {"min", "magnitudes"}, {"max", "magnitudes"}})
      .atLeast("bins", 1, "torch.histogram(): bins must be > 0");
  // histogram(self, bins, range, weight, density) -> (hist, bin_edges):
  // float32/float64 only; bins (a tensor) and weight of self's dtype; both
  // results 1-D of self's dtype (measured: tensor bins also take BFloat16).
  for (const char *k : {"aten::histogram.bin_ct", "aten::histogram.bins_tensor"})
    r.add(k, "misc.histc", [](const OpCall &c) -> RuleResult {
       DType d = c.dtype("self");
       bool binsTensor = c.arg("bins").isTensor();
       if (binsTensor && c.rank("bins").isExact() && c.rank("bins") != Rank::exact(1))
         return c.semantic("torch.histogram: the bins tensor must have one dimension");
       bool reduced = d == DType::BFloat16 || (d == DType::Float16 && !c.lacksCpuKernel(CpuKernel::HistogramBins, d));
       if (d != DType::Float32 && d != DType::Float64 && !(binsTensor && reduced))
         return c.semantic("torch.histogram: input tensor must be float32 or float64, got {}", name(d));
       for (const char *a : {"bins", "weight"})
         if (c.has(a) && c.arg(a).isTensor() && c.dtype(a) != d)
           return c.semantic("torch.histogram: {} ({}) must have the input's dtype ({})", a, name(c.dtype(a)), name(d));
       if (c.arg("weight").isTensor() && c.rank("weight").isExact() && c.rank("self").isExact() &&
           c.rank("weight") != c.rank("self"))
         return c.semantic("torch.histogram: the weight tensor must have the input's shape");
       return std::vector<Value>{tensorOf(d, Rank::exact(1)), tensorOf(d, Rank::exact(1))};
     }).sample("self", "sweep[5]").sample("weight", "None")
        .variant({{"self", "sweep![2,5]"}, {"weight", "None"}})
        .variant({{"self", "sweep![5]"}, {"weight", "sweep[5]"}});
}

/// trapezoid / trapz and their cumulative forms.
void registerTrapezoid(Registry &r) {
  // trapezoid rule over dim: integral inputs give float32, bool is refused;
  // the sum drops dim (cumulative_trapezoid keeps it). With x: y and x
  // promoted first.
  auto trapz = [](bool withX, bool cumulative) {
    return [=](const OpCall &c) -> RuleResult {
      DType d = c.dtype("y");
      if (withX) {
        if (d == DType::Bool || c.dtype("x") == DType::Bool)
          return c.semantic("received a bool input for `x` or `y`, but bool is not supported");
        d = c.promote(d, c.dtype("x"));
      } else if (d == DType::Bool) {
        return c.semantic("received a bool input for `y`, but bool is not supported");
      }
      // dx (trapezoid's Scalar) must be real: bool and complex raise.
      if (c.has("dx") && c.arg("dx").isNumber())
        if (auto k = c.arg("dx").numKind(); k == NumKind::Bool || k == NumKind::Complex)
          return c.semantic("currently, we only support dx as a real number");
      auto rk = c.rank("y").value();
      if (rk && *rk == 0) return c.semantic("dimension specified as -1 but tensor has no dimensions");
      if (auto d = c.arg("dim").intValue(); rk && d && (*d < -*rk || *d >= *rk))
        return c.semantic("dimension out of range (expected to be in range of [{}, {}], but got {})", -*rk, *rk - 1, *d);
      // A 1-D x is spread along dim; an x of more dims is differenced along
      // dim and broadcast with y (measured: y 1-D, x 2-D gives a 2-D cumulative).
      Rank full = c.rank("y");
      if (withX) {
        auto rx = c.rank("x").value();
        full = rx && *rx == 1 ? c.rank("y") : broadcastArgs(c, {"y", "x"});
      }
      auto rf = full.value();
      Rank out = cumulative ? full : (rf ? Rank::exact(std::max<int64_t>(*rf - 1, 0)) : Rank::top());
      return tensorOf(applyKind(PromotionKind::IntToFloat, d), out);
    };
  };
  // trapezoid returns zeros of y's sizes without dim, in y's dtype, before
  // any check when y's dim is empty (ATen's trapezoid; measured: y uint8 [3,0]
  // with x float32 [2,3,5] gives uint8 of rank 1, a bool y is accepted). Only
  // the size decides: a size not known to be nonzero (the dtype-only pass, a
  // symbol that may be 0) gives both answers joined, an error only possible.
  auto earlyForEmpty = [](RuleFn rule) {
    return [rule](const OpCall &c) -> RuleResult {
      auto ry = c.rank("y").value();
      auto dim = c.arg("dim").intValue();
      if (!ry || *ry == 0 || !dim || *dim < -*ry || *dim >= *ry) return rule(c);
      const Dim n = c.arg("y").dimAt(static_cast<int>(*dim < 0 ? *dim + *ry : *dim));
      if (n.range().lo > 0) return rule(c); // known nonzero
      Value early = tensorOf(c.dtype("y"), Rank::exact(*ry - 1));
      if (n.value() == 0) return early;
      RuleResult full = [&]() -> RuleResult {
        try {
          return rule(c);
        } catch (const PromotionError &e) { // raised by promotion (float8 with float32), as infer reports it
          return c.semantic("{}", e.what());
        }
      }();
      if (!full.ok()) return RuleResult(std::vector<Value>{early}, full.error());
      return Value::join(full.outputs()[0], early);
    };
  };
  r.add("aten::trapz.dx", "misc.trapezoid", earlyForEmpty(trapz(false, false))).sample("y", "sweep[3]")
      .variant({{"y", "sweep![3,0]"}});
  r.add("aten::trapz.x", "misc.trapezoid", earlyForEmpty(trapz(true, false))).sample("y", "sweep[3]").sample("x", "sweep![3]")
      .variant({{"y", "float32[2]"}, {"x", "float32[2,2]"}}).variant({{"y", "float32[3,4]"}, {"x", "float32[2,1,4]"}})
      .variant({{"y", "sweep![3,0]"}, {"x", "float32[3]"}}).variant({{"y", "float32[3,4]"}, {"x", "float32[5]"}})
      .variant({{"y", "float32[3,4]"}, {"x", "float32[3]"}, {"dim", "0"}}).variant({{"y", "float32[4,3]"}, {"x", "float32[2,3]"}, {"dim", "0"}});
  r.add("aten::trapezoid.x", "misc.trapezoid", earlyForEmpty(trapz(true, false))).sample("y", "sweep[3]").sample("x", "sweep![3]")
      .variant({{"y", "float32[2]"}, {"x", "sweep![2,2]"}, {"dim", "0"}}).variant({{"y", "sweep![2,2]"}, {"x", "float32[2,2,2]"}})
      .variant({{"y", "sweep![3,0]"}, {"x", "float32[2,3,5]"}}); // the early return for an empty dim
  r.add("aten::cumulative_trapezoid.x", "misc.trapezoid", trapz(true, true)).sample("y", "sweep[3]").sample("x", "sweep![3]")
      .variant({{"y", "float32[2]"}, {"x", "sweep![2,2]"}, {"dim", "0"}}).variant({{"y", "sweep![2,2]"}, {"x", "float32[2,2,2]"}})
      .variant({{"y", "sweep![3,0]"}, {"x", "float32[3,0]"}});
  r.add("aten::trapezoid.dx", "misc.trapezoid", earlyForEmpty(trapz(false, false))).sample("y", "sweep[3]").sample("dx", "1")
      .variant({{"dx", "sweep"}}).variant({{"y", "sweep![2,3]"}, {"dim", "-3"}}).variant({{"y", "sweep![3,0]"}});
  r.add("aten::cumulative_trapezoid.dx", "misc.trapezoid", trapz(false, true)).sample("y", "sweep[3]").sample("dx", "1")
      .variant({{"dx", "sweep"}}).variant({{"y", "sweep![3,0]"}});
}

} // namespace

void registerMiscCoverage(Registry &r) {
  registerExportAsserts(r);
  r.add("aten::polar", "misc.polar", polar);
  registerResizes(r);
  registerFakeQuantize(r);
  registerPrims(r);
  registerMiscMath(r);
  registerTrapezoid(r);
}

//===----------------------------------------------------------------------===//
// Shape rules (ops/shape_rules.h)
//===----------------------------------------------------------------------===//

namespace {

/// `d` with dim `at` one shorter (a slice [1:] or [:-1] along it: n - 1,
/// 0 when empty); nullopt when out of range.
std::optional<Dims> differenced(Dims d, size_t at) {
  if (at >= d.size()) return std::nullopt;
  d[at] = maxDim(d[at] - Dim(1), Dim(0));
  return d;
}

/// cumulative_trapezoid: (dx * (y[1:] + y[:-1]) / 2).cumsum(dim) along dim,
/// wrapped against y's rank; x (a 1-D one viewed along dim) is sliced along
/// the same (wrapped) dim and broadcast with y (ATen's
/// cumulative_trapezoid: x.slice(dim, 1) - x.slice(dim, 0, -1)).
ShapeResult cumulativeTrapezoidShape(const OpCall &c) {
  auto y = dimsOf(c, "y");
  if (!y) return {};
  auto dim = wrappedDimArg(c, "dim", y->size());
  auto out = dim ? differenced(*y, *dim) : std::nullopt;
  if (!out || !c.has("x")) return out ? ShapeResult(*out) : ShapeResult{};
  auto x = dimsOf(c, "x");
  if (!x) return {};
  if (x->size() == 1) { // viewed as [1, .., n (at dim), .., 1]
    Dims spread(y->size(), Dim(1));
    spread[*dim] = (*x)[0];
    x = spread;
  }
  auto dx = differenced(*x, *dim);
  if (!dx) return {};
  std::vector<Dims> both{*out, *dx};
  Broadcast b = broadcastShapes(both);
  return b.dims ? ShapeResult(*b.dims) : ShapeResult{};
}

} // namespace

/// prims:: sizes (checked against the prims run on CPU tensors by
/// python/tests, PrimsShapesTest: libtorch has no kernel of these); where the
/// CPU and the meta function disagree, the rank follows the dtype rule's
/// context (prims' reductions, reductions.cpp).
void registerPrimShapes(Registry &r) {
  for (const char *k : {"prims::view_of", "prims::convert_element_type"}) r.shape(k, sameShapeAs("a"));
  r.shape("prims::sqrt", sameShapeAs());
  r.shape("prims::iota", [](const OpCall &c) -> ShapeResult {
    Dim n = symIntArg(c, "length");
    if (!n.known() || n.value().value_or(0) < 0) return {};
    return Dims{n};
  });
  // collapse: dims start..end (end included) become their product.
  r.shape("prims::collapse", [](const OpCall &c) -> ShapeResult {
    auto a = dimsOf(c, "a");
    auto s = intArg(c, "start"), e = intArg(c, "end");
    if (!a || !s || !e || *s < 0 || *e < *s || *e >= static_cast<int64_t>(a->size())) return {};
    Dims out(a->begin(), a->begin() + *s);
    out.push_back(product(Dims(a->begin() + *s, a->begin() + *e + 1)));
    out.insert(out.end(), a->begin() + *e + 1, a->end());
    return out;
  });
  // squeeze: the dims named go (each must be 1; left unknown otherwise).
  r.shape("prims::squeeze", [](const OpCall &c) -> ShapeResult {
    auto a = dimsOf(c, "a");
    auto dims = intListArg(c, "dimensions");
    if (!a || !dims) return {};
    std::vector<bool> gone(a->size(), false);
    for (int64_t d : *dims) {
      if (d < 0 || d >= static_cast<int64_t>(a->size()) || gone[d] || (*a)[d].isOne() != true) return {};
      gone[d] = true;
    }
    Dims out;
    for (size_t i = 0; i < a->size(); ++i)
      if (!gone[i]) out.push_back((*a)[i]);
    return out;
  });
  // split_dim: dim of n becomes [outer_length, n / outer_length] (n must divide).
  r.shape("prims::split_dim", [](const OpCall &c) -> ShapeResult {
    auto a = dimsOf(c, "a");
    auto d = intArg(c, "dim");
    Dim outer = symIntArg(c, "outer_length");
    if (!a || !d || a->empty() || !outer.known()) return {};
    // No wrapping: prims take canonical dims (a negative one raises on meta, and on CPU slices wrongly).
    std::optional<int> w = *d >= 0 && *d < static_cast<int64_t>(a->size()) ? std::optional<int>(*d) : std::nullopt;
    if (!w || mod((*a)[*w], outer).value() != 0 || outer.value().value_or(1) <= 0) return {};
    Dim inner = floorDiv((*a)[*w], outer);
    if (!inner.known()) return {};
    Dims out(a->begin(), a->begin() + *w);
    out.push_back(outer);
    out.push_back(inner);
    out.insert(out.end(), a->begin() + *w + 1, a->end());
    return out;
  });
}

void registerMiscCoverageShapes(Registry &r) {
  registerPrimShapes(r);
  for (const char *k : {"aten::cumulative_trapezoid.dx", "aten::cumulative_trapezoid.x"})
    r.shape(k, cumulativeTrapezoidShape);
  r.shape("aten::fake_quantize_per_channel_affine", sameShapeAs());
  r.shape("aten::fake_quantize_per_channel_affine_cachemask", sameShapeAs("self", 2));
  r.shape("aten::fill_diagonal_", sameShapeAs());
  r.shape("aten::histc", [](const OpCall &c) -> ShapeResult {
    auto bins = intArg(c, "bins");
    if (!bins || *bins <= 0) return {};
    return Dims{Dim(*bins)};
  });
  // histogram: the counts and the bin edges, one more.
  r.shape("aten::histogram.bin_ct", [](const OpCall &c) -> ShapeResult {
    auto bins = intArg(c, "bins");
    if (!bins || *bins <= 0) return {};
    return std::vector<std::optional<Dims>>{Dims{Dim(*bins)}, Dims{Dim(*bins + 1)}};
  });
  r.shape("aten::histogram.bins_tensor", [](const OpCall &c) -> ShapeResult {
    auto edges = dimsOf(c, "bins");
    if (!edges || edges->size() != 1 || (*edges)[0].value().value_or(0) < 1) return {};
    return std::vector<std::optional<Dims>>{Dims{(*edges)[0] - Dim(1)}, *edges};
  });
  r.shape("aten::upsample_nearest2d_backward", [](const OpCall &c) -> ShapeResult {
    auto sizes = newTensorSizes(c, "input_size");
    if (!sizes || sizes->size() != 4) return {};
    return *sizes;
  });
}

// --- issue 35 (shapes-corpus): conj, complex/polar, frexp, igamma, trapezoid ---

namespace {

/// y without dim `dim` (a sum along it).
std::optional<Dims> withoutDim(Dims d, size_t at) {
  if (at >= d.size()) return std::nullopt;
  d.erase(d.begin() + static_cast<std::ptrdiff_t>(at));
  return d;
}

/// trapezoid(y, x, dim) (ATen's Integration.cpp): dim wraps against y; an
/// empty dim of y gives y without it at once; a 1-D x must have one value
/// per sample and is viewed along dim, an x of fewer dims gets leading 1s;
/// then (x[1:] - x[:-1]) * (y[1:] + y[:-1]) along that same dim index,
/// broadcast, summed over it.
ShapeResult trapezoidShape(const OpCall &c) {
  auto y = dimsOf(c, "y");
  if (!y || y->empty()) return {};
  auto dim = wrappedDimArg(c, "dim", y->size());
  if (!dim) return {};
  auto reduced = withoutDim(*y, *dim);
  if (!c.has("x")) return *reduced;
  auto x = dimsOf(c, "x");
  if (!x) return {};
  const Dim &n = (*y)[*dim];
  if (n.value() == 0) return *reduced;
  if (x->size() == 1) {
    DimsEqual eq = compareDims((*x)[0], n);
    if (eq == DimsEqual::Differ) return c.semantic("trapezoid: There must be one `x` value for each sample point");
    ShapeResult out(*reduced);
    if (eq == DimsEqual::MayDiffer)
      out.possibleError = c.semantic("trapezoid: There must be one `x` value for each sample point ({} == {})",
                                     (*x)[0].str(), n.str());
    return out;
  }
  if (n.range().lo < 1) return {}; // may be empty: the early return, or not
  if (x->size() < y->size()) x->insert(x->begin(), y->size() - x->size(), Dim(1));
  auto dx = differenced(*x, *dim), dy = differenced(*y, *dim);
  if (!dx || !dy) return {};
  std::vector<Dims> both{*dx, *dy};
  Broadcast b = broadcastShapes(both);
  if (b.mismatch) return c.semantic("{}", *b.mismatch);
  auto out = b.dims ? withoutDim(*b.dims, *dim) : std::nullopt;
  return out ? ShapeResult(*out) : ShapeResult{};
}

} // namespace

void registerMiscCorpusShapes(Registry &r) {
  r.shape("aten::_conj", sameShapeAs());
  r.shape("aten::complex", broadcastOf({"real", "imag"}));
  r.shape("aten::polar", broadcastOf({"abs", "angle"}));
  r.shape("aten::frexp.Tensor", sameShapeAs("self", 2));
  for (const char *k : {"aten::igamma", "aten::igammac", "aten::special_gammainc", "aten::special_gammaincc"})
    r.shape(k, broadcastOf({"self", "other"}));
  for (const char *k : {"aten::igamma_", "aten::igammac_"}) r.shape(k, inPlaceOf({"other"}));
  for (const char *k : {"aten::trapezoid.x", "aten::trapz.x", "aten::trapezoid.dx", "aten::trapz.dx"})
    r.shape(k, trapezoidShape);
}

} // namespace dtf
