#include "frontends/torch_mlir/mlir_writer.h"
#include "frontends/torch_mlir/mlir_affine.h"
#include "frontends/torch_mlir/mlir_types.h"
#include "ops/infer.h"
#include "ops/semantics.h"
#include "refine/overload_match.h"
#include "schema/schema.h"

#include <fmt/format.h>

#include <fmt/ranges.h>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <unordered_map>

namespace dtf::torch_mlir {
namespace {

using TK = ir::TypeExpr::Kind;
using LK = ir::Attribute::LitKind;

struct Refused : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A type inside `!torch.list<...>` / `optional<...>` (spelled without `!torch.`).
std::string innerType(const ir::TypeExpr &t) {
  switch (t.kind) {
  case TK::Tensor: return "vtensor";
  case TK::Int: return "int";
  case TK::Float: return "float";
  case TK::Bool: return "bool";
  case TK::Number: return "number";
  case TK::Str: return "str";
  case TK::Device: return "Device";
  case TK::None: return "none";
  case TK::List: return "list<" + (t.elems.empty() ? std::string("any") : innerType(*t.elems[0])) + ">";
  case TK::Optional: return "optional<" + (t.elems.empty() ? std::string("any") : innerType(*t.elems[0])) + ">";
  case TK::Tuple: {
    std::string s = "tuple<";
    for (size_t i = 0; i < t.elems.size(); ++i) s += (i ? ", " : "") + innerType(*t.elems[i]);
    return s + ">";
  }
  case TK::Complex:
  case TK::Other: break;
  }
  throw Refused(fmt::format("a value of type {} (no Torch-dialect type written for it yet)", t.text));
}

/// A float as MLIR reads it: with a '.' or an exponent; inf and nan as f64 bit patterns.
std::string floatLiteral(double d) {
  if (!std::isfinite(d)) {
    uint64_t bits;
    std::memcpy(&bits, &d, sizeof bits);
    return fmt::format("0x{:016X}", bits);
  }
  return fmt::format("{:.17e}", d);
}

/// The functional op an in-place one is written as (Writer::functionalize).
struct Functional {
  const Schema *schema = nullptr;       ///< its overload (`aten::pow.Tensor_Scalar` for `pow_.Scalar`)
  std::optional<std::string> castFrom; ///< its element type when not self's: written so, then cast back
  DType selfDType = DType::Float32;     ///< what it is cast back into (castFrom set)
};

class Writer {
public:
  Writer(const ir::Graph &g, const pt2::Program &p, const refine::Result &r, const Semantics &semantics)
      : g_(g), p_(p), r_(r), semantics_(semantics), schemas_(semantics.schemas()) {}

  std::string run() {
    if (g_.blocks.size() > 1) { // the first region's op: cond / while_loop / map (prim::If, prim::Loop) or autocast's
      const ir::NodeId owner = g_.blocks[1].owner;
      const std::string what = owner != ir::kNoId && g_.kindOf(owner) == "higher_order::wrap_with_autocast"
                                   ? "an autocast region (torch.autocast inside the exported code)"
                                   : "control flow (cond, while_loop, map)";
      throw Refused(fmt::format("{}{}: not written as Torch dialect yet",
                                owner != ir::kNoId ? where(owner) + ": " : "", what));
    }
    const ir::Block &body = g_.body();
    std::string args, results;
    for (ir::ValueId v : body.params) args += fmt::format("{}{}: {}", args.empty() ? "" : ", ", name(v), type(v));
    for (size_t i = 0; i < body.returns.size(); ++i) results += (i ? ", " : "") + type(body.returns[i]);
    out_ += fmt::format("module {{\n  func.func @main({}) -> ({}) {{\n", args, results);
    declareSymbols();
    for (ir::ValueId v : body.params) bindSizes(v);
    for (ir::NodeId n : body.nodes) {
      node(n);
      for (ir::ValueId v : g_.nodes[n].outputs) bindSizes(v);
    }
    std::string rets, retTypes;
    for (size_t i = 0; i < body.returns.size(); ++i) {
      rets += (i ? ", " : "") + name(body.returns[i]);
      retTypes += (i ? ", " : "") + type(body.returns[i]);
    }
    out_ += body.returns.empty() ? "    return\n" : fmt::format("    return {} : {}\n", rets, retTypes);
    out_ += "  }\n}\n";
    return std::move(out_);
  }

private:
  /// `%name`: the program's name when MLIR takes it (letters, digits, `_$.-`, not a digit first unless all digits).
  std::string name(ir::ValueId v) {
    auto it = names_.find(v);
    if (it != names_.end()) return it->second;
    std::string n;
    for (char c : g_.values[v].name) n += std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.' || c == '-' ? c : '_';
    bool digits = !n.empty() && n.find_first_not_of("0123456789") == std::string::npos;
    if (n.empty() || (!digits && std::isdigit(static_cast<unsigned char>(n[0]))) || n[0] == '-' || n[0] == '.') n = "v" + n;
    std::string unique = n;
    for (int i = 1; taken_.count(unique); ++i) unique = fmt::format("{}_{}", n, i);
    taken_.insert(unique);
    return names_[v] = "%" + unique;
  }
  std::string fresh() {
    std::string n;
    do n = fmt::format("c{}", next_++);
    while (taken_.count(n));
    taken_.insert(n);
    return "%" + n;
  }
  std::string type(ir::ValueId v) {
    const ir::TypeExpr &t = *g_.values[v].type;
    const Value &val = r_.values[v];
    const pt2::RecordedTensor *rec = v < p_.recorded.size() && p_.recorded[v] ? &*p_.recorded[v] : nullptr;
    if (!t.isTensor() && !rec) return "!torch." + innerType(t);
    std::string sizes = "*";
    if (rec) {
      sizes = "[";
      for (size_t i = 0; i < rec->sizes.size(); ++i)
        sizes += (i ? "," : "") + (rec->sizes[i] ? std::to_string(*rec->sizes[i]) : std::string("?"));
      sizes += "]";
    } else if (val.isTensor() && val.rank().isExact()) {
      sizes = "[";
      for (int i = 0; i < *val.rank().value(); ++i) sizes += i ? ",?" : "?";
      sizes += "]";
    }
    std::string_view elem = val.isTensor() && val.dtype() ? elementName(*val.dtype()) : std::string_view();
    if (elem.empty() && sizes == "*") return "!torch.vtensor";
    return fmt::format("!torch.vtensor<{},{}>", sizes, elem.empty() ? "unk" : elem);
  }
  std::string where(ir::NodeId n) { return fmt::format("node {} ({})", n, g_.kindOf(n)); }

