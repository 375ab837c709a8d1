//===- tools/dtypeflow/cmd_audit.cpp - the mixed-precision audit ----------===//
//
// `audit FILE`: every node where a dtype changes (casts, promotions, ops
// computing in another dtype), counts per kind, the nodes that lose
// precision; text or JSON, and a picture of the graph coloured by dtype
// (Graphviz: --dot writes its source, --svg/--png run `dot`).
//
//===----------------------------------------------------------------------===//
#include "program_input.h"

#include "frontends/text/ir_printer.h"
#include "frontends/text/printable.h"
#include "graph/type_expr.h"
#include "api/input_file.h"
#include "output.h"
#include "progress.h"
#include "refine/audit.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <map>
#include <set>
#include <sys/wait.h>
#include <unistd.h>

namespace dtf::cli {
namespace {

using json = nlohmann::json;
using refine::ChangeKind;

/// Where a change is: FILE:LINE:COL in IR text; a .pt2 has no lines, and
/// the change names its node by the value it defines (`%add_3 = ...`).
std::string location(const std::string &shown, const ir::Graph &g, ir::NodeId n) {
  if (n == ir::kNoId || !g.nodes[n].loc.line) return shown;
  std::string s = api::where(shown, g, n);
  if (!g.sourceOf(n).empty()) s += fmt::format(" ({})", ir::printable(g.sourceOf(n)));
  return s;
}

/// Where PyTorch would raise: for the report, beside the changes.
json errorJson(const ir::Graph &g, const refine::Diagnostic &d) {
  json j = {{"message", d.message}};
  j["node"] = d.node != ir::kNoId ? json(g.kindOf(d.node)) : json(nullptr);
  j["line"] = d.loc.line ? json(d.loc.line) : json(nullptr);
  return j;
}

std::string changeText(const ir::Graph &g, const refine::DtypeChange &c) {
  std::string from;
  for (const auto &[v, d] : c.from)
    from += fmt::format("{}%{} {}", from.empty() ? "" : ", ", ir::printable(g.values[v].name), ir::torchTypeName(d));
  return fmt::format("%{} = {}: {} {} -> {}{}{}", ir::printable(g.values[c.output].name), ir::printable(g.kindOf(c.node)),
                     name(c.kind), from, ir::torchTypeName(c.to), c.detail.empty() ? "" : " (" + c.detail + ")",
                     c.losesPrecision ? "  LOSES PRECISION" : "");
}

json changeJson(const ir::Graph &g, const refine::DtypeChange &c) {
  json from = json::array();
  for (const auto &[v, d] : c.from) from.push_back({{"value", g.values[v].name}, {"dtype", std::string(name(d))}});
  json j = {{"value", g.values[c.output].name},
            {"node", g.kindOf(c.node)},
            {"line", g.nodes[c.node].loc.line ? json(g.nodes[c.node].loc.line) : json(nullptr)},
            {"column", g.nodes[c.node].loc.line ? json(g.nodes[c.node].loc.col) : json(nullptr)},
            {"kind", std::string(name(c.kind))},
            {"from", std::move(from)},
            {"to", std::string(name(c.to))},
            {"loses_precision", c.losesPrecision}};
  if (!c.detail.empty()) j["detail"] = c.detail;
  if (!g.sourceOf(c.node).empty()) j["source"] = std::string(g.sourceOf(c.node));
  return j;
}

//===----------------------------------------------------------------------===//
// The picture
//===----------------------------------------------------------------------===//

/// Fill colour per dtype (a light colour, so the labels stay readable).
std::string_view colourOf(std::optional<DType> d) {
  if (!d) return "white";
  switch (*d) {
  case DType::Float32: return "#a6cee3";
  case DType::BFloat16: return "#fdbf6f";
  case DType::Float16: return "#ffff99";
  case DType::Float64: return "#cab2d6";
  case DType::Complex64:
  case DType::Complex128:
  case DType::Complex32: return "#fb9a99";
  case DType::Int64: return "#b2df8a";
  case DType::Int32:
  case DType::Int16:
  case DType::Int8:
  case DType::UInt8: return "#ccebc5";
  case DType::Bool: return "#d9d9d9";
  default: return "#f2f2f2";
  }
}

std::string dotEscape(std::string_view s) {
  std::string out;
  for (char c : ir::printable(s, 120)) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

/// The graph's tensor ops as boxes coloured by the dtype they give; lists,
/// constants and other plumbing are looked through (their tensor operands
/// link straight to the op using them). Casts are bold, promotions doubled,
/// a precision loss red; graph inputs are shown where a change uses them.
std::string toDot(const ir::Graph &g, const refine::Result &r, const refine::AuditReport &a, const std::string &title) {
  std::map<ir::NodeId, const refine::DtypeChange *> changes;
  for (const refine::DtypeChange &c : a.changes) changes[c.node] = &c;
  auto firstTensor = [&](ir::NodeId n) -> ir::ValueId {
    for (ir::ValueId o : g.nodes[n].outputs)
      if (g.values[o].type->isTensor() || r.values[o].isTensor()) return o;
    return ir::kNoId;
  };
  auto plumbing = [&](ir::NodeId n) {
    const std::string &k = g.kindOf(n);
    return k == "prim::Constant" || k == "prim::ListConstruct" || k == "prim::TupleConstruct" ||
           k == "prim::ListUnpack" || k == "prim::TupleUnpack" || k == "prim::GetAttr";
  };
  // The tensor-producing nodes a value comes from, looking through plumbing.
  std::function<void(ir::ValueId, std::set<std::string> &, int)> sources = [&](ir::ValueId v, std::set<std::string> &out,
                                                                               int depth) {
    if (depth > 8) return;
    ir::NodeId def = g.values[v].def;
    if (def == ir::kNoId) {
      if (g.values[v].paramOf == 0 && r.values[v].isTensor()) out.insert(fmt::format("v{}", v));
      return;
    }
    if (!plumbing(def)) {
      if (firstTensor(def) != ir::kNoId) out.insert(fmt::format("n{}", def));
      return;
    }
    for (ir::ValueId in : g.nodes[def].inputs) sources(in, out, depth + 1);
  };
  std::string dot = fmt::format("digraph dtypes {{\n  graph [rankdir=TB, fontname=\"Helvetica\", label=\"{}\", "
                                "labelloc=t, fontsize=18, nodesep=0.25, ranksep=0.3];\n"
                                "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=10, "
                                "height=0.3];\n  edge [arrowsize=0.5, color=\"#777777\"];\n",
                                dotEscape(title));
  std::set<ir::ValueId> inputsShown;
  std::string edges;
  std::function<void(ir::BlockId, int)> walk = [&](ir::BlockId b, int depth) {
    if (depth > ir::kMaxNesting) return;
    for (ir::NodeId n : g.blocks[b].nodes) {
      for (ir::BlockId inner : g.nodes[n].blocks) walk(inner, depth + 1);
      if (plumbing(n)) continue;
      ir::ValueId out = firstTensor(n);
      if (out == ir::kNoId) continue;
      std::optional<DType> d = r.values[out].isTensor() ? r.values[out].dtype() : std::nullopt;
      std::string kind = g.kindOf(n);
      if (kind.starts_with("aten::")) kind = kind.substr(6);
      std::string label = fmt::format("{}\\n{}", dotEscape(kind), d ? ir::torchTypeName(*d) : "?");
      std::string attrs = fmt::format("fillcolor=\"{}\"", colourOf(d));
      auto it = changes.find(n);
      if (it != changes.end()) {
        const refine::DtypeChange &c = *it->second;
        if (c.kind == ChangeKind::Cast) attrs += ", penwidth=3, shape=box, style=\"filled,bold\"";
        if (c.kind == ChangeKind::Promotion) attrs += ", peripheries=2";
        if (c.kind == ChangeKind::Compute) attrs += ", shape=hexagon";
        if (c.losesPrecision) attrs += ", color=red, fontcolor=red";
        if (c.kind != ChangeKind::Result)
          label += fmt::format("\\n[{}]", c.detail == "autocast" ? "autocast cast" : std::string(name(c.kind)));
      }
      dot += fmt::format("  n{} [label=\"{}\", {}];\n", n, label, attrs);
      std::set<std::string> from;
      for (ir::ValueId in : g.nodes[n].inputs) sources(in, from, 0);
      for (const std::string &s : from) {
        if (s[0] == 'v') {
          // Graph inputs only where a change takes them (parameters would crowd the picture).
          ir::ValueId v = static_cast<ir::ValueId>(std::stoul(s.substr(1)));
          if (it == changes.end() || it->second->kind == ChangeKind::Result) continue;
          inputsShown.insert(v);
        }
        edges += fmt::format("  {} -> n{};\n", s, n);
      }
    }
  };
  walk(0, 0);
  for (ir::ValueId v : inputsShown) {
    std::optional<DType> d = r.values[v].dtype();
    dot += fmt::format("  v{} [label=\"%{}\\n{}\", shape=ellipse, fillcolor=\"{}\", fontsize=9];\n", v,
                       dotEscape(g.values[v].name), d ? ir::torchTypeName(*d) : "?", colourOf(d));
  }
  dot += edges;
  // Legend: the dtypes that occur, then the marks.
  std::set<DType> seen;
  for (size_t v = 0; v < r.values.size(); ++v)
    if (r.values[v].isTensor() && r.values[v].dtype()) seen.insert(*r.values[v].dtype());
  dot += "  subgraph cluster_legend {\n    label=\"legend\"; fontsize=12; style=rounded; color=\"#999999\";\n";
  std::string prev;
  int i = 0;
  for (DType d : seen) {
    std::string id = fmt::format("legend{}", i++);
    dot += fmt::format("    {} [label=\"{}\", fillcolor=\"{}\"];\n", id, ir::torchTypeName(d), colourOf(d));
    if (!prev.empty()) dot += fmt::format("    {} -> {} [style=invis];\n", prev, id);
    prev = id;
  }
  const char *marks[][2] = {{"cast", "penwidth=3, style=\"filled,bold\", fillcolor=white"},
                            {"promotion", "peripheries=2, fillcolor=white"},
                            {"computes in another dtype", "shape=hexagon, fillcolor=white"},
                            {"loses precision", "color=red, fontcolor=red, fillcolor=white"}};
  for (auto &m : marks) {
    std::string id = fmt::format("legend{}", i++);
    dot += fmt::format("    {} [label=\"{}\", {}];\n", id, m[0], m[1]);
    if (!prev.empty()) dot += fmt::format("    {} -> {} [style=invis];\n", prev, id);
    prev = id;
  }
  dot += "  }\n}\n";
  return dot;
}

/// Run Graphviz's dot on `source`, writing `format` (svg, png) to `path`.
void render(const std::string &source, const std::string &format, const std::string &path) {
  // One clear error for a path dot cannot write (rather than dot's own, then ours).
  std::filesystem::path dir = std::filesystem::path(path).parent_path();
  std::error_code ec;
  if (!dir.empty() && !std::filesystem::is_directory(dir, ec))
    throw OutputError(fmt::format("--{} {}: no such directory '{}'", format, ir::printable(path), ir::printable(dir.string())));
  int in[2];
  if (pipe(in) != 0) throw OutputError(fmt::format("cannot run dot: {}", std::strerror(errno)));
  pid_t pid = fork();
  if (pid < 0) throw OutputError(fmt::format("cannot run dot: {}", std::strerror(errno)));
  if (pid == 0) {
    dup2(in[0], STDIN_FILENO);
    close(in[0]);
    close(in[1]);
    std::string t = "-T" + format, o = "-o" + path;
    execlp("dot", "dot", t.c_str(), o.c_str(), static_cast<char *>(nullptr));
    _exit(127);
  }
  close(in[0]);
  size_t done = 0;
  while (done < source.size()) {
    ssize_t n = write(in[1], source.data() + done, source.size() - done);
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  close(in[1]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
    throw UsageError("Graphviz's dot is not installed (Debian: apt-get install graphviz); --dot FILE writes "
                     "the source without it");
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || done < source.size())
    throw OutputError(fmt::format("dot could not write '{}' ({})", ir::printable(path), format));
}

} // namespace

Action addAudit(CLI::App &app) {
  auto *sub = app.add_subcommand(
      "audit", "Mixed-precision audit: every node where a dtype changes (an explicit cast, autocast's\n"
               "casts, an upcast by promotion between operands of different dtypes, an op computing in\n"
               "another dtype), counts per kind, and the nodes that lose precision. --svg/--png draw\n"
               "the graph coloured by dtype, casts and promotions marked (needs Graphviz's dot).");
  auto flags = std::make_shared<CommonFlags>();
  auto asJson = std::make_shared<bool>(false);
  auto outFile = std::make_shared<std::string>(), dotFile = std::make_shared<std::string>(),
       svgFile = std::make_shared<std::string>(), pngFile = std::make_shared<std::string>();
  auto showResults = std::make_shared<bool>(false);
  addCommon(sub, *flags, /*several=*/false);
  sub->add_flag("--json", *asJson, "print {\"changes\": [...], \"counts\", \"loses_precision\"}");
  sub->add_flag("--all", *showResults, "list results of another kind too (comparisons' bool, indices' int64)");
  sub->add_option("-o,--output", *outFile, "write the report here instead of stdout");
  sub->add_option("--dot", *dotFile, "write the picture's Graphviz source here");
  sub->add_option("--svg", *svgFile, "draw the picture into this SVG file (runs dot)");
  sub->add_option("--png", *pngFile, "draw the picture into this PNG file (runs dot)");
  return [=] {
    Progress progress;
    progress.phase(fmt::format("{}: reading", shownName(flags->file)));
    Loaded l = loadFor(*flags, flags->file);
    const std::string &file = l.program.shown;
    const refine::Options &opts = l.opts;
    const ir::Graph &g = *l.program.graph;
    progress.phase(fmt::format("{}: refining {} nodes", file, g.nodes.size()));
    refine::Result r = refine::refineGraph(g, opts);
    progress.phase(fmt::format("{}: auditing", file));
    refine::AuditReport a = refine::audit(g, r, opts);
    progress.pause();
    std::vector<const refine::Diagnostic *> errors;
    for (const refine::Diagnostic &d : r.diagnostics)
      if (d.category == "dtype-error") errors.push_back(&d);
    Output out(*outFile);
    if (*asJson) {
      json changes = json::array(), lossy = json::array();
      for (const refine::DtypeChange &c : a.changes) {
        changes.push_back(changeJson(g, c));
        if (c.losesPrecision) lossy.push_back(g.values[c.output].name);
      }
      json errorsJ = json::array();
      for (const refine::Diagnostic *d : errors) errorsJ.push_back(errorJson(g, *d));
      json counts;
      for (size_t k = 0; k < a.counts.size(); ++k) counts[std::string(name(static_cast<ChangeKind>(k)))] = a.counts[k];
      out.write(dumpJson(json{{"changes", std::move(changes)},
                          {"counts", std::move(counts)},
                          {"loses_precision", std::move(lossy)},
                          {"errors", std::move(errorsJ)},
                          {"torch", std::string(opts.semantics->versionName())}},
                         2) +
                "\n");
    } else {
      std::string text;
      for (const refine::DtypeChange &c : a.changes)
        if (c.kind != ChangeKind::Result || *showResults)
          text += fmt::format("{}: {}\n", location(file, g, c.node), changeText(g, c));
      text += fmt::format("\n{} dtype changes: {} casts ({} by autocast), {} promotions, {} ops computing in another "
                          "dtype, {} results of another kind (bool, indices{})\n",
                          a.changes.size(), a.counts[0],
                          std::count_if(a.changes.begin(), a.changes.end(),
                                        [](const refine::DtypeChange &c) { return c.detail == "autocast"; }),
                          a.counts[1], a.counts[2], a.counts[3], *showResults ? "" : "; --all lists them");
      text += fmt::format("{} lose precision{}\n", a.lossy, a.lossy ? ":" : "");
      for (const refine::DtypeChange &c : a.changes)
        if (c.losesPrecision) text += fmt::format("  {}: {}\n", location(file, g, c.node), changeText(g, c));
      // The changes of a program PyTorch would not run to its end are only
      // the ones before the error: say so here too, not on stderr alone.
      if (!errors.empty())
        text += fmt::format("{} dtype error{} (PyTorch would raise):\n", errors.size(), errors.size() == 1 ? "" : "s");
      for (const refine::Diagnostic *d : errors)
        text += fmt::format("  {}: {}\n", api::where(file, g, d->node), ir::printable(d->message, 2000));
      out.write(text);
    }
    out.finish();
    if (out.toStdout()) std::fflush(stdout); // before the diagnostics on stderr
    printDiagnostics(file, g, r, flags->verbose, /*errorsOnly=*/!flags->verbose);
    if (!dotFile->empty() || !svgFile->empty() || !pngFile->empty()) {
      std::string dot = toDot(g, r, a, fmt::format("{}: dtypes (PyTorch {})", file, opts.semantics->versionName()));
      if (!dotFile->empty()) {
        Output d(*dotFile);
        d.write(dot);
        d.finish();
      }
      // dot takes seconds on a large model: the progress line says what runs.
      if (!svgFile->empty()) {
        progress.phase(fmt::format("{}: drawing {} nodes into {}", file, g.nodes.size(), ir::printable(*svgFile)));
        render(dot, "svg", *svgFile);
      }
      if (!pngFile->empty()) {
        progress.phase(fmt::format("{}: drawing {} nodes into {}", file, g.nodes.size(), ir::printable(*pngFile)));
        render(dot, "png", *pngFile);
      }
      progress.pause();
    }
    return errors.empty() ? api::kClean : api::kRaises;
  };
}

} // namespace dtf::cli
