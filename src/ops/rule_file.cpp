//===- ops/rule_file.cpp - rule files (TOML) into a RuleSet ---------------===//
//
// The file format is documented for users in docs/custom-ops.md. Every
// problem is reported at the line of the word at fault, and a file with any
// problem adds nothing. TOML is read by toml++ (Debian's libtomlplusplus),
// which also refuses text that is not UTF-8, at its line.
//
//===----------------------------------------------------------------------===//
#include "ops/custom_rules.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <toml++/toml.h>

#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <sstream>

namespace dtf {
namespace {

constexpr size_t kMaxStringBytes = 4096; ///< a schema, a name, a sample
constexpr size_t kMaxListLength = 64;    ///< promote, broadcast, refuse lists
constexpr int kMaxDefaultDepth = 4;      ///< from_arg defaults inside defaults

int lineOf(const toml::node &n) { return static_cast<int>(n.source().begin.line); }
int lineOf(const toml::key &k) { return static_cast<int>(k.source().begin.line); }

size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1])});
      diag = up;
    }
  }
  return row[b.size()];
}

/// "unknown ... 'promot' (did you mean 'promote'?; known: ...)"
std::string unknownWord(std::string_view what, std::string_view word, std::initializer_list<std::string_view> known) {
  std::string_view best;
  size_t bestDistance = 3; // a typo, not another word
  for (std::string_view k : known)
    if (size_t d = editDistance(word, k); d < bestDistance) best = k, bestDistance = d;
  std::string shown(word.substr(0, 64));
  return fmt::format("unknown {} '{}'{}; known: {}", what, shown,
                     best.empty() ? "" : fmt::format(" (did you mean '{}'?)", best), fmt::join(known, ", "));
}

class FileReader {
public:
  explicit FileReader(std::string file) : file_(std::move(file)) {}

  struct OpDecl {
    std::string schema;
    RuleSpec spec;
    CustomRuleOptions options;
    bool readErrors = false; ///< its rule is incomplete: only its schema is checked further
  };

  std::vector<RuleSetError> errors;

  std::vector<OpDecl> read(const toml::table &root) {
    std::vector<OpDecl> ops;
    for (auto &&[k, v] : root)
      if (k.str() != "op") fail(lineOf(k), unknownWord("top-level key", k.str(), {"op"}) + " (each op is an [[op]] table)");
    const toml::node *list = root.get("op");
    if (!list) return ops;
    const toml::array *arr = list->as_array();
    if (!arr) {
      fail(lineOf(*list), "'op' must be an array of tables: write each op as [[op]]");
      return ops;
    }
    for (const toml::node &entry : *arr) {
      if (ops.size() >= RuleSet::kMaxRules) {
        fail(lineOf(entry), fmt::format("more than {} ops in one file", RuleSet::kMaxRules));
        break;
      }
      if (const toml::table *t = entry.as_table()) ops.push_back(readOp(*t));
      else fail(lineOf(entry), "each op must be a table ([[op]])");
    }
    return ops;
  }

  void fail(int line, std::string message) { errors.push_back({{file_, line > 0 ? line : 1}, std::move(message)}); }

private:
  std::string file_;

  /// Keys of `t` outside `known` are errors (a misspelled vocabulary word).
  void checkKeys(const toml::table &t, std::string_view where, std::initializer_list<std::string_view> known) {
    for (auto &&[k, v] : t)
      if (std::find(known.begin(), known.end(), k.str()) == known.end())
        fail(lineOf(k), unknownWord(fmt::format("word in {}", where), k.str(), known));
  }

  std::optional<std::string> text(const toml::node &n, std::string_view what) {
    const auto *s = n.as_string();
    if (!s) {
      fail(lineOf(n), fmt::format("{} must be a string", what));
      return std::nullopt;
    }
    if (s->get().size() > kMaxStringBytes) {
      fail(lineOf(n), fmt::format("{} is {} bytes long (at most {})", what, s->get().size(), kMaxStringBytes));
      return std::nullopt;
    }
    return s->get();
  }

