#include "frontends/pt2/zip_archive.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <libdeflate.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <fmt/format.h>
#include <zip.h>

#include <algorithm>
#include <fstream>

#ifndef DTF_LIBZIP_SONAME
#error "DTF_LIBZIP_SONAME (libzip's soname, found by CMakeLists.txt) is not defined"
#endif

namespace dtf::pt2 {
namespace {

/// libzip, loaded when the first archive is opened. Linked, it costs every
/// process its load: libzip brings libcrypto, which is bound at load time
/// (BIND_NOW), ~140 page faults and ~1.3 ms of a `dtypeflow result-type`
/// that reads no archive (docs/performance.md). The pointers keep <zip.h>'s
/// types, so a call with wrong arguments still does not compile.
struct LibZip {
#define DTF_LIBZIP_FUNCTIONS(X)                                                                        \
  X(zip_open) X(zip_get_num_entries) X(zip_get_name) X(zip_strerror) X(zip_discard) X(zip_stat_init)  \
  X(zip_stat) X(zip_fopen) X(zip_fread) X(zip_fclose) X(zip_file_strerror) X(zip_error_init_with_code) \
  X(zip_error_strerror) X(zip_error_fini)
#define DTF_LIBZIP_POINTER(f) decltype(&::f) f = nullptr;
  DTF_LIBZIP_FUNCTIONS(DTF_LIBZIP_POINTER)
  std::string error; ///< why it could not be loaded; empty once loaded

