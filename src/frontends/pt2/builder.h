//===- frontends/pt2/builder.h - ExportedProgram JSON to ir::Graph (internal) -*- C++ -*-===//
//
// The Builder walks a serialized ExportedProgram (schema 8.x) and emits the
// ir::Graph: graph inputs (program_builder.cpp), op nodes with their
// arguments placed by the schema table (node_builder.cpp), and the
// higher-order ops as control flow (control_flow.cpp). Every read of the
// document goes through a Field, so a mismatch names its JSON path.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dtype/dtype_system.h"
#include "frontends/pt2/json_field.h"
#include "frontends/pt2/pt2_reader.h"
#include "schema/schema.h"
#include "shape/dim.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace dtf::pt2 {

class Builder {
public:
  /// Lets the maps keyed by std::string be searched with the string_views a Field holds.
  struct NameHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  Builder(const SchemaTable &schemas, const DTypeSystem &types);
  /// The whole document (an ExportedProgram); throws FormatError.
  Program build(const Field &doc);

  // --- one serialized Graph being emitted (the top graph or an inlined sub-graph)
  struct Scope {
    const Field *graph = nullptr;                         ///< its serialized Graph
    std::string prefix;                                   ///< IR names: prefix + serialized name
    std::unordered_map<std::string, ir::ValueId, NameHash, std::equal_to<>> values; ///< serialized name -> IR value
    int depth = 0;                                        ///< sub-graph nesting
    /// The graph's tensor_values by name, made on first use (record()); a JSON object is searched linearly.
    mutable std::optional<std::unordered_map<std::string_view, Field::Element>> metas;
  };

private:
  // program_builder.cpp: values, types, constants, inputs
  void checkVersion(const Field &doc);
  void buildInputs(Scope &top, const Field &graph, const Field &signature);
  /// A new IR value for the serialized name `name` of `scope` (unique in the graph).
  ir::ValueId define(Scope &scope, const Field &nameField, ir::TypePtr type);
  ir::ValueId fresh(ir::TypePtr type); ///< a value of the reader's own (numbered name)
  ir::ValueId lookup(const Scope &scope, const Field &nameField) const;
  /// Record the TensorMeta of `name` (in scope's tensor_values) for value `v`; false when it has none.
  bool record(const Scope &scope, std::string_view name, ir::ValueId v);
  /// The TensorMeta of `name` in scope's tensor_values (through Scope::metas), or nullopt.
  std::optional<Field> metaOf(const Scope &scope, std::string_view name);
  RecordedTensor tensorMeta(const Field &meta);
  void readRangeConstraints(const Field &doc);
  /// A recorded symbolic size (`as_expr`): its expression over the archive's
  /// symbols, or unknown when the text is not one dtypeflow reads.
  Dim symbolicSize(const Field &expr);
  ir::TypePtr inputTensorType(const RecordedTensor &t);
  ir::TypePtr type(std::string_view text); ///< int, float, bool, str, Device, NoneType, Any, X[], X?
  ir::ValueId constant(ir::BlockId b, Value literal, ir::Attribute::LitKind kind, std::string text, ir::TypePtr t);
  ir::ValueId noneConstant(ir::BlockId b);
  ir::ValueId intConstant(ir::BlockId b, int64_t i);
  ir::ValueId boolConstant(ir::BlockId b, bool v);
  ir::ValueId floatConstant(ir::BlockId b, double d);
  ir::ValueId unknownConstant(ir::BlockId b, ir::TypePtr t); ///< a value of that type, nothing known
  /// The constant a schema default stands for (top, typed by the schema, when unreadable).
  ir::ValueId defaultConstant(ir::BlockId b, const SchemaArg &arg);
  void note(refine::Severity s, std::string category, std::string message, ir::NodeId n = ir::kNoId);

