#include "oracle_version.h"
#include "conformance.h"

#include "frontends/torchscript/torchvision_ops.h"

#include "case_space.h"
#include "dtype/scalar_conversion.h"
#include "ops/infer.h"
#include "torch_runner.h"
#include "autocast_guard.h"

#include <algorithm>
#include <chrono>
#include <span>
#include <fmt/format.h>
#include <fmt/ostream.h>
#include <numeric>
#include <fmt/ranges.h>

namespace dtf::oracle {
namespace {

using K = SchemaType::Kind;

std::optional<DType> fromTorch(c10::ScalarType t) { return fromC10Code(static_cast<int>(t)); }

/// Our outputs flattened the way runTorch flattens tuples.
std::vector<Value> flatten(const std::vector<Value> &outs) {
  std::vector<Value> flat;
  for (const Value &v : outs) {
    if (v.isTuple()) for (const Value &e : v.elements()) flat.push_back(e);
    else flat.push_back(v);
  }
  return flat;
}

enum class Verdict { Agree, Unknown, WrongDtype, WrongRank, WrongUnitDims, WrongShape };

bool isWrong(Verdict v) {
  return v == Verdict::WrongDtype || v == Verdict::WrongRank || v == Verdict::WrongUnitDims || v == Verdict::WrongShape;
}

/// What a case's results claimed, for the tallies.
struct Claims {
  bool unitFacts = false; ///< some size-1 fact
  bool shape = false;     ///< every size of some tensor
  size_t tensors = 0;     ///< tensor results torch returned (list elements too)
  size_t fullTensors = 0; ///< of those, the ones whose every size we claimed
  size_t unbackedTensors = 0; ///< of the others, those whose sizes are ints or data-dependent symbols
  /// Each data-dependent size symbol met as a whole dim, with torch's size
  /// there: the same symbol must be the same size everywhere in the case
  /// (unique's values and counts share one).
  std::vector<std::pair<std::string, int64_t>> unbacked;
};

/// The sizes we claim for a tensor of torch's rank, against its shape: a
/// known size other than torch's is wrong. The harness's inputs have known
/// sizes, so a symbol in a result is one a rule made for a data-dependent
/// size (torch.export's unbacked `u0`): torch's size must lie in its range,
/// and the dim does not count as claimed exactly.
Verdict compareShape(const Value &ours, const Observed &theirs, Claims &claims, std::string &detail) {
  ++claims.tensors;
  auto dims = ours.shape();
  if (!dims || dims->size() != theirs.sizes.size()) return Verdict::Agree;
  bool all = true, intsOrUnbacked = true;
  for (size_t i = 0; i < dims->size(); ++i) {
    const Dim &d = (*dims)[i];
    if (!d.known()) {
      all = intsOrUnbacked = false;
      continue;
    }
    if (!d.value()) {
      all = false;
      auto syms = d.expr()->symbols();
      intsOrUnbacked = intsOrUnbacked && syms.size() == 1 && d.str() == syms[0];
      if (syms.size() == 1 && d.str() == syms[0]) {
        auto seen = std::find_if(claims.unbacked.begin(), claims.unbacked.end(),
                                 [&](const auto &p) { return p.first == syms[0]; });
        if (seen == claims.unbacked.end()) {
          claims.unbacked.emplace_back(syms[0], theirs.sizes[i]);
        } else if (seen->second != theirs.sizes[i]) {
          detail = fmt::format("we say dim {} is {}, which is {} elsewhere in the results; torch's result has shape {}",
                               i, d.str(), seen->second, theirs.sizes);
          return Verdict::WrongShape;
        }
      }
      if (d.range().contains(theirs.sizes[i])) continue;
      detail = fmt::format("we say dim {} is {} (in [{}, {}]), torch's result has shape {}", i, d.str(),
                           d.range().lo, d.range().hi, theirs.sizes);
      return Verdict::WrongShape;
    }
    if (d.value() != theirs.sizes[i]) {
      detail = fmt::format("we say shape {}, torch's result has shape {}", dimsText(*dims), theirs.sizes);
      return Verdict::WrongShape;
    }
  }
  claims.shape |= all;
  claims.fullTensors += all;
  claims.unbackedTensors += !all && intsOrUnbacked;
  return Verdict::Agree;
}

/// The size-1 facts we claim for a tensor of torch's rank, against its
/// shape: a "ones" bit on a dim whose size is not 1, or an "others" bit on
/// a dim of size 1, is wrong. `checked` is set when any bit was claimed.
Verdict compareUnitDims(const Value &ours, const Observed &theirs, Claims &claims, std::string &detail) {
  UnitDims u = ours.unitDims();
  if (!u.ones && !u.others) return Verdict::Agree;
  claims.unitFacts = true;
  for (size_t i = 0; i < theirs.sizes.size() && i < 32; ++i) {
    uint32_t bit = uint32_t{1} << i;
    bool one = theirs.sizes[i] == 1;
    if ((u.ones & bit) && !one) {
      detail = fmt::format("we say dim {} has size 1, torch's result has shape {}", i, theirs.sizes);
      return Verdict::WrongUnitDims;
    }
    if ((u.others & bit) && one) {
      detail = fmt::format("we say dim {} is not of size 1, torch's result has shape {}", i, theirs.sizes);
      return Verdict::WrongUnitDims;
    }
  }
  return Verdict::Agree;
}

/// The case's tensors with each size of 2 or more a symbol standing for it (`n224`: one symbol per
/// value, so equal sizes stay equal; 0 and 1 stay ints, as torch.export specialises them), of
/// range [2, inf): the same call as torch.export would trace it with every size dynamic.
Value symbolized(const Value &v) {
  if (v.isList() && v.lengthKnown()) {
    std::vector<Value> elems;
    for (const Value &e : v.elements()) elems.push_back(symbolized(e));
    return Value::list(std::move(elems));
  }
  auto dims = v.isTensor() ? v.shape() : std::nullopt;
  if (!dims) return v;
  for (Dim &d : *dims)
    if (auto n = d.value(); n && *n >= 2) d = Dim(SymExpr::symbol(fmt::format("n{}", *n), {2, SymRange::kInf}));
  return v.withShape(*dims);
}

/// A symbolic answer's sizes evaluated at the case's own sizes (symbol `nK` is K), against
/// torch's result: each rule's arithmetic on symbols checked at every case it runs.
Verdict compareSymbolic(const Value &ours, const Observed &theirs, bool &claimed, std::string &detail) {
  if (theirs.kind == Observed::Kind::TensorList || theirs.kind == Observed::Kind::List) {
    if (!ours.isList() || !ours.lengthKnown() || ours.elements().size() != theirs.elements.size()) return Verdict::Agree;
    for (size_t i = 0; i < theirs.elements.size(); ++i)
      if (Verdict v = compareSymbolic(ours.elements()[i], theirs.elements[i], claimed, detail); isWrong(v)) return v;
    return Verdict::Agree;
  }
  auto dims = ours.isTensor() && theirs.kind == Observed::Kind::Tensor ? ours.shape() : std::nullopt;
  if (!dims || dims->size() != theirs.sizes.size()) return Verdict::Agree;
  for (size_t i = 0; i < dims->size(); ++i) {
    const SymExpr *e = (*dims)[i].expr();
    if (!e) continue;
    std::vector<std::pair<std::string, int64_t>> at;
    for (const std::string &sym : e->symbols()) // `nK` is K; a data-dependent symbol leaves it unevaluated
      if (sym.size() > 1 && sym[0] == 'n' && std::all_of(sym.begin() + 1, sym.end(), ::isdigit))
        at.emplace_back(sym, std::stoll(sym.substr(1)));
    auto value = e->evaluate(at);
    if (!value) continue;
    claimed |= !at.empty();
    if (*value != theirs.sizes[i]) {
      detail = fmt::format("with symbolic sizes we say {} (= {} at the case's sizes), torch's result has shape {}",
                           dimsText(*dims), *value, theirs.sizes);
      return Verdict::WrongShape;
    }
  }
  return Verdict::Agree;
}

Verdict compareOne(const Value &ours, const Observed &theirs, Claims &claims, std::string &detail) {
  using OK = Observed::Kind;
  if (theirs.kind == OK::Tensor) {
    if (!ours.isTensor() || !ours.dtype()) {
      if (ours.isTensor() || ours.isTop()) return Verdict::Unknown;
      detail = fmt::format("expected a tensor, we said {}", ours.str());
      return Verdict::WrongDtype;
    }
    auto t = fromTorch(theirs.dtype);
    if (!t || *ours.dtype() != *t) {
      detail = fmt::format("torch gives {}, we say {}", c10::toString(theirs.dtype), name(*ours.dtype()));
      return Verdict::WrongDtype;
    }
    if (auto r = ours.rank().value(); r && *r != theirs.dim) {
      detail = fmt::format("torch gives rank {}, we say {}", theirs.dim, *r);
      return Verdict::WrongRank;
    }
    if (ours.rank().isExact() == false && ours.rank() == Rank::atLeast1() && theirs.dim == 0) {
      detail = "torch gives rank 0, we say rank >= 1";
      return Verdict::WrongRank;
    }
    Verdict v = compareUnitDims(ours, theirs, claims, detail);
    return isWrong(v) ? v : compareShape(ours, theirs, claims, detail);
  }
  if (theirs.kind == OK::TensorList || theirs.kind == OK::List) {
    if (!ours.isList()) {
      if (ours.isTop()) return Verdict::Unknown;
      detail = fmt::format("expected a list, we said {}", ours.str());
      return Verdict::WrongDtype;
    }
    size_t n = theirs.elements.size();
    if (ours.lengthKnown() && ours.elements().size() != n) {
      detail = fmt::format("torch returns a list of {}, we say {}", n, ours.str());
      return Verdict::WrongDtype;
    }
    // Element by element; a list of unknown length stands for each by its summary.
    Verdict worst = Verdict::Agree;
    for (size_t i = 0; i < n; ++i) {
      const Value &mine = ours.lengthKnown() ? ours.elements()[i] : ours.elementSummary();
      std::string d;
      Verdict v = compareOne(mine, theirs.elements[i], claims, d);
      if (isWrong(v)) {
        detail = fmt::format("list element {}: {}", i, d);
        return v;
      }
      if (v == Verdict::Unknown) worst = v;
    }
    return worst;
  }
  // Python numbers: compare the kind.
  std::optional<NumKind> k;
  switch (theirs.kind) {
  case OK::Int: k = NumKind::Int; break;
  case OK::Float: k = NumKind::Float; break;
  case OK::Bool: k = NumKind::Bool; break;
  case OK::Complex: k = NumKind::Complex; break;
  default: return Verdict::Agree; // None / other: nothing dtype-like to compare
  }
  if (!ours.isNumber() || !ours.numKind()) return Verdict::Unknown;
  if (*ours.numKind() != *k) {
    detail = fmt::format("torch gives a Python {}, we say {}", name(*k), ours.str());
    return Verdict::WrongDtype;
  }
  // An int or bool we claim to know (a length, a rank) must be torch's.
  if ((*k == NumKind::Int || *k == NumKind::Bool) && ours.hasNumValue()) {
    if (auto v = ours.intValue(); v && *v != theirs.intValue) {
      detail = fmt::format("torch gives the value {}, we say {}", theirs.intValue, ours.str());
      return Verdict::WrongDtype;
    }
  }
  return Verdict::Agree;
}

std::string reproCommand(const OpRule &rule, const CaseSpace &space, const std::vector<size_t> &pick,
                         const std::string &options = {}) {
  std::string cli = "dtypeflow infer-op " + options + rule.key;
  for (size_t a = 0; a < space.axes.size(); ++a) {
    const Alternative &alt = space.axes[a].alternatives[pick[a]];
    if (alt.notation.empty()) continue;
    cli += fmt::format(" '{}={}'", space.axes[a].argName, alt.notation);
  }
  return cli;
}

/// The same case as Python arguments, which carry the tensors' shapes.
std::string pythonArgs(const CaseSpace &space, const std::vector<size_t> &pick) {
  std::vector<std::string> py;
  for (size_t a = 0; a < space.axes.size(); ++a) {
    const Alternative &alt = space.axes[a].alternatives[pick[a]];
    if (!alt.python.empty()) py.push_back(fmt::format("{}={}", space.axes[a].argName, alt.python));
  }
  return fmt::format("{}", fmt::join(py, ", "));
}

bool contains(const std::string &msg, std::initializer_list<const char *> needles) {
  for (const char *n : needles)
    if (msg.find(n) != std::string::npos) return true;
  return false;
}

/// `"abs_cpu" not implemented for 'Bool'`: (Bool, abs_cpu); nullopt for a gap message without both.
std::optional<std::pair<std::string, std::string>> gapDtypeAndKernel(const std::string &msg) {
  const std::string marker = "\" not implemented for '";
  const size_t at = msg.find(marker);
  if (at == std::string::npos) return std::nullopt;
  const size_t open = msg.rfind('"', at - 1), close = msg.find('\'', at + marker.size());
  if (open == std::string::npos || close == std::string::npos) return std::nullopt;
  std::string kernel = msg.substr(open + 1, at - open - 1), dtype = msg.substr(at + marker.size(), close - at - marker.size());
  if (kernel.empty() || dtype.empty() || kernel.find_first_of(" \n") != std::string::npos) return std::nullopt;
  return std::make_pair(dtype, kernel);
}

/// Counts, for the kernel-gap data, which role held which dtype in a case torch ran or that raised
/// a kernel gap naming its dtype (OpTally::gapRoleCases): arguments (a list's elements too), and
/// results as torch returned them, or, where it raised, as the rule answers them.
void countGapRoles(OpTally &tally, const CaseSpace &space, std::span<const Value> ours, const InferOutcome &mine,
                   const TorchOutcome &theirs, bool kernelGap) {
  std::optional<std::pair<std::string, std::string>> gap;
  if (!theirs.ok) {
    if (!kernelGap || !(gap = gapDtypeAndKernel(theirs.error))) return;
  }
  if (tally.argNames.empty())
    for (const Axis &a : space.axes) tally.argNames.push_back(a.argName);
  uint64_t mask = 0;
  auto count = [&](unsigned role, std::string_view c10) {
    auto &c = tally.gapRoleCases[{role, std::string(c10)}];
    ++c[0];
    if (gap && gap->first == c10) {
      ++c[1];
      if (role < 64) mask |= uint64_t{1} << role;
    }
  };
  for (size_t a = 0; a < space.axes.size() && a < ours.size() && a < OpTally::kResultRole; ++a) {
    std::set<std::string_view> held;
    auto visit = [&](const Value &v, auto &&self) -> void {
      if (v.isTensor()) {
        if (auto d = v.dtype()) held.insert(c10Name(*d));
      } else {
        for (const Value &e : v.elements()) self(e, self);
      }
    };
    visit(ours[a], visit);
    for (std::string_view c10 : held) count(static_cast<unsigned>(a), c10);
  }
  if (theirs.ok) {
    for (size_t i = 0; i < theirs.outputs.size() && i < 32; ++i)
      if (theirs.outputs[i].kind == Observed::Kind::Tensor)
        count(OpTally::kResultRole + static_cast<unsigned>(i), c10::toString(theirs.outputs[i].dtype));
  } else if (mine.status == InferOutcome::Status::Ok) {
    std::vector<Value> flat = flatten(mine.outputs);
    for (size_t i = 0; i < flat.size() && i < 32; ++i)
      if (flat[i].isTensor() && flat[i].dtype()) count(OpTally::kResultRole + static_cast<unsigned>(i), c10Name(*flat[i].dtype()));
  }
  if (gap) tally.gapRoleMasks[gap->first].insert(mask);
}

/// The CPU build lacks a kernel, or trips a CPU-only internal check, for a
/// dtype that the op's rule accepts (meta and CUDA compute it).
bool isKernelGap(const std::string &msg) {
  if (contains(msg, {"not implemented for", "not supported on CPU"})) return true;
  // Internal asserts count only inside CPU kernels (cpu/Loops.h dynamic
  // casting, the CPU accumulate type of ComplexHalf); elsewhere they are
  // device-independent and a rule must predict them.
  return contains(msg, {"INTERNAL ASSERT FAILED"}) &&
         contains(msg, {"/native/cpu/", "AccumulateType.cpp"});
}

/// Is `general` (the answer for any CPU) a sound abstraction of `specific`
/// (this CPU's)? An error here must be an error or a CPU-dependent possible
/// error there; outputs here must be within the outputs there. Empty: yes.
std::string anyCpuContradiction(const InferOutcome &general, const InferOutcome &specific) {
  using S = InferOutcome::Status;
  if (general.status == S::NoRule || general.status == S::TooManyUnknowns) return {};
  if (specific.status == S::Error) {
    if (general.status == S::Error) return {};
    if (general.possibleError && general.possibleError->kind == ErrorKind::CpuDependent) return {};
    return "any CPU: claims the call runs, this CPU raises: " + (specific.error ? specific.error->message : "");
  }
  if (specific.status != S::Ok) return {};
  if (general.status == S::Error)
    return "any CPU: claims the call raises, this CPU runs: " + (general.error ? general.error->message : "");
  if (general.outputs.size() != specific.outputs.size()) return "any CPU: another number of results";
  for (size_t i = 0; i < general.outputs.size(); ++i)
    if (!Value::join(general.outputs[i], specific.outputs[i]).identical(general.outputs[i]))
      return fmt::format("any CPU: result {} is {}, this CPU's {} is not within it", i, general.outputs[i].str(),
                         specific.outputs[i].str());
  return {};
}

/// The error comes from the sample *values* (mask bytes, a complex value
/// with an imaginary part, an element count), not from the dtypes.
bool isValueDependent(const std::string &msg) {
  return contains(msg, {"Mask tensor can take 0 and 1 values only", "without overflow",
                        "cannot be converted to Scalar",
                        // a size rules cannot see (they know only size-1 facts): istft's old real form,
                        // broadcasting sizes, 2.14's nll_loss of a 1-D input, ormqr's tau
                        "expected the last dimension to be 2", "must match the size of tensor",
                        "1D target must have size 1", "tau.shape[-1] must be equal to",
                        // a quantized tensor's scheme (per tensor or per channel) is not in its dtype
                        "Expected quantizer->qscheme() =="});
}

/// A number argument (or list element) of known value that does not fit
/// some dtype (an imaginary part, 300, 1e39, NaN: the "magnitudes" samples):
/// a "without overflow" error then comes from converting it into an element
/// type (c10's checked conversion), which a rule can and must predict. The
/// default samples (True, 2, 2.5) fit every dtype, so their overflows (a NaN
/// result written into an int64 out) stay value-dependent.
bool hasOutOfRangeNumber(std::span<const Value> args) {
  for (const Value &v : args) {
    if (v.isNumber())
      for (DType d : oracleSemantics().types().universe())
        if (conversionOverflows(v, d, oracleSemantics().version())) return true;
    if ((v.isList() || v.isTuple()) && hasOutOfRangeNumber(v.elements())) return true;
  }
  return false;
}

std::string firstLine(const std::string &s) { return s.substr(0, s.find('\n')); }

/// The meta kernels against the CPU's on one case (see OpTally::metaCases).
/// `ours`: dtypeflow's answer with meta kernels (--kernels meta), checked
/// against the meta kernel wherever that runs (OpTally::metaWrong).
template <typename Repro>
void compareMeta(const TorchOutcome &cpu, const TorchOutcome &meta, const InferOutcome &ours, OpTally &tally,
                 Repro repro) {
  ++tally.metaCases;
  auto example = [&](std::string what) {
    if (tally.metaExamples.size() < 3) tally.metaExamples.push_back(what + "\n      " + repro());
  };
  if (meta.ok && ours.status == InferOutcome::Status::Ok) {
    std::vector<Value> flat = flatten(ours.outputs);
    for (size_t i = 0; i < flat.size() && i < meta.outputs.size(); ++i) {
      const Observed &m = meta.outputs[i];
      auto d = flat[i].isTensor() ? flat[i].dtype() : std::nullopt;
      if (m.kind == Observed::Kind::Tensor && d && fromTorch(m.dtype) != d) {
        ++tally.metaWrong;
        example(fmt::format("--kernels meta answers {} for result {}, the meta kernel gives {}", name(*d), i,
                            c10::toString(m.dtype)));
        break;
      }
    }
  }
  if (cpu.ok && !meta.ok) {
    ++tally.metaRaises;
    example("meta raises where the CPU runs: " + firstLine(meta.error));
    return;
  }
  if (!cpu.ok || !meta.ok || cpu.outputs.size() != meta.outputs.size()) return;
  for (size_t i = 0; i < cpu.outputs.size(); ++i) {
    const Observed &c = cpu.outputs[i], &m = meta.outputs[i];
    if (c.kind == Observed::Kind::Tensor && m.kind == Observed::Kind::Tensor && c.dtype != m.dtype) {
      ++tally.metaDtypeDiffers;
      example(fmt::format("result {}: {} on meta, {} on the CPU", i, c10::toString(m.dtype), c10::toString(c.dtype)));
      return;
    }
  }
}


/// The arguments libtorch's schema has after ours (a newer libtorch: 2.x's
/// stft has `align_to_window=None` last), as their defaults, appended to
/// every call: the stack must hold every argument the operator pops. Our
/// arguments must be libtorch's first ones, by name; otherwise (or for an
/// added argument without a default) `err` says how they differ and the op
/// is not run, so no kernel sees an argument in another's place.
std::vector<c10::IValue> trailingDefaults(const Schema &ours, const c10::FunctionSchema &theirs, std::string &err) {
  const auto &targs = theirs.arguments();
  std::vector<c10::IValue> out;
  for (size_t i = 0; i < std::max(ours.args.size(), targs.size()); ++i) {
    if (i < ours.args.size() && (i >= targs.size() || targs[i].name() != ours.args[i].name)) {
      err = fmt::format("libtorch's schema differs from ours at argument {} ('{}' vs '{}'): {}", i,
                        i < targs.size() ? targs[i].name() : std::string("(none)"), ours.args[i].name,
                        fmt::streamed(theirs));
      return {};
    }
    if (i >= ours.args.size()) {
      if (!targs[i].default_value()) {
        err = fmt::format("libtorch's schema has an argument '{}' without a default that ours lacks: {}",
                          targs[i].name(), fmt::streamed(theirs));
        return {};
      }
      out.push_back(*targs[i].default_value());
    }
  }
  return out;
}

bool coprimeWithAxes(size_t stride, const CaseSpace &space) {
  for (const auto &axis : space.axes)
    if (std::gcd(stride, axis.alternatives.size()) != 1) return false;
  return true;
}

} // namespace

namespace {
/// The case again with its sizes symbolic (symbolized): every size the shape rules claim then,
/// evaluated at the case's sizes, must be torch's; a size-decided error torch does not raise is
/// wrong too. Counted in symbolicChecked where some symbolic size was claimed.
void checkSymbolically(const Registry &registry, const OpRule &rule, const std::vector<Value> &ours,
                       const TorchOutcome &theirs, OpTally &tally, Verdict &worst, std::string &detail) {
  std::vector<Value> sym;
  bool any = false;
  for (const Value &v : ours) {
    sym.push_back(symbolized(v));
    any |= !(sym.back() == v);
  }
  if (!any) return;
  InferOutcome o = infer(registry, *rule.schema, sym);
  if (o.status == InferOutcome::Status::Error && o.error && o.error->kind == ErrorKind::SizeDependent) {
    worst = Verdict::WrongShape;
    detail = "with symbolic sizes we raise, torch accepts: " + o.error->message;
    return;
  }
  if (o.status != InferOutcome::Status::Ok) return;
  std::vector<Value> flat = flatten(o.outputs);
  if (flat.size() != theirs.outputs.size()) return;
  bool claimed = false;
  for (size_t i = 0; i < flat.size(); ++i)
    if (Verdict v = compareSymbolic(flat[i], theirs.outputs[i], claimed, detail); isWrong(v)) {
      worst = v;
      detail = fmt::format("result {}: {}", i, detail);
      return;
    }
  tally.symbolicChecked += claimed;
}
} // namespace

OpTally runRule(const OpRule &rule, const RunOptions &opts) {
  auto t0 = std::chrono::steady_clock::now();
  OpTally tally;
  tally.key = rule.key;
  tally.family = rule.family;
  if (!rule.samples.skipReason.empty()) {
    tally.skipReason = rule.samples.skipReason;
    return tally;
  }
  auto op = findTorchOperator(rule.key);
  if (!op && rule.key.starts_with("torchvision::") && torchscript::loadTorchvisionOps().empty()) {
    tally.skipReason = "torchvision's operator library (python3-torchvision) is not installed";
    return tally;
  }
  if (!op) {
    tally.configError = "libtorch has no operator " + rule.key;
    return tally;
  }
  std::vector<std::map<std::string, std::string, std::less<>>> variants{{}};
  for (const SampleSpec &v : rule.samples.variants) variants.push_back(v.args);
  // Every dim argument once out of range of the main samples (at most 4-D):
  // "Dimension out of range" must be predicted (infer's generic check). Few
  // cases each: the dtypes do not matter there.
  const size_t sampledVariants = variants.size();
  for (uint32_t i : rule.schema->dimArgs) {
    const SchemaType *t = rule.schema->args[i].type.get();
    if (t->kind == SchemaType::Kind::Optional && t->inner()) t = t->inner();
    variants.push_back({{rule.schema->args[i].name, t->kind == SchemaType::Kind::List ? "[6]" : "6"}});
  }

  std::vector<c10::IValue> extraArgs = trailingDefaults(*rule.schema, op->schema(), tally.configError);
  if (!tally.configError.empty()) return tally;

  const Registry &registry = opts.registry ? *opts.registry : oracleSemantics().registry();
  for (size_t vi = 0; vi < variants.size(); ++vi) {
    const auto &overrides = variants[vi];
    const size_t cap = vi < sampledVariants ? opts.maxCasesPerVariant : 30;
    CaseSpace space = buildCaseSpace(rule, op->schema(), overrides);
    if (!space.error.empty()) {
      tally.configError = space.error;
      return tally;
    }
    size_t total = space.size();
    tally.total += total;
    // A stride sharing a factor with an axis's size would visit only some of
    // its alternatives (stride 2 over [True, 2, 2.5, 1.5+0.5j] never meets
    // the complex one): the stride is made coprime with every axis size.
    size_t stride = total > cap ? (total + cap - 1) / cap : 1;
    while (stride > 1 && !coprimeWithAxes(stride, space)) ++stride;
    std::vector<size_t> pick(space.axes.size());
    std::vector<Value> ours(space.axes.size());
    std::vector<c10::IValue> theirsArgs;
    for (size_t index = 0; index < total; index += stride) {
      size_t rest = index;
      for (size_t a = space.axes.size(); a-- > 0;) {
        size_t n = space.axes[a].alternatives.size();
        pick[a] = rest % n;
        rest /= n;
      }
      theirsArgs.clear();
      bool built = true;
      for (size_t a = 0; a < space.axes.size(); ++a) {
        const Alternative &alt = space.axes[a].alternatives[pick[a]];
        ours[a] = alt.ours;
        try {
          theirsArgs.push_back(alt.make());
        } catch (const std::exception &) {
          built = false; // e.g. a dtype the CPU cannot even create
          break;
        }
      }
      if (!built) { ++tally.skipped; continue; }
      theirsArgs.insert(theirsArgs.end(), extraArgs.begin(), extraArgs.end());
      ++tally.cases;
      // --autocast: both sides inside the context (autocast_guard.h); otherwise plain, with the meta
      // kernels and the any-CPU answers measured beside.
      InferOutcome mine = inferUnderAutocast(registry, kOracleTorch, opts.autocast, *rule.schema, ours);
      std::optional<TorchOutcome> onMetaDevice;
      if (opts.meta && !opts.autocast) {
        try {
          onMetaDevice = runTorch(*op, onMeta(theirsArgs));
        } catch (const std::exception &) { // a value meta cannot hold: not measured
        }
      }
      TorchOutcome theirs = opts.autocast ? runTorchUnderAutocast(*op, std::move(theirsArgs), *opts.autocast)
                                          : runTorch(*op, std::move(theirsArgs));
      if (onMetaDevice) {
        InferOutcome onMetaOurs = opts.metaRegistry ? infer(*opts.metaRegistry, *rule.schema, ours) : mine;
        compareMeta(theirs, *onMetaDevice, onMetaOurs, tally,
                    [&] { return reproCommand(rule, space, pick, opts.reproOptions + "--kernels meta "); });
      }
      std::optional<InferOutcome> general;
      if (opts.anyCpuRegistry && !opts.autocast) general = infer(*opts.anyCpuRegistry, *rule.schema, ours);
      if (opts.gapRoles && !opts.autocast) countGapRoles(tally, space, ours, mine, theirs, !theirs.ok && isKernelGap(theirs.error));

      // The CLI notation has no sizes: rank and size-1 disagreements also
      // show the case as Python arguments, which carry the shapes.
      auto note = [&](const std::string &what, bool withShapes = false) {
        if (tally.examples.size() >= opts.examplesPerOp) return;
        std::string ex = fmt::format("{}\n      {}", what, reproCommand(rule, space, pick, opts.reproOptions));
        if (withShapes) ex += "\n      torch args: " + pythonArgs(space, pick);
        tally.examples.push_back(std::move(ex));
      };
      // A rule that breaks its own contract (result count, argument names)
      // is reported by infer() as an "internal:" possible error: a defect
      // whatever torch does, counted with the wrong answers.
      if (mine.possibleError && mine.possibleError->message.starts_with("internal:")) {
        ++tally.wrongDtype;
        note(mine.possibleError->message);
        continue;
      }
      if (general) {
        if (general->possibleError && general->possibleError->kind == ErrorKind::CpuDependent) ++tally.cpuDependent;
        if (std::string why = anyCpuContradiction(*general, mine); !why.empty()) {
          ++tally.anyCpuContradicted;
          note(why);
          continue;
        }
      }
      bool mineOk = mine.status == InferOutcome::Status::Ok;
      if (mine.status == InferOutcome::Status::Error) {
        if (theirs.ok) {
          ++tally.weReject;
          note("we reject, torch accepts: " + (mine.error ? mine.error->message : std::string()));
        } else {
          ++tally.agreeError;
          ++tally.agree;
        }
        continue;
      }
      if (!mineOk) { ++tally.unknown; continue; }
      if (!theirs.ok) {
        bool allUnknown = true;
        for (const Value &v : flatten(mine.outputs))
          if (!(v.isTop() || (v.isTensor() && !v.dtype()))) allUnknown = false;
        const bool predictable = contains(theirs.error, {"without overflow"}) && hasOutOfRangeNumber(ours);
        if (isValueDependent(theirs.error) && !predictable) {
          ++tally.valueDependent;
          if (tally.valueDependentExamples.size() < 2)
            tally.valueDependentExamples.push_back(fmt::format("{}  ({})", reproCommand(rule, space, pick, opts.reproOptions), firstLine(theirs.error)));
        } else if (isKernelGap(theirs.error)) {
          ++tally.kernelGap;
          if (mine.possibleError && mine.possibleError->kind == ErrorKind::MissingKernel) ++tally.kernelGapNamed;
          // Recorded where the rule does not model the gap itself (cpuKernelGap: aminmax's bfloat16 only
          // over a dim), so the generic table does not claim its other cases; a "measured:" possible
          // error is the table's own (data/cpu-kernel-gaps-*.txt), regenerated here.
          const bool byRule = mine.possibleError && mine.possibleError->kind == ErrorKind::MissingKernel &&
                              mine.possibleError->message.find("(measured: ") == std::string::npos;
          if (auto gap = gapDtypeAndKernel(theirs.error); gap && !byRule) tally.kernelGapDtypes.emplace(gap->first, gap->second);
          if (tally.kernelGapExamples.size() < 3)
            tally.kernelGapExamples.push_back(fmt::format("{}  ({})", reproCommand(rule, space, pick, opts.reproOptions), firstLine(theirs.error)));
        } else if (allUnknown) {
          ++tally.unknown;
        } else {
          ++tally.torchRejectsSemantic;
          note("torch rejects, we accept: " + firstLine(theirs.error));
        }
        continue;
      }
      std::vector<Value> flat = flatten(mine.outputs);
      if (flat.size() != theirs.outputs.size()) {
        ++tally.wrongDtype;
        note(fmt::format("torch returns {} values, we return {}", theirs.outputs.size(), flat.size()));
        continue;
      }
      Verdict worst = Verdict::Agree;
      std::string detail;
      Claims claims;
      for (size_t i = 0; i < flat.size(); ++i) {
        std::string d;
        Verdict v = compareOne(flat[i], theirs.outputs[i], claims, d);
        if (isWrong(v)) { worst = v; detail = fmt::format("result {}: {}", i, d); break; }
        if (v == Verdict::Unknown) worst = Verdict::Unknown;
      }
      tally.unitFactsChecked += claims.unitFacts;
      tally.shapesChecked += claims.shape;
      if (worst != Verdict::WrongShape && worst != Verdict::WrongDtype && worst != Verdict::WrongRank && !opts.autocast)
        checkSymbolically(registry, rule, ours, theirs, tally, worst, detail);
      if (claims.tensors && worst == Verdict::Agree) {
        ++tally.shapeCases;
        tally.shapeCasesClaimed += claims.fullTensors == claims.tensors;
        tally.shapeCasesUnbacked += claims.fullTensors < claims.tensors &&
                                    claims.fullTensors + claims.unbackedTensors == claims.tensors;
      }
      switch (worst) {
      case Verdict::Agree: ++tally.agree; break;
      case Verdict::Unknown: ++tally.unknown; break;
      case Verdict::WrongDtype: ++tally.wrongDtype; note("wrong dtype: " + detail); break;
      case Verdict::WrongRank: ++tally.wrongRank; note("wrong rank: " + detail, true); break;
      case Verdict::WrongUnitDims: ++tally.wrongUnitDims; note("wrong size-1 facts: " + detail, true); break;
      case Verdict::WrongShape: ++tally.wrongShape; note("wrong sizes: " + detail, true); break;
      }
    }
  }
  tally.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return tally;
}

} // namespace dtf::oracle
