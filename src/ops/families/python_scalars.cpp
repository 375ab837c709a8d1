//===- ops/families/python_scalars.cpp - ops on Python numbers ------------===//
//
// TorchScript's arithmetic on int/float/bool/complex values and the
// tensor-to-number conversions. Results are numbers (Value::number), with
// the value when both inputs are known and the arithmetic is simple.
// Generic `Scalar` overloads follow Python: bool+bool -> int, int+float ->
// float, anything with complex -> complex.
//
//===----------------------------------------------------------------------===//
#include "ops/registry.h"
#include "ops/shape_rules.h"
#include "ops/vocabulary.h"
#include "dtype/scalar_conversion.h"

#include <cmath>
#include <set>
#include <limits>

namespace dtf {
namespace {

/// Always a number of this kind.
RuleFn kindOnly(NumKind k) {
  return [k](const OpCall &) -> RuleResult { return Value::number(k); };
}

/// Python kind of a binary arithmetic result on two Scalars.
NumKind pyKind(NumKind a, NumKind b) {
  NumKind m = static_cast<NumKind>(std::max(static_cast<int>(a), static_cast<int>(b)));
  return m == NumKind::Bool ? NumKind::Int : m;
}

enum class Arith { Add, Sub, Mul, FloorDiv, Rem, Div, Max, Min };

std::optional<int64_t> intArith(Arith op, int64_t a, int64_t b) {
  int64_t r;
  switch (op) {
  case Arith::Add: if (__builtin_add_overflow(a, b, &r)) return std::nullopt; return r;
  case Arith::Sub: if (__builtin_sub_overflow(a, b, &r)) return std::nullopt; return r;
  case Arith::Mul: if (__builtin_mul_overflow(a, b, &r)) return std::nullopt; return r;
  case Arith::FloorDiv: {
    if (b == 0 || (a == std::numeric_limits<int64_t>::min() && b == -1)) return std::nullopt;
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
  }
  case Arith::Rem: {
    if (b == 0 || (a == std::numeric_limits<int64_t>::min() && b == -1)) return std::nullopt;
    int64_t m = a % b;
    if (m != 0 && ((m < 0) != (b < 0))) m += b;
    return m;
  }
  case Arith::Max: return std::max(a, b);
  case Arith::Min: return std::min(a, b);
  default: return std::nullopt;
  }
}

/// The int an argument holds: its value, or the sizes expression it carries
/// (`x.size(0)` of `[s0, 3]` is `s0`); unknown for any other number.
Dim heldInt(const Value &v) {
  if (!v.isNumber() || v.numKind() != NumKind::Int) return Dim();
  auto e = v.intExpr();
  return e ? Dim(*e) : Dim();
}

/// `a op b` on two ints as an expression (unknown on an overflow, or for an
/// op that is no polynomial, floor division, modulo, max or min).
Dim symArith(Arith op, const Dim &a, const Dim &b) {
  switch (op) {
  case Arith::Add: return a + b;
  case Arith::Sub: return a - b;
  case Arith::Mul: return a * b;
  case Arith::FloorDiv: return floorDiv(a, b);
  case Arith::Rem: return mod(a, b);
  case Arith::Max: return maxDim(a, b);
  case Arith::Min: return minDim(a, b);
  default: return Dim();
  }
}

/// An int result: known, symbolic (Value::symInt), or of unknown value.
Value intResult(const Dim &d) { return d.known() ? Value::symInt(*d.expr()) : Value::number(NumKind::Int); }

/// int (op) int -> int, with the value when known and the expression when
/// both hold sizes expressions (symbolic ints: `s0 * 2`, `s0 // 2`);
/// division by zero is a value-dependent error.
RuleFn intOp(Arith op) {
  return [op](const OpCall &c) -> RuleResult {
    const Value &a = c[0], &b = c[1];
    auto x = a.intValue(), y = b.intValue();
    if ((op == Arith::FloorDiv || op == Arith::Rem) && y && *y == 0)
      return c.error(ErrorKind::ValueDependent, "integer division or modulo by zero");
    if (x && y) {
      if (auto r = intArith(op, *x, *y)) return Value::integer(*r);
      return Value::number(NumKind::Int);
    }
    return intResult(symArith(op, heldInt(a), heldInt(b)));
  };
}

/// float-valued arithmetic (either side float, or true division). A zero
/// divisor does not raise: 5.0 / 0 is inf, as in C++ (measured: div.int,
/// div.float; floordiv and remainder of floats give inf and nan).
RuleFn floatOp(Arith op) {
  return [op](const OpCall &c) -> RuleResult {
    auto x = c[0].floatValue(), y = c[1].floatValue();
    if (x && y) {
      switch (op) {
      case Arith::Add: return Value::floating(*x + *y);
      case Arith::Sub: return Value::floating(*x - *y);
      case Arith::Mul: return Value::floating(*x * *y);
      case Arith::Div: return Value::floating(*x / *y);
      case Arith::Max: return Value::floating(std::max(*x, *y));
      case Arith::Min: return Value::floating(std::min(*x, *y));
      default: break;
      }
    }
    return Value::number(NumKind::Float);
  };
}

/// Generic Scalar arithmetic: kind by Python rules.
RuleFn scalarOp(Arith op) {
  return [op](const OpCall &c) -> RuleResult {
    // Bool operands are rejected before this, and complex ones for every op
    // but add/sub/mul (see rejectBool).
    NumKind k = pyKind(*c[0].numKind(), *c[1].numKind());
    if (op == Arith::Div && k != NumKind::Complex) k = NumKind::Float;
    // Integer floordiv by zero raises "division by 0"; integer remainder by
    // zero kills libtorch 1.13 (SIGFPE): an error either way (value-dependent).
    if ((op == Arith::FloorDiv || op == Arith::Rem) && k == NumKind::Int && c[1].intValue() == 0)
      return c.error(ErrorKind::ValueDependent, "integer division or modulo by zero");
    // Two ints (not bools): the int result, symbolic where they are.
    if (k == NumKind::Int && c[0].numKind() == NumKind::Int && c[1].numKind() == NumKind::Int)
      return intResult(symArith(op, heldInt(c[0]), heldInt(c[1])));
    // prim::max / prim::min (Scalar, Scalar) promote like arithmetic:
    // max(3, 2.5) is 3.0 (complex operands are rejected before this).
    return Value::number(k);
  };
}

/// Comparison of two numbers: bool, with the value when both known.
RuleFn compareOp(int which) { // 0 eq 1 ne 2 lt 3 le 4 gt 5 ge
  return [which](const OpCall &c) -> RuleResult {
    if (c[0].isNumber() && c[1].isNumber()) {
      auto x = c[0].floatValue(), y = c[1].floatValue();
      auto xi = c[0].intValue(), yi = c[1].intValue();
      bool ints = xi && yi && c[0].numKind() != NumKind::Float && c[1].numKind() != NumKind::Float;
      if (ints || (x && y)) {
        auto cmp = [&](auto p, auto q) {
          switch (which) {
          case 0: return p == q;
          case 1: return p != q;
          case 2: return p < q;
          case 3: return p <= q;
          case 4: return p > q;
          default: return p >= q;
          }
        };
        return Value::boolean(ints ? cmp(*xi, *yi) : cmp(*x, *y));
      }
      // Symbolic ints: decided when the difference's range decides it
      // (`s0 >= 1` for a size symbol s0 >= 2), unknown otherwise.
      Dim d = heldInt(c[0]) - heldInt(c[1]);
      if (d.known()) {
        SymRange r = d.expr()->range();
        std::optional<bool> decided;
        switch (which) {
        case 0: case 1:
          if (!r.contains(0)) decided = which == 1;
          else if (r.only() == 0) decided = which == 0;
          break;
        case 2: if (r.hi < 0) decided = true; else if (r.lo >= 0) decided = false; break;
        case 3: if (r.hi <= 0) decided = true; else if (r.lo > 0) decided = false; break;
        case 4: if (r.lo > 0) decided = true; else if (r.hi <= 0) decided = false; break;
        default: if (r.lo >= 0) decided = true; else if (r.hi < 0) decided = false; break;
        }
        if (decided) return Value::boolean(*decided);
      }
    }
    return Value::number(NumKind::Bool);
  };
}

/// Number kind a tensor's dtype converts to (ScalarImplicit).
NumKind kindOf(DType d) {
  if (isBool(d)) return NumKind::Bool;
  if (isIntegral(d, false)) return NumKind::Int;
  if (isFloating(d)) return NumKind::Float;
  return NumKind::Complex;
}

/// IntImplicit / FloatImplicit / ScalarImplicit / ComplexImplicit: the
/// tensor must be 0-dim; IntImplicit needs an integral (non-bool) dtype.
RuleFn implicit(std::optional<NumKind> to, bool needInt) {
  return [to, needInt](const OpCall &c) -> RuleResult {
    const Value &a = c.arg("a");
    if (a.rank().mayBeNonZero() && !a.rank().mayBeZero())
      return c.semantic("cannot input a tensor of dimension other than 0 as a scalar argument ({})",
                        a.str());
    DType d = *a.dtype();
    if (needInt && !isIntegral(d, false))
      return c.semantic("cannot input a tensor of type {} as an integral argument", name(d));
    return Value::number(to ? *to : kindOf(d));
  };
}

/// The generic `number` (Scalar) implementations in libtorch 1.13 dispatch
/// on isComplexDouble()/isDouble() and read anything else with toInt(), so a
/// bool operand trips an internal assert (isInt()). eq/ne take bool only
/// through their own `.bool` overload as well. Ops in `noComplex` have no
/// complex branch either.
RuleFn rejectBool(RuleFn f, bool noComplex) {
  return [f, noComplex](const OpCall &c) -> RuleResult {
    for (size_t i = 0; i < c.size(); ++i) {
      if (c.schema().args[i].type->kind != SchemaType::Kind::Number || !c[i].isNumber()) continue;
      NumKind k = *c[i].numKind();
      if (k == NumKind::Bool || (noComplex && k == NumKind::Complex))
        return c.semantic("a {} is not supported for number argument '{}'", name(k),
                          c.schema().args[i].name);
    }
    return f(c);
  };
}

/// aten::eq / aten::ne on two Scalars (DEFINE_SCALAR_BINARY_OP_WITH_COMPLEX_
/// WITHOUT_INT_COMPLEX_PAIR): complex with complex/float, float with
/// anything but bool, int with int/float give a bool; a bool read by toInt()
/// asserts; complex-with-int (either order) and int-with-bool push nothing at
/// all (an empty tuple here: no result value).
RuleFn scalarEq(int which) {
  RuleFn cmp = compareOp(which);
  return [cmp](const OpCall &c) -> RuleResult {
    NumKind a = *c[0].numKind(), b = *c[1].numKind();
    using N = NumKind;
    auto assertFail = [&](const char *arg) {
      return c.semantic("a bool is not supported for number argument '{}'", arg);
    };
    if (a == N::Complex) {
      if (b == N::Complex || b == N::Float) return Value::number(N::Bool);
      return Value::tuple({});
    }
    if (a == N::Float) {
      if (b == N::Bool) return assertFail("b");
      if (b == N::Complex) return Value::number(N::Bool);
      return cmp(c);
    }
    if (a == N::Bool) return assertFail("a");
    if (b == N::Bool || b == N::Complex) return Value::tuple({});
    return cmp(c);
  };
}


/// Number kind of a plain schema type (int/float/bool/complex), if it is one.
std::optional<NumKind> plainKind(const SchemaType &t) {
  using K = SchemaType::Kind;
  switch (t.kind) {
  case K::Int: return NumKind::Int;
  case K::Float: return NumKind::Float;
  case K::Bool: return NumKind::Bool;
  case K::Complex: return NumKind::Complex;
  default: return std::nullopt;
  }
}

/// Results exactly as the schema's return types say (`-> float`,
/// `-> (float, int)`); no values.
RuleFn byReturnTypes(const Schema &sc) {
  std::vector<NumKind> kinds;
  for (const SchemaArg &r : sc.returns) kinds.push_back(*plainKind(*r.type));
  return [kinds](const OpCall &) -> RuleResult {
    std::vector<Value> out; // one per result: divmod's (float, float) are two
    for (NumKind k : kinds) out.push_back(Value::number(k));
    return out;
  };
}

/// `op.Scalar(Scalar a) -> Scalar` of the math ops in register_prim_ops:
/// a float runs the `.float` overload, a complex the `.complex` one (when
/// the op has one; otherwise the int path, which rejects it), everything
/// else the `.int` one (a bool trips its isInt() assert).
RuleFn unaryScalarDispatch(std::optional<NumKind> forInt, std::optional<NumKind> forFloat,
                           std::optional<NumKind> forComplex) {
  return [=](const OpCall &c) -> RuleResult {
    NumKind k = *c[0].numKind();
    std::optional<NumKind> r = k == NumKind::Float     ? forFloat
                               : k == NumKind::Complex ? forComplex
                               : k == NumKind::Int     ? forInt
                                                       : std::nullopt;
    if (!r) return c.semantic("a {} is not supported for number argument 'a'", name(k));
    return Value::number(*r);
  };
}

// Registers a rule and gives every int/float/bool/complex/str argument a
// literal sample (Scalar arguments are swept by the harness).
struct Adder {
  Registry &r;
  static bool exempt(const std::string &key) { return key == "aten::Int.Scalar"; }
  static bool noComplex(const std::string &key) {
    // No complex branch: a complex operand reaches toInt() and asserts.
    static const std::set<std::string> keys{
        "aten::div", "aten::floordiv", "aten::remainder", "aten::fmod", "aten::atan2.Scalar_Scalar",
        "aten::copysign", "aten::lt", "aten::le", "aten::gt", "aten::ge", "aten::log.Scalar_Scalar",
        "aten::mathremainder", "aten::pow.Scalar_Scalar", "prim::max", "prim::min",
        "aten::polar.Scalar_Scalar"};
    return keys.count(key) > 0;
  }
  Registry::Entry add(const std::string &key, const char *family, RuleFn f) {
    if (r.skips(key)) return r.add(key, family, std::move(f)); // ignored, its schema left unparsed
    const Schema *sc = r.schemas().find(key);
    bool generic = false;
    if (sc)
      for (const SchemaArg &a : sc->args)
        if (a.type->kind == SchemaType::Kind::Number) generic = true;
    bool eqLike = key == "aten::eq" || key == "aten::ne";
    auto e = r.add(key, family, generic && !exempt(key) && !eqLike ? rejectBool(f, noComplex(key)) : f);
    if (!sc) return e;
    for (const SchemaArg &a : sc->args) {
      using K = SchemaType::Kind;
      switch (a.type->kind) {
      case K::Int: e.sample(a.name, a.name == "b" ? "-3" : "7"); break;
      case K::Float: e.sample(a.name, a.name == "b" ? "-2.5" : "7.25"); break;
      case K::Bool: e.sample(a.name, "True"); break;
      case K::Complex: e.sample(a.name, "1j"); break;
      case K::Str: e.sample(a.name, "'3'"); break;
      case K::Tensor: e.sample(a.name, "sweep[1]"); break;
      default: break;
      }
    }
    return e;
  }
};

// Two numbers of any kind (`scalar`), two ints, two floats, and the mixed forms.
struct A { Arith op; const char *scalar, *ints, *floats, *intFloat, *floatInt; };
void arithmetic(Adder &r, const A &a) {
  const char *fam = "python.number";
  r.add(a.ints, fam, intOp(a.op));
  for (const char *k : {a.floats, a.intFloat, a.floatInt}) r.add(k, fam, floatOp(a.op));
  r.add(a.scalar, fam, scalarOp(a.op));
}

/// +, -, *, /, //, %, divmod on two numbers.
void registerNumberArithmetic(Adder &r) {
  const char *fam = "python.number";
  for (const A &a : {
      A{Arith::Add, "aten::add", "aten::add.int", "aten::add.float", "aten::add.int_float",
        "aten::add.float_int"},
      A{Arith::Sub, "aten::sub", "aten::sub.int", "aten::sub.float", "aten::sub.int_float",
        "aten::sub.float_int"},
      A{Arith::Mul, "aten::mul", "aten::mul.int", "aten::mul.float", "aten::mul.int_float",
        "aten::mul.float_int"},
  })
    arithmetic(r, a);
  for (const char *k : {"aten::add.complex", "aten::add.complex_float", "aten::add.complex_int",
                        "aten::add.float_complex", "aten::add.int_complex", "aten::sub.complex",
                        "aten::sub.complex_float", "aten::sub.complex_int", "aten::sub.float_complex",
                        "aten::sub.int_complex", "aten::mul.complex", "aten::mul.complex_float",
                        "aten::mul.complex_int", "aten::mul.float_complex", "aten::mul.int_complex"})
    r.add(k, fam, kindOnly(NumKind::Complex));
  r.add("aten::div.int", fam, floatOp(Arith::Div)).variant({{"b", "0"}});
  r.add("aten::div.float", fam, floatOp(Arith::Div)).variant({{"b", "0.0"}});
  r.add("aten::div", fam, scalarOp(Arith::Div));
  r.add("aten::div.complex", fam, kindOnly(NumKind::Complex));

  // (zero divisors sampled where libtorch raises or answers; not where it
  // crashes: remainder of ints, __round_to_zero_floordiv)
  r.add("aten::floordiv.int", fam, intOp(Arith::FloorDiv)).variant({{"b", "0"}});
  r.add("aten::floordiv", fam, scalarOp(Arith::FloorDiv)).variant({{"b", "0"}});
  for (const char *k : {"aten::floordiv.float", "aten::floordiv.float_int", "aten::floordiv.int_float"})
    r.add(k, fam, kindOnly(NumKind::Float)).variant({{"b", "0"}});
  r.add("aten::remainder.int", fam, intOp(Arith::Rem));
  r.add("aten::remainder", fam, scalarOp(Arith::Rem));
  // a / b rounded toward zero (7, -3 -> -2); by zero libtorch crashes (SIGFPE)
  r.add("aten::__round_to_zero_floordiv.int", fam, [](const OpCall &c) -> RuleResult {
    auto x = c[0].intValue(), y = c[1].intValue();
    if (y == 0) return c.error(ErrorKind::ValueDependent, "integer division by zero");
    if (x && y && !(*x == std::numeric_limits<int64_t>::min() && *y == -1)) return Value::integer(*x / *y);
    return Value::number(NumKind::Int);
  });
  for (const char *k : {"aten::remainder.float", "aten::remainder.float_int",
                        "aten::remainder.int_float"})
    r.add(k, fam, kindOnly(NumKind::Float)).variant({{"b", "0"}});
  // divmod by zero raises ZeroDivisionError for ints and floats alike.
  for (const char *k : {"aten::divmod.int", "aten::divmod.float", "aten::divmod.int_float", "aten::divmod.float_int"})
    r.add(k, fam, [](const OpCall &c) -> RuleResult {
       if (auto y = c[1].floatValue(); y && *y == 0.0)
         return c.error(ErrorKind::ValueDependent, "ZeroDivisionError: divmod by zero");
       NumKind k = c[0].numKind() == NumKind::Int && c[1].numKind() == NumKind::Int ? NumKind::Int : NumKind::Float;
       return std::vector<Value>{Value::number(k), Value::number(k)};
     }).variant({{"y", "0"}});
}

/// pow, and the ops whose result is always a float, an int or a bool.
void registerNumberFixedKinds(Adder &r) {
  const char *fam = "python.number";
  // pow on two numbers is always a float (pow.int_to_int too, whatever its
  // schema says); 0 ** negative raises, except in the Scalar_Scalar form.
  for (const char *k : {"aten::pow.int", "aten::pow.float", "aten::pow.int_float",
                        "aten::pow.float_int", "aten::pow.int_to_int"})
    r.add(k, fam, [](const OpCall &c) -> RuleResult {
      auto x = c[0].floatValue(), y = c[1].floatValue();
      if (x && y && *x == 0.0 && *y < 0.0)
        return c.error(ErrorKind::ValueDependent, "0.0 cannot be raised to a negative power");
      return Value::number(NumKind::Float);
    });
  // Always-float results.
  for (const char *k :
       {"aten::pow.Scalar_Scalar", "aten::fmod", "aten::fmod.int", "aten::fmod.float",
        "aten::fmod.int_float", "aten::fmod.float_int", "aten::atan2.int", "aten::atan2.float",
        "aten::atan2.int_float", "aten::atan2.float_int", "aten::atan2.Scalar_Scalar",
        "aten::copysign", "aten::copysign.int", "aten::copysign.float", "aten::copysign.int_float",
        "aten::copysign.float_int", "aten::ldexp", "aten::Float.Scalar", "aten::Float.int",
        "aten::Float.bool", "aten::Float.str", "aten::Float.Tensor", "prim::abs.float",
        "prim::abs.complex"})
    r.add(k, fam, kindOnly(NumKind::Float));
  for (const char *k : {"aten::pow.complex", "aten::pow.complex_float", "aten::pow.float_complex",
                        "aten::neg.complex"})
    r.add(k, fam, kindOnly(NumKind::Complex));

  // Always-int results.
  // Int.Scalar takes a float or complex through c10's checked conversion
  // into a C++ int (measured: 1e18 raises, (2+0j) is 2, an imaginary part
  // raises); an int stays an int64.
  r.add("aten::Int.Scalar", fam, [](const OpCall &c) -> RuleResult {
    if (c[0].numKind() != NumKind::Int && conversionOverflows(c[0], DType::Int32, c.version()))
      return c.error(ErrorKind::ValueDependent, "{} cannot be converted to type int without overflow", c[0].str());
    if (c[0].numKind() == NumKind::Int) return intResult(heldInt(c[0])); // int(n) is n, symbolic too
    return Value::number(NumKind::Int);
  }).variant({{"a", "magnitudes"}});
  for (const char *k : {"aten::gcd.int", "aten::Int.bool",
                        "aten::Int.float", "aten::Int.str", "aten::Int.Tensor", "aten::__and__.int",
                        "aten::__or__.int", "aten::__xor__.int", "aten::__lshift__.int",
                        "aten::__rshift__.int", "prim::abs.int"})
    r.add(k, fam, kindOnly(NumKind::Int));
  r.add("aten::neg.int", fam, [](const OpCall &c) -> RuleResult {
    if (auto v = c[0].intValue(); v && *v != std::numeric_limits<int64_t>::min())
      return Value::integer(-*v);
    if (c[0].intValue()) return Value::number(NumKind::Int); // -INT64_MIN overflows
    return intResult(Dim(0) - heldInt(c[0]));
  });
  r.add("aten::neg.float", fam, [](const OpCall &c) -> RuleResult {
    if (auto v = c[0].floatValue()) return Value::floating(-*v);
    return Value::number(NumKind::Float);
  });
  // neg/abs of a generic Scalar: same kind, bool -> int.
  for (const char *k : {"aten::neg.Scalar", "prim::abs.Scalar"})
    r.add(k, fam, [](const OpCall &c) -> RuleResult {
      NumKind k = *c[0].numKind();
      if (k == NumKind::Bool) k = NumKind::Int;
      if (std::string_view(c.key()) == "prim::abs.Scalar" && k == NumKind::Complex)
        k = NumKind::Float;
      if (std::string_view(c.key()) == "aten::neg.Scalar" && c[0].numKind() == NumKind::Int && !c[0].intValue())
        return intResult(Dim(0) - heldInt(c[0])); // a symbolic int's negation
      return Value::number(k);
    });

  // Always-bool results.
  for (const char *k : {"aten::Bool.Tensor", "aten::Bool.int", "aten::Bool.float",
                        "aten::__and__.bool", "aten::__or__.bool", "aten::__xor__.bool"})
    r.add(k, fam, kindOnly(NumKind::Bool));
  r.add("aten::__not__", fam, [](const OpCall &c) -> RuleResult {
    if (auto v = c[0].boolValue()) return Value::boolean(!*v);
    return Value::number(NumKind::Bool);
  });
}

/// Comparisons of two numbers, prim::max / prim::min.
void registerNumberComparisons(Adder &r) {
  const char *fam = "python.number";
  // Comparisons.
  // (compareOp / scalarEq take the comparison by its index: eq, ne, lt, le, gt, ge)
  r.add("aten::eq", fam, scalarEq(0));
  r.add("aten::ne", fam, scalarEq(1));
  for (auto [i, k] : std::initializer_list<std::pair<int, const char *>>{
           {0, "aten::eq.int"}, {0, "aten::eq.float"}, {0, "aten::eq.int_float"},
           {0, "aten::eq.float_int"}, {0, "aten::eq.bool"},
           {1, "aten::ne.int"}, {1, "aten::ne.float"}, {1, "aten::ne.int_float"},
           {1, "aten::ne.float_int"}, {1, "aten::ne.bool"},
           {2, "aten::lt"}, {2, "aten::lt.int"}, {2, "aten::lt.float"},
           {2, "aten::lt.int_float"}, {2, "aten::lt.float_int"},
           {3, "aten::le"}, {3, "aten::le.int"}, {3, "aten::le.float"},
           {3, "aten::le.int_float"}, {3, "aten::le.float_int"},
           {4, "aten::gt"}, {4, "aten::gt.int"}, {4, "aten::gt.float"},
           {4, "aten::gt.int_float"}, {4, "aten::gt.float_int"},
           {5, "aten::ge"}, {5, "aten::ge.int"}, {5, "aten::ge.float"},
           {5, "aten::ge.int_float"}, {5, "aten::ge.float_int"},
       })
    r.add(k, fam, compareOp(i));
  // Complex equality: kind only.
  for (const char *k : {"aten::eq.complex", "aten::eq.complex_float", "aten::eq.float_complex", "aten::ne.complex",
                        "aten::ne.complex_float", "aten::ne.float_complex"})
    r.add(k, fam, kindOnly(NumKind::Bool));

  // prim::max / prim::min on two numbers.
  for (const A &a : {
      A{Arith::Max, "prim::max", "prim::max.int", "prim::max.float", "prim::max.int_float",
        "prim::max.float_int"},
      A{Arith::Min, "prim::min", "prim::min.int", "prim::min.float", "prim::min.int_float",
        "prim::min.float_int"},
  })
    arithmetic(r, a);
}

/// Math on one number (sqrt, exp, floor ...) and the fixed-kind number ops.
void registerNumberMath(Adder &r) {
  const char *fam = "python.number";
  Registry &reg = r.r;
  // Math on numbers (register_prim_ops): `.int` / `.float` / `.complex`
  // overloads return what their schema says; `.Scalar` dispatches on the
  // number's kind to one of them.
  auto retKind = [&](const std::string &key) -> std::optional<NumKind> {
    const Schema *sc = reg.schemas().find(key);
    if (!sc || sc->returns.size() != 1) return std::nullopt;
    return plainKind(*sc->returns[0].type);
  };
  // (each op's overloads the schema table may have; `toInt`: floor and ceil
  // of a float return an int, and NaN, infinities and values beyond int64
  // raise "Cannot convert float ... to integer", value-dependent)
  struct Math { const char *ints, *floats, *complexes, *scalar; bool toInt = false; };
  for (const Math &m : std::initializer_list<Math>{
           Math{"aten::sqrt.int", "aten::sqrt.float", "aten::sqrt.complex", "aten::sqrt.Scalar"},
           Math{"aten::exp.int", "aten::exp.float", "aten::exp.complex", "aten::exp.Scalar"},
           Math{"aten::expm1.int", "aten::expm1.float", "aten::expm1.complex", "aten::expm1.Scalar"},
           Math{"aten::log.int", "aten::log.float", "aten::log.complex", "aten::log.Scalar"},
           Math{"aten::log10.int", "aten::log10.float", "aten::log10.complex", "aten::log10.Scalar"},
           Math{"aten::log1p.int", "aten::log1p.float", "aten::log1p.complex", "aten::log1p.Scalar"},
           Math{"aten::sin.int", "aten::sin.float", "aten::sin.complex", "aten::sin.Scalar"},
           Math{"aten::cos.int", "aten::cos.float", "aten::cos.complex", "aten::cos.Scalar"},
           Math{"aten::tan.int", "aten::tan.float", "aten::tan.complex", "aten::tan.Scalar"},
           Math{"aten::asin.int", "aten::asin.float", "aten::asin.complex", "aten::asin.Scalar"},
           Math{"aten::acos.int", "aten::acos.float", "aten::acos.complex", "aten::acos.Scalar"},
           Math{"aten::atan.int", "aten::atan.float", "aten::atan.complex", "aten::atan.Scalar"},
           Math{"aten::sinh.int", "aten::sinh.float", "aten::sinh.complex", "aten::sinh.Scalar"},
           Math{"aten::cosh.int", "aten::cosh.float", "aten::cosh.complex", "aten::cosh.Scalar"},
           Math{"aten::tanh.int", "aten::tanh.float", "aten::tanh.complex", "aten::tanh.Scalar"},
           Math{"aten::asinh.int", "aten::asinh.float", "aten::asinh.complex", "aten::asinh.Scalar"},
           Math{"aten::acosh.int", "aten::acosh.float", "aten::acosh.complex", "aten::acosh.Scalar"},
           Math{"aten::atanh.int", "aten::atanh.float", "aten::atanh.complex", "aten::atanh.Scalar"},
           Math{"aten::erf.int", "aten::erf.float", "aten::erf.complex", "aten::erf.Scalar"},
           Math{"aten::erfc.int", "aten::erfc.float", "aten::erfc.complex", "aten::erfc.Scalar"},
           Math{"aten::gamma.int", "aten::gamma.float", "aten::gamma.complex", "aten::gamma.Scalar"},
           Math{"aten::lgamma.int", "aten::lgamma.float", "aten::lgamma.complex", "aten::lgamma.Scalar"},
           Math{"aten::degrees.int", "aten::degrees.float", "aten::degrees.complex", "aten::degrees.Scalar"},
           Math{"aten::radians.int", "aten::radians.float", "aten::radians.complex", "aten::radians.Scalar"},
           Math{"aten::fabs.int", "aten::fabs.float", "aten::fabs.complex", "aten::fabs.Scalar"},
           Math{"aten::floor.int", "aten::floor.float", "aten::floor.complex", "aten::floor.Scalar", true},
           Math{"aten::ceil.int", "aten::ceil.float", "aten::ceil.complex", "aten::ceil.Scalar", true},
           Math{"aten::round.int", "aten::round.float", "aten::round.complex", "aten::round.Scalar"},
           Math{"aten::angle.int", "aten::angle.float", "aten::angle.complex", "aten::angle.Scalar"},
       }) {
    auto checked = [toInt = m.toInt](RuleFn f) -> RuleFn {
      if (!toInt) return f;
      return [f = std::move(f)](const OpCall &c) -> RuleResult {
        if (auto x = c[0].floatValue(); x && c[0].numKind() == NumKind::Float &&
                                        !(*x >= -9.2233720368547758e18 && *x < 9.2233720368547758e18))
          return c.error(ErrorKind::ValueDependent, "Cannot convert float {} to integer", *x);
        return f(c);
      };
    };
    if (reg.skips(m.scalar)) continue; // the registry of another op (one op name per row)
    for (const char *k : {m.ints, m.floats, m.complexes})
      if (const Schema *sc = reg.schemas().find(k); sc && !reg.holds(k)) r.add(k, fam, checked(byReturnTypes(*sc)));
    if (reg.schemas().find(m.scalar) && !reg.holds(m.scalar)) {
      Registry::Entry e = r.add(m.scalar, fam,
            checked(unaryScalarDispatch(retKind(m.ints), retKind(m.floats), retKind(m.complexes))));
      if (m.toInt) e.variant({{"a", "magnitudes"}});
    }
  }
  // Fixed result kinds on plain numbers.
  for (const char *k :
       {"aten::Complex.bool_bool", "aten::Complex.bool_float", "aten::Complex.bool_int",
        "aten::Complex.float_bool", "aten::Complex.float_float", "aten::Complex.float_int",
        "aten::Complex.int_bool", "aten::Complex.int_float", "aten::Complex.int_int",
        "aten::Complex.Scalar",
        "aten::factorial.int", "aten::frexp", "aten::modf", "aten::isfinite.complex",
        "aten::isfinite.float", "aten::isinf.complex", "aten::isinf.float", "aten::isnan.complex",
        "aten::isnan.float", "aten::log.Scalar_Scalar", "aten::log.complex_complex",
        "aten::log.complex_float", "aten::log.complex_int", "aten::log.float_complex",
        "aten::log.float_float", "aten::log.float_int", "aten::log.int_complex",
        "aten::log.int_float", "aten::log.int_int", "aten::mathremainder",
        "aten::mathremainder.float", "aten::mathremainder.float_int", "aten::mathremainder.int",
        "aten::mathremainder.int_float", "aten::polar.float", "aten::polar.float_int",
        "aten::polar.int", "aten::polar.int_float", "aten::__derive_index",
        "aten::__range_length"})
    if (const Schema *sc = reg.skips(k) ? nullptr : reg.schemas().find(k); sc && !reg.holds(k)) r.add(k, fam, byReturnTypes(*sc));
}

/// polar, and tensors to numbers (IntImplicit ..., item).
void registerNumberConversions(Adder &r) {
  const char *fam = "python.number";
  // polar(int/float, int/float) -> complex.
  r.add("aten::polar.Scalar_Scalar", fam, kindOnly(NumKind::Complex));

  // Tensor -> number.
  r.add("aten::IntImplicit", fam, implicit(NumKind::Int, true));
  r.add("aten::FloatImplicit", fam, implicit(NumKind::Float, false));
  r.add("aten::ComplexImplicit", fam, implicit(NumKind::Complex, false));
  r.add("aten::ScalarImplicit", fam, implicit(std::nullopt, false));
  // x.item(): the Python number of the one element, its kind from the dtype
  // (more than one element raises: a size, not known here).
  for (const char *k : {"aten::item", "aten::_local_scalar_dense"})
    r.add(k, fam, [](const OpCall &c) -> RuleResult { return Value::number(kindOf(c.dtype("self"))); })
        .sample("self", "sweep[1]");
}

/// The int a traced size computation holds: a 0-dim int64 tensor's
/// (Value::heldIntTensor) or an int's; unknown otherwise.
Dim heldOperand(const Value &v) {
  if (v.isTensor()) {
    auto e = v.heldInt();
    return e ? Dim(*e) : Dim();
  }
  return heldInt(v);
}

/// `self op other` (`self + alpha * other` for add/sub) on 0-dim int64
/// tensors holding ints: torch.jit.trace records Python arithmetic on
/// `x.size(0)` so (`aten::mul(NumToTensor(size), 2)`); int64 in, int64 out.
ShapeFn heldArith(Arith op) {
  return [op](const OpCall &c) -> ShapeResult {
    const Value &self = c.arg("self"), &other = c.arg("other");
    auto isInt64 = [](const Value &v) {
      return v.isTensor() ? v.dtype() == DType::Int64 && v.rank() == Rank::exact(0) : v.numKind() == NumKind::Int;
    };
    if (!self.isTensor() || !isInt64(self) || !isInt64(other)) return {};
    Dim b = heldOperand(other);
    if (c.has("alpha")) {
      const Value &alpha = c.arg("alpha");
      if (alpha.numKind() != NumKind::Int || !alpha.intValue()) return {};
      b = b * Dim(*alpha.intValue());
    }
    Dim r = symArith(op, heldOperand(self), b);
    if (!r.known()) return {};
    return ShapeResult::value(Value::heldIntTensor(*r.expr()));
  };
}

} // namespace

/// Python ints through tensors and back, as torch.jit.trace records them:
/// prim::NumToTensor of a size, arithmetic on the 0-dim tensor, aten::Int.
void registerPythonScalarShapes(Registry &r) {
  r.shape("prim::NumToTensor.Scalar", [](const OpCall &c) -> ShapeResult {
    const Value &a = c.arg("a");
    auto e = a.numKind() == NumKind::Int ? a.intExpr() : std::nullopt;
    return e ? ShapeResult::value(Value::heldIntTensor(*e)) : ShapeResult();
  });
  for (const char *k : {"aten::Int.Tensor", "aten::IntImplicit", "aten::ScalarImplicit"})
    r.shape(k, [](const OpCall &c) -> ShapeResult {
      auto e = c.arg("a").heldInt();
      return e ? ShapeResult::value(Value::symInt(*e)) : ShapeResult();
    });
  for (auto [k, op] : std::initializer_list<std::pair<const char *, Arith>>{
           {"aten::add.Tensor", Arith::Add}, {"aten::add.Scalar", Arith::Add},
           {"aten::sub.Tensor", Arith::Sub}, {"aten::sub.Scalar", Arith::Sub},
           {"aten::mul.Tensor", Arith::Mul}, {"aten::mul.Scalar", Arith::Mul},
           {"aten::floor_divide", Arith::FloorDiv}, {"aten::floor_divide.Scalar", Arith::FloorDiv},
           {"aten::remainder.Tensor", Arith::Rem}, {"aten::remainder.Scalar", Arith::Rem}})
    r.shape(k, heldArith(op));
  // `x.size(0) // 2` as 2.x's tracer records it (div(..., rounding_mode='trunc'
  // or 'floor')): floor division, the same as trunc on sizes, which are >= 0
  // (issue 35, shapes-corpus: MultiheadAttention's head_dim).
  // (The Scalar form: a pooled 0-dim constant is read both ways.)
  for (const char *k : {"aten::div.Tensor_mode", "aten::div.Scalar_mode"})
    r.shape(k, [floorDiv = heldArith(Arith::FloorDiv)](const OpCall &c) -> ShapeResult {
      auto mode = c.arg("rounding_mode").text();
      if (!mode || (*mode != "trunc" && *mode != "floor")) return {};
      auto held = [](const Value &v) { return v.isTensor() ? v.heldInt() : v.intExpr(); };
      auto a = held(c.arg("self")), b = held(c.arg("other"));
      if (*mode == "trunc" && (!a || !b || a->range().lo < 0 || b->range().lo < 0)) return {};
      return floorDiv(c);
    });
}

void registerPythonScalarOps(Registry &reg) {
  Adder r{reg};
  registerNumberArithmetic(r);
  registerNumberFixedKinds(r);
  registerNumberComparisons(r);
  registerNumberMath(r);
  registerNumberConversions(r);
}

} // namespace dtf
