#include "oracle_version.h"
#include "case_space.h"

#include "ops/infer.h"
#include "ops/notation.h"

#include <c10/core/ScalarType.h>
#include <cmath>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <torch/torch.h>

namespace dtf::oracle {
namespace {

using K = SchemaType::Kind;

c10::ScalarType toC10(DType d) { return static_cast<c10::ScalarType>(c10Code(d)); }

std::string pyDType(DType d) { return "torch." + std::string(name(d)); }

std::string shapeText(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

/// A tensor of `shape` filled with `fill`; built through float64 so every
/// dtype (complex32 included) can be made on CPU. Ours knows the shape,
/// as a rule would from a traced input's sizes.
Alternative tensorAlt(DType d, std::vector<int64_t> shape, double fill) {
  Alternative a;
  a.ours = Value::tensor(d, Rank::exact(static_cast<int>(shape.size()))).withShape(Dims(shape.begin(), shape.end()));
  a.notation = fmt::format("{}:r{}", name(d), shape.size());
  if (isQuantized(d)) { // a per-tensor quantized tensor (scale 0.1, zero point 0) of the float32 values
    a.make = [d, shape, fill]() -> c10::IValue {
      return at::quantize_per_tensor(torch::full(shape, fill, torch::kFloat32), 0.1, 0, toC10(d));
    };
    a.python = fmt::format("torch.quantize_per_tensor(torch.full({}, {}), 0.1, 0, {})", shapeText(shape), fill,
                           pyDType(d));
    return a;
  }
  a.make = [d, shape, fill]() -> c10::IValue {
    return torch::full(shape, fill, torch::kFloat64).to(toC10(d));
  };
  a.python = fmt::format("torch.full({}, {}, dtype=torch.float64).to({})", shapeText(shape), fill, pyDType(d));
  return a;
}

/// The dtypes a `sweep` covers for `rule`: the version's universe, and its
/// quantized dtypes for a rule that handles them (OpRule::anyCategory), so
/// no other rule's cases change.
DTypeSet sweptDTypes(const OpRule &rule) {
  const DTypeSystem &types = oracleSemantics().types();
  return rule.anyCategory ? DTypeSet::join(types.universe(), types.quantized()) : types.universe();
}

Alternative noneAlt() {
  return {Value::none(), [] { return c10::IValue(); }, "None", "None"};
}

std::vector<Alternative> numberSweep() {
  return {
      {Value::boolean(true), [] { return c10::IValue(true); }, "True", "True"},
      {Value::integer(2), [] { return c10::IValue(int64_t{2}); }, "2", "2"},
      {Value::floating(2.5), [] { return c10::IValue(2.5); }, "2.5", "2.5"},
      {Value::complexNumber(1.5, 0.5), [] { return c10::IValue(c10::complex<double>(1.5, 0.5)); },
       "1.5+0.5j", "(1.5+0.5j)"},
  };
}

/// Sample spec "magnitudes": numbers at the edges of the dtypes' ranges, for
/// rules that convert a Scalar into an element type (c10's checked
/// conversion raises beyond the type: 300 into uint8, 70000 into float16,
/// 3.395e38 into bfloat16 but not float32, NaN and -inf into any integer).
std::vector<Alternative> magnitudeSweep() {
  std::vector<Alternative> out;
  for (int64_t i : {int64_t{300}, int64_t{-256}, int64_t{70000}})
    out.push_back({Value::integer(i), [i] { return c10::IValue(i); }, std::to_string(i), std::to_string(i)});
  const std::pair<double, const char *> floats[] = {{255.5, "255.5"},  {-0.5, "-0.5"},
                                                    {1e39, "1e39"},     {3.395e38, "3.395e38"},
                                                    {std::nan(""), "nan"}, {-INFINITY, "-inf"}};
  for (const auto &[f, text] : floats) {
    const std::string py = std::isnan(f) ? "float('nan')" : std::isinf(f) ? "float('-inf')" : text;
    out.push_back({Value::floating(f), [f] { return c10::IValue(f); }, text, py});
  }
  return out;
}

std::vector<Alternative> dtypeSweep(bool optional, DTypeSet swept) {
  std::vector<Alternative> out;
  if (optional) out.push_back(noneAlt());
  for (DType d : swept)
    out.push_back({Value::dtypeCode(d), [d] { return c10::IValue(static_cast<int64_t>(c10Code(d))); },
                   std::string(name(d)), pyDType(d)});
  return out;
}

struct TensorSpec {
  bool sweep = false;
  bool includeRank0 = true;
  std::optional<DType> dtype;
  std::vector<int64_t> shape{2};
  double fill = 1;
};

/// `sweep`, `sweep[2,3]`, `sweep![2,3]`, `int64[2,3]`, `int64[2,3]=0`, `float32[]`.
std::optional<TensorSpec> parseTensorSpec(std::string_view s, std::string &err) {
  TensorSpec t;
  if (auto eq = s.rfind('='); eq != std::string_view::npos) {
    t.fill = std::stod(std::string(s.substr(eq + 1)));
    s = s.substr(0, eq);
  }
  size_t br = s.find('[');
  std::string_view head = s.substr(0, br);
  if (head == "sweep" || head == "sweep!") {
    t.sweep = true;
    t.includeRank0 = head == "sweep";
  } else if (auto d = parseDType(head)) {
    t.dtype = d;
  } else {
    err = fmt::format("bad tensor sample '{}'", s);
    return std::nullopt;
  }
  if (br != std::string_view::npos) {
    if (s.back() != ']') { err = fmt::format("bad shape in '{}'", s); return std::nullopt; }
    t.shape.clear();
    std::string_view body = s.substr(br + 1, s.size() - br - 2);
    while (!body.empty()) {
      size_t c = body.find(',');
      t.shape.push_back(std::stoll(std::string(body.substr(0, c))));
      if (c == std::string_view::npos) break;
      body.remove_prefix(c + 1);
    }
    if (head == "sweep!" || !t.sweep) t.includeRank0 = false;
  } else if (head == "sweep!") {
    err = fmt::format("'{}': sweep! needs a shape", s);
    return std::nullopt;
  }
  return t;
}

std::vector<Alternative> tensorAlternatives(const TensorSpec &t, DTypeSet swept) {
  std::vector<Alternative> out;
  if (!t.sweep) {
    out.push_back(tensorAlt(*t.dtype, t.shape, t.fill));
    return out;
  }
  for (DType d : swept) {
    if (t.includeRank0) out.push_back(tensorAlt(d, {}, t.fill));
    out.push_back(tensorAlt(d, t.shape, t.fill));
  }
  return out;
}

bool isGenericElem(const SchemaType *t) { return t && (t->kind == K::TypeVar || t->kind == K::Any); }

/// A known Python number as an IValue (nullopt: kind or value unknown).
std::optional<c10::IValue> numberIValue(const Value &x) {
  if (!x.isNumber() || !x.numKind() || !x.hasNumValue()) return std::nullopt;
  switch (*x.numKind()) {
  case NumKind::Bool: return c10::IValue(*x.boolValue());
  case NumKind::Int: return c10::IValue(*x.intValue());
  case NumKind::Float: return c10::IValue(*x.floatValue());
  case NumKind::Complex:
    return c10::IValue(c10::complex<double>(x.complexValue()->first, x.complexValue()->second));
  }
  return std::nullopt;
}

/// The TorchScript type of a known number or of a homogeneous, non-empty
/// (nested) list of them: int, List[float], List[List[bool]] ...; nullptr for
/// anything TorchScript could not type (mixed kinds or depths, empty lists).
c10::TypePtr numberListType(const Value &v) {
  if (v.isNumber()) {
    if (!v.numKind()) return nullptr;
    switch (*v.numKind()) {
    case NumKind::Bool: return c10::BoolType::get();
    case NumKind::Int: return c10::IntType::get();
    case NumKind::Float: return c10::FloatType::get();
    case NumKind::Complex: return c10::ComplexType::get();
    }
  }
  if (!v.isList() || !v.lengthKnown() || v.elements().empty()) return nullptr;
  c10::TypePtr elem = numberListType(v.elements()[0]);
  for (const Value &x : v.elements()) {
    c10::TypePtr t = numberListType(x);
    if (!elem || !t || *t != *elem) return nullptr;
  }
  return c10::ListType::create(elem);
}

/// A `t[]` argument built from a number list; its IValue carries the element
/// type (aten::tensor reads the leaf type and nesting depth from it).
std::optional<c10::IValue> genericListIValue(const Value &v) {
  c10::TypePtr type = numberListType(v);
  if (!type || !v.isList()) return std::nullopt;
  c10::TypePtr elemType = type->expectRef<c10::ListType>().getElementType();
  c10::impl::GenericList out(elemType);
  for (const Value &x : v.elements()) {
    auto e = x.isList() ? genericListIValue(x) : numberIValue(x);
    if (!e) return std::nullopt;
    out.push_back(std::move(*e));
  }
  return c10::IValue(std::move(out));
}

/// Turn a non-tensor Value into the IValue libtorch expects for `type`.
std::optional<c10::IValue> toIValue(const Value &v, const SchemaType &type) {
  if (v.isNone()) return c10::IValue();
  const SchemaType &t = type.kind == K::Optional ? *type.inner() : type;
  switch (t.kind) {
  case K::Int:
  case K::ScalarType:
  case K::Layout:
  case K::MemoryFormat:
    if (auto i = v.intValue()) return c10::IValue(*i);
    return std::nullopt;
  case K::Float:
    if (auto f = v.floatValue()) return c10::IValue(*f);
    return std::nullopt;
  case K::Bool:
    if (auto b = v.boolValue()) return c10::IValue(*b);
    return std::nullopt;
  case K::Complex:
    if (auto c = v.complexValue()) return c10::IValue(c10::complex<double>(c->first, c->second));
    return std::nullopt;
  case K::Number:
    if (v.numKind() == NumKind::Complex && v.complexValue())
      return c10::IValue(c10::complex<double>(v.complexValue()->first, v.complexValue()->second));
    if (auto b = v.boolValue()) return c10::IValue(*b);
    if (v.numKind() == NumKind::Int && v.intValue()) return c10::IValue(*v.intValue());
    if (auto f = v.floatValue()) return c10::IValue(*f);
    return std::nullopt;
  case K::Str:
    if (auto s = v.text()) return c10::IValue(*s);
    return std::nullopt;
  case K::Device:
    if (auto s = v.text()) return c10::IValue(c10::Device(*s));
    return std::nullopt;
  case K::List: {
    if (!v.lengthKnown()) return std::nullopt;
    const SchemaType &declared = *t.inner();
    if (isGenericElem(&declared)) return genericListIValue(v);
    // Scalar[] (`_foreach_pow.ScalarList`): a generic list of numbers, as
    // TorchScript passes it (a List<int> does not cast to List<Scalar>).
    K ek = declared.kind;
    if (ek == K::Number) {
      c10::impl::GenericList xs(c10::NumberType::get());
      for (const Value &x : v.elements()) {
        auto e = numberIValue(x);
        if (!e) return std::nullopt;
        xs.push_back(std::move(*e));
      }
      return c10::IValue(std::move(xs));
    }
    SchemaType e;
    e.kind = ek;
    if (e.kind == K::Int) {
      std::vector<int64_t> xs;
      for (const Value &x : v.elements()) {
        if (!x.intValue()) return std::nullopt;
        xs.push_back(*x.intValue());
      }
      return c10::IValue(xs);
    }
    if (e.kind == K::Float) {
      std::vector<double> xs;
      for (const Value &x : v.elements()) {
        if (!x.floatValue()) return std::nullopt;
        xs.push_back(*x.floatValue());
      }
      return c10::IValue(xs);
    }
    if (e.kind == K::Bool) {
      c10::List<bool> xs;
      for (const Value &x : v.elements()) {
        if (!x.boolValue()) return std::nullopt;
        xs.push_back(*x.boolValue());
      }
      return c10::IValue(xs);
    }
    if (e.kind == K::Str) {
      std::vector<std::string> xs;
      for (const Value &x : v.elements()) {
        if (!x.text()) return std::nullopt;
        xs.push_back(*x.text());
      }
      return c10::IValue(xs);
    }
    return std::nullopt;
  }
  default: return std::nullopt;
  }
}

/// A literal sample (`1`, `[0,1]`, `'floor'`, `None`) for a non-tensor argument.
std::optional<Alternative> literalAlt(std::string_view spec, const SchemaType &type, std::string &err) {
  auto v = parseNotation(spec, &type);
  if (!v.value) { err = v.error; return std::nullopt; }
  auto iv = toIValue(*v.value, type);
  if (!iv) { err = fmt::format("cannot build a libtorch value for '{}' ({})", spec, type.str()); return std::nullopt; }
  c10::IValue copy = *iv;
  std::string text(spec);
  return Alternative{*v.value, [copy] { return copy; }, text, text};
}

/// A list of tensors: `[spec, spec, ...]`, each element its own axis-product.
/// Returned as one axis whose alternatives are the product of elements.
std::optional<std::vector<Alternative>> tensorListAlts(std::string_view spec, bool optionalElems,
                                                       std::string &err, DTypeSet swept) {
  std::string_view body = spec;
  if (body.size() < 2 || body.front() != '[' || body.back() != ']') {
    err = fmt::format("tensor list sample must be [spec,...], got '{}'", spec);
    return std::nullopt;
  }
  body = body.substr(1, body.size() - 2);
  std::vector<std::vector<Alternative>> elems;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= body.size(); ++i) {
    if (i < body.size() && body[i] == '[') ++depth;
    else if (i < body.size() && body[i] == ']') --depth;
    else if (i == body.size() || (body[i] == ',' && depth == 0)) {
      std::string_view one = body.substr(start, i - start);
      start = i + 1;
      if (one.empty()) continue;
      if (one == "None") { elems.push_back({noneAlt()}); continue; }
      auto t = parseTensorSpec(one, err);
      if (!t) return std::nullopt;
      elems.push_back(tensorAlternatives(*t, swept));
    }
  }
  // Cartesian product of the elements.
  struct Partial {
    std::vector<Value> ours;
    std::vector<std::function<c10::IValue()>> makes;
    std::vector<std::string> notation, python;
  };
  std::vector<Partial> parts{Partial{}};
  for (const auto &alts : elems) {
    std::vector<Partial> next;
    for (const Partial &p : parts)
      for (const Alternative &a : alts) {
        Partial q = p;
        q.ours.push_back(a.ours);
        q.makes.push_back(a.make);
        q.notation.push_back(a.notation);
        q.python.push_back(a.python);
        next.push_back(std::move(q));
      }
    parts = std::move(next);
  }
  std::vector<Alternative> out;
  for (Partial &p : parts) {
    Alternative a;
    a.ours = Value::list(p.ours);
    auto makes = p.makes;
    a.make = [makes, optionalElems]() -> c10::IValue {
      if (optionalElems) {
        c10::List<c10::optional<at::Tensor>> l;
        for (auto &m : makes) {
          c10::IValue v = m();
          l.push_back(v.isNone() ? c10::optional<at::Tensor>() : c10::optional<at::Tensor>(v.toTensor()));
        }
        return c10::IValue(l);
      }
      std::vector<at::Tensor> l;
      for (auto &m : makes) l.push_back(m().toTensor());
      return c10::IValue(l);
    };
    a.notation = fmt::format("[{}]", fmt::join(p.notation, ","));
    a.python = fmt::format("[{}]", fmt::join(p.python, ", "));
    out.push_back(std::move(a));
  }
  return out;
}

/// The alternatives of a `t[]` argument: `sweep` (the default) is a list of
/// each Python number kind, flat and nested (TorchScript lists are
/// homogeneous), and every pair of swept tensors; otherwise one number list
/// literal (`[2,3]`, `[[1j],[2j]]`) or a tensor list spec (`[sweep]`).
std::optional<std::vector<Alternative>> genericListAlts(std::string_view spec, const SchemaType &type,
                                                        std::string &err, DTypeSet swept) {
  if (spec.empty() || spec == "sweep") {
    std::vector<Alternative> out;
    for (const char *lit : {"[True,False]", "[2,3]", "[2.5,3.5]", "[1.5+0.5j,2j]", "[[True],[False]]",
                            "[[2,3],[4,5]]", "[[2.5],[3.5]]", "[[1j],[2j]]"}) {
      auto a = literalAlt(lit, type, err);
      if (!a) return std::nullopt;
      out.push_back(std::move(*a));
    }
    auto tensors = tensorListAlts("[sweep,sweep]", false, err, swept);
    if (!tensors) return std::nullopt;
    for (auto &a : *tensors) out.push_back(std::move(a));
    return out;
  }
  std::string literalErr;
  if (auto a = literalAlt(spec, type, literalErr)) return std::vector<Alternative>{std::move(*a)};
  auto tensors = tensorListAlts(spec, false, err, swept);
  if (!tensors) err = fmt::format("'{}' is neither a number list ({}) nor a tensor list ({})", spec, literalErr, err);
  return tensors;
}

bool isPlainNumber(K k) { return k == K::Int || k == K::Float || k == K::Bool || k == K::Complex; }

std::vector<Alternative> plainNumberSamples(K k) {
  std::vector<Alternative> all = numberSweep();
  switch (k) {
  case K::Bool:
    return {all[0], {Value::boolean(false), [] { return c10::IValue(false); }, "False", "False"}};
  case K::Int: return {all[1]};
  case K::Float: return {all[2]};
  default: return {all[3]};
  }
}

} // namespace

size_t CaseSpace::size() const {
  size_t n = 1;
  for (const Axis &a : axes) n *= a.alternatives.size();
  return n;
}

CaseSpace buildCaseSpace(const OpRule &rule, const c10::FunctionSchema &torchSchema,
                         const std::map<std::string, std::string, std::less<>> &overrides) {
  CaseSpace space;
  const Schema &schema = *rule.schema;
  const DTypeSet swept = sweptDTypes(rule);
  for (size_t i = 0; i < schema.args.size(); ++i) {
    const SchemaArg &arg = schema.args[i];
    const SchemaType &type = *arg.type;
    std::string spec;
    if (auto it = overrides.find(arg.name); it != overrides.end()) spec = it->second;
    else if (auto it2 = rule.samples.args.find(arg.name); it2 != rule.samples.args.end()) spec = it2->second;
    Axis axis{arg.name, {}};
    std::string err;
    bool optional = type.kind == K::Optional;
    const SchemaType &base = optional ? *type.inner() : type;

    if (base.kind == K::Tensor) {
      if (spec.empty()) spec = "sweep";
      if (spec == "None") axis.alternatives.push_back(noneAlt());
      else {
        auto t = parseTensorSpec(spec, err);
        if (!t) { space.error = arg.name + ": " + err; return space; }
        if (optional && t->sweep) axis.alternatives.push_back(noneAlt());
        for (auto &a : tensorAlternatives(*t, swept)) axis.alternatives.push_back(std::move(a));
      }
    } else if (base.kind == K::List && base.inner() && base.inner()->isTensorLike()) {
      bool optElems = base.inner()->kind == K::Optional;
      if (spec.empty()) {
        if (optElems) { space.error = arg.name + ": Tensor?[] needs a sample"; return space; }
        spec = "[sweep,sweep]";
      }
      if (spec == "None") axis.alternatives.push_back(noneAlt());
      else {
        auto alts = tensorListAlts(spec, optElems, err, swept);
        if (!alts) { space.error = arg.name + ": " + err; return space; }
        axis.alternatives = std::move(*alts);
      }
    } else if (base.kind == K::List && isGenericElem(base.inner()) && spec != "None" &&
               (!spec.empty() || !arg.defaultText)) {
      auto alts = genericListAlts(spec, base, err, swept);
      if (!alts) { space.error = arg.name + ": " + err; return space; }
      if (optional && (spec.empty() || spec == "sweep")) axis.alternatives.push_back(noneAlt());
      for (auto &a : *alts) axis.alternatives.push_back(std::move(a));
    } else if (base.kind == K::Number && spec == "magnitudes") {
      axis.alternatives = magnitudeSweep();
    } else if ((base.kind == K::Number) && (spec.empty() || spec == "sweep")) {
      if (optional) axis.alternatives.push_back(noneAlt());
      for (auto &a : numberSweep()) axis.alternatives.push_back(std::move(a));
    } else if (base.kind == K::ScalarType && (spec.empty() || spec == "sweep")) {
      axis.alternatives = dtypeSweep(optional, swept);
    } else if (spec.empty() && !arg.defaultText && isPlainNumber(base.kind)) {
      // Python-number operands (aten::add.int ...): one value of each kind.
      axis.alternatives = plainNumberSamples(base.kind);
    } else if (!spec.empty()) {
      auto a = literalAlt(spec, type, err);
      if (!a) { space.error = arg.name + ": " + err; return space; }
      axis.alternatives.push_back(std::move(*a));
    } else {
      // Unspecified: libtorch's own default, and ours from the schema text.
      const auto &targ = torchSchema.arguments().at(i);
      if (targ.default_value()) {
        c10::IValue dv = *targ.default_value();
        axis.alternatives.push_back({defaultValue(arg), [dv] { return dv; }, "", ""});
      } else if (optional) {
        axis.alternatives.push_back(noneAlt());
      } else {
        space.error = fmt::format("argument '{}' ({}) has no default: declare a sample", arg.name, type.str());
        return space;
      }
    }
    space.axes.push_back(std::move(axis));
  }
  return space;
}

} // namespace dtf::oracle