  void constant(ir::NodeId n) {
    const ir::Node &node = g_.nodes[n];
    if (node.outputs.size() != 1) throw Refused(where(n) + ": a constant of several values");
    ir::ValueId v = node.outputs[0];
    const ir::TypeExpr &t = *g_.values[v].type;
    const ir::Attribute *a = g_.attr(n, "value");
    std::string res = name(v);
    if (!a || t.kind == TK::None) {
      out_ += fmt::format("    {} = \"torch.constant.none\"() : () -> !torch.none\n", res);
      return;
    }
    if (a->kind == LK::List && t.kind == TK::List && !t.elems.empty()) {
      const ir::TypeExpr &e = *t.elems[0];
      std::vector<std::string> elems;
      for (const Value &x : a->literal.elements()) elems.push_back(scalar(x, e, n));
      std::string types;
      for (size_t i = 0; i < elems.size(); ++i) types += (i ? ", " : "") + std::string("!torch.") + innerType(e);
      out_ += fmt::format("    {} = \"torch.prim.ListConstruct\"({}) : ({}) -> !torch.{}\n", res, fmt::join(elems, ", "),
                          types, innerType(t));
      return;
    }
    if (a->kind == LK::TensorLiteral) throw Refused(where(n) + ": a tensor constant (not written as Torch dialect yet)");
    out_ += fmt::format("    {} = {}\n", res, scalarOp(a->literal, t, n));
  }
  /// A constant op for one number/string, as its own value.
  std::string scalar(const Value &x, const ir::TypeExpr &t, ir::NodeId n) {
    std::string v = fresh();
    out_ += fmt::format("    {} = {}\n", v, scalarOp(x, t, n));
    return v;
  }
  std::string scalarOp(const Value &x, const ir::TypeExpr &t, ir::NodeId n) {
    if (t.kind == TK::Bool && x.intValue())
      return fmt::format("\"torch.constant.bool\"() {{value = {}}} : () -> !torch.bool", *x.intValue() ? "true" : "false");
    if (t.kind == TK::Int && x.intValue())
      return fmt::format("\"torch.constant.int\"() {{value = {} : i64}} : () -> !torch.int", *x.intValue());
    if (t.kind == TK::Float && x.floatValue())
      return fmt::format("\"torch.constant.float\"() {{value = {} : f64}} : () -> !torch.float", floatLiteral(*x.floatValue()));
    if ((t.kind == TK::Str || t.kind == TK::Device) && x.text()) {
      std::string s, text = *x.text(); // (a copy: `*x.text()` in the for would dangle before C++23)
      for (char c : text) {
        if (c == '"' || c == '\\') s += '\\';
        s += c;
      }
      return fmt::format("\"torch.constant.{}\"() {{value = \"{}\"}} : () -> !torch.{}", t.kind == TK::Str ? "str" : "device",
                         s, t.kind == TK::Str ? "str" : "Device");
    }
    throw Refused(fmt::format("{}: a constant {} of type {} (not written as Torch dialect yet)", where(n), x.str(), t.text));
  }

