//===- frontends/pt2/pt2_reader.h - read torch.export archives --*- C++ -*-===//
//
// A `.pt2` file (what torch.export.save writes) is a zip: NAME/archive_format
// ("pt2"), NAME/models/MODEL.json (the serialized ExportedProgram, schema
// 8.x in torch 2.14), NAME/data/weights/..., NAME/data/constants/... ; torch
// 2.6 wrote the older layout: serialized_exported_program.json (schema 8.2)
// at the root, beside `version` and pickles, and no archive_format. The
// program becomes an ir::Graph the refinement runs on, without libtorch:
//
//  - graph inputs (parameters, buffers, tensor constants, user inputs,
//    tokens, custom objects) are the graph's params, typed from the recorded
//    TensorMeta (dtype, rank, which sizes are 1; a symbolic size is unknown);
//  - a node `torch.ops.aten.add.Tensor` is an `aten::add` node pinned to its
//    overload (Graph::internPinnedKind), arguments placed by the schema
//    table's argument names; numbers, lists, dtypes ... become constants;
//  - torch.cond is a prim::If, while_loop and map are prim::Loops, their
//    sub-graphs inlined into the blocks;
//  - the TensorMeta recorded for every other value is kept in `recorded`,
//    never in the graph: inference sees the inputs' types only.
//
// Anything that does not match the schema is an error naming the archive
// member and the JSON field; a target the schema table lacks is a
// diagnostic, and its results are unknown.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "graph/graph.h"
#include "refine/refine.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dtf {
class SchemaTable;
class Semantics; // ops/semantics.h
}

namespace dtf::pt2 {

/// What a graph input is, by the export's input spec.
enum class InputKind : uint8_t { UserInput, Parameter, Buffer, TensorConstant, CustomObj, Token, Constant };
std::string_view name(InputKind k);

/// A tensor as the export recorded it (TensorMeta).
struct RecordedTensor {
  std::optional<DType> dtype; ///< nullopt: a dtype dtypeflow does not model, or serde UNKNOWN
  std::string dtypeName;      ///< torch's name: "float32", "float8_e4m3fn", "unknown"
  std::vector<std::optional<int64_t>> sizes; ///< nullopt: a symbolic size
  Dims dims;                                 ///< each size, symbolic ones as expressions (`2*s0`)
  std::string device;         ///< the device type recorded ("cpu", "cuda"), empty when none is
  int rank() const { return static_cast<int>(sizes.size()); }
  /// `Float(2, *)`, or `float8_e4m3fn(2, *)` for a dtype outside the model.
  std::string str() const;
};

struct GraphInput {
  ir::ValueId value = ir::kNoId;
  InputKind kind = InputKind::UserInput;
  std::string target; ///< the parameter's, buffer's or constant's name (`lin.weight`); empty for user inputs
};

struct Program {
  std::unique_ptr<ir::Graph> graph;
  /// Every input of the exported graph, in order (Constant inputs are
  /// prim::Constant nodes of the body, every other kind a graph param).
  std::vector<GraphInput> inputs;
  /// By value id: the tensor the export recorded for that value (graph
  /// inputs included), or nullopt (not a tensor, or a value the reader made).
  std::vector<std::optional<RecordedTensor>> recorded;
  /// What the reader could not map (unknown targets, arguments the schema
  /// table lacks, higher-order ops it does not model): those results are unknown.
  std::vector<refine::Diagnostic> diagnostics;
  std::string member;        ///< the model's archive member (`model/models/model.json`)
  int64_t schemaMajor = 0, schemaMinor = 0;
  std::string torchVersion;  ///< as recorded (`2.14.1+debian`)
};

struct ReadOptions {
  /// Which models/NAME.json of the archive: empty for `model`, or the only one.
  std::string model;
  /// The semantics whose schema table places arguments and names targets (an
  /// archive written by 2.14 is read with Semantics::shared(TorchVersion::V2_14));
  /// one with user rules (Semantics::extend) maps targets of custom ops to
  /// their rule files' schemas. Required: readArchive and readExportedProgram
  /// throw std::invalid_argument without it (they never pick a version).
  std::shared_ptr<const Semantics> semantics;
};

/// Errors are values: `error` names the archive member and JSON field at fault.
struct ReadResult {
  std::optional<Program> program;
  std::string error;
};

/// Read a .pt2 archive.
ReadResult readArchive(const std::string &path, const ReadOptions &opts);

/// Read the ExportedProgram JSON alone (`where` names it in errors).
ReadResult readExportedProgram(std::string_view json, const std::string &where, const ReadOptions &opts);

/// What a file is, by its content (not its name).
enum class FileKind : uint8_t {
  NotZip,      ///< no zip signature: text (TorchScript IR)
  Pt2,         ///< a zip with NAME/archive_format, NAME/models/*.json or serialized_exported_program.json
  TorchScript, ///< a zip with NAME/data.pkl or NAME/code/ (torch.jit.save)
  OtherZip,    ///< a zip that is neither
  BadZip,      ///< a zip signature, but libzip cannot read it (truncated ...): `error` says why
};
FileKind sniffFile(const std::string &path, std::string *error = nullptr);

} // namespace dtf::pt2
