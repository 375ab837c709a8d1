//===- api/mlir_program.cpp - a Torch-dialect module through the door ------===//
#include "api/mlir_program.h"

#include "api/input_file.h"
#include "frontends/text/printable.h"
#include "frontends/torch_mlir/mlir_printer.h"
#include "frontends/torch_mlir/mlir_refine.h"
#include "refine/check.h"

#include <fmt/format.h>

namespace dtf::api {

LoadedProgram MlirProgram::program(size_t i) const {
  LoadedProgram p;
  p.reader = Reader::TorchMlir;
  p.shown = shown;
  // Aliasing: the function's graph, kept alive by the module that owns it.
  p.graph = std::shared_ptr<ir::Graph>(std::const_pointer_cast<torch_mlir::Module>(module),
                                       module->functions[i].graph.get());
  return p;
}

std::string MlirProgram::valueName(size_t i, const std::string &name) const {
  return size() > 1 ? fmt::format("@{}:%{}", function(i).name, name) : "%" + name;
}

std::shared_ptr<const torch_mlir::Module> mlirModuleFromText(std::string text, const std::string &where,
                                                             const Semantics &sem) {
  try {
    return std::make_shared<const torch_mlir::Module>(torch_mlir::readModule(std::move(text), sem));
  } catch (const ir::IRSyntaxError &e) {
    throw ProgramError(fmt::format("{}:{}:{}: error: {}", where, e.line, e.col, ir::printable(e.what(), 2000)));
  }
}

std::shared_ptr<const torch_mlir::Module> readMlirModule(const std::string &file, const Semantics &sem) {
  InputText in = readInput(file);
  if (!in.text) throw ProgramError(fmt::format("{}: error: cannot read the file: {}", shownName(file), in.error));
  return mlirModuleFromText(std::move(*in.text), shownName(file), sem);
}

MlirProgram refineMlir(std::shared_ptr<const torch_mlir::Module> m, const std::string &shown, const SemanticsRef &sem,
                       const ProgramOptions &o, std::optional<AutocastContext> autocast) {
  if (!o.retype.params.empty() || !o.retype.floatInputs.empty())
    throw InputError("--params and --float-inputs apply to .pt2 archives (whose inputs say which are parameters)");
  refine::Options opts;
  opts.semantics = sem; // with rule files, --cpu, --kernels
  opts.tensorConstants = tensorConstantPolicy(o.tensorConstants, false);
  opts.autocast = std::move(autocast);
  addInputTypes(*sem, o.inputs, opts);
  // --input NAME=TYPE types the argument NAME of every function that has one.
  for (const auto &[name, v] : opts.inputTypes) {
    bool found = false;
    for (const torch_mlir::Function &f : m->functions)
      for (ir::ValueId p : f.graph->body().params)
        found = found || f.graph->values[p].name == name || "%" + f.graph->values[p].name == name;
    if (!found) throw InputError(fmt::format("--input {}: no function has an argument of that name", name));
  }
  if (o.check) opts = refine::checkOptions(opts);
  torch_mlir::RefinedModule r = torch_mlir::refineModuleWithOptions(*m, opts);
  return MlirProgram{std::move(m), shown, opts, std::move(r.options), std::move(r.results)};
}

std::optional<std::vector<refine::Result>> refineMlirOnMeta(const MlirProgram &p) {
  const std::optional<refine::Options> onMeta = onMetaKernels(p.base);
  if (!onMeta) return std::nullopt;
  return torch_mlir::refineModuleWithOptions(*p.module, *onMeta).results;
}

std::pair<size_t, ir::ValueId> findMlirValue(const torch_mlir::Module &m, std::string name) {
  std::string fn;
  if (name.starts_with('@')) {
    size_t colon = name.find(':');
    if (colon == std::string::npos) throw InputError(fmt::format("{}: name a value as @FUNCTION:%VALUE", name));
    fn = name.substr(1, colon - 1);
    name.erase(0, colon + 1);
  }
  if (name.starts_with('%')) name.erase(0, 1);
  std::vector<std::pair<size_t, ir::ValueId>> found;
  for (size_t i = 0; i < m.functions.size(); ++i) {
    if (!fn.empty() && m.functions[i].name != fn) continue;
    for (const torch_mlir::SsaDef &d : m.functions[i].defs)
      if (d.occurrence > 1 && d.key() == name) found.emplace_back(i, d.value); // `1#2`: a reused name's second
      else if (d.name == name) found.emplace_back(i, d.value);
  }
  if (found.size() == 1) return found[0];
  if (found.size() > 1 && found[0].first == found[1].first) // sibling regions of one function reuse it
    throw InputError(fmt::format("%{}: defined {} times in @{} (sibling regions): name the k-th one as %{}#k",
                                 ir::printable(name, 80), found.size(), ir::printable(m.functions[found[0].first].name, 80),
                                 ir::printable(name, 80)));
  if (found.empty())
    throw InputError(fmt::format("%{}: no such value{}", ir::printable(name, 80),
                                 fn.empty() ? std::string(" in the module") : fmt::format(" in @{}", ir::printable(fn, 80))));
  std::string where;
  for (size_t k = 0; k < found.size() && k < 8; ++k)
    if (k == 0 || found[k].first != found[k - 1].first) where += (k ? ", @" : "@") + m.functions[found[k].first].name;
  throw InputError(fmt::format("%{}: several functions have that value ({}): give @FUNCTION:%{}", ir::printable(name, 80),
                               ir::printable(where, 400), ir::printable(name, 80)));
}

CheckReport checkMlirFunction(const MlirProgram &p, size_t i) {
  CheckReport out;
  for (const torch_mlir::StatedType &s : torch_mlir::compareStated(p.function(i), p.results[i])) {
    if (s.verdict == refine::Verdict::NotChecked) continue;
    refine::count(out.counts, s.verdict, s.sizes);
    out.values.push_back({p.function(i).defs[s.def].value, s.verdict});
  }
  return out;
}

} // namespace dtf::api
