//===- refine/check.h - compare inference with a trace's written types -*- C++ -*-===//
//
// What `dtypeflow check` measures, as a library: every tensor value whose
// written type is full (`Float(2, 3, ...)`, as torch.jit.trace prints it) and
// that is not data (graph input, prim::Constant, prim::GetAttr) is inferred
// from the graph inputs alone (refine with reportTypeConflicts = false: the
// written types of other values are never used as facts) and classified as
// correct (dtype and rank known and equal), unknown, or wrong.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "refine/refine.h"

#include <functional>

namespace dtf::refine {

/// Graph inputs, constants and GetAttr results: data typed as written.
bool isInputLike(const ir::Graph &g, ir::ValueId v);

enum class Verdict : uint8_t { NotChecked, Correct, Unknown, Wrong };

/// `got` against the type written on `v` (NotChecked: no full written tensor
/// type, or input-like).
Verdict checkWritten(const ir::Graph &g, ir::ValueId v, const Value &got);

/// `got` against a tensor of dtype `dtype` and rank `rank` recorded elsewhere
/// (a .pt2 archive's TensorMeta): Correct, Unknown or Wrong. With `sizes`
/// (the recorded ones), a size of ours that contradicts them is Wrong too.
Verdict checkTensor(DType dtype, int rank, const Value &got, const Dims *sizes = nullptr);

/// `got`'s sizes against recorded ones (unknown recorded dims are skipped):
/// Exact when every recorded size is ours, Unknown when some of ours is not
/// known (or a symbolic one differs only by what a guard would decide),
/// Wrong when one contradicts it (a different int; an int where the record
/// is symbolic: a dim specialised that the program does not force).
///
/// With `binding`: a recording is one run, so each symbol had one value in
/// it. A dim of ours that is a lone symbol (a data-dependent `u0`, an input's
/// `B`) meeting a recorded int binds it (Wrong outside its range); any other
/// symbolic dim is evaluated under the binding: its recorded int is Symbolic
/// (right for this run), another int Wrong (two of our claims disagree).
/// A record made by torch.export names its own data-dependent sizes (`u0`):
/// a lone unbacked symbol of ours meeting a lone recorded symbol binds to
/// it, and any later dim of ours using it is compared with the record after
/// substitution (equal: Symbolic; provably different: Wrong).
enum class SizeVerdict : uint8_t { NotChecked, Exact, Unknown, Wrong, Symbolic };
struct SizeBinding {
  std::vector<std::pair<std::string, int64_t>> values;  ///< a symbol of ours = the run's int
  std::vector<std::pair<std::string, SymExpr>> symbols; ///< an unbacked symbol of ours = the record's symbol
};
SizeVerdict checkSizes(const Dims &recorded, const Value &got, SizeBinding *binding = nullptr);

struct CheckCounts {
  size_t correct = 0, unknown = 0, wrong = 0;
  /// Of the values with recorded sizes and a right dtype and rank: every size
  /// exact, or some size unknown (a wrong size makes the value wrong).
  size_t sizesExact = 0, sizesUnknown = 0;
  /// Of those, every size exact or symbolic and right for the recorded run
  /// (SizeVerdict::Symbolic), some symbolic.
  size_t sizesSymbolic = 0;
  size_t total() const { return correct + unknown + wrong; }
};
/// Adds one value's verdicts to `c`.
void count(CheckCounts &c, Verdict v, SizeVerdict s);
CheckCounts checkAllWritten(const ir::Graph &g, const Result &r);

/// Records that disagree with the inference may have been made inside an autocast
/// context the graph does not contain (torch.export under torch.autocast). The
/// contexts of `opts`' version under which `count` (the caller's comparison with
/// the records) finds no wrong value, in autocastContexts order; empty when
/// `opts.autocast` is set or none explains them (refine/check_autocast.cpp).
std::vector<AutocastContext> autocastExplaining(const ir::Graph &g, const Options &opts,
                                                const std::function<CheckCounts(const Result &)> &count);

/// The options `check` refines with.
inline Options checkOptions(Options o) {
  o.reportTypeConflicts = false;
  return o;
}

} // namespace dtf::refine
