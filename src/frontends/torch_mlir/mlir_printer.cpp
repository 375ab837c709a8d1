#include "frontends/torch_mlir/mlir_printer.h"
#include "frontends/text/ir_printer.h"
#include "frontends/torch_mlir/mlir_affine.h"
#include "frontends/torch_mlir/mlir_types.h"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <map>
#include <optional>
#include <tuple>
#include <unordered_set>

namespace dtf::torch_mlir {
namespace {

struct Edit {
  size_t begin, end; ///< replaced range (begin == end: an insertion)
  std::string text;
  int order = 0;     ///< insertions at one place: in the order made
};

/// The start of the line holding offset `at`, and that line's indentation.
std::pair<size_t, std::string> lineStart(std::string_view text, size_t at) {
  size_t start = text.rfind('\n', at == 0 ? 0 : at - 1);
  start = start == std::string_view::npos || at == 0 ? 0 : start + 1;
  size_t indentEnd = start;
  while (indentEnd < at && (text[indentEnd] == ' ' || text[indentEnd] == '\t')) ++indentEnd;
  return {start, std::string(text.substr(start, indentEnd - start))};
}

class FunctionPrinter {
public:
  FunctionPrinter(std::string_view text, const Function &f, const refine::Result &r, std::vector<Edit> &edits)
      : text_(text), f_(f), r_(r), edits_(edits),
        genericOps_(std::any_of(f.defs.begin(), f.defs.end(), [](const SsaDef &d) { return d.generic; })) {}

  void run() {
    printed_.resize(f_.defs.size());
    for (size_t i = 0; i < f_.defs.size(); ++i) {
      const SsaDef &d = f_.defs[i];
      printed_[i] = d.writtenType;
      if (!d.result || d.typeBegin == kNone) continue;
      if (d.impliedBy != kNone && printed_[d.impliedBy] == f_.defs[d.impliedBy].writtenType) continue;
      printed_[i] = refinedTypeText(d.writtenType, r_.values[d.value]);
      if (!sameType(printed_[i], d.writtenType)) edits_.push_back({d.typeBegin, d.typeEnd, printed_[i]});
    }
    bindRefinedSizes();
    for (const Use &u : f_.uses) use(u);
  }

private:
  /// A `torch.bind_symbolic_shape` after each op result whose refined sizes are all known, some
  /// symbolic, in symbols the function declares (torch.symbolic_int), where none binds it yet: the
  /// sizes the FX importer would state, for a program that bound its inputs only.
  void bindRefinedSizes() {
    if (f_.symbolDefs.empty()) return;
    std::vector<bool> seen(f_.graph->values.size());
    for (size_t i = 0; i < f_.defs.size(); ++i) {
      const SsaDef &d = f_.defs[i];
      if (seen[d.value]) continue; // a cast or copy of a value defined before: bound there
      seen[d.value] = true;
      if (!d.result || d.typeBegin == kNone || f_.boundValues.count(d.value)) continue;
      ir::NodeId n = f_.graph->values[d.value].def;
      if (n == ir::kNoId || f_.graph->nodes[n].blocks.size() != 0) continue; // an op with regions ends later
      std::optional<std::string> bind = bindText(d, printed_[i]);
      if (!bind) continue;
      size_t eol = text_.find('\n', d.typeEnd);
      std::string indent = lineStart(text_, d.typeBegin).second;
      if (eol == std::string_view::npos)
        edits_.push_back({text_.size(), text_.size(), "\n" + indent + *bind, static_cast<int>(edits_.size())});
      else
        edits_.push_back({eol + 1, eol + 1, indent + *bind + "\n", static_cast<int>(edits_.size())});
    }
  }
  /// The bind op for `d` typed `type`, in its op's form (pretty or generic), or nullopt.
  std::optional<std::string> bindText(const SsaDef &d, const std::string &type) {
    auto spelling = tensorSpelling(type);
    if (!spelling || !spelling->sizes) return std::nullopt; // a type written as no tensor type (or `*`): not bound
    auto shape = r_.values[d.value].shape();
    auto binding = shape ? affineBinding(*shape) : std::nullopt;
    if (!binding) return std::nullopt;
    std::string operands, types;
    for (const std::string &sym : binding->symbols) {
      auto it = f_.symbolDefs.find(sym);
      if (it == f_.symbolDefs.end()) return std::nullopt; // a symbol the function does not declare
      operands += (operands.empty() ? "%" : ", %") + it->second;
      types += ", !torch.int";
    }
    const std::string &map = binding->map;
    if (d.generic)
      return fmt::format("\"torch.bind_symbolic_shape\"(%{}, {}) {{shape_expressions = {}}} : ({}{}) -> ()", d.name,
                         operands, map, type, types);
    return fmt::format("torch.bind_symbolic_shape %{}, [{}], {} : {}", d.name, operands, map, type);
  }

