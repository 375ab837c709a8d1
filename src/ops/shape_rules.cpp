#include "ops/shape_rules.h"

#include "ops/vocabulary.h"

#include <algorithm>
#include <fmt/format.h>

namespace dtf {

std::optional<Dims> dimsOf(const OpCall &c, std::string_view name) {
  const Value *vp = c.argIf(name);
  if (!vp) return std::nullopt;
  const Value &v = *vp;
  if (v.isNumber()) return Dims{};
  return v.shape();
}

std::optional<int64_t> intArg(const OpCall &c, std::string_view name) {
  const Value *v = c.argIf(name);
  return v ? v->intValue() : std::nullopt;
}

std::optional<bool> boolArg(const OpCall &c, std::string_view name) {
  const Value *vp = c.argIf(name);
  if (!vp) return std::nullopt;
  const Value &v = *vp;
  if (auto b = v.boolValue()) return b;
  if (auto i = v.intValue(); i && (*i == 0 || *i == 1)) return *i == 1;
  return std::nullopt;
}

std::optional<std::vector<int64_t>> intListArg(const OpCall &c, std::string_view name) {
  const Value *vp = c.argIf(name);
  if (!vp) return std::nullopt;
  const Value &v = *vp;
  if (auto i = v.intValue(); i && v.isNumber()) return std::vector<int64_t>{*i};
  if (!v.isList() || !v.lengthKnown()) return std::nullopt;
  std::vector<int64_t> out;
  out.reserve(v.elements().size()); // one allocation (conv's stride/padding/dilation: 16 calls per resnet18)
  for (const Value &e : v.elements()) {
    auto i = e.intValue();
    if (!i || e.numKind() == NumKind::Float) return std::nullopt;
    out.push_back(*i);
  }
  return out;
}

std::optional<Dims> sizeListArg(const OpCall &c, std::string_view name) {
  const Value *vp = c.argIf(name);
  if (!vp) return std::nullopt;
  const Value &v = *vp;
  if (auto x = v.intExpr()) return Dims{Dim(*x)};
  if (!v.isList() || !v.lengthKnown()) return std::nullopt;
  Dims out;
  out.reserve(v.elements().size());
  for (const Value &e : v.elements()) {
    auto x = e.intExpr();
    out.push_back(x ? Dim(*x) : Dim());
  }
  return out;
}

Dim broadcastDim(const Dim &a, const Dim &b) {
  if (a.isOne() == true) return b;
  if (b.isOne() == true) return a;
  DimsEqual eq = compareDims(a, b);
  if (eq == DimsEqual::Equal) return a;
  if (eq == DimsEqual::Differ) return Dim(); // raises (broadcastShapes reports it)
  // A dim known not to be 1 is the result: the other is 1 or equal to it
  // (or PyTorch raises, where torch.export would guard on their equality).
  if (b.known() && b.isOne() == false) return b;
  if (a.known() && a.isOne() == false) return a;
  return Dim();
}

Broadcast broadcastShapes(std::span<const Dims> shapes) {
  size_t rank = 0;
  for (const Dims &s : shapes) rank = std::max(rank, s.size());
  Dims out(rank, Dim(1));
  std::optional<std::string> guard;
  for (const Dims &s : shapes) {
    size_t shift = rank - s.size();
    for (size_t i = 0; i < s.size(); ++i) {
      const Dim &a = out[shift + i], &b = s[i];
      if (a.isOne() == false && b.isOne() == false && compareDims(a, b) == DimsEqual::Differ)
        return {std::nullopt, fmt::format("the size of tensor a ({}) must match the size of tensor b ({}) at "
                                          "non-singleton dimension {}",
                                          a.str(), b.str(), shift + i)};
      if (!guard && a.known() && b.known() && a.isOne() != true && b.isOne() != true &&
          compareDims(a, b) == DimsEqual::MayDiffer) {
        const bool aOne = a.isOne() != false, bOne = b.isOne() != false; // may be 1
        guard = fmt::format("{} == {}{}{} (broadcast at dim {})", a.str(), b.str(),
                            aOne ? fmt::format(" or {} == 1", a.str()) : "", bOne ? fmt::format(" or {} == 1", b.str()) : "",
                            shift + i);
      }
      out[shift + i] = broadcastDim(a, b);
    }
  }
  return {std::move(out), std::nullopt, std::move(guard)};
}

ShapeFn sameShapeAs(std::string_view arg, size_t outputs) {
  return [arg = std::string(arg), outputs](const OpCall &c) -> ShapeResult {
    auto d = dimsOf(c, arg);
    if (!d) return {};
    if (outputs == 1) return ShapeResult(std::move(*d)); // the common case: no second copy
    return std::vector<std::optional<Dims>>(outputs, *d);
  };
}

ShapeFn reductionOver(std::string_view dimArg, size_t outputs) {
  return [dimArg = std::string(dimArg), outputs](const OpCall &c) -> ShapeResult {
    auto self = dimsOf(c, "self");
    auto keep = c.has("keepdim") ? boolArg(c, "keepdim") : std::optional<bool>(false);
    if (!self || !keep) return {};
    const int rank = static_cast<int>(self->size());
    std::vector<bool> reduced(rank, false);
    const bool all = !c.has(dimArg) || c.arg(dimArg).isNone() ||
                     (c.arg(dimArg).isList() && c.arg(dimArg).lengthKnown() && c.arg(dimArg).elements().empty());
    if (all) {
      reduced.assign(rank, true);
    } else {
      auto dims = intListArg(c, dimArg);
      if (!dims) return {};
      for (int64_t d : *dims) {
        auto w = wrapDim(d, rank);
        if (!w) return {}; // out of range: the dtype rule's checks say so
        if (rank > 0) reduced[*w] = true;
      }
    }
    Dims out;
    for (int i = 0; i < rank; ++i) {
      if (!reduced[i]) out.push_back((*self)[i]);
      else if (*keep) out.push_back(Dim(1));
    }
    return std::vector<std::optional<Dims>>(outputs, out);
  };
}

//===--- Added for the loss, RNN, linalg, random and torchvision rules ---===//

Dim symIntArg(const OpCall &c, std::string_view name) {
  const Value *v = c.argIf(name);
  auto x = v ? v->intExpr() : std::nullopt;
  return x ? Dim(*x) : Dim();
}

std::optional<Dims> newTensorSizes(const OpCall &c, std::string_view arg) {
  auto sizes = sizeListArg(c, arg);
  if (!sizes) return std::nullopt;
  for (const Dim &d : *sizes)
    if (auto v = d.value(); v && *v < 0) return std::nullopt;
  return sizes;
}

std::optional<size_t> wrappedDimArg(const OpCall &c, std::string_view name, size_t rank) {
  auto d = intArg(c, name);
  if (!d) return std::nullopt;
  auto w = wrapDim(*d, static_cast<int>(rank));
  if (!w || (rank == 0 && *w != 0)) return std::nullopt;
  return static_cast<size_t>(*w);
}

ShapeResult repeatedShape(const Dims &d, size_t outputs) {
  return std::vector<std::optional<Dims>>(outputs, d);
}

} // namespace dtf

