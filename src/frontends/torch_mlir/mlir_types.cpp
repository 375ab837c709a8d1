#include "frontends/torch_mlir/mlir_types.h"
#include <charconv>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <memory>

namespace dtf::torch_mlir {
namespace {

using K = ir::TypeExpr::Kind;

/// Element types as torch-mlir's `getTypeForScalarType` writes them (facts
/// from torch-mlir's TorchTypes/TorchUpstream; si* / ui* signed-ness explicit, bool `i1`).
struct ElementName {
  std::string_view text;
  DType dtype;
};
constexpr ElementName kElements[] = {
    {"i1", DType::Bool},          {"ui8", DType::UInt8},        {"si8", DType::Int8},
    {"si16", DType::Int16},       {"si32", DType::Int32},       {"si64", DType::Int64},
    {"ui16", DType::UInt16},      {"ui32", DType::UInt32},      {"ui64", DType::UInt64},
    {"f16", DType::Float16},      {"bf16", DType::BFloat16},    {"f32", DType::Float32},
    {"f64", DType::Float64},      {"complex<f16>", DType::Complex32}, {"complex<f32>", DType::Complex64},
    {"complex<f64>", DType::Complex128}, {"f8E5M2", DType::Float8E5M2}, {"f8E4M3FN", DType::Float8E4M3FN},
    {"f8E5M2FNUZ", DType::Float8E5M2FNUZ}, {"f8E4M3FNUZ", DType::Float8E4M3FNUZ},
    {"f8E8M0FNU", DType::Float8E8M0FNU},
    // quantized: torch-mlir's own types (quint4x2 and quint2x4 have none)
    {"!torch.qint8", DType::QInt8},     {"!torch.quint8", DType::QUInt8},   {"!torch.qint32", DType::QInt32},
};

bool nameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$'; }

/// Recursive descent over squeezed text; `s` is consumed. Null on malformed text.
class TypeParser {
public:
  explicit TypeParser(std::string_view s) : s_(s) {}
  std::shared_ptr<ir::TypeExpr> type(bool inner) {
    if (++depth_ > 100) return nullptr;
    auto t = std::make_shared<ir::TypeExpr>();
    size_t begin = pos_;
    bool torch = false;
    if (take("!torch.")) torch = true;
    else if (!inner && peek() == '!') return opaque(t, begin);
    else if (peek() == '(') return opaque(t, begin); // a function type, a tuple of builtin types
    torch = torch || inner;
    std::string_view name = ident();
    if (name.empty()) return nullptr;
    if (!torch) return opaque(t, begin);
    if (name == "vtensor" || name == "tensor") {
      t->kind = K::Tensor;
      if (take("<")) {
        if (take("*")) {
        } else if (take("[")) {
          int rank = 0;
          while (!take("]")) {
            size_t start = pos_;
            if (!take("?")) {
              bool negative = take("-");
              while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
              if (pos_ == start) return nullptr;
              std::string_view digits = s_.substr(start, pos_ - start);
              if (rank < 32) (digits == "1" ? t->unitDims.ones : t->unitDims.others) |= 1u << rank;
              int64_t n = -1;
              auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
              t->dims.push_back(!negative && ec == std::errc() && end == digits.data() + digits.size() ? Dim(n) : Dim());
            } else {
              t->dims.push_back(Dim());
            }
            ++rank;
            if (peek() != ']' && !take(",")) return nullptr;
          }
          t->rank = rank;
        } else {
          return nullptr;
        }
        if (!take(",")) return nullptr;
        size_t e = pos_;
        if (!skipBalancedUntilClose()) return nullptr;
        t->dtype = elementDType(s_.substr(e, pos_ - e));
        // A sparse encoding (`<[64,64],f32,#CSR>`, torch-mlir's sparse tensors): the dtype is the element's.
        if (take(",") && !skipBalancedUntilClose(false)) return nullptr;
        if (!take(">")) return nullptr;
      }
    } else if (name == "int") t->kind = K::Int;
    else if (name == "float") t->kind = K::Float;
    else if (name == "bool") t->kind = K::Bool;
    else if (name == "number") t->kind = K::Number;
    else if (name == "str") t->kind = K::Str;
    else if (name == "none") t->kind = K::None;
    else if (name == "Device") t->kind = K::Device;
    else if (name == "list" || name == "optional" || name == "tuple") {
      t->kind = name == "list" ? K::List : name == "optional" ? K::Optional : K::Tuple;
      if (!take("<")) return nullptr;
      while (!take(">")) {
        auto e = type(true);
        if (!e) return nullptr;
        t->elems.push_back(std::move(e));
        if (peek() != '>' && !take(",")) return nullptr;
      }
      if (t->kind != K::Tuple && t->elems.size() != 1) return nullptr;
    } else {
      // union, dict, Generator, any, nn.Module<"...">, LinearParams, qint8 ...: opaque to the analysis.
      if (take("<")) {
        if (!skipBalancedUntilClose(false) || !take(">")) return nullptr;
      }
    }
    --depth_;
    t->text = std::string(s_.substr(begin, pos_ - begin));
    return t;
  }
  bool atEnd() const { return pos_ == s_.size(); }

private:
  char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  bool take(std::string_view p) {
    if (s_.substr(pos_, p.size()) != p) return false;
    pos_ += p.size();
    return true;
  }
  std::string_view ident() {
    size_t b = pos_;
    while (pos_ < s_.size() && nameChar(s_[pos_])) ++pos_;
    return s_.substr(b, pos_ - b);
  }
  /// Up to (not past) the '>' closing the current level (or a ',' at it, with `atComma`), strings skipped.
  bool skipBalancedUntilClose(bool atComma = true) {
    int depth = 0;
    while (pos_ < s_.size()) {
      char c = s_[pos_];
      if (c == '"') {
        size_t close = s_.find('"', pos_ + 1);
        if (close == std::string_view::npos) return false;
        pos_ = close + 1;
        continue;
      }
      if (depth == 0 && (c == '>' || (atComma && c == ','))) return true;
      if (c == '<' || c == '(' || c == '[' || c == '{') ++depth;
      if (c == '>' || c == ')' || c == ']' || c == '}') {
        if (depth == 0) return false;
        --depth;
      }
      ++pos_;
    }
    return false;
  }
  std::shared_ptr<ir::TypeExpr> opaque(std::shared_ptr<ir::TypeExpr> t, size_t begin) {
    // A builtin or other dialect's type (i64, tensor<2xf32>, !foo.bar<...>): the rest of this level.
    int depth = 0;
    while (pos_ < s_.size()) {
      char c = s_[pos_];
      if (depth == 0 && (c == ',' || c == '>')) break;
      if (c == '<' || c == '(' || c == '[' || c == '{') ++depth;
      if (c == '>' || c == ')' || c == ']' || c == '}') --depth;
      if (c == '-' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '>') ++pos_; // `->` of a function type
      ++pos_;
    }
    --depth_;
    t->kind = K::Other;
    t->text = std::string(s_.substr(begin, pos_ - begin));
    return t;
  }

