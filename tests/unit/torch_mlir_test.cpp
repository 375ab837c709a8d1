// The Torch-dialect MLIR reader (frontends/torch_mlir): types, op names,
// both forms, refinement through the program IR, printing back, errors.
#include "frontends/torch_mlir/mlir_affine.h"
#include "frontends/torch_mlir/mlir_printer.h"
#include "frontends/torch_mlir/mlir_reader.h"
#include "frontends/torch_mlir/mlir_refine.h"
#include "frontends/torch_mlir/mlir_types.h"
#include "ops/semantics.h"
#include "refine/refine.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

using namespace dtf;
using namespace dtf::torch_mlir;

namespace {

const Semantics &sem() { return Semantics::of(TorchVersion::V2_14); }

std::string readFile(const std::string &rel) {
  std::ifstream in(std::string(DTF_SOURCE_DIR) + "/" + rel);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const Function &function(const Module &m, std::string_view name) {
  for (const Function &f : m.functions)
    if (f.name == name) return f;
  throw std::runtime_error("no function " + std::string(name));
}

/// The refined value of SSA name `name` in `f`.
Value valueOf(const Function &f, const refine::Result &r, std::string_view name) {
  for (const SsaDef &d : f.defs)
    if (d.name == name) return r.values[d.value];
  throw std::runtime_error("no value %" + std::string(name));
}

refine::Options opts() {
  refine::Options o;
  o.semantics = Semantics::shared(TorchVersion::V2_14);
  return o;
}

std::string annotate(const std::string &text) {
  Module m = readModule(text, sem());
  std::vector<refine::Result> rs;
  for (const Function &f : m.functions) rs.push_back(refine::refineGraph(*f.graph, opts()));
  return annotateModule(m, rs);
}

} // namespace

TEST(TorchMlirTypes, ParsesTorchTypes) {
  auto t = parseType("!torch.vtensor<[2,?,1],f32>");
  ASSERT_TRUE(t);
  EXPECT_TRUE(t->isTensor());
  EXPECT_EQ(t->dtype, DType::Float32);
  EXPECT_EQ(t->rank, 3);
  EXPECT_EQ(t->unitDims.ones, 4u);   // dim 2 is 1
  EXPECT_EQ(t->unitDims.others, 1u); // dim 0 is 2; dim 1 unknown
  t = parseType("!torch.tensor<*,si64>");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->dtype, DType::Int64);
  EXPECT_FALSE(t->rank);
  t = parseType("!torch.vtensor");
  ASSERT_TRUE(t);
  EXPECT_TRUE(t->isTensor());
  EXPECT_FALSE(t->dtype);
  t = parseType("!torch.vtensor<[2],unk>");
  ASSERT_TRUE(t);
  EXPECT_FALSE(t->dtype);
  EXPECT_EQ(t->rank, 1);
  t = parseType("!torch.vtensor<[],!torch.qint8>");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->dtype, DType::QInt8); // torch-mlir's quantized types
  EXPECT_EQ(parseType("!torch.vtensor<[2],!torch.quint8>")->dtype, DType::QUInt8);
  EXPECT_EQ(t->rank, 0);
  EXPECT_EQ(parseType("!torch.vtensor<[3],complex<f64>>")->dtype, DType::Complex128);
  EXPECT_EQ(parseType("!torch.vtensor<[3],f8E4M3FN>")->dtype, DType::Float8E4M3FN);
  EXPECT_EQ(parseType("!torch.vtensor<[3], bf16>")->dtype, DType::BFloat16);
  t = parseType("!torch.list<optional<vtensor<[2],f32>>>");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->kind, ir::TypeExpr::Kind::List);
  EXPECT_EQ(t->elems[0]->kind, ir::TypeExpr::Kind::Optional);
  EXPECT_EQ(t->elems[0]->elems[0]->dtype, DType::Float32);
  EXPECT_EQ(parseType("!torch.tuple<int, tensor>")->elems.size(), 2u);
  EXPECT_EQ(parseType("!torch.int")->kind, ir::TypeExpr::Kind::Int);
  EXPECT_EQ(parseType("!torch.Device")->kind, ir::TypeExpr::Kind::Device);
  EXPECT_EQ(parseType("!torch.union<float, int>")->kind, ir::TypeExpr::Kind::Other);
  EXPECT_EQ(parseType("i64")->kind, ir::TypeExpr::Kind::Other);
  EXPECT_FALSE(parseType("!torch.vtensor<[2,f32>"));
  EXPECT_FALSE(parseType("!torch.list<int"));
}

