//===- tools/dtypeflow/cmd_explain.cpp - why a value has its dtype --------===//
//
// `explain FILE [VALUE...]`: for each named value, the rule that gave its
// dtype and the promotion it made (operands, tiers, categories), or, for an
// unknown value, the chain back to its first cause with the IR's and the
// Python source's locations. Without VALUE: every unknown tensor value,
// grouped by first cause. Text or JSON.
//
//===----------------------------------------------------------------------===//
#include "program_input.h"

#include "frontends/text/ir_printer.h"
#include "frontends/text/printable.h"
#include "api/input_file.h"
#include "api/mlir_program.h"
#include "output.h"
#include "refine/check.h"
#include "refine/explain.h"

#include <fmt/format.h>
#include <map>

namespace dtf::cli {
namespace {

using json = nlohmann::json;

/// `%x.1`, `x.1`, or `x` when one value alone has that Python name.
ir::ValueId findValue(const ir::Graph &g, std::string name) {
  if (name.starts_with('%')) name.erase(0, 1);
  std::vector<ir::ValueId> byBase;
  for (size_t v = 0; v < g.values.size(); ++v) {
    const std::string &n = g.values[v].name;
    if (n == name) return static_cast<ir::ValueId>(v);
    size_t dot = n.rfind('.');
    if (dot != std::string::npos && n.compare(0, dot, name) == 0 && dot == name.size() &&
        n.find_first_not_of("0123456789", dot + 1) == std::string::npos)
      byBase.push_back(static_cast<ir::ValueId>(v));
  }
  if (byBase.size() == 1) return byBase[0];
  if (byBase.size() > 1) {
    std::string names;
    for (size_t i = 0; i < byBase.size() && i < 8; ++i) names += (i ? ", %" : "%") + g.values[byBase[i]].name;
    throw UsageError(fmt::format("%{}: several values have that name ({}{}): give one exactly", name, names,
                                 byBase.size() > 8 ? ", ..." : ""));
  }
  throw UsageError(fmt::format("%{}: no such value in the graph", name.substr(0, 80)));
}

std::string where(const std::string &shown, const ir::Graph &g, ir::NodeId n) {
  if (n == ir::kNoId) return "";
  std::string s = api::where(shown, g, n);
  if (!g.sourceOf(n).empty()) s += fmt::format(", {}", ir::printable(g.sourceOf(n)));
  return s;
}

json stepJson(const std::string &file, const ir::Graph &g, const refine::ExplainStep &s) {
  json j = {{"value", g.values[s.value].name}, {"cause", s.cause}, {"text", s.text}, {"first_cause", s.firstCause}};
  if (s.node != ir::kNoId) {
    j["node"] = g.kindOf(s.node);
    j["line"] = g.nodes[s.node].loc.line;
    j["column"] = g.nodes[s.node].loc.col;
    if (!g.sourceOf(s.node).empty()) j["source"] = std::string(g.sourceOf(s.node));
  }
  return j;
}

json promotionJson(const ir::Graph &g, const refine::PromotionInfo &p) {
  json ops = json::array();
  for (const refine::PromotionOperandInfo &o : p.operands) {
    json j = {{"arg", o.arg},
              {"value", g.values[o.value].name},
              {"dtype", std::string(name(o.dtype))},
              {"tier", std::string(refine::name(o.tier))},
              {"category", std::string(refine::name(category(o.dtype)))}};
    if (o.number) j["number"] = std::string(name(*o.number));
    ops.push_back(std::move(j));
  }
  auto d = [](const std::optional<DType> &x) { return x ? json(std::string(name(*x))) : json(nullptr); };
  json j = {{"operands", std::move(ops)},
            {"tiers", {{"dim", d(p.tiers[0])}, {"zero_dim", d(p.tiers[1])}, {"number", d(p.tiers[2])}}},
            {"result_type", d(p.result)}};
  if (!p.error.empty()) j["error"] = p.error;
  return j;
}

/// What the program records for a value (a .pt2's TensorMeta, a traced
/// graph's written type) and whether `check` calls the inference wrong.
struct Recorded {
  std::string text; ///< empty: nothing recorded
  bool wrong = false;
};

Recorded recordedOf(const api::LoadedProgram &p, const refine::Result &r, ir::ValueId v) {
  if (refine::isInputLike(*p.graph, v)) return {};
  Recorded out{api::recordedText(p, v), false};
  if (out.text.empty()) return out;
  if (p.archive) {
    const pt2::RecordedTensor &rec = *p.archive->recorded[v];
    out.wrong = rec.dtype && refine::checkTensor(*rec.dtype, rec.rank(), r.values[v]) == refine::Verdict::Wrong;
  } else {
    out.wrong = refine::checkWritten(*p.graph, v, r.values[v]) == refine::Verdict::Wrong;
  }
  return out;
}

/// The shape rule's part of an op value's explanation (issue 35): the sizes
/// the value got, whether the overload that ran has a shape rule, its tensor
/// operands' sizes, and the errors PyTorch raises at its node (the sizes
/// decide a broadcast of 3 against 4; a symbolic one names its condition).
struct SizesInfo {
  bool shapeRule = false;
  std::vector<std::pair<std::string, ir::ValueId>> operands; ///< schema argument name, value
  std::vector<std::string> errors;
};

std::optional<SizesInfo> sizesOf(const ir::Graph &g, const refine::Result &r, const refine::Options &opts,
                                 const refine::Explanation &e) {
  const ir::NodeId def = g.values[e.value].def;
  if (e.overload.empty() || def == ir::kNoId || !r.values[e.value].isTensor()) return std::nullopt;
  const Semantics &sem = refine::semanticsOf(opts);
  const Schema *schema = sem.schemas().find(e.overload);
  const OpRule *rule = schema ? sem.registry().find(*schema) : nullptr;
  SizesInfo out;
  out.shapeRule = rule && rule->shape;
  const auto &ins = g.nodes[def].inputs;
  for (size_t i = 0; i < ins.size(); ++i)
    if (r.values[ins[i]].isTensor())
      out.operands.emplace_back(schema && i < schema->args.size() ? schema->args[i].name : std::to_string(i), ins[i]);
  for (const refine::Diagnostic &d : r.diagnostics)
    if (d.node == def && (d.severity == refine::Severity::Error || d.category.starts_with("possible")))
      out.errors.push_back(d.message);
  return out;
}

json sizesJson(const ir::Graph &g, const refine::Result &r, const SizesInfo &s) {
  auto shape = [&](ir::ValueId v) { return json(r.values[v].shapeStr()); };
  json ops = json::array();
  for (const auto &[arg, v] : s.operands) ops.push_back({{"arg", arg}, {"value", g.values[v].name}, {"shape", shape(v)}});
  return {{"shape_rule", s.shapeRule}, {"operands", std::move(ops)}, {"errors", s.errors}};
}

std::string sizesText(const ir::Graph &g, const refine::Result &r, const refine::Explanation &e, const SizesInfo &s) {
  std::string ops;
  for (const auto &[arg, v] : s.operands)
    ops += fmt::format("{}{}=%{} {}", ops.empty() ? "" : ", ", arg, ir::printable(g.values[v].name), r.values[v].shapeStr());
  std::string out = fmt::format("  sizes {}{}{} ({}{})\n", r.values[e.value].shapeStr(), ops.empty() ? "" : " from ", ops,
                                e.overload, s.shapeRule ? "" : "; it has no shape rule: sizes only where its dtype rule keeps them");
  for (const std::string &err : s.errors) out += fmt::format("    PyTorch raises here: {}\n", err);
  return out;
}

json explanationJson(const api::LoadedProgram &p, const refine::Result &r, const refine::Options &opts,
                     const refine::Explanation &e) {
  const std::string &file = p.shown;
  const ir::Graph &g = *p.graph;
  const Value &v = r.values[e.value];
  json j = {{"value", g.values[e.value].name}, {"known", e.known}, {"dtype", ir::dtypeJson(v)},
            {"rank", ir::rankJson(v)}, {"state", refine::stateText(v)}};
  ir::addShapeJson(j, v);
  if (Recorded rec = recordedOf(p, r, e.value); !rec.text.empty()) {
    j["recorded"] = rec.text;
    j["check"] = rec.wrong ? "wrong" : "agrees";
  }
  if (!e.overload.empty()) j["overload"] = e.overload;
  if (!e.family.empty()) j["family"] = e.family;
  if (e.promotion) j["promotion"] = promotionJson(g, *e.promotion);
  if (auto s = sizesOf(g, r, opts, e)) j["sizes"] = sizesJson(g, r, *s);
  j["chain"] = json::array();
  for (const refine::ExplainStep &s : e.chain) j["chain"].push_back(stepJson(file, g, s));
  return j;
}

/// `int8 (dim tensor, integral)` for one operand.
std::string operandText(const ir::Graph &g, const refine::PromotionOperandInfo &o) {
  std::string what = o.number ? fmt::format("a Python {} (counts as {})", name(*o.number), name(o.dtype))
                              : std::string(name(o.dtype));
  return fmt::format("{}=%{}: {} ({}, {})", o.arg, ir::printable(g.values[o.value].name), what, refine::name(o.tier),
                     refine::name(category(o.dtype)));
}

std::string explanationText(const api::LoadedProgram &p, const refine::Result &r, const refine::Options &opts,
                            const refine::Explanation &e) {
  const std::string &file = p.shown;
  const ir::Graph &g = *p.graph;
  std::string out = fmt::format("%{}: {}\n", ir::printable(g.values[e.value].name), refine::stateText(r.values[e.value]));
  if (Recorded rec = recordedOf(p, r, e.value); rec.wrong)
    out += fmt::format("  {} {}: `check` calls the inference wrong\n",
                       p.archive ? "recorded by torch.export as" : "written as",
                       rec.text);
  for (size_t i = 0; i < e.chain.size(); ++i) {
    const refine::ExplainStep &s = e.chain[i];
    std::string at = where(file, g, s.node);
    out += fmt::format("  {}{}{}{}\n", i ? "<- " : "", ir::printable(s.text, 2000), at.empty() ? "" : "  [" + at + "]",
                       s.firstCause && !e.known ? "  (first cause)" : "");
  }
  if (auto s = sizesOf(g, r, opts, e)) out += sizesText(g, r, e, *s);
  if (e.promotion) {
    const refine::PromotionInfo &p = *e.promotion;
    out += "  promotion (at::result_type):\n";
    for (const refine::PromotionOperandInfo &o : p.operands) out += "    " + operandText(g, o) + "\n";
    static constexpr std::string_view kTierNames[] = {"dim tensors", "0-dim tensors", "Python numbers"};
    std::string tiers;
    for (size_t t = 0; t < 3; ++t)
      if (p.tiers[t]) tiers += fmt::format("{}{}: {}", tiers.empty() ? "" : "; ", kTierNames[t], name(*p.tiers[t]));
    out += fmt::format("    each tier promoted: {}\n", tiers);
    if (!p.error.empty()) {
      out += fmt::format("    promotion raises: {}\n", p.error);
    } else if (p.result) {
      out += fmt::format("    a lower tier counts only in a higher category (bool < integral < floating < complex): "
                         "result_type = {}\n",
                         name(*p.result));
      const Value &v = r.values[e.value];
      if (v.isTensor() && v.dtype() && *v.dtype() != *p.result)
        out += fmt::format("    the op's own rule makes it {} (a dtype= argument, a fixed result dtype, or a "
                           "computation in another type)\n",
                           name(*v.dtype()));
    }
  }
  return out;
}

} // namespace

Action addExplain(CLI::App &app) {
  auto *sub = app.add_subcommand(
      "explain", "Why a value has the dtype it has, or why it is unknown. For a known value: the rule\n"
                 "that gave it and the promotion of its operands (tiers, categories). For an unknown\n"
                 "value: the chain back to its first cause (an input without a type, an op without a\n"
                 "rule, an If/Loop joining different dtypes, a value-dependent result), with the IR's\n"
                 "and the Python source's locations. Without VALUE: every unknown tensor value.");
  auto flags = std::make_shared<CommonFlags>();
  auto names = std::make_shared<std::vector<std::string>>();
  auto asJson = std::make_shared<bool>(false);
  auto outFile = std::make_shared<std::string>();
  addCommon(sub, *flags, /*several=*/false);
  sub->add_option("VALUE", *names, "values to explain: %name, name, or a Python name (x for %x.1)");
  sub->add_flag("--json", *asJson, "print {\"values\": [{\"value\", \"known\", \"chain\", \"promotion\" ...}]}");
  sub->add_option("-o,--output", *outFile, "write the result here instead of stdout");
  return [=] {
    Loaded l = loadFor(*flags, flags->file);
    const std::string file = l.program.shown;
    // A Torch-dialect module: each function, refined with the module's facts, explained on its own.
    std::vector<RefinedUnit> units = refineLoaded(*flags, l);
    std::vector<std::vector<ir::ValueId>> asked(units.size());
    for (const std::string &n : *names) {
      if (!l.program.mlir) {
        asked[0].push_back(findValue(*units[0].program.graph, n));
        continue;
      }
      auto [fn, v] = api::findMlirValue(*l.program.mlir, n);
      asked[fn].push_back(v);
    }
    const bool all = names->empty();
    Output out(*outFile);
    json values = json::array();
    std::string text;
    bool raises = false;
    for (size_t u = 0; u < units.size(); ++u) {
      const RefinedUnit &unit = units[u];
      const api::LoadedProgram &p = unit.program;
      const ir::Graph &g = *p.graph;
      const refine::Result &r = unit.result;
      if (all)
        for (size_t v = 0; v < g.values.size(); ++v)
          if (r.values[v].isTensor() && !refine::fullyKnown(r.values[v]) && !r.values[v].isBottom() &&
              !refine::isInputLike(g, static_cast<ir::ValueId>(v)))
            asked[u].push_back(static_cast<ir::ValueId>(v));
      const std::string in = unit.function.empty() || units.size() == 1 ? "" : fmt::format("@{}: ", unit.function);
      // Without VALUE: the first causes, each once, with the values they explain.
      std::map<std::pair<ir::ValueId, std::string>, std::vector<ir::ValueId>> byCause;
      for (ir::ValueId v : asked[u]) {
        refine::Explanation e = refine::explain(g, r, unit.opts, v);
        if (*asJson) {
          json j = explanationJson(p, r, unit.opts, e);
          if (!unit.function.empty()) j["function"] = unit.function;
          values.push_back(std::move(j));
        } else if (!all) {
          text += in + explanationText(p, r, unit.opts, e) + "\n";
        } else {
          byCause[{e.chain.back().value, e.chain.back().text}].push_back(v);
        }
      }
      for (const auto &[cause, vs] : byCause) {
        ir::NodeId def = g.values[cause.first].def;
        std::string at = where(file, g, def);
        text += fmt::format("{}{}{}\n  explains {} unknown value{}:", in, ir::printable(cause.second, 2000),
                            at.empty() ? "" : "  [" + at + "]", vs.size(), vs.size() == 1 ? "" : "s");
        for (size_t i = 0; i < vs.size() && i < 12; ++i) text += " %" + ir::printable(g.values[vs[i]].name);
        text += vs.size() > 12 ? " ...\n\n" : "\n\n";
      }
      raises = raises || api::raises(r);
    }
    if (*asJson) {
      out.write(dumpJson(json{{"values", std::move(values)}, {"torch", std::string(name(semanticsOf(*flags->torch).version()))}}, 2) + "\n");
    } else if (all) {
      if (text.empty()) text = "every tensor value is known (dtype and rank)\n";
      text += "(dtypeflow explain FILE VALUE shows one value's whole chain)\n";
    }
    out.write(text);
    out.finish();
    // Where PyTorch would raise, said on stderr; the exit code says it too.
    for (const RefinedUnit &unit : units)
      printDiagnostics(file, *unit.program.graph, unit.result, flags->verbose, /*errorsOnly=*/true);
    return raises ? api::kRaises : api::kClean;
  };
}

} // namespace dtf::cli
