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
#include "frontends/text/ir_parser.h"
#include "frontends/text/ir_printer.h"
#include "frontends/text/printable.h"
#include "input_file.h"
#include "ops/notation.h"
#include "output.h"
#include "progress.h"
#include "refine/check.h"
#include "refine/refine.h"
#include "pt_import.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <functional>
#include <map>

namespace dtf::cli {
namespace {

/// The part of a debug name before TorchScript's uniquing suffix (`x.1` -> `x`).
std::string_view baseName(std::string_view n) {
  size_t dot = n.rfind('.');
  if (dot == std::string_view::npos || dot + 1 == n.size()) return n;
  for (size_t i = dot + 1; i < n.size(); ++i)
    if (n[i] < '0' || n[i] > '9') return n;
  return n.substr(0, dot);
}

} // namespace

/// Every --input must name a graph input: exactly, or by its Python name when
/// one input alone carries it (`x` for a saved module's `x.1`).
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
      throw UsageError(fmt::format("--input {}: several graph inputs have that name ({}): give one exactly", name,
                                   fmt::join(byBase, ", ")));
    size_t count = g.body().params.size();
    throw UsageError(fmt::format("--input {}: no such graph input (inputs: {}{})", name, names,
                                 count > 8 ? fmt::format(", ... {} in all", count) : ""));
  }
}

namespace {

bool isModuleFile(const std::string &file) { return file.ends_with(".pt") || file.ends_with(".pth"); }

enum class Reader { Text, Module, Archive };

/// By content: a zip holding NAME/archive_format or NAME/models/*.json is a
/// torch.export archive, one holding data.pkl or code/ a TorchScript module,
/// anything else text; the name decides only for what the content does not.
Reader chooseReader(const std::string &file) {
  std::string why;
  switch (pt2::sniffFile(file, &why)) {
  case pt2::FileKind::Pt2: return Reader::Archive;
  case pt2::FileKind::TorchScript: return Reader::Module;
  case pt2::FileKind::BadZip: return file.ends_with(".pt2") || !isModuleFile(file) ? Reader::Archive : Reader::Module;
  case pt2::FileKind::OtherZip:
  case pt2::FileKind::NotZip: break;
  }
  if (file.ends_with(".pt2")) return Reader::Archive;
  return isModuleFile(file) ? Reader::Module : Reader::Text;
}

} // namespace

/// `semantics` (a version's, with the --rules files' rules) names the ops of a .pt2 archive.
Loaded load(const std::string &file, const std::string &model, const Semantics &semantics) {
  Loaded l;
  std::string text;
  const Reader reader = chooseReader(file);
  if (reader == Reader::Archive) {
    if (std::string why = unreadable(file); !why.empty()) {
      fmt::print(stderr, "{}: error: cannot read the file: {}\n", shownName(file), why);
      l.exitCode = 2;
      return l;
    }
    pt2::ReadOptions o;
    o.model = model;
    o.torch = semantics.version();
    o.semantics = &semantics;
    pt2::ReadResult r = pt2::readArchive(file, o);
    if (!r.program) {
      fmt::print(stderr, "{}: error: {}\n", shownName(file), ir::printable(r.error, 2000));
      l.exitCode = 2;
      return l;
    }
    l.graph = std::move(r.program->graph);
    l.archive = std::move(r.program);
    return l;
  }
  if (!model.empty()) throw UsageError("--model applies to .pt2 archives only");
  if (reader == Reader::Module) {
    auto imported = importModule(file);
    if (!imported.text) {
      fmt::print(stderr, "{}: error: cannot load TorchScript module: {}\n", shownName(file),
                 ir::printable(imported.error, 2000));
      l.exitCode = 2;
      return l;
    }
    text = std::move(*imported.text);
  } else {
    InputText in = readInput(file);
    if (!in.text) {
      fmt::print(stderr, "{}: error: cannot read the file: {}\n", shownName(file), in.error);
      l.exitCode = 2;
      return l;
    }
    text = std::move(*in.text);
  }
  try {
    l.graph = ir::parseIR(text);
  } catch (const ir::IRSyntaxError &e) {
    fmt::print(stderr, "{}:{}:{}: error: {}\n", shownName(file), e.line, e.col, e.what());
    l.exitCode = 2;
    return l;
  }
  // A type written with a dtype this version lacks (IR printed by a newer
  // PyTorch: Float8_e5m2(...) under --torch 1.13) cannot be compared or used.
  std::function<std::optional<DType>(const ir::TypeExpr &)> foreign = [&](const ir::TypeExpr &t) -> std::optional<DType> {
    if (t.dtype && !semantics.types().names(*t.dtype)) return t.dtype;
    for (const ir::TypePtr &e : t.elems)
      if (auto d = foreign(*e)) return d;
    return std::nullopt;
  };
  for (const ir::ValueInfo &v : l.graph->values)
    if (auto d = foreign(*v.type)) {
      fmt::print(stderr, "{}: error: %{} has type {}: dtype {} is not in PyTorch {} (IR of a newer PyTorch? try --torch {})\n",
                 shownName(file), ir::printable(v.name, 200), ir::printable(v.type->text, 200), name(*d),
                 semantics.versionName(), name(kNewestTorch));
      l.graph.reset();
      l.exitCode = 2;
      return l;
    }
  return l;
}