TEST(TorchMlirTypes, RefinedSpelling) {
  Value f32any = Value::tensor(DTypeSet(DType::Float32));
  Value f32r2 = Value::tensor(DTypeSet(DType::Float32), Rank::exact(2));
  EXPECT_EQ(refinedTypeText("!torch.vtensor", f32any), "!torch.vtensor<*,f32>");
  EXPECT_EQ(refinedTypeText("!torch.vtensor", f32r2), "!torch.vtensor<[?,?],f32>");
  EXPECT_EQ(refinedTypeText("!torch.tensor", f32r2), "!torch.tensor<[?,?],f32>");
  // Written sizes are kept; a written dtype that agrees leaves the text as written.
  EXPECT_EQ(refinedTypeText("!torch.vtensor<[2], f32>", f32r2), "!torch.vtensor<[2], f32>");
  EXPECT_EQ(refinedTypeText("!torch.vtensor<[2,3],unk>", f32r2), "!torch.vtensor<[2,3],f32>");
  // A conflicting written dtype: dtypeflow's known answer wins (check reports it).
  EXPECT_EQ(refinedTypeText("!torch.vtensor<*,f64>", f32any), "!torch.vtensor<*,f32>");
  // Unknown dtype: as written.
  EXPECT_EQ(refinedTypeText("!torch.vtensor", Value::unknownTensor()), "!torch.vtensor");
  EXPECT_EQ(refinedTypeText("!torch.int", Value::integer(3)), "!torch.int");
  EXPECT_EQ(elementName(DType::Bool), "i1");
  EXPECT_EQ(elementName(DType::Int64), "si64");
  EXPECT_EQ(elementName(DType::UInt8), "ui8");
}

TEST(TorchMlirTypes, SameTypeIsSqueezedEquality) {
  // sameType(a, b) answers squeeze(a) == squeeze(b) without making either: whitespace outside
  // strings does not count, inside them it does; the prefix may be longer than eight bytes.
  const char *types[] = {"!torch.vtensor", "!torch.vtensor<[2,3],f32>", "!torch.vtensor<[2, 3], f32>",
                         " !torch.vtensor<[2,3],f32> ", "!torch.vtensor<[2,3],f64>", "!torch.vtensor<*,f32>",
                         "!torch.nn.Module<\"a b\">", "!torch.nn.Module<\"ab\">", "!torch.nn.Module< \"a b\" >",
                         "!torch.vtensor<[2,3],f32>x", "", " ", "!torch.vtensor<[2,3],f3 2>"};
  for (const char *a : types)
    for (const char *b : types) EXPECT_EQ(sameType(a, b), squeeze(a) == squeeze(b)) << a << " vs " << b;
}

TEST(TorchMlirReader, NamesAreScopedByRegion) {
  // 400 torch.prim.If ops whose branches reuse the names %t0..%t6 (MLIR's scoping), each If using
  // earlier results named outside it: the names a region drops from the reader's table must be
  // its own only (the table deletes by shifting its probes; a wrong shift would lose %o<k>).
  std::string text = "func.func @f(%c: !torch.bool, %a: !torch.vtensor<[2],f32>, %l: !torch.list<int>) -> !torch.vtensor {\n"
                     "  %o0 = torch.aten.relu %a : !torch.vtensor<[2],f32> -> !torch.vtensor\n";
  uint32_t seed = 1;
  for (int i = 1; i <= 400; ++i) {
    seed = seed * 1103515245u + 12345u;
    std::string src = "%o" + std::to_string((seed >> 8) % i); // an earlier result, in a scattered order
    text += "  %o" + std::to_string(i) + " = torch.prim.If %c -> (!torch.vtensor) {\n";
    for (int branch = 0; branch < 2; ++branch) {
      if (branch) text += "  } else {\n";
      std::string prev = src;
      for (int t = 0; t < 7; ++t) {
        text += "    %t" + std::to_string(t) + " = torch.aten.neg " + prev + " : !torch.vtensor -> !torch.vtensor\n";
        prev = "%t" + std::to_string(t);
      }
      text += "    torch.prim.If.yield " + prev + " : !torch.vtensor\n";
    }
    text += "  }\n";
  }
  // Many names on few lines (the table is sized by lines): %u:300 in both branches of 3 Ifs, so
  // that names collide in the table and a stale one would make the else branch's a redefinition.
  std::string unpack = "    %u:300 = torch.prim.ListUnpack %l : !torch.list<int> -> !torch.int";
  for (int k = 1; k < 300; ++k) unpack += ", !torch.int";
  for (int i = 0; i < 3; ++i)
    text += "  %p" + std::to_string(i) + " = torch.prim.If %c -> (!torch.int) {\n" + unpack +
            "\n    torch.prim.If.yield %u#299 : !torch.int\n  } else {\n" + unpack +
            "\n    torch.prim.If.yield %u#7 : !torch.int\n  }\n";
  text += "  return %o400 : !torch.vtensor\n}\n";
  Module m = readModule(text, sem());
  ASSERT_EQ(m.functions.size(), 1u);
  refine::Result r = refine::refineGraph(*m.functions[0].graph, opts());
  EXPECT_EQ(valueOf(m.functions[0], r, "o400").dtype(), DType::Float32);
  // A name used after the region that defined it is undefined there.
  EXPECT_THROW(readModule("func.func @g(%c: !torch.bool, %a: !torch.int) -> !torch.int {\n"
                          "  %0 = torch.prim.If %c -> (!torch.int) {\n"
                          "    %1 = torch.aten.add.int %a, %a : !torch.int, !torch.int -> !torch.int\n"
                          "    torch.prim.If.yield %1 : !torch.int\n"
                          "  } else {\n"
                          "    torch.prim.If.yield %a : !torch.int\n"
                          "  }\n"
                          "  return %1 : !torch.int\n}\n",
                          sem()),
               ir::IRSyntaxError);
}