  std::optional<std::vector<std::string>> texts(const toml::node &n, std::string_view what) {
    const toml::array *a = n.as_array();
    if (!a) {
      fail(lineOf(n), fmt::format("{} must be a list of strings ([\"x\", \"y\"])", what));
      return std::nullopt;
    }
    if (a->size() > kMaxListLength) {
      fail(lineOf(n), fmt::format("{} lists {} entries (at most {})", what, a->size(), kMaxListLength));
      return std::nullopt;
    }
    std::vector<std::string> out;
    for (const toml::node &e : *a)
      if (auto s = text(e, what)) out.push_back(std::move(*s));
      else return std::nullopt;
    return out;
  }

  std::optional<DType> dtypeName(const toml::node &n, std::string_view what) {
    auto s = text(n, what);
    if (!s) return std::nullopt;
    if (auto c = parseCategoryTarget(*s); c && c->how == CategoryTarget::How::Fixed) return c->dtype;
    fail(lineOf(n), fmt::format("unknown dtype '{}' in {} (dtypes by their full names: float32, int64, ...)",
                                s->substr(0, 64), what));
    return std::nullopt;
  }

  std::optional<DTypeSet> dtypeClasses(const toml::node &n, std::string_view what) {
    auto words = texts(n, what);
    if (!words) return std::nullopt;
    DTypeSet set;
    for (const std::string &w : *words) {
      auto c = parseDTypeClass(w);
      if (!c) {
        fail(lineOf(n), unknownWord(fmt::format("dtype class in {}", what), w,
                                    {"bool", "integral", "unsigned", "floating", "float8", "complex", "quantized",
                                     "<a dtype name>"}));
        return std::nullopt;
      }
      set = DTypeSet::join(set, *c);
    }
    return set;
  }

  std::optional<DTypeSpec> readDType(const toml::node &n, int depth = 0) {
    DTypeSpec d;
    d.line = lineOf(n);
    if (n.is_string()) { // dtype = "float32"
      auto t = dtypeName(n, "dtype");
      if (!t) return std::nullopt;
      d.form = DTypeSpec::Form::Always;
      d.dtype = *t;
      return d;
    }
    const toml::table *t = n.as_table();
    if (!t) {
      fail(d.line, "dtype must be a dtype name (\"float32\") or a table ({ same_as = \"x\" } ...)");
      return std::nullopt;
    }
    const size_t before = errors.size();
    checkKeys(*t, "dtype",
              {"same_as", "promote", "always", "from_arg", "default", "kind", "bool", "integral", "floating", "complex",
               "refuse"});
    const bool unknownKeys = errors.size() != before; // then a missing form is that key, said already
    int forms = 0;
    if (const toml::node *v = t->get("same_as")) {
      ++forms;
      d.form = DTypeSpec::Form::SameAs;
      if (auto s = text(*v, "same_as")) d.args = {*s};
    }
    if (const toml::node *v = t->get("promote")) {
      ++forms;
      d.form = DTypeSpec::Form::Promote;
      if (auto s = texts(*v, "promote")) d.args = std::move(*s);
    }
    if (const toml::node *v = t->get("always")) {
      ++forms;
      d.form = DTypeSpec::Form::Always;
      if (auto s = dtypeName(*v, "always")) d.dtype = *s;
    }
    if (const toml::node *v = t->get("from_arg")) {
      ++forms;
      d.form = DTypeSpec::Form::FromArg;
      if (auto s = text(*v, "from_arg")) d.args = {*s};
    }
    if (forms > 1 || (forms == 0 && !unknownKeys)) fail(d.line, "dtype takes one of same_as, promote, always, from_arg");
    if (const toml::node *v = t->get("default")) {
      if (d.form != DTypeSpec::Form::FromArg) fail(lineOf(*v), "default goes with from_arg");
      else if (depth >= kMaxDefaultDepth) fail(lineOf(*v), "defaults nested too deep");
      else if (auto inner = readDType(*v, depth + 1)) d.whenNone = std::make_shared<const DTypeSpec>(std::move(*inner));
    }
    if (const toml::node *v = t->get("kind")) {
      if (auto s = text(*v, "kind")) {
        if (auto k = parsePromotionKind(*s)) d.kind = *k;
        else
          fail(lineOf(*v), unknownWord("promotion kind", *s,
                                       {"default", "int_to_float", "always_bool", "complex_to_float", "bool_to_long"}));
      }
    }
    const std::string_view categories[] = {"bool", "integral", "floating", "complex"};
    for (size_t i = 0; i < 4; ++i)
      if (const toml::node *v = t->get(categories[i]))
        if (auto s = text(*v, categories[i])) {
          if (auto target = parseCategoryTarget(*s)) d.byCategory[i] = *target;
          else fail(lineOf(*v), unknownWord(fmt::format("{} result", categories[i]), *s,
                                             {"keep", "real", "complex", "<a dtype name>"}));
        }
    if (const toml::node *v = t->get("refuse"))
      if (auto set = dtypeClasses(*v, "refuse")) d.refused = *set;
    if (errors.size() != before) return std::nullopt;
    return d;
  }

