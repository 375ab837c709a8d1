// SchemaTable built from declaration text: the embedded data files are written in
// key order (the constructor then only checks), and a text out of order is sorted
// (through a permutation: entries hold atomics); comments and blank lines are not
// declarations, and a malformed line is reported with its line number when parsed.
#include "schema/schema.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace dtf {
namespace {

std::vector<std::string> keysOf(const SchemaTable &t) {
  std::vector<std::string> keys;
  for (const auto &[key, text] : t.declarations()) keys.emplace_back(key);
  return keys;
}

TEST(SchemaTable, FindsEveryDeclarationOfATextOutOfOrder) {
  const SchemaTable t("# a comment\n"
                      "aten::mul.Tensor(Tensor self, Tensor other) -> Tensor\n"
                      "\n"
                      "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor\n"
                      "aten::abs(Tensor self) -> Tensor\n"
                      "aten::add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor");
  EXPECT_EQ(keysOf(t), (std::vector<std::string>{"aten::abs", "aten::add.Scalar", "aten::add.Tensor", "aten::mul.Tensor"}));
  for (const char *key : {"aten::abs", "aten::add.Scalar", "aten::add.Tensor", "aten::mul.Tensor"}) {
    const Schema *s = t.find(key);
    ASSERT_NE(s, nullptr) << key;
    EXPECT_EQ(s->key(), key);
  }
  EXPECT_EQ(t.find("aten::sub.Tensor"), nullptr);
  EXPECT_EQ(t.overloads("aten::add").size(), 2u);
  EXPECT_EQ(t.find("aten::add.Tensor")->args.size(), 3u);
}

TEST(SchemaTable, AMalformedDeclarationNamesItsLineWhenParsed) {
  const SchemaTable t("aten::b(Tensor self) -> Tensor\n# comment\naten::a(Tensor self -> Tensor\n");
  EXPECT_NE(t.find("aten::b"), nullptr);
  try {
    t.find("aten::a");
    FAIL() << "a malformed declaration parsed";
  } catch (const std::runtime_error &e) {
    EXPECT_NE(std::string(e.what()).find("schema table line 3"), std::string::npos) << e.what();
  }
}

} // namespace
} // namespace dtf
