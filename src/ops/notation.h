//===- ops/notation.h - the operand notation of the CLI ---------*- C++ -*-===//
//
// One notation for abstract values, shared by `result-type`, `infer-op`,
// schema defaults and the harness's samples:
//   tensors  `float32:r2`, `int64` (rank unknown), `?:r0`, `?` (all unknown)
//   numbers  `bool` `int` `float` `complex` `number` (kind only), or literals
//            `True` `3` `-1` `2.5` `1e-05` `1j`
//   dtypes   a dtype name where the schema expects a ScalarType
//   others   `None`, `[0,1]`, `[float16:r1,int64:r1]`, `'floor'`, `cpu`
// How a word reads depends on the type expected at that position.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dtype/dtype_system.h"
#include "dtype/lattice.h"
#include "schema/schema.h"

#include <optional>
#include <string>
#include <string_view>

namespace dtf {

struct NotationResult {
  std::optional<Value> value;
  std::string error; ///< when !value: what was wrong, naming the text
  /// When !value: the text is a well-formed Python value that PyTorch refuses
  /// when it binds the argument (an int beyond int64: Python ints are
  /// unbounded, c10's are not), and `error` is PyTorch's message. Not bad
  /// input: the call raises (the CLI's exit 1).
  bool pytorchRaises = false;
};

/// Parse `text`, reading it as `expected` (nullptr: tensor or number).
/// Numbers read as Python reads them: `1e309` is inf, and an integer literal
/// beyond int64 is refused as PyTorch refuses it (pytorchRaises), except
/// where a float is expected (Python converts it; beyond 1.8e308 it raises).
/// Dtype names are those of `types`' PyTorch version (null: any version's).
NotationResult parseNotation(std::string_view text, const SchemaType *expected, const DTypeSystem *types = nullptr);

} // namespace dtf
