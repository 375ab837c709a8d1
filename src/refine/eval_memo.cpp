#include "refine/eval_memo.h"

namespace dtf::refine {

std::shared_ptr<EvalMemo> makeEvalMemo() { return std::make_shared<EvalMemo>(); }

void EvalMemo::place(size_t hash, uint32_t entry) {
  size_t mask = slots_.size() - 1, s = hash & mask;
  while (slots_[s].entry != 0) s = (s + 1) & mask;
  slots_[s] = {hash, entry};
}

void EvalMemo::insertAlias(size_t hash, std::shared_ptr<const OpSignature> sig, std::vector<Value> key,
                           const Evaluation &target) {
  growIfNeeded();
  const OpSignature *id = sig.get();
  entries_.push_back(Entry{id, id->numOutputs, true, std::move(key), {}, &target, std::move(sig)});
  place(hash, static_cast<uint32_t>(entries_.size()));
}

void EvalMemo::growIfNeeded() {
  if ((entries_.size() + 1) * 2 > slots_.size()) { // grow: rehash into twice the slots (64 at first)
    std::vector<Slot> old(std::max<size_t>(64, slots_.size() * 2));
    old.swap(slots_);
    for (const Slot &s : old)
      if (s.entry != 0) place(s.hash, s.entry);
  }
}

const Evaluation &EvalMemo::insert(size_t hash, OpsId ops, uint32_t numOutputs, bool matchIsArgs,
                                   std::vector<Value> key, Evaluation e) {
  growIfNeeded();
  entries_.push_back(Entry{ops, numOutputs, matchIsArgs, std::move(key), std::move(e), nullptr, nullptr});
  place(hash, static_cast<uint32_t>(entries_.size()));
  return entries_.back().eval;
}

void EvalMemo::startOver() {
  if (entries_.size() < kMaxCachedEvaluations) return;
  entries_.clear();
  slots_.clear();
}

} // namespace dtf::refine
