//===- refine/eval_memo.h - memo of op evaluations (internal) ----*- C++ -*-===//
//
// Rules are pure functions of (op, output count, argument values), so one
// evaluation serves every node that repeats them (resnet18: 68 op nodes, 12
// distinct evaluations). An open-addressing table of hashes and entry
// indices: a lookup hashes the arguments once and compares them only on a
// full-hash match; entries live in a deque, so references stay valid until
// the memo starts over (between nodes only).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "refine/solver.h"

#include <algorithm>
#include <deque>
#include <memory>
#include <optional>

namespace dtf::refine {

/// The address of an op's overload list (kept by the schema table)
/// identifies the op in every graph, so one memo can serve many graphs.
/// Entries keyed by a plan's OpSignature (graph_plan.h) use its address
/// instead, and keep the signature alive, so no other object can take it.
using OpsId = const void *;

class EvalMemo {
public:
  /// Hash of a key: the op, the output count, whether the match arguments
  /// follow the arguments, and each value's hash, combined in order.
  static size_t headHash(OpsId ops, uint32_t numOutputs, bool matchIsArgs) {
    size_t h = reinterpret_cast<uintptr_t>(ops) >> 3;
    mix(h, numOutputs * 2 + matchIsArgs);
    return h;
  }
  static void mix(size_t &h, size_t x) { h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); }
  static size_t hashOf(OpsId ops, uint32_t numOutputs, bool matchIsArgs, std::span<const Value> vals) {
    size_t h = headHash(ops, numOutputs, matchIsArgs);
    for (const Value &v : vals) mix(h, v.hash());
    return h;
  }

  /// The evaluation for these argument values (pointers into the solver's
  /// state; matchIsArgs), or null.
  const Evaluation *find(size_t hash, OpsId ops, uint32_t numOutputs, std::span<const Value *const> vals) const {
    return lookup(hash, ops, numOutputs, true, vals.size(), [&](size_t i) -> const Value & { return *vals[i]; });
  }
  const Evaluation *find(size_t hash, OpsId ops, uint32_t numOutputs, bool matchIsArgs,
                         std::span<const Value> vals) const {
    return lookup(hash, ops, numOutputs, matchIsArgs, vals.size(), [&](size_t i) -> const Value & { return vals[i]; });
  }
  /// Keep `e` under this key (hash as computed by hashOf); returns the kept copy.
  const Evaluation &insert(size_t hash, OpsId ops, uint32_t numOutputs, bool matchIsArgs, std::vector<Value> key,
                           Evaluation e);
  /// Keep `target` (an evaluation of this memo) also under a signature key:
  /// the signature and the values of its site's varying arguments.
  void insertAlias(size_t hash, std::shared_ptr<const OpSignature> sig, std::vector<Value> key,
                   const Evaluation &target);
  /// Start over when full (call between nodes only: returned references die).
  void startOverIfFull() {
    // The table is at most half full, so below this many slots there are
    // fewer entries than the bound: one compare per op node.
    if (slots_.size() >= 2 * kMaxCachedEvaluations) startOver();
  }
  size_t size() const { return entries_.size(); }
  /// Keep semantics with user rules alive while this memo may hold entries
  /// keyed by their schema spans (no other object can take those addresses).
  void keepAlive(const std::shared_ptr<const Semantics> &s) {
    if (std::find(kept_.begin(), kept_.end(), s) == kept_.end()) kept_.push_back(s);
  }

  /// Serve calls with this Options::sizes? The first call sets the mode; a
  /// call of the other mode is refused (its evaluations differ in sizes).
  bool servesSizes(bool sizes) {
    if (!sizesMode_) sizesMode_ = sizes;
    return *sizesMode_ == sizes;
  }

  /// Scratch for building lookup keys (reused; not re-entrant).
  std::vector<Value> scratch;

  /// Most distinct evaluations kept; past it the memo starts over (bounded memory).
  static constexpr size_t kMaxCachedEvaluations = 1 << 14;

private:
  void startOver();
  struct Entry {
    OpsId ops;
    uint32_t numOutputs;
    bool matchIsArgs;
    std::vector<Value> key;
    Evaluation eval;
    const Evaluation *alias = nullptr;       ///< set: this entry answers with another one's evaluation
    std::shared_ptr<const OpSignature> sig;  ///< a signature key's signature, kept alive
  };
  template <typename At>
  const Evaluation *lookup(size_t hash, OpsId ops, uint32_t numOutputs, bool matchIsArgs, size_t n, At at) const {
    if (slots_.empty()) return nullptr;
    size_t mask = slots_.size() - 1;
    for (size_t s = hash & mask; slots_[s].entry != 0; s = (s + 1) & mask) {
      if (slots_[s].hash != hash) continue;
      const Entry &e = entries_[slots_[s].entry - 1];
      if (e.ops != ops || e.numOutputs != numOutputs || e.matchIsArgs != matchIsArgs || e.key.size() != n) continue;
      bool same = true;
      for (size_t i = 0; i < n && same; ++i) same = e.key[i].identical(at(i));
      if (same) return e.alias ? e.alias : &e.eval;
    }
    return nullptr;
  }
  void place(size_t hash, uint32_t entry);
  void growIfNeeded();

  struct Slot {
    size_t hash = 0;
    uint32_t entry = 0; ///< 1 + index into entries_; 0: free
  };
  std::vector<Slot> slots_; ///< power-of-two size, at most half full
  std::deque<Entry> entries_; ///< a deque: references survive growth, no allocation per entry
  std::vector<std::shared_ptr<const Semantics>> kept_; ///< see keepAlive
  std::optional<bool> sizesMode_; ///< see servesSizes
};

} // namespace dtf::refine