TEST(TorchMlirReader, PrettyFormFunctionsAndOps) {
  Module m = readModule(readFile("tests/torch_mlir/basic.mlir"), sem());
  ASSERT_EQ(m.functions.size(), 3u);
  const Function &fwd = function(m, "forward");
  EXPECT_EQ(fwd.split, 0);
  EXPECT_EQ(function(m, "forward2").split, 1);
  EXPECT_EQ(fwd.graph->body().params.size(), 2u);
  ASSERT_EQ(fwd.graph->body().returns.size(), 1u);
  // torch.aten.add.Tensor -> aten::add pinned to Tensor; torch.aten.relu -> the default overload.
  bool add = false, relu = false;
  for (const ir::Node &n : fwd.graph->nodes) {
    const std::string *pin = fwd.graph->pinnedOverload(n.kind);
    if (fwd.graph->kindName(n.kind) == "aten::add") add = pin && *pin == "Tensor";
    if (fwd.graph->kindName(n.kind) == "aten::relu") relu = pin && pin->empty();
  }
  EXPECT_TRUE(add);
  EXPECT_TRUE(relu);

  refine::Result r = refine::refineGraph(*fwd.graph, opts());
  // f32 + int64 tensor -> f32; to(dtype=7) -> f64; sum -> 0-dim f64.
  EXPECT_EQ(valueOf(fwd, r, "0").dtype(), DType::Float32);
  EXPECT_EQ(valueOf(fwd, r, "0").rank(), Rank::exact(2));
  EXPECT_EQ(valueOf(fwd, r, "1").dtype(), DType::Float64);
  EXPECT_EQ(valueOf(fwd, r, "3").dtype(), DType::Float64);
  EXPECT_EQ(valueOf(fwd, r, "3").rank(), Rank::exact(0));
  EXPECT_EQ(valueOf(fwd, r, "4").dtype(), DType::Float64);

  const Function &f2 = function(m, "forward2");
  refine::Result r2 = refine::refineGraph(*f2.graph, opts());
  EXPECT_EQ(valueOf(f2, r2, "0#0").dtype(), DType::Float16); // max.dim values
  EXPECT_EQ(valueOf(f2, r2, "0#1").dtype(), DType::Int64);   // and indices
  EXPECT_EQ(valueOf(f2, r2, "1").dtype(), DType::Float16);   // add_ keeps self's dtype
  EXPECT_EQ(valueOf(f2, r2, "3").dtype(), DType::Int64);     // int64 * int32 literal
}

