#include "schema/schema.h"
#include "dtype/per_version.h"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>
#include <map>
#include <atomic>
#include <mutex>
#include <tuple>
#include <stdexcept>

namespace dtf {

bool SchemaType::isTensorLike() const {
  if (kind == Kind::Tensor) return true;
  if ((kind == Kind::Optional || kind == Kind::List) && inner()) return inner()->isTensorLike();
  return false;
}

std::string SchemaType::str() const {
  switch (kind) {
  case Kind::List:
    return inner()->str() + (fixedSize ? fmt::format("[{}]", *fixedSize) : "[]");
  case Kind::Optional: return inner()->str() + "?";
  case Kind::Tuple: {
    std::string s = "(";
    for (size_t i = 0; i < children.size(); ++i) s += (i ? ", " : "") + children[i]->str();
    return s + ")";
  }
  default: return spelling;
  }
}

void Schema::indexArgs() {
  argKeys.clear();
  argSlots.clear();
  for (const SchemaArg &a : args) argKeys.push_back(argNameKey(a.name));
  if (args.size() >= 255) return; // no table: argIndex compares names
  size_t size = 8;
  while (size < 2 * args.size()) size *= 2;
  argSlots.assign(size, 0);
  for (size_t i = 0; i < args.size(); ++i) {
    size_t s = argKeys[i].slot(size - 1);
    while (argSlots[s] != 0) s = (s + 1) & (size - 1);
    argSlots[s] = static_cast<uint8_t>(i + 1);
  }
}

int Schema::argIndex(std::string_view argName) const {
  // Rules look arguments up by name on every call: one slot, and two words
  // (length, first 7 and last 8 bytes) decide for every name up to 15 bytes.
  if (!argSlots.empty() && argKeys.size() == args.size()) {
    const ArgNameKey k = argNameKey(argName);
    const size_t mask = argSlots.size() - 1;
    for (size_t s = k.slot(mask);; s = (s + 1) & mask) {
      const unsigned e = argSlots[s];
      if (e == 0) return -1;
      if (argKeys[e - 1] == k && (argName.size() <= 15 || args[e - 1].name == argName)) return static_cast<int>(e - 1);
    }
  }
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &n = args[i].name;
    if (n.size() == argName.size() && (n.empty() || n[0] == argName[0]) && n == argName) return static_cast<int>(i);
  }
  return -1;
}

namespace {

struct ParseError : std::runtime_error {
  size_t pos;
  ParseError(size_t p, const std::string &m) : std::runtime_error(m), pos(p) {}
};

/// Recursive-descent parser over one declaration.
class Parser {
public:
  explicit Parser(std::string_view s) : s_(s) {}

  Schema parse() {
    Schema schema;
    schema.text = std::string(s_);
    std::string qual = ident();
    expect(':'); expect(':');
    schema.name = qual + "::" + ident();
    if (peek() == '.') { ++p_; schema.overload = ident(); }
    expect('(');
    bool kwOnly = false;
    skipWs();
    while (peek() != ')') {
      if (peek() == '*') { ++p_; kwOnly = true; }
      else if (s_.substr(p_, 3) == "...") { p_ += 3; schema.varargs = true; }
      else schema.args.push_back(arg(kwOnly, /*isReturn=*/false));
      skipWs();
      if (peek() == ',') { ++p_; skipWs(); }
      else if (peek() != ')') fail("expected ',' or ')'");
    }
    ++p_;
    skipWs();
    if (s_.substr(p_, 2) != "->") fail("expected '->'");
    p_ += 2;
    skipWs();
    if (s_.substr(p_, 3) == "...") { p_ += 3; schema.varReturns = true; }
    else if (peek() == '(') {
      ++p_; skipWs();
      while (peek() != ')') {
        schema.returns.push_back(arg(false, true));
        skipWs();
        if (peek() == ',') { ++p_; skipWs(); }
        else if (peek() != ')') fail("expected ',' or ')' in returns");
      }
      ++p_;
    } else {
      schema.returns.push_back(arg(false, true));
    }
    skipWs();
    if (p_ != s_.size()) fail("trailing text");
    return schema;
  }

private:
  std::string_view s_;
  size_t p_ = 0;

