//===- tools/dtypeflow/cmd_annotate.cpp - annotate and check -------------===//
//
// `annotate FILE`: refine a whole program (TorchScript IR text, a saved .pt
// module or a torch.export .pt2 archive) and print it with inferred types (IR
// or JSON), plus a summary on stderr. `check FILE`: infer a fully typed
// (traced) graph or an exported program from its input types alone and
// compare every tensor value with the type written (recorded) for it.
//
//===----------------------------------------------------------------------===//
#include "commands.h"

#include "archive_cli.h"
#include "frontends/pt2/pt2_reader.h"
#include "frontends/text/ir_parser.h"
#include "frontends/text/ir_printer.h"
#include "ops/notation.h"
#include "refine/check.h"
#include "refine/refine.h"
#include "pt_import.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace dtf::cli {
namespace {

struct Loaded {
  std::unique_ptr<ir::Graph> graph;
  std::optional<pt2::Program> archive; ///< a .pt2's inputs, recorded types, reader diagnostics (graph moved out)
  int exitCode = 0; ///< non-zero: could not load (message printed)
};

bool isModuleFile(const std::string &file) { return file.ends_with(".pt") || file.ends_with(".pth"); }

using api::Reader;

Loaded load(const std::string &file, const std::string &model, TorchVersion torch) {
  Loaded l;
  std::string text;
  const Reader reader = api::chooseReader(file);
  if (reader == Reader::Archive) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec)) {
      fmt::print(stderr, "{}: error: cannot read the file\n", file);
      l.exitCode = 2;
      return l;
    }
    pt2::ReadOptions o;
    o.model = model;
    o.torch = torch;
    pt2::ReadResult r = pt2::readArchive(file, o);
    if (!r.program) {
      fmt::print(stderr, "{}: error: {}\n", file, r.error);
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
      fmt::print(stderr, "{}: error: cannot load TorchScript module: {}\n", file, imported.error);
      l.exitCode = 2;
      return l;
    }
    text = std::move(*imported.text);
  } else {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
      fmt::print(stderr, "{}: error: cannot read the file\n", file);
      l.exitCode = 2;
      return l;
    }
    std::ostringstream ss;
    ss << in.rdbuf();
    text = ss.str();
  }
  try {
    l.graph = ir::parseIR(text);
  } catch (const ir::IRSyntaxError &e) {
    fmt::print(stderr, "{}:{}:{}: error: {}\n", file, e.line, e.col, e.what());
    l.exitCode = 2;
  }
  return l;
}

std::string where(const std::string &file, const refine::Diagnostic &d) {
  return d.loc.line ? fmt::format("{}:{}:{}", file, d.loc.line, d.loc.col) : file;
}

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
    std::string node = d.node != ir::kNoId ? fmt::format(" [{}]", g.kindOf(d.node)) : "";
    fmt::print(stderr, "{}: {}: {}{}\n", where(file, d), refine::name(d.severity), d.message, node);
  }
  for (const auto &[msg, count] : noRule) fmt::print(stderr, "{}: warning: {} (x{})\n", file, msg, count);
}

void printSummary(const ir::Graph &g, const refine::Result &r) {
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
             "summary: {} tensor values ({} inputs/constants), {} inferred ({} of them without a known rank), "
             "{} unknown{}; {} dtype error(s)\n",
             values, inputs, inferred, rankUnknown, unknown, reasons.empty() ? "" : " (" + reasons + ")", errors);
}

struct CommonFlags {
  std::shared_ptr<std::string> torch;
  std::string file;
  std::string tensorConstants; ///< empty: by the file (runtime for .pt, traced for IR text)
  std::vector<std::string> inputTypes;
  std::string model;     ///< .pt2: which models/NAME.json
  ArchiveRetype retype;  ///< .pt2: --params, --float-inputs
  bool verbose = false;
};

void addCommon(CLI::App *sub, CommonFlags &f) {
  f.torch = addTorchOption(sub);
  sub->add_option("FILE", f.file, "TorchScript IR text (.ir), a saved module (.pt) or a torch.export archive (.pt2),\n"
                                  "told apart by content")
      ->required();
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

refine::Options optionsFrom(const CommonFlags &f) {
  refine::Options o;
  const Semantics &sem = semanticsOf(*f.torch);
  o.torch = sem.version();
  o.tensorConstants = api::tensorConstantPolicy(f.tensorConstants, isModuleFile(f.file));
  api::addInputTypes(sem, f.inputTypes, o);
  return o;
}

/// Load FILE and finish the options that depend on its graph; nullopt-like exit code on failure.
Loaded loadFor(const CommonFlags &flags, refine::Options &opts) {
  Loaded l = load(flags.file, flags.model, opts.torch);
  if (l.exitCode) return l;
  api::resolveInputNames(*l.graph, opts);
  if (l.archive) api::retypeArchiveInputs(*l.archive, *l.graph, flags.retype, opts);
  else if (!flags.retype.params.empty() || !flags.retype.floatInputs.empty())
    throw UsageError("--params and --float-inputs apply to .pt2 archives (whose inputs say which are parameters)");
  return l;
}

} // namespace

