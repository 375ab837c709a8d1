//===- frontends/pt2/node_builder.cpp - op nodes and their arguments -------===//
//
// `torch.ops.aten.add.Tensor` with named arguments becomes an aten::add node
// pinned to `Tensor`, its inputs in the schema's order: the archive leaves
// out arguments at their defaults, so a gap before a given argument is filled
// with the default's constant, and trailing ones are left to the refinement.
// An argument the schema table's declaration does not have (an op changed
// since the table's torch version), a missing required one or a result count
// that differs makes the node unmapped: a diagnostic, unknown results.
//
//===----------------------------------------------------------------------===//
#include "frontends/pt2/builder.h"
#include "frontends/pt2/serde_enums.h"

#include <fmt/format.h>

namespace dtf::pt2 {
namespace {

using LK = ir::Attribute::LitKind;

/// The schema type a value is read against, past `?`.
const SchemaType *unwrapOptional(const SchemaType *t) {
  return t && t->kind == SchemaType::Kind::Optional && t->inner() ? t->inner() : t;
}

bool wantsFloat(const SchemaType *t) {
  t = unwrapOptional(t);
  if (t && t->kind == SchemaType::Kind::List) t = unwrapOptional(t->inner());
  return t && t->kind == SchemaType::Kind::Float;
}

std::string floatText(double d) {
  std::string s = fmt::format("{}", d);
  if (s.find_first_of(".eEin") == std::string::npos) s += ".";
  return s;
}

/// Python-level operations on SymInts/SymFloats/SymBools and the TorchScript
/// op that computes the same (its overload chosen by the int/float/bool operands).
struct SymOp {
  std::string_view target, op;
};
constexpr SymOp kSymOps[] = {
    {"_operator.add", "aten::add"},        {"_operator.sub", "aten::sub"},
    {"_operator.mul", "aten::mul"},        {"_operator.floordiv", "aten::floordiv"},
    {"_operator.truediv", "aten::div"},    {"_operator.mod", "aten::remainder"},
    {"_operator.pow", "aten::pow"},        {"_operator.neg", "aten::neg"},
    {"_operator.eq", "aten::eq"},          {"_operator.ne", "aten::ne"},
    {"_operator.lt", "aten::lt"},          {"_operator.le", "aten::le"},
    {"_operator.gt", "aten::gt"},          {"_operator.ge", "aten::ge"},
    {"_operator.and_", "aten::__and__"},   {"_operator.or_", "aten::__or__"},
    {"_operator.lshift", "aten::__lshift__"}, {"_operator.rshift", "aten::__rshift__"},
    {"torch.sym_max", "prim::max"},        {"torch.sym_min", "prim::min"},
    {"torch.sym_int", "aten::Int"},        {"math.trunc", "aten::Int"},
    {"torch.sym_float", "aten::Float"},    {"torch.sym_not", "aten::__not__"},
    {"torch.sym_sqrt", "aten::sqrt"},      {"torch._sym_sqrt", "aten::sqrt"},
};

} // namespace

void Builder::buildNodes(Scope &scope, const Field &nodes, ir::BlockId b) {
  for (Field node : nodes.items()) buildNode(scope, node, b);
}

void Builder::buildNode(Scope &scope, const Field &node, ir::BlockId b) {
  const std::string target(node["target"].str());
  if (target.starts_with("torch.ops.higher_order.")) {
    if (!buildHigherOrder(scope, node, b, target))
      buildUnmapped(scope, node, b, target,
                    fmt::format("{}: a higher-order op the reader does not model (it knows cond, while_loop, "
                                "map_impl, wrap_with_autocast); results unknown",
                                target));
    return;
  }
  if (target.starts_with("torch.ops.")) return buildOp(scope, node, b, target);
  if (buildSymOp(scope, node, b, target)) return;
  buildUnmapped(scope, node, b, target, fmt::format("{}: not an operator the reader knows; results unknown", target));
}

void Builder::buildOp(Scope &scope, const Field &node, ir::BlockId b, const std::string &target) {
  // torch.ops.NAMESPACE.OP.OVERLOAD; `default` is the unnamed overload.
  std::string_view rest = std::string_view(target).substr(10);
  size_t dot1 = rest.find('.'), dot2 = dot1 == std::string_view::npos ? dot1 : rest.find('.', dot1 + 1);
  if (dot2 == std::string_view::npos || rest.find('.', dot2 + 1) != std::string_view::npos)
    return buildUnmapped(scope, node, b, target,
                         fmt::format("{}: not of the form torch.ops.NAMESPACE.OP.OVERLOAD; results unknown", target));
  std::string op = fmt::format("{}::{}", rest.substr(0, dot1), rest.substr(dot1 + 1, dot2 - dot1 - 1));
  std::string overload(rest.substr(dot2 + 1));
  if (overload == "default") overload.clear();
  const std::string key = overload.empty() ? op : op + "." + overload;
  const Schema *s = schemas_.find(key);
  if (!s)
    return buildUnmapped(scope, node, b, target,
                         fmt::format("{}: {} is not in the schema table; results unknown", target, key),
                         "unknown-target");

  // Place the named arguments by the declaration's names, before emitting anything.
  Field inputs = node["inputs"];
  std::vector<std::optional<size_t>> given(s->args.size());
  size_t end = 0; // one past the last given argument
  for (size_t i = 0; i < inputs.size(); ++i) {
    Field in = inputs.at(i);
    Field argName = in["name"];
    int pos = s->argIndex(argName.str());
    if (pos < 0)
      return buildUnmapped(scope, node, b, target,
                           fmt::format("{}: argument '{}' is not in the schema table's {}; results unknown", target,
                                       argName.str(), s->text),
                           "schema-mismatch");
    if (given[pos]) argName.fail(fmt::format("argument '{}' given twice", argName.str()));
    given[pos] = i;
    end = std::max(end, static_cast<size_t>(pos) + 1);
  }
  for (size_t j = 0; j < s->args.size(); ++j)
    if (!given[j] && !s->args[j].defaultText)
      return buildUnmapped(scope, node, b, target,
                           fmt::format("{}: required argument '{}' of {} is not given; results unknown", target,
                                       s->args[j].name, s->text),
                           "schema-mismatch");
  Field outputs = node["outputs"];
  if (!s->varReturns && outputs.size() != s->returns.size())
    return buildUnmapped(scope, node, b, target,
                         fmt::format("{}: {} results recorded, the schema table's {} returns {}; results unknown",
                                     target, outputs.size(), s->text, s->returns.size()),
                         "schema-mismatch");

  std::vector<ir::ValueId> args;
  for (size_t j = 0; j < end; ++j)
    args.push_back(given[j] ? argument(scope, inputs.at(*given[j])["arg"], s->args[j].type.get(), b)
                            : defaultConstant(b, s->args[j]));
  ir::NodeId n = g_->addNode(b, g_->internPinnedKind(op, overload), {});
  g_->nodes[n].inputs = std::move(args);
  defineOutputs(scope, outputs, n, b);
}

bool Builder::buildSymOp(Scope &scope, const Field &node, ir::BlockId b, const std::string &target) {
  const SymOp *sym = nullptr;
  for (const SymOp &o : kSymOps)
    if (o.target == target) sym = &o;
  if (!sym) return false;
  Field inputs = node["inputs"];
  std::vector<ir::ValueId> args;
  for (size_t i = 0; i < inputs.size(); ++i) args.push_back(argument(scope, inputs.at(i)["arg"], nullptr, b));
  // Not pinned: which overload (int, float ...) follows from the operands, as in TorchScript.
  ir::NodeId n = g_->addNode(b, sym->op, {});
  g_->nodes[n].inputs = std::move(args);
  defineOutputs(scope, node["outputs"], n, b);
  return true;
}

void Builder::buildUnmapped(Scope &scope, const Field &node, ir::BlockId b, const std::string &target,
                            std::string why, std::string category) {
  std::vector<ir::ValueId> ins = namedValues(scope, node["inputs"], b);
  std::string_view shortName = target;
  if (shortName.starts_with("torch.ops.")) shortName.remove_prefix(10);
  // A kind no schema table has: the refinement reports it and leaves its results unknown.
  ir::NodeId n = g_->addNode(b, fmt::format("unmapped::{}", shortName), {});
  g_->nodes[n].inputs = std::move(ins);
  note(refine::Severity::Warning, std::move(category), std::move(why), n);
  defineOutputs(scope, node["outputs"], n, b);
}

std::vector<ir::ValueId> Builder::namedValues(Scope &scope, const Field &inputs, ir::BlockId b) {
  // Only the values the node reads (tensors, symbolic numbers): constants would say nothing.
  std::vector<ir::ValueId> out;
  for (size_t i = 0; i < inputs.size(); ++i) {
    Field in = inputs.at(i);
    Field arg = in["arg"];
    std::string_view tag = arg.unionTag();
    Field v = arg.unionValue();
    if (tag == "as_tensor") out.push_back(lookup(scope, v["name"]));
    if (tag == "as_tensors")
      for (size_t k = 0; k < v.size(); ++k) out.push_back(lookup(scope, v.at(k)["name"]));
    if ((tag == "as_sym_int" || tag == "as_sym_bool" || tag == "as_sym_float") && v.unionTag() == "as_name")
      out.push_back(lookup(scope, v.unionValue()));
  }
  return out;
}

ir::TypePtr Builder::outputType(const Field &arg) {
  std::string_view tag = arg.unionTag();
  if (tag == "as_tensor" || tag == "as_none") return type("Tensor");
  if (tag == "as_tensors") return type("Tensor[]");
  if (tag == "as_sym_int" || tag == "as_int") return type("int");
  if (tag == "as_sym_bool" || tag == "as_bool") return type("bool");
  if (tag == "as_sym_float" || tag == "as_float") return type("float");
  arg.fail(fmt::format("unsupported result kind '{}'", tag));
}

void Builder::defineOutputs(Scope &scope, const Field &outputs, ir::NodeId n, ir::BlockId b) {
  std::vector<std::pair<ir::ValueId, size_t>> lists; // (Tensor[] result, its output position): unpacked after
  for (size_t i = 0; i < outputs.size(); ++i) {
    Field o = outputs.at(i);
    std::string_view tag = o.unionTag();
    Field v = o.unionValue();
    ir::TypePtr t = outputType(o);
    ir::ValueId out;
    if (tag == "as_tensor") {
      out = define(scope, v["name"], t);
      record(scope, v["name"].str(), out);
    } else if ((tag == "as_sym_int" || tag == "as_sym_bool" || tag == "as_sym_float") && v.unionTag() == "as_name") {
      out = define(scope, v.unionValue(), t);
    } else {
      out = fresh(t);
      if (tag == "as_tensors") lists.emplace_back(out, i);
    }
    g_->values[out].def = n;
    g_->nodes[n].outputs.push_back(out);
  }
  for (auto [list, i] : lists) { // `split`'s Tensor[]: each element named by the export
    Field elems = outputs.at(i).unionValue();
    ir::NodeId u = g_->addNode(b, "prim::ListUnpack", {});
    g_->nodes[u].inputs.push_back(list);
    for (size_t k = 0; k < elems.size(); ++k) {
      Field e = elems.at(k);
      ir::ValueId out = define(scope, e["name"], type("Tensor"));
      record(scope, e["name"].str(), out);
      g_->values[out].def = u;
      g_->nodes[u].outputs.push_back(out);
    }
  }
}

ir::ValueId Builder::argument(Scope &scope, const Field &arg, const SchemaType *expected, ir::BlockId b) {
  std::string_view tag = arg.unionTag();
  Field v = arg.unionValue();
  const bool toFloat = wantsFloat(expected); // Python passes an int where a float is declared
  auto list = [&](std::vector<ir::ValueId> elems, std::string_view typeText) {
    ir::NodeId n = g_->addNode(b, "prim::ListConstruct", {});
    g_->nodes[n].inputs = std::move(elems);
    ir::ValueId out = fresh(type(typeText));
    g_->values[out].def = n;
    g_->nodes[n].outputs.push_back(out);
    return out;
  };
  // A list of numbers as one constant (`prim::Constant[value=[1, 2]]()`); `tagged`:
  // each element is a SymInt-like union holding a plain number.
  auto literalList = [&](const Field &elems, std::string_view elemType, bool tagged = false) {
    std::vector<Value> values;
    std::string text;
    for (size_t i = 0; i < elems.size(); ++i) {
      Field slot = elems.at(i);
      Field e = tagged ? slot.unionValue() : slot;
      std::string one;
      if (elemType == "float") {
        double d = e.isInteger() ? static_cast<double>(e.integer()) : e.floating();
        values.push_back(Value::floating(d));
        one = floatText(d);
      } else if (elemType == "bool") {
        values.push_back(Value::integer(e.boolean()));
        one = std::string(e.boolean() ? "1" : "0");
      } else if (elemType == "str") {
        values.push_back(Value::string(std::string(e.str())));
        one = fmt::format("\"{}\"", e.str());
      } else {
        values.push_back(Value::integer(e.integer()));
        one = std::to_string(e.integer());
      }
      if (i) text += ", ";
      text += one;
    }
    return constant(b, Value::list(std::move(values)), LK::List, fmt::format("[{}]", text),
                    type(std::string(elemType) + "[]"));
  };
  // A SymInt/SymBool/SymFloat argument: a named value, or a plain number.
  auto symbolic = [&](const Field &s) -> ir::ValueId {
    std::string_view t = s.unionTag();
    Field x = s.unionValue();
    if (t == "as_name") return lookup(scope, x);
    if (t == "as_int") return toFloat ? floatConstant(b, static_cast<double>(x.integer())) : intConstant(b, x.integer());
    if (t == "as_bool") return boolConstant(b, x.boolean());
    if (t == "as_float") return floatConstant(b, x.floating());
    s.fail(fmt::format("unknown symbolic argument kind '{}'", t));
  };
  auto symbolicList = [&](const Field &elems, std::string_view elemType) {
    bool allPlain = true;
    for (size_t i = 0; i < elems.size(); ++i) allPlain = allPlain && elems.at(i).unionTag() != "as_name";
    if (allPlain) return literalList(elems, elemType, true); // every element known: one list constant
    std::vector<ir::ValueId> values;
    for (size_t i = 0; i < elems.size(); ++i) values.push_back(symbolic(elems.at(i)));
    return list(std::move(values), std::string(elemType) + "[]");
  };
  auto optionalTensor = [&](const Field &o) -> ir::ValueId {
    std::string_view t = o.unionTag();
    if (t == "as_none") return noneConstant(b);
    if (t == "as_tensor") return lookup(scope, o.unionValue()["name"]);
    o.fail(fmt::format("unknown optional tensor kind '{}'", t));
  };

  if (tag == "as_none") return noneConstant(b);
  if (tag == "as_tensor") return lookup(scope, v["name"]);
  if (tag == "as_tensors") {
    std::vector<ir::ValueId> elems;
    for (size_t i = 0; i < v.size(); ++i) elems.push_back(lookup(scope, v.at(i)["name"]));
    return list(std::move(elems), "Tensor[]");
  }
  if (tag == "as_optional_tensors") {
    std::vector<ir::ValueId> elems;
    for (size_t i = 0; i < v.size(); ++i) elems.push_back(optionalTensor(v.at(i)));
    return list(std::move(elems), "Tensor?[]");
  }
  if (tag == "as_optional_tensor") return optionalTensor(v);
  if (tag == "as_int") return toFloat ? floatConstant(b, static_cast<double>(v.integer())) : intConstant(b, v.integer());
  if (tag == "as_float") return floatConstant(b, v.floating());
  if (tag == "as_bool") return boolConstant(b, v.boolean());
  if (tag == "as_complex") {
    double re = v["real"].floating(), im = v["imag"].floating();
    return constant(b, Value::complexNumber(re, im), LK::Other, fmt::format("{}+{}j", re, im), type("complex"));
  }
  if (tag == "as_string" || tag == "as_operator")
    return constant(b, Value::string(std::string(v.str())), LK::String, fmt::format("\"{}\"", v.str()), type("str"));
  if (tag == "as_ints") return literalList(v, toFloat ? "float" : "int");
  if (tag == "as_floats") return literalList(v, "float");
  if (tag == "as_bools") return literalList(v, "bool");
  if (tag == "as_strings") return literalList(v, "str");
  if (tag == "as_sym_int" || tag == "as_sym_bool" || tag == "as_sym_float") return symbolic(v);
  if (tag == "as_sym_ints") return symbolicList(v, toFloat ? "float" : "int");
  if (tag == "as_sym_bools") return symbolicList(v, "bool");
  if (tag == "as_sym_floats") return symbolicList(v, "float");
  if (tag == "as_scalar_type") {
    int64_t code = v.integer();
    auto torchName = serdeDTypeName(code);
    if (!torchName) v.fail(fmt::format("unknown dtype number {} (schema 8.x numbers dtypes 0-13 and 28-35)", code));
    // TorchScript passes a dtype as its c10 code; one dtypeflow does not model is some dtype, unknown.
    if (auto d = modelledDType(*torchName, dtypes_)) return intConstant(b, c10Code(*d));
    return unknownConstant(b, type("int"));
  }
  if (tag == "as_memory_format" || tag == "as_layout") {
    int64_t code = v.integer();
    auto c10 = tag == "as_layout" ? c10Layout(code) : c10MemoryFormat(code);
    if (!c10 && code != 0) v.fail(fmt::format("unknown {} number {}", tag == "as_layout" ? "layout" : "memory format", code));
    return c10 ? intConstant(b, *c10) : unknownConstant(b, type("int"));
  }
  if (tag == "as_device") {
    std::string device(v["type"].str());
    if (auto index = v.optional("index")) device += fmt::format(":{}", index->integer());
    return constant(b, Value::string(device), LK::String, fmt::format("\"{}\"", device), type("Device"));
  }
  if (tag == "as_int_lists" || tag == "as_float_lists") {
    std::vector<ir::ValueId> rows;
    for (size_t i = 0; i < v.size(); ++i) rows.push_back(literalList(v.at(i), tag == "as_int_lists" ? "int" : "float"));
    return list(std::move(rows), tag == "as_int_lists" ? "int[][]" : "float[][]");
  }
  if (tag == "as_nested_tensors") {
    std::vector<ir::ValueId> rows;
    for (size_t i = 0; i < v.size(); ++i) {
      std::vector<ir::ValueId> row;
      Field r = v.at(i);
      for (size_t k = 0; k < r.size(); ++k) row.push_back(lookup(scope, r.at(k)["name"]));
      rows.push_back(list(std::move(row), "Tensor[]"));
    }
    return list(std::move(rows), "Tensor[][]");
  }
  if (tag == "as_custom_obj") {
    auto it = scope.values.find(v["name"].str());
    return it != scope.values.end() ? it->second : unknownConstant(b, type("Any"));
  }
  if (tag == "as_graph" || tag == "as_string_to_argument") return unknownConstant(b, type("Any"));
  arg.fail(fmt::format("unknown argument kind '{}'", tag));
}

} // namespace dtf::pt2