TEST(TorchMlirReader, UnknownOpsAreDiagnosedNotGuessed) {
  Module m = readModule(readFile("tests/torch_mlir/basic.mlir"), sem());
  const Function &h = function(m, "helper");
  refine::Result r = refine::refineGraph(*h.graph, opts());
  EXPECT_EQ(valueOf(h, r, "1").dtype(), DType::BFloat16);
  EXPECT_FALSE(valueOf(h, r, "2").dtype()); // torch.operator "mylib.fancy": no rule file
  EXPECT_FALSE(valueOf(h, r, "4").dtype()); // func.call of a function not in its part of the file
  EXPECT_EQ(valueOf(h, r, "3").dtype(), DType::Bool);
  bool custom = false, call = false;
  for (const refine::Diagnostic &d : h.diagnostics) custom = custom || d.message.find("mylib::fancy") != std::string::npos;
  // Why a call is not followed is the module refinement's to say (it knows the callees).
  std::vector<refine::Result> rs = refineModule(m, opts());
  for (size_t i = 0; i < m.functions.size(); ++i)
    if (m.functions[i].name == "helper") {
      EXPECT_FALSE(valueOf(h, rs[i], "4").dtype());
      for (const refine::Diagnostic &d : rs[i].diagnostics)
        call = call || d.message.find("func.call: @forward2 is not defined in this module") != std::string::npos;
    }
  EXPECT_TRUE(custom);
  EXPECT_TRUE(call);
  Module bad = readModule("func.func @f(%a: !torch.vtensor<*,f32>) -> !torch.vtensor {\n"
                          "  %0 = torch.aten.no_such_op.Tensor %a : !torch.vtensor<*,f32> -> !torch.vtensor\n"
                          "  return %0 : !torch.vtensor\n}\n",
                          sem());
  ASSERT_EQ(bad.functions[0].diagnostics.size(), 1u);
  EXPECT_EQ(bad.functions[0].diagnostics[0].category, "unknown-target");
  EXPECT_EQ(bad.functions[0].diagnostics[0].loc.line, 2u);
}

TEST(TorchMlirReader, GenericFormReadsAsThePrettyOne) {
  Module m = readModule(readFile("tests/torch_mlir/generic.mlir"), sem());
  ASSERT_EQ(m.functions.size(), 1u);
  const Function &f = m.functions[0];
  EXPECT_EQ(f.name, "forward");
  refine::Result r = refine::refineGraph(*f.graph, opts());
  EXPECT_EQ(valueOf(f, r, "1").dtype(), DType::Float32);
  EXPECT_EQ(valueOf(f, r, "1").rank(), Rank::exact(2));
  EXPECT_EQ(valueOf(f, r, "5").dtype(), DType::Float16); // {value = 5 : i64}: c10's Half
  EXPECT_EQ(valueOf(f, r, "6").dtype(), DType::Float16);
}

TEST(TorchMlirPrinter, RefinesResultsAndCastsAtReturn) {
  // torch-mlir's refine-types.mlir @basic, and what its CHECK lines expect.
  std::string in = "func.func @basic(%arg0: !torch.vtensor<*,f32>) -> !torch.vtensor {\n"
                   "  %1 = torch.aten.cos %arg0 : !torch.vtensor<*,f32> -> !torch.vtensor\n"
                   "  %2 = torch.aten.cos %1 : !torch.vtensor -> !torch.vtensor\n"
                   "  return %1, %2 : !torch.vtensor, !torch.vtensor\n"
                   "}\n";
  std::string want = "func.func @basic(%arg0: !torch.vtensor<*,f32>) -> !torch.vtensor {\n"
                     "  %1 = torch.aten.cos %arg0 : !torch.vtensor<*,f32> -> !torch.vtensor<*,f32>\n"
                     "  %2 = torch.aten.cos %1 : !torch.vtensor<*,f32> -> !torch.vtensor<*,f32>\n"
                     "  %cast1 = torch.tensor_static_info_cast %1 : !torch.vtensor<*,f32> to !torch.vtensor\n"
                     "  %cast2 = torch.tensor_static_info_cast %2 : !torch.vtensor<*,f32> to !torch.vtensor\n"
                     "  return %cast1, %cast2 : !torch.vtensor, !torch.vtensor\n"
                     "}\n";
  EXPECT_EQ(annotate(in), want);
  // Nothing to refine: byte for byte as read (comments, spacing, loc).
  std::string same = "// c\nfunc.func @f(%a: !torch.int) -> !torch.int {\n  return %a :   !torch.int loc(\"x\":1:2)\n}\n";
  EXPECT_EQ(annotate(same), same);
}

