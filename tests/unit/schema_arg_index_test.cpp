// Schema::argIndex: the slot table and the two-word name keys (schema.h)
// against a plain search by name, for names that share their length, their
// first 7 bytes or their last 8, and names longer than the 15 bytes the keys
// decide alone.
#include "schema/schema.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace dtf {
namespace {

int plainIndex(const Schema &s, std::string_view name) {
  for (size_t i = 0; i < s.args.size(); ++i)
    if (s.args[i].name == name) return static_cast<int>(i);
  return -1;
}

TEST(SchemaArgIndex, AgreesWithAPlainSearchByName) {
  const std::vector<std::string> names = {
      "a", "b", "ab", "self", "other", "input", "weight", "weights", "padding", "paddings", "padding_", "dilation",
      "transposed", "output_padding", "output_paddinh", "xutput_padding", "benchmark", "cudnn_enabled",
      "allow_tf32", "deterministic", "output_size_for_all", "output_size_for_alm", "output_size_xor_all"};
  std::string decl = "aten::f(";
  for (size_t i = 0; i < names.size(); ++i) decl += (i ? ", int " : "int ") + names[i];
  decl += ") -> int";
  SchemaParseResult parsed = parseSchema(decl);
  ASSERT_TRUE(parsed.schema) << parsed.error;
  const Schema &s = *parsed.schema;
  ASSERT_FALSE(s.argSlots.empty());
  for (size_t i = 0; i < names.size(); ++i) EXPECT_EQ(s.argIndex(names[i]), static_cast<int>(i)) << names[i];
  // Absent names: neighbours of present ones in every part the keys hold.
  for (const char *absent : {"", "c", "abc", "selff", "inpu", "weighs", "paddinh", "output_paddin", "output_paddingg",
                             "output_size_for_al", "output_size_for_amm", "xutput_size_for_all", "allow_tf33"})
    EXPECT_EQ(s.argIndex(absent), plainIndex(s, absent)) << absent;
}

TEST(SchemaArgIndex, ASchemaBuiltByHandIsSearchedByName) {
  Schema s; // no parseSchema: no keys, no table
  s.name = "aten::g";
  for (const char *n : {"self", "output_padding"}) {
    SchemaArg a;
    a.name = n;
    s.args.push_back(a);
  }
  EXPECT_EQ(s.argIndex("output_padding"), 1);
  EXPECT_EQ(s.argIndex("self"), 0);
  EXPECT_EQ(s.argIndex("other"), -1);
}

} // namespace
} // namespace dtf
