//===- python/core_module.cpp - dtypeflow._core, the pybind11 bindings ----===//
//
// A thin skin over src/api, the door the CLI goes through too: texts in the
// operand notation go in, plain dicts and lists come out;
// dtypeflow/__init__.py turns torch objects into texts and the dicts into
// result objects. Bad input is api::InputError: raised as ValueError with
// the CLI's message in Python's terms (keywords for options). `rules` (rule
// files for custom ops, the CLI's --rules) is accepted everywhere.
//
//===----------------------------------------------------------------------===//
#include "api/api.h"
#include "api/program.h"
#include "api/mlir_program.h"
#include "frontends/torch_mlir/mlir_reader.h"
#include "ops/may_raise.h"

#include <fmt/format.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <map>
#include <regex>

namespace py = pybind11;
using namespace dtf;

namespace {

py::object dtypeOf(const Value &v) {
  return v.isTensor() && v.dtype() ? py::object(py::str(std::string(name(*v.dtype())))) : py::object(py::none());
}
py::object rankOf(const Value &v) {
  return v.isTensor() && v.rank().value() ? py::object(py::int_(*v.rank().value())) : py::object(py::none());
}
/// A tensor's sizes as Python sees them: ints, expression strings ("2*s0",
/// like torch.SymInt's str), None for an unknown dim; None when the rank is.
py::object shapeOf(const Value &v) {
  auto dims = v.isTensor() ? v.shape() : std::nullopt;
  if (!dims) return py::none();
  py::list l;
  for (const Dim &d : *dims) {
    if (auto n = d.value()) l.append(py::int_(*n));
    else if (d.known()) l.append(py::str(d.str()));
    else l.append(py::none());
  }
  return l;
}
py::list possibleOf(const DTypeSet &s) {
  py::list l;
  for (DType d : s) l.append(std::string(name(d)));
  return l;
}
py::object ruleError(const std::optional<RuleError> &e, std::string_view torch) {
  if (!e) return py::none();
  py::dict d;
  d["kind"] = std::string(name(e->kind));
  d["message"] = e->message;
  if (std::string gap = kernelGapText(*e, torch); !gap.empty()) d["gap"] = gap; // a device gap, in words
  return d;
}

/// A message of the door in Python's terms: the keyword for each CLI option
/// (`torch="1.13"` for `--torch 1.13`, `inputs["x"]` for `--input x`).
std::string pythonTerms(std::string m) {
  // An option with its value: the keyword with the value as Python writes it.
  static const std::pair<std::regex, const char *> kValued[] = {
      {std::regex(R"(--torch ([^\s:;,()]+))"), "torch=\"$1\""},
      {std::regex(R"(--input '([^']*)')"), "inputs entry '$1'"},
      {std::regex(R"(--input ([^\s:;,()]+))"), "inputs[\"$1\"]"},
      {std::regex(R"(--params ([^\s:;,()]+):)"), "params=\"$1\":"},
      {std::regex(R"(--float-inputs ([^\s:;,()]+):)"), "float_inputs=\"$1\":"},
      {std::regex(R"(--rules FILE)"), "rules=[FILE]"},
      {std::regex(R"(--autocast ([^\s;,()]+):)"), "autocast=\"$1\":"}};
  for (const auto &[flag, keyword] : kValued) m = std::regex_replace(m, flag, keyword);
  // An option named alone: its keyword.
  static const std::pair<std::string_view, std::string_view> kNamed[] = {
      {"--rules", "rules"},     {"--params", "params"},           {"--float-inputs", "float_inputs"},
      {"--model", "model"},     {"--tensor-constants", "tensor_constants"}};
  for (auto [flag, keyword] : kNamed)
    for (size_t at = m.find(flag); at != std::string::npos; at = m.find(flag, at + keyword.size()))
      m.replace(at, flag.size(), keyword);
  return m;
}

py::dict resultType(const std::vector<std::string> &operands, const std::string &torch,
                    const std::vector<std::string> &rules) {
  api::SemanticsRef ref = api::semantics(torch, rules);
  const Semantics &sem = *ref;
  PossibleDTypes p = api::resultType(sem, operands);
  py::dict d;
  d["dtype"] = p.dtypes.only() ? py::object(py::str(std::string(name(*p.dtypes.only())))) : py::object(py::none());
  d["possible"] = possibleOf(p.dtypes);
  d["error"] = p.error ? py::object(py::str(*p.error)) : py::object(py::none());
  d["always_raises"] = p.alwaysRaises();
  d["torch"] = std::string(sem.versionName());
  return d;
}

py::dict inferOp(const std::string &op, const std::vector<std::string> &positional,
                 const std::vector<std::pair<std::string, std::string>> &named, const std::string &torch,
                 const std::vector<std::string> &rules, const std::string &autocast, const std::string &cpu,
                 const std::string &kernels) {
  api::SemanticsRef ref = api::semanticsIn(api::semantics(torch, rules), cpu, kernels);
  const Semantics &sem = *ref;
  std::vector<api::OpArg> args;
  for (const std::string &t : positional) args.push_back({"", t});
  for (const auto &[n, t] : named) args.push_back({n, t});
  api::OpCall call = api::inferOp(sem, op, args, autocast);
  py::list results;
  for (const Value &v : call.outcome.outputs) {
    py::dict r;
    r["dtype"] = dtypeOf(v);
    r["rank"] = rankOf(v);
    r["shape"] = shapeOf(v);
    r["is_tensor"] = v.isTensor();
    r["text"] = api::resultText(v);
    results.append(r);
  }
  py::dict d;
  d["op"] = call.schema->key();
  d["status"] = std::string(api::statusName(call.outcome.status));
  d["results"] = results;
  d["error"] = ruleError(call.outcome.error, sem.versionName());
  d["possible_error"] = ruleError(call.outcome.possibleError, sem.versionName());
  d["torch"] = std::string(sem.versionName());
  return d;
}

/// What annotate() gives Python, built per graph (a module's functions add to one).
struct Report {
  py::list values, diagnostics;
  py::object counts = py::none();
};

py::dict countsDict(const api::CheckReport &report) {
  size_t unmodelled = 0;
  for (const auto &[dtype, n] : report.unmodelled) unmodelled += n;
  py::dict c;
  c["correct"] = report.counts.correct, c["unknown"] = report.counts.unknown, c["wrong"] = report.counts.wrong;
  c["not_modelled"] = unmodelled;
  c["compared"] = !report.retyped;
  return c;
}

/// One value's entry (`name` as Python sees it; `diags`: indices into the diagnostics list).
void addValue(const ir::Graph &g, const refine::Result &r, ir::ValueId v, const std::string &name, py::list diags,
              std::optional<refine::Verdict> verdict, const pt2::Program *archive, Report &out) {
  const Value &got = r.values[v];
  py::dict j;
  j["name"] = name;
  j["dtype"] = dtypeOf(got);
  j["rank"] = rankOf(got);
  j["shape"] = shapeOf(got);
  j["possible"] = got.isTensor() ? possibleOf(got.dtypes()) : py::list();
  j["is_input"] = refine::isInputLike(g, v);
  j["node"] = api::definedBy(g, v);
  j["reason"] = refine::fullyKnown(got) || r.reasons[v] == refine::UnknownReason::None
                    ? py::object(py::none())
                    : py::object(py::str(std::string(refine::describe(r.reasons[v]))));
  j["diagnostics"] = diags;
  if (archive && v < archive->recorded.size() && archive->recorded[v]) {
    const pt2::RecordedTensor &rec = *archive->recorded[v];
    j["recorded_dtype"] = rec.dtypeName;
    j["recorded_rank"] = rec.rank();
  }
  static constexpr const char *kVerdict[] = {"not-checked", "correct", "unknown", "wrong"};
  j["verdict"] = verdict ? py::object(py::str(kVerdict[static_cast<int>(*verdict)])) : py::object(py::none());
  out.values.append(j);
}

/// Every tensor value of `g` refined into `r`, and the diagnostics, appended to `out`.
void addValues(const ir::Graph &g, const refine::Result &r, const std::vector<refine::Diagnostic> &diags,
               const api::CheckReport &report, const std::string &prefix, const pt2::Program *archive, Report &out) {
  std::vector<py::list> perValue(g.values.size());
  for (const refine::Diagnostic &d : diags) {
    const size_t i = py::len(out.diagnostics);
    py::dict j;
    j["severity"] = std::string(refine::name(d.severity));
    j["category"] = d.category;
    j["message"] = d.message;
    j["node"] = d.node == ir::kNoId ? py::object(py::none()) : py::object(py::str(g.kindOf(d.node)));
    j["line"] = d.loc.line ? py::object(py::int_(d.loc.line)) : py::object(py::none());
    py::list names;
    // A diagnostic belongs to the value it names, else to its node's results.
    if (d.value != ir::kNoId) perValue[d.value].append(i);
    else if (d.node != ir::kNoId)
      for (ir::ValueId o : g.nodes[d.node].outputs) perValue[o].append(i);
    if (d.value != ir::kNoId) names.append(prefix + g.values[d.value].name);
    else if (d.node != ir::kNoId)
      for (ir::ValueId o : g.nodes[d.node].outputs) names.append(prefix + g.values[o].name);
    j["values"] = names;
    out.diagnostics.append(j);
  }
  std::vector<std::optional<refine::Verdict>> verdicts(g.values.size());
  for (const api::CheckedValue &c : report.values) verdicts[c.value] = c.verdict;
  for (size_t i = 0; i < g.values.size(); ++i) {
    const auto v = static_cast<ir::ValueId>(i);
    if (!g.values[v].type->isTensor() && !r.values[v].isTensor()) continue;
    addValue(g, r, v, prefix + g.values[v].name, perValue[v], verdicts[v], archive, out);
  }
}

/// A program read once (through the door, src/api/program.h) and refined as
/// often as asked (the benchmark times refine() apart from reading).
class Program {
public:
  static Program read(const std::string &path, const std::string &torch, const std::string &model,
                      const std::vector<std::string> &rules) {
    api::SemanticsRef sem = api::semantics(torch, rules);
    return Program(sem, api::readProgram(path, model, *sem)); // a saved module: refused (torch.jit.load it)
  }
  static Program fromText(const std::string &text, const std::string &torch, const std::string &where,
                          const std::vector<std::string> &rules) {
    api::SemanticsRef sem = api::semantics(torch, rules);
    return Program(sem, api::programFromText(text, where, *sem));
  }
  static Program fromExportJson(const std::string &json, const std::string &torch, const std::string &where,
                                const std::vector<std::string> &rules) {
    api::SemanticsRef sem = api::semantics(torch, rules);
    return Program(sem, api::programFromExportJson(json, where, *sem));
  }

