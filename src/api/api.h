//===- api/api.h - what the CLI and the Python module share -----*- C++ -*-===//
//
// The steps between user text and the core: a --torch version, an operand,
// an op call in the operand notation, choosing a program's reader, typing a
// program's inputs, comparing an archive's recorded types. The CLI prints
// their results; the Python module (python/) returns them as objects. Bad
// input throws InputError with the message the CLI prints (exit 2).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "frontends/pt2/pt2_reader.h"
#include "ops/infer.h"
#include "ops/semantics.h"
#include "refine/check.h"
#include "refine/refine.h"

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

/// A `result-type` operand: a tensor or a Python number in the notation.
Value parseOperand(std::string_view text, const Semantics &sem);

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

/// `infer-op`: bind the arguments (defaults filled) and run the op's rule.
OpCall inferOp(const Semantics &sem, const std::string &key, const std::vector<OpArg> &args);

/// How a result of an op reads (`float32`, `unknown`, `[float16...]`, `3`).
std::string resultText(const Value &v);

/// Which frontend reads a program file.
enum class Reader : uint8_t { Text, Module, Archive };

/// By content: a zip holding NAME/archive_format or NAME/models/*.json is a
/// torch.export archive, one holding data.pkl or code/ a TorchScript module,
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
};

/// Every recorded tensor past the inputs, in value order.
std::vector<ArchiveVerdict> compareArchive(const ir::Graph &g, const pt2::Program &p, const refine::Result &r);

/// The node that defines `v`, as `aten::add.Tensor` (or `block parameter`).
std::string definedBy(const ir::Graph &g, ir::ValueId v);

} // namespace dtf::api