TEST(TorchMlirPrinter, GenericCastsAreGeneric) {
  std::string out = annotate(readFile("tests/torch_mlir/generic.mlir"));
  // The sizes the inputs give ([2,3]) are written in as well.
  EXPECT_NE(out.find("\"torch.aten.tanh\"(%5) : (!torch.vtensor<[2,3],f16>) -> !torch.vtensor<[2,3],f16>"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("%cast6 = \"torch.tensor_static_info_cast\"(%6) : (!torch.vtensor<[2,3],f16>) -> !torch.vtensor"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("\"func.return\"(%cast6) : (!torch.vtensor) -> ()"), std::string::npos) << out;
}

TEST(TorchMlirPrinter, IfYieldsCastToTheIfsType) {
  std::string in = "func.func @f(%c: !torch.bool, %a: !torch.vtensor<[2],f32>, %b: !torch.vtensor<[2],f64>) {\n"
                   "  %0 = torch.prim.If %c -> (!torch.vtensor) {\n"
                   "    %1 = torch.aten.neg %a : !torch.vtensor<[2],f32> -> !torch.vtensor\n"
                   "    torch.prim.If.yield %1 : !torch.vtensor\n"
                   "  } else {\n"
                   "    %2 = torch.aten.neg %a : !torch.vtensor<[2],f32> -> !torch.vtensor\n"
                   "    torch.prim.If.yield %2 : !torch.vtensor\n"
                   "  }\n"
                   "  return\n"
                   "}\n";
  std::string out = annotate(in);
  // Both branches f32 of size [2]: the If's result is refined, the yields need no cast.
  EXPECT_NE(out.find("%0 = torch.prim.If %c -> (!torch.vtensor<[2],f32>)"), std::string::npos) << out;
  EXPECT_NE(out.find("torch.prim.If.yield %1 : !torch.vtensor<[2],f32>"), std::string::npos) << out;
  EXPECT_EQ(out.find("static_info_cast"), std::string::npos) << out;
}

TEST(TorchMlirReader, CheckComparesStatedTypes) {
  Module m = readModule(readFile("tests/torch_mlir/basic.mlir"), sem());
  const Function &f2 = function(m, "forward2");
  refine::Result r = refine::refineGraph(*f2.graph, refine::checkOptions(opts()));
  auto stated = compareStated(f2, r);
  // %3 is written <[4],si32>: dtypeflow infers int64 of rank 2 (a conflict, reported).
  bool wrong = false;
  for (const StatedType &s : stated) wrong = wrong || (f2.defs[s.def].name == "3" && s.verdict == refine::Verdict::Wrong);
  EXPECT_TRUE(wrong);
  const Function &fwd = function(m, "forward");
  refine::Result rf = refine::refineGraph(*fwd.graph, refine::checkOptions(opts()));
  for (const StatedType &s : compareStated(fwd, rf)) EXPECT_EQ(s.verdict, refine::Verdict::Correct) << fwd.defs[s.def].name;
}

TEST(TorchMlirReader, MalformedInputNamesLineAndColumn) {
  auto where = [](const std::string &text) -> std::pair<uint32_t, uint32_t> {
    try {
      readModule(text, sem());
    } catch (const ir::IRSyntaxError &e) {
      return {e.line, e.col};
    }
    return {0, 0};
  };
  EXPECT_EQ(where("func.func @f(%a: !torch.int) {\n  %0 = torch.aten.neg %b : !torch.int -> !torch.int\n}\n"),
            std::make_pair(2u, 23u)); // use of undefined value %b
  EXPECT_EQ(where("func.func @f(%a: !torch.int) {\n  %0 = torch.constant.int 1\n  %0 = torch.constant.int 2\n}\n"),
            std::make_pair(3u, 3u)); // defined twice
  EXPECT_EQ(where("func.func @f(%a: !torch.vtensor<[2,f32>) {\n}\n").first, 1u);
  EXPECT_NE(where("func.func @f(%a: !torch.int) {\n  %0 = torch.constant.str \"abc\n}\n").first, 0u);
  EXPECT_NE(where("\"builtin.module\"() ({\n").first, 0u);
  EXPECT_NE(where("func.func @f() {\n  %0 = \"torch.constant.int\"() : () -> !torch.int\n}\n").first, 0u);
}

TEST(TorchMlirReader, RecognisedByContent) {
  EXPECT_TRUE(looksLikeMlir("// c\nmodule {\n}"));
  EXPECT_TRUE(looksLikeMlir("#loc = loc(\"a\":1:2)\nfunc.func @f() {\n return\n}"));
  EXPECT_TRUE(looksLikeMlir("\"builtin.module\"() ({\n}) : () -> ()"));
  EXPECT_FALSE(looksLikeMlir("graph(%x : Tensor):\n  return (%x)\n"));
  EXPECT_FALSE(looksLikeMlir("# comment\ngraph(%x : Tensor):\n  return (%x)\n"));
}

TEST(TorchMlirRefine, PrivateCalleesLearnFromTheirCallSites) {
  std::string text = "func.func private @callee(%x: !torch.vtensor, %y: !torch.vtensor<*,f64>) -> !torch.vtensor {\n"
                     "  %0 = torch.aten.cos %x : !torch.vtensor -> !torch.vtensor\n"
                     "  return %0 : !torch.vtensor\n}\n"
                     "func.func @caller(%a: !torch.vtensor<[2],f32>, %b: !torch.vtensor<*,f64>) -> !torch.vtensor {\n"
                     "  %0 = func.call @callee(%a, %b) : (!torch.vtensor<[2],f32>, !torch.vtensor<*,f64>) -> !torch.vtensor\n"
                     "  return %0 : !torch.vtensor\n}\n"
                     "func.func @public_callee(%x: !torch.vtensor) -> !torch.vtensor {\n"
                     "  %0 = torch.aten.cos %x : !torch.vtensor -> !torch.vtensor\n"
                     "  return %0 : !torch.vtensor\n}\n"
                     "func.func @caller2(%a: !torch.vtensor<[2],f32>) -> !torch.vtensor {\n"
                     "  %0 = func.call @public_callee(%a) : (!torch.vtensor<[2],f32>) -> !torch.vtensor\n"
                     "  return %0 : !torch.vtensor\n}\n";
  Module m = readModule(text, sem());
  std::vector<refine::Result> rs = refineModule(m, opts());
  ASSERT_EQ(rs.size(), 4u);
  EXPECT_TRUE(m.functions[0].isPrivate);
  EXPECT_EQ(valueOf(m.functions[0], rs[0], "0").dtype(), DType::Float32); // from its one call site
  EXPECT_EQ(valueOf(m.functions[0], rs[0], "0").rank(), Rank::exact(1));
  EXPECT_EQ(valueOf(m.functions[1], rs[1], "0").dtype(), DType::Float32); // a call's result: the callee's return
  EXPECT_EQ(valueOf(m.functions[1], rs[1], "0").rank(), Rank::exact(1));
  EXPECT_FALSE(valueOf(m.functions[2], rs[2], "0").dtype());              // public: other callers may exist
  EXPECT_FALSE(valueOf(m.functions[3], rs[3], "0").dtype());              // so its return is unknown to callers too
}

TEST(TorchMlirRefine, BlockArgumentsJoinTheirBranches) {
  Module m = readModule(readFile("tests/torch_mlir/blocks.mlir"), sem());
  std::vector<refine::Result> rs = refineModule(m, opts());
  auto at = [&](std::string_view fn, std::string_view v) {
    for (size_t i = 0; i < m.functions.size(); ++i)
      if (m.functions[i].name == fn) return valueOf(m.functions[i], rs[i], std::string(v));
    ADD_FAILURE() << fn;
    return Value();
  };
  EXPECT_EQ(at("straight", "x").dtype(), DType::Float32);
  EXPECT_EQ(at("join_rank", "z").dtype(), DType::Float32); // ranks 2 and 1 join: the dtype only
  EXPECT_FALSE(at("join_rank", "z").rank().isExact());
  EXPECT_FALSE(at("join_dtype", "x").dtype());               // float32 and float64: unknown
  EXPECT_EQ(at("loop", "acc").dtype(), DType::Float32);       // the loop's fixpoint
  EXPECT_EQ(at("loop", "acc").rank(), Rank::exact(1));
  EXPECT_FALSE(at("loop_changes", "acc").dtype());           // float32, then int64 around the loop
  EXPECT_FALSE(at("loop_changes", "r").dtype());
}

TEST(TorchMlirPrinter, FuzzFoundPrintsReadBack) {
  // A return on the line of the op before it: the cast goes between them, on a line of its own.
  std::string out = annotate("func.func @f(%a: !torch.vtensor<*,f32>) -> !torch.vtensor {\n"
                             "  %1 = torch.aten.cos %a : !torch.vtensor<*,f32> -> !torch.vtensor return %1 : !torch.vtensor\n}\n");
  EXPECT_NE(out.find("-> !torch.vtensor<*,f32> \n  %cast1 = torch.tensor_static_info_cast %1"), std::string::npos) << out;
  EXPECT_NO_THROW(readModule(out, sem()));
  // A use of an op's result no text types (an unknown op's): its written operand type stays.
  out = annotate("func.func @f(%a: !torch.vtensor<*,f32>) {\n  %b = foo.bar 1\n"
                 "  %0 = torch.aten.add.Scalar %a, %b, %b : !torch.vtensor<*,f32>, !torch.int, !torch.int -> !torch.vtensor\n"
                 "  return\n}\n");
  EXPECT_NE(out.find("%a, %b, %b : !torch.vtensor<*,f32>, !torch.int, !torch.int -> "), std::string::npos) << out;
}

// --- symbolic sizes: torch.symbolic_int, torch.bind_symbolic_shape, affine maps ---

TEST(TorchMlirAffine, MapResultsAreSizeExpressions) {
  SymExpr a = SymExpr::symbol("s7", {2, 100}), b = SymExpr::symbol("s3");
  std::vector<SymExpr> syms{a, b};
  auto r = affineMapResults("affine_map<()[s0, s1] -> (s1, s0 + s1 * 2, 3)>", syms);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0]->str(), "s3");
  EXPECT_EQ(*r[1], a + SymExpr(2) * b);
  EXPECT_EQ(r[2]->constant(), 3);
  // floordiv, mod and ceildiv bind as tightly as `*`, left to right; ceildiv is -((-x) floordiv y).
  auto q = affineMapResults("()[s0] -> (s0 floordiv 2, s0 mod 2, (s0 + 3) ceildiv 4 * 2, -s0 + 5)", syms);
  ASSERT_EQ(q.size(), 4u);
  EXPECT_EQ(*q[0], *SymExpr::floorDiv(a, 2));
  EXPECT_EQ(*q[1], *SymExpr::mod(a, 2));
  EXPECT_EQ(q[2]->evaluate({{"s7", 5}}), 4); // ceil(8 / 4) * 2
  EXPECT_EQ(q[3]->evaluate({{"s7", 5}}), 0);
  // A dim is no function of the symbols: that size stays unknown, the others are read.
  auto d = affineMapResults("(d0)[s0] -> (d0, s0)", syms);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_FALSE(d[0]);
  EXPECT_EQ(d[1]->str(), "s7");
  EXPECT_TRUE(affineMapResults("()[] -> ()", {}).empty());
}