  std::string_view s_;
  size_t pos_ = 0;
  int depth_ = 0;
};

} // namespace

std::string squeeze(std::string_view written) {
  std::string out;
  out.reserve(written.size());
  bool quoted = false;
  for (char c : written) {
    if (c == '"') quoted = !quoted;
    if (!quoted && (c == ' ' || c == '\t' || c == '\n' || c == '\r')) continue;
    out += c;
  }
  return out;
}

bool sameType(std::string_view a, std::string_view b) {
  // The common prefix, eight bytes at a time: types are compared once or twice per use.
  const size_t n = std::min(a.size(), b.size());
  size_t k = 0;
  for (uint64_t x, y; k + 8 <= n; k += 8) {
    std::memcpy(&x, a.data() + k, 8);
    std::memcpy(&y, b.data() + k, 8);
    if (x != y) break;
  }
  while (k < n && a[k] == b[k]) ++k;
  if (k == a.size() && k == b.size()) return true;
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  // Where they part, neither at whitespace: their squeezed forms part there too.
  if ((k == a.size() || !space(a[k])) && (k == b.size() || !space(b[k]))) return false;
  size_t i = k, j = k;
  bool quoted = std::count(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(k), '"') % 2; // as squeeze: whitespace in strings counts
  while (true) {
    if (!quoted) {
      while (i < a.size() && space(a[i])) ++i;
      while (j < b.size() && space(b[j])) ++j;
    }
    if (i == a.size() || j == b.size()) return i == a.size() && j == b.size();
    if (a[i] != b[j]) return false;
    if (a[i] == '"') quoted = !quoted;
    ++i, ++j;
  }
}

ir::TypePtr parseType(std::string_view text) {
  std::string s = squeeze(text);
  if (s.empty()) return nullptr;
  TypeParser p(s);
  auto t = p.type(false);
  if (!t || !p.atEnd()) return nullptr;
  t->text = std::string(text); // as written
  ir::finishType(*t);
  return t;
}

std::optional<DType> elementDType(std::string_view elem) {
  for (const ElementName &e : kElements)
    if (e.text == elem) return e.dtype;
  return std::nullopt; // unk ...: a dtype the analysis does not model
}

std::string_view elementName(DType d) {
  for (const ElementName &e : kElements)
    if (e.dtype == d) return e.text;
  return {};
}

std::optional<TensorSpelling> tensorSpelling(std::string_view text) {
  std::string s = squeeze(text);
  TensorSpelling out;
  std::string_view rest;
  if (s.starts_with("!torch.vtensor")) rest = std::string_view(s).substr(14);
  else if (s.starts_with("!torch.tensor")) {
    rest = std::string_view(s).substr(13);
    out.valueSemantics = false;
  } else {
    return std::nullopt;
  }
  if (rest.empty()) return out;
  if (!rest.starts_with('<') || !rest.ends_with('>')) return std::nullopt;
  rest = rest.substr(1, rest.size() - 2);
  size_t comma = rest.starts_with('[') ? rest.find(']') + 1 : rest.find(',');
  if (comma == 0 || comma >= rest.size() || rest[comma] != ',') return std::nullopt;
  std::string_view sizes = rest.substr(0, comma), elem = rest.substr(comma + 1);
  if (elem.find(',') != std::string_view::npos) return std::nullopt; // an encoding after it: printed as written
  if (sizes != "*") out.sizes = std::string(sizes);
  if (elem != "unk") out.element = std::string(elem);
  return out;
}

namespace {
/// `[?,3]` with the sizes `v` knows as ints written in (a written size is kept: MLIR's type is
/// what the program states); `written` empty: `v`'s exact rank, `?` where no int is known. A
/// symbolic size stays `?` (the dialect has no spelling for it in a type).
std::string refinedSizes(std::string_view written, const Value &v) {
  std::string out = "[";
  size_t rank = written.empty() ? static_cast<size_t>(*v.rank().value()) : 0;
  if (!written.empty()) { // `[]`, `[?]`, `[2,?,3]`: no spaces (tensorSpelling squeezes them)
    std::string_view inner = written.substr(1, written.size() - 2);
    rank = inner.empty() ? 0 : static_cast<size_t>(std::count(inner.begin(), inner.end(), ',')) + 1;
    if (v.rank().isExact() && static_cast<size_t>(*v.rank().value()) != rank) return std::string(written);
    size_t i = 0;
    for (size_t pos = 0; pos <= inner.size() && !inner.empty(); ++i) {
      size_t comma = std::min(inner.find(',', pos), inner.size());
      std::string_view dim = inner.substr(pos, comma - pos);
      auto known = v.dimAt(static_cast<int>(i)).value();
      out += i ? "," : "";
      out += dim == "?" && known ? std::to_string(*known) : std::string(dim);
      pos = comma + 1;
    }
    return out + "]";
  }
  for (size_t i = 0; i < rank; ++i) {
    auto known = v.dimAt(static_cast<int>(i)).value();
    out += i ? "," : "";
    out += known ? std::to_string(*known) : "?";
  }
  return out + "]";
}
} // namespace

std::string refinedTypeText(std::string_view written, const Value &v) {
  if (!v.isTensor()) return std::string(written);
  auto d = v.dtype();
  if (!d || elementName(*d).empty()) return std::string(written); // only a known dtype refines
  auto spelling = tensorSpelling(written);
  if (!spelling) return std::string(written);
  std::string_view element = elementName(*d);
  std::string sizes = spelling->sizes ? refinedSizes(*spelling->sizes, v) : v.rank().isExact() ? refinedSizes("", v) : "*";
  if (spelling->element == element && (spelling->sizes ? sizes == *spelling->sizes : sizes == "*"))
    return std::string(written);
  std::string out = spelling->valueSemantics ? "!torch.vtensor<" : "!torch.tensor<";
  out.reserve(out.size() + sizes.size() + element.size() + 2);
  out.append(sizes).append(",").append(element).append(">");
  return out;
}

} // namespace dtf::torch_mlir