namespace {

std::string where(const std::string &file, const refine::Diagnostic &d) {
  return d.loc.line ? fmt::format("{}:{}:{}", shownName(file), d.loc.line, d.loc.col) : shownName(file);
}

} // namespace

/// Diagnostics on stderr: errors and unusual warnings one by one; the
/// frequent "no rule" / "unknown op" warnings counted per op.
void printDiagnostics(const std::string &file, const ir::Graph &g, const refine::Result &r, bool verbose) {
  std::map<std::string, int> noRule;
  for (const refine::Diagnostic &d : r.diagnostics) {
    // "May raise" usually only says an input is unknown: shown with -v.
    if (!verbose && d.category == "possible-dtype-error") continue;
    // A node the .pt2 reader could not map: its own diagnostic said why.
    if (d.category == "unknown-op" && d.node != ir::kNoId && g.kindOf(d.node).starts_with("unmapped::")) continue;
    if (!verbose && (d.category == "no-rule" || d.category == "unknown-op")) {
      ++noRule[d.message];
      continue;
    }
    std::string node = d.node != ir::kNoId ? fmt::format(" [{}]", ir::printable(g.kindOf(d.node))) : "";
    fmt::print(stderr, "{}: {}: {}{}\n", where(file, d), refine::name(d.severity), ir::printable(d.message, 2000),
               node);
  }
  for (const auto &[msg, count] : noRule)
    fmt::print(stderr, "{}: warning: {} (x{})\n", shownName(file), ir::printable(msg), count);
}

namespace {

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

/// The exit code of several files: the worst (2 bad input > 1 raises > 0).
int worst(int a, int b) { return std::max(a, b); }

} // namespace

