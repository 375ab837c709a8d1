//===- frontends/pt2/program_builder.cpp - the program, its inputs, values ===//
#include "frontends/pt2/builder.h"
#include "frontends/pt2/serde_enums.h"
#include "ops/infer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace dtf::pt2 {
namespace {

using TK = ir::TypeExpr::Kind;

/// The IR type a schema type stands for (`int[]`, `Tensor?`, `Any` ...).
std::string irTypeText(const SchemaType &t) {
  using K = SchemaType::Kind;
  switch (t.kind) {
  case K::Tensor: return "Tensor";
  case K::Int: case K::ScalarType: case K::Layout: case K::MemoryFormat: return "int";
  case K::Float: return "float";
  case K::Bool: return "bool";
  case K::Complex: return "complex";
  case K::Number: return "Scalar";
  case K::Str: return "str";
  case K::Device: return "Device";
  case K::List: return t.inner() ? irTypeText(*t.inner()) + "[]" : "Any";
  case K::Optional: return t.inner() ? irTypeText(*t.inner()) + "?" : "Any";
  default: return "Any";
  }
}

std::string quoted(const std::string &s) {
  std::string q = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') q += '\\';
    q += c;
  }
  return q + "\"";
}

} // namespace

std::string_view name(InputKind k) {
  switch (k) {
  case InputKind::UserInput: return "user input";
  case InputKind::Parameter: return "parameter";
  case InputKind::Buffer: return "buffer";
  case InputKind::TensorConstant: return "tensor constant";
  case InputKind::CustomObj: return "custom object";
  case InputKind::Token: return "token";
  case InputKind::Constant: return "constant";
  }
  return "?";
}

std::string RecordedTensor::str() const {
  std::string dims;
  for (size_t i = 0; i < sizes.size(); ++i)
    dims += fmt::format("{}{}", i ? ", " : "", sizes[i] ? std::to_string(*sizes[i]) : "*");
  return fmt::format("{}({})", dtype ? std::string(ir::torchTypeName(*dtype)) : dtypeName, dims);
}

Builder::Builder(const SchemaTable &schemas, const DTypeSystem &types) : schemas_(schemas), dtypes_(types) {}

Program Builder::build(const Field &doc) {
  checkVersion(doc); // first: another major version may lay out every other field differently
  prog_.graph = std::make_unique<ir::Graph>();
  g_ = prog_.graph.get();
  prog_.schemaMajor = doc["schema_version"]["major"].integer();
  prog_.schemaMinor = doc["schema_version"]["minor"].integer();
  if (auto v = doc.optional("torch_version")) prog_.torchVersion = v->str();
  readRangeConstraints(doc);
  Field module = doc["graph_module"];
  Field graph = module["graph"];
  Scope top;
  top.graph = &graph;
  buildInputs(top, graph, module["signature"]);
  buildNodes(top, graph["nodes"], 0);
  Field outputs = graph["outputs"];
  for (Field o : outputs.items()) g_->body().returns.push_back(argument(top, o, nullptr, 0));
  prog_.recorded.resize(g_->values.size());
  return std::move(prog_);
}

void Builder::readRangeConstraints(const Field &doc) {
  auto rc = doc.optional("range_constraints");
  if (!rc || !rc->isObject()) return;
  for (auto [key, value] : rc->object()) {
    Field range = rc->member(key, value);
    SymRange r;
    auto bound = [&](std::string_view name, int64_t dflt) {
      auto f = range.optional(name);
      // null: unbounded; so is a bound past int64 (2.6 writes int64 max + 5 for `y[-5:]` of a Dim.AUTO)
      if (f && f->json().is_uint64() && !f->json().is_int64()) return SymRange::kInf;
      return f && f->isInteger() ? f->integer() : dflt;
    };
    r.lo = std::max<int64_t>(bound("min_val", 0), 0);
    r.hi = bound("max_val", SymRange::kInf);
    if (r.hi >= SymRange::kInf - 1) r.hi = SymRange::kInf; // torch writes int64 max - 1 for "no bound"
    symRanges_[std::string(key)] = r;
  }
}

Dim Builder::symbolicSize(const Field &expr) {
  auto text = expr.optional("expr_str");
  if (!text || !text->isString()) return Dim();
  std::string_view str = text->str();
  if (auto it = sizeExprs_.find(str); it != sizeExprs_.end()) return it->second;
  Dim d;
  try {
    d = Dim(parseSymExpr(str, [&](std::string_view name) {
      auto it = symRanges_.find(name);
      return it != symRanges_.end() ? it->second : SymRange{};
    }));
  } catch (const std::invalid_argument &) {
    // an expression form not read: the size stays unknown
  }
  return sizeExprs_.emplace(std::string(str), d).first->second;
}

