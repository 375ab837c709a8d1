// Dtype names, categories and the promotion helpers (no libtorch: the
// exhaustive comparison with c10 lives in tests/oracle).
#include "dtype/dtype_system.h"

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
  EXPECT_EQ(fromC10Code(12), DType::QInt8);
  EXPECT_EQ(fromC10Code(46), DType::BComplex32);
  EXPECT_FALSE(fromC10Code(47).has_value());
}

TEST(DType, VersionsPickTheirSubset) {
  const DTypeSystem &v113 = DTypeSystem::of(TorchVersion::V1_13), &v214 = DTypeSystem::of(TorchVersion::V2_14);
  EXPECT_EQ(v113.named().size(), 18); // 13 + 5 quantized
  EXPECT_EQ(v214.named().size(), 47); // torch 2.14.1's dtypes, every one
  EXPECT_EQ(v113.universe(), DTypeSet::classic());
  EXPECT_EQ(v214.universe().size(), 23); // + uint16/32/64, 5 float8, float4_e2m1fn_x2, bcomplex32
  EXPECT_FALSE(v113.parse("float8_e4m3fn").has_value());
  EXPECT_EQ(v214.parse("torch.float8_e4m3fn"), DType::Float8E4M3FN);
  EXPECT_EQ(v214.parse("UInt16"), DType::UInt16);
  EXPECT_EQ(v113.parse("quint8"), DType::QUInt8);
  EXPECT_FALSE(v113.fromC10Code(27).has_value()); // UInt16 is 2.x's
  EXPECT_EQ(parseTorchVersion("2.14.1+debian"), TorchVersion::V2_14);
  EXPECT_EQ(parseTorchVersion("1.13.0a0"), TorchVersion::V1_13);
  EXPECT_FALSE(parseTorchVersion("2.140").has_value());
  EXPECT_FALSE(parseTorchVersion("2.1").has_value());
  // An unknown dtype ranges over the version's universe; a known one stays.
  EXPECT_EQ(v214.candidates(DTypeSet::all()), v214.universe());
  EXPECT_EQ(v214.candidates(DType::QInt8), DTypeSet(DType::QInt8));
  // The quantized dtypes are in the lattice, outside the universe: for the
  // quantize family's rules an unknown dtype may also be one of them.
  EXPECT_EQ(v113.quantized().size(), 5);
  EXPECT_TRUE(DTypeSet::meet(v214.universe(), v214.quantized()).empty());
  EXPECT_EQ(v113.candidatesWithQuantized(DTypeSet::all()), DTypeSet::join(v113.universe(), v113.quantized()));
  EXPECT_EQ(v214.candidatesWithQuantized(DType::QUInt8), DTypeSet(DType::QUInt8));
  EXPECT_EQ(v214.candidatesWithQuantized(DType::Float32), DTypeSet(DType::Float32));
}