  /// Refine under these input types; returns how many tensor values came out fully known.
  /// `planned` keeps the graph's GraphPlan between calls, `warm` also the evaluation memo
  /// (refine::Options::plan, ::memo): the benchmark's three ways, as in docs/performance.md.
  /// `sizes=False` runs the dtype/rank pass alone (refine::Options::sizes): what sizes cost.
  size_t refineCount(const std::vector<std::string> &inputs, const std::string &params, const std::string &floatInputs,
                     const std::string &tensorConstants, bool check, bool planned, bool warm, bool sizes) {
    if (p_.mlir) { // a module: its functions refined together (no plan or memo kept between calls)
      api::MlirProgram m = api::refineMlir(p_.mlir, p_.shown, sem_, {inputs, {params, floatInputs}, tensorConstants, check});
      size_t known = 0;
      for (const refine::Result &r : m.results)
        for (const Value &v : r.values) known += refine::fullyKnown(v);
      return known;
    }
    refine::Options o = api::refineOptions(p_, sem_, {inputs, {params, floatInputs}, tensorConstants, check});
    o.sizes = sizes;
    std::shared_ptr<const refine::GraphPlan> &plan = sizes ? plan_ : planNoSizes_; // one of each mode
    std::shared_ptr<refine::EvalMemo> &memo = sizes ? memo_ : memoNoSizes_;
    if (planned || warm) {
      if (!plan)
        plan = refine::makeGraphPlan(*p_.graph, sem_, sizes);
      o.plan = plan;
    }
    if (warm) {
      if (!memo) memo = refine::makeEvalMemo();
      o.memo = memo;
    }
    refine::Result r = refine::refineGraph(*p_.graph, o);
    size_t known = 0;
    for (const Value &v : r.values) known += refine::fullyKnown(v);
    return known;
  }

