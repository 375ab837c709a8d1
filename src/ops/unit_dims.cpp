#include "ops/unit_dims.h"

#include "ops/shape_rules.h"

#include <vector>

namespace dtf {
namespace {

uint32_t lowBits(int n) { return n >= 32 ? ~0u : (uint32_t{1} << n) - 1; }

/// `bits << n` of 32 facts: 0 from n = 32 on (a 0-dim operand of a 32-dim
/// result; a 32-bit shift by 32 is undefined, found by fuzz_notation).
uint32_t shiftedUp(uint32_t bits, int n) { return n >= 32 ? 0 : bits << n; }

uint32_t insertBit(uint32_t bits, int at, bool set) {
  uint32_t low = bits & lowBits(at), high = at >= 31 ? 0 : (bits & ~lowBits(at)) << 1;
  return low | high | (set && at < 32 ? uint32_t{1} << at : 0);
}

uint32_t removeBit(uint32_t bits, int at) {
  uint32_t low = bits & lowBits(at), high = at >= 31 ? 0 : (bits >> 1) & ~lowBits(at);
  return low | high;
}

} // namespace

UnitDims insertUnitDim(UnitDims u, int at) { return {insertBit(u.ones, at, true), insertBit(u.others, at, false)}; }

UnitDims removeDim(UnitDims u, int at) { return {removeBit(u.ones, at), removeBit(u.others, at)}; }

/// `out` with the broadcast sizes of `names`, where every operand's rank is
/// exact and they broadcast to `out`'s rank (a mismatch is the rule's to
/// report: the sizes stay unknown).
/// The one tensor among `names` whose sizes every other sized one has too
/// (numbers, 0-dim tensors and None broadcast into anything); null when
/// none is sized or two differ. Most element-wise calls (`add_(x, y)` of a
/// residual block) take operands of one shape: their result shares it.
template <typename Names>
static const Value *commonSized(const OpCall &c, const Names &names) {
  const Value *sized = nullptr;
  for (const auto &n : names) {
    const Value &v = c.arg(n);
    if (v.isNone() || v.isNumber() || (v.isTensor() && v.rank() == Rank::exact(0))) continue;
    if (!v.hasKnownDims()) return nullptr;
    if (!sized) {
      sized = &v;
      continue;
    }
    if (v.rank() != sized->rank()) return nullptr;
    const int r = static_cast<int>(*v.rank().value());
    for (int i = 0; i < r; ++i)
      if (!(v.dimAt(i) == sized->dimAt(i))) return nullptr;
  }
  return sized;
}

template <typename Names>
static Value withBroadcastSizes(const OpCall &c, Value out, const Names &names) {
  if (const Value *same = commonSized(c, names)) // broadcasting equal sizes gives them back: shared, not rebuilt
    return same->rank() == out.rank() ? out.withShapeOf(*same) : out;
  std::vector<Dims> shapes;
  bool anyKnown = false;
  for (const auto &n : names) {
    const Value &v = c.arg(n);
    if (v.isNone()) continue;
    auto d = dimsOf(c, n);
    if (!d) return out;
    anyKnown |= v.hasKnownDims();
    shapes.push_back(std::move(*d));
  }
  if (!anyKnown) return out;
  Broadcast b = broadcastShapes(shapes);
  c.noteBroadcast(b.mismatch, b.guard); // infer reports them (a size-dependent error, a guard)
  if (!b.dims || b.dims->size() != static_cast<size_t>(*out.rank().value())) return out;
  return out.withShape(std::move(*b.dims));
}

template <typename Names>
static Value broadcastInto(const OpCall &c, Value out, const Names &names) {
  auto outRank = out.isTensor() ? out.rank().value() : std::nullopt;
  if (!outRank || *outRank == 0 || *outRank > 32) return out;
  // Right-aligned: a result dim is 1 when every operand having it has size 1,
  // and not 1 when some operand's is known not to be (broadcast or error).
  uint32_t allOnes = lowBits(*outRank), anyOther = 0;
  for (const auto &n : names) {
    const Value &v = c.arg(n);
    if (v.isNumber() || v.isNone()) continue;
    if (!v.isTensor()) return out;
    auto r = v.rank().value();
    if (!r || *r > *outRank) return out;
    int shift = *outRank - *r;
    UnitDims u = v.unitDims();
    allOnes &= shiftedUp(u.ones, shift) | lowBits(shift);
    anyOther |= shiftedUp(u.others, shift);
  }
  out = out.withUnitDims({allOnes & ~anyOther, anyOther});
  return withBroadcastSizes(c, std::move(out), names);
}

Value withBroadcastUnitDims(const OpCall &c, Value out, std::initializer_list<std::string_view> names) {
  return broadcastInto(c, std::move(out), names);
}

Value withBroadcastUnitDims(const OpCall &c, Value out, std::span<const std::string> names) {
  return broadcastInto(c, std::move(out), names);
}

RuleFn keepingShape(RuleFn fn, std::string of) {
  return [fn = std::move(fn), of = std::move(of)](const OpCall &c) -> RuleResult {
    RuleResult r = fn(c);
    if (!r.ok() || !c.has(of) || !c.arg(of).isTensor()) return r;
    const Value &self = c.arg(of);
    std::optional<RuleError> possible = r.possibleError();
    std::vector<Value> outs = r.takeOutputs();
    for (Value &o : outs) {
      if (!o.isTensor() || o.rank() != self.rank()) continue;
      o = o.withUnitDims(self.unitDims());
      if (self.hasKnownDims()) o = o.withShapeOf(self); // self's sizes shared, not copied
    }
    return possible ? RuleResult(std::move(outs), std::move(*possible)) : RuleResult(std::move(outs));
  };
}

} // namespace dtf
