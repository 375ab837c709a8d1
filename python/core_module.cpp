//===- python/core_module.cpp - dtypeflow._core, the pybind11 bindings ----===//
//
// A thin layer over src/api (which mirrors the CLI's code): texts in the
// operand notation go in, plain dicts and lists come out;
// dtypeflow/__init__.py turns torch objects into texts and the dicts into
// result objects. Bad input is api::InputError, a std::invalid_argument:
// pybind11 raises it as ValueError with the message the CLI prints. `rules`
// (rule files for custom ops, the CLI's --rules) is accepted everywhere.
//
//===----------------------------------------------------------------------===//
#include "api/api.h"
#include "frontends/text/ir_lexer.h"
#include "frontends/text/ir_parser.h"

#include <fmt/format.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace py = pybind11;
using namespace dtf;

namespace {

py::object dtypeOf(const Value &v) {
  return v.isTensor() && v.dtype() ? py::object(py::str(std::string(name(*v.dtype())))) : py::object(py::none());
}
py::object rankOf(const Value &v) {
  return v.isTensor() && v.rank().value() ? py::object(py::int_(*v.rank().value())) : py::object(py::none());
}
py::list possibleOf(const DTypeSet &s) {
  py::list l;
  for (DType d : s) l.append(std::string(name(d)));
  return l;
}
py::object ruleError(const std::optional<RuleError> &e) {
  if (!e) return py::none();
  py::dict d;
  d["kind"] = std::string(name(e->kind));
  d["message"] = e->message;
  return d;
}

/// The semantics `torch` and `rules` name: the version's, or (with rule files)
/// one kept alive by `holder`.
const Semantics &semanticsFor(const std::string &torch, const std::vector<std::string> &rules,
                              std::shared_ptr<const Semantics> &holder) {
  holder = api::semanticsWithRules(torch, rules);
  return holder ? *holder : api::semanticsOf(torch);
}

py::dict resultType(const std::vector<std::string> &operands, const std::string &torch,
                    const std::vector<std::string> &rules) {
  std::shared_ptr<const Semantics> holder;
  const Semantics &sem = semanticsFor(torch, rules, holder);
  PossibleDTypes p = api::resultType(sem, operands);
  py::dict d;
  d["dtype"] = p.dtypes.only() ? py::object(py::str(std::string(name(*p.dtypes.only())))) : py::object(py::none());
  d["possible"] = possibleOf(p.dtypes);
  d["error"] = p.error ? py::object(py::str(*p.error)) : py::object(py::none());
  d["always_raises"] = p.alwaysRaises();
  d["torch"] = std::string(sem.versionName());
  return d;
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

py::dict inferOp(const std::string &op, const std::vector<std::string> &positional,
                 const std::vector<std::pair<std::string, std::string>> &named, const std::string &torch,
                 const std::vector<std::string> &rules) {
  std::shared_ptr<const Semantics> holder;
  const Semantics &sem = semanticsFor(torch, rules, holder);
  std::vector<api::OpArg> args;
  for (const std::string &t : positional) args.push_back({"", t});
  for (const auto &[n, t] : named) args.push_back({n, t});
  api::OpCall call = api::inferOp(sem, op, args);
  py::list results;
  for (const Value &v : call.outcome.outputs) {
    py::dict r;
    r["dtype"] = dtypeOf(v);
    r["rank"] = rankOf(v);
    r["is_tensor"] = v.isTensor();
    r["text"] = api::resultText(v);
    results.append(r);
  }
  py::dict d;
  d["op"] = call.schema->key();
  d["status"] = std::string(statusName(call.outcome.status));
  d["results"] = results;
  d["error"] = ruleError(call.outcome.error);
  d["possible_error"] = ruleError(call.outcome.possibleError);
  d["torch"] = std::string(sem.versionName());
  return d;
}

/// A program read once and refined as often as asked (the benchmark times
/// refine() apart from reading).
class Program {
public:
  static Program read(const std::string &path, const std::string &torch, const std::string &model,
                      const std::vector<std::string> &rules) {
    Program p(torch, rules, path);
    api::Reader reader = api::chooseReader(path);
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) throw api::InputError(fmt::format("{}: error: cannot read the file", path));
    if (reader == api::Reader::Module)
      throw api::InputError(fmt::format("{}: a saved TorchScript module: pass torch.jit.load(path) to annotate", path));
    if (reader == api::Reader::Archive) {
      pt2::ReadOptions o;
      o.model = model;
      o.torch = p.sem_->version();
      o.semantics = p.sem_;
      p.setArchive(pt2::readArchive(path, o));
      return p;
    }
    if (!model.empty()) throw api::InputError("--model applies to .pt2 archives only");
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    p.parseText(ss.str());
    return p;
  }
  static Program fromText(const std::string &text, const std::string &torch, const std::string &where,
                          const std::vector<std::string> &rules) {
    Program p(torch, rules, where);
    p.parseText(text);
    return p;
  }
  static Program fromExportJson(const std::string &json, const std::string &torch, const std::string &where,
                                const std::vector<std::string> &rules) {
    Program p(torch, rules, where);
    pt2::ReadOptions o;
    o.torch = p.sem_->version();
    o.semantics = p.sem_;
    p.setArchive(pt2::readExportedProgram(json, where, o));
    return p;
  }

  /// Refine under these input types; returns how many tensor values came out fully known.
  /// `planned` keeps the graph's GraphPlan between calls, `warm` also the evaluation memo
  /// (refine::Options::plan, ::memo): the benchmark's three ways, as in docs/performance.md.
  size_t refineCount(const std::vector<std::string> &inputs, const std::string &params, const std::string &floatInputs,
                     const std::string &tensorConstants, bool check, bool planned, bool warm) {
    refine::Options o = options(inputs, params, floatInputs, tensorConstants, check);
    if (planned || warm) {
      if (!plan_) plan_ = rules_ ? refine::makeGraphPlan(*graph_, rules_) : refine::makeGraphPlan(*graph_, sem_->version());
      o.plan = plan_;
    }
    if (warm) {
      if (!memo_) memo_ = refine::makeEvalMemo();
      o.memo = memo_;
    }
    refine::Result r = refine::refineGraph(*graph_, o);
    size_t known = 0;
    for (const Value &v : r.values) known += refine::fullyKnown(v);
    return known;
  }

  py::dict annotate(const std::vector<std::string> &inputs, const std::string &params, const std::string &floatInputs,
                    const std::string &tensorConstants, bool check, const std::string &autocast) {
    const ir::Graph &g = *graph_;
    refine::Options opts = options(inputs, params, floatInputs, tensorConstants, check);
    if (!autocast.empty()) { // `cpu:bfloat16`, as the CLI's --autocast
      std::string error;
      opts.autocast = AutocastContext::parse(autocast, sem_->version(), error);
      if (!opts.autocast) throw api::InputError(error);
    }
    refine::Result r = refine::refineGraph(g, opts);
    std::vector<refine::Diagnostic> diags;
    if (archive_) diags = archive_->diagnostics; // the reader's (unknown targets ...) first, as the CLI's JSON
    diags.insert(diags.end(), r.diagnostics.begin(), r.diagnostics.end());

    std::vector<py::list> perValue(g.values.size());
    py::list dlist;
    for (size_t i = 0; i < diags.size(); ++i) {
      const refine::Diagnostic &d = diags[i];
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
      if (d.value != ir::kNoId) names.append(g.values[d.value].name);
      else if (d.node != ir::kNoId)
        for (ir::ValueId o : g.nodes[d.node].outputs) names.append(g.values[o].name);
      j["values"] = names;
      dlist.append(j);
    }

    std::vector<std::optional<refine::Verdict>> verdicts(g.values.size());
    py::dict counts;
    if (archive_) {
      size_t correct = 0, unknown = 0, wrong = 0, unmodelled = 0;
      for (const api::ArchiveVerdict &c : api::compareArchive(g, *archive_, r)) {
        verdicts[c.value] = c.verdict;
        correct += c.verdict == refine::Verdict::Correct;
        unknown += c.verdict == refine::Verdict::Unknown;
        wrong += c.verdict == refine::Verdict::Wrong;
        unmodelled += c.verdict == refine::Verdict::NotChecked;
      }
      counts["correct"] = correct, counts["unknown"] = unknown, counts["wrong"] = wrong;
      counts["not_modelled"] = unmodelled;
    }

    py::list values;
    for (size_t i = 0; i < g.values.size(); ++i) {
      const auto v = static_cast<ir::ValueId>(i);
      const Value &got = r.values[v];
      if (!g.values[v].type->isTensor() && !got.isTensor()) continue;
      py::dict j;
      j["name"] = g.values[v].name;
      j["dtype"] = dtypeOf(got);
      j["rank"] = rankOf(got);
      j["possible"] = got.isTensor() ? possibleOf(got.dtypes()) : py::list();
      j["is_input"] = refine::isInputLike(g, v);
      j["node"] = api::definedBy(g, v);
      j["reason"] = refine::fullyKnown(got) || r.reasons[v] == refine::UnknownReason::None
                        ? py::object(py::none())
                        : py::object(py::str(std::string(refine::describe(r.reasons[v]))));
      j["diagnostics"] = perValue[v];
      if (archive_ && v < archive_->recorded.size() && archive_->recorded[v]) {
        const pt2::RecordedTensor &rec = *archive_->recorded[v];
        j["recorded_dtype"] = rec.dtypeName;
        j["recorded_rank"] = rec.rank();
      }
      static constexpr const char *kVerdict[] = {"not-checked", "correct", "unknown", "wrong"};
      j["verdict"] = verdicts[v] ? py::object(py::str(kVerdict[static_cast<int>(*verdicts[v])])) : py::object(py::none());
      values.append(j);
    }
    py::dict out;
    out["torch"] = std::string(sem_->versionName());
    out["values"] = values;
    out["diagnostics"] = dlist;
    out["counts"] = archive_ ? py::object(counts) : py::object(py::none());
    return out;
  }

  bool isArchive() const { return archive_.has_value(); }
  std::string torch() const { return std::string(sem_->versionName()); }
  std::vector<std::string> inputNames() const {
    std::vector<std::string> out;
    for (ir::ValueId p : graph_->body().params) out.push_back(graph_->values[p].name);
    return out;
  }
  size_t nodeCount() const { return graph_->nodes.size(); }

private:
  Program(const std::string &torch, const std::vector<std::string> &rules, std::string where)
      : sem_(&semanticsFor(torch, rules, rules_)), where_(std::move(where)) {}

  void parseText(const std::string &text) {
    try {
      graph_ = std::shared_ptr<ir::Graph>(ir::parseIR(text).release());
    } catch (const ir::IRSyntaxError &e) {
      throw api::InputError(fmt::format("{}:{}:{}: error: {}", where_, e.line, e.col, e.what()));
    }
  }
  void setArchive(pt2::ReadResult r) {
    if (!r.program) throw api::InputError(fmt::format("{}: error: {}", where_, r.error));
    graph_ = std::shared_ptr<ir::Graph>(r.program->graph.release());
    archive_ = std::move(r.program);
  }

  refine::Options options(const std::vector<std::string> &inputs, const std::string &params,
                          const std::string &floatInputs, const std::string &tensorConstants, bool check) const {
    refine::Options o;
    o.torch = sem_->version();
    o.semantics = rules_; // null without rule files
    o.tensorConstants = api::tensorConstantPolicy(tensorConstants, false);
    api::addInputTypes(*sem_, inputs, o);
    api::resolveInputNames(*graph_, o);
    if (archive_) api::retypeArchiveInputs(*archive_, *graph_, {params, floatInputs}, o);
    else if (!params.empty() || !floatInputs.empty())
      throw api::InputError("--params and --float-inputs apply to .pt2 archives (whose inputs say which are parameters)");
    return check ? refine::checkOptions(o) : o;
  }

  std::shared_ptr<const Semantics> rules_; ///< with rule files: the semantics sem_ points to
  const Semantics *sem_;
  std::string where_;
  std::shared_ptr<ir::Graph> graph_;
  std::optional<pt2::Program> archive_; // a .pt2's inputs and recorded types (graph moved out)
  std::shared_ptr<const refine::GraphPlan> plan_;
  std::shared_ptr<refine::EvalMemo> memo_;
};

} // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "dtypeflow's core: dtype inference for PyTorch programs (see the dtypeflow package)";
  m.attr("newest_torch") = std::string(name(kNewestTorch));
  m.attr("torch_versions") = std::string(supportedTorchVersions());
  m.def(
      "reader_of",
      [](const std::string &path) {
        switch (api::chooseReader(path)) {
        case api::Reader::Archive: return "archive";
        case api::Reader::Module: return "module";
        case api::Reader::Text: return "text";
        }
        return "text";
      },
      py::arg("path"));
  const auto noRules = std::vector<std::string>{};
  m.def("result_type", &resultType, py::arg("operands"), py::arg("torch"), py::arg("rules") = noRules);
  m.def("infer_op", &inferOp, py::arg("op"), py::arg("positional"), py::arg("named"), py::arg("torch"),
        py::arg("rules") = noRules);
  py::class_<Program>(m, "Program")
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
           py::arg("check") = false, py::arg("planned") = false, py::arg("warm") = false)
      .def_property_readonly("is_archive", &Program::isArchive)
      .def_property_readonly("torch", &Program::torch)
      .def_property_readonly("input_names", &Program::inputNames)
      .def_property_readonly("node_count", &Program::nodeCount);
}