void Builder::checkVersion(const Field &doc) {
  Field version = doc["schema_version"];
  int64_t major = version["major"].integer(), minor = version["minor"].integer();
  if (major != kSchemaMajor)
    version["major"].fail(fmt::format("schema version {}.{} is not supported: this reader knows version {}.x "
                                      "(torch 2.14 writes 8.20)",
                                      major, minor, kSchemaMajor));
}

void Builder::buildInputs(Scope &top, const Field &graph, const Field &signature) {
  Field inputs = graph["inputs"], specs = signature["input_specs"];
  if (specs.size() != inputs.size())
    specs.fail(fmt::format("{} input specs for {} graph inputs", specs.size(), inputs.size()));
  auto spec_ = specs.items().begin();
  size_t i = 0;
  for (auto arg_ = inputs.items().begin(); arg_ != inputs.items().end(); ++arg_, ++spec_, ++i) {
    Field arg = *arg_, spec = *spec_;
    std::string_view specKind = spec.unionTag();
    Field body = spec.unionValue();
    GraphInput in;
    auto expectName = [&](const Field &specArg) { // the spec names the graph input it describes
      Field argValue = arg.unionValue();
      if (argValue.isObject() && argValue.has("name") && argValue["name"].str() != specArg.str())
        specArg.fail(fmt::format("names '{}', but graph input {} is '{}'", specArg.str(), i, argValue["name"].str()));
    };
    if (specKind == "user_input") {
      in.kind = InputKind::UserInput;
    } else if (specKind == "parameter") {
      in.kind = InputKind::Parameter;
      in.target = body["parameter_name"].str();
      expectName(body["arg"]["name"]);
    } else if (specKind == "buffer") {
      in.kind = InputKind::Buffer;
      in.target = body["buffer_name"].str();
      expectName(body["arg"]["name"]);
    } else if (specKind == "tensor_constant") {
      in.kind = InputKind::TensorConstant;
      in.target = body["tensor_constant_name"].str();
      expectName(body["arg"]["name"]);
    } else if (specKind == "custom_obj") {
      in.kind = InputKind::CustomObj;
      in.target = body["custom_obj_name"].str();
    } else if (specKind == "token") {
      in.kind = InputKind::Token;
    } else if (specKind == "constant_input") {
      in.kind = InputKind::Constant;
      in.target = body["name"].str();
    } else {
      spec.fail(fmt::format("unknown input spec kind '{}'", specKind));
    }

    std::string_view tag = arg.unionTag();
    Field value = arg.unionValue();
    ir::ValueId v;
    if (in.kind == InputKind::Constant) {
      // A Python constant the export specialized on: data, not an input.
      v = argument(top, arg, nullptr, 0);
      Field nameField = body["name"];
      if (top.values.count(nameField.str())) nameField.fail(fmt::format("value '{}' is defined twice", nameField.str()));
      top.values.emplace(std::string(nameField.str()), v);
    } else {
      if (tag == "as_tensor") {
        Field n = value["name"];
        std::optional<Field> meta = metaOf(top, n.str());
        RecordedTensor r = tensorMeta(meta ? *meta : graph["tensor_values"][n.str()]); // the latter fails: no meta
        v = define(top, n, inputTensorType(r));
        prog_.recorded.resize(g_->values.size());
        prog_.recorded[v] = std::move(r);
      } else if (tag == "as_sym_int" || tag == "as_sym_bool" || tag == "as_sym_float") {
        if (value.unionTag() != "as_name") value.fail("a graph input must be named (as_name)");
        v = define(top, value.unionValue(), type(tag == "as_sym_int" ? "int" : tag == "as_sym_bool" ? "bool" : "float"));
      } else if (tag == "as_custom_obj") {
        v = define(top, value["name"], type("Any"));
      } else {
        arg.fail(fmt::format("unsupported graph input kind '{}'", tag));
      }
      g_->values[v].paramOf = 0;
      g_->body().params.push_back(v);
    }
    in.value = v;
    prog_.inputs.push_back(std::move(in));
  }
}

ir::ValueId Builder::define(Scope &scope, const Field &nameField, ir::TypePtr t) {
  std::string name(nameField.str());
  if (scope.values.count(name)) nameField.fail(fmt::format("value '{}' is defined twice", name));
  std::string irName = scope.prefix + name;
  if (!usedNames_.insert(irName).second) // a sub-graph inlined twice (while_loop's condition)
    for (int k = 1;; ++k)
      if (usedNames_.insert(fmt::format("{}.{}", scope.prefix + name, k)).second) {
        irName = fmt::format("{}.{}", scope.prefix + name, k);
        break;
      }
  ir::ValueId v = g_->addValue(std::move(irName), std::move(t));
  scope.values.emplace(name, v);
  return v;
}

