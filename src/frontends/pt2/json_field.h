//===- frontends/pt2/json_field.h - schema'd reads of a JSON tree -*- C++ -*-===//
//
// A Field is a JSON node plus where it sits (`graph_module.graph.nodes[3]`),
// so a value that does not match torch.export's schema is refused with the
// path of the field at fault. The path is a shared chain of steps, turned
// into text only on error; a Field may outlive the Field it came from.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace dtf::pt2 {

/// The archive's JSON does not match the serialized ExportedProgram schema.
/// `field` is the path of the field at fault (empty: the whole document).
struct FormatError : std::runtime_error {
  FormatError(std::string field, const std::string &message)
      : std::runtime_error(message), field(std::move(field)) {}
  std::string field;
};

class Field {
public:
  /// The root of a document (its path is empty).
  explicit Field(const nlohmann::json &j) : j_(&j) {}

  const nlohmann::json &json() const { return *j_; }
  std::string path() const;
  [[noreturn]] void fail(const std::string &message) const { throw FormatError(path(), message); }

  /// A member that must be present.
  Field operator[](std::string_view key) const;
  /// A member that may be absent or null (nullopt then).
  std::optional<Field> optional(std::string_view key) const;
  bool has(std::string_view key) const;
  /// Element `i` of an array (checked).
  Field at(size_t i) const;
  /// A member of this object by its key (for iteration over objects).
  Field member(std::string_view key, const nlohmann::json &value) const { return child(value, key); }

  const nlohmann::json &array() const;   ///< this node, which must be an array
  const nlohmann::json &object() const;  ///< this node, which must be an object
  size_t size() const { return array().size(); }
  const std::string &str() const;
  int64_t integer() const;
  bool boolean() const;
  /// A float as the serializer writes it: a number, or "Infinity", "-Infinity", "NaN".
  double floating() const;

  /// A tagged union (`{"as_tensor": {...}}`): exactly one member; its tag.
  std::string_view unionTag() const;
  /// The union's value (after unionTag()).
  Field unionValue() const;

private:
  struct Step {
    std::shared_ptr<const Step> parent;
    std::string key; ///< an object member's key, or empty for an array index
    size_t index = 0;
  };
  Field(const nlohmann::json &j, std::shared_ptr<const Step> step) : j_(&j), step_(std::move(step)) {}
  Field child(const nlohmann::json &j, std::string_view key) const;
  Field child(const nlohmann::json &j, size_t index) const;

  const nlohmann::json *j_;
  std::shared_ptr<const Step> step_; ///< null at the root
};

} // namespace dtf::pt2