  [[noreturn]] void fail(const std::string &what) const { throw ParseError(p_, what); }
  char peek() const { return p_ < s_.size() ? s_[p_] : '\0'; }
  void skipWs() { while (p_ < s_.size() && s_[p_] == ' ') ++p_; }
  void expect(char c) {
    skipWs();
    if (peek() != c) fail(fmt::format("expected '{}'", c));
    ++p_;
  }
  std::string ident() {
    skipWs();
    size_t b = p_;
    while (p_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[p_])) || s_[p_] == '_')) ++p_;
    if (b == p_) fail("expected a name");
    return std::string(s_.substr(b, p_ - b));
  }

  // Alias annotation `(a)`, `(a!)`, `(a -> *)`, `(b|a)`: whether there is
  // one (the value may share its object with another), and whether it has `!`.
  void aliasAnnotation(SchemaType &t) {
    if (peek() != '(') return;
    size_t close = s_.find(')', p_);
    if (close == std::string_view::npos) fail("unterminated alias annotation");
    t.aliased = true;
    t.mutated = s_.substr(p_, close - p_).find('!') != std::string_view::npos;
    p_ = close + 1;
  }

  static SchemaType::Kind baseKind(std::string_view n) {
    using K = SchemaType::Kind;
    static const std::pair<std::string_view, K> kinds[] = {
        {"Tensor", K::Tensor}, {"int", K::Int}, {"SymInt", K::Int}, {"float", K::Float},
        {"bool", K::Bool}, {"complex", K::Complex}, {"Scalar", K::Number},
        {"number", K::Number}, {"str", K::Str}, {"Device", K::Device},
        {"ScalarType", K::ScalarType}, {"Layout", K::Layout},
        {"MemoryFormat", K::MemoryFormat}, {"Generator", K::Generator},
        {"Dimname", K::Dimname}, {"Storage", K::Storage}, {"Stream", K::Stream},
        {"Any", K::Any}, {"t", K::TypeVar}, {"t1", K::TypeVar}, {"t2", K::TypeVar},
        {"tVal", K::TypeVar}, {"tKey", K::TypeVar}};
    for (auto &[s, k] : kinds)
      if (s == n) return k;
    return K::Other;
  }

  SchemaTypePtr type() {
    skipWs();
    auto t = std::make_shared<SchemaType>();
    if (peek() == '(') { // tuple
      ++p_;
      t->kind = SchemaType::Kind::Tuple;
      skipWs();
      while (peek() != ')') {
        t->children.push_back(type());
        skipWs();
        if (peek() == ',') ++p_;
        else if (peek() != ')') fail("expected ',' or ')' in tuple type");
        skipWs();
      }
      ++p_;
    } else {
      t->spelling = ident();
      while (peek() == '.') { ++p_; t->spelling += "." + ident(); } // class types
      t->kind = baseKind(t->spelling);
      if ((t->spelling == "Dict" || t->spelling == "Future" || t->spelling == "RRef" ||
           t->spelling == "Await") && peek() == '(') {
        t->kind = t->spelling == "Dict" ? SchemaType::Kind::Dict : SchemaType::Kind::Future;
        ++p_;
        while (true) {
          t->children.push_back(type());
          skipWs();
          if (peek() == ',') { ++p_; continue; }
          expect(')');
          break;
        }
      }
      aliasAnnotation(*t);
    }
    // Suffixes: `[]`, `[N]`, `?`, and an alias annotation after `[]`.
    std::shared_ptr<SchemaType> cur = t;
    while (true) {
      if (peek() == '[') {
        ++p_;
        auto l = std::make_shared<SchemaType>();
        l->kind = SchemaType::Kind::List;
        if (std::isdigit(static_cast<unsigned char>(peek()))) {
          int n = 0;
          while (std::isdigit(static_cast<unsigned char>(peek()))) n = n * 10 + (s_[p_++] - '0');
          l->fixedSize = n;
        }
        if (peek() != ']') fail("expected ']'");
        ++p_;
        l->children.push_back(cur);
        aliasAnnotation(*l);
        cur = l;
      } else if (peek() == '?') {
        ++p_;
        auto o = std::make_shared<SchemaType>();
        o->kind = SchemaType::Kind::Optional;
        o->children.push_back(cur);
        o->mutated = cur->mutated;
        o->aliased = cur->aliased;
        cur = o;
      } else {
        break;
      }
    }
    return cur;
  }

  std::string defaultValue() {
    size_t b = p_;
    int depth = 0;
    char quote = 0;
    for (; p_ < s_.size(); ++p_) {
      char c = s_[p_];
      if (quote) {
        if (c == '\\') ++p_; // escaped character inside a string default
        else if (c == quote) quote = 0;
        continue;
      }
      if (c == '"' || c == '\'') quote = c;
      else if (c == '[' || c == '(') ++depth;
      else if (c == ']' || (c == ')' && depth > 0)) --depth;
      else if ((c == ',' || c == ')') && depth == 0) break;
    }
    std::string v(s_.substr(b, p_ - b));
    while (!v.empty() && v.back() == ' ') v.pop_back();
    return v;
  }

  SchemaArg arg(bool kwOnly, bool isReturn) {
    SchemaArg a;
    a.type = type();
    a.kwargOnly = kwOnly;
    skipWs();
    if (std::isalpha(static_cast<unsigned char>(peek())) || peek() == '_') a.name = ident();
    else if (!isReturn) fail("expected an argument name");
    skipWs();
    if (peek() == '=') { ++p_; skipWs(); a.defaultText = defaultValue(); }
    return a;
  }
};

} // namespace

