//===- ops/families/elementwise_binary.cpp - promoting binary ops ---------===//
//
// Ops whose result is result_type(self, other), adjusted by PyTorch's
// ELEMENTWISE_TYPE_PROMOTION_KIND, with the dtype checks ATen applies.
//
//===----------------------------------------------------------------------===//
#include "ops/registry.h"
#include "ops/vocabulary.h"

namespace dtf {
namespace {

/// add/sub: alpha must not promote (float alpha with integral inputs and
/// complex alpha with real inputs raise); sub rejects bool.
RuleFn addLike(bool isSub) {
  return [isSub](const OpCall &c) -> RuleResult {
    DType r = promoteArgs(c, {"self", "other"});
    if (isSub && ((c.arg("self").isTensor() && c.dtype("self") == DType::Bool) ||
                  (c.arg("other").isTensor() && c.dtype("other") == DType::Bool) ||
                  (c.arg("other").isNumber() && c.arg("other").numKind() == NumKind::Bool)))
      return c.semantic("subtraction with a bool tensor is not supported (self {}, other {})",
                        c.arg("self").str(), c.arg("other").str());
    const Value &alpha = c.arg("alpha");
    NumKind ak = *alpha.numKind();
    if (!isComplex(r) && ak == NumKind::Complex)
      return c.semantic("complex alpha {} for a {} result", alpha.str(), name(r));
    if (isIntegral(r, true) && ak == NumKind::Float)
      return c.semantic("float alpha {} for an integral {} result", alpha.str(), name(r));
    Rank rank = broadcastRank({c.arg("self").rank(),
                               c.arg("other").isTensor() ? c.arg("other").rank() : Rank::exact(0)});
    return tensorOf(r, rank);
  };
}

} // namespace

void registerElementwiseBinary(Registry &r) {
  r.add("aten::add.Tensor", "elementwise.binary", addLike(false));
  r.add("aten::sub.Tensor", "elementwise.binary", addLike(true));
}

} // namespace dtf