Action addAnnotate(CLI::App &app) {
  auto *sub = app.add_subcommand(
      "annotate", "Infer the dtype and rank of every tensor in a TorchScript program (.ir text, a\n"
                  "saved .pt module) or a torch.export archive (.pt2) and print it annotated (IR, or\n"
                  "JSON {\"values\", \"diagnostics\"}).\n"
                  "A summary and every point where PyTorch would raise a dtype error go to stderr.");
  auto flags = std::make_shared<CommonFlags>();
  auto format = std::make_shared<std::string>("ir");
  auto outFile = std::make_shared<std::string>();
  addCommon(sub, *flags);
  sub->add_option("--format", *format, "ir (default) or json")->check(CLI::IsMember({"ir", "json"}));
  sub->add_option("-o,--output", *outFile, "write the result here instead of stdout");
  return [=] {
    refine::Options opts = optionsFrom(*flags);
    Loaded l = loadFor(*flags, opts);
    if (l.exitCode) return l.exitCode;
    refine::Result r = refine::refineGraph(*l.graph, opts);
    std::string text;
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
      text = j.dump(2) + "\n";
    } else {
      text = ir::printIR(*l.graph, &r);
    }
    if (!text.empty() && text.back() != '\n') text += '\n';
    if (outFile->empty()) {
      fmt::print("{}", text);
      std::fflush(stdout); // before the summary on stderr
    } else {
      std::ofstream out(*outFile, std::ios::binary);
      if (!out) throw UsageError(fmt::format("cannot write '{}'", *outFile));
      out << text;
    }
    if (l.archive) printArchiveDiagnostics(flags->file, *l.archive);
    printDiagnostics(flags->file, *l.graph, r, flags->verbose);
    printSummary(*l.graph, r);
    for (const refine::Diagnostic &d : r.diagnostics)
      if (d.category == "dtype-error") return 1;
    return 0;
  };
}

Action addCheck(CLI::App &app) {
  auto *sub = app.add_subcommand(
      "check", "Check inference against a fully typed graph (as torch.jit.trace prints it) or a\n"
               "torch.export archive (.pt2, whose TensorMeta records every value): every type but\n"
               "the graph inputs' is dropped, inferred, and compared value by value.\n"
               "Prints each wrong and unknown value, then 'N correct, N unknown, N wrong';\n"
               "exit 1 on any wrong value.");
  auto flags = std::make_shared<CommonFlags>();
  addCommon(sub, *flags);
  return [=] {
    refine::Options opts = optionsFrom(*flags);
    opts = refine::checkOptions(opts); // the comparison below is the point
    Loaded l = loadFor(*flags, opts);
    if (l.exitCode) return l.exitCode;
    const ir::Graph &g = *l.graph;
    refine::Result r = refine::refineGraph(g, opts);
    if (l.archive) { // a .pt2: the recorded TensorMeta, kept apart from the graph
      std::map<std::string, size_t> unmodelled;
      refine::CheckCounts counts = checkArchive(flags->file, g, *l.archive, r, unmodelled);
      printArchiveDiagnostics(flags->file, *l.archive);
      printDiagnostics(flags->file, g, r, flags->verbose);
      for (const auto &[dtype, n] : unmodelled)
        fmt::print(stderr, "{}: note: {} value{} recorded as {} (a dtype dtypeflow does not model) not compared\n",
                   flags->file, n, n == 1 ? "" : "s", dtype);
      fmt::print("{} correct, {} unknown, {} wrong\n", counts.correct, counts.unknown, counts.wrong);
      return counts.wrong ? 1 : 0;
    }
    refine::CheckCounts counts;
    for (size_t v = 0; v < g.values.size(); ++v) {
      const Value &got = r.values[v];
      refine::Verdict verdict = refine::checkWritten(g, static_cast<ir::ValueId>(v), got);
      if (verdict == refine::Verdict::NotChecked) continue;
      ir::NodeId def = g.values[v].def;
      ir::SourceLoc loc = def != ir::kNoId ? g.nodes[def].loc : ir::SourceLoc{};
      std::string node = def != ir::kNoId ? g.kindOf(def) : "block parameter";
      std::string head = fmt::format("{}:{}:{}", flags->file, loc.line, loc.col);
      if (verdict == refine::Verdict::Wrong) {
        ++counts.wrong;
        fmt::print("{}: wrong: %{} ({}): written {}, inferred {}\n", head, g.values[v].name, node,
                   g.values[v].type->text, got.str());
      } else if (verdict == refine::Verdict::Correct) {
        ++counts.correct;
      } else {
        ++counts.unknown;
        fmt::print("{}: unknown: %{} ({}): inferred {} ({})\n", head, g.values[v].name, node,
                   got.isBottom() ? "nothing" : got.str(), refine::describe(r.reasons[v]));
      }
    }
    printDiagnostics(flags->file, g, r, flags->verbose);
    // Written tensor types whose dtype is outside the model (QUInt8, QInt8 ...
    // of quantized graphs): counted nowhere above, so say how many.
    std::map<std::string, size_t> unmodelled;
    for (size_t v = 0; v < g.values.size(); ++v) {
      const ir::TypeExpr &t = *g.values[v].type;
      if (t.isTensor() && t.rank && !t.dtype && !refine::isInputLike(g, static_cast<ir::ValueId>(v)))
        ++unmodelled[t.text.substr(0, t.text.find('('))];
    }
    for (const auto &[dtype, n] : unmodelled)
      fmt::print(stderr, "{}: note: {} value{} typed {} (a dtype dtypeflow does not model) not compared\n", flags->file,
                 n, n == 1 ? "" : "s", dtype);
    if (counts.correct + counts.unknown + counts.wrong == 0)
      fmt::print(stderr, "{}: note: no value past the inputs has both a written dtype and rank to compare with "
                         "(a saved module or a scripted graph records none; trace it and print the graph)\n",
                 flags->file);
    fmt::print("{} correct, {} unknown, {} wrong\n", counts.correct, counts.unknown, counts.wrong);
    return counts.wrong ? 1 : 0;
  };
}

} // namespace dtf::cli
