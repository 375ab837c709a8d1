#include "graph/graph.h"

namespace dtf::ir {

Graph::Graph() { blocks.push_back(Block{}); }

const Graph *Graph::subgraph(std::string_view name) const {
  const Graph &owner = sectionsOwner ? *sectionsOwner : *this;
  for (const auto &[n, sub] : owner.subgraphs)
    if (n == name) return sub.get();
  return nullptr;
}

ValueId Graph::addValue(std::string name, TypePtr type) {
  values.push_back(ValueInfo{std::move(name), type ? std::move(type) : tensorType(), kNoId, kNoId});
  return static_cast<ValueId>(values.size() - 1);
}

NodeId Graph::addNode(BlockId parent, std::string_view kind, SourceLoc loc) {
  return addNode(parent, internKind(kind), loc);
}

NodeId Graph::addNode(BlockId parent, KindId kind, SourceLoc loc) {
  Node n;
  n.kind = kind;
  n.parent = parent;
  n.loc = loc;
  nodes.push_back(std::move(n));
  NodeId id = static_cast<NodeId>(nodes.size() - 1);
  blocks[parent].nodes.push_back(id);
  return id;
}

BlockId Graph::addBlock(NodeId owner, SourceLoc loc) {
  Block b;
  b.owner = owner;
  b.loc = loc;
  blocks.push_back(std::move(b));
  BlockId id = static_cast<BlockId>(blocks.size() - 1);
  if (owner != kNoId) nodes[owner].blocks.push_back(id);
  return id;
}

KindId Graph::internKind(std::string_view kind) {
  auto it = kindIds_.find(std::string(kind));
  if (it != kindIds_.end()) return it->second;
  KindId id = static_cast<KindId>(kinds_.size());
  kinds_.emplace_back(kind);
  pinned_.emplace_back();
  kindIds_.emplace(std::string(kind), id);
  return id;
}

KindId Graph::internPinnedKind(std::string_view op, std::string_view overload) {
  std::string key = std::string(op) + "." + std::string(overload);
  auto it = pinnedIds_.find(key);
  if (it != pinnedIds_.end()) return it->second;
  KindId id = static_cast<KindId>(kinds_.size());
  kinds_.emplace_back(op);
  pinned_.emplace_back(std::string(overload));
  pinnedIds_.emplace(std::move(key), id);
  return id;
}

const Attribute *Graph::attr(NodeId n, std::string_view name) const {
  for (const Attribute &a : nodes[n].attrs)
    if (a.name == name) return &a;
  return nullptr;
}

} // namespace dtf::ir