TEST(TorchMlirAffine, WrittenExpressionsReadBackEqual) {
  SymExpr a = SymExpr::symbol("s0", {2, SymRange::kInf}), b = SymExpr::symbol("s9");
  std::map<std::string, size_t> index{{"s0", 0}, {"s9", 1}};
  std::vector<SymExpr> syms{a, b};
  std::vector<SymExpr> cases{SymExpr(7), a, SymExpr(2) * a + SymExpr(1), a * b - SymExpr(3) * b - SymExpr(4),
                             SymExpr(0) - a, *SymExpr::floorDiv(a - SymExpr(1), SymExpr(2)) + SymExpr(1),
                             *SymExpr::mod(a * a, b), SymExpr(-5) * a * b};
  for (const SymExpr &e : cases) {
    auto text = affineText(e, index);
    ASSERT_TRUE(text) << e.str();
    auto back = affineMapResults("()[s0, s1] -> (" + *text + ")", syms);
    ASSERT_EQ(back.size(), 1u);
    ASSERT_TRUE(back[0]) << *text;
    EXPECT_EQ(*back[0], e) << e.str() << " written " << *text << " read " << back[0]->str();
  }
  EXPECT_EQ(affineText(SymExpr(2) * a + SymExpr(1), index), "2 * s0 + 1");
  EXPECT_FALSE(affineText(SymExpr::max(a, b), index)); // Max has no affine spelling
  EXPECT_FALSE(affineText(SymExpr::symbol("other"), index));
}

