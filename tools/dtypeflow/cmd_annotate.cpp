//===- tools/dtypeflow/cmd_annotate.cpp - annotate and check -------------===//
//
// `annotate FILE...`: refine a whole program (TorchScript IR text, "-" for
// stdin, a saved .pt module or a torch.export .pt2 archive) and print it with
// inferred types (IR or JSON), plus a summary on stderr. `check FILE...`:
// infer a fully typed (traced) graph or an exported program from its input
// types alone and compare every tensor value with the type written
// (recorded) for it (text or JSON).
//
//===----------------------------------------------------------------------===//
#include "program_input.h"

#include "frontends/pt2/pt2_reader.h"
#include "frontends/text/ir_printer.h"
#include "frontends/text/printable.h"
#include "output.h"
#include "progress.h"
#include "refine/check.h"
#include "refine/refine.h"
#include "pt_import.h"
#include "torch_mlir_cli.h"
#include "api/mlir_program.h"

#include <array>
#include <fmt/format.h>
#include <map>
#include <optional>

namespace dtf::cli {

Loaded loadFor(CommonFlags &flags, const std::string &file, bool check) {
  const api::SemanticsRef &sem = semanticsRef(*flags.torch);
  Loaded l;
  l.program = api::readProgram(file, flags.model, *sem, [](const std::string &path) {
    ImportResult r = importModule(path);
    return api::ImportedModule{std::move(r.text), std::move(r.error)};
  });
  api::ProgramOptions o = flags.program;
  o.check = check;
  if (l.program.mlir) return l; // a module's functions are refined together: refineLoaded
  l.opts = api::refineOptions(l.program, sem, o);
  l.opts.autocast = autocastOf(*flags.torch);
  l.retyped = api::retypesArchive(l.program, o);
  return l;
}

std::vector<RefinedUnit> refineLoaded(CommonFlags &flags, Loaded &l) {
  std::vector<RefinedUnit> out;
  if (!l.program.mlir) {
    refine::Result r = refine::refineGraph(*l.program.graph, l.opts);
    out.push_back({std::move(l.program), l.opts, std::move(r), ""});
    return out;
  }
  api::MlirProgram m = api::refineMlir(l.program.mlir, l.program.shown, semanticsRef(*flags.torch), flags.program,
                                       autocastOf(*flags.torch));
  for (size_t i = 0; i < m.size(); ++i)
    out.push_back({m.program(i), std::move(m.options[i]), std::move(m.results[i]), m.function(i).name});
  return out;
}

/// Diagnostics on stderr: errors and unusual warnings one by one; the
/// frequent "no rule" / "unknown op" warnings counted per op.
void printDiagnostics(const std::string &shown, const ir::Graph &g, const refine::Result &r, bool verbose,
                      bool errorsOnly) {
  std::map<std::string, int> noRule;
  for (const refine::Diagnostic &d : r.diagnostics) {
    if (errorsOnly && d.severity != refine::Severity::Error) continue;
    // "May raise" usually only says an input is unknown: shown with -v.
    if (!verbose && d.category == "possible-dtype-error") continue;
    // A node the .pt2 reader could not map: its own diagnostic said why.
    if (d.category == "unknown-op" && d.node != ir::kNoId && g.kindOf(d.node).starts_with("unmapped::")) continue;
    if (!verbose && (d.category == "no-rule" || d.category == "unknown-op")) {
      ++noRule[d.message];
      continue;
    }
    // The node, unless the message starts by naming it.
    std::string node = d.node != ir::kNoId && !d.message.starts_with(g.kindOf(d.node))
                           ? fmt::format(" [{}]", ir::printable(g.kindOf(d.node)))
                           : "";
    std::string at = d.loc.line ? fmt::format("{}:{}:{}", shown, d.loc.line, d.loc.col)
                                : api::where(shown, g, d.node);
    fmt::print(stderr, "{}: {}: {}{}\n", at, refine::name(d.severity), ir::printable(d.message, 2000), node);
  }
  for (const auto &[msg, count] : noRule)
    fmt::print(stderr, "{}: warning: {} (x{})\n", shown, ir::printable(msg), count);
}

namespace {

/// The line for a file of several that could not be read: a ProgramError
/// names its file already.
std::string failedFileLine(const std::string &file, const UsageError &e) {
  if (dynamic_cast<const api::ProgramError *>(&e)) return ir::printable(e.what(), 2000);
  return fmt::format("{}: error: {}", shownName(file), ir::printable(e.what(), 2000));
}

/// One of the files of annotate or check, loaded (`check`: for check), or
/// nullopt when it cannot be: then, one of several, it is said on stderr
/// (and in the JSON `files`, given), the exit code 2, and the run goes on;
/// alone, the error ends the run.
std::optional<Loaded> loadOne(CommonFlags &flags, const std::string &file, bool check, bool several, Progress &progress,
                              nlohmann::ordered_json *files, int &exitCode) {
  progress.phase(fmt::format("{}: reading", shownName(file)));
  try {
    return loadFor(flags, file, check);
  } catch (const UsageError &e) {
    if (!several) throw;
    progress.pause();
    std::string line = failedFileLine(file, e);
    fmt::print(stderr, "{}\n", line);
    if (files) files->push_back({{"file", file}, {"error", line}});
    exitCode = worst(exitCode, api::kBadInput);
    return std::nullopt;
  }
}

void printSummary(const ir::Graph &g, const refine::Result &r, const std::string &prefix) {
  size_t values = 0, inputs = 0, inferred = 0, rankUnknown = 0, unknown = 0, errors = 0;
  std::array<size_t, static_cast<size_t>(refine::UnknownReason::kCount)> why{};
  for (size_t v = 0; v < g.values.size(); ++v) {
    if (!g.values[v].type->isTensor() && !r.values[v].isTensor()) continue;
    ++values;
    if (refine::isInputLike(g, static_cast<ir::ValueId>(v))) { ++inputs; continue; }
    if (r.values[v].isTensor() && r.values[v].dtype()) {
      ++inferred;
      rankUnknown += !r.values[v].rank().isExact();
      continue;
    }
    ++unknown;
    auto reason = r.reasons[v] == refine::UnknownReason::None ? refine::UnknownReason::UnknownInput : r.reasons[v];
    ++why[static_cast<size_t>(reason)];
  }
  for (const refine::Diagnostic &d : r.diagnostics) errors += d.category == "dtype-error";
  std::string reasons;
  for (size_t i = 0; i < why.size(); ++i)
    if (why[i]) reasons += fmt::format("{}{}: {}", reasons.empty() ? "" : ", ",
                                       refine::describe(static_cast<refine::UnknownReason>(i)), why[i]);
  fmt::print(stderr,
             "{}summary: {} tensor values ({} inputs/constants), {} inferred ({} of them without a known rank), "
             "{} unknown{}; {} dtype error(s)\n",
             prefix, values, inputs, inferred, rankUnknown, unknown, reasons.empty() ? "" : " (" + reasons + ")", errors);
}

} // namespace

void addCommon(CLI::App *sub, CommonFlags &f, bool several) {
  f.torch = addTorchOption(sub);
  addAutocastOption(sub, *f.torch);
  const char *what = "TorchScript IR text (.ir; - reads stdin), a saved module (.pt) or a torch.export archive\n"
                     "(.pt2), told apart by content";
  if (several) sub->add_option("FILE", f.files, fmt::format("{}; one or more", what))->required();
  else sub->add_option("FILE", f.file, what)->required();
  sub->add_option("--tensor-constants", f.program.tensorConstants,
                  "how to read a 0-dim tensor constant used directly by an op: 'traced' (default for IR\n"
                  "text: a Python scalar where torch.jit.trace records one so), 'strict' (both readings\n"
                  "must agree), 'runtime' (default for .pt: as TorchScript runs the module, a tensor\n"
                  "except as `other` of add/sub/mul/div, where the graph executor makes it a scalar)")
      ->check(CLI::IsMember({"traced", "strict", "runtime"}));
  // One NAME=TYPE per --input (repeat the flag), so `--input x=float32:r4 FILE` leaves FILE alone.
  sub->add_option("--input", f.program.inputs,
                  "NAME=TYPE: type a graph input, e.g. x.1=float32:r4 (operand notation); x alone names the one\n"
                  "input x.N. For a .pt2 archive a TYPE without rank (x=bfloat16) keeps the recorded rank")
      ->allow_extra_args(false);
  sub->add_option("--params", f.program.retype.params,
                  "DTYPE: .pt2 only: every floating-point (or complex) parameter and buffer becomes DTYPE,\n"
                  "as module.to(DTYPE) makes them (integer/bool buffers and tensor constants stay); an\n"
                  "--input naming one wins");
  sub->add_option("--float-inputs", f.program.retype.floatInputs,
                  "DTYPE: .pt2 only: every floating-point (or complex) user input becomes DTYPE; an --input\n"
                  "naming one wins");
  sub->add_option("--model", f.model, "NAME: .pt2 only: the program in models/NAME.json (default: model, or the only one)");
  sub->add_flag("-v,--verbose", f.verbose, "print every diagnostic (also each op without a rule)");
}

Action addAnnotate(CLI::App &app) {
  auto *sub = app.add_subcommand(
      "annotate", "Infer the dtype and rank of every tensor in a TorchScript program (.ir text, - for\n"
                  "stdin, a saved .pt module), a torch.export archive (.pt2) or torch-mlir's Torch dialect\n"
                  "(.mlir, told by content) and print it annotated (IR or the module, or JSON {\"values\",\n"
                  "\"diagnostics\"}; several files: {\"files\": [...]}, an object per file with its \"file\").\n"
                  "A summary and every point where PyTorch would raise a dtype error go to stderr.");
  auto flags = std::make_shared<CommonFlags>();
  auto format = std::make_shared<std::string>("ir");
  auto outFile = std::make_shared<std::string>();
  addCommon(sub, *flags);
  sub->add_option("--format", *format, "ir (default), json, or torch-mlir (a .pt2 program as Torch-dialect MLIR)")
      ->check(CLI::IsMember({"ir", "json", "torch-mlir"}));
  sub->add_option("-o,--output", *outFile, "write the result here instead of stdout");
  return [=] {
    Output out(*outFile);
    Progress progress;
    const bool several = flags->files.size() > 1;
    nlohmann::ordered_json files = nlohmann::ordered_json::array(); // each file in graph order
    int exitCode = 0;
    for (const std::string &file : flags->files) {
      if (file != "-" && api::chooseReader(file) == api::Reader::TorchMlir) { // Torch-dialect MLIR: torch_mlir_cli.h
        progress.pause();
        exitCode = worst(exitCode, annotateTorchMlir(*flags, file, *format, several, out, files));
        continue;
      }
      std::optional<Loaded> loaded =
          loadOne(*flags, file, /*check=*/false, several, progress, *format == "json" ? &files : nullptr, exitCode);
      if (!loaded) continue;
      const Loaded &l = *loaded;
      if (l.program.mlir) { // Torch-dialect MLIR on standard input
        progress.pause();
        exitCode = worst(exitCode, annotateTorchMlir(*flags, file, *format, several, out, files, l.program.mlir));
        continue;
      }
      const ir::Graph &g = *l.program.graph;
      const std::string &shown = l.program.shown;
      progress.phase(fmt::format("{}: refining {} nodes", shown, g.nodes.size()));
      refine::Result r = refine::refineGraph(g, l.opts);
      progress.phase(fmt::format("{}: printing", shown));
      if (*format == "torch-mlir") { // a .pt2 as Torch-dialect MLIR: torch_mlir_cli.h
        progress.pause();
        exitCode = worst(exitCode, writeTorchMlir(file, l, r, semanticsOf(*flags->torch), out));
        continue;
      }
      if (*format == "json") {
        nlohmann::ordered_json j;
        if (l.program.archive) { // the reader's diagnostics (unknown targets ...) first
          refine::Result withReader = r;
          withReader.diagnostics.insert(withReader.diagnostics.begin(), l.program.archive->diagnostics.begin(),
                                        l.program.archive->diagnostics.end());
          j = ir::reportJson(g, withReader);
        } else {
          j = ir::reportJson(g, r);
        }
        j["torch"] = std::string(l.opts.semantics->versionName());
        if (several) {
          j["file"] = file;
          files.push_back(std::move(j));
        } else {
          out.write(dumpJson(j, 2) + "\n");
        }
      } else {
        if (several) out.write(fmt::format("# {}\n", ir::printable(file)));
        ir::printIR(g, &r, [&out](std::string_view piece) { out.write(piece); }); // ends with a newline
      }
      if (out.toStdout()) std::fflush(stdout); // before the summary on stderr
      progress.pause();
      if (l.program.archive) printArchiveDiagnostics(shown, *l.program.archive);
      printDiagnostics(shown, g, r, flags->verbose);
      printSummary(g, r, several ? shown + ": " : "");
      if (api::raises(r)) exitCode = worst(exitCode, api::kRaises);
    }
    if (several && *format == "json")
      out.write(dumpJson(nlohmann::ordered_json{{"files", std::move(files)},
                                              {"torch", semanticsOf(*flags->torch).versionName()}},
                       2) +
              "\n");
    // A refusal with nothing written leaves no empty -o file behind (as if it had been written).
    if (exitCode != api::kBadInput || out.started()) out.finish();
    return exitCode;
  };
}

namespace {

/// One compared value, for --format json.
nlohmann::json checkedValueJson(const api::LoadedProgram &p, ir::ValueId v, const refine::Result &r, bool wrong) {
  const ir::Graph &g = *p.graph;
  const Value &got = r.values[v];
  ir::NodeId def = g.values[v].def;
  const pt2::RecordedTensor *rec =
      p.archive && v < p.archive->recorded.size() && p.archive->recorded[v] ? &*p.archive->recorded[v] : nullptr;
  nlohmann::json j = {{"value", g.values[v].name},
                      {"node", def != ir::kNoId ? nlohmann::json(g.kindOf(def)) : nlohmann::json(nullptr)},
                      {"line", def != ir::kNoId && g.nodes[def].loc.line ? nlohmann::json(g.nodes[def].loc.line)
                                                                          : nlohmann::json(nullptr)},
                      {"written", rec ? rec->str() : g.values[v].type->text},
                      {"recorded", api::recordedText(p, v)},
                      {"dtype", ir::dtypeJson(got)},
                      {"rank", ir::rankJson(got)}};
  ir::addShapeJson(j, got);
  if (def != ir::kNoId && !g.sourceOf(def).empty()) j["source"] = std::string(g.sourceOf(def));
  if (!wrong) j["reason"] = std::string(refine::describe(r.reasons[v]));
  return j;
}

/// One wrong or unknown value, as text: where, the value and its op, the
/// written (recorded) type and the inferred one, in the operand notation.
std::string checkedValueText(const api::LoadedProgram &p, ir::ValueId v, const refine::Result &r, bool wrong) {
  const ir::Graph &g = *p.graph;
  const Value &got = r.values[v];
  // The line names the value and its op: a .pt2's node needs no more.
  const ir::NodeId def = g.values[v].def;
  std::string at = def != ir::kNoId && g.nodes[def].loc.line ? api::where(p.shown, g, def) : p.shown;
  std::string head = fmt::format("{}: {}: %{} ({})", at, wrong ? "wrong" : "unknown", ir::printable(g.values[v].name),
                                 ir::printable(api::definedBy(g, v)));
  if (wrong) // the sizes too when a size is what disagrees
    return fmt::format("{}: {} {}, inferred {}{}\n", head, p.archive ? "recorded" : "written", api::recordedText(p, v),
                       got.str(), got.hasKnownDims() ? " " + got.shapeStr() : "");
  return fmt::format("{}: inferred {} ({})\n", head, got.isBottom() ? "nothing" : got.str(),
                     refine::describe(r.reasons[v]));
}

/// A value the archive records as the meta kernels compute it, not as eager CPU does.
std::string metaOnlyText(const api::LoadedProgram &p, const api::MetaOnlyValue &m) {
  const ir::Graph &g = *p.graph;
  return fmt::format("{}: note: %{} ({}): {} on CPU, {} on meta kernels and FakeTensor (what torch.export "
                     "records): counted correct",
                     p.shown, ir::printable(g.values[m.value].name), ir::printable(api::definedBy(g, m.value)),
                     m.cpu.str(), m.meta.str());
}

nlohmann::json metaOnlyJson(const api::LoadedProgram &p, const std::vector<api::MetaOnlyValue> &metaOnly) {
  nlohmann::json out = nlohmann::json::array();
  for (const api::MetaOnlyValue &m : metaOnly)
    out.push_back({{"value", p.graph->values[m.value].name},
                   {"node", api::definedBy(*p.graph, m.value)},
                   {"recorded", api::recordedText(p, m.value)},
                   {"cpu", m.cpu.str()},
                   {"meta", m.meta.str()}});
  return out;
}

/// `check`'s one diagnostic for records made inside autocast.
std::string autocastDiagnostic(const std::vector<AutocastContext> &ctxs) {
  std::string msg = fmt::format("the recorded dtypes match {}, which the graph does not contain: rerun with "
                                "--autocast {}", ctxs[0].str(), ctxs[0].spec());
  for (size_t i = 1; i < ctxs.size(); ++i) msg += fmt::format(" ({} matches them too)", ctxs[i].str());
  return msg;
}

/// Does any recorded tensor sit on `device` (autocast casts only tensors on its device)?
/// An archive that records no device at all does not rule any out.
bool recordsOnDevice(const pt2::Program &p, AutocastDevice device) {
  bool anyDevice = false;
  for (const auto &rec : p.recorded) {
    if (!rec || rec->device.empty()) continue;
    anyDevice = true;
    if (rec->device == name(device)) return true;
  }
  return !anyDevice;
}

/// When a .pt2's records disagree with the inference in exactly the way one
/// autocast context explains (refine::autocastExplaining), that context's
/// diagnostic; empty otherwise.
std::string autocastExplanation(const api::LoadedProgram &p, const refine::Options &opts, const api::CheckReport &r) {
  if (!p.archive || !r.counts.wrong || r.retyped || opts.autocast) return {};
  auto ctxs = refine::autocastExplaining(*p.graph, opts, [&](const refine::Result &under) {
    return api::checkProgram(p, under, false).counts;
  });
  std::erase_if(ctxs, [&](const AutocastContext &c) { return !recordsOnDevice(*p.archive, c.device); });
  return ctxs.empty() ? std::string() : autocastDiagnostic(ctxs);
}

} // namespace

Action addCheck(CLI::App &app) {
  auto *sub = app.add_subcommand(
      "check", "Check inference against a fully typed graph (as torch.jit.trace prints it), a\n"
               "torch.export archive (.pt2, whose TensorMeta records every value; a value only the meta\n"
               "kernels' answer matches counts right, named in a note) or Torch-dialect MLIR (.mlir):\n"
               "every type but the inputs' is dropped, inferred, and compared value by value.\n"
               "Prints each wrong and unknown value, then 'N correct, N unknown, N wrong' (or JSON\n"
               "{\"counts\", \"wrong\", \"unknown\", \"diagnostics\"}); exit 1 on any wrong value or\n"
               "where PyTorch would raise. A .pt2 whose inputs are re-typed (--input, --params,\n"
               "--float-inputs) is another program than the one recorded: nothing is compared.");
  auto flags = std::make_shared<CommonFlags>();
  auto format = std::make_shared<std::string>("text");
  auto outFile = std::make_shared<std::string>();
  addCommon(sub, *flags);
  sub->add_option("--format", *format, "text (default) or json")->check(CLI::IsMember({"text", "json"}));
  sub->add_option("-o,--output", *outFile, "write the result here instead of stdout");
  return [=] {
    Output out(*outFile);
    Progress progress;
    const bool several = flags->files.size() > 1, json = *format == "json";
    nlohmann::ordered_json files = nlohmann::ordered_json::array(); // each file in graph order
    int exitCode = 0;
    for (const std::string &file : flags->files) {
      if (file != "-" && api::chooseReader(file) == api::Reader::TorchMlir) { // Torch-dialect MLIR: torch_mlir_cli.h
        progress.pause();
        exitCode = worst(exitCode, checkTorchMlir(*flags, file, json, several, out, files));
        continue;
      }
      std::optional<Loaded> loaded =
          loadOne(*flags, file, /*check=*/true, several, progress, json ? &files : nullptr, exitCode);
      if (!loaded) continue;
      const Loaded &l = *loaded;
      if (l.program.mlir) { // Torch-dialect MLIR on standard input
        progress.pause();
        exitCode = worst(exitCode, checkTorchMlir(*flags, file, json, several, out, files, l.program.mlir));
        continue;
      }
      const api::LoadedProgram &p = l.program;
      const ir::Graph &g = *p.graph;
      progress.phase(fmt::format("{}: refining {} nodes", p.shown, g.nodes.size()));
      refine::Result r = refine::refineGraph(g, l.opts);
      progress.pause();
      api::CheckReport report = api::checkProgram(p, r, l.retyped);
      // A .pt2 records what the meta kernels compute: a value eager CPU gets otherwise is not wrong.
      const std::vector<api::MetaOnlyValue> metaOnly = api::settleByMetaKernels(p, l.opts, r, report);
      // Records made inside an autocast context the graph lacks: one diagnostic, not a list of wrong values.
      const std::string autocastNote = autocastExplanation(p, l.opts, report);
      std::string text;
      nlohmann::json wrongJ = nlohmann::json::array(), unknownJ = nlohmann::json::array();
      nlohmann::json sizeUnknownJ = nlohmann::json::array(); // -v: right in dtype and rank, some size unknown
      for (const api::CheckedValue &c : report.values) {
        if (json && flags->verbose && c.verdict != refine::Verdict::Wrong && c.sizes == refine::SizeVerdict::Unknown)
          sizeUnknownJ.push_back(checkedValueJson(p, c.value, r, false));
        if (c.verdict == refine::Verdict::Correct) continue;
        const bool wrong = c.verdict == refine::Verdict::Wrong;
        if (json) (wrong ? wrongJ : unknownJ).push_back(checkedValueJson(p, c.value, r, wrong));
        else if (!wrong || autocastNote.empty()) text += checkedValueText(p, c.value, r, wrong);
      }
      if (!json && !autocastNote.empty()) text += fmt::format("{}: error: {}\n", p.shown, autocastNote);
      if (p.archive) printArchiveDiagnostics(p.shown, *p.archive);
      printDiagnostics(p.shown, g, r, flags->verbose);
      for (const api::MetaOnlyValue &m : metaOnly) fmt::print(stderr, "{}\n", metaOnlyText(p, m));
      const refine::CheckCounts &counts = report.counts;
      for (const auto &[dtype, n] : report.unmodelled)
        fmt::print(stderr, "{}: note: {} value{} {} {} (a dtype dtypeflow does not model) not compared\n", p.shown, n,
                   n == 1 ? "" : "s", p.archive ? "recorded as" : "typed", ir::printable(dtype));
      if (report.retyped)
        fmt::print(stderr, "{}: note: the inputs are re-typed (--input, --params, --float-inputs): what torch.export "
                           "recorded describes the program as exported, so nothing is compared\n",
                   p.shown);
      else if (!p.archive && counts.correct + counts.unknown + counts.wrong == 0)
        fmt::print(stderr, "{}: note: no value past the inputs has both a written dtype and rank to compare with "
                           "(a saved module or a scripted graph records none; trace it and print the graph)\n",
                   p.shown);
      if (json) {
        nlohmann::ordered_json j = ir::reportJson(g, r);
        j.erase("values");
        j["counts"] = {{"correct", counts.correct}, {"unknown", counts.unknown}, {"wrong", counts.wrong}};
        addSizesJson(j, counts, flags->verbose);
        if (flags->verbose && !sizeUnknownJ.empty()) j["size_unknown"] = std::move(sizeUnknownJ);
        j["compared"] = !report.retyped;
        j["wrong"] = std::move(wrongJ);
        j["unknown"] = std::move(unknownJ);
        if (!autocastNote.empty()) j["autocast"] = autocastNote;
        if (!metaOnly.empty()) j["meta_kernels"] = metaOnlyJson(p, metaOnly);
        j["torch"] = std::string(l.opts.semantics->versionName());
        if (several) {
          j["file"] = file;
          files.push_back(std::move(j));
        } else {
          out.write(dumpJson(j, 2) + "\n");
        }
      } else {
        text += fmt::format("{}{} correct, {} unknown, {} wrong{}\n", several ? p.shown + ": " : "", counts.correct,
                            counts.unknown, counts.wrong, report.retyped ? " (not compared: inputs re-typed)" : "");
        printSizesNote(p.shown, counts, flags->verbose);
        out.write(text);
      }
      if (counts.wrong || api::raises(r)) exitCode = worst(exitCode, api::kRaises);
    }
    if (several && json)
      out.write(dumpJson(nlohmann::ordered_json{{"files", std::move(files)},
                                              {"torch", semanticsOf(*flags->torch).versionName()}},
                       2) +
              "\n");
    // A refusal with nothing written leaves no empty -o file behind (as if it had been written).
    if (exitCode != api::kBadInput || out.started()) out.finish();
    return exitCode;
  };
}

} // namespace dtf::cli