void addCommon(CLI::App *sub, CommonFlags &f, bool several) {
  f.torch = addTorchOption(sub);
  addAutocastOption(sub, *f.torch);
  const char *what = "TorchScript IR text (.ir; - reads stdin), a saved module (.pt) or a torch.export archive\n"
                     "(.pt2), told apart by content";
  if (several) sub->add_option("FILE", f.files, fmt::format("{}; one or more", what))->required();
  else sub->add_option("FILE", f.file, what)->required();
  sub->add_option("--tensor-constants", f.tensorConstants,
                  "how to read a 0-dim tensor constant used directly by an op: 'traced' (default for IR\n"
                  "text: a Python scalar where torch.jit.trace records one so), 'strict' (both readings\n"
                  "must agree), 'runtime' (default for .pt: as TorchScript runs the module, a tensor\n"
                  "except as `other` of add/sub/mul/div, where the graph executor makes it a scalar)")
      ->check(CLI::IsMember({"traced", "strict", "runtime"}));
  // One NAME=TYPE per --input (repeat the flag), so `--input x=float32:r4 FILE` leaves FILE alone.
  sub->add_option("--input", f.inputTypes,
                  "NAME=TYPE: type a graph input, e.g. x.1=float32:r4 (operand notation); x alone names the one\n"
                  "input x.N. For a .pt2 archive a TYPE without rank (x=bfloat16) keeps the recorded rank")
      ->allow_extra_args(false);
  sub->add_option("--params", f.retype.params,
                  "DTYPE: .pt2 only: every floating-point (or complex) parameter and buffer becomes DTYPE,\n"
                  "as module.to(DTYPE) makes them (integer/bool buffers and tensor constants stay); an\n"
                  "--input naming one wins");
  sub->add_option("--float-inputs", f.retype.floatInputs,
                  "DTYPE: .pt2 only: every floating-point (or complex) user input becomes DTYPE; an --input\n"
                  "naming one wins");
  sub->add_option("--model", f.model, "NAME: .pt2 only: the program in models/NAME.json (default: model, or the only one)");
  sub->add_flag("-v,--verbose", f.verbose, "print every diagnostic (also each op without a rule)");
}

refine::Options optionsFrom(const CommonFlags &f, const std::string &file) {
  refine::Options o;
  const Semantics &sem = semanticsOf(*f.torch);
  o.torch = sem.version();
  o.semantics = semanticsWithRules(*f.torch); // null without --rules
  o.autocast = autocastOf(*f.torch);
  std::string policy = f.tensorConstants;
  // by content, as the reader is: a saved module named model.bin runs as TorchScript runs it
  if (policy.empty()) policy = chooseReader(file) == Reader::Module ? "runtime" : "traced";
  o.tensorConstants = policy == "strict"    ? refine::TensorConstantPolicy::Strict
                      : policy == "runtime" ? refine::TensorConstantPolicy::Runtime
                                            : refine::TensorConstantPolicy::Traced;
  for (const std::string &spec : f.inputTypes) {
    auto eq = spec.find('=');
    if (eq == std::string::npos || eq == 0)
      throw UsageError(fmt::format("--input '{}': expected NAME=TYPE", spec.substr(0, 80)));
    auto v = parseNotation(spec.substr(eq + 1), nullptr, &sem.types());
    if (!v.value) throw UsageError(fmt::format("--input {}: {}", spec.substr(0, std::min<size_t>(eq, 80)), v.error));
    o.inputTypes.emplace_back(spec.substr(0, eq), *v.value);
  }
  return o;
}

Loaded loadFor(const CommonFlags &flags, const std::string &file, refine::Options &opts) {
  Loaded l = load(file, flags.model, semanticsOf(*flags.torch));
  if (l.exitCode) return l;
  resolveInputNames(*l.graph, opts);
  if (l.archive) retypeArchiveInputs(*l.archive, *l.graph, flags.retype, opts);
  else if (!flags.retype.params.empty() || !flags.retype.floatInputs.empty())
    throw UsageError("--params and --float-inputs apply to .pt2 archives (whose inputs say which are parameters)");
  return l;
}

