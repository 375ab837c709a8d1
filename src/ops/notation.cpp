#include "ops/notation.h"
#include "shape/sym_expr.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <charconv>
#include <fmt/format.h>

namespace dtf {
namespace {

using K = SchemaType::Kind;

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

/// A value as quoted in an error message: long values are shortened.
std::string quoted(std::string_view s) {
  if (s.size() <= 80) return std::string(s);
  return fmt::format("{}...{} ({} characters)", s.substr(0, 40), s.substr(s.size() - 20), s.size());
}

NotationResult fail(std::string msg) { return {std::nullopt, std::move(msg)}; }
NotationResult ok(Value v) { return {std::move(v), {}}; }

/// `123`, `-45`: an integer literal (any size).
bool isIntegerText(std::string_view s) {
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

/// An integer literal beyond int64 (a Python int; c10 holds int64 only).
bool bigIntegerLiteral(std::string_view s) {
  if (!isIntegerText(s)) return false;
  int64_t i;
  return std::from_chars(s.data() + (s[0] == '+'), s.data() + s.size(), i).ec == std::errc::result_out_of_range;
}

/// PyTorch's refusal of such an int where it binds an int64 (a Scalar, an
/// int, a tensor operand): RuntimeError from THPUtils_unpackLong.
NotationResult overflowsInt64(std::string_view s) {
  NotationResult r = fail(fmt::format("Overflow when unpacking long ({})", quoted(s)));
  r.pytorchRaises = true;
  return r;
}

std::optional<Value> numberLiteral(std::string_view s) {
  if (s == "True") return Value::boolean(true);
  if (s == "False") return Value::boolean(false);
  if (s.empty()) return std::nullopt;
  if (s.back() == 'j') { // imaginary literal `2.5j`, or `a+bj`
    std::string_view body = s.substr(0, s.size() - 1);
    // Python needs digits before the `j` (`j`, `1+j` are names, not numbers).
    if (body.empty() || (!std::isdigit(static_cast<unsigned char>(body.back())) && body.back() != '.'))
      return std::nullopt;
    size_t split = body.find_last_of("+-");
    double re = 0, im = 1;
    std::string_view imText = body;
    if (split != std::string_view::npos && split > 0 && body[split - 1] != 'e') {
      std::string_view reText = body.substr(0, split);
      if (std::from_chars(reText.data(), reText.data() + reText.size(), re).ec != std::errc())
        return std::nullopt;
      imText = body.substr(body[split] == '+' ? split + 1 : split);
    }
    if (!imText.empty() && imText != "+" && imText != "-") {
      auto [p, e] = std::from_chars(imText.data(), imText.data() + imText.size(), im);
      if (e != std::errc() || p != imText.data() + imText.size()) return std::nullopt;
    } else if (imText == "-") {
      im = -1;
    }
    return Value::complexNumber(re, im);
  }
  int64_t i;
  auto [pi, ei] = std::from_chars(s.data(), s.data() + s.size(), i);
  if (ei == std::errc() && pi == s.data() + s.size()) return Value::integer(i);
  if (isIntegerText(s)) return std::nullopt; // beyond int64: see bigIntegerLiteral
  double d;
  auto [pd, ed] = std::from_chars(s.data(), s.data() + s.size(), d);
  if (pd == s.data() + s.size() && ed == std::errc::result_out_of_range)
    return Value::floating(std::strtod(std::string(s).c_str(), nullptr)); // Python: 1e309 is inf, 1e-400 is 0.0
  if (ed == std::errc() && pd == s.data() + s.size()) return Value::floating(d);
  if (s == "inf") return Value::floating(1e308 * 10);
  if (s == "-inf") return Value::floating(-1e308 * 10);
  if (s == "nan") return Value::number(NumKind::Float);
  return std::nullopt;
}

std::optional<NumKinds> numberWord(std::string_view s) {
  if (s == "bool") return NumKinds(NumKind::Bool);
  if (s == "int") return NumKinds(NumKind::Int);
  if (s == "float") return NumKinds(NumKind::Float);
  if (s == "complex") return NumKinds(NumKind::Complex);
  if (s == "number" || s == "Scalar") return NumKinds::all();
  return std::nullopt;
}

/// A dtype name of `types`' version (any version's when null); the error
/// says when the name belongs to another version.
std::optional<DType> dtypeNamed(std::string_view s, const DTypeSystem *types) {
  return types ? types->parse(s) : parseDType(s);
}

std::string unknownDType(std::string_view s, const DTypeSystem *types) {
  if (types && parseDType(s)) return fmt::format("unknown dtype '{}' in PyTorch {}", quoted(s), name(types->version()));
  return fmt::format("unknown dtype '{}'", quoted(s));
}

/// `float32:[2,s0,?]`: sizes as ints, `?` (unknown) or expressions over
/// size symbols (`2*s0 + 1`; a symbol is any size >= 0).
NotationResult sizesNotation(std::string_view s, std::string_view r, DTypeSet dts) {
  if (r.size() < 2 || r.back() != ']') return fail(fmt::format("'{}': sizes must be written [N, s0, ?, ...]", quoted(s)));
  std::string_view body = r.substr(1, r.size() - 2);
  std::vector<std::string_view> parts;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= body.size(); ++i) { // split at commas outside parentheses (`Max(s0, 2)`)
    if (i < body.size() && body[i] == '(') ++depth;
    if (i < body.size() && body[i] == ')') --depth;
    if (i == body.size() || (body[i] == ',' && depth == 0)) {
      parts.push_back(body.substr(start, i - start));
      start = i + 1;
    }
  }
  auto trim = [](std::string_view p) {
    while (!p.empty() && p.front() == ' ') p.remove_prefix(1);
    while (!p.empty() && p.back() == ' ') p.remove_suffix(1);
    return p;
  };
  if (parts.size() == 1 && trim(parts[0]).empty()) parts.clear(); // `[]`: 0-dim
  if (parts.size() > static_cast<size_t>(Rank::kMaxRank))
    return fail(fmt::format("'{}': rank {} exceeds the maximum {}", quoted(s), parts.size(), Rank::kMaxRank));
  Dims dims;
  for (std::string_view raw : parts) {
    std::string_view part = trim(raw);
    if (part.empty()) return fail(fmt::format("'{}': an empty size", quoted(s)));
    if (part == "?") {
      dims.push_back(Dim());
      continue;
    }
    try {
      SymExpr e = parseSymExpr(part);
      if (auto v = e.constant(); v && *v < 0) return fail(fmt::format("'{}': negative size {}", quoted(s), *v));
      dims.push_back(Dim(e));
    } catch (const std::invalid_argument &err) {
      return fail(fmt::format("'{}': {}", quoted(s), err.what()));
    }
  }
  return ok(Value::tensor(dts, Rank::exact(static_cast<int>(dims.size()))).withShape(std::move(dims)));
}

NotationResult tensorNotation(std::string_view s, const DTypeSystem *types) {
  std::string_view d = s, r;
  if (auto colon = s.find(':'); colon != std::string_view::npos) {
    d = s.substr(0, colon);
    r = s.substr(colon + 1);
  }
  DTypeSet dts;
  if (d == "?") dts = DTypeSet::all();
  else if (auto dt = dtypeNamed(d, types)) dts = *dt;
  else return fail(fmt::format("'{}': {}", quoted(s), unknownDType(d, types)));
  Rank rank = Rank::top();
  if (s.find(':') != std::string_view::npos && r.empty())
    return fail(fmt::format("'{}': rank must be written :rN or :r?", quoted(s)));
  if (r.starts_with('[')) return sizesNotation(s, r, dts);
  if (!r.empty()) {
    if (r.size() < 2 || r[0] != 'r')
      return fail(fmt::format("'{}': rank must be written :rN or :r?", quoted(s)));
    std::string_view n = r.substr(1);
    if (n == "?") rank = Rank::top();
    else if (n == "+") rank = Rank::atLeast1();
    else {
      int v;
      auto [p, e] = std::from_chars(n.data(), n.data() + n.size(), v);
      if (e != std::errc() || p != n.data() + n.size() || v < 0)
        return fail(fmt::format("'{}': bad rank '{}'", quoted(s), n));
      if (v > Rank::kMaxRank)
        return fail(fmt::format("'{}': rank {} exceeds the maximum {}", quoted(s), v, Rank::kMaxRank));
      rank = Rank::exact(v);
    }
  }
  return ok(Value::tensor(dts, rank));
}

/// Split a bracketed list body at top-level commas.
std::optional<std::vector<std::string_view>> splitList(std::string_view body) {
  std::vector<std::string_view> parts;
  int depth = 0;
  size_t start = 0;
  char quote = 0;
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (quote) { if (c == quote) quote = 0; continue; }
    if (c == '\'' || c == '"') quote = c;
    else if (c == '[' || c == '(') ++depth;
    else if (c == ']' || c == ')') { if (--depth < 0) return std::nullopt; }
    else if (c == ',' && depth == 0) { parts.push_back(trim(body.substr(start, i - start))); start = i + 1; }
  }
  if (depth != 0 || quote) return std::nullopt;
  std::string_view last = trim(body.substr(start));
  if (!last.empty() || !parts.empty()) parts.push_back(last);
  return parts;
}

} // namespace