  LibZip() {
    void *lib = dlopen(DTF_LIBZIP_SONAME, RTLD_NOW | RTLD_LOCAL); // never closed: pointers outlive calls
    if (!lib) {
      error = fmt::format("cannot load libzip ({}), which reads zip archives: {} (install Debian's libzip "
                          "runtime package)", DTF_LIBZIP_SONAME, dlerror());
      return;
    }
#define DTF_LIBZIP_RESOLVE(f)                                                                          \
  if (!(f = reinterpret_cast<decltype(&::f)>(dlsym(lib, #f)))) {                                    \
    error = fmt::format("{} lacks {}: not the libzip dtypeflow was built with", DTF_LIBZIP_SONAME, #f); \
    return;                                                                                            \
  }
    DTF_LIBZIP_FUNCTIONS(DTF_LIBZIP_RESOLVE)
  }
};

/// The one LibZip of the process (its loading thread-safe, as any static local).
const LibZip &libzip() {
  static const LibZip lib;
  return lib;
}

zip_t *handle(void *z) { return static_cast<zip_t *>(z); }

std::string openErrorText(int code) {
  const LibZip &L = libzip();
  zip_error_t e;
  L.zip_error_init_with_code(&e, code);
  std::string s = L.zip_error_strerror(&e);
  L.zip_error_fini(&e);
  return s;
}

/// Little-endian fields of zip records (APPNOTE.TXT 4.3: every number is little-endian).
uint16_t le16(const unsigned char *p) { return static_cast<uint16_t>(p[0] | p[1] << 8); }
uint32_t le32(const unsigned char *p) { return le16(p) | static_cast<uint32_t>(le16(p + 2)) << 16; }
uint64_t le64(const unsigned char *p) { return le32(p) | static_cast<uint64_t>(le32(p + 4)) << 32; }

// Record signatures and fixed sizes (APPNOTE.TXT 4.3.7, 4.3.12, 4.3.14-16).
constexpr uint32_t kLocalHeader = 0x04034b50, kCentralHeader = 0x02014b50, kEndOfDirectory = 0x06054b50,
                   kZip64End = 0x06064b50, kZip64Locator = 0x07064b50;
constexpr size_t kLocalSize = 30, kCentralSize = 46, kEndSize = 22, kZip64EndSize = 56, kLocatorSize = 20;

/// The end-of-central-directory record's offset: the last signature whose
/// comment ends exactly at the end of the file. nullopt: none.
std::optional<size_t> findEndOfDirectory(const unsigned char *p, size_t n) {
  if (n < kEndSize) return std::nullopt;
  for (size_t at = n - kEndSize;; --at) {
    if (le32(p + at) == kEndOfDirectory && at + kEndSize + le16(p + at + 20) == n) return at;
    if (at == 0 || n - at >= kEndSize + 0xFFFF) return std::nullopt;
  }
}

/// The central directory read from the mapped file `p[0, n)`: false when it is
/// not one this reader takes (zip64, several disks, a record out of bounds, a
/// name holding a NUL ...), and libzip reads the archive instead.
bool readDirectory(const unsigned char *p, size_t n, std::vector<std::string> &names,
                   std::vector<ZipArchive::Member> &members, uint64_t &directoryAt) {
  std::optional<size_t> end = findEndOfDirectory(p, n);
  if (!end) return false;
  const unsigned char *e = p + *end;
  uint32_t count = le16(e + 10), size = le32(e + 12), offset = le32(e + 16);
  if (le16(e + 4) != 0 || le16(e + 6) != 0 || le16(e + 8) != count || count == 0xFFFF || size == 0xFFFFFFFF ||
      offset == 0xFFFFFFFF || uint64_t{offset} + size > *end)
    return false;
  // PyTorch's writer adds zip64 records to every archive; taken when they say what the 32-bit
  // fields say (an archive past 4 GB saturates those, and libzip reads it).
  if (*end >= kLocatorSize && le32(e - kLocatorSize) == kZip64Locator) {
    uint64_t at64 = le64(e - kLocatorSize + 8);
    if (at64 + kZip64EndSize > *end - kLocatorSize) return false;
    const unsigned char *z = p + at64;
    if (le32(z) != kZip64End || le32(z + 16) != 0 || le32(z + 20) != 0 || le64(z + 24) != count ||
        le64(z + 32) != count || le64(z + 40) != size || le64(z + 48) != offset)
      return false;
  }
  uint64_t at = offset, stop = uint64_t{offset} + size;
  names.reserve(count);
  members.reserve(count);
  for (uint32_t k = 0; k < count; ++k) {
    if (at + kCentralSize > stop || le32(p + at) != kCentralHeader) return false;
    const unsigned char *c = p + at;
    ZipArchive::Member m{le16(c + 8), le16(c + 10), le32(c + 16), le32(c + 20), le32(c + 24), le32(c + 42)};
    uint64_t nameLength = le16(c + 28), next = at + kCentralSize + nameLength + le16(c + 30) + le16(c + 32);
    if (next > stop || m.compressedSize == 0xFFFFFFFF || m.size == 0xFFFFFFFF || m.localHeader == 0xFFFFFFFF ||
        le16(c + 34) != 0)
      return false;
    std::string_view name(reinterpret_cast<const char *>(c + kCentralSize), nameLength);
    if (name.find('\0') != std::string_view::npos) return false;
    names.emplace_back(name);
    members.push_back(m);
    at = next;
  }
  directoryAt = offset;
  return true;
}

/// Where member `m` (named `name`) of the mapped file `p[0, n)` starts, when
/// it is stored (not compressed, not encrypted) and its local header agrees
/// with the directory; nullopt otherwise (libzip reads it).
std::optional<uint64_t> storedData(const unsigned char *p, size_t n, uint64_t directoryAt,
                                   const ZipArchive::Member &m, std::string_view name) {
  if (m.method != 0 || (m.flags & 1) || m.compressedSize != m.size) return std::nullopt;
  uint64_t at = m.localHeader;
  if (at + kLocalSize > directoryAt || le32(p + at) != kLocalHeader) return std::nullopt;
  uint64_t nameLength = le16(p + at + 26), data = at + kLocalSize + nameLength + le16(p + at + 28);
  if (nameLength != name.size() || data + m.size > directoryAt || data + m.size > n ||
      std::string_view(reinterpret_cast<const char *>(p + at + kLocalSize), nameLength) != name)
    return std::nullopt;
  return data;
}

} // namespace

std::unique_ptr<ZipArchive> ZipArchive::open(const std::string &path, std::string &error) {
  std::unique_ptr<ZipArchive> a(new ZipArchive());
  a->path_ = path;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  struct stat st {};
  if (fd >= 0 && ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    void *m = ::mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
    if (m != MAP_FAILED) {
      a->map_ = static_cast<const unsigned char *>(m);
      a->mapSize_ = static_cast<size_t>(st.st_size);
      a->mapped_ = readDirectory(a->map_, a->mapSize_, a->names_, a->members_, a->directoryAt_);
    }
  }
  if (fd >= 0) ::close(fd);
  if (a->mapped_) return a;
  a->names_.clear();
  a->members_.clear();
  if (!a->openLibZip(error)) return nullptr;
  const LibZip &L = libzip();
  zip_t *z = handle(a->zip_);
  zip_int64_t n = L.zip_get_num_entries(z, 0);
  for (zip_int64_t i = 0; i < n; ++i) {
    const char *name = L.zip_get_name(z, static_cast<zip_uint64_t>(i), 0);
    if (!name) {
      error = fmt::format("cannot read the name of zip member {}: {}", i, L.zip_strerror(z));
      return nullptr;
    }
    a->names_.emplace_back(name);
  }
  return a;
}

bool ZipArchive::openLibZip(std::string &error) const {
  if (zip_) return true;
  const LibZip &L = libzip();
  if (!L.error.empty()) {
    error = L.error;
    return false;
  }
  int code = 0;
  // No ZIP_CHECKCONS: from libzip 1.10 on it also compares each local header's extra field with
  // the central directory's, and PyTorch's writer pads local headers (data alignment), so every
  // archive torch.export.save writes would be refused. A truncated file has no end of central
  // directory and is refused here; a member's size and CRC are checked when it is read.
  zip_ = L.zip_open(path_.c_str(), ZIP_RDONLY, &code);
  if (!zip_) error = fmt::format("not a readable zip archive: {}", openErrorText(code));
  return zip_ != nullptr;
}

ZipArchive::~ZipArchive() {
  if (zip_) libzip().zip_discard(handle(zip_));
  if (map_) ::munmap(const_cast<unsigned char *>(map_), mapSize_);
}

bool ZipArchive::contains(const std::string &name) const {
  return std::find(names_.begin(), names_.end(), name) != names_.end();
}

std::optional<std::string> ZipArchive::read(const std::string &name, std::string &error, uint64_t maxBytes,
                                            size_t padding) const {
  std::string copy;
  auto bytes = view(name, error, copy, maxBytes, padding);
  if (!bytes) return std::nullopt;
  if (!copy.empty()) return copy; // view() copied it with its padding
  std::string data(bytes->size() + padding, '\0');
  std::copy(bytes->begin(), bytes->end(), data.begin());
  return data;
}

std::optional<std::string_view> ZipArchive::view(const std::string &name, std::string &error, std::string &copy,
                                                 uint64_t maxBytes, size_t padding) const {
  copy.clear();
  auto it = mapped_ ? std::find(names_.begin(), names_.end(), name) : names_.end();
  std::optional<uint64_t> data;
  if (it != names_.end()) {
    const Member &m = members_[static_cast<size_t>(it - names_.begin())];
    data = storedData(map_, mapSize_, directoryAt_, m, name);
    if (data && m.size > maxBytes) {
      error = fmt::format("{}: member of {} bytes is larger than the {} bytes accepted", name, m.size, maxBytes);
      return std::nullopt;
    }
    // As libzip checks it when a member is read to its end. libdeflate's CRC-32
    // (the zip polynomial) runs at ~10 bytes a cycle: zlib's took as long as
    // parsing the JSON.
    if (data && libdeflate_crc32(0, map_ + *data, static_cast<size_t>(m.size)) != m.crc) {
      error = fmt::format("{}: cannot read the member: CRC error", name);
      return std::nullopt;
    }
    if (data && *data + m.size + padding <= mapSize_)
      return std::string_view(reinterpret_cast<const char *>(map_ + *data), static_cast<size_t>(m.size));
    if (data) { // the member ends too near the end of the file for the padding
      copy.assign(reinterpret_cast<const char *>(map_ + *data), static_cast<size_t>(m.size));
      copy.resize(copy.size() + padding, '\0');
      return std::string_view(copy).substr(0, static_cast<size_t>(m.size));
    }
  }
  auto read = readByLibZip(name, error, maxBytes, padding);
  if (!read) return std::nullopt;
  copy = std::move(*read);
  return std::string_view(copy).substr(0, copy.size() - padding);
}

std::optional<std::string> ZipArchive::readByLibZip(const std::string &name, std::string &error, uint64_t maxBytes,
                                                    size_t padding) const {
  if (!openLibZip(error)) return std::nullopt;
  const LibZip &L = libzip();
  zip_t *z = handle(zip_);
  zip_stat_t st;
  L.zip_stat_init(&st);
  if (L.zip_stat(z, name.c_str(), 0, &st) != 0 || !(st.valid & ZIP_STAT_SIZE)) {
    error = fmt::format("{}: cannot stat the member: {}", name, L.zip_strerror(z));
    return std::nullopt;
  }
  if (st.size > maxBytes) {
    error = fmt::format("{}: member of {} bytes is larger than the {} bytes accepted", name, st.size, maxBytes);
    return std::nullopt;
  }
  zip_file_t *f = L.zip_fopen(z, name.c_str(), 0);
  if (!f) {
    error = fmt::format("{}: cannot open the member: {}", name, L.zip_strerror(z));
    return std::nullopt;
  }
  std::string data(static_cast<size_t>(st.size) + padding, '\0');
  zip_int64_t got = st.size == 0 ? 0 : L.zip_fread(f, data.data(), st.size);
  // Reading to the end is what makes libzip check the CRC.
  char extra;
  zip_int64_t more = got >= 0 ? L.zip_fread(f, &extra, 1) : 0;
  if (got < 0 || more < 0 || static_cast<uint64_t>(got) != st.size || more != 0) {
    error = fmt::format("{}: cannot read the member: {}", name,
                        got < 0 || more < 0 ? L.zip_file_strerror(f) : "its size differs from the directory's");
    L.zip_fclose(f);
    return std::nullopt;
  }
  L.zip_fclose(f);
  return data;
}

bool hasZipMagic(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  char m[4] = {};
  if (!in.read(m, 4)) return false;
  return m[0] == 'P' && m[1] == 'K' && ((m[2] == 3 && m[3] == 4) || (m[2] == 5 && m[3] == 6));
}

} // namespace dtf::pt2
