//===- ops/families/quantized.cpp - quantize, dequantize, int_repr, q_* ----===//
//
// The aten ops that make, read and unmake quantized tensors (qint8, quint8,
// qint32, quint4x2, quint2x4). Every rule here handles quantized operands
// (Registry::Entry::anyCategory): an unknown dtype may be quantized for them
// (DTypeSystem::candidatesWithQuantized). A bits or sub-byte shell (2.14's
// other `Other` dtypes) is not measured: unknown.
//
// Measured on 1.13 and 2.14.1 alike (scripts/probes/quantized.py; the
// conformance harness builds quantized operands with quantize_per_tensor):
//  - The dispatcher takes the QuantizedCPU kernel when any tensor argument is
//    quantized. quantize_* and _make_*_quantized_tensor have none ("Could not
//    run ... 'QuantizedCPU' backend"); int_repr, q_* and dequantize.tensors
//    have only it ("... 'CPU' backend" for plain tensors).
//  - quantize_per_tensor (and .tensor_qparams, .tensors, quantize_per_channel):
//    self float32 only ("Quantize only works on Float Tensor"), dtype a
//    quantized one ("ScalarType X is not supported in new_qtensor"); the
//    result has `dtype` and self's shape. Per channel: quint4x2/quint2x4 have
//    no kernel, 0 <= axis < self.dim() (no wrapping), scales floating and
//    1-D, zero_points (any plain dtype) 1-D. Qparams given as tensors take
//    any plain dtype (read with item(); .tensors indexes them: not 0-dim).
//  - quantize_per_tensor_dynamic: dtype qint8, quint8 or float16 (float16:
//    self.to(float16), any plain self); otherwise as quantize_per_tensor.
//  - dequantize.self / .tensor: float32 for every dtype, quantized or not.
//    .tensors / .list: float32 for each element when one of them is
//    quantized (the others are cast); raises when none is.
//  - int_repr: qint8 -> int8, quint8 -> uint8, qint32 -> int32; quint4x2 and
//    quint2x4 -> uint8 packed in one dimension.
//  - _make_per_tensor/channel_quantized_tensor: uint8 -> quint8, int8 ->
//    qint8, int32 -> qint32, others raise; per channel: scale floating and
//    1-D, zero_point 1-D, axis unchecked.
//  - q_scale -> float, q_zero_point / q_per_channel_axis -> int,
//    q_per_channel_scales -> float64 1-D, q_per_channel_zero_points -> int64
//    1-D, qscheme: of a quantized tensor only. Which scheme (per tensor or per
//    channel) a tensor has is not in its dtype: q_scale of a per-channel
//    tensor raises, so these may raise.
//
//===----------------------------------------------------------------------===//
#include "ops/infer.h"
#include "ops/may_raise.h"
#include "ops/registry.h"
#include "ops/unit_dims.h"
#include "ops/vocabulary.h"

#include <string_view>
#include <vector>

