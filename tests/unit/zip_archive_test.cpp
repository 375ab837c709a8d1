// The zip reader: archives PyTorch writes are read from the mapped file (the
// central directory in place, a stored member a view, its CRC-32 checked);
// anything else by libzip. Both must give the same bytes, and damage must be
// refused, never read.
#include "frontends/pt2/zip_archive.h"

#include <gtest/gtest.h>
#include <zip.h>

#include <filesystem>
#include <fstream>

namespace dtf::pt2 {
namespace {

namespace fs = std::filesystem;

std::string slurp(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

std::string temp(const std::string &name, const std::string &bytes) {
  std::string path = (fs::temp_directory_path() / ("dtf_zip_test_" + name)).string();
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

/// Member `name` of `path` as libzip reads it.
std::string byLibZip(const std::string &path, const std::string &name) {
  int err = 0;
  zip_t *z = zip_open(path.c_str(), ZIP_RDONLY, &err);
  EXPECT_NE(z, nullptr) << path;
  if (!z) return {};
  zip_stat_t st;
  EXPECT_EQ(zip_stat(z, name.c_str(), 0, &st), 0) << name;
  std::string data(st.size, '\0');
  zip_file_t *f = zip_fopen(z, name.c_str(), 0);
  EXPECT_EQ(zip_fread(f, data.data(), st.size), static_cast<zip_int64_t>(st.size));
  zip_fclose(f);
  zip_discard(z);
  return data;
}

std::vector<std::string> committedArchives() {
  std::vector<std::string> out;
  for (const char *dir : {"tests/pt2/archives", "tests/pt2/archives-2.6"})
    for (const auto &e : fs::directory_iterator(fs::path(DTF_SOURCE_DIR) / dir))
      if (e.path().extension() == ".pt2") out.push_back(e.path().string());
  return out;
}

TEST(ZipArchive, ArchivesTorchWritesAreReadFromTheMappingAsLibZipReadsThem) {
  auto archives = committedArchives();
  ASSERT_GE(archives.size(), 20u);
  for (const std::string &a : archives) {
    std::string error;
    auto zip = ZipArchive::open(a, error);
    ASSERT_TRUE(zip) << a << ": " << error;
    EXPECT_TRUE(zip->mapped()) << a; // torch's zip64 records agree with the 32-bit ones
    ASSERT_FALSE(zip->names().empty()) << a;
    for (const std::string &m : zip->names()) {
      std::string copy;
      auto bytes = zip->view(m, error, copy, uint64_t{1} << 31, 64);
      ASSERT_TRUE(bytes) << a << ": " << m << ": " << error;
      EXPECT_TRUE(copy.empty()) << a << ": " << m << " was copied, not viewed";
      EXPECT_EQ(*bytes, byLibZip(a, m)) << a << ": " << m;
    }
  }
}

TEST(ZipArchive, CompressedMembersAreReadByLibZip) {
  std::string path = (fs::temp_directory_path() / "dtf_zip_test_deflated.zip").string();
  const std::string text(5000, 'x'), stored = "stored bytes";
  int err = 0;
  zip_t *z = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &err);
  ASSERT_NE(z, nullptr);
  zip_int64_t a = zip_file_add(z, "a/deflated.txt", zip_source_buffer(z, text.data(), text.size(), 0), 0);
  zip_int64_t b = zip_file_add(z, "a/stored.txt", zip_source_buffer(z, stored.data(), stored.size(), 0), 0);
  ASSERT_EQ(zip_set_file_compression(z, static_cast<zip_uint64_t>(a), ZIP_CM_DEFLATE, 9), 0);
  ASSERT_EQ(zip_set_file_compression(z, static_cast<zip_uint64_t>(b), ZIP_CM_STORE, 0), 0);
  ASSERT_EQ(zip_close(z), 0);
  ASSERT_LT(fs::file_size(path), text.size()); // it was compressed
  std::string error;
  auto zip = ZipArchive::open(path, error);
  ASSERT_TRUE(zip) << error;
  EXPECT_EQ(zip->names(), (std::vector<std::string>{"a/deflated.txt", "a/stored.txt"}));
  EXPECT_EQ(zip->read("a/deflated.txt", error), text) << error;
  EXPECT_EQ(zip->read("a/stored.txt", error), stored) << error;
  EXPECT_EQ(zip->read("a/stored.txt", error, 1 << 20, 3), stored + std::string(3, '\0')) << error;
  EXPECT_FALSE(zip->read("a/absent.txt", error));
  EXPECT_NE(error.find("a/absent.txt"), std::string::npos) << error;
}

/// The smallest committed archive and where its program's JSON text starts.
std::pair<std::string, size_t> smallArchive() {
  std::string bytes = slurp((fs::path(DTF_SOURCE_DIR) / "tests/pt2/archives/map.pt2").string());
  return {bytes, bytes.find("{\"graph_module\"")};
}

TEST(ZipArchive, AStoredMemberThatLostAByteIsRefusedByItsCrc) {
  auto [bytes, at] = smallArchive();
  ASSERT_NE(at, std::string::npos);
  bytes[at + 40] ^= 0x20; // a letter's case: still JSON, another program
  std::string path = temp("crc.pt2", bytes), error;
  auto zip = ZipArchive::open(path, error);
  ASSERT_TRUE(zip) << error;
  ASSERT_TRUE(zip->mapped());
  for (const std::string &m : zip->names())
    if (m.ends_with("models/model.json")) {
      std::string copy;
      EXPECT_FALSE(zip->view(m, error, copy));
      EXPECT_EQ(error, m + ": cannot read the member: CRC error");
    }
}

TEST(ZipArchive, AMemberWithoutRoomForItsPaddingIsCopied) {
  std::string path = (fs::path(DTF_SOURCE_DIR) / "tests/pt2/archives/map.pt2").string(), error;
  auto zip = ZipArchive::open(path, error);
  ASSERT_TRUE(zip) << error;
  const std::string &m = zip->names().front();
  std::string copy;
  auto bytes = zip->view(m, error, copy, uint64_t{1} << 31, 1 << 24); // more than the file holds
  ASSERT_TRUE(bytes) << error;
  EXPECT_EQ(copy.size(), bytes->size() + (1 << 24));
  EXPECT_EQ(*bytes, byLibZip(path, m));
  EXPECT_FALSE(zip->view(m, error, copy, bytes->size() - 1)) << "over maxBytes";
}

TEST(ZipArchive, Zip64RecordsThatDisagreeAreLeftToLibZip) {
  auto [bytes, at] = smallArchive();
  size_t z64 = bytes.rfind(std::string("PK\x06\x06", 4));
  ASSERT_NE(z64, std::string::npos) << "torch writes a zip64 end record";
  bytes[z64 + 32] += 1; // its entry count
  std::string path = temp("zip64.pt2", bytes), error;
  auto zip = ZipArchive::open(path, error);
  EXPECT_TRUE(!zip || !zip->mapped()) << "read from the mapping though its records disagree";
  if (!zip) {
    EXPECT_NE(error.find("not a readable zip archive"), std::string::npos) << error;
  }
}

TEST(ZipArchive, TruncatedAndEmptyFilesAreRefusedWithLibZipsReason) {
  auto [bytes, at] = smallArchive();
  std::string error;
  for (const std::string &cut : {bytes.substr(0, bytes.size() / 2), bytes.substr(0, 10), std::string()}) {
    std::string path = temp("cut.pt2", cut);
    EXPECT_FALSE(ZipArchive::open(path, error)) << cut.size() << " bytes";
    EXPECT_NE(error.find("not a readable zip archive"), std::string::npos) << error;
  }
}

} // namespace
} // namespace dtf::pt2
