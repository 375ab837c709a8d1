// c10's checked conversion of a Python number into a dtype (the values
// measured on 1.13 with fill_; the live oracle checks them per op).
#include "dtype/scalar_conversion.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace dtf {
namespace {

const double kInf = std::numeric_limits<double>::infinity();
bool in113(const Value &v, DType d) { return conversionOverflows(v, d, TorchVersion::V1_13); }
bool in214(const Value &v, DType d) { return conversionOverflows(v, d, TorchVersion::V2_14); }

TEST(ScalarConversion, IntegersIntoIntegerTypes) {
  EXPECT_FALSE(in113(Value::integer(127), DType::Int8));
  EXPECT_TRUE(in113(Value::integer(128), DType::Int8));
  EXPECT_FALSE(in113(Value::integer(-128), DType::Int8));
  EXPECT_TRUE(in113(Value::integer(-129), DType::Int8));
  EXPECT_TRUE(in113(Value::integer(300), DType::UInt8));
  // Negative ints wrap into unsigned types down to -max.
  EXPECT_FALSE(in113(Value::integer(-255), DType::UInt8));
  EXPECT_TRUE(in113(Value::integer(-256), DType::UInt8));
  EXPECT_TRUE(in113(Value::integer(int64_t{1} << 31), DType::Int32));
  EXPECT_FALSE(in113(Value::integer(std::numeric_limits<int64_t>::min()), DType::Int64));
}

TEST(ScalarConversion, FloatsIntoIntegerTypes) {
  EXPECT_FALSE(in113(Value::floating(-0.5), DType::Int8));
  EXPECT_TRUE(in113(Value::floating(127.5), DType::Int8));
  EXPECT_TRUE(in113(Value::floating(-128.5), DType::Int8));
  EXPECT_TRUE(in113(Value::floating(-0.5), DType::UInt8)); // no wrapping for floats
  EXPECT_TRUE(in113(Value::floating(255.5), DType::UInt8));
  EXPECT_TRUE(in113(Value::floating(std::nan("")), DType::Int64));
  EXPECT_TRUE(in113(Value::floating(-kInf), DType::Int32));
  EXPECT_TRUE(in113(Value::floating(9.3e18), DType::Int64));
}

// 2.14 (measured with torch.full, scripts/probes/scalar_conversion.py): a
// float fits an integral type when it truncates into range; the new unsigned
// types wrap negative ints like uint8 and refuse negative floats.
TEST(ScalarConversion, FloatsIntoIntegerTypesIn214) {
  EXPECT_FALSE(in214(Value::floating(127.5), DType::Int8));
  EXPECT_TRUE(in214(Value::floating(128.0), DType::Int8));
  EXPECT_TRUE(in214(Value::floating(-128.5), DType::Int8));
  EXPECT_FALSE(in214(Value::floating(255.5), DType::UInt8));
  EXPECT_TRUE(in214(Value::floating(256.0), DType::UInt8));
  EXPECT_TRUE(in214(Value::floating(-0.5), DType::UInt16));
  EXPECT_FALSE(in214(Value::floating(65535.5), DType::UInt16));
  EXPECT_FALSE(in214(Value::floating(1.8e19), DType::UInt64));
  EXPECT_TRUE(in214(Value::floating(2e19), DType::UInt64));
  EXPECT_TRUE(in214(Value::floating(9.3e18), DType::Int64));
  EXPECT_FALSE(in214(Value::integer(-1), DType::UInt32));
  EXPECT_TRUE(in214(Value::integer(int64_t{1} << 32), DType::UInt32));
  EXPECT_FALSE(in214(Value::integer(std::numeric_limits<int64_t>::max()), DType::UInt64));
}

TEST(ScalarConversion, Float8Limits) {
  EXPECT_FALSE(in214(Value::floating(448), DType::Float8E4M3FN));
  EXPECT_TRUE(in214(Value::floating(449), DType::Float8E4M3FN));
  EXPECT_TRUE(in214(Value::integer(300), DType::Float8E4M3FNUZ));
  EXPECT_FALSE(in214(Value::integer(57344), DType::Float8E5M2));
  EXPECT_FALSE(in214(Value::floating(kInf), DType::Float8E5M2)); // e5m2 has infinities
  EXPECT_TRUE(in214(Value::floating(kInf), DType::Float8E4M3FN)); // e4m3fn has none
}

TEST(ScalarConversion, IntoFloatingTypes) {
  EXPECT_FALSE(in113(Value::floating(65504.0), DType::Float16));
  EXPECT_TRUE(in113(Value::floating(65520.0), DType::Float16));
  EXPECT_TRUE(in113(Value::integer(70000), DType::Float16));
  EXPECT_FALSE(in113(Value::integer(70000), DType::BFloat16));
  EXPECT_TRUE(in113(Value::floating(3.395e38), DType::BFloat16));
  EXPECT_FALSE(in113(Value::floating(3.395e38), DType::Float32));
  EXPECT_TRUE(in113(Value::floating(1e39), DType::Float32));
  EXPECT_FALSE(in113(Value::floating(1e300), DType::Float64));
  // Infinities and NaN exist in floating types.
  EXPECT_FALSE(in113(Value::floating(-kInf), DType::Float16));
  EXPECT_FALSE(in113(Value::floating(std::nan("")), DType::BFloat16));
}

TEST(ScalarConversion, ComplexNumbers) {
  EXPECT_TRUE(in113(Value::complexNumber(1.5, 0.5), DType::Float32));
  EXPECT_FALSE(in113(Value::complexNumber(2, 0), DType::Int8));
  EXPECT_TRUE(in113(Value::complexNumber(1000, 0), DType::Int8));
  EXPECT_FALSE(in113(Value::complexNumber(1.5, 0.5), DType::Complex64));
  EXPECT_TRUE(in113(Value::complexNumber(0, 1e39), DType::Complex64)); // each part is checked
  EXPECT_TRUE(in113(Value::floating(1e39), DType::Complex64));
  EXPECT_TRUE(in113(Value::integer(70000), DType::Complex32)); // complex<half> parts
}

TEST(ScalarConversion, BoolAndUnknownNeverRaise) {
  EXPECT_FALSE(in113(Value::complexNumber(1.5, 0.5), DType::Bool));
  EXPECT_FALSE(in113(Value::floating(1e300), DType::Bool));
  EXPECT_FALSE(in113(Value::boolean(true), DType::UInt8));
  EXPECT_FALSE(in113(Value::number(NumKind::Int), DType::UInt8)); // value unknown
  EXPECT_FALSE(in113(Value::unknownTensor(), DType::UInt8));
}

} // namespace
} // namespace dtf