SchemaParseResult parseSchema(std::string_view text) {
  try {
    Schema s = Parser(text).parse();
    using K = SchemaType::Kind;
    for (const SchemaArg &a : s.args) s.mutatesList = s.mutatesList || (a.type->mutated && a.type->kind == K::List);
    for (uint32_t i = 0, r = 0; i < s.args.size(); ++i) {
      if (!s.args[i].type->mutated || s.args[i].type->kind != K::Tensor) continue;
      while (r < s.returns.size() && !(s.returns[r].type->mutated && s.returns[r].type->kind == K::Tensor)) ++r;
      if (r < s.returns.size()) s.inPlace.emplace_back(i, r++);
    }
    s.indexArgs();
    for (const char *t : {"self", "input"})
      if (int i = s.argIndex(t); s.dimsOf < 0 && i >= 0 && s.args[i].type->kind == K::Tensor) s.dimsOf = i;
    for (uint32_t i = 0; i < s.args.size() && s.dimsOf >= 0; ++i) {
      const std::string &n = s.args[i].name;
      const SchemaType *t = s.args[i].type.get();
      if (t->kind == K::Optional && t->inner()) t = t->inner();
      if (t->kind == K::List && t->inner()) t = t->inner();
      // `dims` names self's dims (flip, roll, permute, rot90 ...; tile's are
      // counts: OpFact::DimsAreCounts); movedim's source and destination are
      // self's dims too. A naming convention of aten's schemas.
      const bool dims = n == "dims" && s.name.starts_with("aten::");
      if (t->kind == K::Int && (n == "dim" || n == "dim0" || n == "dim1" || n == "dim2" || n == "start_dim" ||
                                n == "end_dim" || n == "dimension" || dims || n == "source" || n == "destination" ||
                                n == "axis0" || n == "axis1"))
        s.dimArgs.push_back(i);
    }
    return {std::move(s), {}};
  } catch (const ParseError &e) {
    return {std::nullopt, fmt::format("column {}: {}", e.pos + 1, e.what())};
  }
}

