// Dtype names, categories and the promotion helpers (no libtorch: the
// exhaustive comparison with c10 lives in tests/oracle).
#include "dtype/promotion.h"

#include <gtest/gtest.h>

namespace dtf {
namespace {

TEST(DType, NamesAndAliasesParse) {
  EXPECT_EQ(parseDType("float32"), DType::Float32);
  EXPECT_EQ(parseDType("torch.float"), DType::Float32);
  EXPECT_EQ(parseDType("half"), DType::Float16);
  EXPECT_EQ(parseDType("long"), DType::Int64);
  EXPECT_EQ(parseDType("cfloat"), DType::Complex64);
  EXPECT_EQ(parseDType("Long"), DType::Int64);
  EXPECT_EQ(parseDType("ComplexHalf"), DType::Complex32);
  EXPECT_FALSE(parseDType("float33").has_value());
  for (DType d : kAllDTypes) EXPECT_EQ(parseDType(name(d)), d);
}

TEST(DType, C10CodesRoundTrip) {
  EXPECT_EQ(c10Code(DType::UInt8), 0);
  EXPECT_EQ(c10Code(DType::Bool), 11);
  EXPECT_EQ(c10Code(DType::BFloat16), 15);
  for (DType d : kAllDTypes) EXPECT_EQ(fromC10Code(c10Code(d)), d);
  EXPECT_FALSE(fromC10Code(12).has_value()); // QInt8: not modelled
}

TEST(DType, Categories) {
  EXPECT_TRUE(isBool(DType::Bool));
  EXPECT_FALSE(isIntegral(DType::Bool));
  EXPECT_TRUE(isIntegral(DType::Bool, /*includeBool=*/true));
  EXPECT_TRUE(isFloating(DType::BFloat16));
  EXPECT_FALSE(isFloating(DType::Complex64)); // complex is not floating
  EXPECT_EQ(toComplexType(DType::BFloat16), DType::Complex64);
  EXPECT_EQ(toComplexType(DType::Float16), DType::Complex32);
  EXPECT_FALSE(toComplexType(DType::Int32).has_value());
  EXPECT_EQ(toRealValueType(DType::Complex128), DType::Float64);
}

TEST(DType, CanCast) {
  EXPECT_TRUE(canCast(DType::Float64, DType::Float16)); // narrowing is allowed
  EXPECT_FALSE(canCast(DType::Complex64, DType::Float64));
  EXPECT_FALSE(canCast(DType::Float32, DType::Int64));
  EXPECT_FALSE(canCast(DType::Int32, DType::Bool));
  EXPECT_TRUE(canCast(DType::Bool, DType::Bool));
}

TEST(Promotion, TableFacts) {
  EXPECT_EQ(promoteTypes(DType::UInt8, DType::Int8), DType::Int16);
  EXPECT_EQ(promoteTypes(DType::Float16, DType::BFloat16), DType::Float32);
  EXPECT_EQ(promoteTypes(DType::Int64, DType::Float16), DType::Float16);
  EXPECT_EQ(promoteTypes(DType::Float64, DType::Complex64), DType::Complex128);
  for (DType a : kAllDTypes)
    for (DType b : kAllDTypes) EXPECT_EQ(promoteTypes(a, b), promoteTypes(b, a));
}

DTypeSet rt(std::vector<Value> ops) { return resultTypeSet(ops); }
Value T(DType d, int r) { return Value::tensor(d, Rank::exact(r)); }

TEST(ResultType, Tiers) {
  EXPECT_EQ(rt({T(DType::Int8, 1), Value::number(NumKind::Float)}), DTypeSet(DType::Float32));
  EXPECT_EQ(rt({T(DType::UInt8, 1), T(DType::Int8, 0)}), DTypeSet(DType::UInt8));
  EXPECT_EQ(rt({T(DType::UInt8, 0), T(DType::Int8, 0)}), DTypeSet(DType::Int16));
  EXPECT_EQ(rt({T(DType::Float16, 1), T(DType::Float64, 0)}), DTypeSet(DType::Float16));
  EXPECT_EQ(rt({T(DType::Float16, 1), Value::number(NumKind::Complex)}), DTypeSet(DType::Complex32));
  EXPECT_EQ(rt({T(DType::Float32, 1), T(DType::Complex128, 0)}), DTypeSet(DType::Complex64));
  EXPECT_EQ(rt({Value::number(NumKind::Bool), Value::number(NumKind::Int)}), DTypeSet(DType::Int64));
}

TEST(ResultType, UnknownsOnlyPoisonWhereTheyMatter) {
  Value unknownDtype0 = Value::tensor(DTypeSet::all(), Rank::exact(0));
  // A complex128 dimensioned tensor wins over anything zero-dim.
  EXPECT_EQ(rt({T(DType::Complex128, 1), unknownDtype0}), DTypeSet(DType::Complex128));
  // float32 vs an unknown zero-dim tensor: a complex one would win.
  EXPECT_FALSE(rt({T(DType::Float32, 1), unknownDtype0}).only().has_value());
  // Unknown rank matters only when the tier could change the answer.
  Value int8UnknownRank = Value::tensor(DType::Int8, Rank::top());
  EXPECT_EQ(rt({T(DType::Float32, 1), int8UnknownRank}), DTypeSet(DType::Float32));
  EXPECT_EQ(rt({T(DType::Int32, 1), int8UnknownRank}), DTypeSet(DType::Int32));
  DTypeSet both = rt({T(DType::Int8, 1), Value::tensor(DType::Int32, Rank::top())});
  EXPECT_EQ(both.size(), 2); // int8 (if zero-dim) or int32
  // An unknown Python number kind against a complex tensor cannot matter.
  EXPECT_EQ(rt({T(DType::Complex64, 1), Value::number(NumKinds::all())}), DTypeSet(DType::Complex64));
}

} // namespace
} // namespace dtf
