// Embeds dtypeflow through its installed package (docs/api.md): parse a
// TorchScript program that calls custom ops, add their rules from a rule
// file and from code, refine it under each modelled PyTorch version, and
// check the dtypes. Exit 0 when every value is as expected.
#include <dtypeflow/dtypeflow.h>

#include <iostream>
#include <map>
#include <string>

namespace {

constexpr const char *kProgram = R"(graph(%q : Half(2, 8, 16), %k : Half(2, 8, 16), %v : Half(2, 8, 16), %x : Float(4, 4)):
  %none : NoneType = prim::Constant()
  %scale : float = prim::Constant[value=0.125]()
  %a : Tensor = vendor::fused_attention(%q, %k, %v, %none, %scale)
  %p : Tensor, %s : Tensor = vendor::pack(%x, %none)
  %n : Tensor = vendor::rms_norm(%a, %s)
  %y : Tensor = aten::mul(%n, %s)
  return (%y, %p)
)";

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::cerr << "usage: consumer vendor_ops.toml\n";
    return 2;
  }
  dtf::RuleSet rules;
  for (const dtf::RuleSetError &e : rules.addFile(argv[1])) {
    std::cerr << e.str() << "\n";
    return 2;
  }
  // A rule written in code, from the vocabulary's builders.
  if (auto e = rules.add("vendor::rms_norm(Tensor x, Tensor weight) -> Tensor",
                         dtf::elementwise(dtf::PromotionKind::Default, {"x", "weight"}))) {
    std::cerr << e->str() << "\n";
    return 2;
  }

  std::unique_ptr<dtf::ir::Graph> g = dtf::ir::parseIR(kProgram);
  const std::map<std::string, std::string> expected = {
      {"a", "float16:r3"}, {"p", "int8:r1"}, {"s", "float32:r0"}, {"n", "float16:r3"}, {"y", "float16:r3"}};
  int wrong = 0;
  for (dtf::TorchVersion v : dtf::kTorchVersions) {
    dtf::ExtendedSemantics ext = dtf::Semantics::extend(v, rules);
    for (const dtf::RuleSetError &e : ext.errors) std::cerr << e.str() << "\n";
    if (!ext.ok()) return 2;
    dtf::refine::Options opts;
    opts.semantics = ext.semantics;
    dtf::refine::Result r = dtf::refine::refineGraph(*g, opts);
    for (size_t id = 0; id < g->values.size(); ++id) {
      auto it = expected.find(g->values[id].name);
      if (it == expected.end()) continue;
      const std::string got = r.values[id].str();
      if (got != it->second) {
        std::cerr << "PyTorch " << name(v) << ": %" << it->first << " is " << got << ", expected " << it->second << "\n";
        ++wrong;
      }
    }
    if (v == dtf::kNewestTorch) std::cout << dtf::ir::printIR(*g, &r);
  }
  // The .pt2 reader is in the package too (libzip loaded when an archive is opened):
  // a missing archive is an error value, never an exception.
  dtf::pt2::ReadResult missing = dtf::pt2::readArchive("no-such-model.pt2", {.semantics = dtf::Semantics::shared(dtf::kNewestTorch)});
  if (missing.program || missing.error.empty()) {
    std::cerr << "readArchive of a missing file gave no error\n";
    ++wrong;
  }
  std::cout << "consumer: " << (wrong ? "FAILED" : "ok") << ", " << expected.size() << " values under "
            << dtf::supportedTorchVersions() << "\n";
  return wrong ? 1 : 0;
}
