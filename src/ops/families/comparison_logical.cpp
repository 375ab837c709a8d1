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
  struct Cmp { const char *name; bool ordering; };
  for (Cmp cmp : {Cmp{"eq", false}, Cmp{"ne", false}, Cmp{"not_equal", false}, Cmp{"lt", true},
                  Cmp{"le", true}, Cmp{"gt", true}, Cmp{"ge", true}, Cmp{"less", true},
                  Cmp{"less_equal", true}, Cmp{"greater", true}, Cmp{"greater_equal", true}}) {
    std::string s = std::string("aten::") + cmp.name;
    RuleFn f = checked(cmp.ordering ? kComplex : kNone, DType::Bool);
    for (const char *ov : {".Tensor", ".Scalar"})
      reg(s + ov, "comparison", f, s + "_" + ov, /*castCheck=*/false);
  }

  // Logical: any dtypes, bool result.
  for (const char *n : {"logical_and", "logical_or", "logical_xor"}) {
    std::string s = std::string("aten::") + n;
    reg(s, "logical", checked(kNone, DType::Bool), s + "_", /*castCheck=*/false);
  }

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
  for (const char *n : {"and", "or", "xor"}) {
    std::string s = std::string("aten::bitwise_") + n;
    RuleFn f = checked(intOrBool, std::nullopt);
    reg(s + ".Tensor", "bitwise", f, s + "_.Tensor", true);
    reg(s + ".Scalar", "bitwise", f, s + "_.Scalar", true);
    r.add(s + ".Scalar_Tensor", "bitwise", f);
    std::string d = std::string("aten::__") + n + "__";
    std::string i = std::string("aten::__i") + n + "__";
    reg(d + ".Tensor", "bitwise", f, i + ".Tensor", true);
    reg(d + ".Scalar", "bitwise", f, i + ".Scalar", true);
  }

  // Shifts: integers only.
  const unsigned intOnly = kBool | kFloat | kComplex;
  for (const char *dir : {"left", "right"}) {
    std::string s = std::string("aten::bitwise_") + dir + "_shift";
    RuleFn f = checked(intOnly, std::nullopt);
    reg(s + ".Tensor", "bitwise", f, s + "_.Tensor", true);
    reg(s + ".Tensor_Scalar", "bitwise", f, s + "_.Tensor_Scalar", true);
    r.add(s + ".Scalar_Tensor", "bitwise", f);
    std::string d = std::string("aten::__") + (dir[0] == 'l' ? "l" : "r") + "shift__";
    std::string i = std::string("aten::__i") + (dir[0] == 'l' ? "l" : "r") + "shift__";
    reg(d + ".Tensor", "bitwise", f, i + ".Tensor", true);
    reg(d + ".Scalar", "bitwise", f, i + ".Scalar", true);
  }
}

} // namespace dtf
