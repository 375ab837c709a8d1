//===- ops/families/comparison_logical.cpp - comparisons, logical, bitwise -===//
//
// Comparisons and logical ops compute in the promoted dtype and return bool
// (ordering comparisons have no complex kernel). Bitwise ops keep the promoted
// dtype and need integers (shifts: not bool). In-place comparisons/logical ops
// write into self whatever its dtype; in-place bitwise ops need the promoted
// dtype to be castable to self. Measured on 1.13 CPU + meta for every dtype at
// rank 0 and 1 and every Python number kind.
//
//===----------------------------------------------------------------------===//
#include "ops/registry.h"
#include "ops/shape_rules.h"
#include "ops/may_raise.h"
#include "ops/unit_dims.h"
#include "ops/vocabulary.h"

namespace dtf {
namespace {

enum Reject : unsigned { kNone = 0, kBool = 1, kInt = 2, kFloat = 4, kComplex = 8 };

bool rejected(unsigned mask, DType d) {
  return ((mask & kBool) && isBool(d)) || ((mask & kInt) && isIntegral(d, false)) ||
         ((mask & kFloat) && isFloating(d)) || ((mask & kComplex) && isComplex(d));
}

/// Promote (self, other); reject classes of the promoted dtype; result is
/// `out` (or the promoted dtype when `out` is empty).
RuleFn checked(unsigned reject, std::optional<DType> out) {
  return [reject, out](const OpCall &c) -> RuleResult {
    DType p = promoteArgs(c, {"self", "other"});
    if (rejected(reject, p))
      return c.semantic("not supported for {} (self {}, other {})", name(p), c.arg("self").str(),
                        c.arg("other").str());
    return withBroadcastUnitDims(c, tensorOf(out ? *out : p, broadcastArgs(c, {"self", "other"})), {"self", "other"});
  };
}

/// isclose: identical dtypes, result bool.
RuleResult isclose(const OpCall &c) {
  DType a = c.dtype("self"), b = c.dtype("other");
  if (a != b) return c.semantic("self ({}) and other ({}) must have the same dtype", name(a), name(b));
  return withBroadcastUnitDims(c, tensorOf(DType::Bool, broadcastArgs(c, {"self", "other"})), {"self", "other"});
}

/// 2.14's isin sorts once test_elements has at least 10 * numel(elements) ^
/// 0.145 elements (numpy's heuristic), concatenating both: that promotion is
/// c10::promoteTypes without result_type's tiers, and raises for a uint16
/// with an int32 (a 0-dim uint16 with int32 test elements takes the other
/// path, comparing in int32). Sizes are unknown here, so where only the
/// untiered promotion raises, the call may raise: its answer is left unknown
/// with that error possible (measured on 2.14.1: uint16:r0 with 3 int32s
/// runs, with 12 raises). A number element is wrapped first (an int as int64).
std::optional<RuleError> sortingPathPromotion(const OpCall &c, const Value &e, const Value &t) {
  if (!t.isTensor()) return std::nullopt; // one test element: never sorted
  DType ed = e.isTensor() ? *e.dtype() : e.numKind() == NumKind::Int ? DType::Int64 : DType::Float64;
  try {
    (void)c.promote(ed, *t.dtype());
  } catch (const PromotionError &err) {
    return c.error(ErrorKind::ValueDependent, "{} (raised when test_elements is large enough to be sorted)", err.what());
  }
  return std::nullopt;
}

/// isin(elements, test_elements) and its Scalar forms: a bool result shaped
/// like `elements` (0-dim for a number). Bool, BFloat16 and complex operands
/// are unsupported (measured: ComplexHalf elements with a number are
/// accepted); two tensors are compared in their promoted dtype, which has no
/// Half kernel, and a number looked up in a Half tensor neither.
/// isin: a bool of the elements' shape. 1.13 refuses bfloat16 and has no
/// float16 kernel; 2.14 takes both (scripts/probes/lerp_isin.py).
RuleFn isinRule(std::string elemArg, std::string testArg, bool halfTypes = false) {
  return [=](const OpCall &c) -> RuleResult {
    const Value &e = c.arg(elemArg), &t = c.arg(testArg);
    for (const Value *v : {&e, &t}) {
      if (v->isNumber()) {
        NumKind k = *v->numKind();
        if (k == NumKind::Bool || k == NumKind::Complex)
          return c.semantic("unsupported input type encountered for isin(): a {} number", name(k));
        continue;
      }
      DType d = *v->dtype();
      // complex32 elements (2.14: bcomplex32 too) against a number.
      bool complexOk = (d == DType::Complex32 || (halfTypes && d == DType::BComplex32)) && v == &e && t.isNumber();
      if (d == DType::Bool || (!halfTypes && d == DType::BFloat16) || (isComplex(d) && !complexOk))
        return c.semantic("unsupported input type encountered for isin(): {}", name(d));
    }
    // The elements and the test elements are compared in their promoted
    // type: a promotion that raises (2.14's uint16, float8) refuses the call.
    (void)promoteArgs(c, {elemArg, testArg});
    const Rank rank = e.isTensor() ? e.rank() : Rank::exact(0);
    if (halfTypes) {
      if (auto caveat = sortingPathPromotion(c, e, t)) return mayRaise({Value::tensor(DTypeSet::all(), rank)}, *caveat);
      return tensorOf(DType::Bool, rank);
    }
    if (t.isTensor() && *t.dtype() == DType::Float16 && (e.isNumber() || c.promote(*e.dtype(), DType::Float16) == DType::Float16))
      return c.missingKernel("\"isin_default_cpu\" not implemented for Half");
    if (e.isTensor() && t.isTensor() && c.promote(*e.dtype(), *t.dtype()) == DType::Float16)
      return c.missingKernel("\"isin_default_cpu\" not implemented for Half");
    return tensorOf(DType::Bool, rank);
  };
}

} // namespace

void registerComparisonLogical(Registry &r) {
  auto reg = [&](const std::string &key, const std::string &family, RuleFn f,
                 const std::string &inKey, bool castCheck) {
    r.add(key, family, f);
    if (!inKey.empty()) r.add(inKey, family, inPlace(f, {{"other"}, castCheck}));
  };

  // Comparisons: eq/ne accept complex, ordering comparisons do not.
  struct Cmp { const char *key, *inKey; bool ordering; };
  for (Cmp cmp : {Cmp{"aten::eq.Tensor", "aten::eq_.Tensor", false},
                  Cmp{"aten::eq.Scalar", "aten::eq_.Scalar", false},
                  Cmp{"aten::ne.Tensor", "aten::ne_.Tensor", false},
                  Cmp{"aten::ne.Scalar", "aten::ne_.Scalar", false},
                  Cmp{"aten::not_equal.Tensor", "aten::not_equal_.Tensor", false},
                  Cmp{"aten::not_equal.Scalar", "aten::not_equal_.Scalar", false},
                  Cmp{"aten::lt.Tensor", "aten::lt_.Tensor", true},
                  Cmp{"aten::lt.Scalar", "aten::lt_.Scalar", true},
                  Cmp{"aten::le.Tensor", "aten::le_.Tensor", true},
                  Cmp{"aten::le.Scalar", "aten::le_.Scalar", true},
                  Cmp{"aten::gt.Tensor", "aten::gt_.Tensor", true},
                  Cmp{"aten::gt.Scalar", "aten::gt_.Scalar", true},
                  Cmp{"aten::ge.Tensor", "aten::ge_.Tensor", true},
                  Cmp{"aten::ge.Scalar", "aten::ge_.Scalar", true},
                  Cmp{"aten::less.Tensor", "aten::less_.Tensor", true},
                  Cmp{"aten::less.Scalar", "aten::less_.Scalar", true},
                  Cmp{"aten::less_equal.Tensor", "aten::less_equal_.Tensor", true},
                  Cmp{"aten::less_equal.Scalar", "aten::less_equal_.Scalar", true},
                  Cmp{"aten::greater.Tensor", "aten::greater_.Tensor", true},
                  Cmp{"aten::greater.Scalar", "aten::greater_.Scalar", true},
                  Cmp{"aten::greater_equal.Tensor", "aten::greater_equal_.Tensor", true},
                  Cmp{"aten::greater_equal.Scalar", "aten::greater_equal_.Scalar", true}})
    reg(cmp.key, "comparison", checked(cmp.ordering ? kComplex : kNone, DType::Bool), cmp.inKey,
        /*castCheck=*/false);

  // Logical: any dtypes, bool result.
  for (auto [key, inKey] : {std::pair{"aten::logical_and", "aten::logical_and_"},
                            std::pair{"aten::logical_or", "aten::logical_or_"},
                            std::pair{"aten::logical_xor", "aten::logical_xor_"}})
    reg(key, "logical", checked(kNone, DType::Bool), inKey, /*castCheck=*/false);

  r.add("aten::isclose", "comparison", isclose);
  for (auto [scope, halfTypes] : {std::pair{r.since(TorchVersion::V1_13), false},
                                  std::pair{r.since(TorchVersion::V2_6), true}}) {
    scope.add("aten::isin.Tensor_Tensor", "comparison", isinRule("elements", "test_elements", halfTypes))
        .sample("elements", "sweep[2,2]").sample("test_elements", "sweep[3]")
        .variant({{"elements", "sweep[2]"}, {"test_elements", "sweep![12]"}});
    scope.add("aten::isin.Tensor_Scalar", "comparison", isinRule("elements", "test_element", halfTypes))
        .sample("elements", "sweep[2,2]");
    scope.add("aten::isin.Scalar_Tensor", "comparison", isinRule("element", "test_elements", halfTypes))
        .sample("test_elements", "sweep[3]").variant({{"test_elements", "sweep![12]"}});
  }

  // Bitwise and/or/xor: bool or integers.
  const unsigned intOrBool = kFloat | kComplex;
  // (each key with its in-place key; the Scalar_Tensor forms have none)
  const std::pair<const char *, const char *> bitwiseKeys[] = {
      {"aten::bitwise_and.Tensor", "aten::bitwise_and_.Tensor"},
      {"aten::bitwise_and.Scalar", "aten::bitwise_and_.Scalar"}, {"aten::bitwise_and.Scalar_Tensor", ""},
      {"aten::__and__.Tensor", "aten::__iand__.Tensor"}, {"aten::__and__.Scalar", "aten::__iand__.Scalar"},
      {"aten::bitwise_or.Tensor", "aten::bitwise_or_.Tensor"},
      {"aten::bitwise_or.Scalar", "aten::bitwise_or_.Scalar"}, {"aten::bitwise_or.Scalar_Tensor", ""},
      {"aten::__or__.Tensor", "aten::__ior__.Tensor"}, {"aten::__or__.Scalar", "aten::__ior__.Scalar"},
      {"aten::bitwise_xor.Tensor", "aten::bitwise_xor_.Tensor"},
      {"aten::bitwise_xor.Scalar", "aten::bitwise_xor_.Scalar"}, {"aten::bitwise_xor.Scalar_Tensor", ""},
      {"aten::__xor__.Tensor", "aten::__ixor__.Tensor"}, {"aten::__xor__.Scalar", "aten::__ixor__.Scalar"}};
  for (auto [key, inKey] : bitwiseKeys) reg(key, "bitwise", checked(intOrBool, std::nullopt), inKey, true);

  // Shifts: integers only.
  const unsigned intOnly = kBool | kFloat | kComplex;
  const std::pair<const char *, const char *> shiftKeys[] = {
      {"aten::bitwise_left_shift.Tensor", "aten::bitwise_left_shift_.Tensor"},
      {"aten::bitwise_left_shift.Tensor_Scalar", "aten::bitwise_left_shift_.Tensor_Scalar"},
      {"aten::bitwise_left_shift.Scalar_Tensor", ""}, {"aten::__lshift__.Tensor", "aten::__ilshift__.Tensor"},
      {"aten::__lshift__.Scalar", "aten::__ilshift__.Scalar"},
      {"aten::bitwise_right_shift.Tensor", "aten::bitwise_right_shift_.Tensor"},
      {"aten::bitwise_right_shift.Tensor_Scalar", "aten::bitwise_right_shift_.Tensor_Scalar"},
      {"aten::bitwise_right_shift.Scalar_Tensor", ""}, {"aten::__rshift__.Tensor", "aten::__irshift__.Tensor"},
      {"aten::__rshift__.Scalar", "aten::__irshift__.Scalar"}};
  for (auto [key, inKey] : shiftKeys) reg(key, "bitwise", checked(intOnly, std::nullopt), inKey, true);
}


/// isin: a bool of the elements' sizes (a Scalar element: 0-dim) (issue 35,
/// shapes-corpus).
void registerComparisonLogicalShapes(Registry &r) {
  for (const char *k : {"aten::isin.Tensor_Tensor", "aten::isin.Tensor_Scalar"}) r.shape(k, sameShapeAs("elements"));
}

} // namespace dtf