  /// A constant for a schema default (`None`, `False`, `1`, `1.`, `"none"`, `[0,1]`, `Mean`): its value and type.
  std::pair<std::string, std::string> defaultValue(const SchemaArg &arg, ir::NodeId n) {
    if (!arg.defaultText) throw Refused(fmt::format("{}: required argument '{}' is not given", where(n), arg.name));
    std::string text = *arg.defaultText;
    const SchemaType *t = arg.type.get();
    using SK = SchemaType::Kind;
    if (text == "None") {
      std::string v = fresh();
      out_ += fmt::format("    {} = \"torch.constant.none\"() : () -> !torch.none\n", v);
      return {v, "!torch.none"};
    }
    while (t && t->kind == SK::Optional && t->inner()) t = t->inner();
    auto make = [&](ir::TypeExpr::Kind k, const Value &x) {
      ir::TypeExpr te;
      te.kind = k;
      te.text = text;
      std::string v = scalar(x, te, n);
      return std::make_pair(v, "!torch." + innerType(te));
    };
    auto number = [&](const std::string &s) -> std::optional<Value> {
      char *end = nullptr;
      if (s.find_first_of(".eE") == std::string::npos) {
        long long i = std::strtoll(s.c_str(), &end, 10);
        if (end && *end == '\0' && !s.empty()) return Value::integer(i);
        return std::nullopt;
      }
      double d = std::strtod(s.c_str(), &end);
      if (end && *end == '\0') return Value::floating(d);
      return std::nullopt;
    };
    if (text == "True" || text == "False") return make(TK::Bool, Value::integer(text == "True"));
    if (text == "Mean" || text == "Sum") return make(TK::Int, Value::integer(text == "Mean" ? 1 : 2)); // at::Reduction
    if (text == "contiguous_format") return make(TK::Int, Value::integer(0));                           // c10::MemoryFormat
    if (text.size() >= 2 && (text.front() == '"' || text.front() == '\'') && text.back() == text.front())
      return make(TK::Str, Value::string(text.substr(1, text.size() - 2)));
    if (t && t->kind == SK::List) {
      std::vector<std::string> elems;
      if (text.front() == '[') {
        std::string body = text.substr(1, text.size() - 2);
        for (size_t p = 0; p < body.size();) {
          size_t c = body.find(',', p);
          std::string e = body.substr(p, c == std::string::npos ? std::string::npos : c - p);
          auto x = number(e);
          if (!x || !x->intValue()) throw Refused(fmt::format("{}: default '{}' of '{}' not written yet", where(n), text, arg.name));
          elems.push_back(make(TK::Int, *x).first);
          p = c == std::string::npos ? body.size() : c + 1;
        }
      } else if (auto x = number(text); x && x->intValue() && t->fixedSize) { // `int[2] stride=1`: [1, 1]
        for (int i = 0; i < *t->fixedSize; ++i) elems.push_back(make(TK::Int, *x).first);
      } else {
        throw Refused(fmt::format("{}: default '{}' of '{}' not written yet", where(n), text, arg.name));
      }
      std::string v = fresh(), types;
      for (size_t i = 0; i < elems.size(); ++i) types += (i ? ", " : "") + std::string("!torch.int");
      out_ += fmt::format("    {} = \"torch.prim.ListConstruct\"({}) : ({}) -> !torch.list<int>\n", v, fmt::join(elems, ", "), types);
      return {v, "!torch.list<int>"};
    }
    if (auto x = number(text)) {
      bool wantsFloat = t && t->kind == SK::Float;
      if (x->intValue() && !wantsFloat) return make(TK::Int, *x);
      return make(TK::Float, x->intValue() ? Value::floating(static_cast<double>(*x->intValue())) : *x);
    }
    throw Refused(fmt::format("{}: default '{}' of '{}' not written yet", where(n), text, arg.name));
  }