Action addAnnotate(CLI::App &app) {
  auto *sub = app.add_subcommand(
      "annotate", "Infer the dtype and rank of every tensor in a TorchScript program (.ir text, - for\n"
                  "stdin, a saved .pt module) or a torch.export archive (.pt2) and print it annotated (IR,\n"
                  "or JSON {\"values\", \"diagnostics\"}; several files: {\"files\": [...]}, an object per\n"
                  "file with its \"file\"). A summary and every point where PyTorch would raise a dtype\n"
                  "error go to stderr.");
  auto flags = std::make_shared<CommonFlags>();
  auto format = std::make_shared<std::string>("ir");
  auto outFile = std::make_shared<std::string>();
  addCommon(sub, *flags);
  sub->add_option("--format", *format, "ir (default) or json")->check(CLI::IsMember({"ir", "json"}));
  sub->add_option("-o,--output", *outFile, "write the result here instead of stdout");
  return [=] {
    Output out(*outFile);
    Progress progress;
    const bool several = flags->files.size() > 1;
    nlohmann::json files = nlohmann::json::array();
    int exitCode = 0;
    for (const std::string &file : flags->files) {
      refine::Options opts = optionsFrom(*flags, file);
      progress.phase(fmt::format("{}: reading", shownName(file)));
      Loaded l;
      try {
        l = loadFor(*flags, file, opts);
      } catch (const UsageError &e) {
        if (!several) throw;
        progress.pause();
        fmt::print(stderr, "{}: error: {}\n", shownName(file), ir::printable(e.what(), 2000));
        exitCode = worst(exitCode, 2);
        continue;
      }
      if (l.exitCode) {
        progress.pause();
        exitCode = worst(exitCode, l.exitCode);
        continue;
      }
      progress.phase(fmt::format("{}: refining {} nodes", shownName(file), l.graph->nodes.size()));
      refine::Result r = refine::refineGraph(*l.graph, opts);
      progress.phase(fmt::format("{}: printing", shownName(file)));
      if (*format == "json") {
        nlohmann::json j;
        if (l.archive) { // the reader's diagnostics (unknown targets ...) first
          refine::Result withReader = r;
          withReader.diagnostics.insert(withReader.diagnostics.begin(), l.archive->diagnostics.begin(),
                                        l.archive->diagnostics.end());
          j = ir::reportJson(*l.graph, withReader);
        } else {
          j = ir::reportJson(*l.graph, r);
        }
        j["torch"] = std::string(name(opts.torch));
        if (several) {
          j["file"] = file;
          files.push_back(std::move(j));
        } else {
          out.write(dumpJson(j, 2) + "\n");
        }
      } else {
        std::string text = ir::printIR(*l.graph, &r);
        if (!text.empty() && text.back() != '\n') text += '\n';
        if (several) out.write(fmt::format("# {}\n", ir::printable(file)));
        out.write(text);
      }
      if (out.toStdout()) std::fflush(stdout); // before the summary on stderr
      progress.pause();
      if (l.archive) printArchiveDiagnostics(file, *l.archive);
      printDiagnostics(file, *l.graph, r, flags->verbose);
      printSummary(*l.graph, r, several ? shownName(file) + ": " : "");
      for (const refine::Diagnostic &d : r.diagnostics)
        if (d.category == "dtype-error") exitCode = worst(exitCode, 1);
    }
    if (several && *format == "json")
      out.write(dumpJson({{"files", std::move(files)}, {"torch", semanticsOf(*flags->torch).versionName()}}, 2) + "\n");
    out.finish();
    return exitCode;
  };
}