  std::optional<RankSpec> readRank(const toml::node &n) {
    RankSpec r;
    r.line = lineOf(n);
    if (const auto *i = n.as_integer()) { // rank = 2
      if (i->get() < 0 || i->get() > Rank::kMaxRank) {
        fail(r.line, fmt::format("rank {} is outside 0..{}", i->get(), Rank::kMaxRank));
        return std::nullopt;
      }
      r.form = RankSpec::Form::Fixed;
      r.fixed = static_cast<int>(i->get());
      return r;
    }
    if (const auto *s = n.as_string()) {
      if (s->get() == "unknown") return r;
      fail(r.line, unknownWord("rank", s->get(), {"unknown", "<an integer>", "<a table>"}));
      return std::nullopt;
    }
    const toml::table *t = n.as_table();
    if (!t) {
      fail(r.line, "rank must be an integer, \"unknown\" or a table ({ same_as = \"x\" } ...)");
      return std::nullopt;
    }
    const size_t before = errors.size();
    checkKeys(*t, "rank", {"same_as", "broadcast", "fixed", "reduce", "dims", "keepdim"});
    const bool unknownKeys = errors.size() != before;
    int forms = 0;
    if (const toml::node *v = t->get("same_as")) {
      ++forms;
      r.form = RankSpec::Form::SameAs;
      if (auto s = text(*v, "same_as")) r.args = {*s};
    }
    if (const toml::node *v = t->get("broadcast")) {
      ++forms;
      r.form = RankSpec::Form::Broadcast;
      if (auto s = texts(*v, "broadcast")) r.args = std::move(*s);
    }
    if (const toml::node *v = t->get("fixed")) {
      ++forms;
      r.form = RankSpec::Form::Fixed;
      if (auto fixed = readRank(*v); fixed && fixed->form == RankSpec::Form::Fixed) r.fixed = fixed->fixed;
      else if (fixed) fail(lineOf(*v), "fixed must be an integer");
    }
    if (const toml::node *v = t->get("reduce")) {
      ++forms;
      r.form = RankSpec::Form::Reduce;
      if (auto s = text(*v, "reduce")) r.args = {*s};
    }
    if (forms > 1 || (forms == 0 && !unknownKeys)) fail(r.line, "rank takes one of same_as, broadcast, fixed, reduce");
    for (std::string_view k : {"dims", "keepdim"})
      if (const toml::node *v = t->get(k); v && r.form != RankSpec::Form::Reduce)
        fail(lineOf(*v), fmt::format("{} goes with reduce", k));
    if (const toml::node *v = t->get("dims"))
      if (auto s = text(*v, "dims")) r.dims = *s;
    if (const toml::node *v = t->get("keepdim")) {
      if (const auto *b = v->as_boolean()) r.keepdimValue = b->get();
      else if (auto s = text(*v, "keepdim (a bool argument's name, or true/false)")) r.keepdim = *s;
    }
    if (errors.size() != before) return std::nullopt;
    return r;
  }

