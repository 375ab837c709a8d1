//===- refine/refine.h - whole-program dtype/rank refinement ----*- C++ -*-===//
//
// A sparse forward dataflow analysis over ir::Graph: each value carries an
// abstract dtf::Value (flat vector by value id). Straight-line code is solved
// in one pass in program (topological) order; prim::If joins its branch
// results; prim::Loop iterates its body with joined loop-carried values until
// nothing changes (bounded; on the bound, carried values become unknown and a
// diagnostic says so). aten ops go through the rule library (ops/infer.h)
// after resolving their overload from the argument values.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dtype/torch_version.h"
#include "graph/graph.h"
#include "ops/autocast.h"

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dtf {
class Semantics; // ops/semantics.h
} // namespace dtf

namespace dtf::refine {

enum class Severity : uint8_t { Error, Warning, Note };
std::string_view name(Severity s);

/// Why a tensor value is not fully known (dtype and rank).
enum class UnknownReason : uint8_t {
  None,              ///< known
  NoRule,            ///< op overload without a dtype rule
  UnknownOp,         ///< op kind not in the schema table
  UnknownInput,      ///< the rule ran, but an input was unknown
  RuleUnknown,       ///< the rule ran on known inputs and answered unknown
  NoOverload,        ///< no overload matches the argument types
  AmbiguousOverload, ///< several overloads match equally well
  TooManyUnknowns,   ///< enumeration bound in ops/infer hit
  LoopBound,         ///< loop fixpoint iteration bound hit
  AfterError,        ///< produced by an op where PyTorch raises
  BranchJoin,        ///< control-flow merge of different dtypes/ranks
  Unsupported,       ///< construct the analysis does not model (calls, ...)
  Unreached,         ///< never reached (dead branch, after a raise)
  kCount
};
std::string_view describe(UnknownReason r);

struct Diagnostic {
  Severity severity = Severity::Warning;
  std::string category; ///< `dtype-error`, `possible-dtype-error`, `no-rule`, `type-conflict` ...
  std::string message;
  ir::NodeId node = ir::kNoId;
  ir::SourceLoc loc;
  ir::ValueId value = ir::kNoId;
};

/// How to read a 0-dim tensor constant (`prim::Constant[value={2.5}]` typed
/// Double/Long/Bool/ComplexDouble) used directly by add, sub, mul, div,
/// true_divide or floor_divide (the only ops PyTorch's Python binding passes
/// numbers to as tensors; for every other op such a constant is a tensor).
/// A constant several nodes share is always read both ways (a traced Python
/// scalar gets a constant of its own; a baked tensor one for all its uses).
enum class TensorConstantPolicy : uint8_t {
  /// As the tracer records it: a Python scalar (wrapped number), measured on
  /// torch 1.13 (`ids * 2.5` traces to mul(%ids, {2.5}) -> Float). Falls back
  /// to the 0-dim tensor reading when no overload takes a number there.
  Traced,
  /// Both readings must agree; otherwise the results join (unknown).
  Strict,
  /// As TorchScript runs a saved module (.pt): every 0-dim tensor constant is
  /// a tensor, except as `other` of add/sub/mul/div.Tensor, which the graph
  /// executor's CanonicalizeOps pass replaces by `other.item()`, a Python
  /// scalar, whatever the dtype (a frozen int16 constant: int8 - it -> int8).
  /// A bool constant there leaves no overload: the module raises (unknown).
  Runtime,
};

/// Memo of op evaluations (overload resolution + rule, keyed by op and
/// argument values; rules are pure, so an entry never goes stale). One per
/// refineGraph call by default; a compiler refining many graphs can pass one
/// in Options::memo to reuse it. Bounded (starts over past 16 384 entries).
/// Not thread-safe: share it only between calls on one thread.
class EvalMemo;
std::shared_ptr<EvalMemo> makeEvalMemo();

/// What the pass derives from a graph alone (node kinds and their overloads,
/// list aliasing, constant values, written input types). refineGraph builds
/// one per call; a caller refining one graph many times (different input
/// types, a compiler re-running the pass) can build it once and pass it in
/// Options::plan. Immutable, so it may be shared between threads. It belongs
/// to one graph: build it after the graph is final.
/// The plan keeps `semantics` (the Options::semantics it is used with) alive.
class GraphPlan;
/// `sizes`: for calls with Options::sizes of that value.
std::shared_ptr<const GraphPlan> makeGraphPlan(const ir::Graph &g, std::shared_ptr<const Semantics> semantics,
                                               bool sizes = true);

struct Options {
  /// The semantics the pass applies (ops/semantics.h): a PyTorch version's
  /// dtypes, promotion, schemas and rules (Semantics::shared(TorchVersion::V2_14)),
  /// or such with user rules layered on (Semantics::extend, ops/custom_rules.h)
  /// or run in a context (Semantics::inContext). Required: the pass never picks
  /// a version itself; without it refineGraph throws std::invalid_argument.
  std::shared_ptr<const Semantics> semantics;
  /// Use the dtype/rank written on non-input values as facts? Never: they are
  /// only compared (type-conflict diagnostics) when this is true.
  bool reportTypeConflicts = true;
  TensorConstantPolicy tensorConstants = TensorConstantPolicy::Traced;
  int maxLoopIterations = 32;
  /// Graph inputs typed by the user (`x` -> float32:r4), over what is written.
  std::vector<std::pair<std::string, Value>> inputTypes;
  /// Run the program inside this autocast context (`torch.autocast(device, dtype)`):
  /// each op on the version's autocast list casts its eligible tensor arguments by
  /// its policy before its rule runs (ops/autocast.h). A memo passed in `memo` is
  /// not used then (its evaluations hold no context).
  std::optional<AutocastContext> autocast;
  /// Evaluations to reuse (see EvalMemo); null: a fresh memo for this call.
  std::shared_ptr<EvalMemo> memo;
  /// The graph's plan (see GraphPlan); null: built for this call. A plan of
  /// another graph (or of this graph before it changed), or of other
  /// semantics (another version, other user rules), is refused
  /// (std::invalid_argument).
  std::shared_ptr<const GraphPlan> plan;
  /// How many forked sections (torch.jit.fork) enclose this call: each fork
  /// node refines its section as a nested call; past 8 its result is unknown.
  int forkDepth = 0;
  /// Values a frontend knows from outside the graph, by value id: each is set
  /// to its fact where its defining node is visited (the node's own transfer
  /// does not run when every output has one). Torch-dialect block arguments
  /// reached by branches and func.call results are computed so, by a fixpoint
  /// around this pass (frontends/torch_mlir/mlir_refine.cpp). Sorted or not.
  std::vector<std::pair<ir::ValueId, Value>> valueFacts;
  /// Tensor sizes (issue 35). False: the dtype/rank pass alone, as before
  /// sizes existed: every value taken from outside the graph (inputs, module
  /// attributes, inputTypes, valueFacts) loses its sizes and no shape rule
  /// runs; dtypes, ranks and size-1 facts come out as with sizes, except
  /// where only sizes decide (a size-dependent error, an int from aten::size).
  /// For measuring what sizes cost (bench/, docs/performance.md). A plan or
  /// memo passed in must be of the same mode (makeGraphPlan's `sizes`; a memo
  /// takes the mode of its first call), else std::invalid_argument.
  bool sizes = true;
  /// Size symbols the program names outside the graph (a .pt2's recorded
  /// sizes): a data-dependent size's fresh symbol (`u0`) never takes one.
  std::vector<std::string> reservedSymbols;
  /// False: data-dependent sizes stay unknown instead of becoming unbacked
  /// symbols, for a caller whose several passes' values meet (a Torch-dialect
  /// module's functions, a fork's section): each pass would name its own `u0`.
  bool unbackedSymbols = true;
};

struct Result {
  std::vector<Value> values;          ///< by value id
  std::vector<UnknownReason> reasons; ///< by value id (tensors only)
  std::vector<Diagnostic> diagnostics;
};

/// Refine every value of `g`. Graph inputs (and GetAttr results, constants)
/// are typed from what is written; everything else is inferred.
Result refineGraph(const ir::Graph &g, const Options &opts);

/// True for a tensor known in both dtype and rank.
bool fullyKnown(const Value &v);

/// The semantics `opts` applies (what the pass, explain and audit all answer
/// with); std::invalid_argument naming Options::semantics when it is unset.
const Semantics &semanticsOf(const Options &opts);

} // namespace dtf::refine