namespace {

/// One compared value, for --format json.
nlohmann::json checkedValueJson(const ir::Graph &g, ir::ValueId v, const Value &got, const refine::Result &r,
                                bool wrong) {
  ir::NodeId def = g.values[v].def;
  nlohmann::json j = {{"value", g.values[v].name},
                      {"node", def != ir::kNoId ? nlohmann::json(g.kindOf(def)) : nlohmann::json(nullptr)},
                      {"line", def != ir::kNoId ? nlohmann::json(g.nodes[def].loc.line) : nlohmann::json(nullptr)},
                      {"written", g.values[v].type->text},
                      {"dtype", ir::dtypeJson(got)},
                      {"rank", ir::rankJson(got)}};
  if (def != ir::kNoId && !g.sourceOf(def).empty()) j["source"] = std::string(g.sourceOf(def));
  if (!wrong) j["reason"] = std::string(refine::describe(r.reasons[v]));
  return j;
}

/// `check`'s one diagnostic for records made inside autocast (`file` empty: the message alone).
std::string autocastDiagnostic(const std::string &file, const std::vector<AutocastContext> &ctxs) {
  std::string msg = fmt::format("the recorded dtypes match {}, which the graph does not contain: rerun with "
                                "--autocast {}", ctxs[0].str(), ctxs[0].spec());
  for (size_t i = 1; i < ctxs.size(); ++i) msg += fmt::format(" ({} matches them too)", ctxs[i].str());
  return file.empty() ? msg : fmt::format("{}: error: {}\n", file, msg);
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

/// `check`'s listing without its `wrong:` lines (the autocast diagnostic replaces them).
std::string withoutWrongLines(const std::string &lines) {
  std::string out;
  size_t pos = 0;
  while (pos < lines.size()) {
    size_t end = lines.find('\n', pos);
    end = end == std::string::npos ? lines.size() : end + 1;
    std::string_view line(lines.data() + pos, end - pos);
    if (line.find(": wrong: ") == std::string_view::npos) out += line;
    pos = end;
  }
  return out;
}

} // namespace

Action addCheck(CLI::App &app) {
  auto *sub = app.add_subcommand(
      "check", "Check inference against a fully typed graph (as torch.jit.trace prints it) or a\n"
               "torch.export archive (.pt2, whose TensorMeta records every value): every type but\n"
               "the graph inputs' is dropped, inferred, and compared value by value.\n"
               "Prints each wrong and unknown value, then 'N correct, N unknown, N wrong' (or JSON\n"
               "{\"counts\", \"wrong\", \"unknown\", \"diagnostics\"}); exit 1 on any wrong value.");
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
    nlohmann::json files = nlohmann::json::array();
    int exitCode = 0;
    for (const std::string &file : flags->files) {
      refine::Options opts = optionsFrom(*flags, file);
      opts = refine::checkOptions(opts); // the comparison below is the point
      progress.phase(fmt::format("{}: reading", shownName(file)));
      Loaded l;
      try {
        l = loadFor(*flags, file, opts);
      } catch (const UsageError &e) {
        if (!several) throw;
        progress.pause();
        fmt::print(stderr, "{}: error: {}\n", shownName(file), ir::printable(e.what(), 2000));
        exitCode = worst(exitCode, 2);
        continue;
      }
      if (l.exitCode) {
        progress.pause();
        exitCode = worst(exitCode, l.exitCode);
        continue;
      }
      const ir::Graph &g = *l.graph;
      progress.phase(fmt::format("{}: refining {} nodes", shownName(file), g.nodes.size()));
      refine::Result r = refine::refineGraph(g, opts);
      progress.pause();
      refine::CheckCounts counts;
      std::string text;
      nlohmann::json wrongJ = nlohmann::json::array(), unknownJ = nlohmann::json::array();
      std::string autocastJ; // JSON "autocast": the context the records were made in
      std::map<std::string, size_t> unmodelled;
      if (l.archive) { // a .pt2: the recorded TensorMeta, kept apart from the graph
        std::string lines;
        counts = checkArchive(file, g, *l.archive, r, unmodelled, lines);
        if (counts.wrong) { // records made inside an autocast context? (refine::autocastExplaining)
          auto ctxs = refine::autocastExplaining(g, opts, [&](const refine::Result &under) {
            std::map<std::string, size_t> ignored;
            std::string ignoredLines;
            return checkArchive(file, g, *l.archive, under, ignored, ignoredLines);
          });
          std::erase_if(ctxs, [&](const AutocastContext &c) { return !recordsOnDevice(*l.archive, c.device); });
          if (!ctxs.empty()) {
            lines = withoutWrongLines(lines) + autocastDiagnostic(file, ctxs);
            if (json) autocastJ = autocastDiagnostic("", ctxs);
          }
        }
        if (!json) text += lines;
        printArchiveDiagnostics(file, *l.archive);
        printDiagnostics(file, g, r, flags->verbose);
        for (const auto &[dtype, n] : unmodelled)
          fmt::print(stderr, "{}: note: {} value{} recorded as {} (a dtype dtypeflow does not model) not compared\n",
                     shownName(file), n, n == 1 ? "" : "s", dtype);
      } else {
        for (size_t v = 0; v < g.values.size(); ++v) {
          const Value &got = r.values[v];
          refine::Verdict verdict = refine::checkWritten(g, static_cast<ir::ValueId>(v), got);
          if (verdict == refine::Verdict::NotChecked) continue;
          ir::NodeId def = g.values[v].def;
          ir::SourceLoc loc = def != ir::kNoId ? g.nodes[def].loc : ir::SourceLoc{};
          std::string node = def != ir::kNoId ? g.kindOf(def) : "block parameter";
          std::string head = fmt::format("{}:{}:{}", shownName(file), loc.line, loc.col);
          if (verdict == refine::Verdict::Wrong) {
            ++counts.wrong;
            if (json) wrongJ.push_back(checkedValueJson(g, static_cast<ir::ValueId>(v), got, r, true));
            else text += fmt::format("{}: wrong: %{} ({}): written {}, inferred {}\n", head,
                                     ir::printable(g.values[v].name), ir::printable(node),
                                     ir::printable(g.values[v].type->text), got.str());
          } else if (verdict == refine::Verdict::Correct) {
            ++counts.correct;
          } else {
            ++counts.unknown;
            if (json) unknownJ.push_back(checkedValueJson(g, static_cast<ir::ValueId>(v), got, r, false));
            else text += fmt::format("{}: unknown: %{} ({}): inferred {} ({})\n", head,
                                     ir::printable(g.values[v].name), ir::printable(node),
                                     got.isBottom() ? "nothing" : got.str(), refine::describe(r.reasons[v]));
          }
        }
        printDiagnostics(file, g, r, flags->verbose);
        // Written tensor types whose dtype is outside the model (QUInt8, QInt8 ...
        // of quantized graphs): counted nowhere above, so say how many.
        for (size_t v = 0; v < g.values.size(); ++v) {
          const ir::TypeExpr &t = *g.values[v].type;
          if (t.isTensor() && t.rank && !t.dtype && !refine::isInputLike(g, static_cast<ir::ValueId>(v)))
            ++unmodelled[t.text.substr(0, t.text.find('('))];
        }
        for (const auto &[dtype, n] : unmodelled)
          fmt::print(stderr, "{}: note: {} value{} typed {} (a dtype dtypeflow does not model) not compared\n",
                     shownName(file), n, n == 1 ? "" : "s", ir::printable(dtype));
        if (counts.correct + counts.unknown + counts.wrong == 0)
          fmt::print(stderr, "{}: note: no value past the inputs has both a written dtype and rank to compare with "
                             "(a saved module or a scripted graph records none; trace it and print the graph)\n",
                     shownName(file));
      }
      if (json) {
        nlohmann::json j = ir::reportJson(g, r);
        j.erase("values");
        j["counts"] = {{"correct", counts.correct}, {"unknown", counts.unknown}, {"wrong", counts.wrong}};
        j["wrong"] = std::move(wrongJ);
        j["unknown"] = std::move(unknownJ);
        if (!autocastJ.empty()) j["autocast"] = autocastJ;
        j["torch"] = std::string(name(opts.torch));
        if (several) {
          j["file"] = file;
          files.push_back(std::move(j));
        } else {
          out.write(dumpJson(j, 2) + "\n");
        }
      } else {
        text += fmt::format("{}{} correct, {} unknown, {} wrong\n", several ? shownName(file) + ": " : "",
                            counts.correct, counts.unknown, counts.wrong);
        out.write(text);
      }
      if (counts.wrong) exitCode = worst(exitCode, 1);
    }
    if (several && json)
      out.write(dumpJson({{"files", std::move(files)}, {"torch", semanticsOf(*flags->torch).versionName()}}, 2) + "\n");
    out.finish();
    return exitCode;
  };
}

} // namespace dtf::cli