  std::optional<ResultSpec> readResult(const toml::node *dtype, const toml::node *rank, int line) {
    ResultSpec r;
    r.line = line;
    bool ok = true;
    if (dtype) {
      r.dtype = readDType(*dtype);
      ok = ok && r.dtype;
    }
    if (rank) {
      r.rank = readRank(*rank);
      ok = ok && r.rank;
    }
    if (!ok) return std::nullopt;
    return r;
  }

  std::map<std::string, std::string, std::less<>> sampleArgs(const toml::node &n, std::string_view what) {
    std::map<std::string, std::string, std::less<>> out;
    const toml::table *t = n.as_table();
    if (!t) {
      fail(lineOf(n), fmt::format("{} must be a table of argument = \"spec\"", what));
      return out;
    }
    for (auto &&[k, v] : *t)
      if (auto s = text(v, fmt::format("{}.{}", what, k.str()))) out.emplace(std::string(k.str()), *s);
    return out;
  }

  void readConformance(const toml::node &n, CustomRuleOptions &o) {
    const toml::table *t = n.as_table();
    if (!t) {
      fail(lineOf(n), "conformance must be a table (samples, variants, skip)");
      return;
    }
    checkKeys(*t, "conformance", {"samples", "variants", "skip"});
    if (const toml::node *v = t->get("samples")) o.samples.args = sampleArgs(*v, "samples");
    if (const toml::node *v = t->get("variants")) {
      if (const toml::array *a = v->as_array(); a && a->size() <= kMaxListLength)
        for (const toml::node &e : *a) o.samples.variants.push_back({sampleArgs(e, "variants"), {}, {}});
      else fail(lineOf(*v), fmt::format("variants must be a list of at most {} tables", kMaxListLength));
    }
    if (const toml::node *v = t->get("skip"))
      if (auto s = text(*v, "skip")) o.samples.skipReason = *s;
  }

  /// The arguments samples name are the schema's (checked once it parsed).
  void checkSampleNames(const OpDecl &op, const toml::table &t) {
    auto parsed = parseSchema(op.schema);
    if (!parsed.schema) return;
    auto check = [&](const std::map<std::string, std::string, std::less<>> &args) {
      for (const auto &[name, spec] : args)
        if (parsed.schema->argIndex(name) < 0)
          fail(lineOf(*t.get("conformance")), fmt::format("conformance sample '{}' is not an argument of {}", name,
                                                          parsed.schema->key()));
    };
    check(op.options.samples.args);
    for (const SampleSpec &v : op.options.samples.variants) check(v.args);
  }

  OpDecl readOp(const toml::table &t) {
    const size_t before = errors.size();
    OpDecl op = readOpParts(t);
    op.readErrors = errors.size() != before;
    return op;
  }

