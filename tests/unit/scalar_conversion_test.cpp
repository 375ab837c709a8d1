// c10's checked conversion of a Python number into a dtype (the values
// measured on 1.13 with fill_; the live oracle checks them per op).
#include "dtype/scalar_conversion.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace dtf {
namespace {

const double kInf = std::numeric_limits<double>::infinity();

TEST(ScalarConversion, IntegersIntoIntegerTypes) {
  EXPECT_FALSE(conversionOverflows(Value::integer(127), DType::Int8));
  EXPECT_TRUE(conversionOverflows(Value::integer(128), DType::Int8));
  EXPECT_FALSE(conversionOverflows(Value::integer(-128), DType::Int8));
  EXPECT_TRUE(conversionOverflows(Value::integer(-129), DType::Int8));
  EXPECT_TRUE(conversionOverflows(Value::integer(300), DType::UInt8));
  // Negative ints wrap into unsigned types down to -max.
  EXPECT_FALSE(conversionOverflows(Value::integer(-255), DType::UInt8));
  EXPECT_TRUE(conversionOverflows(Value::integer(-256), DType::UInt8));
  EXPECT_TRUE(conversionOverflows(Value::integer(int64_t{1} << 31), DType::Int32));
  EXPECT_FALSE(conversionOverflows(Value::integer(std::numeric_limits<int64_t>::min()), DType::Int64));
}

TEST(ScalarConversion, FloatsIntoIntegerTypes) {
  EXPECT_FALSE(conversionOverflows(Value::floating(-0.5), DType::Int8));
  EXPECT_TRUE(conversionOverflows(Value::floating(127.5), DType::Int8));
  EXPECT_TRUE(conversionOverflows(Value::floating(-128.5), DType::Int8));
  EXPECT_TRUE(conversionOverflows(Value::floating(-0.5), DType::UInt8)); // no wrapping for floats
  EXPECT_TRUE(conversionOverflows(Value::floating(255.5), DType::UInt8));
  EXPECT_TRUE(conversionOverflows(Value::floating(std::nan("")), DType::Int64));
  EXPECT_TRUE(conversionOverflows(Value::floating(-kInf), DType::Int32));
  EXPECT_TRUE(conversionOverflows(Value::floating(9.3e18), DType::Int64));
}

TEST(ScalarConversion, IntoFloatingTypes) {
  EXPECT_FALSE(conversionOverflows(Value::floating(65504.0), DType::Float16));
  EXPECT_TRUE(conversionOverflows(Value::floating(65520.0), DType::Float16));
  EXPECT_TRUE(conversionOverflows(Value::integer(70000), DType::Float16));
  EXPECT_FALSE(conversionOverflows(Value::integer(70000), DType::BFloat16));
  EXPECT_TRUE(conversionOverflows(Value::floating(3.395e38), DType::BFloat16));
  EXPECT_FALSE(conversionOverflows(Value::floating(3.395e38), DType::Float32));
  EXPECT_TRUE(conversionOverflows(Value::floating(1e39), DType::Float32));
  EXPECT_FALSE(conversionOverflows(Value::floating(1e300), DType::Float64));
  // Infinities and NaN exist in floating types.
  EXPECT_FALSE(conversionOverflows(Value::floating(-kInf), DType::Float16));
  EXPECT_FALSE(conversionOverflows(Value::floating(std::nan("")), DType::BFloat16));
}

TEST(ScalarConversion, ComplexNumbers) {
  EXPECT_TRUE(conversionOverflows(Value::complexNumber(1.5, 0.5), DType::Float32));
  EXPECT_FALSE(conversionOverflows(Value::complexNumber(2, 0), DType::Int8));
  EXPECT_TRUE(conversionOverflows(Value::complexNumber(1000, 0), DType::Int8));
  EXPECT_FALSE(conversionOverflows(Value::complexNumber(1.5, 0.5), DType::Complex64));
  EXPECT_TRUE(conversionOverflows(Value::complexNumber(0, 1e39), DType::Complex64)); // each part is checked
  EXPECT_TRUE(conversionOverflows(Value::floating(1e39), DType::Complex64));
  EXPECT_TRUE(conversionOverflows(Value::integer(70000), DType::Complex32)); // complex<half> parts
}

TEST(ScalarConversion, BoolAndUnknownNeverRaise) {
  EXPECT_FALSE(conversionOverflows(Value::complexNumber(1.5, 0.5), DType::Bool));
  EXPECT_FALSE(conversionOverflows(Value::floating(1e300), DType::Bool));
  EXPECT_FALSE(conversionOverflows(Value::boolean(true), DType::UInt8));
  EXPECT_FALSE(conversionOverflows(Value::number(NumKind::Int), DType::UInt8)); // value unknown
  EXPECT_FALSE(conversionOverflows(Value::unknownTensor(), DType::UInt8));
}

} // namespace
} // namespace dtf