  // node_builder.cpp: op nodes
  void buildNodes(Scope &scope, const Field &nodes, ir::BlockId b);
  void buildNode(Scope &scope, const Field &node, ir::BlockId b);
  /// `torch.ops.NS.OP.OVERLOAD` with a schema in the table.
  void buildOp(Scope &scope, const Field &node, ir::BlockId b, const std::string &target);
  /// A Python-level operation on SymInts (`_operator.mul`, `torch.sym_max` ...).
  bool buildSymOp(Scope &scope, const Field &node, ir::BlockId b, const std::string &target);
  /// A node the reader cannot map: its results are unknown (why: a diagnostic).
  void buildUnmapped(Scope &scope, const Field &node, ir::BlockId b, const std::string &target, std::string why,
                     std::string category = "unsupported-op");
  /// The IR value of an argument; `expected` (the schema's type, or null) decides
  /// how numbers and empty lists are read.
  ir::ValueId argument(Scope &scope, const Field &arg, const SchemaType *expected, ir::BlockId b);
  /// Every value a node's inputs name (for unmapped nodes), in order.
  std::vector<ir::ValueId> namedValues(Scope &scope, const Field &inputs, ir::BlockId b);
  /// Define the node's outputs from the serialized `outputs` (a Tensor[] output gets a ListUnpack).
  void defineOutputs(Scope &scope, const Field &outputs, ir::NodeId n, ir::BlockId b);
  ir::TypePtr outputType(const Field &arg);

  // control_flow.cpp: higher-order ops
  bool buildHigherOrder(Scope &scope, const Field &node, ir::BlockId b, const std::string &target);
  void buildCond(Scope &scope, const Field &node, ir::BlockId b);
  void buildWhileLoop(Scope &scope, const Field &node, ir::BlockId b);
  void buildMap(Scope &scope, const Field &node, ir::BlockId b);
  void buildAutocastRegion(Scope &scope, const Field &node, ir::BlockId b);
  /// Emit sub-graph `graphArg` (an as_graph argument) into block `b`, its inputs
  /// bound to `inputs`; its outputs' values.
  std::vector<ir::ValueId> inlineGraph(Scope &outer, const Field &graphArg, const std::vector<ir::ValueId> &inputs,
                                       ir::BlockId b);
  /// A higher-order op's results (control_flow.cpp): 2.6 lists a single one (`[{"as_tensors": [...]}]`).
  static bool resultsListed(const Field &outputs);
  static size_t hopResultCount(const Field &outputs);
  /// Result k's name field (a tensor's, either form; another kind refused).
  static Field hopResultName(const Field &outputs, size_t k);
  void defineHopOutputs(Scope &scope, const Field &outputs, ir::NodeId n, ir::BlockId b);
  /// A bool for a predicate: a tensor goes through aten::Bool.
  ir::ValueId predicate(ir::ValueId v, ir::BlockId b);
  /// The values of a HOP's list argument (as_tensors, or a list of any arguments).
  std::vector<ir::ValueId> listValues(Scope &scope, const Field &arg, ir::BlockId b);

  const SchemaTable &schemas_;
  const DTypeSystem &dtypes_;
  Program prog_;
  ir::Graph *g_ = nullptr;
  std::unordered_set<std::string> usedNames_;
  std::unordered_map<std::string, ir::TypePtr> types_;
  /// The archive's range_constraints: each size symbol's range (s0: [2, inf]).
  std::unordered_map<std::string, SymRange, NameHash, std::equal_to<>> symRanges_;
  /// Each size expression's text read once (`s0` sizes every activation of a dynamic batch).
  std::unordered_map<std::string, Dim, NameHash, std::equal_to<>> sizeExprs_;
  /// Graph inputs' types by their text (`Float(64, 3, 7, 7)`), for those of known sizes: a batch
  /// norm's four parameters and buffers share one.
  std::unordered_map<std::string, ir::TypePtr, NameHash, std::equal_to<>> inputTypes_;
  uint32_t nextTemp_ = 0;
};

} // namespace dtf::pt2