  py::dict annotate(const std::vector<std::string> &inputs, const std::string &params, const std::string &floatInputs,
                    const std::string &tensorConstants, bool check, const std::string &autocast) {
    const api::ProgramOptions po{inputs, {params, floatInputs}, tensorConstants, check};
    std::optional<AutocastContext> context;
    if (!autocast.empty()) { // `cpu:bfloat16`, as the CLI's --autocast
      std::string error;
      context = AutocastContext::parse(autocast, sem_->version(), error);
      if (!context) throw api::InputError(error);
    }
    Report out;
    if (p_.mlir) { // Torch-dialect MLIR: every function, refined together (api/mlir_program.h)
      api::MlirProgram m = api::refineMlir(p_.mlir, p_.shown, sem_, po, context);
      api::CheckReport total;
      for (size_t i = 0; i < m.size(); ++i) {
        const torch_mlir::Function &f = m.function(i);
        std::vector<refine::Diagnostic> diags = f.diagnostics; // the reader's first, as the CLI's JSON
        diags.insert(diags.end(), m.results[i].diagnostics.begin(), m.results[i].diagnostics.end());
        api::CheckReport report;
        if (check) report = api::checkMlirFunction(m, i);
        total.counts.correct += report.counts.correct, total.counts.unknown += report.counts.unknown;
        total.counts.wrong += report.counts.wrong;
        // A module of several functions names its values @f:name (SSA names repeat between functions).
        std::string prefix = m.size() > 1 ? "@" + f.name + ":" : "";
        addValues(*f.graph, m.results[i], diags, report, prefix, nullptr, out);
        // Casts and copies name the data of their operand under an SSA name of their own.
        for (const torch_mlir::SsaDef &d : f.defs)
          if (d.key() != f.graph->values[d.value].name && m.results[i].values[d.value].isTensor())
            addValue(*f.graph, m.results[i], d.value, prefix + d.key(), py::list(), std::nullopt, nullptr, out);
      }
      if (check) out.counts = countsDict(total);
    } else {
      const ir::Graph &g = *p_.graph;
      refine::Options opts = api::refineOptions(p_, sem_, po);
      opts.autocast = context;
      refine::Result r = refine::refineGraph(g, opts);
      std::vector<refine::Diagnostic> diags;
      if (p_.archive) diags = p_.archive->diagnostics; // the reader's (unknown targets ...) first, as the CLI's JSON
      diags.insert(diags.end(), r.diagnostics.begin(), r.diagnostics.end());
      // check=True: every written (IR) or recorded (.pt2) type against the
      // inference, as `dtypeflow check` compares; nothing for a re-typed .pt2.
      api::CheckReport report;
      std::map<std::string, std::string> cpuAnswers; // by value name
      if (check) {
        report = api::checkProgram(p_, r, api::retypesArchive(p_, po));
        // Recorded as the meta kernels compute them (FakeTensor), not as eager CPU: correct, named.
        for (const api::MetaOnlyValue &m : api::settleByMetaKernels(p_, opts, r, report))
          cpuAnswers[g.values[m.value].name] = m.cpu.str();
        out.counts = countsDict(report);
      }
      addValues(g, r, diags, report, "", p_.archive ? &*p_.archive : nullptr, out);
      for (py::handle v : out.values) {
        auto it = cpuAnswers.find(v["name"].cast<std::string>());
        if (it != cpuAnswers.end()) v["cpu_answer"] = it->second;
      }
    }
    py::dict d;
    d["torch"] = std::string(sem_->versionName());
    d["values"] = out.values;
    d["diagnostics"] = out.diagnostics;
    d["counts"] = out.counts;
    return d;
  }

