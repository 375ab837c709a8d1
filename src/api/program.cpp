//===- api/program.cpp - a program file, from the user to the pass -------===//
#include "api/program.h"

#include "api/input_file.h"
#include "api/mlir_program.h"
#include "frontends/text/ir_parser.h"
#include "frontends/text/printable.h"
#include "graph/type_expr.h"
#include "ops/cpu_capability.h"
#include "shape/unbacked.h"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <unistd.h>

namespace dtf::api {

SemanticsRef semantics(std::string_view torch, const std::vector<std::string> &ruleFiles) {
  if (SemanticsRef withRules = semanticsWithRules(torch, ruleFiles)) return withRules;
  return semanticsOf(torch).shared_from_this();
}

SemanticsRef semanticsIn(SemanticsRef ref, std::string_view cpu, std::string_view kernels) {
  if (cpu.empty() && kernels.empty()) return ref;
  ExecContext context;
  if (cpu == "host") {
    context.cpu = hostCpuKind();
  } else if (!cpu.empty()) {
    auto k = parseCpuKind(cpu);
    if (!k)
      throw InputError(fmt::format("--cpu {}: not a kind of CPU (kinds: {}, or host)", cpu.substr(0, 40), cpuKindNames()));
    context.cpu = *k;
  }
  if (!kernels.empty()) {
    auto k = parseKernels(kernels);
    if (!k) throw InputError(fmt::format("--kernels {}: expected cpu or meta", kernels.substr(0, 40)));
    context.kernels = *k;
  }
  return Semantics::inContext(std::move(ref), context);
}

namespace {

ProgramError fileError(const std::string &shown, const std::string &what) {
  return ProgramError(fmt::format("{}: error: {}", shown, ir::printable(what, 2000)));
}

/// A dtype written in the IR that this version lacks (IR printed by a newer
/// PyTorch: Float8_e5m2(...) under 1.13) cannot be compared or used.
std::optional<DType> foreignDType(const ir::TypeExpr &t, const Semantics &sem) {
  if (t.dtype && !sem.types().names(*t.dtype)) return t.dtype;
  for (const ir::TypePtr &e : t.elems)
    if (auto d = foreignDType(*e, sem)) return d;
  return std::nullopt;
}

LoadedProgram fromArchive(pt2::ReadResult r, const std::string &shown) {
  if (!r.program) throw fileError(shown, r.error);
  LoadedProgram p;
  p.reader = Reader::Archive;
  p.shown = shown;
  p.graph = std::shared_ptr<ir::Graph>(r.program->graph.release());
  p.archive = std::move(r.program);
  return p;
}

/// Standard input holding a zip (a .pt2, a saved module): into a file, as
/// both readers open their archive by path; removed when done.
struct TempFile {
  std::string path;
  explicit TempFile(const std::string &bytes) {
    std::string tmpl = (std::filesystem::temp_directory_path() / "dtypeflow-stdin-XXXXXX").string();
    int fd = mkstemp(tmpl.data());
    if (fd < 0) throw ProgramError("<stdin>: error: cannot keep standard input in a temporary file");
    path = tmpl;
    for (size_t done = 0; done < bytes.size();) {
      ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
      if (n <= 0) {
        ::close(fd);
        throw ProgramError("<stdin>: error: cannot keep standard input in a temporary file");
      }
      done += static_cast<size_t>(n);
    }
    ::close(fd);
  }
  ~TempFile() { std::remove(path.c_str()); }
};

/// A module as a program: refined by refineMlir; `graph` its first function's (or an empty one).
LoadedProgram fromMlir(std::shared_ptr<const torch_mlir::Module> m, const std::string &shown) {
  LoadedProgram p;
  p.reader = Reader::TorchMlir;
  p.shown = shown;
  p.graph = m->functions.empty()
                ? std::make_shared<ir::Graph>()
                : std::shared_ptr<ir::Graph>(std::const_pointer_cast<torch_mlir::Module>(m), m->functions[0].graph.get());
  p.mlir = std::move(m);
  return p;
}

LoadedProgram readFile(const std::string &file, const std::string &shown, const std::string &model,
                       const Semantics &sem, const ModuleImporter &importer, Reader reader) {
  if (reader != Reader::Archive && !model.empty()) throw InputError("--model applies to .pt2 archives only");
  switch (reader) {
  case Reader::Archive: {
    if (std::string why = unreadable(file); !why.empty()) throw fileError(shown, "cannot read the file: " + why);
    pt2::ReadOptions o;
    o.model = model;
    o.semantics = sem.shared_from_this();
    return fromArchive(pt2::readArchive(file, o), shown);
  }
  case Reader::Module: {
    if (!importer)
      throw fileError(shown, "a saved TorchScript module: load it with torch.jit.load and pass the module");
    ImportedModule m = importer(file);
    if (!m.text) throw fileError(shown, "cannot load TorchScript module: " + m.error);
    LoadedProgram p = programFromText(*m.text, shown, sem);
    p.reader = Reader::Module;
    return p;
  }
  case Reader::TorchMlir:
    return fromMlir(readMlirModule(file, sem), shown);
  case Reader::Text: {
    InputText in = readInput(file);
    if (!in.text) throw fileError(shown, "cannot read the file: " + in.error);
    return programFromText(*in.text, shown, sem);
  }
  }
  throw fileError(shown, "no reader for this file");
}

} // namespace

LoadedProgram readProgram(const std::string &file, const std::string &model, const Semantics &sem,
                          const ModuleImporter &importer) {
  const std::string shown = shownName(file);
  if (file != "-") return readFile(file, shown, model, sem, importer, chooseReader(file));
  // Standard input is told apart by content as a file is: a zip goes through
  // a temporary file to chooseReader and the archive readers.
  InputText in = readInput(file);
  if (!in.text) throw fileError(shown, "cannot read standard input: " + in.error);
  if (!in.text->starts_with("PK\x03\x04")) {
    if (!model.empty()) throw InputError("--model applies to .pt2 archives only");
    return programFromText(*in.text, shown, sem);
  }
  TempFile tmp(*in.text);
  return readFile(tmp.path, shown, model, sem, importer, chooseReader(tmp.path));
}

LoadedProgram programFromText(const std::string &text, const std::string &where, const Semantics &sem) {
  if (torch_mlir::looksLikeMlir(text)) return fromMlir(mlirModuleFromText(text, where, sem), where);
  LoadedProgram p;
  p.shown = where;
  try {
    p.graph = std::shared_ptr<ir::Graph>(ir::parseIR(text).release());
  } catch (const ir::IRSyntaxError &e) {
    throw ProgramError(fmt::format("{}:{}:{}: error: {}", where, e.line, e.col, ir::printable(e.what(), 2000)));
  }
  for (const ir::ValueInfo &v : p.graph->values)
    if (auto d = foreignDType(*v.type, sem))
      throw ProgramError(fmt::format(
          "{}: error: %{} has type {}: dtype {} is not in PyTorch {} (IR of a newer PyTorch? try --torch {})", where,
          ir::printable(v.name, 200), ir::printable(v.type->text, 200), name(*d), sem.versionName(),
          name(kNewestTorch)));
  return p;
}

LoadedProgram programFromExportJson(std::string_view json, const std::string &where, const Semantics &sem) {
  pt2::ReadOptions o;
  o.semantics = sem.shared_from_this();
  return fromArchive(pt2::readExportedProgram(json, where, o), where);
}

refine::Options refineOptions(const LoadedProgram &p, const SemanticsRef &sem, const ProgramOptions &o) {
  if (p.mlir) throw std::logic_error("refineOptions: a Torch-dialect module is refined by refineMlir");
  refine::Options opts;
  opts.semantics = sem;
  opts.tensorConstants = tensorConstantPolicy(o.tensorConstants, p.reader == Reader::Module);
  addInputTypes(*sem, o.inputs, opts);
  resolveInputNames(*p.graph, opts);
  if (p.archive) {
    retypeArchiveInputs(*p.archive, *p.graph, o.retype, opts);
    for (const auto &rec : p.archive->recorded) // the export's own unbacked u0 ... are not ours to reuse
      if (rec) appendSymbols(rec->dims, opts.reservedSymbols);
  }
  else if (!o.retype.params.empty() || !o.retype.floatInputs.empty())
    throw InputError("--params and --float-inputs apply to .pt2 archives (whose inputs say which are parameters)");
  return o.check ? refine::checkOptions(opts) : opts;
}

bool retypesArchive(const LoadedProgram &p, const ProgramOptions &o) {
  return p.archive && (!o.inputs.empty() || !o.retype.params.empty() || !o.retype.floatInputs.empty());
}

bool raises(const refine::Result &r) {
  for (const refine::Diagnostic &d : r.diagnostics)
    if (d.category == "dtype-error") return true;
  return false;
}

CheckReport checkProgram(const LoadedProgram &p, const refine::Result &r, bool retyped) {
  CheckReport out;
  out.retyped = retyped;
  if (retyped) return out;
  const ir::Graph &g = *p.graph;
  auto count = [&](ir::ValueId v, refine::Verdict verdict, refine::SizeVerdict sizes) {
    refine::count(out.counts, verdict, sizes);
    if (verdict != refine::Verdict::NotChecked) out.values.push_back({v, verdict, sizes});
  };
  if (p.archive) { // the recorded TensorMeta, kept apart from the graph
    for (const ArchiveVerdict &a : compareArchive(g, *p.archive, r)) {
      if (a.verdict == refine::Verdict::NotChecked) ++out.unmodelled[p.archive->recorded[a.value]->dtypeName];
      count(a.value, a.verdict, a.sizes);
    }
    return out;
  }
  refine::SizeBinding binding; // the trace's run: its data-dependent sizes (refine::checkSizes)
  for (size_t i = 0; i < g.values.size(); ++i) {
    const auto v = static_cast<ir::ValueId>(i);
    refine::Verdict verdict = refine::checkWritten(g, v, r.values[v]);
    const refine::SizeVerdict sizes = verdict == refine::Verdict::NotChecked
                                          ? refine::SizeVerdict::NotChecked
                                          : refine::checkSizes(g.values[v].type->dims, r.values[v], &binding);
    if (sizes == refine::SizeVerdict::Wrong) verdict = refine::Verdict::Wrong; // wrong only under the run's binding
    count(v, verdict, sizes);
    // A written tensor type whose dtype is outside the model (QUInt8 ... of
    // quantized graphs): counted nowhere above, so counted here.
    const ir::TypeExpr &t = *g.values[v].type;
    if (t.isTensor() && t.rank && !t.dtype && !refine::isInputLike(g, v))
      ++out.unmodelled[t.text.substr(0, t.text.find('('))];
  }
  return out;
}

std::optional<refine::Options> onMetaKernels(const refine::Options &opts) {
  const Semantics &sem = refine::semanticsOf(opts);
  if (sem.context().kernels == Kernels::Meta) return std::nullopt;
  refine::Options onMeta = opts;
  onMeta.semantics = Semantics::inContext(opts.semantics, ExecContext{sem.context().cpu, Kernels::Meta});
  onMeta.plan = nullptr;
  onMeta.memo = nullptr;
  return onMeta;
}

std::vector<MetaOnlyValue> settleByMetaKernels(const LoadedProgram &p, const refine::Options &opts,
                                               const refine::Result &onCpu, CheckReport &report) {
  if (!p.archive || report.retyped || !report.counts.wrong) return {};
  const std::optional<refine::Options> onMeta = onMetaKernels(opts);
  if (!onMeta) return {};
  const refine::Result r = refine::refineGraph(*p.graph, *onMeta);
  std::vector<bool> rightOnMeta(p.graph->values.size());
  for (const ArchiveVerdict &a : compareArchive(*p.graph, *p.archive, r))
    rightOnMeta[a.value] = a.verdict == refine::Verdict::Correct;
  std::vector<MetaOnlyValue> out;
  for (CheckedValue &c : report.values) {
    if (c.verdict != refine::Verdict::Wrong || !rightOnMeta[c.value]) continue;
    c.verdict = refine::Verdict::Correct;
    --report.counts.wrong;
    ++report.counts.correct;
    out.push_back({c.value, onCpu.values[c.value], r.values[c.value]});
  }
  return out;
}

std::string recordedText(const LoadedProgram &p, ir::ValueId v) {
  if (p.archive) {
    if (v >= p.archive->recorded.size() || !p.archive->recorded[v]) return "";
    const pt2::RecordedTensor &rec = *p.archive->recorded[v];
    return rec.dtype ? fmt::format("{}:r{}", name(*rec.dtype), rec.rank()) : rec.str();
  }
  const ir::TypeExpr &t = *p.graph->values[v].type;
  if (!t.isTensor() || (!t.dtype && !t.rank)) return "";
  return ir::valueOfType(t, true).str();
}

std::string where(const std::string &shown, const ir::Graph &g, ir::NodeId n) {
  if (n == ir::kNoId) return shown;
  const ir::Node &node = g.nodes[n];
  if (node.loc.line) return fmt::format("{}:{}:{}", shown, node.loc.line, node.loc.col);
  if (!node.outputs.empty()) return fmt::format("{}: node {}", shown, ir::printable(g.values[node.outputs[0]].name));
  return fmt::format("{}: node {}", shown, ir::printable(g.kindOf(n)));
}

} // namespace dtf::api
