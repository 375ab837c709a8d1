// Lattice laws and unknown-handling of the abstract values (dtype/lattice.h).
#include "dtype/lattice.h"

#include <gtest/gtest.h>

namespace dtf {
namespace {

std::vector<Value> samples() {
  return {Value::bottom(),
          Value::top(),
          Value::none(),
          Value::tensor(DType::Float32, Rank::exact(2)),
          Value::tensor(DType::Int64, Rank::exact(0)),
          Value::tensor(DTypeSet::all(), Rank::top()),
          Value::tensor(DType::Float32, Rank::atLeast1()),
          Value::integer(3),
          Value::integer(4),
          Value::floating(2.5),
          Value::number(NumKinds::all()),
          Value::string("floor"),
          Value::list({Value::integer(1), Value::integer(2)}),
          Value::list({Value::integer(1)}),
          Value::listOf(Value::tensor(DType::Float16, Rank::top())),
          Value::tuple({Value::tensor(DType::Bool, Rank::exact(1)), Value::none()})};
}

TEST(Lattice, BottomIsIdentityAndTopAbsorbs) {
  for (const Value &v : samples()) {
    EXPECT_EQ(Value::join(Value::bottom(), v), v) << v.str();
    EXPECT_EQ(Value::join(v, Value::bottom()), v) << v.str();
    EXPECT_TRUE(Value::join(Value::top(), v).isTop()) << v.str();
  }
}

TEST(Lattice, JoinIsIdempotentCommutativeAssociative) {
  auto all = samples();
  for (const Value &a : all) {
    EXPECT_EQ(Value::join(a, a), a) << a.str();
    for (const Value &b : all) {
      EXPECT_EQ(Value::join(a, b), Value::join(b, a)) << a.str() << " " << b.str();
      for (const Value &c : all)
        EXPECT_EQ(Value::join(Value::join(a, b), c), Value::join(a, Value::join(b, c)))
            << a.str() << " " << b.str() << " " << c.str();
    }
  }
}

TEST(Lattice, JoinIsAnUpperBound) {
  // join(a, b) joined again with a or b does not change: it is above both.
  auto all = samples();
  for (const Value &a : all)
    for (const Value &b : all) {
      Value j = Value::join(a, b);
      EXPECT_EQ(Value::join(j, a), j);
      EXPECT_EQ(Value::join(j, b), j);
    }
}

TEST(Lattice, TensorJoinUnitesDtypesAndWidensRank) {
  Value f = Value::tensor(DType::Float32, Rank::exact(2));
  Value d = Value::tensor(DType::Float64, Rank::exact(3));
  Value j = Value::join(f, d);
  EXPECT_FALSE(j.dtype().has_value());
  EXPECT_EQ(j.dtypes().size(), 2);
  EXPECT_TRUE(j.dtypes().contains(DType::Float32) && j.dtypes().contains(DType::Float64));
  EXPECT_EQ(j.rank(), Rank::atLeast1()); // both non-zero: still not zero-dim
  EXPECT_EQ(Value::join(f, Value::tensor(DType::Float32, Rank::exact(0))).rank(), Rank::top());
  EXPECT_EQ(Value::join(f, f).dtype(), DType::Float32);
}

TEST(Lattice, RankPredicates) {
  EXPECT_TRUE(Rank::top().mayBeZero() && Rank::top().mayBeNonZero());
  EXPECT_FALSE(Rank::atLeast1().mayBeZero());
  EXPECT_TRUE(Rank::exact(0).mayBeZero() && !Rank::exact(0).mayBeNonZero());
  EXPECT_EQ(Rank::join(Rank::bottom(), Rank::exact(4)), Rank::exact(4));
}

TEST(Lattice, NumberJoinKeepsEqualValuesOnly) {
  EXPECT_EQ(Value::join(Value::integer(3), Value::integer(3)).intValue(), 3);
  Value j = Value::join(Value::integer(3), Value::integer(4));
  EXPECT_EQ(j.numKind(), NumKind::Int);
  EXPECT_FALSE(j.intValue().has_value());
  Value k = Value::join(Value::integer(3), Value::floating(2.5));
  EXPECT_FALSE(k.numKind().has_value());
  EXPECT_EQ(k.numKinds().size(), 2);
}

TEST(Lattice, ListJoinOfDifferentLengthsForgetsLength) {
  Value a = Value::list({Value::integer(1), Value::integer(2)});
  Value b = Value::list({Value::integer(1)});
  Value j = Value::join(a, b);
  ASSERT_TRUE(j.isList());
  EXPECT_FALSE(j.lengthKnown());
  EXPECT_EQ(j.elementSummary().numKind(), NumKind::Int);
}

TEST(Lattice, KindMismatchGoesToTop) {
  EXPECT_TRUE(Value::join(Value::none(), Value::tensor(DType::Float32)).isTop());
  EXPECT_TRUE(Value::join(Value::integer(1), Value::tensor(DType::Float32)).isTop());
}

TEST(Lattice, DTypeSetIteratesInListOrder) {
  DTypeSet s;
  s.insert(DType::Complex64);
  s.insert(DType::Bool);
  std::vector<DType> seen;
  for (DType d : s) seen.push_back(d);
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0], DType::Bool);
  EXPECT_EQ(seen[1], DType::Complex64);
  EXPECT_EQ(DTypeSet::all().size(), kNumDTypes);
}

// Quantized dtypes are elements like any other: known singletons, joined
// into sets; a quantized tensor prints by its dtype's name.
TEST(Lattice, QuantizedDTypesAreElements) {
  Value q = Value::tensor(DType::QUInt8, Rank::exact(2));
  EXPECT_EQ(q.dtype(), DType::QUInt8);
  EXPECT_EQ(q.str(), "quint8:r2");
  Value j = Value::join(q, Value::tensor(DType::Float32, Rank::exact(2)));
  EXPECT_EQ(j.dtypes().size(), 2);
  EXPECT_TRUE(j.dtypes().contains(DType::QUInt8));
  EXPECT_TRUE(DTypeSet::all().contains(DType::QInt32));
}

} // namespace
} // namespace dtf