TEST(TorchMlirAffine, MalformedMapsThrow) {
  std::vector<SymExpr> one{SymExpr::symbol("s0")};
  EXPECT_THROW(affineMapResults("()[s0] -> (s1)", one), std::invalid_argument); // no second bound symbol
  EXPECT_THROW(affineMapResults("()[s0] -> (s0 +)", one), std::invalid_argument);
  EXPECT_THROW(affineMapResults("()[s0] -> (s0", one), std::invalid_argument);
  EXPECT_THROW(affineMapResults("()[s0] (s0)", one), std::invalid_argument);
  EXPECT_THROW(affineMapResults(std::string(5000, '(') , one), std::invalid_argument);
  EXPECT_THROW(affineMapResults("()[s0] -> (" + std::string(500, '(') + "s0" + std::string(500, ')') + ")", one),
               std::invalid_argument); // nested too deeply: refused, not a stack overflow
  // Division by zero or an overflow poisons that size only (unknown), as a guess would be wrong.
  auto z = affineMapResults("()[s0] -> (s0 floordiv 0, 9223372036854775807 + s0 + 1, s0)", one);
  ASSERT_EQ(z.size(), 3u);
  EXPECT_FALSE(z[0]);
  EXPECT_FALSE(z[1]);
  EXPECT_TRUE(z[2]);
}

