#include "frontends/torchscript/module_loader.h"
#include "frontends/torchscript/torchvision_ops.h"

#include <torch/csrc/jit/passes/freeze_module.h>
#include <torch/csrc/jit/passes/inliner.h>
#include <torch/csrc/jit/passes/lower_graph.h>
#include <torch/csrc/jit/ir/constants.h>
#include <torch/script.h>
#include <torch/version.h>

#include <algorithm>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace dtf::torchscript {

namespace {

/// The tensor a prim::Constant node holds, or nullopt (not a constant, not a tensor).
std::optional<at::Tensor> constantTensor(torch::jit::Node *n) {
  if (n->kind() != c10::prim::Constant || n->outputs().size() != 1) return std::nullopt;
  auto iv = torch::jit::toIValue(n->output());
  if (!iv || !iv->isTensor()) return std::nullopt;
  return iv->toTensor();
}

/// Calls `f` on every node of `b` and of its nested blocks (a node's blocks
/// before the node itself); `f` may destroy the node it is given.
template <typename F> void forEachNode(torch::jit::Block *b, F &&f) {
  for (auto it = b->nodes().begin(); it != b->nodes().end();) {
    torch::jit::Node *n = *it++;
    for (torch::jit::Block *sub : n->blocks()) forEachNode(sub, f);
    f(n);
  }
}

/// Types of tensor constants from their tensors (saved code loses them:
/// `{2.5}` reloads as `Tensor`).
void typeTensorConstants(torch::jit::Graph &g) {
  for (torch::jit::Node *n : g.nodes())
    if (auto t = constantTensor(n)) n->output()->setType(c10::TensorType::create(*t));
}

/// Inlining and freezing rename inputs as they uniquify names (googlenet's
/// `x.1` became `x0.11`); give the user inputs back the names forward's
/// graph shows, so `--input x.1=...` means what it says.
void restoreInputNames(torch::jit::Graph &g, const std::vector<std::string> &names, size_t first) {
  for (size_t i = 0; i < names.size() && first + i < g.inputs().size(); ++i)
    if (g.inputs()[first + i]->debugName() != names[i]) g.inputs()[first + i]->setDebugName(names[i]);
}

/// Inline calls in `b`, and in the functions its fork nodes run
/// (torch::jit::Inline leaves a fork's subgraph alone: the forked function
/// would stay one prim::CallFunction).
void inlineWithForks(torch::jit::Graph &g) {
  torch::jit::Inline(g);
  forEachNode(g.block(), [](torch::jit::Node *n) {
    if (n->kind() == c10::prim::fork && n->hasAttribute(c10::attr::Subgraph))
      inlineWithForks(*n->g(c10::attr::Subgraph));
  });
}

/// The tensors of every tensor constant in `g`, nested blocks included.
std::unordered_set<const void *> tensorConstantsOf(torch::jit::Graph &g) {
  std::unordered_set<const void *> out;
  forEachNode(g.block(), [&](torch::jit::Node *n) {
    if (auto t = constantTensor(n)) out.insert(t->unsafeGetTensorImpl());
  });
  return out;
}

/// Tensor constants that freezing made (attributes, and what constant
/// propagation computed from them) become typed graph inputs, as
/// LowerGraph's parameters do: the module reads them as tensors, while a
/// 0-dim constant of the saved code turns into a Python scalar when the
/// graph executor runs it (refine::TensorConstantPolicy::Runtime).
void liftFrozenTensors(torch::jit::Graph &g, const std::unordered_set<const void *> &saved) {
  forEachNode(g.block(), [&](torch::jit::Node *n) {
    auto t = constantTensor(n);
    if (!t || !t->defined() || saved.count(t->unsafeGetTensorImpl())) return;
    // Attribute constants are named after their path (`self.c`); others by
    // number, which setDebugName refuses: the input then gets a number too.
    const std::string &name = n->output()->debugName();
    bool numeric = std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; });
    torch::jit::Value *in = g.addInput(numeric ? std::string() : name);
    in->setType(c10::TensorType::create(*t));
    n->output()->replaceAllUsesWith(in);
    n->destroy();
  });
}

