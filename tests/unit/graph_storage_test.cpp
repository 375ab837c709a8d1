// The graph's compact storage: SmallIds (a node's inputs, outputs, blocks in
// place up to N) and NameMap (the text readers' value-name table).
#include "graph/name_map.h"
#include "graph/small_ids.h"

#include <gtest/gtest.h>

#include <numeric>
#include <span>
#include <string>
#include <vector>

using dtf::ir::kNoName;
using dtf::ir::NameMap;
using Ids = dtf::ir::SmallIds<uint32_t, 2>;

namespace {

std::vector<uint32_t> asVector(std::span<const uint32_t> s) { return {s.begin(), s.end()}; }

TEST(SmallIds, GrowsFromInPlaceToHeapKeepingOrder) {
  Ids ids;
  EXPECT_TRUE(ids.empty());
  for (uint32_t i = 0; i < 9; ++i) ids.push_back(10 * i); // 2 in place, then 4, 8, 16 on the heap
  ASSERT_EQ(ids.size(), 9u);
  for (uint32_t i = 0; i < 9; ++i) EXPECT_EQ(ids[i], 10 * i);
  EXPECT_EQ(ids.front(), 0u);
  EXPECT_EQ(ids.back(), 80u);
  EXPECT_THROW((void)ids.at(9), std::out_of_range);
}

TEST(SmallIds, CopiesAndMovesInPlaceAndOnHeap) {
  for (size_t n : {1u, 2u, 5u}) {
    std::vector<uint32_t> want(n);
    std::iota(want.begin(), want.end(), 7u);
    Ids a = want;
    Ids copy = a;
    EXPECT_EQ(asVector(copy), want);
    Ids moved = std::move(a);
    EXPECT_EQ(asVector(moved), want);
    EXPECT_TRUE(a.empty()); // NOLINT(bugprone-use-after-move): a moved-from list is empty and usable
    a.push_back(1);
    EXPECT_EQ(asVector(a), std::vector<uint32_t>{1});
    copy = moved; // assignment over a list that may be on the heap
    EXPECT_EQ(copy, moved);
    copy = {3, 4, 5};
    EXPECT_EQ(asVector(copy), (std::vector<uint32_t>{3, 4, 5}));
  }
}

TEST(SmallIds, InsertResizeAssign) {
  Ids ids = {1, 4};
  std::vector<uint32_t> middle{2, 3};
  ids.insert(ids.begin() + 1, middle.begin(), middle.end());
  EXPECT_EQ(asVector(ids), (std::vector<uint32_t>{1, 2, 3, 4}));
  ids.resize(6, 9);
  EXPECT_EQ(asVector(ids), (std::vector<uint32_t>{1, 2, 3, 4, 9, 9}));
  ids.resize(1);
  EXPECT_EQ(asVector(ids), std::vector<uint32_t>{1});
  ids.assign(3, 0);
  EXPECT_EQ(asVector(ids), (std::vector<uint32_t>{0, 0, 0}));
  ids.clear();
  EXPECT_TRUE(ids.empty());
}

TEST(NameMap, FindsInsertsRefusesDuplicatesErases) {
  // Names as a text reader sees them: views into one text.
  std::string text;
  std::vector<std::pair<size_t, size_t>> at;
  for (int i = 0; i < 5000; ++i) {
    std::string n = "v" + std::to_string(i);
    at.push_back({text.size(), n.size()});
    text += n + " ";
  }
  auto name = [&](size_t i) { return std::string_view(text).substr(at[i].first, at[i].second); };
  NameMap m;
  m.reserve(100); // less than it will hold: the table grows
  for (size_t i = 0; i < at.size(); ++i) ASSERT_TRUE(m.insert(name(i), i));
  EXPECT_FALSE(m.insert(name(42), 7)); // a second definition of a name is refused
  for (size_t i = 0; i < at.size(); ++i) ASSERT_EQ(m.find(name(i)), i);
  EXPECT_EQ(m.find("v5000"), kNoName);
  for (size_t i = 0; i < at.size(); i += 2) m.erase(name(i));
  for (size_t i = 0; i < at.size(); ++i) ASSERT_EQ(m.find(name(i)), i % 2 ? i : kNoName) << name(i);
  m.clear();
  EXPECT_EQ(m.find(name(1)), kNoName);
}

} // namespace