ir::ValueId Builder::fresh(ir::TypePtr t) {
  std::string n;
  do n = std::to_string(nextTemp_++); // export names start with a letter or '_': no clash, but make sure
  while (!usedNames_.insert(n).second);
  return g_->addValue(std::move(n), std::move(t));
}

ir::ValueId Builder::lookup(const Scope &scope, const Field &nameField) const {
  auto it = scope.values.find(nameField.str());
  if (it == scope.values.end()) nameField.fail(fmt::format("use of undefined value '{}'", nameField.str()));
  return it->second;
}

std::optional<Field> Builder::metaOf(const Scope &scope, std::string_view name) {
  std::optional<Field> metas = scope.graph->optional("tensor_values");
  if (!metas) return std::nullopt;
  if (!scope.metas) {
    scope.metas.emplace();
    for (auto [key, value] : metas->object()) scope.metas->emplace(key, value); // the first of repeated keys
  }
  auto it = scope.metas->find(name);
  if (it == scope.metas->end()) return std::nullopt;
  return metas->member(it->first, it->second);
}

bool Builder::record(const Scope &scope, std::string_view name, ir::ValueId v) {
  std::optional<Field> meta = metaOf(scope, name);
  if (!meta) return false;
  RecordedTensor r = tensorMeta(*meta);
  if (prog_.recorded.size() < g_->values.size()) prog_.recorded.resize(g_->values.size());
  prog_.recorded[v] = std::move(r);
  return true;
}

RecordedTensor Builder::tensorMeta(const Field &meta) {
  RecordedTensor r;
  Field dtype = meta["dtype"];
  int64_t code = dtype.integer();
  auto torchName = serdeDTypeName(code);
  if (!torchName)
    dtype.fail(fmt::format("unknown dtype number {} (schema 8.x numbers dtypes 0-13 and 28-35)", code));
  r.dtypeName = std::string(*torchName);
  r.dtype = modelledDType(*torchName, dtypes_);
  // The device type ("cpu", "cuda", "meta"): which autocast could have cast it (refine/check_autocast.cpp).
  if (auto device = meta.optional("device"))
    if (auto type = device->optional("type"); type && type->isString()) r.device = type->str();
  Field sizes = meta["sizes"];
  if (sizes.size() > static_cast<size_t>(Rank::kMaxRank))
    sizes.fail(fmt::format("{} dims: more than the {} accepted", sizes.size(), Rank::kMaxRank));
  for (size_t i = 0; i < sizes.size(); ++i) {
    Field s = sizes.at(i);
    std::string_view tag = s.unionTag();
    if (tag == "as_int") {
      int64_t n = s.unionValue().integer();
      if (n < 0) s.unionValue().fail(fmt::format("negative size {}", n));
      r.sizes.emplace_back(n);
      r.dims.push_back(Dim(n));
    } else if (tag == "as_expr") {
      r.sizes.emplace_back(std::nullopt); // symbolic (a dynamic dim): never its hint
      r.dims.push_back(symbolicSize(s.unionValue()));
    } else {
      s.fail(fmt::format("unknown size kind '{}' (as_int or as_expr)", tag));
    }
  }
  return r;
}

ir::TypePtr Builder::inputTensorType(const RecordedTensor &r) {
  // TorchScript spells a dtype only by its c10 name; another one prints as `Tensor`.
  std::string text = r.dtype ? std::string(ir::torchTypeName(*r.dtype)) + "(" : "Tensor";
  bool symbolic = false;
  for (int d = 0; d < r.rank(); ++d) {
    const auto &s = r.sizes[d];
    symbolic = symbolic || !s;
    if (!r.dtype) continue;
    if (d) text += ", ";
    text += s ? std::to_string(*s) : "*";
  }
  if (r.dtype) text += ")";
  if (!symbolic && r.dtype)
    if (auto it = inputTypes_.find(text); it != inputTypes_.end()) return it->second;
  auto t = std::make_shared<ir::TypeExpr>();
  t->kind = TK::Tensor;
  t->dtype = r.dtype;
  t->rank = r.rank();
  t->dims = r.dims;
  for (int d = 0; d < r.rank() && d < 32; ++d)
    if (const auto &s = r.sizes[d]) (*s == 1 ? t->unitDims.ones : t->unitDims.others) |= uint32_t{1} << d;
  t->text = text;
  ir::finishType(*t);
  if (!symbolic && r.dtype) inputTypes_.emplace(std::move(text), t);
  return t;
}

