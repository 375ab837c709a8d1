//===- api/api.cpp - what the CLI and the Python module share ------------===//
#include "api/api.h"

#include "frontends/pt2/serde_enums.h"
#include "frontends/torch_mlir/mlir_reader.h"
#include "graph/type_expr.h"
#include "ops/autocast.h"
#include "ops/custom_rules.h"
#include "ops/notation.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <set>

namespace dtf::api {

const Semantics &semanticsOf(std::string_view torch) {
  auto v = parseTorchVersion(torch);
  if (!v)
    throw InputError(fmt::format("--torch {}: not a modelled PyTorch version (modelled: {})", torch.substr(0, 40),
                                 supportedTorchVersions()));
  return Semantics::of(*v);
}

std::shared_ptr<const Semantics> semanticsWithRules(std::string_view torch, const std::vector<std::string> &ruleFiles) {
  auto v = parseTorchVersion(torch);
  if (!v) semanticsOf(torch); // throws
  if (ruleFiles.empty()) return nullptr;
  RuleSet rules;
  std::vector<RuleSetError> errors;
  for (const std::string &file : ruleFiles)
    for (RuleSetError &e : rules.addFile(file)) errors.push_back(std::move(e));
  std::shared_ptr<const Semantics> out;
  if (errors.empty()) {
    ExtendedSemantics ext = Semantics::extend(*v, rules);
    errors = std::move(ext.errors);
    out = std::move(ext.semantics);
  }
  if (!errors.empty()) {
    std::string message;
    for (const RuleSetError &e : errors) message += e.str() + "\n";
    throw InputError(message + fmt::format("--rules: {} problem{} in the rule files", errors.size(),
                                           errors.size() == 1 ? "" : "s"));
  }
  return out;
}

Value parseOperand(std::string_view text, const Semantics &sem) {
  auto r = parseNotation(text, nullptr, &sem.types());
  if (!r.value && r.pytorchRaises) throw OperandRaises{r.error};
  if (!r.value) throw InputError("bad operand " + r.error);
  if (!r.value->isTensor() && !r.value->isNumber())
    throw InputError(fmt::format("bad operand '{}': expected a tensor or a Python number", text));
  return *r.value;
}

PossibleDTypes resultType(const Semantics &sem, const std::vector<std::string> &operands) {
  if (operands.empty()) throw InputError("operands is required");
  std::vector<Value> vals;
  std::optional<OperandRaises> raises;
  for (const std::string &t : operands) {
    try {
      vals.push_back(parseOperand(t, sem));
    } catch (OperandRaises &e) { // every operand is still checked for bad input
      if (!raises) raises = std::move(e);
    }
  }
  if (raises) {
    PossibleDTypes p;
    p.dtypes = DTypeSet();
    p.error = raises->message;
    return p;
  }
  return sem.types().resultTypeSet(vals);
}

const Schema &lookupOp(const Semantics &sem, const std::string &key) {
  const SchemaTable &table = sem.schemas();
  if (const Schema *s = table.find(key)) return *s;
  std::string base = key.substr(0, key.find('.', key.find("::") == std::string::npos ? 0 : key.find("::")));
  std::string hint;
  for (const Schema *s : table.overloads(base)) hint += (hint.empty() ? "" : ", ") + s->key();
  if (!hint.empty()) throw InputError(fmt::format("unknown op '{}'; overloads of {}: {}", key, base, hint));
  for (TorchVersion v : kTorchVersions) // an op of another version: say so
    if (v != sem.version() && SchemaTable::of(v).find(key))
      throw InputError(fmt::format("unknown op '{}' in PyTorch {} (PyTorch {} has it: --torch {})", key,
                                   sem.versionName(), name(v), name(v)));
  throw InputError(fmt::format("unknown op '{}' in PyTorch {} (ops are written aten::name.overload; a custom op "
                               "needs its rule file: --rules FILE)",
                               key, sem.versionName()));
}

namespace {

/// Other overloads of the same op that take every argument name given.
std::string suggestOverloads(const SchemaTable &table, const Schema &schema, const std::vector<OpArg> &args) {
  std::string out;
  for (const Schema *s : table.overloads(schema.name)) {
    if (s == &schema) continue;
    bool all = std::all_of(args.begin(), args.end(),
                           [&](const OpArg &a) { return a.name.empty() || s->argIndex(a.name) >= 0; });
    if (all) out += (out.empty() ? "" : ", ") + s->key();
  }
  return out.empty() ? "" : "; overloads that take these arguments: " + out;
}

} // namespace

OpCall inferOp(const Semantics &sem, const std::string &key, const std::vector<OpArg> &args,
               const std::string &autocast) {
  std::optional<AutocastContext> context;
  if (!autocast.empty()) {
    std::string error;
    context = AutocastContext::parse(autocast, sem.version(), error);
    if (!context) throw InputError(error);
  }
  const Schema &schema = lookupOp(sem, key);
  std::vector<Value> positional;
  std::vector<std::pair<std::string, Value>> named;
  std::optional<std::string> bindingRaises; ///< PyTorch refuses an argument's value while binding it
  for (const OpArg &a : args) {
    const SchemaType *type = nullptr;
    if (!a.name.empty()) {
      int i = schema.argIndex(a.name);
      if (i < 0) {
        auto b = bindArguments(schema, {}, std::vector<std::pair<std::string, Value>>{{a.name, Value()}});
        throw InputError(b.error + suggestOverloads(sem.schemas(), schema, args));
      }
      type = schema.args[i].type.get();
    } else {
      if (positional.size() >= schema.args.size()) throw InputError(fmt::format("{}: too many arguments", schema.key()));
      type = schema.args[positional.size()].type.get();
    }
    auto v = parseNotation(a.text, type, &sem.types());
    const std::string &shownName = a.name.empty() ? schema.args[positional.size()].name : a.name;
    if (!v.value && v.pytorchRaises) {
      if (!bindingRaises)
        bindingRaises = fmt::format("{}(): argument '{}'{} {}", schema.name.substr(schema.name.find("::") + 2),
                                    shownName, v.error.starts_with("must be") ? "" : ":", v.error);
      v.value = Value::top(); // a placeholder: the call raises before any rule runs
    }
    if (!v.value) throw InputError(fmt::format("{}: argument '{}': {}", schema.key(), shownName, v.error));
    if (a.name.empty()) positional.push_back(*v.value);
    else named.emplace_back(a.name, *v.value);
  }
  BindResult bound = bindArguments(schema, positional, named);
  if (!bound.ok()) throw InputError(bound.error);
  if (bindingRaises) {
    OpCall call{&schema, {}};
    call.outcome.status = InferOutcome::Status::Error;
    call.outcome.error = RuleError{ErrorKind::ValueDependent, *bindingRaises};
    call.outcome.outputs.clear();
    return call;
  }
  OpCall call{&schema, inferUnderAutocast(sem, context, schema, bound.args)};
  nameUnbackedInCall(call.outcome, bound.args);
  return call;
}

std::string_view statusName(InferOutcome::Status s) {
  switch (s) {
  case InferOutcome::Status::Ok: return "ok";
  case InferOutcome::Status::Error: return "error";
  case InferOutcome::Status::NoRule: return "no-rule";
  case InferOutcome::Status::TooManyUnknowns: return "too-many-unknowns";
  }
  return "ok";
}

std::string resultText(const Value &v) {
  if (v.isTensor()) return v.dtype() ? std::string(name(*v.dtype())) : "unknown";
  if (v.isTop() || v.isBottom()) return "unknown";
  if (v.isList() && !v.lengthKnown() && v.elementSummary().isTensor()) {
    Value s = v.elementSummary();
    return s.dtype() ? fmt::format("[{}...]", name(*s.dtype())) : "unknown";
  }
  return v.str();
}

namespace {
bool isModuleFile(const std::string &file) { return file.ends_with(".pt") || file.ends_with(".pth"); }

/// Torch-dialect MLIR by its first words (a file of only comments: by a `.mlir` name).
bool isTorchMlir(const std::string &file) {
  std::FILE *f = std::fopen(file.c_str(), "rb");
  if (!f) return file.ends_with(".mlir");
  char buf[8192];
  size_t n = std::fread(buf, 1, sizeof buf, f);
  std::fclose(f);
  std::string_view head(buf, n);
  return torch_mlir::looksLikeMlir(head) || (file.ends_with(".mlir") && head.find("graph(") == std::string_view::npos);
}
} // namespace

Reader chooseReader(const std::string &file) {
  std::string why;
  switch (pt2::sniffFile(file, &why)) {
  case pt2::FileKind::Pt2: return Reader::Archive;
  case pt2::FileKind::TorchScript: return Reader::Module;
  case pt2::FileKind::BadZip: return file.ends_with(".pt2") || !isModuleFile(file) ? Reader::Archive : Reader::Module;
  case pt2::FileKind::OtherZip:
  case pt2::FileKind::NotZip: break;
  }
  if (isTorchMlir(file)) return Reader::TorchMlir;
  if (file.ends_with(".pt2")) return Reader::Archive;
  return isModuleFile(file) ? Reader::Module : Reader::Text;
}

refine::TensorConstantPolicy tensorConstantPolicy(const std::string &text, bool savedModule) {
  std::string policy = text.empty() ? (savedModule ? "runtime" : "traced") : text;
  if (policy == "strict") return refine::TensorConstantPolicy::Strict;
  if (policy == "runtime") return refine::TensorConstantPolicy::Runtime;
  if (policy == "traced") return refine::TensorConstantPolicy::Traced;
  throw InputError(fmt::format("--tensor-constants: {} not in {{traced, strict, runtime}}", policy.substr(0, 40)));
}

void addInputTypes(const Semantics &sem, const std::vector<std::string> &specs, refine::Options &opts) {
  for (const std::string &spec : specs) {
    auto eq = spec.find('=');
    if (eq == std::string::npos || eq == 0)
      throw InputError(fmt::format("--input '{}': expected NAME=TYPE", spec.substr(0, 80)));
    auto v = parseNotation(spec.substr(eq + 1), nullptr, &sem.types());
    if (!v.value) throw InputError(fmt::format("--input {}: {}", spec.substr(0, std::min<size_t>(eq, 80)), v.error));
    opts.inputTypes.emplace_back(spec.substr(0, eq), *v.value);
  }
}

namespace {

/// The part of a debug name before TorchScript's uniquing suffix (`x.1` -> `x`).
std::string_view baseName(std::string_view n) {
  size_t dot = n.rfind('.');
  if (dot == std::string_view::npos || dot + 1 == n.size()) return n;
  for (size_t i = dot + 1; i < n.size(); ++i)
    if (n[i] < '0' || n[i] > '9') return n;
  return n.substr(0, dot);
}

/// A floating or complex dtype, as nn.Module.to(dtype) requires.
DType castTarget(const std::string &option, const std::string &text) {
  auto d = parseDType(text);
  if (!d) throw InputError(fmt::format("{} {}: unknown dtype", option, text.substr(0, 80)));
  if (!isFloating(*d) && !isComplex(*d))
    throw InputError(fmt::format("{} {}: a floating or complex dtype is needed (as for Module.to)", option, text));
  return *d;
}

} // namespace

void resolveInputNames(const ir::Graph &g, refine::Options &o) {
  for (auto &[name, v] : o.inputTypes) {
    std::string names;
    std::vector<std::string> byBase;
    bool exact = false;
    for (size_t i = 0; i < g.body().params.size(); ++i) {
      const std::string &n = g.values[g.body().params[i]].name;
      exact = exact || n == name;
      if (baseName(n) == name) byBase.push_back(n);
      if (i < 8) names += (names.empty() ? "" : ", ") + n; // a model has hundreds (its parameters)
    }
    if (exact) continue;
    if (byBase.size() == 1) {
      name = byBase[0];
      continue;
    }
    if (byBase.size() > 1)
      throw InputError(fmt::format("--input {}: several graph inputs have that name ({}): give one exactly", name,
                                   fmt::join(byBase, ", ")));
    size_t count = g.body().params.size();
    throw InputError(fmt::format("--input {}: no such graph input (inputs: {}{})", name, names,
                                 count > 8 ? fmt::format(", ... {} in all", count) : ""));
  }
}

void retypeArchiveInputs(const pt2::Program &p, const ir::Graph &g, const ArchiveRetype &retype,
                         refine::Options &opts) {
  std::set<std::string> named;
  for (auto &[name, v] : opts.inputTypes) {
    named.insert(name);
    // `--input x=bfloat16`: the archive's rank and sizes of 1 stay.
    if (!v.isTensor() || !v.rank().isTop()) continue;
    for (ir::ValueId param : g.body().params)
      if (g.values[param].name == name) v = ir::valueOfType(*g.values[param].type, true).withDTypes(v.dtypes());
  }
  auto retypeGroup = [&](const std::string &option, const std::string &dtypeText, auto selected) {
    if (dtypeText.empty()) return;
    DType d = castTarget(option, dtypeText);
    for (const pt2::GraphInput &in : p.inputs) {
      if (!selected(in.kind) || in.value == ir::kNoId || !p.recorded[in.value]) continue;
      const std::string &name = g.values[in.value].name;
      if (named.count(name) || !pt2::isFloatingOrComplexName(p.recorded[in.value]->dtypeName)) continue;
      opts.inputTypes.emplace_back(name, ir::valueOfType(*g.values[in.value].type, true).withDTypes(DTypeSet(d)));
    }
  };
  retypeGroup("--params", retype.params,
              [](pt2::InputKind k) { return k == pt2::InputKind::Parameter || k == pt2::InputKind::Buffer; });
  retypeGroup("--float-inputs", retype.floatInputs, [](pt2::InputKind k) { return k == pt2::InputKind::UserInput; });
}

std::vector<ArchiveVerdict> compareArchive(const ir::Graph &g, const pt2::Program &p, const refine::Result &r) {
  std::vector<ArchiveVerdict> out;
  refine::SizeBinding binding; // the export's own data-dependent symbols (u0 ...) to ours
  for (size_t i = 0; i < g.values.size() && i < p.recorded.size(); ++i) {
    const auto v = static_cast<ir::ValueId>(i);
    if (!p.recorded[v] || refine::isInputLike(g, v)) continue;
    const pt2::RecordedTensor &rec = *p.recorded[v];
    if (!rec.dtype) {
      out.push_back({v, refine::Verdict::NotChecked});
      continue;
    }
    refine::Verdict verdict = refine::checkTensor(*rec.dtype, rec.rank(), r.values[v], &rec.dims);
    const refine::SizeVerdict sizes = refine::checkSizes(rec.dims, r.values[v], &binding);
    if (sizes == refine::SizeVerdict::Wrong) verdict = refine::Verdict::Wrong; // wrong under the binding
    out.push_back({v, verdict, sizes});
  }
  return out;
}

std::string definedBy(const ir::Graph &g, ir::ValueId v) {
  ir::NodeId def = g.values[v].def;
  if (def == ir::kNoId) return "block parameter";
  const ir::Node &n = g.nodes[def];
  const std::string *pin = g.pinnedOverload(n.kind);
  return pin && !pin->empty() ? fmt::format("{}.{}", g.kindName(n.kind), *pin) : g.kindName(n.kind);
}

} // namespace dtf::api