  void use(const Use &u) {
    // torch.copy.to_tensor %x : T: the result's written sizes are %x's, so both refine alike.
    if (u.kind == UseKind::Implied && u.typeBegin == kNone) return;
    const std::string &now = printed_[u.def];
    bool typed = u.typeBegin != kNone;
    std::string_view written = typed ? text_.substr(u.typeBegin, u.typeEnd - u.typeBegin)
                                     : std::string_view(f_.defs[u.def].writtenType);
    std::string_view want = written; // the type this use must see
    if (u.kind == UseKind::Yield && u.target != kNone) want = printed_[u.target];
    if (now.empty() || want.empty()) return; // a type no text states (constants, other dialects' ops): never refined
    if (sameType(now, want)) {
      if (typed && !sameType(written, want)) edits_.push_back({u.typeBegin, u.typeEnd, std::string(want)});
      return;
    }
    if (u.kind == UseKind::Follows && typed) {
      edits_.push_back({u.typeBegin, u.typeEnd, now});
      return;
    }
    // A cast back to the type the use requires, on the line before its op.
    // One cast per op, value and type (a cf.cond_br may pass one value to blocks typed differently).
    auto key = std::make_tuple(u.opBegin, u.def, std::string(want));
    auto it = casts_.find(key);
    if (it == casts_.end()) {
      std::string base = f_.defs[u.def].name;
      std::replace(base.begin(), base.end(), '#', '_');
      // MLIR names are digits only or start with a letter: `%1` gets `%cast1`, `%x` gets `%x_cast`.
      const bool digits = !base.empty() && base[0] >= '0' && base[0] <= '9';
      auto candidate = [&](int i) {
        std::string n = digits ? "cast" + base : base + "_cast";
        return i ? fmt::format("{}_{}", n, i) : n;
      };
      if (taken_.empty()) { // the names in use, gathered once a cast needs a new one
        taken_.reserve(f_.defs.size());
        for (const SsaDef &d : f_.defs) taken_.insert(d.name);
      }
      std::string name = candidate(0);
      for (int i = 1; taken_.count(name); ++i) name = candidate(i);
      taken_.insert(castNames_.emplace_back(name));
      auto [start, indent] = lineStart(text_, u.opBegin);
      std::string operand(text_.substr(u.nameBegin, u.nameEnd - u.nameBegin));
      // Generic where the op using it is, or where the function's own torch ops are (a module
      // written for parsers without the torch dialect, as `annotate X.pt2 --format torch-mlir`
      // writes it: a pretty cast before its pretty `return` would be the one op mlir-opt refuses).
      const bool generic = u.generic || genericOps_;
      std::string line = generic ? fmt::format("{}%{} = \"torch.tensor_static_info_cast\"({}) : ({}) -> {}\n", indent,
                                                 name, operand, now, want)
                                   : fmt::format("{}%{} = torch.tensor_static_info_cast {} : {} to {}\n", indent, name,
                                                 operand, now, want);
      if (start + indent.size() != u.opBegin) { // another op ends on this line: break it before this one
        line = "\n" + line + indent;
        start = u.opBegin;
      }
      edits_.push_back({start, start, std::move(line), static_cast<int>(edits_.size())});
      it = casts_.emplace(key, "%" + name).first;
    }
    edits_.push_back({u.nameBegin, u.nameEnd, it->second});
    if (typed && !sameType(written, want)) edits_.push_back({u.typeBegin, u.typeEnd, std::string(want)});
  }

