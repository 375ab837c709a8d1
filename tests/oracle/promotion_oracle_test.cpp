//===- tests/oracle/promotion_oracle_test.cpp - promotion vs c10 ----------===//
//
// Exhaustive, for the linked libtorch's version: every pair of its dtypes
// through c10::promoteTypes (an answer or the same raise), and every ordered
// combination of one to three operands drawn from {dimensioned tensor,
// zero-dim tensor} x the dtypes an unknown ranges over (13 in 1.13, 23 in
// 2.14) and {bool, int, float, complex} Python numbers through ATen's
// result_type state machine, against dtypeflow.
//
//===----------------------------------------------------------------------===//
#include "dtype/dtype_system.h"
#include "oracle_version.h"

#include <ATen/ATen.h>
#include <ATen/native/TypeProperties.h>
#include <c10/core/ScalarType.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

namespace dtf {
namespace {

c10::ScalarType toC10(DType d) { return static_cast<c10::ScalarType>(c10Code(d)); }
const DTypeSystem &types() { return oracle::oracleSemantics().types(); }
/// -1: c10 raises, or answers Undefined (2.14 does for bits and some
/// sub-byte pairs; torch.promote_types raises "Promotion from A and B is
/// unsupported." on it).
int c10Promote(DType a, DType b) {
  try {
    const c10::ScalarType t = c10::promoteTypes(toC10(a), toC10(b));
    return t == c10::ScalarType::Undefined ? -1 : static_cast<int>(t);
  } catch (const c10::Error &) {
    return -1;
  }
}

TEST(PromotionOracle, EveryPairMatchesC10PromoteTypes) {
  int n = 0, raises = 0;
  for (DType a : types().named())
    for (DType b : types().named()) {
      auto ours = types().tryPromote(a, b);
      const int theirs = c10Promote(a, b);
      ASSERT_EQ(ours ? c10Code(*ours) : -1, theirs) << name(a) << " + " << name(b);
      raises += theirs < 0;
      ++n;
    }
  std::printf("promote_types (PyTorch %s): %d pairs agree with c10::promoteTypes (%d of them raise)\n",
              std::string(name(types().version())).c_str(), n, raises);
}

TEST(PromotionOracle, DTypeCodesMatchC10) {
  for (DType d : types().named()) EXPECT_EQ(std::string(c10::toString(toC10(d))), std::string(c10Name(d)));
}

/// One operand of the sweep: ours and the real thing.
struct Operand {
  Value ours;
  PromotionOperand concrete;
  at::Tensor real; // wrapped numbers are wrapped-number tensors, as ATen sees Python scalars
};

std::vector<Operand> allOperands() {
  std::vector<Operand> ops;
  for (DType d : types().universe()) {
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

/// -1: ATen raises.
int atenResultType(const std::vector<const Operand *> &ops) {
  try {
    at::native::ResultTypeState state;
    for (const Operand *o : ops) state = at::native::update_result_type_state(o->real, state);
    return static_cast<int>(at::native::result_type(state));
  } catch (const c10::Error &) {
    return -1;
  }
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
    const int expected = atenResultType(pick);
    std::string what;
    for (const Operand *o : pick) what += o->ours.str() + " ";
    std::optional<DType> got;
    try {
      got = types().resultType(concrete);
      ASSERT_TRUE(got.has_value());
    } catch (const PromotionError &) {
    }
    ASSERT_EQ(got ? c10Code(*got) : -1, expected) << what;
    PossibleDTypes set = types().resultTypeSet(abstract);
    if (got) {
      ASSERT_EQ(set.dtypes, DTypeSet(*got)) << "abstract path disagrees for " << what;
      ASSERT_FALSE(set.error) << what;
    } else {
      ASSERT_TRUE(set.alwaysRaises()) << "abstract path does not raise for " << what;
    }
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
      bool raises = false;
      for (const Operand *c : concretizations(u)) {
        const int r = atenResultType({&known, c});
        if (r < 0) raises = true;
        else expected.insert(*fromC10Code(r));
      }
      std::vector<Value> abstract{known.ours, u};
      PossibleDTypes got = types().resultTypeSet(abstract);
      ASSERT_EQ(got.dtypes, expected) << known.ours.str() << " with " << u.str();
      ASSERT_EQ(got.error.has_value(), raises) << known.ours.str() << " with " << u.str();
      ++checked;
    }
  std::printf("result_type with one unknown operand: %zu cases exact\n", checked);
}

} // namespace
} // namespace dtf
