//===- tools/dtypeflow/archive_cli.h - .pt2 parts of annotate/check -*- C++ -*-===//
#pragma once

#include "frontends/pt2/pt2_reader.h"

#include <string>

namespace dtf::cli {

/// The reader's own diagnostics (unknown targets ...), one line per message with its count.
void printArchiveDiagnostics(const std::string &shown, const pt2::Program &p);

} // namespace dtf::cli