  OpDecl readOpParts(const toml::table &t) {
    OpDecl op;
    const int line = lineOf(t);
    op.spec.line = line;
    op.options.where = {file_, line};
    checkKeys(t, "[[op]]",
              {"schema", "dtype", "rank", "results", "refuse", "same_dtype", "override", "family", "conformance"});
    if (const toml::node *v = t.get("schema")) {
      op.options.where.line = lineOf(*v);
      if (auto s = text(*v, "schema")) op.schema = *s;
    } else {
      fail(line, "no schema (schema = \"mylib::op(Tensor x) -> Tensor\")");
    }
    const toml::node *dtype = t.get("dtype"), *rank = t.get("rank"), *results = t.get("results");
    if (results && (dtype || rank)) fail(lineOf(*results), "give results = [...] or dtype/rank, not both");
    if (results) {
      const toml::array *a = results->as_array();
      if (!a || a->size() > kMaxListLength) {
        fail(lineOf(*results), "results must be a list of tables ({ dtype = ..., rank = ... })");
      } else {
        for (const toml::node &e : *a) {
          const toml::table *rt = e.as_table();
          if (!rt) {
            fail(lineOf(e), "each result is a table ({ dtype = ..., rank = ... }, {} for a non-tensor result)");
            continue;
          }
          checkKeys(*rt, "a result", {"dtype", "rank"});
          if (auto r = readResult(rt->get("dtype"), rt->get("rank"), lineOf(e))) op.spec.results.push_back(std::move(*r));
        }
      }
    } else if (dtype || rank) {
      if (auto r = readResult(dtype, rank, lineOf(dtype ? *dtype : *rank))) op.spec.results.push_back(std::move(*r));
    }
    if (const toml::node *v = t.get("refuse")) {
      if (const toml::table *rt = v->as_table()) {
        for (auto &&[k, classes] : *rt)
          if (auto set = dtypeClasses(classes, fmt::format("refuse.{}", k.str())))
            op.spec.refusals.push_back({std::string(k.str()), *set, lineOf(k)});
      } else {
        fail(lineOf(*v), "refuse must be a table: { x = [\"bool\", \"integral\"] }");
      }
    }
    if (const toml::node *v = t.get("same_dtype")) {
      op.spec.sameDTypeLine = lineOf(*v);
      if (auto s = texts(*v, "same_dtype")) op.spec.sameDType = std::move(*s);
    }
    if (const toml::node *v = t.get("override")) {
      if (const auto *b = v->as_boolean()) op.options.overrideBuiltin = b->get();
      else fail(lineOf(*v), "override must be true or false");
    }
    if (const toml::node *v = t.get("family"))
      if (auto s = text(*v, "family")) op.options.family = *s;
    if (const toml::node *v = t.get("conformance")) {
      readConformance(*v, op.options);
      checkSampleNames(op, t);
    }
    return op;
  }
};

} // namespace

std::vector<RuleSetError> RuleSet::addText(std::string_view text, const std::string &fileName) {
  if (text.size() > kMaxFileBytes)
    return {{{fileName, 1}, fmt::format("the file is {} bytes (rule files hold at most {})", text.size(), kMaxFileBytes)}};
  toml::table root;
  try {
    root = toml::parse(text, fileName);
  } catch (const toml::parse_error &e) {
    return {{{fileName, static_cast<int>(e.source().begin.line)}, std::string(e.description())}};
  }
  FileReader reader(fileName);
  std::vector<FileReader::OpDecl> ops = reader.read(root);
  std::vector<RuleSetError> errors = std::move(reader.errors);
  // Into a copy: a file with any problem adds nothing.
  RuleSet staged = *this;
  for (FileReader::OpDecl &op : ops) {
    if (op.schema.empty()) continue; // reported
    if (op.readErrors) {
      if (SchemaParseResult p = parseSchema(op.schema); !p.schema)
        errors.push_back({op.options.where, "the schema does not parse: " + p.error});
      continue;
    }
    for (RuleSetError &e : staged.add(op.schema, op.spec, std::move(op.options))) errors.push_back(std::move(e));
  }
  std::stable_sort(errors.begin(), errors.end(),
                   [](const RuleSetError &a, const RuleSetError &b) { return a.where.line < b.where.line; });
  if (errors.empty()) *this = std::move(staged);
  return errors;
}

std::vector<RuleSetError> RuleSet::addFile(const std::string &path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    return {{{path, 0}, std::filesystem::exists(path, ec) ? "not a regular file" : "no such file"}};
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) return {{{path, 0}, "cannot read the file: " + ec.message()}};
  if (size > kMaxFileBytes)
    return {{{path, 1}, fmt::format("the file is {} bytes (rule files hold at most {})", size, kMaxFileBytes)}};
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  if (!(in && text << in.rdbuf()) && size > 0) return {{{path, 0}, "cannot read the file"}};
  return addText(text.str(), path);
}

} // namespace dtf
