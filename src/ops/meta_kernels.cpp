//===- ops/meta_kernels.cpp - where meta kernels differ, as measured ------===//
#include "ops/meta_kernels.h"
#include "dtype/per_version.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

namespace dtf {


namespace {

using Measures = std::map<std::string, MetaKernelMeasure, std::less<>>;

/// `op cases another_dtype meta_raises not_modelled` per line; `#` comments.
Measures parseMeasures(const char *text) {
  Measures out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string key;
    MetaKernelMeasure m;
    if (fields >> key >> m.cases >> m.anotherDtype >> m.metaRaises >> m.notModelled) out.emplace(std::move(key), m);
  }
  return out;
}

const Measures &measuresOf(TorchVersion torch) {
  // data/meta-kernels-<V>.txt
  return lazyPerVersion<Measures>(torch, [](TorchVersion v) { return parseMeasures(embeddedText(EmbeddedData::MetaKernels, v)); });
}

std::string cell(const Measures &m, const std::string &key) {
  auto it = m.find(key);
  if (it == m.end()) return "same";
  const MetaKernelMeasure &x = it->second;
  return fmt::format("{} of {} another dtype{}", x.anotherDtype, x.cases,
                     x.notModelled ? fmt::format(" ({} not modelled)", x.notModelled) : std::string());
}

} // namespace

std::optional<MetaKernelMeasure> metaKernelMeasure(TorchVersion torch, std::string_view key) {
  // One op's line, found in the text: `infer-op` asks once per process, and
  // parsing every line into a map cost it ~2.6 M instructions.
  std::string_view text = embeddedText(EmbeddedData::MetaKernels, torch);
  for (size_t at = 0; at < text.size();) {
    const size_t nl = std::min(text.find('\n', at), text.size());
    const std::string_view line = text.substr(at, nl - at);
    at = nl + 1;
    if (line.size() > key.size() && line.starts_with(key) && line[key.size()] == ' ') {
      const Measures one = parseMeasures(std::string(line).c_str()); // empty if malformed, as the map had it
      if (!one.empty()) return one.begin()->second;
    }
  }
  return std::nullopt;
}

std::string metaKernelsMarkdown(TorchVersion from, TorchVersion to) {
  std::string md =
      "## Meta kernels against CPU kernels (measured)\n\n"
      "Eager code runs the CPU kernels; FakeTensor and `torch.export` run the meta kernels. The conformance "
      "harness ran every case of every rule on both, in C++ (`data/meta-kernels-*.txt`, its `--meta-data`; per "
      "case in docs/conformance*.md). That measures libtorch's C++ meta kernels. FakeTensor, in Python, runs "
      "those except where torch registers a Python meta function or decomposition of its own, which it prefers "
      "(`torch/_meta_registrations.py`, `torch/_decomp`): 2.14's `threshold_backward` is one (its decomposition "
      "gives an int64 grad's dtype; `--kernels meta` answers so, which is why the C++ count of `--kernels meta` "
      "answering another dtype is high there). `--kernels meta` answers as FakeTensor does where that is "
      "modelled; `check` on a `.pt2` compares with both.\n\n";
  std::set<std::string> dtypeOps;
  for (TorchVersion v : {from, to}) {
    uint64_t ops = 0, another = 0, raises = 0, notModelled = 0;
    for (const auto &[key, x] : measuresOf(v)) {
      ++ops, another += x.anotherDtype, raises += x.metaRaises, notModelled += x.notModelled;
      if (x.anotherDtype) dtypeOps.insert(key);
    }
    md += fmt::format("- {}: {} ops whose meta kernel differs somewhere; {} cases with another result dtype, {} where "
                      "the meta kernel raises and the CPU kernel runs (mostly ops that read a value: `item`, `nonzero`, "
                      "`Int.Tensor`), {} cases where `--kernels meta` answers another dtype (not modelled)\n",
                      name(v), ops, another, raises, notModelled);
  }
  md += fmt::format("\nOps whose meta kernel gives another result dtype ({}):\n\n| op | {} | {} |\n|---|---|---|\n",
                    dtypeOps.size(), name(from), name(to));
  for (const std::string &key : dtypeOps)
    md += fmt::format("| `{}` | {} | {} |\n", key, cell(measuresOf(from), key), cell(measuresOf(to), key));
  return md + "\n";
}

} // namespace dtf
