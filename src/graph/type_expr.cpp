#include "graph/type_expr.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <utility>

namespace dtf::ir {
namespace {

Value unknownDevice() { return Value::join(Value::device("a"), Value::device("b")); }

} // namespace

// TorchScript prints a tensor type by its dtype's c10 name (Float, Half,
// Float8_e5m2 ...): dtypes.def's, for every dtype of every version.
std::string_view torchTypeName(DType d) { return c10Name(d); }

std::optional<DType> dtypeFromTorchTypeName(std::string_view name) {
  // By binary search: the IR parser asks once per typed value (a linear scan
  // of the names was ~800 instructions a node on a 10^6-node graph).
  static const auto byName = [] {
    std::array<std::pair<std::string_view, DType>, kNumDTypes> out;
    for (size_t i = 0; i < kNumDTypes; ++i) out[i] = {c10Name(kAllDTypes[i]), kAllDTypes[i]};
    std::sort(out.begin(), out.end());
    return out;
  }();
  auto it = std::lower_bound(byName.begin(), byName.end(), name,
                             [](const std::pair<std::string_view, DType> &e, std::string_view n) { return e.first < n; });
  if (it == byName.end() || it->first != name) return std::nullopt;
  return it->second;
}

TypePtr tensorType() {
  static const TypePtr t = [] {
    auto e = std::make_shared<TypeExpr>();
    e->kind = TypeExpr::Kind::Tensor;
    e->text = "Tensor";
    finishType(*e);
    return e;
  }();
  return t;
}

namespace {
Value computeValueOfType(const TypeExpr &t, bool withTensorDetails);
} // namespace

Value valueOfType(const TypeExpr &t, bool withTensorDetails) {
  const std::optional<Value> &kept = withTensorDetails ? t.inputValue : t.coarseValue;
  return kept ? *kept : computeValueOfType(t, withTensorDetails);
}

void finishType(TypeExpr &t) {
  t.inputValue = computeValueOfType(t, true);
  t.coarseValue = computeValueOfType(t, false);
}

namespace {
Value computeValueOfType(const TypeExpr &t, bool withTensorDetails) {
  using K = TypeExpr::Kind;
  switch (t.kind) {
  case K::Tensor: {
    if (!withTensorDetails) return Value::unknownTensor();
    DTypeSet d = t.dtype ? DTypeSet(*t.dtype) : DTypeSet::all();
    Rank r = t.rank ? Rank::exact(*t.rank) : Rank::top();
    Value v = Value::tensor(d, r).withUnitDims(t.unitDims);
    if (t.rank && t.dims.size() == static_cast<size_t>(*t.rank)) v = v.withShape(t.dims);
    return v;
  }
  case K::Int: return Value::number(NumKind::Int);
  case K::Float: return Value::number(NumKind::Float);
  case K::Bool: return Value::number(NumKind::Bool);
  case K::Complex: return Value::number(NumKind::Complex);
  case K::Number: return Value::number(NumKinds::all());
  case K::Str: return Value::unknownString();
  case K::Device: return unknownDevice();
  case K::None: return Value::none();
  case K::List:
    return Value::listOf(t.elems.empty() ? Value::top() : valueOfType(*t.elems[0], withTensorDetails));
  case K::Tuple: {
    std::vector<Value> elems;
    for (const TypePtr &e : t.elems) elems.push_back(valueOfType(*e, withTensorDetails));
    return Value::tuple(std::move(elems));
  }
  default: return Value::top();
  }
}
} // namespace

namespace {
/// annotatedTypeText into `out` (no string per piece: it runs per value of a 10^6-node annotate).
void appendAnnotatedTypeText(std::string &out, const TypeExpr &written, const Value &v) {
  using K = TypeExpr::Kind;
  if (written.kind == K::Tensor) {
    // parseIR needs sizes to accept a dtype: `Float(*, *)`, `Long()` for 0-dim.
    auto d = v.isTensor() ? v.dtype() : std::nullopt;
    auto r = v.isTensor() ? v.rank().value() : std::nullopt;
    if (!d || !r) {
      out += "Tensor";
      return;
    }
    // Known sizes as torch prints them (`Float(2, *, 224)`); a symbolic or
    // unknown size as `*` (the JSON report and explain give expressions).
    out += torchTypeName(*d);
    out += '(';
    for (int i = 0; i < *r; ++i) {
      if (i) out += ", ";
      if (auto n = v.dimAt(i).value()) {
        char digits[24];
        out.append(digits, std::to_chars(digits, digits + sizeof digits, *n).ptr);
      } else {
        out += '*';
      }
    }
    out += ')';
    return;
  }
  if (written.kind == K::Tuple && v.isTuple() && v.lengthKnown() &&
      v.elements().size() == written.elems.size()) {
    out += '(';
    for (size_t i = 0; i < written.elems.size(); ++i) {
      if (i) out += ", ";
      appendAnnotatedTypeText(out, *written.elems[i], v.elements()[i]);
    }
    out += ')';
    return;
  }
  out += written.text;
}
} // namespace

std::string annotatedTypeText(const TypeExpr &written, const Value &v) {
  std::string s;
  appendAnnotatedTypeText(s, written, v);
  return s;
}

} // namespace dtf::ir
