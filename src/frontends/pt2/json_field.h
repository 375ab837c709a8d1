//===- frontends/pt2/json_field.h - schema'd reads of a JSON tree -*- C++ -*-===//
//
// A Field is a JSON node plus where it sits (`graph_module.graph.nodes[3]`),
// so a value that does not match torch.export's schema is refused with the
// path of the field at fault. The tree is simdjson's DOM (parsed once, at
// about a GB/s; nlohmann's tree took 30x longer on densenet121's 1.2 MB). The
// path is a chain of steps kept in the Document, turned into text only on
// error; a Field may outlive the Field it came from, not its Document.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace dtf::pt2 {

/// The archive's JSON does not match the serialized ExportedProgram schema.
/// `field` is the path of the field at fault (empty: the whole document).
struct FormatError : std::runtime_error {
  FormatError(std::string field, const std::string &message)
      : std::runtime_error(message), field(std::move(field)) {}
  std::string field;
};

class Field;

/// A parsed JSON document and the path steps of the Fields read from it.
class Document {
public:
  Document();
  ~Document();
  Document(const Document &) = delete;
  Document &operator=(const Document &) = delete;
  /// Parse `text`; on invalid JSON, false and `error` says why (with line and column).
  /// `padded`: simdjson::SIMDJSON_PADDING bytes past its end are readable, so it is not copied.
  bool parse(std::string_view text, std::string &error, bool padded = false);
  Field root();

private:
  friend class Field;
  struct Step {
    const Step *parent;
    std::string_view key; ///< an object member's key (a view of the document)
    size_t index;         ///< an array element's index, or kKey for a member
  };
  static constexpr size_t kKey = SIZE_MAX;
  /// A new step, in chunks of kChunk (a read of densenet121 makes ~10^5 steps:
  /// a std::deque's 512-byte blocks were a malloc per dozen).
  const Step *step(const Step *parent, std::string_view key, size_t index) {
    if (used_ == kChunk) {
      chunks_.emplace_back(new Step[kChunk]);
      used_ = 0;
    }
    Step &s = chunks_.back()[used_++];
    s = Step{parent, key, index};
    return &s;
  }
  static constexpr size_t kChunk = 4096;
  std::unique_ptr<simdjson::dom::parser> parser_; ///< the thread's spare one when there is one
  simdjson::dom::element root_;
  std::vector<std::unique_ptr<Step[]>> chunks_;
  size_t used_ = kChunk; ///< steps used in the last chunk
};

class Field {
public:
  using Element = simdjson::dom::element;

  Element json() const { return e_; }
  bool isInteger() const { return e_.is_int64() || e_.is_uint64(); }
  bool isString() const { return e_.is_string(); }
  bool isObject() const { return e_.is_object(); }
  std::string path() const;
  [[noreturn]] void fail(const std::string &message) const { throw FormatError(path(), message); }

  /// A member that must be present.
  Field operator[](std::string_view key) const;
  /// A member that may be absent or null (nullopt then).
  std::optional<Field> optional(std::string_view key) const;
  bool has(std::string_view key) const;
  /// Element `i` of an array (checked; linear in i: walk long arrays with items()).
  Field at(size_t i) const;
  /// A member of this object by its key (for iteration over objects).
  Field member(std::string_view key, Element value) const { return child(value, key, Document::kKey); }

  /// The elements of this node, which must be an array, in order: `for (Field e : f.items())`.
  class Items {
  public:
    struct iterator {
      simdjson::dom::array::iterator it;
      const Field *parent;
      size_t index;
      Field operator*() const { return parent->child(*it, {}, index); }
      iterator &operator++() { ++it; ++index; return *this; }
      bool operator!=(const iterator &o) const { return it != o.it; }
    };
    iterator begin() const { return {array_.begin(), parent_, 0}; }
    iterator end() const { return {array_.end(), parent_, 0}; }

  private:
    friend class Field;
    Items(simdjson::dom::array a, const Field *parent) : array_(a), parent_(parent) {}
    simdjson::dom::array array_;
    const Field *parent_;
  };
  Items items() const { return Items(array(), this); }

  simdjson::dom::array array() const;   ///< this node, which must be an array
  simdjson::dom::object object() const; ///< this node, which must be an object
  size_t size() const { return array().size(); }
  std::string_view str() const;
  int64_t integer() const;
  bool boolean() const;
  /// A float as the serializer writes it: a number, or "Infinity", "-Infinity", "NaN".
  double floating() const;

  /// A tagged union (`{"as_tensor": {...}}`): exactly one member; its tag.
  std::string_view unionTag() const;
  /// The union's value (after unionTag()).
  Field unionValue() const;

private:
  friend class Document;
  Field(Element e, Document *doc, const Document::Step *step) : e_(e), doc_(doc), step_(step) {}
  Field child(Element e, std::string_view key, size_t index) const {
    return Field(e, doc_, doc_->step(step_, key, index));
  }

  Element e_;
  Document *doc_;
  const Document::Step *step_; ///< null at the root
};

} // namespace dtf::pt2
