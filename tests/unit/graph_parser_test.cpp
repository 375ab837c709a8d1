// The TorchScript IR text parser and printer (no libtorch).
#include "frontends/text/ir_parser.h"
#include "frontends/text/ir_printer.h"

#include <cmath>
#include <gtest/gtest.h>

namespace dtf::ir {
namespace {

const char *kSmall = R"(graph(%input.3 : Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu),
      %n : int):
  %2 : int = prim::Constant[value=1]() # /tmp/x.py:3:0
  %142 : Tensor = aten::add(%input.3, %input.3, %2), scope: __module.layer1
   = prim::If(%n)
    block0():
      -> ()
    block1():
      -> ()
  %s : str = prim::Constant[value="a \"q\""]()
  return (%142)
)";

TEST(GraphParser, KeepsNamesTypesAndStructure) {
  auto g = parseIR(kSmall);
  ASSERT_EQ(g->body().params.size(), 2u);
  const ValueInfo &in = g->values[g->body().params[0]];
  EXPECT_EQ(in.name, "input.3");
  EXPECT_TRUE(in.type->isTensor());
  EXPECT_EQ(in.type->dtype, DType::Float32);
  EXPECT_EQ(in.type->rank, 2);
  ASSERT_EQ(g->body().nodes.size(), 4u);
  EXPECT_EQ(g->kindOf(g->body().nodes[1]), "aten::add");
  EXPECT_EQ(g->values[g->nodes[g->body().nodes[1]].outputs[0]].name, "142");
  EXPECT_EQ(g->nodes[g->body().nodes[1]].loc.line, 4u);
  EXPECT_EQ(g->nodes[g->body().nodes[2]].blocks.size(), 2u);
  EXPECT_EQ(*g->attr(g->body().nodes[3], "value")->literal.text(), "a \"q\"");
}

TEST(GraphParser, PrintsWhatItRead) {
  auto g = parseIR(kSmall);
  std::string once = printIR(*g);
  auto again = parseIR(once);
  EXPECT_EQ(printIR(*again), once);
  EXPECT_NE(once.find("%input.3 : Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu)"), std::string::npos);
}

TEST(GraphParser, TypesWithDtypeAndRankOnly) {
  auto g = parseIR("graph(%a : Long(), %b : Half(*, *, *), %c : (Float(*), int[]), %d : Tensor?):\n  return (%a)\n");
  auto ty = [&](int i) { return g->values[g->body().params[i]].type; };
  EXPECT_EQ(ty(0)->rank, 0);
  EXPECT_EQ(ty(0)->dtype, DType::Int64);
  EXPECT_EQ(ty(1)->rank, 3);
  EXPECT_EQ(ty(2)->kind, TypeExpr::Kind::Tuple);
  EXPECT_EQ(ty(2)->elems[1]->kind, TypeExpr::Kind::List);
  EXPECT_EQ(ty(3)->kind, TypeExpr::Kind::Optional);
}

