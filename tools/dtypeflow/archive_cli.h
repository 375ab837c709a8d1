//===- tools/dtypeflow/archive_cli.h - .pt2 parts of annotate/check -*- C++ -*-===//
#pragma once

#include "frontends/pt2/pt2_reader.h"
#include "refine/check.h"

#include <map>
#include <string>

namespace dtf::cli {

/// Group re-typing of a .pt2 program's inputs, as Module.to(dtype) and
/// casting the inputs would: empty strings leave them as recorded.
struct ArchiveRetype {
  std::string params;      ///< --params: floating/complex parameters and buffers
  std::string floatInputs; ///< --float-inputs: floating/complex user inputs
};

/// Options::inputTypes for a .pt2 program: an `--input` without a rank
/// keeps the recorded rank (and sizes of 1); --params and --float-inputs
/// add an entry per matching input not named by an --input. Throws
/// UsageError on a dtype that is not floating or complex.
void retypeArchiveInputs(const pt2::Program &p, const ir::Graph &g, const ArchiveRetype &retype,
                         refine::Options &opts);

/// `check` of a .pt2: every recorded tensor past the inputs against the
/// inference; adds a line to `lines` for each wrong and unknown value. Values
/// of a dtype dtypeflow does not model are counted in `unmodelled` (by torch's name).
refine::CheckCounts checkArchive(const std::string &file, const ir::Graph &g, const pt2::Program &p,
                                 const refine::Result &r, std::map<std::string, size_t> &unmodelled,
                                 std::string &lines);

/// The reader's own diagnostics (unknown targets ...), one line per message with its count.
void printArchiveDiagnostics(const std::string &file, const pt2::Program &p);

} // namespace dtf::cli