namespace dtf {
namespace {

/// A dtype outside c10's categories that is not quantized (bits, int1-7,
/// uint1-7): no rule here has measured one.
bool unmeasured(DType d) { return category(d) == Category::Other && !isQuantized(d); }

/// The tensors among these arguments (lists included, None skipped).
std::vector<Value> tensorsOf(const OpCall &c, std::initializer_list<std::string_view> names) {
  std::vector<Value> out;
  for (std::string_view n : names) {
    const Value &v = c.arg(n);
    if (v.isTensor()) out.push_back(v);
    for (const Value &e : v.elements())
      if (e.isTensor()) out.push_back(e);
  }
  return out;
}

/// Unknown results when one of these tensors has an unmeasured dtype.
bool anyUnmeasured(const std::vector<Value> &tensors) {
  for (const Value &t : tensors)
    if (auto d = t.dtype(); d && unmeasured(*d)) return true;
  return false;
}

bool anyQuantized(const std::vector<Value> &tensors) {
  for (const Value &t : tensors)
    if (auto d = t.dtype(); d && isQuantized(*d)) return true;
  return false;
}

/// The dispatcher's choice for an op with a CPU kernel only (`cpuOnly`) or
/// a QuantizedCPU kernel only: the error when the operands pick the other.
std::optional<RuleError> noKernelFor(const OpCall &c, const std::vector<Value> &tensors, bool cpuOnly) {
  const bool quantized = anyQuantized(tensors);
  if (cpuOnly && quantized)
    return c.semantic("Could not run '{}' with arguments from the 'QuantizedCPU' backend", c.schema().name);
  if (!cpuOnly && !quantized)
    return c.semantic("Could not run '{}' with arguments from the 'CPU' backend (needs a quantized tensor)",
                      c.schema().name);
  return std::nullopt;
}

/// What is decided before a kernel runs: unknown results for an unmeasured
/// dtype among these tensor arguments, else noKernelFor's error.
std::optional<RuleResult> beforeKernel(const OpCall &c, std::initializer_list<std::string_view> names, bool cpuOnly) {
  const auto tensors = tensorsOf(c, names);
  if (anyUnmeasured(tensors)) return RuleResult(unknownOutputs(c.schema()));
  if (auto e = noKernelFor(c, tensors, cpuOnly)) return RuleResult(*e);
  return std::nullopt;
}

std::optional<RuleError> floatSelf(const OpCall &c, DType d) {
  if (d != DType::Float32) return c.semantic("Quantize only works on Float Tensor, got {}", c10Name(d));
  return std::nullopt;
}

std::optional<RuleError> quantizedTarget(const OpCall &c, DType d) {
  if (!isQuantized(d)) return c.semantic("ScalarType {} is not supported in new_qtensor", c10Name(d));
  return std::nullopt;
}

/// A tensor argument that must be 1-D (a known other rank raises).
std::optional<RuleError> oneDim(const OpCall &c, std::string_view arg, std::string_view what) {
  auto r = c.rank(arg).value();
  if (r && *r != 1) return c.semantic("{} tensor must have dimension 1", what);
  return std::nullopt;
}

std::optional<RuleError> floatingScale(const OpCall &c, std::string_view arg) {
  if (!isFloating(c.dtype(arg))) return c.semantic("scale tensor must be floating point");
  return oneDim(c, arg, "scale");
}

/// quantize_per_tensor and .tensor_qparams: `dtype`, self's shape.
RuleResult quantizePerTensor(const OpCall &c) {
  if (auto r = beforeKernel(c, {"self", "scale", "zero_point"}, true)) return *r;
  const DType d = *c.dtypeArg("dtype");
  if (auto e = quantizedTarget(c, d)) return *e;
  if (auto e = floatSelf(c, c.dtype("self"))) return *e;
  return tensorOf(d, c.rank("self"));
}

/// quantize_per_tensor.tensors: each tensor as quantize_per_tensor; the
/// qparams are indexed per tensor (a 0-dim one raises).
RuleResult quantizeTensors(const OpCall &c) {
  const Value &list = c.arg("tensors");
  if (!list.isList()) return Value::listOf(Value::unknownTensor());
  if (auto r = beforeKernel(c, {"tensors", "scales", "zero_points"}, true)) return *r;
  const DType d = *c.dtypeArg("dtype");
  if (auto e = quantizedTarget(c, d)) return *e;
  for (const char *q : {"scales", "zero_points"})
    if (c.rank(q) == Rank::exact(0)) return c.semantic("select() cannot be applied to a 0-dim tensor");
  if (!list.lengthKnown()) { // every element float32, or not known to be
    const Value s = list.elementSummary();
    if (s.dtypes() != DTypeSet(DType::Float32)) return Value::listOf(Value::unknownTensor());
    return Value::listOf(Value::tensor(d, s.rank()));
  }
  std::vector<Value> out;
  for (const Value &t : list.elements()) {
    if (auto e = floatSelf(c, *t.dtype())) return *e;
    out.push_back(tensorOf(d, t.rank()).withUnitDims(t.unitDims()));
  }
  return Value::list(std::move(out));
}

/// quantize_per_tensor_dynamic: float16 is a plain cast.
RuleResult quantizeDynamic(const OpCall &c) {
  if (auto r = beforeKernel(c, {"self"}, true)) return *r;
  const DType d = *c.dtypeArg("dtype");
  if (d != DType::QInt8 && d != DType::QUInt8 && d != DType::Float16)
    return c.semantic("dtype {} not supported", c10Name(d));
  if (d == DType::Float16) return tensorOf(d, c.rank("self"));
  if (auto e = floatSelf(c, c.dtype("self"))) return *e;
  return tensorOf(d, c.rank("self"));
}

RuleResult quantizePerChannel(const OpCall &c) {
  if (auto r = beforeKernel(c, {"self", "scales", "zero_points"}, true)) return *r;
  const DType d = *c.dtypeArg("dtype");
  if (auto e = quantizedTarget(c, d)) return *e;
  if (d == DType::QUInt4x2 || d == DType::QUInt2x4)
    return c.semantic("\"quantize_tensor_per_channel_affine\" not implemented for '{}'", c10Name(d));
  if (auto e = floatSelf(c, c.dtype("self"))) return *e;
  if (auto e = floatingScale(c, "scales")) return *e;
  if (auto e = oneDim(c, "zero_points", "zero_points")) return *e;
  const Rank r = c.rank("self");
  const auto axis = c.arg("axis").intValue();
  if (r == Rank::exact(0) || (axis && *axis < 0) || (axis && r.value() && *axis >= *r.value()))
    return c.semantic("Channel axis out of range in per channel affine quantization");
  if (!axis || !r.value()) // an axis past an unknown rank raises
    return mayRaise({tensorOf(d, r)}, c.error(ErrorKind::ValueDependent, "the channel axis may be out of range"));
  return tensorOf(d, r);
}

/// uint8 -> quint8, int8 -> qint8, int32 -> qint32.
std::optional<DType> quantizedOf(DType d) {
  switch (d) {
  case DType::UInt8: return DType::QUInt8;
  case DType::Int8: return DType::QInt8;
  case DType::Int32: return DType::QInt32;
  default: return std::nullopt;
  }
}

RuleResult makeQuantized(const OpCall &c, bool perChannel) {
  if (auto r = perChannel ? beforeKernel(c, {"self", "scale", "zero_point"}, true) : beforeKernel(c, {"self"}, true))
    return *r;
  auto q = quantizedOf(c.dtype("self"));
  if (!q) return c.semantic("Creation of quantized tensor requires quantized dtype like torch.quint8, got {}",
                            name(c.dtype("self")));
  if (perChannel) {
    if (auto e = floatingScale(c, "scale")) return *e;
    if (auto e = oneDim(c, "zero_point", "zero_points")) return *e;
  }
  return tensorOf(*q, c.rank("self"));
}

/// dequantize.self / .tensor: float32 whatever the input.
RuleResult dequantizeOne(const OpCall &c, std::string_view arg) {
  if (anyUnmeasured(tensorsOf(c, {arg}))) return Value::tensor(DTypeSet::all(), c.rank(arg));
  return tensorOf(DType::Float32, c.rank(arg));
}

/// dequantize.tensors / .list: float32 each, when one element is quantized.
RuleResult dequantizeList(const OpCall &c) {
  const std::string_view arg = c.schema().args[0].name;
  const Value &l = c.arg(arg);
  const auto tensors = tensorsOf(c, {arg});
  if (!l.isList() || anyUnmeasured(tensors)) return Value::listOf(Value::unknownTensor());
  if (!l.lengthKnown()) { // the summary's dtypes: quantized ones or not
    const DTypeSet ds = l.elementSummary().dtypes();
    const Value each = Value::tensor(DType::Float32, l.elementSummary().rank());
    if (DTypeSet::meet(ds, c.types().quantized()).empty())
      return c.semantic("Could not run '{}' with arguments from the 'CPU' backend (needs a quantized tensor)",
                        c.schema().name);
    return mayRaise({Value::listOf(each)}, c.error(ErrorKind::ValueDependent, "raises when no element is quantized"));
  }
  if (auto e = noKernelFor(c, tensors, false)) return *e;
  std::vector<Value> out;
  for (const Value &e : l.elements()) out.push_back(tensorOf(DType::Float32, e.rank()).withUnitDims(e.unitDims()));
  return Value::list(std::move(out));
}

/// int_repr: the integer type under the quantized one; the sub-byte types
/// come packed into a 1-D uint8 tensor.
RuleResult intRepr(const OpCall &c) {
  if (auto before = beforeKernel(c, {"self"}, false)) return *before;
  const Rank r = c.rank("self");
  switch (c.dtype("self")) {
  case DType::QInt8: return tensorOf(DType::Int8, r).withUnitDims(c.arg("self").unitDims());
  case DType::QUInt8: return tensorOf(DType::UInt8, r).withUnitDims(c.arg("self").unitDims());
  case DType::QInt32: return tensorOf(DType::Int32, r).withUnitDims(c.arg("self").unitDims());
  default: return tensorOf(DType::UInt8, Rank::exact(1));
  }
}

/// An accessor of a quantized tensor's parameters: `result`, raising for a
/// plain tensor, and maybe for a quantized one of the other scheme.
RuleFn quantizerParam(Value result, bool perChannel) {
  return [result, perChannel](const OpCall &c) -> RuleResult {
    if (auto r = beforeKernel(c, {"self"}, false)) return *r;
    return mayRaise({result}, c.error(ErrorKind::ValueDependent, "Expected quantizer->qscheme() == {} (the scheme "
                                                                 "is not in the dtype)",
                                      perChannel ? "kPerChannelAffine" : "kPerTensorAffine"));
  };
}

void registerQuantize(Registry &r, const char *fam) {
  // Scalar qparams as 1-element tensors: item() reads one element.
  r.add("aten::quantize_per_tensor", fam, keepingShape(quantizePerTensor)).anyCategory()
      .sample("scale", "0.1").sample("zero_point", "0");
  r.add("aten::quantize_per_tensor.tensor_qparams", fam, keepingShape(quantizePerTensor)).anyCategory()
      .sample("scale", "sweep![1]").sample("zero_point", "sweep![1]").sample("dtype", "quint8")
      .variant({{"self", "float32[2,3]"}, {"scale", "float32[1]"}, {"zero_point", "int64[1]=0"}, {"dtype", "sweep"}});
  r.add("aten::quantize_per_tensor.tensors", fam, quantizeTensors).anyCategory()
      .sample("tensors", "[sweep,float32[2]]").sample("scales", "float32[2]").sample("zero_points", "int64[2]=0")
      .sample("dtype", "quint8")
      .variant({{"tensors", "[float32[2]]"}, {"scales", "sweep[2]"}, {"zero_points", "sweep[2]"}})
      .variant({{"tensors", "[float32[2,3]]"}, {"dtype", "sweep"}});
  r.add("aten::quantize_per_tensor_dynamic", fam, keepingShape(quantizeDynamic)).anyCategory()
      .sample("reduce_range", "False").sample("dtype", "qint8")
      .variant({{"self", "float32[2,3]"}, {"dtype", "sweep"}})
      .variant({{"dtype", "float16"}});
  r.add("aten::quantize_per_channel", fam, keepingShape(quantizePerChannel)).anyCategory()
      .sample("scales", "float32[2]").sample("zero_points", "int64[2]=0").sample("axis", "0").sample("dtype", "quint8")
      .variant({{"self", "float32[2,3]"}, {"dtype", "sweep"}})
      .variant({{"self", "float32[2,3]"}, {"scales", "sweep![2]"}, {"zero_points", "sweep![2]"}})
      .variant({{"self", "float32[3,2]"}, {"axis", "1"}})
      .variant({{"self", "float32[2,3]"}, {"axis", "2"}})
      .variant({{"self", "float32[3,2]"}, {"axis", "-1"}})
      .variant({{"self", "float32[2,3]"}, {"scales", "float32[]"}})
      .variant({{"self", "float32[2,3]"}, {"zero_points", "int64[2,1]=0"}});
  r.add("aten::_make_per_tensor_quantized_tensor", fam, keepingShape([](const OpCall &c) {
          return makeQuantized(c, false);
        })).anyCategory().sample("scale", "0.1").sample("zero_point", "0");
  r.add("aten::_make_per_channel_quantized_tensor", fam, keepingShape([](const OpCall &c) {
          return makeQuantized(c, true);
        })).anyCategory()
      .sample("scale", "float64[2]").sample("zero_point", "int64[2]=0").sample("axis", "0")
      .variant({{"self", "uint8[2,3]"}, {"scale", "sweep![2]"}, {"zero_point", "sweep![2]"}})
      .variant({{"self", "uint8[2,3]"}, {"scale", "float64[]"}})
      .variant({{"self", "uint8[2,3]"}, {"zero_point", "int64[]=0"}})
      .variant({{"self", "uint8[2,3]"}, {"axis", "-1"}});
}

void registerDequantize(Registry &r, const char *fam) {
  r.add("aten::dequantize.self", fam, keepingShape([](const OpCall &c) { return dequantizeOne(c, "self"); }))
      .anyCategory();
  r.add("aten::dequantize.tensor", fam,
        keepingShape([](const OpCall &c) { return dequantizeOne(c, "qtensor"); }, "qtensor"))
      .anyCategory();
  r.add("aten::dequantize.tensors", fam, dequantizeList).anyCategory()
      .variant({{"tensors", "[sweep]"}});
  r.add("aten::dequantize.list", fam, dequantizeList).anyCategory()
      .variant({{"qtensors", "[sweep]"}});
  r.add("aten::int_repr", fam, intRepr).anyCategory().variant({{"self", "sweep[2,3]"}});
  r.add("aten::q_scale", fam, quantizerParam(Value::number(NumKind::Float), false)).anyCategory();
  r.add("aten::q_zero_point", fam, quantizerParam(Value::number(NumKind::Int), false)).anyCategory();
  r.add("aten::q_per_channel_scales", fam, quantizerParam(tensorOf(DType::Float64, Rank::exact(1)), true))
      .anyCategory();
  r.add("aten::q_per_channel_zero_points", fam, quantizerParam(tensorOf(DType::Int64, Rank::exact(1)), true))
      .anyCategory();
  r.add("aten::q_per_channel_axis", fam, quantizerParam(Value::number(NumKind::Int), true)).anyCategory();
  r.add("aten::qscheme", fam, [](const OpCall &c) -> RuleResult { // every quantized tensor has one
     if (auto r = beforeKernel(c, {"self"}, false)) return *r;
     return unknownOutputs(c.schema());
   }).anyCategory();
}

} // namespace

void registerQuantized(Registry &r) {
  const char *fam = "quantized";
  registerQuantize(r, fam);
  registerDequantize(r, fam);
}

} // namespace dtf
