//===- tools/dtypeflow/archive_cli.h - .pt2 parts of annotate/check -*- C++ -*-===//
#pragma once

#include "api/api.h"
#include "frontends/pt2/pt2_reader.h"
#include "refine/check.h"

#include <map>
#include <string>

namespace dtf::cli {

using api::ArchiveRetype;

/// `check` of a .pt2 (api::compareArchive): prints each wrong and unknown
/// value. Values of a dtype dtypeflow does not model are counted in
/// `unmodelled` (by torch's name).
refine::CheckCounts checkArchive(const std::string &file, const ir::Graph &g, const pt2::Program &p,
                                 const refine::Result &r, std::map<std::string, size_t> &unmodelled);

/// The reader's own diagnostics (unknown targets ...), one line per message with its count.
void printArchiveDiagnostics(const std::string &file, const pt2::Program &p);

} // namespace dtf::cli
