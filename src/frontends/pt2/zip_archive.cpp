#include "frontends/pt2/zip_archive.h"

#include <dlfcn.h>
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

} // namespace

std::unique_ptr<ZipArchive> ZipArchive::open(const std::string &path, std::string &error) {
  const LibZip &L = libzip();
  if (!L.error.empty()) {
    error = L.error;
    return nullptr;
  }
  int code = 0;
  // No ZIP_CHECKCONS: from libzip 1.10 on it also compares each local header's extra field with
  // the central directory's, and PyTorch's writer pads local headers (data alignment), so every
  // archive torch.export.save writes would be refused. A truncated file has no end of central
  // directory and is refused here; a member's size and CRC are checked when it is read (read()).
  zip_t *z = L.zip_open(path.c_str(), ZIP_RDONLY, &code);
  if (!z) {
    error = fmt::format("not a readable zip archive: {}", openErrorText(code));
    return nullptr;
  }
  std::unique_ptr<ZipArchive> a(new ZipArchive(z));
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

ZipArchive::~ZipArchive() { libzip().zip_discard(handle(zip_)); }

bool ZipArchive::contains(const std::string &name) const {
  return std::find(names_.begin(), names_.end(), name) != names_.end();
}

std::optional<std::string> ZipArchive::read(const std::string &name, std::string &error, uint64_t maxBytes,
                                            size_t padding) const {
  const LibZip &L = libzip(); // loaded: this archive was opened
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
