//===- frontends/pt2/zip_archive.h - read members of a zip file -*- C++ -*-===//
//
// A read-only zip archive (a .pt2 is a zip, as a TorchScript .pt is): member
// names and whole members. The archive is mapped, and the zips PyTorch writes
// (members stored, not compressed; no zip64 records below 4 GB) are read from
// the mapping: the central directory walked in place, a member's bytes a view
// of the file, its CRC-32 checked with libdeflate. Anything else (compressed
// members, zip64, encryption, a directory that does not parse) is read by
// libzip, the reader of record for every refusal, loaded when first needed (a
// process that reads none does not pay its load; a machine without it gets an
// error value naming the library). Failures are values, never exceptions.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
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
  /// A whole member (up to `maxBytes`) followed by `padding` zero bytes;
  /// nullopt and `error` on failure.
  std::optional<std::string> read(const std::string &name, std::string &error,
                                  uint64_t maxBytes = uint64_t{1} << 31, size_t padding = 0) const;
  /// A whole member (up to `maxBytes`) with `padding` readable bytes after it
  /// (a parser that reads past the end, as simdjson does): a view of the mapped
  /// archive when the member is stored, else of a copy left in `copy`. Valid
  /// while this archive and `copy` live. nullopt and `error` on failure.
  std::optional<std::string_view> view(const std::string &name, std::string &error, std::string &copy,
                                       uint64_t maxBytes = uint64_t{1} << 31, size_t padding = 0) const;
  /// The directory was read from the mapping, not by libzip (tests: the fast path was taken).
  bool mapped() const { return mapped_; }

  /// A member of a mapped archive, as its central-directory entry says.
  struct Member {
    uint16_t flags = 0, method = 0;
    uint32_t crc = 0;
    uint64_t compressedSize = 0, size = 0, localHeader = 0;
  };

private:
  ZipArchive() = default;
  bool openLibZip(std::string &error) const; ///< the fallback reader, opened when first needed
  std::optional<std::string> readByLibZip(const std::string &name, std::string &error, uint64_t maxBytes,
                                          size_t padding) const;

  std::string path_;
  const unsigned char *map_ = nullptr; ///< the whole file, read-only (null: not mapped)
  size_t mapSize_ = 0;
  uint64_t directoryAt_ = 0;    ///< the central directory's offset: members lie before it
  bool mapped_ = false;         ///< members_ (parallel to names_) were read from the mapping
  std::vector<Member> members_;
  mutable void *zip_ = nullptr; ///< zip_t, when libzip reads this archive
  std::vector<std::string> names_;
};

/// Does the file start with a zip signature (`PK\3\4`, or `PK\5\6` for an empty archive)?
bool hasZipMagic(const std::string &path);

} // namespace dtf::pt2
