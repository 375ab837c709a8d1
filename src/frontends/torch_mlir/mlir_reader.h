//===- frontends/torch_mlir/mlir_reader.h - read Torch-dialect MLIR -*- C++ -*-===//
//
// Torch-dialect MLIR (what torch-mlir's importers write and its tests are
// written in), pretty or generic form, into one ir::Graph per function:
//
//  - `func.func @f(%arg0: !torch.vtensor<[2,3],f32>) -> ...`: the graph's
//    params, typed from what is written; `return` its returns. Several
//    functions, `// -----` split files, nested `builtin.module`s are read;
//  - `torch.aten.add.Tensor` is an `aten::add` node pinned to `Tensor`
//    (torch-mlir's names: no suffix = the default overload, `add_` in-place),
//    `torch.prims.X` likewise; an op not in the schema table is a node of
//    unknown results, with a diagnostic;
//  - `torch.constant.*` and `torch.vtensor.literal` are prim::Constants,
//    `torch.prim.*` TorchScript's prim ops (If and Loop with their regions),
//    `torch.tensor_static_info_cast`, `torch.copy.*` and `torch.derefine` are
//    the value they read (same data, other static type);
//  - `torch.operator "ns.op"` is the op `ns::op` (known through --rules);
//    other dialects' ops have unknown results;
//  - blocks after a region's first (`^bb1(%x: T):`) are read in place, their
//    arguments outputs of a `cf::block_arguments` node; `cf.br`/`cf.cond_br`
//    (pretty or generic) record what each branch passes them (CfgBlock), and
//    func.call the callee and its results' node (Call): mlir_refine.h gives
//    both their values by a fixpoint around the pass.
//
// Every written result type and every written operand type is recorded with
// its place in the text, so that the module can be printed back exactly as
// read with refined types spliced in (mlir_printer.h).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "frontends/text/ir_lexer.h" // IRSyntaxError
#include "graph/graph.h"
#include "refine/refine.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace dtf {
class Semantics;
}

namespace dtf::torch_mlir {

inline constexpr size_t kNone = static_cast<size_t>(-1);

/// One SSA value definition of a function (a block argument, an op result).
struct SsaDef {
  std::string name;         ///< without '%'
  ir::ValueId value;        ///< the graph value holding its data (shared by casts with their operand)
  std::string writtenType;  ///< as written ("" when the op implies it: torch.constant.int)
  size_t typeBegin = kNone, typeEnd = kNone; ///< where the result type is written (kNone: not refinable)
  ir::SourceLoc loc;
  bool result = false;      ///< an op result (block arguments are never refined)
  /// torch.copy.*: the def whose type this one's is implied from (refined only when that one is).
  size_t impliedBy = static_cast<size_t>(-1);
  bool generic = false; ///< a result of an op written in generic form
  /// Which definition of `name` this is in its function: sibling regions may reuse a name
  /// (`%1` in both arms of a torch.prim.If), and the k-th (k >= 2) is keyed `1#k`.
  int occurrence = 1;
  /// How JSON, Python and `explain` name it: `name`, or `name#k` for a reused one.
  std::string key() const { return occurrence == 1 ? name : name + "#" + std::to_string(occurrence); }
};

/// How a use may follow its value's refined type.
enum class UseKind : uint8_t {
  Follows, ///< a torch op whose operand types are written and may change: they are rewritten
  Fixed,   ///< return, func.call, other dialects' ops ...: a cast to the written type is inserted
  Yield,   ///< torch.prim.If.yield: a cast to the type printed for the If's result
  Implied, ///< torch.copy.*: the operand's type is implied by the written result type, refined alike
};

struct Use {
  size_t def;                            ///< index into Function::defs
  size_t nameBegin, nameEnd;             ///< the `%x` token
  size_t typeBegin = kNone, typeEnd = kNone; ///< its written operand type, if any
  UseKind kind = UseKind::Fixed;
  size_t target = kNone;                 ///< Yield: the If result's def
  size_t opBegin;                        ///< where the using op starts (a cast goes before its line)
  bool generic = false;                  ///< the op is in generic form (the cast is written so too)
};

/// `func.call @callee(%a, %b)`: the arguments as values of the caller's graph.
struct Call {
  std::string callee;
  std::vector<ir::ValueId> args;
  ir::NodeId node = ir::kNoId; ///< the node whose outputs are the call's results (kNoId: it has none)
  ir::SourceLoc loc;
};

/// A block after a region's first (`^bb1(%x: T):`), entered by branches.
struct CfgBlock {
  std::string label;                     ///< `^bb1`
  std::vector<size_t> argDefs;           ///< its arguments (Function::defs)
  std::vector<std::vector<size_t>> preds; ///< each branch to it: the uses it passes, one per argument
  /// Also entered from an op whose passed values the reader does not pair with
  /// the arguments (cf.switch, another dialect's branch): its arguments are as written.
  bool opaque = false;
  ir::NodeId node = ir::kNoId; ///< the cf::block_arguments node defining the arguments (kNoId: none)
  ir::SourceLoc loc;
};

struct Function {
  std::string name; ///< the symbol, without '@'
  bool isPrivate = false; ///< `func.func private`: called only from this module
  std::vector<Call> calls;
  std::vector<CfgBlock> blocks; ///< blocks after a region's first, of every region
  /// The operands of every `return` of the body (one per block that returns).
  std::vector<std::vector<ir::ValueId>> returnSites;
  bool declaration = false; ///< `func.func private @f(T) -> T` without a body
  int split = 0;    ///< which `// -----` part of the file
  ir::SourceLoc loc;
  std::unique_ptr<ir::Graph> graph;
  std::vector<SsaDef> defs;
  std::vector<Use> uses;
  /// What the reader could not map (ops not in the schema table, calls ...): their results are unknown.
  std::vector<refine::Diagnostic> diagnostics;
  /// Each torch.symbolic_int's symbol and the SSA name (without '%') holding it: the symbols the
  /// printer may bind refined sizes with.
  std::map<std::string, std::string, std::less<>> symbolDefs;
  /// The values a torch.bind_symbolic_shape binds (their sizes are stated already).
  std::set<ir::ValueId> boundValues;
};

struct Module {
  std::string text; ///< the source, which printing splices into
  std::vector<Function> functions;
};

/// Read a Torch-dialect module; `semantics` (a version's, with --rules)
/// decides which ops are known. Throws ir::IRSyntaxError on malformed input.
Module readModule(std::string text, const Semantics &semantics);

/// Does `text` look like MLIR (its first word `module`, `func.func`,
/// `"builtin.module"`, `"func.func"` or a `#alias =` line), not TorchScript IR?
bool looksLikeMlir(std::string_view text);

} // namespace dtf::torch_mlir