  void node(ir::NodeId n) {
    const ir::Node &node = g_.nodes[n];
    const std::string &kind = g_.kindName(node.kind);
    if (kind == "prim::Constant") return constant(n);
    std::string op;
    const std::string *pin = g_.pinnedOverload(node.kind);
    size_t colons = kind.find("::");
    if (colons == std::string::npos || kind.starts_with("unmapped::"))
      throw Refused(where(n) + ": an op the reader could not map (not written)");
    std::string ns = kind.substr(0, colons), opName = kind.substr(colons + 2);
    ir::ValueId mutatedSelf = ir::kNoId;
    std::vector<ir::NodeId> scatterBack; // the views self is, innermost first (functionalize)
    Functional functional;               // the functional twin of an in-place op
    if (pin) {
      // torch-mlir declares in-place ops on non-value tensors only: never write one on a !torch.vtensor.
      if (opName.ends_with('_') && !opName.ends_with("__")) {
        functional = functionalize(n, ns, opName, *pin, scatterBack);
        mutatedSelf = node.inputs[0];
        opName.pop_back();
      }
      const std::string &overload = functional.schema ? functional.schema->overload : *pin;
      op = fmt::format("torch.{}.{}{}", ns, opName, overload.empty() ? "" : "." + overload);
    } else if (auto scalar = scalarOverload(n, kind)) {
      return scalarOp(n, ns, opName, *scalar);
    } else if (ns == "prim") {
      op = "torch.prim." + opName;
    } else {
      throw Refused(where(n) + ": an op whose overload is chosen by its operands, on operands of unknown kind "
                               "(a Python-level op on SymInts)");
    }
    std::string ins, inTypes, outs, outTypes;
    const Schema *schema = functional.schema ? functional.schema
                           : pin                ? schemas_.find(pin->empty() ? kind : kind + "." + *pin)
                                                : nullptr;
    for (size_t i = 0; i < node.inputs.size(); ++i) {
      const SchemaType *argType = schema && i < schema->args.size() ? schema->args[i].type.get() : nullptr;
      if (argType && argType->kind == SchemaType::Kind::Optional) argType = argType->inner();
      bool tensorArg = argType && argType->kind == SchemaType::Kind::Tensor;
      auto [in, inType] = tensorArg ? numberAsTensor(node.inputs[i]) : std::pair{name(node.inputs[i]), type(node.inputs[i])};
      ins += (i ? ", " : "") + in;
      inTypes += (i ? ", " : "") + inType;
    }
    // The archive leaves out trailing arguments at their defaults; torch-mlir's ops take them all.
    if (pin)
      if (const Schema *s = schemas_.find(pin->empty() ? kind : kind + "." + *pin))
        for (size_t j = node.inputs.size(); j < s->args.size(); ++j) {
          auto [v, t] = defaultValue(s->args[j], n);
          ins += (j ? ", " : "") + v;
          inTypes += (j ? ", " : "") + t;
        }
    for (size_t i = 0; i < node.outputs.size(); ++i) {
      outs += (i ? ", " : "") + name(node.outputs[i]);
      outTypes += (i ? ", " : "") + type(node.outputs[i]);
    }
    if (functional.castFrom) { // the twin's own dtype, cast back into self's as the in-place op does
      std::string twin = fresh(), twinType = withElement(outTypes, *functional.castFrom);
      out_ += fmt::format("    {} = \"{}\"({}) : ({}) -> {}\n", twin, op, ins, inTypes, twinType);
      castInto(twin, twinType, node.outputs[0], functional.selfDType);
    } else {
      std::string results = node.outputs.size() == 1 ? outTypes : "(" + outTypes + ")";
      out_ += fmt::format("    {}\"{}\"({}) : ({}) -> {}\n", outs.empty() ? "" : outs + " = ", op, ins, inTypes, results);
    }
    // Later readers of the mutated tensor read the functional op's result instead, and those of
    // the tensor it is a view of the result scattered back into it.
    if (mutatedSelf != ir::kNoId) {
      for (ir::ValueId x = mutatedSelf; isInPlace(g_.values[x].def);) // self as earlier in-place ops returned it
        names_[x = g_.nodes[g_.values[x].def].inputs[0]] = name(node.outputs[0]);
      names_[mutatedSelf] = name(node.outputs[0]);
      std::string src = name(node.outputs[0]);
      for (ir::NodeId view : scatterBack) src = scatterInto(view, src);
      if (!scatterBack.empty()) names_[g_.nodes[scatterBack.back()].inputs[0]] = src;
    }
  }

  /// A tensor argument: `v`, or, for a number torch.export passed for it (`x * 0.5`), the 0-dim
  /// tensor torch-mlir's FX importer makes of it (`torch.prim.NumToTensor.Scalar`, typed as
  /// torch.tensor(0.5): float32, int64, bool, complex64), which torch-mlir's ops take and the reader
  /// reads back as the number (mlir_reader.cpp, importedNumber).
  std::pair<std::string, std::string> numberAsTensor(ir::ValueId v) {
    const Value &x = r_.values[v];
    if (g_.values[v].type->isTensor() || !x.isNumber() || !x.numKind()) return {name(v), type(v)};
    DType d = DType::Float32;
    switch (*x.numKind()) {
    case NumKind::Bool: d = DType::Bool; break;
    case NumKind::Int: d = DType::Int64; break;
    case NumKind::Float: d = DType::Float32; break;
    case NumKind::Complex: d = DType::Complex64; break;
    }
    std::string t = fresh(), tType = fmt::format("!torch.vtensor<[],{}>", elementName(d));
    out_ += fmt::format("    {} = \"torch.prim.NumToTensor.Scalar\"({}) : ({}) -> {}\n", t, name(v), type(v), tType);
    return {t, tType};
  }

  /// `torch.aten.slice_scatter` (or select_scatter) of `src` into the tensor view node `v` took its
  /// slice of, with the slice's own arguments (its defaults where the archive left them out).
  /// Returns the result's SSA name, typed as that tensor.
  std::string scatterInto(ir::NodeId v, const std::string &src) {
    const ir::Node &view = g_.nodes[v];
    const std::string &kind = g_.kindOf(v);
    const std::string *pin = g_.pinnedOverload(view.kind);
    const Schema *s = schemas_.find(kind + (pin && !pin->empty() ? "." + *pin : ""));
    if (!s) throw Refused(where(v) + ": a view without a schema (not written)");
    const ir::ValueId base = view.inputs[0];
    std::string ins = name(base) + ", " + src, types = type(base) + ", " + type(view.outputs[0]);
    for (size_t j = 1; j < s->args.size(); ++j) {
      auto [a, t] = j < view.inputs.size() ? std::make_pair(name(view.inputs[j]), type(view.inputs[j]))
                                           : defaultValue(s->args[j], v);
      ins += ", " + a;
      types += ", " + t;
    }
    std::string out = fresh();
    const char *op = kind == "aten::select" ? "torch.aten.select_scatter" : "torch.aten.slice_scatter";
    out_ += fmt::format("    {} = \"{}\"({}) : ({}) -> {}\n", out, op, ins, types, type(base));
    bindSizes(base, &out); // the sizes of the tensor scattered into, as recorded
    return out;
  }

