//===- tools/dtypeflow/cmd_torch_mlir.cpp - annotate/check Torch-dialect MLIR ===//
#include "torch_mlir_cli.h"

#include "frontends/text/ir_printer.h"
#include "frontends/text/printable.h"
#include "frontends/torch_mlir/mlir_printer.h"
#include "frontends/torch_mlir/mlir_reader.h"
#include "frontends/torch_mlir/mlir_refine.h"
#include "frontends/torch_mlir/mlir_writer.h"
#include "api/input_file.h"
#include "api/mlir_program.h"
#include "refine/check.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <optional>

namespace dtf::cli {
namespace {

/// ` (bound [s0 + 1, 3])`: the sizes torch.bind_symbolic_shape gave a value, where they say more
/// than its written type (a wrong size is then visible in the message).
std::string boundSizes(const ir::Graph &g, const torch_mlir::SsaDef &d) {
  Dims stated = torch_mlir::statedSizes(g, d);
  bool symbolic = std::any_of(stated.begin(), stated.end(), [](const Dim &x) { return x.known() && !x.value(); });
  return symbolic ? " (bound " + dimsText(stated) + ")" : "";
}

/// A module read and each of its functions refined, through the door (api/mlir_program.h).
struct MlirRun {
  std::shared_ptr<const torch_mlir::Module> module;
  api::MlirProgram program; ///< each function refined, as the door gave them (refineMlirOnMeta too)
  const std::vector<refine::Result> &results() const { return program.results; }
  TorchVersion torch = kNewestTorch;
  int exitCode = 0;
};

MlirRun run(const CommonFlags &flags, const std::string &file, bool forCheck,
           std::shared_ptr<const torch_mlir::Module> read) {
  MlirRun out;
  const api::SemanticsRef &sem = semanticsRef(*flags.torch);
  out.torch = sem->version();
  if (!flags.model.empty()) throw UsageError("--model applies to .pt2 archives only");
  try {
    out.module = read ? std::move(read) : api::readMlirModule(file, *sem);
  } catch (const api::ProgramError &e) {
    fmt::print(stderr, "{}\n", e.what());
    out.exitCode = 2;
    return out;
  }
  api::ProgramOptions o = flags.program;
  o.check = forCheck;
  // UsageError: a bad --input
  out.program = api::refineMlir(out.module, shownName(file), sem, o, autocastOf(*flags.torch));
  return out;
}

void diagnostics(const std::string &file, const MlirRun &run, bool verbose) {
  for (size_t i = 0; i < run.module->functions.size(); ++i) {
    const torch_mlir::Function &f = run.module->functions[i];
    refine::Result withReader = run.results()[i];
    withReader.diagnostics.insert(withReader.diagnostics.begin(), f.diagnostics.begin(), f.diagnostics.end());
    printDiagnostics(file, *f.graph, withReader, verbose);
  }
}

/// One file's JSON: alone on `out`, or (several files) appended to `files`
/// with its name, in the ordered form the other readers' reports take.
void writeJson(nlohmann::json j, const std::string &file, bool several, Output &out, nlohmann::ordered_json &files) {
  if (!several) {
    out.write(dumpJson(j, 2) + "\n");
    return;
  }
  j["file"] = file;
  files.push_back(nlohmann::ordered_json::parse(j.dump()));
}

} // namespace

bool isTorchMlirFile(const std::string &file) {
  if (file == "-") return false;
  FILE *f = std::fopen(file.c_str(), "rb");
  if (!f) return file.ends_with(".mlir");
  char buf[8192];
  size_t n = std::fread(buf, 1, sizeof buf, f);
  std::fclose(f);
  std::string_view head(buf, n);
  if (torch_mlir::looksLikeMlir(head)) return true;
  // Nothing but comments and blank lines within the first block read: the name decides.
  return file.ends_with(".mlir") && head.find("graph(") == std::string_view::npos;
}

int annotateTorchMlir(const CommonFlags &flags, const std::string &file, const std::string &format, bool several,
                      Output &out, nlohmann::ordered_json &files, std::shared_ptr<const torch_mlir::Module> read) {
  MlirRun r = run(flags, file, false, std::move(read));
  if (r.exitCode) return r.exitCode;
  const torch_mlir::Module &m = *r.module;
  if (format == "json") {
    nlohmann::json fns = nlohmann::json::array();
    for (size_t i = 0; i < m.functions.size(); ++i) fns.push_back(torch_mlir::functionJson(m.functions[i], r.results()[i]));
    nlohmann::json j = {{"functions", std::move(fns)}, {"torch", std::string(name(r.torch))}};
    writeJson(std::move(j), file, several, out, files);
  } else {
    if (several) out.write(fmt::format("// {}\n", ir::printable(file)));
    std::string text = torch_mlir::annotateModule(m, r.results());
    if (!text.empty() && text.back() != '\n') text += '\n';
    out.write(text);
  }
  if (out.toStdout()) std::fflush(stdout); // before the summary on stderr
  diagnostics(file, r, flags.verbose);
  size_t tensors = 0, refined = 0, withRank = 0, errors = 0;
  int exitCode = 0;
  for (size_t i = 0; i < m.functions.size(); ++i) {
    const torch_mlir::Function &f = m.functions[i];
    for (const torch_mlir::SsaDef &d : f.defs) {
      if (!d.result || d.typeBegin == torch_mlir::kNone || !f.graph->values[d.value].type->isTensor()) continue;
      ++tensors;
      const Value &v = r.results()[i].values[d.value];
      refined += v.isTensor() && v.dtype();
      withRank += v.isTensor() && v.dtype() && v.rank().isExact();
    }
    for (const refine::Diagnostic &d : r.results()[i].diagnostics) errors += d.category == "dtype-error";
  }
  if (errors) exitCode = 1;
  fmt::print(stderr, "{}summary: {} function(s), {} tensor results, {} with a known dtype ({} with rank too), {} unknown; "
                     "{} dtype error(s)\n",
             several ? shownName(file) + ": " : "", m.functions.size(), tensors, refined, withRank, tensors - refined,
             errors);
  return exitCode;
}

int checkTorchMlir(const CommonFlags &flags, const std::string &file, bool json, bool several, Output &out,
                   nlohmann::ordered_json &files, std::shared_ptr<const torch_mlir::Module> read) {
  MlirRun r = run(flags, file, true, std::move(read));
  if (r.exitCode) return r.exitCode;
  const torch_mlir::Module &m = *r.module;
  refine::CheckCounts counts;
  std::string text, notes;
  nlohmann::json wrongJ = nlohmann::json::array(), unknownJ = nlohmann::json::array();
  nlohmann::json metaOnlyJ = nlohmann::json::array(), sizeUnknownJ = nlohmann::json::array();
  std::vector<std::vector<torch_mlir::StatedType>> stated;
  bool anyWrong = false;
  for (size_t i = 0; i < m.functions.size(); ++i) {
    stated.push_back(torch_mlir::compareStated(m.functions[i], r.results()[i]));
    for (const torch_mlir::StatedType &s : stated.back()) anyWrong = anyWrong || s.verdict == refine::Verdict::Wrong;
  }
  // A module torch-mlir imported from an export states what FakeTensor recorded (meta kernels):
  // a value wrong on the CPU's answer and right on that one is counted correct, with a note.
  const auto onMeta = anyWrong ? api::refineMlirOnMeta(r.program) : std::nullopt;
  for (size_t i = 0; i < m.functions.size(); ++i) {
    const torch_mlir::Function &f = m.functions[i];
    std::vector<torch_mlir::StatedType> metaStated;
    if (onMeta) metaStated = torch_mlir::compareStated(f, (*onMeta)[i]);
    for (size_t k = 0; k < stated[i].size(); ++k) {
      torch_mlir::StatedType s = stated[i][k];
      const torch_mlir::SsaDef &d = f.defs[s.def];
      const Value &got = r.results()[i].values[d.value];
      ir::NodeId def = f.graph->values[d.value].def;
      std::string node = def != ir::kNoId ? f.graph->kindOf(def) : "argument";
      std::string head = fmt::format("{}:{}:{}", shownName(file), d.loc.line, d.loc.col);
      if (s.verdict == refine::Verdict::Wrong && k < metaStated.size() && metaStated[k].def == s.def &&
          metaStated[k].verdict == refine::Verdict::Correct) {
        const Value &meta = (*onMeta)[i].values[d.value];
        s = metaStated[k];
        metaOnlyJ.push_back({{"value", d.name}, {"function", f.name}, {"node", node}, {"written", d.writtenType},
                             {"cpu", got.str()}, {"meta", meta.str()}});
        notes += fmt::format("{}: note: %{} ({}): {} on CPU, {} on meta kernels and FakeTensor (what torch.export "
                             "records): counted correct\n",
                             head, ir::printable(d.name), ir::printable(node), got.str(), meta.str());
      }
      nlohmann::json j = {{"value", d.name},     {"function", f.name},     {"split", f.split},
                          {"node", node},        {"line", d.loc.line},     {"written", d.writtenType},
                          {"dtype", ir::dtypeJson(got)}, {"rank", ir::rankJson(got)}};
      ir::addShapeJson(j, got);
      refine::count(counts, s.verdict, s.sizes);
      if (json && flags.verbose && s.verdict != refine::Verdict::Wrong && s.sizes == refine::SizeVerdict::Unknown)
        sizeUnknownJ.push_back(j); // -v: right in dtype and rank, some size unknown (as for an archive)
      if (s.verdict == refine::Verdict::Correct) {
      } else if (s.verdict == refine::Verdict::Wrong) {
        if (json) wrongJ.push_back(std::move(j));
        else text += fmt::format("{}: wrong: %{} ({}): written {}{}, inferred {}{}\n", head, ir::printable(d.name),
                                 ir::printable(node), ir::printable(d.writtenType), boundSizes(*f.graph, d), got.str(),
                                 got.hasKnownDims() ? " " + got.shapeStr() : "");
      } else {
        if (json) unknownJ.push_back(std::move(j));
        else text += fmt::format("{}: unknown: %{} ({}): inferred {}\n", head, ir::printable(d.name),
                                 ir::printable(node), got.isBottom() ? "nothing" : got.str());
      }
    }
  }
  diagnostics(file, r, flags.verbose);
  if (!json) fmt::print(stderr, "{}", notes);
  if (json) {
    nlohmann::json diags = nlohmann::json::array();
    for (size_t i = 0; i < m.functions.size(); ++i) {
      // Named: a range-for over a temporary's member would read it after its end (ASan found it).
      nlohmann::json fj = torch_mlir::functionJson(m.functions[i], r.results()[i]);
      for (auto &d : fj["diagnostics"]) diags.push_back(d);
    }
    nlohmann::json j = {{"counts", {{"correct", counts.correct}, {"unknown", counts.unknown}, {"wrong", counts.wrong}}},
                        {"wrong", std::move(wrongJ)},
                        {"unknown", std::move(unknownJ)},
                        {"diagnostics", std::move(diags)},
                        {"torch", std::string(name(r.torch))}};
    if (!metaOnlyJ.empty()) j["meta_kernels"] = std::move(metaOnlyJ); // as for an archive
    if (flags.verbose && !sizeUnknownJ.empty()) j["size_unknown"] = std::move(sizeUnknownJ);
    addSizesJson(j, counts, flags.verbose);
    writeJson(std::move(j), file, several, out, files);
  } else {
    text += fmt::format("{}{} correct, {} unknown, {} wrong\n", several ? shownName(file) + ": " : "", counts.correct,
                        counts.unknown, counts.wrong);
    printSizesNote(shownName(file), counts, flags.verbose);
    out.write(text);
  }
  // As for every other input (README, "Exit codes"): a wrong value, or an op PyTorch raises at.
  bool raises = false;
  for (const refine::Result &res : r.results())
    for (const refine::Diagnostic &d : res.diagnostics) raises = raises || d.category == "dtype-error";
  return counts.wrong || raises ? api::kRaises : api::kClean;
}

int writeTorchMlir(const std::string &file, const Loaded &l, const refine::Result &r, const Semantics &sem, Output &out) {
  if (!l.program.archive) {
    fmt::print(stderr, "{}: error: --format torch-mlir writes .pt2 archives (a torch.export program) only\n",
               shownName(file));
    return 2;
  }
  torch_mlir::WriteResult w = torch_mlir::writeProgram(*l.program.graph, *l.program.archive, r, sem);
  if (!w.error.empty()) {
    fmt::print(stderr, "{}: error: cannot write as Torch dialect: {}\n", shownName(file), ir::printable(w.error, 2000));
    return 2;
  }
  out.write(w.text);
  return 0;
}

} // namespace dtf::cli
