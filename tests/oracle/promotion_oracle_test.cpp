//===- tests/oracle/promotion_oracle_test.cpp - promotion vs c10 ----------===//
//
// Exhaustive: every dtype pair through c10::promoteTypes, and every ordered
// combination of one to three operands drawn from {dimensioned tensor,
// zero-dim tensor} x 13 dtypes and {bool, int, float, complex} Python numbers
// through ATen's result_type state machine, against dtypeflow.
//
//===----------------------------------------------------------------------===//
#include "dtype/promotion.h"

#include <ATen/ATen.h>
#include <ATen/native/TypeProperties.h>
#include <c10/core/ScalarType.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

namespace dtf {
namespace {

c10::ScalarType toC10(DType d) { return static_cast<c10::ScalarType>(c10Code(d)); }

TEST(PromotionOracle, EveryPairMatchesC10PromoteTypes) {
  int n = 0;
  for (DType a : kAllDTypes)
    for (DType b : kAllDTypes) {
      ASSERT_EQ(c10Code(promoteTypes(a, b)), static_cast<int>(c10::promoteTypes(toC10(a), toC10(b))))
          << name(a) << " + " << name(b);
      ++n;
    }
  std::printf("promote_types: %d of %d pairs agree with c10::promoteTypes\n", n, kNumDTypes * kNumDTypes);
}

TEST(PromotionOracle, DTypeCodesMatchC10) {
  for (DType d : kAllDTypes) EXPECT_EQ(std::string(c10::toString(toC10(d))), std::string(c10Name(d)));
}

/// One operand of the sweep: ours and the real thing.
struct Operand {
  Value ours;
  PromotionOperand concrete;
  at::Tensor real; // wrapped numbers are wrapped-number tensors, as ATen sees Python scalars
};

std::vector<Operand> allOperands() {
  std::vector<Operand> ops;
  for (DType d : kAllDTypes) {
    at::Tensor dim = at::empty({2}, at::TensorOptions().dtype(toC10(d)).device(at::kMeta));
    at::Tensor zero = at::empty({}, at::TensorOptions().dtype(toC10(d)).device(at::kMeta));
    ops.push_back({Value::tensor(d, Rank::exact(1)), {d, Tier::Dim}, dim});
    ops.push_back({Value::tensor(d, Rank::exact(0)), {d, Tier::ZeroDim}, zero});
  }
  auto wrapped = [](c10::Scalar s) {
    at::Tensor t = c10::scalar_to_tensor(s);
    t.unsafeGetTensorImpl()->set_wrapped_number(true);
    return t;
  };
  ops.push_back({Value::number(NumKind::Bool), {DType::Bool, Tier::Wrapped}, wrapped(true)});
  ops.push_back({Value::number(NumKind::Int), {DType::Int64, Tier::Wrapped}, wrapped(int64_t{3})});
  ops.push_back({Value::number(NumKind::Float), {DType::Float32, Tier::Wrapped}, wrapped(2.5)});
  ops.push_back({Value::number(NumKind::Complex), {DType::Complex64, Tier::Wrapped},
                 wrapped(c10::complex<double>(1, 1))});
  return ops;
}

c10::ScalarType atenResultType(const std::vector<const Operand *> &ops) {
  at::native::ResultTypeState state;
  for (const Operand *o : ops) state = at::native::update_result_type_state(o->real, state);
  return at::native::result_type(state);
}

TEST(PromotionOracle, ResultTypeOfUpToThreeOperandsMatchesATen) {
  std::vector<Operand> ops = allOperands();
  const size_t n = ops.size();
  size_t checked = 0;
  auto check = [&](std::vector<const Operand *> pick) {
    std::vector<PromotionOperand> concrete;
    std::vector<Value> abstract;
    for (const Operand *o : pick) {
      concrete.push_back(o->concrete);
      abstract.push_back(o->ours);
    }
    int expected = static_cast<int>(atenResultType(pick));
    auto got = resultType(concrete);
    ASSERT_TRUE(got.has_value());
    std::string what;
    for (const Operand *o : pick) what += o->ours.str() + " ";
    ASSERT_EQ(c10Code(*got), expected) << what;
    DTypeSet set = resultTypeSet(abstract);
    ASSERT_EQ(set, DTypeSet(*got)) << "abstract path disagrees for " << what;
    ++checked;
  };
  for (size_t a = 0; a < n; ++a) {
    check({&ops[a]});
    for (size_t b = 0; b < n; ++b) {
      check({&ops[a], &ops[b]});
      for (size_t c = 0; c < n; ++c) check({&ops[a], &ops[b], &ops[c]});
    }
  }
  std::printf("result_type: %zu of %zu operand combinations agree with ATen\n", checked, n + n * n + n * n * n);
  EXPECT_EQ(checked, n + n * n + n * n * n);
}

// With unknowns, the abstract answer must be exactly the set of answers over
// every concretization: never missing one (unsound), never adding one.
TEST(PromotionOracle, UnknownOperandsGiveExactlyThePossibleResults) {
  std::vector<Operand> ops = allOperands();
  std::vector<Value> unknowns = {Value::tensor(DTypeSet::all(), Rank::top()),
                                 Value::tensor(DTypeSet::all(), Rank::exact(1)),
                                 Value::tensor(DTypeSet::all(), Rank::exact(0)),
                                 Value::number(NumKinds::all())};
  auto concretizations = [&](const Value &u) {
    std::vector<const Operand *> out;
    for (const Operand &o : ops) {
      bool fits = u.isNumber() ? o.ours.isNumber()
                               : o.ours.isTensor() && ((u.rank().mayBeZero() && o.ours.rank() == Rank::exact(0)) ||
                                                       (u.rank().mayBeNonZero() && o.ours.rank() == Rank::exact(1)));
      if (fits) out.push_back(&o);
    }
    return out;
  };
  size_t checked = 0;
  for (const Value &u : unknowns)
    for (const Operand &known : ops) {
      DTypeSet expected;
      for (const Operand *c : concretizations(u))
        expected.insert(*fromC10Code(static_cast<int>(atenResultType({&known, c}))));
      std::vector<Value> abstract{known.ours, u};
      ASSERT_EQ(resultTypeSet(abstract), expected) << known.ours.str() << " with " << u.str();
      ++checked;
    }
  std::printf("result_type with one unknown operand: %zu cases exact\n", checked);
}

} // namespace
} // namespace dtf