  // --- symbolic sizes, as torch-mlir's FX importer states them -------------------
  /// Every size symbol of the recorded sizes (`s0` with its range_constraints), in name order.
  void collectSymbols(const SymExpr &e) {
    for (const SymExpr::Term &t : e.terms())
      for (const auto &atom : t.factors) {
        if (atom->op == SymAtom::Op::Symbol) symbols_.emplace(atom->text, atom->range);
        for (const SymExpr &arg : atom->args) collectSymbols(arg);
      }
  }
  /// `%s0 = torch.symbolic_int "s0" {min_val, max_val}` for each symbol (torch.export's unbounded
  /// max is written as int64 max - 1, as torch does).
  void declareSymbols() {
    for (const auto &rec : p_.recorded)
      if (rec)
        for (const Dim &d : rec->dims)
          if (d.known() && !d.value()) collectSymbols(*d.expr());
    for (const auto &[sym, range] : symbols_) {
      std::string ssa = "%sym_" + sym;
      for (int i = 1; taken_.count(ssa.substr(1)); ++i) ssa = fmt::format("%sym_{}_{}", sym, i);
      taken_.insert(ssa.substr(1));
      symbolNames_[sym] = ssa;
      int64_t hi = range.hi == SymRange::kInf ? SymRange::kInf - 1 : range.hi;
      out_ += fmt::format("    {} = \"torch.symbolic_int\"() {{max_val = {} : i64, min_val = {} : i64, symbol_name = \"{}\"}} "
                          ": () -> !torch.int\n",
                          ssa, hi, range.lo, sym);
    }
  }
  /// `torch.bind_symbolic_shape %v, [%s0, ...], affine_map<()[s0, ...] -> (...)>` for a value whose
  /// recorded sizes hold symbols (all of them spelled, or none bound).
  /// `as`: bind that SSA value instead, of `v`'s type and sizes (a scatter back into `v`).
  void bindSizes(ir::ValueId v, const std::string *as = nullptr) {
    const pt2::RecordedTensor *rec = v < p_.recorded.size() && p_.recorded[v] ? &*p_.recorded[v] : nullptr;
    auto binding = rec ? affineBinding(rec->dims) : std::nullopt;
    if (!binding) return; // no symbolic size, or one the map cannot state: bound by its type only
    std::string operands, types;
    for (const std::string &sym : binding->symbols) {
      operands += ", " + symbolNames_.at(sym);
      types += ", !torch.int";
    }
    out_ += fmt::format("    \"torch.bind_symbolic_shape\"({}{}) {{shape_expressions = {}}} : ({}{}) -> ()\n",
                        as ? *as : name(v), operands, binding->map, type(v), types);
  }

  /// A Python-level op on SymInts/SymFloats (`_operator.mul`: aten::mul, its overload chosen by
  /// the operands): the overload its refined operand kinds name (`int`, `float`, `int_float` ...),
  /// when the schema table has it; nullopt otherwise.
  std::optional<std::string> scalarOverload(ir::NodeId n, const std::string &kind) {
    const ir::Node &node = g_.nodes[n];
    if (node.inputs.empty() || node.outputs.size() != 1) return std::nullopt;
    std::vector<std::string> kinds;
    for (ir::ValueId in : node.inputs) {
      auto k = r_.values[in].numKind();
      if (!r_.values[in].isNumber() || !k || *k == NumKind::Complex) return std::nullopt;
      kinds.emplace_back(*k == NumKind::Int ? "int" : *k == NumKind::Float ? "float" : "bool");
    }
    bool same = std::all_of(kinds.begin(), kinds.end(), [&](const std::string &k) { return k == kinds[0]; });
    std::string overload = same ? kinds[0] : fmt::format("{}", fmt::join(kinds, "_"));
    if (!schemas_.find(kind + "." + overload)) return std::nullopt;
    return overload;
  }
  /// `"torch.aten.mul.int"(%a, %b) : (!torch.int, !torch.int) -> !torch.int`: its types the schema's.
  void scalarOp(ir::NodeId n, const std::string &ns, const std::string &opName, const std::string &overload) {
    const ir::Node &node = g_.nodes[n];
    const Schema &s = *schemas_.find(fmt::format("{}::{}.{}", ns, opName, overload));
    auto spell = [](const SchemaType *t) -> std::string {
      switch (t ? t->kind : SchemaType::Kind::Other) {
      case SchemaType::Kind::Int: return "!torch.int";
      case SchemaType::Kind::Float: return "!torch.float";
      case SchemaType::Kind::Bool: return "!torch.bool";
      case SchemaType::Kind::Number: return "!torch.number";
      default: return "";
      }
    };
    std::string ins, inTypes;
    for (size_t i = 0; i < node.inputs.size(); ++i) {
      std::string t = i < s.args.size() ? spell(s.args[i].type.get()) : "";
      if (t.empty()) throw Refused(where(n) + ": a Python-level op whose operand types are not numbers");
      ins += (i ? ", " : "") + name(node.inputs[i]);
      inTypes += (i ? ", " : "") + t;
    }
    std::string out = s.returns.size() == 1 ? spell(s.returns[0].type.get()) : "";
    if (out.empty()) throw Refused(where(n) + ": a Python-level op whose result is not one number");
    out_ += fmt::format("    {} = \"torch.{}.{}.{}\"({}) : ({}) -> {}\n", name(node.outputs[0]), ns, opName, overload, ins,
                        inTypes, out);
  }