  std::string_view text_;
  const Function &f_;
  const refine::Result &r_;
  std::vector<Edit> &edits_;
  std::vector<std::string> printed_;
  std::unordered_set<std::string_view> taken_; ///< views of the defs' names and castNames_
  const bool genericOps_; ///< some op of the function is written in generic form
  std::deque<std::string> castNames_;
  std::map<std::tuple<size_t, size_t, std::string>, std::string> casts_;
};

} // namespace

std::string annotateModule(const Module &m, const std::vector<refine::Result> &results) {
  std::vector<Edit> edits;
  for (size_t i = 0; i < m.functions.size() && i < results.size(); ++i)
    FunctionPrinter(m.text, m.functions[i], results[i], edits).run();
  // Insertions (casts) come before a replacement at the same place; among themselves, in the order made.
  std::stable_sort(edits.begin(), edits.end(), [](const Edit &a, const Edit &b) {
    if (a.begin != b.begin) return a.begin < b.begin;
    return (a.begin == a.end) > (b.begin == b.end);
  });
  std::string out;
  out.reserve(m.text.size() + edits.size() * 32);
  size_t pos = 0;
  for (const Edit &e : edits) {
    if (e.begin < pos) continue; // overlapping (never made): the first wins
    out.append(m.text, pos, e.begin - pos);
    out += e.text;
    pos = e.end;
  }
  out.append(m.text, pos, std::string::npos);
  return out;
}

Dims statedSizes(const ir::Graph &g, const SsaDef &d) {
  const ir::TypeExpr &t = *g.values[d.value].type;
  if (sameType(t.text, d.writtenType)) return t.dims;
  ir::TypePtr written = parseType(d.writtenType);
  return written ? written->dims : Dims{};
}

std::vector<StatedType> compareStated(const Function &f, const refine::Result &r) {
  std::vector<StatedType> out;
  const ir::Graph &g = *f.graph;
  for (size_t i = 0; i < f.defs.size(); ++i) {
    const SsaDef &d = f.defs[i];
    if (!d.result || d.typeBegin == kNone || refine::isInputLike(g, d.value)) continue;
    auto spelling = tensorSpelling(d.writtenType);
    if (!spelling || !spelling->element) continue;
    auto written = elementDType(*spelling->element);
    if (!written) continue; // a dtype dtypeflow does not model
    const Value &got = r.values[d.value];
    StatedType s{i, refine::Verdict::Unknown};
    if (spelling->sizes) {
      int rank = static_cast<int>(std::count(spelling->sizes->begin(), spelling->sizes->end(), ',')) +
                 (*spelling->sizes == "[]" ? 0 : 1);
      Dims sizes = statedSizes(g, d);
      s.verdict = refine::checkTensor(*written, rank, got, &sizes);
      // A dtype-only agreement is agreement when the rank is not known (torch-mlir's `<*,f32>` reading).
      if (s.verdict == refine::Verdict::Unknown && got.dtype() == written) s.verdict = refine::Verdict::Correct;
      if (s.verdict != refine::Verdict::Wrong) s.sizes = refine::checkSizes(sizes, got);
    } else if (got.isTensor() && !got.dtypes().empty() && !got.dtypes().contains(*written)) {
      s.verdict = refine::Verdict::Wrong;
    } else if (got.isTensor() && got.dtype() == written) {
      s.verdict = refine::Verdict::Correct;
    } else if (!got.isTensor() && !got.isTop() && !got.isBottom()) {
      s.verdict = refine::Verdict::Wrong;
    }
    out.push_back(s);
  }
  return out;
}

nlohmann::json functionJson(const Function &f, const refine::Result &r) {
  refine::Result withReader = r;
  withReader.diagnostics.insert(withReader.diagnostics.begin(), f.diagnostics.begin(), f.diagnostics.end());
  nlohmann::json j = ir::reportJson(*f.graph, withReader);
  // Casts and copies name the data of their operand under a name of their own.
  for (const SsaDef &d : f.defs)
    if (!j["values"].contains(d.key()) && r.values[d.value].isTensor()) {
      auto &entry = j["values"][d.key()] = {{"dtype", ir::dtypeJson(r.values[d.value])},
                                           {"rank", ir::rankJson(r.values[d.value])}};
      ir::addShapeJson(entry, r.values[d.value]);
    }
  nlohmann::json out = {{"name", f.name}, {"split", f.split}};
  out.update(j);
  return out;
}

} // namespace dtf::torch_mlir
