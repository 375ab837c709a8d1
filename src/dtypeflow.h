//===- dtypeflow.h - the public API, in one include --------------*- C++ -*-===//
//
// For programs that embed dtypeflow (docs/api.md): installed as
// <dtypeflow/dtypeflow.h>, with find_package(dtypeflow) (dtypeflow::core) or
// pkg-config (dtypeflow). Parse a TorchScript program (or a .pt2 archive), refine it under one
// PyTorch version's semantics (with user rules for custom ops, if any), and
// read the dtype and rank of every value.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dtype/dtype.h"          // DType, names, categories
#include "dtype/lattice.h"        // Value, DTypeSet, Rank: what the analysis knows of a value
#include "dtype/dtype_system.h"   // one version's dtypes and promotion
#include "frontends/pt2/pt2_reader.h"  // pt2::readArchive: torch.export archives -> ir::Graph
#include "frontends/text/ir_parser.h"  // ir::parseIR: TorchScript IR text -> ir::Graph
#include "frontends/text/ir_printer.h" // ir::printIR, ir::reportJson
#include "ops/custom_rules.h"     // RuleSet, Semantics::extend: rules for custom ops
#include "ops/infer.h"            // infer: one op call
#include "ops/notation.h"         // parseNotation: "float32:r4" -> Value
#include "ops/semantics.h"        // Semantics::shared(TorchVersion): the handle the analyses take
#include "ops/vocabulary.h"       // rule builders for rules written in code
#include "refine/refine.h"        // refine::refineGraph