TEST(DType, Categories) {
  EXPECT_TRUE(isBool(DType::Bool));
  EXPECT_FALSE(isIntegral(DType::Bool));
  EXPECT_TRUE(isIntegral(DType::Bool, /*includeBool=*/true));
  EXPECT_TRUE(isFloating(DType::BFloat16));
  EXPECT_FALSE(isFloating(DType::Complex64)); // complex is not floating
  EXPECT_EQ(toComplexType(DType::BFloat16), DType::Complex64);
  EXPECT_EQ(DTypeSystem::of(TorchVersion::V2_14).toComplex(DType::BFloat16), DType::BComplex32);
  EXPECT_FALSE(DTypeSystem::of(TorchVersion::V2_14).toComplex(DType::Float8E5M2).has_value());
  EXPECT_EQ(category(DType::QInt8), Category::Other);
  EXPECT_TRUE(isIntegral(DType::UInt16));
  EXPECT_TRUE(isFloating(DType::Float8E4M3FN));
  EXPECT_TRUE(isComplex(DType::BComplex32));
  EXPECT_EQ(toRealValueType(DType::BComplex32), DType::BFloat16);
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

const DTypeSystem &v113() { return DTypeSystem::of(TorchVersion::V1_13); }
const DTypeSystem &v214() { return DTypeSystem::of(TorchVersion::V2_14); }

TEST(Promotion, TableFacts) {
  for (const DTypeSystem *t : {&v113(), &v214()}) {
    EXPECT_EQ(t->promote(DType::UInt8, DType::Int8), DType::Int16);
    EXPECT_EQ(t->promote(DType::Float16, DType::BFloat16), DType::Float32);
    EXPECT_EQ(t->promote(DType::Int64, DType::Float16), DType::Float16);
    EXPECT_EQ(t->promote(DType::Float64, DType::Complex64), DType::Complex128);
    for (DType a : t->named())
      for (DType b : t->named()) EXPECT_EQ(t->tryPromote(a, b), t->tryPromote(b, a));
  }
  // Quantized dtypes promote only with themselves, in both versions.
  EXPECT_EQ(v113().promote(DType::QInt8, DType::QInt8), DType::QInt8);
  EXPECT_THROW(v113().promote(DType::QInt8, DType::Float32), PromotionError);
}

TEST(Promotion, NewDTypesOf214) {
  // uint16/32/64 promote only with a floating type (measured: torch 2.14.1).
  EXPECT_EQ(v214().promote(DType::UInt16, DType::Float16), DType::Float16);
  EXPECT_EQ(v214().promote(DType::Float32, DType::UInt64), DType::Float32);
  EXPECT_THROW(v214().promote(DType::UInt16, DType::Int8), PromotionError);
  EXPECT_THROW(v214().promote(DType::UInt16, DType::UInt32), PromotionError);
  EXPECT_THROW(v214().promote(DType::UInt16, DType::Complex64), PromotionError);
  // float8 with anything else raises, first.
  EXPECT_THROW(v214().promote(DType::UInt16, DType::Float8E4M3FN), PromotionError);
  EXPECT_THROW(v214().promote(DType::Float8E5M2, DType::Float32), PromotionError);
  EXPECT_EQ(v214().promote(DType::Float8E5M2, DType::Float8E5M2), DType::Float8E5M2);
  // bcomplex32 keeps bfloat16's precision.
  EXPECT_EQ(v214().promote(DType::BComplex32, DType::BFloat16), DType::BComplex32);
  EXPECT_EQ(v214().promote(DType::BComplex32, DType::Int64), DType::BComplex32);
  EXPECT_EQ(v214().promote(DType::BComplex32, DType::Float16), DType::Complex64);
  EXPECT_EQ(v214().promote(DType::BComplex32, DType::Float64), DType::Complex128);
  try {
    v214().promote(DType::UInt16, DType::Int8);
  } catch (const PromotionError &e) {
    EXPECT_STREQ(e.what(), "Promotion for uint16, uint32, uint64 types is not supported, attempted to promote "
                           "UInt16 and Char");
  }
}

TEST(ResultType, BFloat16WithAComplexNumberIsBComplex32In214) {
  std::vector<Value> ops{Value::tensor(DType::BFloat16, Rank::exact(1)), Value::number(NumKind::Complex)};
  EXPECT_EQ(v113().resultTypeSet(ops).dtypes, DTypeSet(DType::Complex64));
  EXPECT_EQ(v214().resultTypeSet(ops).dtypes, DTypeSet(DType::BComplex32));
  ops[1] = Value::tensor(DType::Complex64, Rank::exact(0)); // torch.where(bf16 > 0, bf16, torch.tensor(1j))
  EXPECT_EQ(v214().resultTypeSet(ops).dtypes, DTypeSet(DType::BComplex32));
  // uint16 with an int: the number's tier is lower, so no promotion runs.
  ops = {Value::tensor(DType::UInt16, Rank::exact(1)), Value::number(NumKind::Int)};
  EXPECT_EQ(v214().resultTypeSet(ops).dtypes, DTypeSet(DType::UInt16));
  ops = {Value::tensor(DType::UInt16, Rank::exact(1)), Value::tensor(DType::Int8, Rank::exact(1))};
  EXPECT_TRUE(v214().resultTypeSet(ops).alwaysRaises());
  // An unknown operand that may be float8 may raise; in 1.13 it cannot.
  ops = {Value::tensor(DType::Float32, Rank::exact(1)), Value::tensor(DTypeSet::all(), Rank::exact(1))};
  EXPECT_TRUE(v214().resultTypeSet(ops).error.has_value());
  EXPECT_FALSE(v113().resultTypeSet(ops).error.has_value());
}

// Many operands of unknown rank: each may be 0-dim (a lower tier) or not.
// Past a few, the tiers are no longer enumerated per assignment (2^n) but the
// answer must stay a superset of every assignment's (found by fuzz_notation:
// twelve "?" operands took seconds under ASan).
TEST(DTypeSystem, ManyOperandsOfUnknownRankStaySound) {
  const Value unknownRank = Value::tensor(DType::Int8, Rank::top());
  std::vector<Value> ops(12, unknownRank);
  ops.push_back(Value::tensor(DType::Float16, Rank::top()));
  ops.push_back(Value::number(NumKind::Float));
  // Exactly: float16 wherever it lands (it outranks int8 in either tier and
  // the float number below them). The superset may add float32 (int8 with
  // the float number); nothing else, and nothing raises.
  for (const DTypeSystem *sys : {&v113(), &v214()}) {
    PossibleDTypes got = sys->resultTypeSet(ops);
    EXPECT_TRUE(got.dtypes.contains(DType::Float16));
    EXPECT_FALSE(got.error.has_value());
    for (DType d : got.dtypes) EXPECT_TRUE(d == DType::Float16 || d == DType::Float32) << c10Name(d);
  }
  // Unknown dtypes and ranks everywhere: every dtype may come out, and in
  // 2.14 a raise may (uint16 with int8, float8 with float32).
  std::vector<Value> unknown(12, Value::tensor(DTypeSet::all(), Rank::top()));
  PossibleDTypes got = v214().resultTypeSet(unknown);
  EXPECT_TRUE(got.error.has_value());
  EXPECT_TRUE(got.dtypes.contains(DType::Float32));
  EXPECT_TRUE(got.dtypes.contains(DType::UInt16));
}

DTypeSet rt(std::vector<Value> ops) { return v113().resultTypeSet(ops).dtypes; }
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
