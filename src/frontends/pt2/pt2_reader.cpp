//===- frontends/pt2/pt2_reader.cpp - the archive around the program ------===//
#include "frontends/pt2/pt2_reader.h"
#include "frontends/pt2/builder.h"
#include "frontends/pt2/zip_archive.h"
#include "ops/semantics.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <sys/stat.h>

#include <map>
#include <stdexcept>

namespace dtf::pt2 {
namespace {

/// `ROOT/models/NAME.json` -> NAME (nullopt for any other member).
std::optional<std::string> modelName(const std::string &member) {
  size_t at = member.find("/models/");
  if (at == std::string::npos || !member.ends_with(".json")) return std::nullopt;
  std::string rest = member.substr(at + 8, member.size() - at - 8 - 5);
  if (rest.empty() || rest.find('/') != std::string::npos) return std::nullopt;
  return rest;
}

/// The archive sniffFile opened last on this thread, kept for the read that
/// usually follows (`check x.pt2` sniffs, then reads): opening parses every
/// central-directory entry, one per weight (densenet121: ~1,100, 10 M
/// instructions). Taken only while the file is the same: path, device, inode,
/// size and modification time.
struct SniffedArchive {
  std::string path;
  struct stat id {};
  std::unique_ptr<ZipArchive> zip;
};
thread_local SniffedArchive sniffed;

bool sameFile(const struct stat &a, const struct stat &b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino && a.st_size == b.st_size &&
         a.st_mtim.tv_sec == b.st_mtim.tv_sec && a.st_mtim.tv_nsec == b.st_mtim.tv_nsec;
}

/// `path` opened: the sniffed archive when it is that file still, else anew.
std::unique_ptr<ZipArchive> openArchive(const std::string &path, std::string &error) {
  struct stat now {};
  if (sniffed.zip && sniffed.path == path && ::stat(path.c_str(), &now) == 0 && sameFile(now, sniffed.id)) {
    sniffed.path.clear();
    return std::move(sniffed.zip);
  }
  sniffed.zip.reset();
  return ZipArchive::open(path, error);
}

/// Build the program from a parsed document (`where` names it in errors).
ReadResult buildFrom(Document &doc, const std::string &where, const ReadOptions &opts) {
  ReadResult r;
  try {
    const Semantics &semantics = *opts.semantics;
    Builder b(semantics.schemas(), semantics.types());
    r.program = b.build(doc.root());
    r.program->member = where;
  } catch (const FormatError &e) {
    r.error = e.field.empty() ? fmt::format("{}: {}", where, e.what())
                              : fmt::format("{}: {}: {}", where, e.field, e.what());
  }
  return r;
}

/// The older layout (torch 2.6's torch.export.save): the program is one member
/// at the archive's root, beside `version` (the schema version) and the
/// pickled weights, constants and example inputs; no archive_format, no
/// named models.
constexpr std::string_view kLegacyProgram = "serialized_exported_program.json";

/// Parse the program member `member` of `zip` and build it.
ReadResult readProgramMember(ZipArchive &zip, const std::string &member, const ReadOptions &opts) {
  ReadResult r;
  std::string error;
  std::string copy; // holds the member when it cannot be a view of the mapped archive
  auto text = zip.view(member, error, copy, uint64_t{1} << 31, simdjson::SIMDJSON_PADDING);
  if (!text) {
    r.error = error;
    return r;
  }
  Document doc;
  if (!doc.parse(*text, error, /*padded=*/true)) {
    r.error = fmt::format("{}: invalid JSON: {}", member, error);
    return r;
  }
  return buildFrom(doc, member, opts);
}

/// An archive in the older layout: its one program (a model name other than
/// "model" names nothing there).
ReadResult readLegacyArchive(ZipArchive &zip, const ReadOptions &opts) {
  if (!opts.model.empty() && opts.model != "model")
    return ReadResult{std::nullopt, fmt::format("no model named '{}': this archive (the older layout, torch 2.6's: one "
                                                "program in {}) names no models",
                                                opts.model, kLegacyProgram)};
  return readProgramMember(zip, std::string(kLegacyProgram), opts);
}

/// A caller's mistake, not the archive's: refused before reading anything.
void requireSemantics(const ReadOptions &opts) {
  if (!opts.semantics)
    throw std::invalid_argument("pt2::ReadOptions::semantics is not set: hand in the semantics to read with "
                                "(Semantics::shared(TorchVersion::V2_14), or one with user rules)");
}

} // namespace

ReadResult readExportedProgram(std::string_view json, const std::string &where, const ReadOptions &opts) {
  requireSemantics(opts);
  Document doc;
  std::string error;
  if (!doc.parse(json, error)) return ReadResult{std::nullopt, fmt::format("{}: invalid JSON: {}", where, error)};
  return buildFrom(doc, where, opts);
}

ReadResult readArchive(const std::string &path, const ReadOptions &opts) {
  requireSemantics(opts);
  ReadResult r;
  std::string error;
  auto zip = openArchive(path, error);
  if (!zip) {
    r.error = error;
    return r;
  }
  std::optional<std::string> format;
  std::map<std::string, std::string> models; // NAME -> member
  bool legacy = false;
  for (const std::string &m : zip->names()) {
    if (m.ends_with("/archive_format") && m.find('/') == m.rfind('/')) format = m;
    if (auto name = modelName(m)) models.emplace(*name, m);
    legacy = legacy || m == kLegacyProgram;
  }
  if (!format && legacy) return readLegacyArchive(*zip, opts);
  if (!format) {
    r.error = fmt::format("not a torch.export archive: no NAME/archive_format member (the newer layout, torch "
                          "2.14's) and no {} (the older one, torch 2.6's)",
                          kLegacyProgram);
    return r;
  }
  auto formatText = zip->read(*format, error, 4096);
  if (!formatText) {
    r.error = error;
    return r;
  }
  if (*formatText != "pt2") {
    r.error = fmt::format("{}: archive format '{}', expected 'pt2'", *format, formatText->substr(0, 40));
    return r;
  }
  if (models.empty()) {
    r.error = "no NAME/models/*.json member: the archive holds no exported program";
    return r;
  }
  std::string want = opts.model.empty() ? (models.count("model") || models.size() != 1 ? "model" : models.begin()->first)
                                        : opts.model;
  auto it = models.find(want);
  if (it == models.end()) {
    std::vector<std::string> names;
    for (const auto &[n, m] : models) names.push_back(n);
    r.error = fmt::format("no model named '{}' (the archive has: {})", want, fmt::join(names, ", "));
    return r;
  }
  return readProgramMember(*zip, it->second, opts);
}

FileKind sniffFile(const std::string &path, std::string *error) {
  if (!hasZipMagic(path)) return FileKind::NotZip;
  std::string why;
  auto zip = ZipArchive::open(path, why);
  if (!zip) {
    if (error) *error = why;
    return FileKind::BadZip;
  }
  for (const std::string &m : zip->names())
    if (m.ends_with("/archive_format") || modelName(m) || m == kLegacyProgram) {
      struct stat id {};
      if (::stat(path.c_str(), &id) == 0) sniffed = SniffedArchive{path, id, std::move(zip)}; // for readArchive
      return FileKind::Pt2;
    }
  for (const std::string &m : zip->names())
    if (m.ends_with("/data.pkl") || m.find("/code/") != std::string::npos) return FileKind::TorchScript;
  return FileKind::OtherZip;
}

} // namespace dtf::pt2