TEST(TorchMlirReader, BoundSymbolsGiveSizesThatFlowAndAreChecked) {
  Module m = readModule(readFile("tests/torch_mlir/symbolic.mlir"), sem());
  const Function &f = function(m, "tanh_sigmoid_cat");
  refine::Result r = refine::refineGraph(*f.graph, opts());
  auto shape = [&](std::string_view name) { return dimsText(*valueOf(f, r, name).shape()); };
  EXPECT_EQ(shape("x"), "[s1, s0, 3]");
  EXPECT_EQ(shape("0"), "[s1, s0, 3]");                // tanh keeps its input's sizes
  EXPECT_EQ(shape("2"), "[s1, 2*s0 + s2 + s3, 3]");    // cat adds the dim-1 sizes
  // The symbols' ranges come from torch.symbolic_int: s0 in [5, 10] is never 1.
  EXPECT_EQ(valueOf(f, r, "x").dimAt(1).range().lo, 5);
  size_t exact = 0;
  for (const StatedType &s : compareStated(f, r)) {
    EXPECT_NE(s.verdict, refine::Verdict::Wrong);
    exact += s.sizes == refine::SizeVerdict::Exact;
  }
  EXPECT_EQ(exact, 3u); // tanh, sigmoid and cat results, each bound
  // Generic form: the same symbols through `shape_expressions` and `symbol_name`.
  const Function &g = function(m, "generic_form");
  refine::Result rg = refine::refineGraph(*g.graph, opts());
  EXPECT_EQ(dimsText(*valueOf(g, rg, "1").shape()), "[s4 - 5]");
}

TEST(TorchMlirReader, BadBindingsNameTheLine) {
  auto fails = [](const std::string &body) {
    std::string text = "func.func @f(%x: !torch.vtensor<[?,3],f32>) -> !torch.vtensor<[?,3],f32> {\n"
                       "  %s = torch.symbolic_int \"s0\" {min_val = 2, max_val = 8} : !torch.int\n" +
                       body + "  return %x : !torch.vtensor<[?,3],f32>\n}\n";
    try {
      readModule(text, sem());
    } catch (const ir::IRSyntaxError &e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(fails("  torch.bind_symbolic_shape %x, [%s], affine_map<()[s0] -> (s0, 4)> : !torch.vtensor<[?,3],f32>\n")
                .find("size 1 is 4, but the type says 3"),
            std::string::npos);
  EXPECT_NE(fails("  torch.bind_symbolic_shape %x, [%s], affine_map<()[s0] -> (s0)> : !torch.vtensor<[?,3],f32>\n")
                .find("binds 1 sizes"),
            std::string::npos);
  EXPECT_NE(fails("  torch.bind_symbolic_shape %x, [%s], affine_map<()[s0] -> (s1, 3)> : !torch.vtensor<[?,3],f32>\n")
                .find("s1 names no bound symbol"),
            std::string::npos);
  EXPECT_NE(fails("  torch.bind_symbolic_shape %x, [%s] : !torch.vtensor<[?,3],f32>\n").find("needs an affine_map"),
            std::string::npos);
}

TEST(TorchMlirTypes, KnownSizesAreWrittenIn) {
  Value v = Value::tensor(DTypeSet(DType::Float32), Rank::exact(3)).withShape({Dim(2), Dim(), Dim(SymExpr::symbol("s0"))});
  EXPECT_EQ(refinedTypeText("!torch.vtensor<[?,?,?],f32>", v), "!torch.vtensor<[2,?,?],f32>");
  EXPECT_EQ(refinedTypeText("!torch.vtensor", v), "!torch.vtensor<[2,?,?],f32>");
  EXPECT_EQ(refinedTypeText("!torch.vtensor<[?,7,?],f32>", v), "!torch.vtensor<[2,7,?],f32>"); // written sizes kept
  EXPECT_EQ(refinedTypeText("!torch.vtensor<[2,?,?],f32>", v), "!torch.vtensor<[2,?,?],f32>");
}
