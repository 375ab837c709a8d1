#include "frontends/pt2/json_field.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace dtf::pt2 {
namespace {

using simdjson::dom::element_type;

std::string_view kindName(simdjson::dom::element e) {
  switch (e.type()) {
  case element_type::NULL_VALUE: return "null";
  case element_type::OBJECT: return "an object";
  case element_type::ARRAY: return "an array";
  case element_type::STRING: return "a string";
  case element_type::BOOL: return "a boolean";
  case element_type::DOUBLE: return "a float";
  case element_type::INT64:
  case element_type::UINT64: return "an integer";
  }
  return "something else";
}

/// Why `text` is not JSON. simdjson's errors carry no position, so the
/// (rare) invalid document is read once more by nlohmann's parser, whose
/// message names the line and column; a document only simdjson refuses (an
/// integer past 64 bits, nesting past 1024 levels) gets simdjson's reason.
std::string invalidJson(std::string_view text, simdjson::error_code code) {
  try {
    const nlohmann::json again = nlohmann::json::parse(text); // throws where simdjson stopped, or near it
    (void)again;
  } catch (const nlohmann::json::exception &e) {
    std::string m = e.what(); // without its `[json.exception.parse_error.101] ` prefix
    if (size_t close = m.find("] "); m.starts_with("[json.exception.") && close != std::string::npos)
      m = m.substr(close + 2);
    return m;
  }
  return fmt::format("parse error: {}", simdjson::error_message(code));
}

/// `text` with Python's non-finite float tokens (`NaN`, `Infinity`, `-Infinity`,
/// which json.dumps writes by default and JSON lacks) quoted outside strings, as
/// Field::floating reads them; nullopt when it has none. torch.export of 2.6
/// writes them so (a `masked_fill(-inf)` in serialized_exported_program.json);
/// 2.14 writes the strings itself.
std::optional<std::string> quoteNonFiniteFloats(std::string_view text) {
  auto tokenAt = [text](size_t i) -> std::string_view {
    for (std::string_view token : {"-Infinity", "Infinity", "NaN"})
      if (text.substr(i).starts_with(token)) return token;
    return {};
  };
  std::string out;
  bool inString = false, changed = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (inString) {
      if (c == '\\' && i + 1 < text.size()) out += text[i++]; // an escape: the next byte is no quote
      else if (c == '"') inString = false;
      out += text[i];
    } else if (std::string_view token = tokenAt(i); !token.empty()) {
      out.append("\"").append(token).append("\"");
      i += token.size() - 1;
      changed = true;
    } else {
      inString = c == '"';
      out += c;
    }
  }
  if (!changed) return std::nullopt;
  return out;
}

/// A parser kept between documents read on this thread: its buffers (about 10x
/// the largest document) are allocated, and their pages touched, once, not per
/// read. One over kKeepBytes of capacity is freed with its document.
thread_local std::unique_ptr<simdjson::dom::parser> spareParser;
constexpr size_t kKeepBytes = size_t{16} << 20;

} // namespace

Document::Document()
    : parser_(spareParser ? std::move(spareParser) : std::make_unique<simdjson::dom::parser>()) {}

Document::~Document() {
  if (!spareParser && parser_->capacity() <= kKeepBytes) spareParser = std::move(parser_);
}

bool Document::parse(std::string_view text, std::string &error, bool padded) {
  auto r = parser_->parse(text.data(), text.size(), /*realloc_if_needed=*/!padded);
  if (r.error()) {
    std::optional<std::string> quoted = quoteNonFiniteFloats(text);
    if (quoted) r = parser_->parse(quoted->data(), quoted->size(), /*realloc_if_needed=*/true);
    if (r.error()) {
      error = invalidJson(quoted ? std::string_view(*quoted) : text, r.error());
      return false;
    }
  }
  root_ = r.value_unsafe();
  return true;
}

Field Document::root() { return Field(root_, this, nullptr); }

std::string Field::path() const {
  std::vector<const Document::Step *> chain;
  for (const Document::Step *s = step_; s; s = s->parent) chain.push_back(s);
  std::string p;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    if ((*it)->index != Document::kKey) p += fmt::format("[{}]", (*it)->index);
    else p += (p.empty() ? "" : ".") + std::string((*it)->key);
  }
  return p;
}

Field Field::operator[](std::string_view key) const {
  for (auto [k, v] : object())
    if (k == key) return child(v, k, Document::kKey);
  fail(fmt::format("missing field '{}'", key));
}

std::optional<Field> Field::optional(std::string_view key) const {
  for (auto [k, v] : object())
    if (k == key) return v.is_null() ? std::nullopt : std::optional<Field>(child(v, k, Document::kKey));
  return std::nullopt;
}

bool Field::has(std::string_view key) const { return optional(key).has_value(); }

Field Field::at(size_t i) const {
  simdjson::dom::array a = array();
  auto e = a.at(i);
  if (e.error()) fail(fmt::format("expected at least {} elements, found {}", i + 1, a.size()));
  return child(e.value_unsafe(), {}, i);
}

simdjson::dom::array Field::array() const {
  if (!e_.is_array()) fail(fmt::format("expected an array, found {}", kindName(e_)));
  return e_.get_array().value_unsafe();
}

simdjson::dom::object Field::object() const {
  if (!e_.is_object()) fail(fmt::format("expected an object, found {}", kindName(e_)));
  return e_.get_object().value_unsafe();
}

std::string_view Field::str() const {
  if (!e_.is_string()) fail(fmt::format("expected a string, found {}", kindName(e_)));
  return e_.get_string().value_unsafe();
}

int64_t Field::integer() const {
  if (e_.is_uint64() && !e_.is_int64()) // simdjson types an integer uint64 only past int64's range
    fail(fmt::format("integer {} does not fit in int64", e_.get_uint64().value_unsafe()));
  if (!e_.is_int64()) fail(fmt::format("expected an integer, found {}", kindName(e_)));
  return e_.get_int64().value_unsafe();
}

bool Field::boolean() const {
  if (!e_.is_bool()) fail(fmt::format("expected a boolean, found {}", kindName(e_)));
  return e_.get_bool().value_unsafe();
}

double Field::floating() const {
  if (e_.is_number()) return e_.get_double().value_unsafe();
  if (e_.is_string()) {
    std::string_view s = e_.get_string().value_unsafe();
    if (s == "Infinity") return std::numeric_limits<double>::infinity();
    if (s == "-Infinity") return -std::numeric_limits<double>::infinity();
    if (s == "NaN") return std::numeric_limits<double>::quiet_NaN();
  }
  fail(fmt::format("expected a float (a number, \"Infinity\", \"-Infinity\" or \"NaN\"), found {}", kindName(e_)));
}

std::string_view Field::unionTag() const {
  simdjson::dom::object o = object();
  if (o.size() != 1) fail(fmt::format("expected a tagged union (an object of one member), found {} members", o.size()));
  return (*o.begin()).key;
}

Field Field::unionValue() const {
  simdjson::dom::object o = object();
  if (o.size() != 1) fail(fmt::format("expected a tagged union (an object of one member), found {} members", o.size()));
  auto kv = *o.begin();
  return child(kv.value, kv.key, Document::kKey);
}

} // namespace dtf::pt2
