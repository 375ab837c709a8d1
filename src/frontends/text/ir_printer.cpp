#include "frontends/text/ir_printer.h"

#include <fmt/format.h>

#include <iterator>
#include <span>

namespace dtf::ir {
namespace {

constexpr std::string_view kNotePrefix = "dtypeflow: ";

class Printer {
public:
  /// With a sink, the text goes out in pieces of about kChunk bytes as it is
  /// made (a 10^6-node graph's text is ~100 MB: never held whole); without
  /// one, run() returns it.
  Printer(const Graph &g, const refine::Result *r, const TextSink *sink = nullptr) : g_(g), r_(r), sink_(sink) {}

  std::string run() {
    const Block &body = g_.body();
    out_ += "graph(";
    for (size_t i = 0; i < body.params.size(); ++i) {
      if (i) out_ += ",\n      ";
      fmt::format_to(std::back_inserter(out_), "%{} : {}", g_.values[body.params[i]].name, inputTypeOf(body.params[i]));
    }
    out_ += "):\n";
    nodes(0, 2, 0);
    out_ += "  return (" + uses(body.returns) + ")\n";
    if (!g_.subgraphText.empty()) out_ += g_.subgraphText + "\n";
    flush(0);
    return std::move(out_);
  }

private:
  /// A graph input's type: as written, unless the refinement started from
  /// another one (`--input x=bfloat16:r4`), which is then printed.
  std::string inputTypeOf(ValueId v) {
    const TypeExpr &t = *g_.values[v].type;
    if (!r_ || !t.isTensor()) return t.text;
    const Value &given = r_->values[v];
    if (!given.isTensor()) return t.text;
    std::optional<int> rank = given.rank().value();
    if (given.dtype() == t.dtype && rank == t.rank) return t.text;
    return annotatedTypeText(t, given);
  }
  /// `%y: Float, rank unknown` for each output whose dtype alone is known:
  /// no TorchScript type says that (torch prints `FloatTensor`, which its
  /// parser refuses), so it goes in a comment after the node.
  /// Also `%y has sizes [u0, 2]` for each output with a symbolic size: a
  /// TorchScript type holds ints only (it prints `*` there).
  std::string dtypeOnlyNote(const Node &node) {
    if (!r_) return {};
    std::string note;
    for (ValueId o : node.outputs) {
      const Value &v = r_->values[o];
      if (!g_.values[o].type->isTensor() || !v.isTensor()) continue;
      if (v.dtype() && !v.rank().value()) {
        note += fmt::format("{}%{} is {}{}", note.empty() ? "" : ", ", g_.values[o].name, torchTypeName(*v.dtype()),
                            v.rank() == Rank::atLeast1() ? " of rank 1 or more" : ", rank unknown");
        continue;
      }
      if (!v.hasKnownDims() || !v.rank().value()) continue;
      bool symbolic = false; // dimAt: no copy of the sizes for the common all-int case
      for (int i = 0; i < *v.rank().value() && !symbolic; ++i) {
        const Dim d = v.dimAt(i);
        symbolic = d.known() && !d.value();
      }
      if (symbolic)
        note += fmt::format("{}%{} has sizes {}", note.empty() ? "" : ", ", g_.values[o].name, v.shapeStr());
    }
    return note;
  }
  /// `%name : Type` of a node output or block parameter, appended.
  void appendTyped(ValueId v) {
    out_ += '%';
    out_ += g_.values[v].name;
    out_ += " : ";
    const TypeExpr &t = *g_.values[v].type;
    // Constants are data: their written type stays (parseIR needs the device
    // of a tensor constant from it).
    NodeId def = g_.values[v].def;
    if (!r_ || (def != kNoId && g_.kindOf(def) == "prim::Constant")) out_ += t.text;
    else out_ += annotatedTypeText(t, r_->values[v]);
  }
  /// `%a, %b`, appended (the printer writes straight into its buffer: at
  /// 10^6 nodes a string per piece was a third of printing).
  void appendUses(std::span<const ValueId> vs) {
    for (size_t i = 0; i < vs.size(); ++i) {
      out_ += i ? ", %" : "%";
      out_ += g_.values[vs[i]].name;
    }
  }
  std::string uses(std::span<const ValueId> vs) {
    std::string s;
    for (size_t i = 0; i < vs.size(); ++i) s += (i ? ", %" : "%") + g_.values[vs[i]].name;
    return s;
  }
  void nodes(BlockId b, int indent, int depth) {
    if (depth > kMaxNesting) return; // the parser refuses deeper graphs
    for (NodeId n : g_.blocks[b].nodes) node(n, indent, depth);
  }
  static constexpr size_t kChunk = 1 << 20;
  /// Hands the text made so far to the sink once it holds `atLeast` bytes.
  void flush(size_t atLeast) {
    if (!sink_ || out_.size() < atLeast) return;
    (*sink_)(out_);
    out_.clear();
  }
  void node(NodeId n, int indent, int depth) {
    flush(kChunk);
    const Node &node = g_.nodes[n];
    out_.append(indent, ' ');
    for (size_t i = 0; i < node.outputs.size(); ++i) {
      if (i) out_ += ", ";
      appendTyped(node.outputs[i]);
    }
    out_ += " = "; // as torch prints it, also for nodes without outputs
    out_ += g_.kindName(node.kind);
    if (!node.attrs.empty()) {
      out_ += "[";
      for (size_t i = 0; i < node.attrs.size(); ++i)
        fmt::format_to(std::back_inserter(out_), "{}{}={}", i ? ", " : "", node.attrs[i].name, node.attrs[i].text);
      out_ += "]";
    }
    out_ += '(';
    appendUses(node.inputs);
    out_ += ')';
    // Torch's source comment, kept; then what the types above cannot say.
    std::string_view source = g_.sourceOf(n);
    std::string note = dtypeOnlyNote(node);
    if (!source.empty() || !note.empty()) out_ += " # ";
    out_ += source;
    if (!note.empty()) fmt::format_to(std::back_inserter(out_), "{}{}{}", source.empty() ? "" : "; ", kNotePrefix, note);
    out_ += "\n";
    for (size_t k = 0; k < node.blocks.size(); ++k) {
      const Block &blk = g_.blocks[node.blocks[k]];
      out_.append(indent + 2, ' ');
      fmt::format_to(std::back_inserter(out_), "block{}(", k);
      for (size_t i = 0; i < blk.params.size(); ++i) {
        if (i) out_ += ", ";
        appendTyped(blk.params[i]);
      }
      out_ += "):\n";
      nodes(node.blocks[k], indent + 4, depth + 1);
      out_.append(indent + 4, ' ');
      out_ += "-> (";
      appendUses(blk.returns);
      out_ += ")\n";
    }
  }