struct SchemaTable::Entry {
  std::string_view key; ///< the line's text up to '(' (the text outlives the table, as `text` does)
  std::string_view text;
  size_t line = 0;
  /// Set (release) once `schema` is parsed. Not a std::once_flag: glibc's
  /// pthread_once makes a futex call per completed flag, and a registry
  /// build parses ~2,400 declarations (a syscall each, ~2 us on a VM).
  mutable std::atomic<bool> parsed{false};
  /// Out of line: a Schema is ~270 bytes, and every process builds the table
  /// of ~4,500 entries to parse a handful (inline, the array alone was 1.4 MB
  /// of zeroed pages: ~350 page faults of a 2 ms `infer-op`).
  mutable std::unique_ptr<const Schema> schema;
};

struct SchemaTable::SpanCache {
  std::mutex mu;
  std::mutex parse; ///< held while an entry is parsed (at())
  std::map<std::string, std::vector<const Schema *>, std::less<>> byName; // nodes are stable
  std::map<std::string, std::vector<const Schema *>, std::less<>> byKey;  // pinned: one each
};

SchemaTable::SchemaTable(std::string_view source) : spans_(std::make_unique<SpanCache>()) {
  // Keys are views of the lines: no string made per declaration, and no array but the entries
  // (this runs at every process start; a page touched is a page fault).
  auto eachDeclaration = [source](auto &&f) {
    size_t lineNo = 0;
    for (std::string_view rest = source; !rest.empty();) {
      const size_t nl = rest.find('\n');
      const std::string_view line = rest.substr(0, nl);
      rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
      ++lineNo;
      if (!line.empty() && line[0] != '#') f(line, lineNo);
    }
  };
  eachDeclaration([this](std::string_view, size_t) { ++count_; });
  entries_ = std::make_unique<Entry[]>(count_);
  size_t i = 0;
  eachDeclaration([&](std::string_view line, size_t lineNo) {
    Entry &e = entries_[i++];
    e.key = line.substr(0, line.find('('));
    e.text = line;
    e.line = lineNo;
  });
  // The data files are written in key order: checking costs one comparison a line.
  auto order = [](const Entry &a, const Entry &b) { return std::tie(a.key, a.text) < std::tie(b.key, b.text); };
  bool sorted = true;
  for (size_t j = 1; j < count_ && sorted; ++j) sorted = !order(entries_[j], entries_[j - 1]);
  if (sorted) return;
  std::vector<size_t> perm(count_); // entries hold atomics: sorted through a permutation
  for (size_t j = 0; j < count_; ++j) perm[j] = j;
  std::sort(perm.begin(), perm.end(), [&](size_t a, size_t b) { return order(entries_[a], entries_[b]); });
  auto inOrder = std::make_unique<Entry[]>(count_);
  for (size_t j = 0; j < count_; ++j) {
    inOrder[j].key = entries_[perm[j]].key;
    inOrder[j].text = entries_[perm[j]].text;
    inOrder[j].line = entries_[perm[j]].line;
  }
  entries_ = std::move(inOrder);
}

SchemaTable::SchemaTable(const SchemaTable &base, std::vector<Schema> extra)
    : base_(&base), spans_(std::make_unique<SpanCache>()) {
  for (Schema &s : extra) extra_.push_back(std::make_unique<const Schema>(std::move(s)));
  std::sort(extra_.begin(), extra_.end(), [](const auto &a, const auto &b) { return a->key() < b->key(); });
}

SchemaTable::~SchemaTable() = default;

const Schema *SchemaTable::at(size_t i) const {
  const Entry &e = entries_[i];
  if (!e.parsed.load(std::memory_order_acquire)) {
    std::lock_guard lock(spans_->parse);
    if (!e.parsed.load(std::memory_order_relaxed)) {
      auto r = parseSchema(e.text);
      if (!r.schema)
        throw std::runtime_error(fmt::format("schema table line {}: {}: {}", e.line, r.error, e.text));
      e.schema = std::make_unique<const Schema>(std::move(*r.schema));
      e.parsed.store(true, std::memory_order_release);
    }
  }
  return e.schema.get();
}