ir::TypePtr Builder::type(std::string_view text) {
  auto it = types_.find(std::string(text));
  if (it != types_.end()) return it->second;
  if (text == "Tensor") return types_[std::string(text)] = ir::tensorType();
  auto t = std::make_shared<ir::TypeExpr>();
  t->text = std::string(text);
  if (text.ends_with("[]")) {
    t->kind = TK::List;
    t->elems.push_back(type(text.substr(0, text.size() - 2)));
  } else if (text.ends_with("?")) {
    t->kind = TK::Optional;
    t->elems.push_back(type(text.substr(0, text.size() - 1)));
  } else {
    t->kind = text == "int"        ? TK::Int
              : text == "float"    ? TK::Float
              : text == "bool"     ? TK::Bool
              : text == "complex"  ? TK::Complex
              : text == "Scalar"   ? TK::Number
              : text == "str"      ? TK::Str
              : text == "Device"   ? TK::Device
              : text == "NoneType" ? TK::None
                                   : TK::Other;
  }
  ir::finishType(*t);
  return types_[std::string(text)] = t;
}

ir::ValueId Builder::constant(ir::BlockId b, Value literal, ir::Attribute::LitKind kind, std::string text,
                              ir::TypePtr t) {
  ir::NodeId n = g_->addNode(b, "prim::Constant", {});
  g_->nodes[n].attrs.push_back({"value", std::move(text), kind, std::move(literal)});
  ir::ValueId v = fresh(std::move(t));
  g_->values[v].def = n;
  g_->nodes[n].outputs.push_back(v);
  return v;
}

ir::ValueId Builder::noneConstant(ir::BlockId b) { return unknownConstant(b, type("NoneType")); }

ir::ValueId Builder::intConstant(ir::BlockId b, int64_t i) {
  return constant(b, Value::integer(i), ir::Attribute::LitKind::Int, std::to_string(i), type("int"));
}

ir::ValueId Builder::boolConstant(ir::BlockId b, bool v) {
  // TorchScript writes bools as 0 / 1 typed bool.
  return constant(b, Value::integer(v), ir::Attribute::LitKind::Int, v ? "1" : "0", type("bool"));
}

ir::ValueId Builder::floatConstant(ir::BlockId b, double d) {
  std::string text = fmt::format("{}", d);
  if (text.find_first_of(".eEin") == std::string::npos) text += "."; // `2.`: a float, as TorchScript prints it
  return constant(b, Value::floating(d), ir::Attribute::LitKind::Float, std::move(text), type("float"));
}

ir::ValueId Builder::unknownConstant(ir::BlockId b, ir::TypePtr t) {
  // prim::Constant() without a value: None when typed NoneType, otherwise "some value of that type".
  ir::NodeId n = g_->addNode(b, "prim::Constant", {});
  ir::ValueId v = fresh(std::move(t));
  g_->values[v].def = n;
  g_->nodes[n].outputs.push_back(v);
  return v;
}

ir::ValueId Builder::defaultConstant(ir::BlockId b, const SchemaArg &arg) {
  Value v = defaultValue(arg);
  ir::TypePtr t = type(irTypeText(*arg.type));
  if (v.isNone()) return noneConstant(b);
  if (v.isNumber() && v.numKind() == NumKind::Bool && v.intValue()) return boolConstant(b, *v.intValue() != 0);
  if (v.isNumber() && v.numKind() == NumKind::Int && v.intValue()) return intConstant(b, *v.intValue());
  if (v.isNumber() && v.numKind() == NumKind::Float && v.floatValue()) return floatConstant(b, *v.floatValue());
  if (v.isString() && v.text()) return constant(b, v, ir::Attribute::LitKind::String, quoted(*v.text()), type("str"));
  if (v.isList() && v.lengthKnown()) {
    bool numbers = true;
    std::string text;
    for (const Value &e : v.elements()) {
      numbers = numbers && e.isNumber() && (e.intValue() || e.floatValue());
      if (numbers) text += fmt::format("{}{}", text.empty() ? "" : ", ", e.intValue() ? fmt::format("{}", *e.intValue()) : fmt::format("{}", *e.floatValue()));
    }
    if (numbers) return constant(b, v, ir::Attribute::LitKind::List, fmt::format("[{}]", text), t);
  }
  return unknownConstant(b, t); // a default dtypeflow cannot read: its type only
}

void Builder::note(refine::Severity s, std::string category, std::string message, ir::NodeId n) {
  refine::Diagnostic d;
  d.severity = s;
  d.category = std::move(category);
  d.message = std::move(message);
  d.node = n;
  prog_.diagnostics.push_back(std::move(d));
}

} // namespace dtf::pt2