  const Graph &g_;
  const refine::Result *r_;
  const TextSink *sink_;
  std::string out_;
};

} // namespace

std::string printIR(const Graph &g, const refine::Result *refined) { return Printer(g, refined).run(); }

void printIR(const Graph &g, const refine::Result *refined, const TextSink &sink) {
  Printer(g, refined, &sink).run();
}

nlohmann::json dtypeJson(const Value &v) {
  if (v.isTensor() && v.dtype()) return std::string(name(*v.dtype()));
  return nullptr;
}

nlohmann::json rankJson(const Value &v) {
  if (v.isTensor() && v.rank().value()) return *v.rank().value();
  return nullptr;
}

nlohmann::json shapeJson(const Value &v) {
  auto dims = v.hasKnownDims() ? v.shape() : std::nullopt;
  if (!dims) return nullptr;
  nlohmann::json out = nlohmann::json::array();
  for (const Dim &d : *dims) {
    if (auto n = d.value()) out.push_back(*n);
    else if (d.known()) out.push_back(d.str());
    else out.push_back(nullptr);
  }
  return out;
}

nlohmann::ordered_json reportJson(const Graph &g, const refine::Result &r, const std::string &file) {
  nlohmann::ordered_json values = nlohmann::ordered_json::object();
  for (size_t v = 0; v < g.values.size(); ++v) {
    if (!g.values[v].type->isTensor() && !r.values[v].isTensor()) continue;
    auto &j = values[g.values[v].name] = {{"dtype", dtypeJson(r.values[v])}, {"rank", rankJson(r.values[v])}};
    addShapeJson(j, r.values[v]);
  }
  nlohmann::ordered_json diags = nlohmann::ordered_json::array();
  for (const refine::Diagnostic &d : r.diagnostics) {
    nlohmann::ordered_json j = {{"severity", std::string(refine::name(d.severity))},
                        {"category", d.category},
                        {"message", d.message}};
    j["node"] = d.node == kNoId ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(g.kindOf(d.node));
    j["line"] = d.loc.line ? nlohmann::ordered_json(d.loc.line) : nlohmann::ordered_json(nullptr);
    j["column"] = d.loc.col ? nlohmann::ordered_json(d.loc.col) : nlohmann::ordered_json(nullptr);
    if (d.value != kNoId) j["value"] = g.values[d.value].name;
    if (!file.empty()) j["file"] = file;
    diags.push_back(std::move(j));
  }
  return {{"values", std::move(values)}, {"diagnostics", std::move(diags)}};
}

} // namespace dtf::ir