  bool isArchive() const { return p_.archive.has_value(); }
  std::string torch() const { return std::string(sem_->versionName()); }
  std::vector<std::string> inputNames() const {
    std::vector<std::string> out;
    for (ir::ValueId p : p_.graph->body().params) out.push_back(p_.graph->values[p].name);
    return out;
  }
  size_t nodeCount() const { return p_.graph->nodes.size(); }

private:
  Program(api::SemanticsRef sem, api::LoadedProgram p) : sem_(std::move(sem)), p_(std::move(p)) {}

  api::SemanticsRef sem_; ///< the version's semantics, or (with rule files) one kept alive here
  api::LoadedProgram p_;
  std::shared_ptr<const refine::GraphPlan> plan_, planNoSizes_;
  std::shared_ptr<refine::EvalMemo> memo_, memoNoSizes_;
};

} // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "dtypeflow's core: dtype inference for PyTorch programs (see the dtypeflow package)";
  m.attr("newest_torch") = std::string(name(kNewestTorch));
  m.attr("torch_versions") = std::string(supportedTorchVersions());
  // Bad input (api::InputError) is a ValueError worded for Python.
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const api::InputError &e) {
      PyErr_SetString(PyExc_ValueError, pythonTerms(e.what()).c_str());
    }
  });
  m.def(
      "reader_of",
      [](const std::string &path) {
        switch (api::chooseReader(path)) {
        case api::Reader::Archive: return "archive";
        case api::Reader::Module: return "module";
        case api::Reader::Text: return "text";
        case api::Reader::TorchMlir: return "mlir";
        }
        return "text";
      },
      py::arg("path"));
  const auto noRules = std::vector<std::string>{};
  m.def("looks_like_mlir", [](const std::string &text) { return torch_mlir::looksLikeMlir(text); }, py::arg("text"),
        "Does the text start as Torch-dialect MLIR does (module, func.func, their generic spellings)?");
  m.def("result_type", &resultType, py::arg("operands"), py::arg("torch"), py::arg("rules") = noRules);
  m.def("infer_op", &inferOp, py::arg("op"), py::arg("positional"), py::arg("named"), py::arg("torch"),
        py::arg("rules") = noRules, py::arg("autocast") = std::string(), py::arg("cpu") = std::string(),
        py::arg("kernels") = std::string());
  // dynamic_attr: the package keeps how to read a loaded program again (for another torch=).
  py::class_<Program>(m, "Program", py::dynamic_attr())
      .def_static("read", &Program::read, py::arg("path"), py::arg("torch"), py::arg("model") = "",
                  py::arg("rules") = noRules)
      .def_static("from_text", &Program::fromText, py::arg("text"), py::arg("torch"), py::arg("where") = "<text>",
                  py::arg("rules") = noRules)
      .def_static("from_export_json", &Program::fromExportJson, py::arg("json"), py::arg("torch"),
                  py::arg("where") = "<json>", py::arg("rules") = noRules)
      .def("annotate", &Program::annotate, py::arg("inputs") = std::vector<std::string>{}, py::arg("params") = "",
           py::arg("float_inputs") = "", py::arg("tensor_constants") = "", py::arg("check") = false,
           py::arg("autocast") = "")
      .def("refine_count", &Program::refineCount, py::arg("inputs") = std::vector<std::string>{},
           py::arg("params") = "", py::arg("float_inputs") = "", py::arg("tensor_constants") = "",
           py::arg("check") = false, py::arg("planned") = false, py::arg("warm") = false, py::arg("sizes") = true)
      .def_property_readonly("is_archive", &Program::isArchive)
      .def_property_readonly("torch", &Program::torch)
      .def_property_readonly("input_names", &Program::inputNames)
      .def_property_readonly("node_count", &Program::nodeCount);
}