  /// `relu_(self)` as `relu(self)` whose result replaces `self` from here on: right when nothing
  /// but `self` reads the storage it writes after it (no view of it, nor the tensor it is a view
  /// of, nor that tensor's other views: efficientnet's `dropout_` of a `flatten`), or when what
  /// reads it is that tensor and `self` is a chain of slices and selects of it: `scatterBack` gets
  /// the chain (innermost first), which node() scatters the result back along (swin's `fill_` of a
  /// slice of its mask). Refused otherwise, or when the storage is a graph input's. The functional
  /// twin takes the same arguments (twinOf); returned with its dtype where that is not self's.
  Functional functionalize(ir::NodeId n, const std::string &ns, const std::string &opName, const std::string &pin,
                           std::vector<ir::NodeId> &scatterBack) {
    const ir::Node &node = g_.nodes[n];
    auto refuse = [&](std::string_view why) {
      return Refused(fmt::format("{}: an in-place op ({}; torch-mlir writes in-place ops on !torch.tensor only)", where(n), why));
    };
    const Schema *inPlace = schemas_.find(ns + "::" + opName + (pin.empty() ? "" : "." + pin));
    const Schema *functional = inPlace ? twinOf(*inPlace, ns + "::" + opName.substr(0, opName.size() - 1)) : nullptr;
    if (!inPlace || !functional || node.inputs.empty() || node.outputs.size() != 1 || !inPlace->args[0].type ||
        !inPlace->args[0].type->mutated)
      throw refuse("no functional overload with the same arguments");
    for (size_t i = 1; i < inPlace->args.size(); ++i)
      if (inPlace->args[i].type && inPlace->args[i].type->mutated) throw refuse("it mutates more than self");
    ir::ValueId self = node.inputs[0];
    // 2.6's training IR updates a batch norm's num_batches_tracked in place;
    // torch-mlir's fx.export_and_import runs run_decompositions() first, which
    // makes such updates buffer mutations the program returns (written).
    if (g_.values[self].def == ir::kNoId)
      throw refuse("it mutates a graph input; ExportedProgram.run_decompositions() makes that a buffer mutation, "
                   "as torch-mlir's fx.export_and_import does before importing");
    ir::ValueId root = self; // the tensor whose storage self views (self itself when it views none)
    for (std::optional<ir::ValueId> up; (up = viewedBy(root));) root = *up;
    if (g_.values[root].def == ir::kNoId) throw refuse("self is a view of a graph input");
    const std::set<ir::ValueId> storage = viewsOf(root, n);
    // Self as earlier in-place ops returned it (`v.add_(1)` returns v): the same tensor, not a view.
    std::set<ir::ValueId> selfChain{self};
    for (ir::ValueId x = self; isInPlace(g_.values[x].def);) selfChain.insert(x = g_.nodes[g_.values[x].def].inputs[0]);
    // Readers after n, in n's block: self (they read the functional result), views taken after n
    // of self or root (of the new values), and root itself when self's views can be scattered
    // back into it (slices and selects); any other view of the storage is stale: refused, as a
    // reader in another block or a block result.
    const ir::BlockId b = node.parent;
    const auto &order = g_.blocks[b].nodes;
    const auto at = std::find(order.begin(), order.end(), n);
    auto after = [&](ir::NodeId m) { return g_.nodes[m].parent == b && std::find(order.begin(), at, m) == at; };
    bool readsRoot = false;
    auto fresh = [&](ir::ValueId x) { // a view taken after n of self or root
      while (x != self && x != root) {
        ir::NodeId d = g_.values[x].def;
        std::optional<ir::ValueId> up = d == ir::kNoId || !after(d) ? std::nullopt : viewedBy(x);
        if (!up) return false;
        x = *up;
      }
      readsRoot = readsRoot || x == root;
      return true;
    };
    auto stale = [&](ir::ValueId x) { return !selfChain.count(x) && storage.count(x) && !fresh(x); };
    for (ir::NodeId m = 0; m < g_.nodes.size(); ++m) {
      if (m == n) continue;
      bool reads = false;
      for (ir::ValueId in : g_.nodes[m].inputs) reads = reads || (in != self && storage.count(in));
      if (!reads) continue;
      if (g_.nodes[m].parent != b) throw refuse("a view of the same tensor is read in another block");
      if (!after(m)) continue;
      for (ir::ValueId in : g_.nodes[m].inputs)
        if (stale(in)) throw refuse("a view of the same tensor is read after it");
    }
    for (ir::ValueId r : g_.blocks[b].returns)
      if (stale(r)) throw refuse("a view of the same tensor is a result");
    if (readsRoot && root != self) {
      for (ir::ValueId x = self; x != root;) { // self's views up to root, innermost first
        ir::NodeId d = g_.values[x].def;
        if (isInPlace(d)) { // an earlier in-place op's result: the tensor it mutated
          x = g_.nodes[d].inputs[0];
          continue;
        }
        const std::string &k = g_.kindOf(d);
        const std::string *vp = g_.pinnedOverload(g_.nodes[d].kind);
        if (!vp || !((k == "aten::slice" && *vp == "Tensor") || (k == "aten::select" && *vp == "int")))
          throw refuse("self is a view other than a slice or select of a tensor read afterwards");
        scatterBack.push_back(d);
        x = g_.nodes[d].inputs[0];
      }
    }
    // An in-place op casts its result into self; its functional twin does not (`add_(bf16, f32)`
    // is bf16, `add` f32; `eq_` keeps self's dtype, `eq` is bool): where the twin's dtype is
    // another, it is written with its own and cast back, as functionalization does.
    Functional f{functional, std::nullopt, DType::Float32};
    // (Self of unknown dtype: written `unk` either way, as before.)
    std::optional<DType> selfDType = r_.values[self].isTensor() ? r_.values[self].dtype() : std::nullopt;
    std::optional<DType> twin = selfDType ? twinDType(node, *functional) : std::nullopt;
    if (selfDType && twin != selfDType) {
      if (!scatterBack.empty()) throw refuse("its functional twin's dtype is another than self's, and self is a view");
      f.castFrom = twin ? std::string(elementName(*twin)) : std::string("unk");
      f.selfDType = *selfDType;
    }
    return f;
  }
  /// The functional overload of `name` (`aten::pow`) taking `inPlace`'s arguments: the same
  /// types but for alias annotations (`pow_.Scalar` is `pow.Tensor_Scalar`), and the same names
  /// where an overload has them (`dropout_`'s self is `dropout`'s input).
  const Schema *twinOf(const Schema &inPlace, const std::string &name) {
    const std::vector<const Schema *> overloads = schemas_.overloads(name);
    for (bool byName : {true, false})
      for (const Schema *s : overloads) {
        bool same = s->args.size() == inPlace.args.size() && s->returns.size() == 1;
        for (size_t i = 0; same && i < s->args.size(); ++i)
          same = (!byName || s->args[i].name == inPlace.args[i].name) &&
                 sameType(s->args[i].type.get(), inPlace.args[i].type.get());
        if (same) return s;
      }
    return nullptr;
  }
  static bool sameType(const SchemaType *a, const SchemaType *b) {
    if (!a || !b) return a == b;
    if (a->kind != b->kind || a->spelling != b->spelling || a->fixedSize != b->fixedSize ||
        a->children.size() != b->children.size())
      return false;
    for (size_t i = 0; i < a->children.size(); ++i)
      if (!sameType(a->children[i].get(), b->children[i].get())) return false;
    return true;
  }
  /// The dtype of `twin` called on in-place node's operands (the archive's defaults where it left
  /// them out), by the version's rules; nullopt: not known.
  std::optional<DType> twinDType(const ir::Node &node, const Schema &twin) {
    std::vector<Value> args;
    for (size_t i = 0; i < twin.args.size(); ++i)
      args.push_back(i < node.inputs.size() ? r_.values[node.inputs[i]] : dtf::defaultValue(twin.args[i]));
    if (std::vector<Value> wrapped = refine::numbersWrappedForTensors(twin, args); !wrapped.empty()) args = wrapped;
    InferOutcome out = infer(semantics_.registryFor(twin), twin, args, kMaxEnumeratedCases, /*sizes=*/false);
    if (out.status != InferOutcome::Status::Ok || out.outputs.size() != 1 || !out.outputs[0].isTensor())
      return std::nullopt;
    return out.outputs[0].dtype();
  }
  /// `%v = torch.aten.to.dtype(%src, d, false, false, None)`: `src` (of type `srcType`) cast into
  /// dtype `d` (value v's), under v's name.
  void castInto(const std::string &src, const std::string &srcType, ir::ValueId v, DType d) {
    std::string code = fresh(), no = fresh(), none = fresh();
    out_ += fmt::format("    {} = \"torch.constant.int\"() {{value = {} : i64}} : () -> !torch.int\n", code, c10Code(d));
    out_ += fmt::format("    {} = \"torch.constant.bool\"() {{value = false}} : () -> !torch.bool\n", no);
    out_ += fmt::format("    {} = \"torch.constant.none\"() : () -> !torch.none\n", none);
    out_ += fmt::format("    {} = \"torch.aten.to.dtype\"({}, {}, {}, {}, {}) : ({}, !torch.int, !torch.bool, !torch.bool, "
                        "!torch.none) -> {}\n",
                        name(v), src, code, no, no, none, srcType, type(v));
  }
  /// A written tensor type with another element type: `!torch.vtensor<[2,3],f32>` -> `...,i1>`.
  static std::string withElement(const std::string &type, std::string_view elem) {
    size_t comma = type.rfind(',');
    if (type.starts_with("!torch.vtensor<") && comma != std::string::npos) return type.substr(0, comma + 1) + std::string(elem) + ">";
    return fmt::format("!torch.vtensor<*,{}>", elem);
  }
  /// The tensor `v` is a view of (through a list an aliasing op returns, as tensor_split's pieces
  /// unpacked), or nullopt; refused when the op's schema does not say which argument it views.
  std::optional<ir::ValueId> viewedBy(ir::ValueId v) {
    ir::NodeId m = g_.values[v].def;
    if (m == ir::kNoId) return std::nullopt;
    if (g_.kindOf(m) == "prim::ListUnpack" && !g_.nodes[m].inputs.empty()) {
      m = g_.values[g_.nodes[m].inputs[0]].def;
      if (m == ir::kNoId) return std::nullopt;
    }
    if (!aliases(m, ir::kNoId)) return std::nullopt;
    std::optional<ir::ValueId> source;
    const auto &ins = g_.nodes[m].inputs;
    for (size_t k = 0; k < ins.size(); ++k) {
      if (!aliases(m, k)) continue;
      if (source && *source != ins[k]) throw Refused(where(m) + ": a view of more than one tensor (not written)");
      source = ins[k];
    }
    if (!source) throw Refused(where(m) + ": a view whose source the schema does not name (not written)");
    return source;
  }
  /// `root` and every view of it, views of views included (lists of views and their pieces too),
  /// but for `written`'s result (the in-place op written functionally: a fresh tensor).
  std::set<ir::ValueId> viewsOf(ir::ValueId root, ir::NodeId written) {
    std::set<ir::ValueId> out{root};
    for (bool grew = true; grew;) {
      grew = false;
      for (ir::NodeId m = 0; m < g_.nodes.size(); ++m) {
        if (m == written) continue;
        const auto &ins = g_.nodes[m].inputs;
        bool unpack = g_.kindOf(m) == "prim::ListUnpack";
        for (size_t k = 0; k < ins.size(); ++k) {
          if (!out.count(ins[k]) || !(unpack || aliases(m, k))) continue;
          for (ir::ValueId o : g_.nodes[m].outputs) grew = out.insert(o).second || grew;
        }
      }
    }
    return out;
  }
  /// Is node `m` an in-place op (`add_`: it mutates its first argument and returns it)?
  bool isInPlace(ir::NodeId m) {
    if (m == ir::kNoId) return false;
    const std::string &kind = g_.kindOf(m);
    if (!kind.ends_with('_') || kind.ends_with("__")) return false;
    const std::string *pin = g_.pinnedOverload(g_.nodes[m].kind);
    const Schema *s = pin ? schemas_.find(pin->empty() ? kind : kind + "." + *pin) : nullptr;
    return s && !s->args.empty() && s->args[0].type && s->args[0].type->mutated && !g_.nodes[m].inputs.empty();
  }
  /// Does node `m` return a view: of its argument `k` (or of any argument, with kNoId)?
  bool aliases(ir::NodeId m, size_t k) {
    const std::string &kind = g_.kindOf(m);
    // An in-place op written as its functional twin still returns self in the program, which its
    // later readers (another in-place op, a result) mean (functionalize follows them to self).
    if (kind == "prim::Constant" || kind == "prim::ListConstruct" || kind == "prim::ListUnpack") return false;
    const std::string *pin = g_.pinnedOverload(g_.nodes[m].kind);
    const Schema *s = pin ? schemas_.find(pin->empty() ? kind : kind + "." + *pin) : nullptr;
    if (!s) return true; // unknown: assume the worst
    for (const SchemaArg &r : s->returns) // `Tensor(a)`, or `Tensor(a)[]` (unbind's, chunk's pieces)
      if (r.type && (r.type->aliased || (r.type->inner() && r.type->inner()->aliased))) {
        if (k == ir::kNoId) return true;
        return k >= s->args.size() || (s->args[k].type && s->args[k].type->aliased);
      }
    return false;
  }

  const ir::Graph &g_;
  const pt2::Program &p_;
  const refine::Result &r_;
  const Semantics &semantics_;
  const SchemaTable &schemas_;
  std::string out_;
  std::unordered_map<ir::ValueId, std::string> names_;
  std::set<std::string> taken_;
  std::map<std::string, SymRange> symbols_;       ///< every size symbol recorded, with its range
  std::map<std::string, std::string> symbolNames_; ///< symbol -> the SSA name of its torch.symbolic_int
  int next_ = 0;
};

} // namespace

WriteResult writeProgram(const ir::Graph &g, const pt2::Program &p, const refine::Result &r, const Semantics &semantics) {
  WriteResult w;
  try {
    w.text = Writer(g, p, r, semantics).run();
  } catch (const Refused &e) {
    w.error = e.what();
  }
  return w;
}

} // namespace dtf::torch_mlir