std::string frozenIR(const torch::jit::Module &m, const std::vector<std::string> &inputNames,
                     const std::unordered_set<const void *> &savedConstants) {
  torch::jit::Module frozen = torch::jit::freeze_module(m);
  std::shared_ptr<torch::jit::Graph> g = frozen.get_method("forward").graph()->copy();
  inlineWithForks(*g);
  liftFrozenTensors(*g, savedConstants);
  // `self` stays only when the module sets attributes (its state is read back).
  size_t first = 1;
  if (!g->inputs().empty() && !g->inputs()[0]->hasUses()) {
    g->eraseInput(0);
    first = 0;
  } else if (!g->inputs().empty()) {
    g->inputs()[0]->setDebugName("self");
  }
  restoreInputNames(*g, inputNames, first);
  typeTensorConstants(*g);
  return g->toString(false);
}

/// A module saved by a newer PyTorch names ops or types this libtorch lacks
/// (2.x's `F.interpolate` compiles `_upsample_lanczos2d_aa`): say which
/// libtorch read it and what to do, beside torch's own message.
std::string withVersionHint(std::string message) {
  for (const char *sign : {"Unknown builtin op", "Unknown type name", "Unknown qualified type name"})
    if (message.find(sign) != std::string::npos)
      return message + "\n(dtypeflow-pt-import links libtorch " TORCH_VERSION "; a module saved by a newer PyTorch "
                       "needs a dtypeflow built against that version (scripts/torch-root.sh VERSION), or annotate the "
                       "text of torch.jit.load(FILE).inlined_graph instead)";
  return message;
}

} // namespace

std::string loadModuleAsIR(const std::string &path) {
  try {
    loadTorchvisionOps(); // detection models call torchvision:: ops: they must be registered to load
    torch::jit::Module m = torch::jit::load(path);
    m.eval();
    std::shared_ptr<torch::jit::Graph> g = m.get_method("forward").graph()->copy();
    std::vector<std::string> inputNames; // after `self`
    for (size_t i = 1; i < g->inputs().size(); ++i) inputNames.push_back(g->inputs()[i]->debugName());
    inlineWithForks(*g);
    std::shared_ptr<torch::jit::Graph> lowered;
    std::vector<c10::IValue> params;
    try {
      std::tie(lowered, params) = torch::jit::LowerGraph(*g, m._ivalue());
    } catch (const std::exception &) { // c10::Error, or an ErrorReport for SetAttr
      // LowerGraph takes only tensor and module attributes that are read; a
      // scripted module also reads bools, ints, lists (`self.training`, layer
      // settings) and may set attributes (detection models' `_has_warned`).
      // Freezing folds every attribute into a constant (parameters become
      // typed tensor constants) and leaves `self` unused.
      return frozenIR(m, inputNames, tensorConstantsOf(*g));
    }
    // Name the lowered parameters after their attributes, by tensor identity.
    std::unordered_map<const void *, std::string> names;
    for (const auto &p : m.named_parameters(true)) names.emplace(p.value.unsafeGetTensorImpl(), p.name);
    for (const auto &b : m.named_buffers(true)) names.emplace(b.value.unsafeGetTensorImpl(), b.name);
    size_t firstParam = lowered->inputs().size() - params.size();
    for (size_t i = 0; i < params.size(); ++i) {
      torch::jit::Value *in = lowered->inputs()[firstParam + i];
      if (!params[i].isTensor()) continue;
      const at::Tensor &t = params[i].toTensor();
      in->setType(c10::TensorType::create(t));
      auto it = names.find(t.unsafeGetTensorImpl());
      if (it != names.end()) in->setDebugName(it->second);
    }
    restoreInputNames(*lowered, inputNames, 0);
    typeTensorConstants(*lowered);
    return lowered->toString(false);
  } catch (const c10::Error &e) {
    throw LoadError(withVersionHint(e.what_without_backtrace()));
  } catch (const std::exception &e) {
    throw LoadError(withVersionHint(e.what()));
  }
}

} // namespace dtf::torchscript
