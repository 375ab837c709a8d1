//===- ops/families/conversions.cpp - to, type_as, _cast_*, view(dtype) ----===//
//
// A conversion gives exactly its target dtype (complex -> real is allowed and
// drops the imaginary part). view(dtype) reinterprets bytes: same rank, and a
// 0-dim tensor cannot change element size. view_as_real/complex move between
// complex and real pairs, changing the rank by one.
//
//===----------------------------------------------------------------------===//
#include "ops/registry.h"
#include "ops/shape_rules.h"
#include "ops/unit_dims.h"
#include "ops/vocabulary.h"

namespace dtf {
namespace {

RuleResult toDtype(const OpCall &c) { return tensorOf(*c.dtypeArg("dtype"), c.rank("self")); }

RuleResult toOptionalDtype(const OpCall &c) {
  return tensorOf(c.dtypeArg("dtype").value_or(c.dtype("self")), c.rank("self"));
}

/// TorchScript's prim `to` overloads with neither a device nor a dtype:
/// to_dispatch (register_prim_ops.cpp) returns self unless `copy`, and with
/// copy=True converts to `*dtype` of the empty optional. In 1.13 that is a
/// c10::optional, whose empty storage is a zeroed byte: a uint8 copy
/// (measured: `x.to(copy=True)` in TorchScript). From 2.x on it is a
/// std::optional, whose empty storage is never written: the code read is
/// whatever byte the stack held (the harness saw uint8, Bits4x2, and a code
/// past the last dtype that crashed libtorch 2.6 in
/// TypeMeta::error_unsupported_typemeta), so the dtype is unknown.
template <bool ZeroedEmptyOptional>
RuleResult toWithoutTarget(const OpCall &c) {
  DType self = c.dtype("self");
  std::optional<bool> copy = c.has("copy") ? c.arg("copy").boolValue() : std::optional<bool>(false);
  if (copy == false) return tensorOf(self, c.rank("self"));
  if (!ZeroedEmptyOptional) return Value::tensor(DTypeSet::all(), c.rank("self"));
  if (!copy) return Value::tensor(DTypeSet::join(self, DType::UInt8), c.rank("self"));
  return tensorOf(DType::UInt8, c.rank("self"));
}

/// to.prim_dtype / to.prim_Device take `int? dtype`: the lifting does not
/// enumerate it, so an unknown code gives an unknown dtype.
template <bool ZeroedEmptyOptional>
RuleResult toPrimDtype(const OpCall &c) {
  const Value &v = c.arg("dtype");
  if (v.isNone()) {
    if (!c.has("device") || c.isNone("device")) return toWithoutTarget<ZeroedEmptyOptional>(c);
    return tensorOf(c.dtype("self"), c.rank("self"));
  }
  if (auto code = v.intValue()) {
    if (auto d = fromC10Code(*code)) return tensorOf(*d, c.rank("self"));
    return Value::tensor(DTypeSet::all(), c.rank("self")); // e.g. a quantized code
  }
  return Value::tensor(DTypeSet::all(), c.rank("self"));
}

RuleResult toOther(const OpCall &c) { return tensorOf(c.dtype("other"), c.rank("self")); }

RuleFn castTo(DType d) {
  return [d](const OpCall &c) -> RuleResult { return tensorOf(d, c.rank("self")); };
}

RuleResult viewDtype(const OpCall &c) {
  DType s = c.dtype("self"), d = *c.dtypeArg("dtype");
  Rank r = c.rank("self");
  if (elementSize(s) != elementSize(d) && r == Rank::exact(0))
    return c.semantic("a 0-dim tensor cannot be viewed as {} from {} (different element sizes)", name(d), name(s));
  // A larger element size also needs a divisible last dim (shape-dependent).
  return tensorOf(d, r);
}

RuleResult viewAsReal(const OpCall &c) {
  DType s = c.dtype("self");
  if (!isComplex(s)) return c.semantic("view_as_real is only supported for complex tensors, got {}", name(s));
  Rank r = c.rank("self");
  Rank out = r.value() ? Rank::exact(*r.value() + 1) : Rank::atLeast1();
  return tensorOf(toRealValueType(s), out);
}

RuleResult viewAsComplex(const OpCall &c) {
  DType s = c.dtype("self");
  if (s != DType::Float16 && s != DType::Float32 && s != DType::Float64)
    return c.semantic("view_as_complex is only supported for half, float and double tensors, got {}", name(s));
  Rank r = c.rank("self");
  if (r == Rank::exact(0)) return c.semantic("view_as_complex needs an input with one or more dimensions");
  Rank out = r.value() ? Rank::exact(*r.value() - 1) : Rank::top();
  return tensorOf(*c.toComplex(s), out);
}

/// torch.autocast's casts (TensorConversions.cpp, 1.13), on a CPU tensor as
/// every rule assumes: to reduced precision turns a float32 self into
/// cpu_dtype when cpu_enabled and returns any other self as it is; to full
/// precision turns a float16 or bfloat16 self into float32 when cpu_enabled.
RuleResult autocastTo(const OpCall &c, bool reduced) {
  const DType self = c.dtype("self");
  const bool converts = reduced ? self == DType::Float32 : self == DType::Float16 || self == DType::BFloat16;
  const DType target = reduced ? *c.dtypeArg("cpu_dtype") : DType::Float32;
  const std::optional<bool> enabled = c.arg("cpu_enabled").boolValue();
  if (!converts || enabled == false) return tensorOf(self, c.rank("self"));
  if (!enabled) return Value::tensor(DTypeSet::join(self, target), c.rank("self"));
  return tensorOf(target, c.rank("self"));
}

/// The prim `to` overloads, once per kind of empty optional (toWithoutTarget).
/// A copy with neither device nor dtype is sampled only where its dtype is
/// defined: from 2.x on, libtorch reads an indeterminate code there, and a
/// code past the last dtype crashes the harness.
void registerPrimTo(Registry &r, const std::string &fam) {
  for (auto [scope, zeroed] : {std::pair{r.since(TorchVersion::V1_13), true}, std::pair{r.since(TorchVersion::V2_6), false}}) {
    auto dtype = scope.add("aten::to.prim_dtype", fam, keepingShape(zeroed ? toPrimDtype<true> : toPrimDtype<false>))
                     .sample("dtype", "6").variant({{"dtype", "None"}}).variant({{"dtype", "11"}})
                     .variant({{"dtype", "4"}, {"copy", "True"}});
    auto device = scope.add("aten::to.prim_Device", fam, keepingShape(zeroed ? toPrimDtype<true> : toPrimDtype<false>))
                      .sample("device", "None").sample("dtype", "4").variant({{"device", "cpu"}, {"dtype", "None"}})
                      .variant({{"device", "cpu"}, {"dtype", "None"}, {"copy", "True"}});
    auto other = scope.add("aten::to.prim_other", fam, keepingShape(zeroed ? toWithoutTarget<true> : toWithoutTarget<false>));
    if (!zeroed) continue;
    dtype.variant({{"dtype", "None"}, {"copy", "True"}});
    device.variant({{"device", "None"}, {"dtype", "None"}, {"copy", "True"}});
    other.variant({{"copy", "True"}});
  }
}

} // namespace

void registerConversions(Registry &r) {
  const std::string fam = "conversion";
  // memory_format=channels_last needs a 4-D self (channels_last_3d: 5-D).
  for (const char *k : {"aten::to", "aten::_to_copy", "aten::chalf"}) r.declare(k, OpFact::MemoryFormatKeepsShape);
  // What a mixed-precision audit reports as a cast (refine/audit.cpp).
  for (const char *k : {"aten::to", "aten::type_as", "aten::_to_copy", "aten::_autocast_to_reduced_precision",
                        "aten::_autocast_to_full_precision", "aten::to_dtype", "aten::_cast_Float", "aten::_cast_Half",
                        "aten::_cast_Double", "aten::_cast_Long", "aten::_cast_Int"})
    r.declare(k, OpFact::ConvertsDtype);
  r.add("aten::to.dtype", fam, keepingShape(toDtype));
  r.add("prims::convert_element_type", fam, [](const OpCall &c) -> RuleResult {
    return tensorOf(*c.dtypeArg("dtype"), c.rank("a"));
  }).skipConformance("prims ops are Python-only in libtorch 1.13");
  r.add("aten::to.device", fam, keepingShape(toDtype)).sample("device", "cpu");
  r.add("aten::to.dtype_layout", fam, keepingShape(toOptionalDtype));
  r.add("aten::_to_copy", fam, keepingShape(toOptionalDtype));
  r.add("aten::to.other", fam, keepingShape(toOther));
  r.add("aten::type_as", fam, keepingShape(toOther));
  registerPrimTo(r, fam);
  r.add("aten::cpu", fam, keepingShape(sameAs("self")));
  r.add("aten::data", fam, keepingShape(sameAs("self")));
  r.add("aten::chalf", fam, keepingShape(castTo(DType::Complex32)));
  r.add("aten::_cast_Byte", fam, keepingShape(castTo(DType::UInt8)));
  r.add("aten::_cast_Char", fam, keepingShape(castTo(DType::Int8)));
  r.add("aten::_cast_Short", fam, keepingShape(castTo(DType::Int16)));
  r.add("aten::_cast_Int", fam, keepingShape(castTo(DType::Int32)));
  r.add("aten::_cast_Long", fam, keepingShape(castTo(DType::Int64)));
  r.add("aten::_cast_Half", fam, keepingShape(castTo(DType::Float16)));
  r.add("aten::_cast_Float", fam, keepingShape(castTo(DType::Float32)));
  r.add("aten::_cast_Double", fam, keepingShape(castTo(DType::Float64)));
  r.add("aten::_autocast_to_reduced_precision", fam,
        keepingShape([](const OpCall &c) -> RuleResult { return autocastTo(c, true); }))
      .sample("cuda_enabled", "False").sample("cpu_enabled", "True").sample("cuda_dtype", "float16")
      .variant({{"cpu_enabled", "False"}}).variant({{"cuda_enabled", "True"}, {"cpu_dtype", "bfloat16"}});
  r.add("aten::_autocast_to_full_precision", fam,
        keepingShape([](const OpCall &c) -> RuleResult { return autocastTo(c, false); }))
      .sample("cuda_enabled", "False").sample("cpu_enabled", "True").variant({{"cpu_enabled", "False"}});
  r.add("aten::view.dtype", fam, viewDtype).sample("self", "sweep[2,16]").variant({{"self", "sweep![3,6]"}})
      .variant({{"self", "sweep![3,3]"}});
  r.add("aten::view_as_real", fam, viewAsReal).variant({{"self", "complex64[2,3]"}});
  r.add("aten::view_as_complex", fam, viewAsComplex).sample("self", "sweep[3,2]")
      .variant({{"self", "float32[3,3]"}}).variant({{"self", "float32[2]"}});
  // dequantize, quantize_*, int_repr: ops/families/quantized.cpp.
}

//===----------------------------------------------------------------------===//
// Shape rules (ops/shape_rules.h; issue 35, shapes-corpus)
//===----------------------------------------------------------------------===//

namespace {

/// view.dtype: the same sizes for the same element size; otherwise the last
/// dim scaled by the ratio of element sizes (a larger element needs a last
/// dim it divides: PyTorch raises otherwise).
ShapeResult viewDtypeShape(const OpCall &c) {
  auto self = dimsOf(c, "self");
  auto from = c.arg("self").dtype();
  auto to = c.dtypeArg("dtype");
  if (!self || !from || !to) return {};
  const int64_t a = elementSize(*from), b = elementSize(*to);
  if (a <= 0 || b <= 0) return {};
  if (a == b) return *self;
  if (self->empty()) return {}; // raises: the dtype rule's
  Dim &last = self->back();
  if (a > b) {
    if (a % b != 0) return {};
    last = last * Dim(a / b);
    return *self;
  }
  if (b % a != 0) return {};
  const int64_t ratio = b / a;
  if (auto n = last.value(); n && *n % ratio != 0)
    return c.semantic("self.size(-1) must be divisible by {} to view {} as {} (different element sizes), but got {}",
                      ratio, name(*from), name(*to), *n);
  Dim q = floorDiv(last, Dim(ratio));
  if (!last.value() && mod(last, Dim(ratio)).value() != 0) return {}; // a symbolic size not known divisible
  last = q;
  return *self;
}

/// view_as_complex: the last dim, which must be 2, goes.
ShapeResult viewAsComplexShape(const OpCall &c) {
  auto self = dimsOf(c, "self");
  if (!self || self->empty()) return {};
  DimsEqual two = compareDims(self->back(), Dim(2));
  if (two == DimsEqual::Differ) return c.semantic("Tensor must have a last dimension of size 2");
  ShapeResult out(Dims(self->begin(), self->end() - 1));
  if (two == DimsEqual::MayDiffer)
    out.possibleError = c.semantic("Tensor must have a last dimension of size 2 ({} == 2)", self->back().str());
  return out;
}

} // namespace

void registerConversionShapes(Registry &r) {
  r.shape("aten::view.dtype", viewDtypeShape);
  r.shape("aten::view_as_real", [](const OpCall &c) -> ShapeResult {
    auto self = dimsOf(c, "self");
    if (!self) return {};
    self->push_back(Dim(2));
    return *self;
  });
  r.shape("aten::view_as_complex", viewAsComplexShape);
}

} // namespace dtf
