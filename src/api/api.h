//===- api/api.h - what the CLI and the Python module share -----*- C++ -*-===//
//
// The steps between user text and the core: a --torch version (with --rules
// files), an operand, an op call in the operand notation, choosing a
// program's reader, typing a program's inputs, comparing an archive's
// recorded types (whole programs: api/program.h). The CLI (tools/dtypeflow)
// and the Python module (python/) are skins over them: bad input throws
// InputError, which the CLI prints (exit 2) and Python raises as ValueError.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "frontends/pt2/pt2_reader.h"
#include "ops/infer.h"
#include "ops/semantics.h"
#include "refine/check.h"
#include "refine/refine.h"

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace dtf::api {

/// Bad input from the user (an unknown version, operand, op, argument ...).
struct InputError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

/// The semantics a version text names ("2.14", "1.13"); InputError otherwise.
const Semantics &semanticsOf(std::string_view torch);

/// `--rules FILE...`: the version's semantics with the rule files' rules
/// layered on (null when `ruleFiles` is empty). InputError for a version not
/// modelled, or for rule files with problems: one `file:line: error: ...`
/// line per problem, then `--rules: N problems in the rule files`.
std::shared_ptr<const Semantics> semanticsWithRules(std::string_view torch, const std::vector<std::string> &ruleFiles);

/// PyTorch refuses an operand while reading it (an int beyond int64): not
/// bad input, the call raises (the CLI's exit 1).
struct OperandRaises {
  std::string message;
};

/// A `result-type` operand: a tensor or a Python number in the notation;
/// OperandRaises when PyTorch refuses it.
Value parseOperand(std::string_view text, const Semantics &sem);

/// `result-type`: every operand is read (InputError on bad input); an operand
/// PyTorch refuses makes the answer that error (no dtypes).
PossibleDTypes resultType(const Semantics &sem, const std::vector<std::string> &operands);

/// The schema of an overload key (`aten::add.Tensor`); InputError naming the
/// overloads of the same op, or the version that has it.
const Schema &lookupOp(const Semantics &sem, const std::string &key);

/// One argument of an op call: `name` empty for a positional one; `text` in
/// the operand notation, read as the schema's type at that position.
struct OpArg {
  std::string name;
  std::string text;
};

struct OpCall {
  const Schema *schema = nullptr;
  InferOutcome outcome;
};

/// `infer-op`: bind the arguments (defaults filled) and run the op's rule; an
/// argument value PyTorch refuses while binding it makes the outcome that error.
/// `autocast` (a `cpu:bfloat16` spec as --autocast takes, empty: none) runs the
/// call inside that autocast context (InputError for one the version lacks).
OpCall inferOp(const Semantics &sem, const std::string &key, const std::vector<OpArg> &args,
               const std::string &autocast = {});

/// An outcome's status as the CLI's JSON and Python name it (`ok`, `error`,
/// `no-rule`, `too-many-unknowns`).
std::string_view statusName(InferOutcome::Status s);

/// How a result of an op reads (`float32`, `unknown`, `[float16...]`, `3`).
std::string resultText(const Value &v);

/// Which frontend reads a program file (a new reader: a value here, its
/// test in chooseReader, its branch in readProgram, api/program.cpp).
enum class Reader : uint8_t { Text, Module, Archive, TorchMlir };

/// By content: a zip holding NAME/archive_format or NAME/models/*.json is a
/// torch.export archive, one holding data.pkl or code/ a TorchScript module,
/// Torch-dialect MLIR (`module`, `func.func` ...: torch_mlir::looksLikeMlir),
/// anything else text; the name decides only for what the content does not.
Reader chooseReader(const std::string &file);

/// The policy a `--tensor-constants` text names (empty: `runtime` for a
/// saved module, `traced` otherwise).
refine::TensorConstantPolicy tensorConstantPolicy(const std::string &text, bool savedModule);

/// Options::inputTypes from `NAME=TYPE` texts.
void addInputTypes(const Semantics &sem, const std::vector<std::string> &specs, refine::Options &opts);

/// Every input type must name a graph input: exactly, or by its Python name
/// when one input alone carries it (`x` for a saved module's `x.1`).
void resolveInputNames(const ir::Graph &g, refine::Options &opts);

/// Group re-typing of a .pt2 program's inputs, as Module.to(dtype) and
/// casting the inputs would: empty strings leave them as recorded.
struct ArchiveRetype {
  std::string params;      ///< floating/complex parameters and buffers
  std::string floatInputs; ///< floating/complex user inputs
};

/// Options::inputTypes for a .pt2 program: an input type without a rank
/// keeps the recorded rank (and sizes of 1); `retype` adds an entry per
/// matching input not named already. InputError on a dtype that is not
/// floating or complex.
void retypeArchiveInputs(const pt2::Program &p, const ir::Graph &g, const ArchiveRetype &retype,
                         refine::Options &opts);

/// One value `check` compares in a .pt2: the inference against the TensorMeta.
struct ArchiveVerdict {
  ir::ValueId value = ir::kNoId;
  refine::Verdict verdict = refine::Verdict::NotChecked; ///< NotChecked: a dtype dtypeflow does not model
  refine::SizeVerdict sizes = refine::SizeVerdict::NotChecked; ///< against the recorded sizes
};

/// Every recorded tensor past the inputs, in value order.
std::vector<ArchiveVerdict> compareArchive(const ir::Graph &g, const pt2::Program &p, const refine::Result &r);

/// The node that defines `v`, as `aten::add.Tensor` (or `block parameter`).
std::string definedBy(const ir::Graph &g, ir::ValueId v);

} // namespace dtf::api
