#include "frontends/pt2/json_field.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <vector>

namespace dtf::pt2 {
namespace {

std::string_view kindName(const nlohmann::json &j) {
  switch (j.type()) {
  case nlohmann::json::value_t::null: return "null";
  case nlohmann::json::value_t::object: return "an object";
  case nlohmann::json::value_t::array: return "an array";
  case nlohmann::json::value_t::string: return "a string";
  case nlohmann::json::value_t::boolean: return "a boolean";
  case nlohmann::json::value_t::number_float: return "a float";
  case nlohmann::json::value_t::number_integer:
  case nlohmann::json::value_t::number_unsigned: return "an integer";
  default: return "something else";
  }
}

} // namespace

std::string Field::path() const {
  std::vector<const Step *> chain;
  for (const Step *s = step_.get(); s; s = s->parent.get()) chain.push_back(s);
  std::string p;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    if ((*it)->key.empty()) p += fmt::format("[{}]", (*it)->index);
    else p += (p.empty() ? "" : ".") + (*it)->key;
  }
  return p;
}

Field Field::child(const nlohmann::json &j, std::string_view key) const {
  return Field(j, std::make_shared<const Step>(Step{step_, std::string(key), 0}));
}

Field Field::child(const nlohmann::json &j, size_t index) const {
  return Field(j, std::make_shared<const Step>(Step{step_, std::string(), index}));
}

Field Field::operator[](std::string_view key) const {
  const nlohmann::json &o = object();
  auto it = o.find(key);
  if (it == o.end()) fail(fmt::format("missing field '{}'", key));
  return child(*it, it.key());
}

std::optional<Field> Field::optional(std::string_view key) const {
  const nlohmann::json &o = object();
  auto it = o.find(key);
  if (it == o.end() || it->is_null()) return std::nullopt;
  return child(*it, it.key());
}

bool Field::has(std::string_view key) const {
  const nlohmann::json &o = object();
  auto it = o.find(key);
  return it != o.end() && !it->is_null();
}

Field Field::at(size_t i) const {
  const nlohmann::json &a = array();
  if (i >= a.size()) fail(fmt::format("expected at least {} elements, found {}", i + 1, a.size()));
  return child(a[i], i);
}

const nlohmann::json &Field::array() const {
  if (!j_->is_array()) fail(fmt::format("expected an array, found {}", kindName(*j_)));
  return *j_;
}

const nlohmann::json &Field::object() const {
  if (!j_->is_object()) fail(fmt::format("expected an object, found {}", kindName(*j_)));
  return *j_;
}

const std::string &Field::str() const {
  if (!j_->is_string()) fail(fmt::format("expected a string, found {}", kindName(*j_)));
  return j_->get_ref<const std::string &>();
}

int64_t Field::integer() const {
  if (j_->is_number_unsigned()) {
    uint64_t u = j_->get<uint64_t>();
    if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
      fail(fmt::format("integer {} does not fit in int64", u));
    return static_cast<int64_t>(u);
  }
  if (!j_->is_number_integer()) fail(fmt::format("expected an integer, found {}", kindName(*j_)));
  return j_->get<int64_t>();
}

bool Field::boolean() const {
  if (!j_->is_boolean()) fail(fmt::format("expected a boolean, found {}", kindName(*j_)));
  return j_->get<bool>();
}

double Field::floating() const {
  if (j_->is_number()) return j_->get<double>();
  if (j_->is_string()) {
    const std::string &s = j_->get_ref<const std::string &>();
    if (s == "Infinity") return std::numeric_limits<double>::infinity();
    if (s == "-Infinity") return -std::numeric_limits<double>::infinity();
    if (s == "NaN") return std::numeric_limits<double>::quiet_NaN();
  }
  fail(fmt::format("expected a float (a number, \"Infinity\", \"-Infinity\" or \"NaN\"), found {}", kindName(*j_)));
}

std::string_view Field::unionTag() const {
  const nlohmann::json &o = object();
  if (o.size() != 1) fail(fmt::format("expected a tagged union (an object of one member), found {} members", o.size()));
  return o.begin().key();
}

Field Field::unionValue() const {
  const nlohmann::json &o = object();
  if (o.size() != 1) fail(fmt::format("expected a tagged union (an object of one member), found {} members", o.size()));
  return child(o.begin().value(), o.begin().key());
}

} // namespace dtf::pt2