void SchemaTable::parseAll() const {
  for (size_t i = 0; i < count_; ++i) at(i);
  if (base_) base_->parseAll();
}

size_t SchemaTable::size() const { return count_ + extra_.size() + (base_ ? base_->size() : 0); }

std::vector<std::pair<std::string_view, std::string_view>> SchemaTable::declarations() const {
  std::vector<std::pair<std::string_view, std::string_view>> out;
  if (base_) out = base_->declarations();
  out.reserve(size());
  for (size_t i = 0; i < count_; ++i) out.emplace_back(entries_[i].key, entries_[i].text);
  for (const auto &e : extra_) out.emplace_back(std::string_view(e->text).substr(0, e->text.find('(')), e->text);
  std::sort(out.begin(), out.end());
  return out;
}

namespace {
/// The key of `s`, one of `name`'s overloads? (`name` itself or `name.<overload>`)
bool isOverloadOf(std::string_view key, std::string_view name) {
  return key == name || (key.size() > name.size() && key.starts_with(name) && key[name.size()] == '.');
}
} // namespace

const Schema *SchemaTable::find(std::string_view key) const {
  if (!extra_.empty()) {
    auto it = std::lower_bound(extra_.begin(), extra_.end(), key,
                               [](const auto &s, std::string_view k) { return s->key() < k; });
    if (it != extra_.end() && (*it)->key() == key) return it->get();
  }
  const Entry *b = entries_.get(), *end = b + count_;
  const Entry *it = std::lower_bound(b, end, key, [](const Entry &e, std::string_view k) { return e.key < k; });
  if (it == end || it->key != key) return base_ ? base_->find(key) : nullptr;
  return at(static_cast<size_t>(it - b));
}

std::vector<const Schema *> SchemaTable::overloads(std::string_view name) const {
  if (base_) { // a layer: the base's overloads and its own, in key order
    std::vector<const Schema *> out = base_->overloads(name);
    for (const auto &s : extra_)
      if (isOverloadOf(s->key(), name)) out.push_back(s.get());
    std::sort(out.begin(), out.end(), [](const Schema *a, const Schema *b) { return a->key() < b->key(); });
    return out;
  }
  // Keys of one name are contiguous: `name` itself, then `name.<overload>`.
  std::vector<const Schema *> out;
  const Entry *b = entries_.get(), *end = b + count_;
  const Entry *it = std::lower_bound(b, end, name, [](const Entry &e, std::string_view k) { return e.key < k; });
  for (; it != end; ++it) {
    std::string_view k = it->key;
    if (isOverloadOf(k, name))
      out.push_back(at(static_cast<size_t>(it - b)));
    else if (!k.starts_with(name))
      break;
  }
  return out;
}

std::span<const Schema *const> SchemaTable::overloadSpan(std::string_view name) const {
  std::lock_guard lock(spans_->mu);
  auto it = spans_->byName.find(name);
  if (it == spans_->byName.end()) it = spans_->byName.emplace(std::string(name), overloads(name)).first;
  return it->second;
}

std::span<const Schema *const> SchemaTable::pinnedSpan(std::string_view key) const {
  std::lock_guard lock(spans_->mu);
  auto it = spans_->byKey.find(key);
  if (it == spans_->byKey.end()) {
    std::vector<const Schema *> one;
    if (const Schema *s = find(key)) one.push_back(s);
    it = spans_->byKey.emplace(std::string(key), std::move(one)).first;
  }
  return it->second;
}

const SchemaTable &SchemaTable::of(TorchVersion v) {
  // Each parsed lazily, per declaration, on first use; a version's table is
  // made when first asked for, and kept to the end of the process
  // (dtype/per_version.h). The text: data/torch_schemas-<V>.txt.
  return lazyPerVersion<SchemaTable>(v, [](TorchVersion w) { return embeddedText(EmbeddedData::Schemas, w); });
}

} // namespace dtf
