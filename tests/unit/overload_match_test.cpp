// fitScore reads a list argument's element summary through its elements'
// kinds alone (no joins of known values): the scores must equal those of the
// real summary (Value::elementSummary) for every list type and list value.
#include "refine/overload_match.h"

#include <gtest/gtest.h>

namespace dtf::refine {
namespace {

using K = SchemaType::Kind;

/// fitScore's list case as defined: on the join of the elements.
int scoreOnSummary(const SchemaType &type, const Value &v) {
  if (!v.isList()) return -1;
  if (v.lengthKnown() && type.inner() && type.inner()->kind == K::Tensor)
    for (const Value &el : v.elements())
      if (fitScore(*type.inner(), el) < 0) return -1;
  Value e = v.elementSummary();
  if (e.isBottom() || !type.inner()) {
    K in = type.inner() ? type.inner()->kind : K::Any;
    return in == K::Str || in == K::Dimname ? 0 : 1;
  }
  int s = fitScore(*type.inner(), e);
  return s < 0 ? -1 : (s == 2 ? 2 : 1);
}

TEST(OverloadMatch, ListScoresEqualTheSummaryScores) {
  auto schema = parseSchema("aten::probe(int[] a, float[] b, Scalar[] c, Tensor[] d, Tensor?[] e, int[]? f, "
                            "bool[] g, t[] h, str[] i, complex[] j, int[][] k) -> Tensor");
  ASSERT_TRUE(schema.schema) << schema.error;
  std::vector<Value> lists = {
      Value::list({}),
      Value::list({Value::integer(1), Value::integer(1)}),
      Value::list({Value::integer(1), Value::floating(2.5)}),
      Value::list({Value::boolean(true), Value::integer(0)}),
      Value::list({Value::number(NumKind::Int), Value::integer(3)}),
      Value::list({Value::number(NumKinds::all())}),
      Value::list({Value::complexNumber(1, 2), Value::floating(1)}),
      Value::list({Value::tensor(DType::Float32, Rank::exact(2)), Value::tensor(DType::Int64, Rank::top())}),
      Value::list({Value::tensor(DType::Float32, Rank::exact(2)), Value::none()}),
      Value::list({Value::none()}),
      Value::list({Value::integer(1), Value::tensor(DType::Int64, Rank::exact(0))}),
      Value::list({Value::top(), Value::integer(2)}),
      Value::list({Value::string("a"), Value::string("b")}),
      Value::list({Value::list({Value::integer(1)}), Value::list({Value::integer(2)})}),
      Value::listOf(Value::integer(4)),
      Value::listOf(Value::unknownTensor()),
  };
  for (const SchemaArg &a : schema.schema->args) {
    const SchemaType &t = a.type->kind == K::Optional ? *a.type->inner() : *a.type;
    for (const Value &l : lists) EXPECT_EQ(fitScore(t, l), scoreOnSummary(t, l)) << a.type->str() << " " << l.str();
  }
}

} // namespace
} // namespace dtf::refine