// --- Lists of pieces, padding and indexing (issue 35, shapes-index) ---
namespace dtf {

Value tensorsOfShapes(const std::vector<Dims> &shapes) {
  std::vector<Value> out;
  for (const Dims &d : shapes) out.push_back(Value::tensor(DTypeSet::all()).withShape(d));
  return Value::list(std::move(out));
}

Dims withDimAt(Dims dims, size_t at, Dim d) {
  if (at < dims.size()) dims[at] = std::move(d);
  return dims;
}

std::optional<DimsAndDim> dimsAndDim(const OpCall &c, std::string_view tensor, std::optional<int64_t> dim) {
  auto dims = dimsOf(c, tensor);
  if (!dims || dims->empty() || !dim) return std::nullopt;
  auto w = wrapDim(*dim, static_cast<int>(dims->size()));
  if (!w) return std::nullopt;
  return DimsAndDim{std::move(*dims), *w};
}

} // namespace dtf

// --- Broadcasting element-wise ops and in-place forms (issue 35, shapes-corpus) ---
namespace dtf {

namespace {
/// The sizes of `args` (None skipped); nullopt when one is unknown.
std::optional<std::vector<Dims>> argShapes(const OpCall &c, const std::vector<std::string> &args) {
  std::vector<Dims> shapes;
  for (const std::string &n : args) {
    if (!c.has(n) || c.arg(n).isNone()) continue;
    auto d = dimsOf(c, n);
    if (!d) return std::nullopt;
    shapes.push_back(std::move(*d));
  }
  return shapes;
}
} // namespace

ShapeFn broadcastOf(std::vector<std::string> args, size_t outputs) {
  return [args = std::move(args), outputs](const OpCall &c) -> ShapeResult {
    auto shapes = argShapes(c, args);
    if (!shapes || shapes->empty()) return {};
    Broadcast b = broadcastShapes(*shapes);
    if (b.mismatch) return c.semantic("{}", *b.mismatch);
    if (!b.dims) return {};
    return repeatedShape(*b.dims, outputs);
  };
}

ShapeFn inPlaceOf(std::vector<std::string> others) {
  others.insert(others.begin(), "self");
  return [args = std::move(others)](const OpCall &c) -> ShapeResult {
    auto shapes = argShapes(c, args);
    if (!shapes || shapes->empty()) return {};
    const Dims &self = shapes->front();
    Broadcast b = broadcastShapes(*shapes);
    if (b.mismatch) return c.semantic("{}", *b.mismatch);
    if (b.dims && b.dims->size() > self.size()) return {}; // raises: the dtype rule's rank check
    if (b.dims)
      for (size_t i = 0; i < self.size(); ++i)
        if (self[i].value() && (*b.dims)[i].value() && compareDims(self[i], (*b.dims)[i]) == DimsEqual::Differ)
          return c.semantic("output with shape {} doesn't match the broadcast shape {}", dimsText(self),
                            dimsText(*b.dims));
    return self;
  };
}

} // namespace dtf