void expectError(const std::string &text, uint32_t line, uint32_t col, const std::string &part) {
  try {
    parseIR(text);
    FAIL() << "no error for:\n" << text;
  } catch (const IRSyntaxError &e) {
    EXPECT_EQ(e.line, line) << e.what();
    EXPECT_EQ(e.col, col) << e.what();
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

TEST(GraphParser, ErrorsCarryLineAndColumn) {
  expectError("graph(%x : Tensor):\n  %1 : Tensor = aten::relu(%y)\n  return (%1)\n", 2, 28, "undefined value %y");
  expectError("graph(%x : Tensor):\n  %1 : Tensor = aten::relu(%x\n  return (%1)\n", 3, 3, "expected ','");
  expectError("graph(%x : Tensor):\n  %x : Tensor = aten::relu(%x)\n  return (%x)\n", 2, 3, "defined twice");
  expectError("graph(%x : Tensor):\n  return (%x)\n  junk\n", 3, 3, "end of input");
  expectError("graph(%x : Tensor):\n  %s : str = prim::Constant[value=\"abc]()\n", 2, 35, "unterminated");
  // A tensor type's details stay on one line (fuzz_module_text: such a type
  // was printed back verbatim, across lines, as text that did not parse).
  expectError("graph(%x : Float(3, device=cpu\n  %1 : Tensor = aten::relu(%x)):\n  return (%x)\n", 2, 31,
              "do not close on that line");
  expectError("graph(%x : Tensor):\n  %c : int = prim::Constant[value=]()\n  return (%x)\n", 2, 35, "has no value");
}

// What torch prints for a Python autograd Function and for tensor
// constants whose data starts with `nan` or is empty.
TEST(GraphParser, PythonOpsAndOddTensorDumps) {
  auto g = parseIR(R"(graph(%x : Float(3)):
  %y : Float(3) = ^Scale[inplace=0, module="__main__", Subgraph=<Graph>](2.0, 'a)b', <obj at 0x7f>)(%x) # f.py:1:0
  %n : Float(2) = prim::Constant[value=nan  1 [ CPUFloatType{2} ]]() # f.py:2:0
  %e : Float(0) = prim::Constant[value=[ CPUFloatType{0} ]]()
  %l : int[] = prim::Constant[value=[1, 2]]()
  %m : Float(2) = prim::Constant[value=-nan  1 [ CPUFloatType{2} ]]()
  %d : Double() = prim::Constant[value={-nan}]()
  return (%y, %n, %e, %l, %m, %d)
)");
  const auto &nodes = g->body().nodes;
  ASSERT_EQ(nodes.size(), 6u);
  EXPECT_EQ(g->attr(nodes[4], "value")->kind, Attribute::LitKind::TensorLiteral);
  ASSERT_TRUE(g->attr(nodes[5], "value")->literal.floatValue().has_value());
  EXPECT_TRUE(std::isnan(*g->attr(nodes[5], "value")->literal.floatValue()));
  EXPECT_EQ(g->kindOf(nodes[0]), "prim::PythonOp");
  EXPECT_EQ(g->attr(nodes[0], "name")->text, "Scale");
  ASSERT_EQ(g->nodes[nodes[0]].inputs.size(), 1u); // the scalars are not inputs
  EXPECT_EQ(g->attr(nodes[1], "value")->kind, Attribute::LitKind::TensorLiteral);
  EXPECT_EQ(g->attr(nodes[2], "value")->kind, Attribute::LitKind::TensorLiteral);
  EXPECT_EQ(g->attr(nodes[3], "value")->kind, Attribute::LitKind::List);
  // A dump is printed back whole (fuzz_module_text: only its first token was).
  EXPECT_NE(printIR(*g).find("prim::Constant[value=nan  1 [ CPUFloatType{2} ]]()"), std::string::npos) << printIR(*g);
  expectError("graph(%x : Tensor):\n  %y : Tensor = ^F(1, (2)(%x)\n  return (%y)\n", 2, 19, "unterminated '('");
  expectError("graph(%x : Tensor):\n  %y : Tensor = ^F[a=1](%x\n", 2, 24, "unterminated '('");
}

// A sparse tensor prints as `FloatTensor(...)`: its dtype, without sizes.
TEST(GraphParser, SparseTensorTypesHaveADtypeAndNoRank) {
  auto g = parseIR(R"(graph(%x : Float(5, 5, strides=[5, 1], requires_grad=0, device=cpu)):
  %2 : ComplexFloatTensor(requires_grad=0, device=cpu) = aten::to_sparse(%x)
  return (%2)
)");
  const TypeExpr &t = *g->values[g->nodes[g->body().nodes[0]].outputs[0]].type;
  EXPECT_TRUE(t.isTensor());
  EXPECT_EQ(t.dtype, DType::Complex64);
  EXPECT_FALSE(t.rank.has_value());
}

// Debug names are printed unescaped: regnet's `block1-0` submodules give
// parameter names with '-', and names hold other punctuation too.
TEST(GraphParser, ValueNamesRunToWhitespaceOrDelimiters) {
  auto g = parseIR(R"(graph(%trunk.block1-0.proj.weight : Float(2, strides=[1], requires_grad=1, device=cpu),
      %a/b+c : int):
  %y-1 : Tensor = aten::add(%trunk.block1-0.proj.weight, %trunk.block1-0.proj.weight, %a/b+c)
  return (%y-1)
)");
  EXPECT_EQ(g->values[g->body().params[0]].name, "trunk.block1-0.proj.weight");
  EXPECT_EQ(g->values[g->body().params[1]].name, "a/b+c");
  const Node &add = g->nodes[g->body().nodes[0]];
  EXPECT_EQ(g->values[add.outputs[0]].name, "y-1");
  EXPECT_EQ(add.inputs[0], g->body().params[0]);
  EXPECT_EQ(add.inputs[2], g->body().params[1]);
  expectError("graph(%x : Tensor):\n  return (%)\n", 2, 12, "expected a value name after '%'");
}

// Scripted models return named tuples (googlenet's GoogLeNetOutputs).
TEST(GraphParser, NamedTupleTypesAreTuplesOfTheirFields) {
  auto g = parseIR(R"(graph(%x : Tensor, %n : NoneType):
  %t : NamedTuple(logits : Tensor, aux : Tensor?) = prim::TupleConstruct(%x, %n)
  return (%t)
)");
  const TypeExpr &t = *g->values[g->nodes[g->body().nodes[0]].outputs[0]].type;
  EXPECT_EQ(t.kind, TypeExpr::Kind::Tuple);
  ASSERT_EQ(t.elems.size(), 2u);
  EXPECT_TRUE(t.elems[0]->isTensor());
  EXPECT_EQ(t.elems[1]->kind, TypeExpr::Kind::Optional);
}

// torch.jit.fork: a `Future[T]` value, and the forked function printed as a
// `with prim::fork_0 = graph(...)` section with value names of its own: a
// graph of its own (Graph::subgraphs), and printed back as written.
TEST(GraphParser, ForkSubgraphsAndFutureTypes) {
  const char *text = R"(graph(%x : Float(3)):
  %2 : Future[Float(3)] = prim::fork_0(%x)
  %u : Union[int, Tensor] = prim::Uninitialized()
  %6 : Tensor = aten::wait(%2)
  return (%6)
with prim::fork_0 = graph(%x : Float(3)):
  %1 : Long() = prim::Constant[value={2}]()
  %2 : Tensor = aten::mul(%x, %1)
  return (%2)
with prim::fork_1 = graph(%y : Tensor):
  return (%y))";
  auto g = parseIR(text);
  EXPECT_EQ(g->body().nodes.size(), 3u);
  EXPECT_EQ(g->values.size(), 4u); // x, 2, u, 6: none of the sections' values
  const TypeExpr &fut = *g->values[1].type;
  EXPECT_EQ(fut.kind, TypeExpr::Kind::Other);
  ASSERT_EQ(fut.elems.size(), 1u);
  EXPECT_TRUE(fut.elems[0]->isTensor());
  EXPECT_EQ(g->values[2].type->elems.size(), 2u);
  ASSERT_EQ(g->subgraphs.size(), 2u);
  const Graph *fork0 = g->subgraph("prim::fork_0");
  ASSERT_NE(fork0, nullptr);
  EXPECT_EQ(fork0->values.size(), 3u); // its own %x, %1, %2
  EXPECT_EQ(fork0->nodes[fork0->body().nodes[1]].loc.line, 8u); // lines of the file
  EXPECT_EQ(fork0->subgraph("prim::fork_1"), g->subgraph("prim::fork_1")); // sections name each other
  std::string printed = printIR(*g);
  EXPECT_NE(printed.find("with prim::fork_1 = graph(%y : Tensor):\n  return (%y)\n"), std::string::npos) << printed;
  EXPECT_EQ(printIR(*parseIR(printed)), printed);
  try {
    parseIR("graph(%x : Tensor):\n  return (%x)\nwith prim::fork_0 = graph(%y : Tensor):\n  return (%x)\n");
    ADD_FAILURE() << "a section reading the outer graph's value parsed";
  } catch (const IRSyntaxError &e) {
    EXPECT_EQ(e.line, 4u);
    EXPECT_NE(std::string(e.what()).find("undefined value %x"), std::string::npos) << e.what();
  }
}

TEST(GraphParser, RefusesAbsurdNestingWithoutOverflow) {
  std::string text = "graph(%c : bool):\n";
  int depth = 100000;
  for (int i = 0; i < depth; ++i) text += " = prim::If(%c)\nblock0():\n";
  for (int i = 0; i < depth; ++i) text += "-> ()\nblock1():\n-> ()\n";
  text += "return ()\n";
  EXPECT_THROW(parseIR(text), IRSyntaxError);
  std::string types = "graph(%c : " + std::string(100000, '(') + "int" + std::string(100000, ')') + "):\n  return ()\n";
  EXPECT_THROW(parseIR(types), IRSyntaxError);
}

TEST(GraphParser, LargeFlatGraph) {
  std::string text = "graph(%x : Float(*, *)):\n";
  std::string prev = "x";
  for (int i = 0; i < 20000; ++i) {
    text += "  %v" + std::to_string(i) + " : Tensor = aten::relu(%" + prev + ")\n";
    prev = "v" + std::to_string(i);
  }
  text += "  return (%" + prev + ")\n";
  auto g = parseIR(text);
  EXPECT_EQ(g->nodes.size(), 20000u);
}

} // namespace
} // namespace dtf::ir
