//===- graph/graph.h - a small TorchScript-like program IR ------*- C++ -*-===//
//
// Values, nodes and nested blocks (prim::If / prim::Loop), stored in flat
// vectors indexed by id so that an analysis can keep its state in parallel
// flat vectors (one dtf::Value per value id) instead of per-node maps.
// Block 0 is the graph body: its params are the graph inputs and its returns
// the graph outputs. Names are kept exactly as written (`%input.3` -> "input.3").
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dtype/lattice.h"
#include "graph/small_ids.h"
#include "graph/type_expr.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace dtf::ir {

using ValueId = uint32_t;
using NodeId = uint32_t;
using BlockId = uint32_t;
using KindId = uint32_t;
inline constexpr uint32_t kNoId = UINT32_MAX;

/// Deepest block nesting accepted; deeper input is refused with a message
/// (parsers and the solver recurse per nesting level, never per node).
inline constexpr int kMaxNesting = 200;
/// Most nodes a parsed graph may have (the benchmarks refine 10^6; memory
/// grows about 1 KB per node): a larger input is refused, not half-read.
inline constexpr size_t kMaxNodes = 4'000'000;
/// Most elements of one list literal (`value=[...]`).
inline constexpr size_t kMaxListLength = 1'000'000;

struct SourceLoc {
  uint32_t line = 0, col = 0; ///< 1-based; 0 = unknown
};

/// `name=literal` inside `kind[...]`. The literal is kept as written (for
/// printing) and parsed (for prim::Constant).
struct Attribute {
  enum class LitKind : uint8_t { Int, Float, String, TensorLiteral, List, Other };
  std::string name;
  std::string text;
  LitKind kind = LitKind::Other;
  Value literal; ///< ints/floats/strings/lists of them; for `{2.5}` the number inside
};

struct ValueInfo {
  std::string name;
  TypePtr type;           ///< as written; never null (`Tensor` when omitted)
  NodeId def = kNoId;     ///< defining node, or kNoId for a block param
  BlockId paramOf = kNoId;
};

struct Node {
  KindId kind = 0;
  SmallIds<ValueId, 4> inputs; ///< in place up to 4 (graph/small_ids.h)
  SmallIds<ValueId, 2> outputs;
  SmallIds<BlockId, 2> blocks;
  std::vector<Attribute> attrs;
  BlockId parent = 0;
  SourceLoc loc;
  /// The Python source torch printed after the node (`# model.py:12:0`), an
  /// index into Graph::sources; kNoId when none.
  uint32_t source = UINT32_MAX;
};

struct Block {
  std::vector<ValueId> params;
  std::vector<NodeId> nodes;
  std::vector<ValueId> returns;
  NodeId owner = kNoId; ///< kNoId for the graph body
  SourceLoc loc;
};

class Graph {
public:
  Graph();

  ValueId addValue(std::string name, TypePtr type);
  NodeId addNode(BlockId parent, std::string_view kind, SourceLoc loc);
  NodeId addNode(BlockId parent, KindId kind, SourceLoc loc);
  BlockId addBlock(NodeId owner, SourceLoc loc);

  KindId internKind(std::string_view kind);
  /// A kind whose op overload is known exactly: `aten::add` pinned to `Tensor`
  /// ("" for the default overload), as a torch.export node names its target
  /// (`torch.ops.aten.add.Tensor`). Overload resolution takes that overload
  /// instead of matching argument values. The kind's name stays the op's
  /// (`aten::add`): name-based facts still apply, and it prints as TorchScript.
  KindId internPinnedKind(std::string_view op, std::string_view overload);
  /// The overload kind `k` is pinned to, or null (resolved from argument values).
  const std::string *pinnedOverload(KindId k) const { return pinned_[k] ? &*pinned_[k] : nullptr; }
  const std::string &kindName(KindId k) const { return kinds_[k]; }
  const std::string &kindOf(NodeId n) const { return kinds_[nodes[n].kind]; }
  /// Number of interned kinds (KindIds are 0 .. numKinds()-1).
  size_t numKinds() const { return kinds_.size(); }

  const Block &body() const { return blocks[0]; }
  Block &body() { return blocks[0]; }
  const Attribute *attr(NodeId n, std::string_view name) const;

  std::vector<ValueInfo> values;
  std::vector<Node> nodes;
  std::vector<Block> blocks;
  /// The `with prim::fork_0 = graph(...)` sections printed after the graph
  /// (torch.jit.fork's functions), as written: printed back after the graph.
  std::string subgraphText;
  /// The same sections parsed, by name (`prim::fork_0`), each a graph of its
  /// own value names. A section's own fork nodes name sections of the graph
  /// it came with: `sectionsOwner` points there (null: this graph).
  std::vector<std::pair<std::string, std::unique_ptr<Graph>>> subgraphs;
  const Graph *sectionsOwner = nullptr;
  /// Distinct source comments (`model.py:12:0`), by Node::source.
  std::vector<std::string> sources;
  /// A node's source comment, or empty.
  std::string_view sourceOf(NodeId n) const {
    uint32_t s = nodes[n].source;
    return s < sources.size() ? std::string_view(sources[s]) : std::string_view();
  }
  /// The section a fork node of this graph runs, or null.
  const Graph *subgraph(std::string_view name) const;

private:
  std::vector<std::string> kinds_;
  std::vector<std::optional<std::string>> pinned_; ///< by KindId
  std::unordered_map<std::string, KindId> kindIds_, pinnedIds_;
};

} // namespace dtf::ir
