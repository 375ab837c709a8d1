// The .pt2 reader on damaged documents: a committed archive's program JSON
// with random fields deleted, retyped or renumbered must give a program or
// an error value (and the refinement must run on any program it gives),
// never an exception or a crash. Deterministic (fixed seeds).
#include "frontends/pt2/pt2_reader.h"
#include "frontends/pt2/zip_archive.h"
#include "ops/semantics.h"
#include "refine/refine.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <random>

namespace dtf::pt2 {
namespace {

using nlohmann::json;

std::string modelJson(const std::string &archive) {
  std::string error;
  auto zip = ZipArchive::open((std::filesystem::path(DTF_SOURCE_DIR) / "tests/pt2/archives" / archive).string(), error);
  EXPECT_TRUE(zip) << error;
  for (const std::string &m : zip->names())
    if (m.find("/models/") != std::string::npos) return *zip->read(m, error);
  return {};
}

void collect(json &j, std::vector<json *> &out) {
  out.push_back(&j);
  if (j.is_object())
    for (auto &[k, v] : j.items()) collect(v, out);
  if (j.is_array())
    for (json &v : j) collect(v, out);
}

/// One damage at a random place: delete it, or replace it by another kind or value.
void damage(json &doc, std::mt19937 &rng) {
  std::vector<json *> nodes;
  collect(doc, nodes);
  json &at = *nodes[std::uniform_int_distribution<size_t>(1, nodes.size() - 1)(rng)];
  switch (std::uniform_int_distribution<int>(0, 7)(rng)) {
  case 0: at = nullptr; break;
  case 1: at = "x"; break;
  case 2: at = 99; break;
  case 3: at = -1; break;
  case 4: at = json::array(); break;
  case 5: at = json::object(); break;
  case 6:
    if (at.is_object() && !at.empty()) at.erase(at.begin());
    else if (at.is_array() && !at.empty()) at.erase(at.begin());
    break;
  case 7:
    if (at.is_array() && !at.empty()) at.push_back(at[0]);
    else if (at.is_number_integer()) at = at.get<int64_t>() + 1;
    break;
  }
}

TEST(Pt2Mutation, DamagedDocumentsGiveErrorsNotCrashes) {
  for (const char *archive : {"mixed_int_float.pt2", "cond.pt2", "while_loop.pt2", "map.pt2", "dynamic.pt2"}) {
    const json original = json::parse(modelJson(archive));
    const std::shared_ptr<const Semantics> sem = Semantics::shared(kNewestTorch);
    size_t programs = 0, errors = 0;
    for (unsigned seed = 0; seed < 150; ++seed) {
      std::mt19937 rng(seed);
      json doc = original;
      for (int k = std::uniform_int_distribution<int>(1, 3)(rng); k > 0; --k) damage(doc, rng);
      ReadResult r;
      ASSERT_NO_THROW(r = readExportedProgram(doc.dump(), "model.json", {.semantics = sem})) << archive << " seed " << seed;
      if (!r.program) {
        EXPECT_FALSE(r.error.empty());
        ++errors;
        continue;
      }
      ++programs;
      EXPECT_NO_THROW(refine::refineGraph(*r.program->graph, {.semantics = sem})) << archive << " seed " << seed;
    }
    EXPECT_GT(errors, 0u) << archive;
    EXPECT_GT(programs, 0u) << archive; // damage in metadata, stack traces ... is harmless
  }
}

} // namespace
} // namespace dtf::pt2
