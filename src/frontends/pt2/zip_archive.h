//===- frontends/pt2/zip_archive.h - read members of a zip file -*- C++ -*-===//
//
// A read-only zip archive through libzip (a .pt2 is a zip, as a TorchScript
// .pt is): member names and whole members. libzip is loaded when the first
// archive is opened (a process that reads none does not pay its load), and a
// machine without it gets an error value naming the library. Failures are values carrying
// libzip's reason (truncated file, bad CRC ...), never exceptions.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dtf::pt2 {

class ZipArchive {
public:
  /// Open `path`; on failure, null and `error` says why.
  static std::unique_ptr<ZipArchive> open(const std::string &path, std::string &error);
  ~ZipArchive();
  ZipArchive(const ZipArchive &) = delete;
  ZipArchive &operator=(const ZipArchive &) = delete;

  /// Every member's name, in archive order.
  const std::vector<std::string> &names() const { return names_; }
  bool contains(const std::string &name) const;
  /// A whole member (up to `maxBytes`) followed by `padding` zero bytes (a
  /// parser that reads past the end, as simdjson does, needs no second copy);
  /// nullopt and `error` on failure. libzip (1.7) offers no view of a stored
  /// member's bytes in the file, so this is the one copy.
  std::optional<std::string> read(const std::string &name, std::string &error,
                                  uint64_t maxBytes = uint64_t{1} << 31, size_t padding = 0) const;

private:
  explicit ZipArchive(void *zip) : zip_(zip) {}
  void *zip_; ///< zip_t
  std::vector<std::string> names_;
};

/// Does the file start with a zip signature (`PK\3\4`, or `PK\5\6` for an empty archive)?
bool hasZipMagic(const std::string &path);

} // namespace dtf::pt2