namespace {

/// Lists nested deeper than this are refused (the parser recurses per level).
constexpr int kMaxNesting = 64;

NotationResult parseAt(std::string_view text, const SchemaType *expected, int depth, const DTypeSystem *types);

} // namespace

NotationResult parseNotation(std::string_view text, const SchemaType *expected, const DTypeSystem *types) {
  return parseAt(text, expected, 0, types);
}

namespace {

NotationResult parseAt(std::string_view text, const SchemaType *expected, int depth, const DTypeSystem *types) {
  std::string_view s = trim(text);
  if (s.empty()) return fail("empty value");
  if (depth > kMaxNesting) return fail(fmt::format("lists nested deeper than {} levels are refused", kMaxNesting));
  K kind = expected ? expected->kind : K::Any;

  if (s == "None") {
    if (expected && kind != K::Optional && kind != K::Any && kind != K::TypeVar)
      return fail(fmt::format("None given where {} is expected", expected->str()));
    return ok(Value::none());
  }
  if (kind == K::Optional) return parseAt(s, expected->inner(), depth, types);

  if (s.front() == '[' || s.front() == '(') {
    char close = s.front() == '[' ? ']' : ')';
    if (s.back() != close) return fail(fmt::format("'{}': unbalanced brackets", quoted(s)));
    if (expected && kind != K::List && kind != K::Tuple && kind != K::Any && kind != K::TypeVar)
      return fail(fmt::format("a list '{}' given where {} is expected", quoted(s), expected->str()));
    auto parts = splitList(s.substr(1, s.size() - 2));
    if (!parts) return fail(fmt::format("'{}': unbalanced brackets", quoted(s)));
    const SchemaType *elemType = expected && kind == K::List ? expected->inner() : nullptr;
    std::vector<Value> elems;
    for (size_t i = 0; i < parts->size(); ++i) {
      const SchemaType *et = elemType;
      if (expected && kind == K::Tuple && i < expected->children.size()) et = expected->children[i].get();
      auto e = parseAt((*parts)[i], et, depth + 1, types);
      if (!e.value && e.pytorchRaises && et && et->kind == K::Int) {
        // The argument parser's own message for an int list (1-based position):
        // an element beyond int64 is an int, a float or complex one its kind.
        std::string_view found = e.error.ends_with("not float") ? "float" : e.error.ends_with("not complex") ? "complex" : "int";
        e.error = fmt::format("must be tuple of ints, but found element of type {} at pos {}", found, i + 1);
        return e;
      }
      if (!e.value) return e;
      elems.push_back(*e.value);
    }
    return ok(s.front() == '(' ? Value::tuple(std::move(elems)) : Value::list(std::move(elems)));
  }
  if (s.front() == '\'' || s.front() == '"') {
    if (s.size() < 2 || s.back() != s.front()) return fail(fmt::format("'{}': unterminated string", quoted(s)));
    return ok(Value::string(std::string(s.substr(1, s.size() - 2))));
  }

  switch (kind) {
  case K::ScalarType: {
    if (auto d = dtypeNamed(s, types)) return ok(Value::dtypeCode(*d));
    if (auto lit = numberLiteral(s); lit && lit->intValue()) {
      auto d = fromC10Code(*lit->intValue());
      if (!d || (types && !types->names(*d))) return fail(fmt::format("'{}': not a dtype code", quoted(s)));
      return ok(*lit);
    }
    if (s == "?" || s == "int") return ok(Value::number(NumKind::Int));
    return fail(fmt::format("'{}': {}", quoted(s), unknownDType(s, types)));
  }
  case K::Str:
    return ok(s == "str" ? Value::unknownString() : Value::string(std::string(s)));
  case K::Device:
    return ok(s == "Device" ? Value::top() : Value::device(std::string(s)));
  case K::MemoryFormat: {
    // c10::MemoryFormat's codes, as TorchScript passes them (an int).
    static constexpr std::string_view kFormats[] = {"contiguous_format", "preserve_format", "channels_last",
                                                    "channels_last_3d"};
    for (size_t i = 0; i < std::size(kFormats); ++i)
      if (s == kFormats[i] || s == "torch." + std::string(kFormats[i])) return ok(Value::integer(static_cast<int64_t>(i)));
    if (auto lit = numberLiteral(s); lit && lit->intValue()) return ok(*lit);
    if (bigIntegerLiteral(s)) return overflowsInt64(s);
    return ok(Value::number(NumKind::Int));
  }
  case K::Layout:
    // Enum defaults such as `strided`: not dtype facts.
    return ok(Value::number(NumKind::Int));
  case K::Int:
  case K::Float:
  case K::Bool:
  case K::Complex:
  case K::Number: {
    if (auto w = numberWord(s)) return ok(Value::number(*w));
    if (bigIntegerLiteral(s)) {
      if (kind != K::Float && kind != K::Complex) return overflowsInt64(s);
      // Python converts an int into a float or complex argument: inf refused.
      double d = std::strtod(std::string(s).c_str(), nullptr);
      if (std::isinf(d)) {
        NotationResult r = fail(fmt::format("OverflowError: int too large to convert to float ({})", quoted(s)));
        r.pytorchRaises = true;
        return r;
      }
      return ok(kind == K::Float ? Value::floating(d) : Value::complexNumber(d, 0));
    }
    if (auto lit = numberLiteral(s)) {
      // TorchScript coerces an int where a float is expected.
      if (kind == K::Float && lit->numKind() == NumKind::Int)
        return ok(Value::floating(static_cast<double>(*lit->intValue())));
      // A float or complex where an int is expected: PyTorch refuses it when
      // binding (1.13's var(correction=1j): "Expected a value of type
      // 'Optional[int]' ... found type 'complex'"; Python's TypeError).
      if (kind == K::Int && (lit->numKind() == NumKind::Float || lit->numKind() == NumKind::Complex)) {
        NotationResult r = fail(fmt::format("must be int, not {}", lit->numKind() == NumKind::Float ? "float" : "complex"));
        r.pytorchRaises = true;
        return r;
      }
      return ok(*lit);
    }
    if (kind == K::Int) {
      // Reduction enum defaults in schemas: at::Reduction.
      if (s == "Mean") return ok(Value::integer(1));
      if (s == "Sum") return ok(Value::integer(2));
      if (auto d = dtypeNamed(s, types)) return ok(Value::dtypeCode(*d)); // `int? dtype=long`
      // A size expression (`s0`, `2*s0 + 1`): an int whose value is that size.
      try {
        return ok(Value::symInt(parseSymExpr(s)));
      } catch (const std::invalid_argument &) {
      }
    }
    return fail(fmt::format("'{}': expected a {} value", quoted(s), expected->str()));
  }
  case K::Tensor:
    if (numberWord(s) || numberLiteral(s) || bigIntegerLiteral(s))
      return fail(fmt::format("'{}': a number given where a Tensor is expected", quoted(s)));
    return tensorNotation(s, types);
  case K::List:
    if (auto w = numberWord(s); w && expected->inner() && expected->inner()->kind != K::Tensor)
      return ok(Value::listOf(Value::number(*w)));
    if (expected->inner()) {
      // A scalar where a list is expected (schema default `int[2] stride=1`).
      auto e = parseAt(s, expected->inner(), depth + 1, types);
      if ((e.value && e.value->isNumber()) || e.pytorchRaises) return e;
    }
    return fail(fmt::format("'{}': expected a list for {}", quoted(s), expected->str()));
  default:
    break;
  }
  // Untyped position: a number or a tensor.
  if (auto w = numberWord(s)) return ok(Value::number(*w));
  if (bigIntegerLiteral(s)) return overflowsInt64(s);
  if (auto lit = numberLiteral(s)) return ok(*lit);
  return tensorNotation(s, types);
}

} // namespace

} // namespace dtf
