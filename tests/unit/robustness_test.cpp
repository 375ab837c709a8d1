//===- tests/unit/robustness_test.cpp - input that cannot hurt (issue 27) ---===//
//
// Numbers read as Python reads them (and refused where PyTorch refuses
// them), IR text that torch's own parser refuses, the limits, messages that
// keep raw bytes off a terminal, and what the printer says.
//
//===----------------------------------------------------------------------===//
#include "frontends/text/ir_parser.h"
#include "frontends/text/ir_printer.h"
#include "frontends/text/printable.h"
#include "ops/notation.h"
#include "ops/semantics.h"
#include "refine/refine.h"

#include <gtest/gtest.h>

#include <cmath>

namespace dtf {
namespace {

using ir::parseIR;

TEST(Notation, IntegersBeyondInt64RaiseAsPyTorchDoes) {
  // torch.result_type(x, 99999999999999999999999): "Overflow when unpacking long"
  NotationResult r = parseNotation("99999999999999999999999", nullptr);
  EXPECT_FALSE(r.value.has_value());
  EXPECT_TRUE(r.pytorchRaises);
  EXPECT_NE(r.error.find("Overflow when unpacking long"), std::string::npos);
  EXPECT_TRUE(parseNotation("-9223372036854775809", nullptr).pytorchRaises);
  EXPECT_TRUE(parseNotation("9223372036854775807", nullptr).value.has_value()); // int64's largest fits
  // a list of ints: the argument parser's TypeError, naming the position
  const Schema *zeros = SchemaTable::of(TorchVersion::V1_13).find("aten::zeros");
  ASSERT_NE(zeros, nullptr);
  NotationResult l = parseNotation("[2,99999999999999999999]", zeros->args[0].type.get());
  EXPECT_TRUE(l.pytorchRaises);
  EXPECT_NE(l.error.find("at pos 2"), std::string::npos) << l.error;
  // a float argument takes it as a float (dropout's p: 1e20, refused by the rule, not the parser)
  const Schema *dropout = SchemaTable::of(TorchVersion::V1_13).find("aten::dropout");
  ASSERT_NE(dropout, nullptr);
  NotationResult p = parseNotation("99999999999999999999", dropout->args[1].type.get());
  ASSERT_TRUE(p.value.has_value()) << p.error;
  EXPECT_EQ(p.value->floatValue(), 1e20);
}

TEST(Notation, FloatsOutOfRangeAreWhatPythonReads) {
  auto inf = parseNotation("1e309", nullptr);
  ASSERT_TRUE(inf.value.has_value()) << inf.error;
  ASSERT_TRUE(inf.value->floatValue().has_value());
  EXPECT_TRUE(std::isinf(*inf.value->floatValue()));
  auto tiny = parseNotation("1e-400", nullptr);
  ASSERT_TRUE(tiny.value.has_value());
  EXPECT_EQ(tiny.value->floatValue(), 0.0);
  EXPECT_EQ(*parseNotation("-1e309", nullptr).value->floatValue(), -INFINITY);
}

TEST(IRParser, RefusesWhatTorchsParserRefuses) {
  // an unknown type name ("unknown type specifier" in torch)
  try {
    parseIR("graph(%x : Frobnicator):\n  return (%x)\n");
    FAIL() << "accepted an unknown type";
  } catch (const ir::IRSyntaxError &e) {
    EXPECT_EQ(e.line, 1u);
    EXPECT_EQ(e.col, 12u);
    EXPECT_NE(std::string(e.what()).find("Frobnicator"), std::string::npos);
  }
  // an int literal beyond int64 (torch: stoll)
  EXPECT_THROW(parseIR("graph(%x : Tensor):\n  %c : int = prim::Constant[value=100000000000000000000000000000000]()\n"
                       "  return (%c)\n"),
               ir::IRSyntaxError);
  // the largest int64 and opaque types torch prints are fine
  EXPECT_NO_THROW(parseIR("graph(%self : __torch__.Net, %g : Generator?, %d : Dict(str, Tensor), %s : Stream):\n"
                          "  %c : int = prim::Constant[value=9223372036854775807]()\n  return (%c)\n"));
}

TEST(IRParser, LimitsRefuseInsteadOfReadingOn) {
  std::string text = "graph(%x : Tensor):\n";
  for (int i = 0; i < 10; ++i) text += "  %v" + std::to_string(i) + " : Tensor = aten::relu(%x)\n";
  text += "  return (%x)\n";
  EXPECT_NO_THROW(parseIR(text, {.maxNodes = 10}));
  EXPECT_THROW(parseIR(text, {.maxNodes = 9}), ir::IRSyntaxError);
  const char *list = "graph(%x : Tensor):\n  %l : int[] = prim::Constant[value=[1, 2, 3]]()\n  return (%l)\n";
  EXPECT_NO_THROW(parseIR(list, {.maxListLength = 3}));
  EXPECT_THROW(parseIR(list, {.maxListLength = 2}), ir::IRSyntaxError);
  // nesting: refused at kMaxNesting with a message, never a stack overflow
  std::string deep = "graph(%x : " + std::string(100000, '(') + "Tensor" + std::string(100000, ')') + "):\n  return (%x)\n";
  EXPECT_THROW(parseIR(deep), ir::IRSyntaxError);
}

TEST(IRParser, ErrorsShowNoRawControlBytes) {
  try {
    parseIR("\x1b[31mgarbage\x07");
    FAIL();
  } catch (const ir::IRSyntaxError &e) {
    std::string m = e.what();
    for (char c : m) EXPECT_FALSE(static_cast<unsigned char>(c) < 0x20 || c == 0x7f) << m;
    EXPECT_NE(m.find("\\x1b"), std::string::npos) << m;
  }
  try {
    parseIR("graph(%x : Tensor):\n  return (%y\x1b[2J)\n");
    FAIL();
  } catch (const ir::IRSyntaxError &e) {
    EXPECT_EQ(std::string(e.what()).find('\x1b'), std::string::npos) << e.what();
  }
  EXPECT_EQ(ir::printable("ok \xc3\xa9"), "ok \xc3\xa9");  // UTF-8 passes
  EXPECT_EQ(ir::printable("\xff\x1b"), "\\xff\\x1b");      // not UTF-8, ESC
  EXPECT_EQ(ir::printable("\xc2\x9b"), "\\xc2\\x9b");      // C1 CSI
}

TEST(IRParser, KeepsTorchsSourceComments) {
  auto g = parseIR("graph(%x : Tensor):\n"
                   "  %y : Tensor = aten::relu(%x) # model.py:12:0\n"
                   "  %z : Tensor = aten::relu(%y), scope: __module.a # model.py:13:4\n"
                   "  %w : Tensor = aten::relu(%z) # model.py:12:0; dtypeflow: %w is Float, rank unknown\n"
                   "  %v : Tensor = aten::relu(%w)\n"
                   "  return (%v)\n");
  const auto &nodes = g->body().nodes;
  EXPECT_EQ(g->sourceOf(nodes[0]), "model.py:12:0");
  EXPECT_EQ(g->sourceOf(nodes[1]), "model.py:13:4");
  EXPECT_EQ(g->sourceOf(nodes[2]), "model.py:12:0"); // dtypeflow's own note is no source
  EXPECT_EQ(g->sourceOf(nodes[3]), "");
  EXPECT_EQ(g->sources.size(), 2u); // interned
}

TEST(IRPrinter, SaysWhatTheTypesCannot) {
  auto g = parseIR("graph(%x : Tensor, %n : int):\n"
                   "  %y : Tensor = aten::relu(%x) # model.py:3:0\n"
                   "  return (%y)\n");
  refine::Options opts;
  opts.semantics = Semantics::shared(TorchVersion::V1_13);
  opts.inputTypes = {{"x", Value::tensor(DType::BFloat16, Rank::top())}};
  refine::Result r = refine::refineGraph(*g, opts);
  std::string text = ir::printIR(*g, &r);
  // the dtype known without a rank is said in a comment, after torch's source comment
  EXPECT_NE(text.find("= aten::relu(%x) # model.py:3:0; dtypeflow: %y is BFloat16, rank unknown"), std::string::npos)
      << text;
  // the input typed by --input: in the header
  opts.inputTypes = {{"x", Value::tensor(DType::Float16, Rank::exact(2))}};
  r = refine::refineGraph(*g, opts);
  text = ir::printIR(*g, &r);
  EXPECT_NE(text.find("graph(%x : Half(*, *),"), std::string::npos) << text;
  EXPECT_NE(text.find("%y : Half(*, *) = aten::relu(%x) # model.py:3:0\n"), std::string::npos) << text;
  EXPECT_NO_THROW(parseIR(text));
}

TEST(PythonOps, RegisteredRulesAnswerIntegerArithmeticAndIndexing) {
  // int64 overflow wraps in TorchScript: the value is not guessed (and not UB)
  auto g = parseIR("graph(%x : Tensor):\n"
                   "  %big : int = prim::Constant[value=9223372036854775807]()\n"
                   "  %one : int = prim::Constant[value=1]()\n"
                   "  %s : int = aten::add(%big, %one)\n"
                   "  %p : int = aten::mul(%big, %big)\n"
                   "  %k : int = aten::add(%one, %one)\n"
                   "  return (%s, %p, %k)\n");
  refine::Options opts;
  opts.semantics = Semantics::shared(TorchVersion::V1_13);
  refine::Result r = refine::refineGraph(*g, opts);
  auto value = [&](const char *name) {
    for (size_t v = 0; v < g->values.size(); ++v)
      if (g->values[v].name == name) return r.values[v];
    return Value();
  };
  EXPECT_EQ(value("s").numKind(), NumKind::Int);
  EXPECT_FALSE(value("s").intValue().has_value());
  EXPECT_FALSE(value("p").intValue().has_value());
  EXPECT_EQ(value("k").intValue(), 2);
  // a list index out of range raises in TorchScript
  auto h = parseIR("graph(%x : Tensor):\n"
                   "  %l : int[] = prim::Constant[value=[1, 2]]()\n"
                   "  %i : int = prim::Constant[value=5]()\n"
                   "  %e : int = aten::__getitem__(%l, %i)\n"
                   "  return (%e)\n");
  refine::Result rh = refine::refineGraph(*h, opts);
  bool raises = false;
  for (const refine::Diagnostic &d : rh.diagnostics)
    raises = raises || (d.category == "dtype-error" && d.message.find("out of range") != std::string::npos);
  EXPECT_TRUE(raises);
}

} // namespace
} // namespace dtf
