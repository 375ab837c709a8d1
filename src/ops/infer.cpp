#include "ops/infer.h"

#include "ops/notation.h"

#include <algorithm>
#include <fmt/format.h>
#include <stdexcept>

namespace dtf {
namespace {

using K = SchemaType::Kind;

/// Positions in the argument vector (and inside tensor lists) that hold
/// something unknown, with the concrete alternatives for each.
struct Choice {
  size_t arg;
  std::optional<size_t> elem; // inside a Tensor[] list
  std::vector<Value> alternatives;
};

std::vector<Value> tensorAlternatives(const Value &v) {
  Value t = v.isTensor() ? v : Value::unknownTensor();
  std::vector<Rank> ranks;
  if (t.rank().isTop()) ranks = {Rank::exact(0), Rank::atLeast1()};
  else ranks = {t.rank()};
  std::vector<Value> out;
  DTypeSet dts = t.dtypes();
  for (DType d : dts)
    for (Rank r : ranks)
      out.push_back(r == t.rank() ? t.withDTypes(d) : Value::tensor(d, r)); // keeps size-1 facts
  return out;
}

bool needsTensorChoice(const Value &v) {
  return !v.isTensor() || !v.dtype() || v.rank().isTop();
}

std::vector<Value> dtypeArgAlternatives(bool optional) {
  std::vector<Value> out;
  if (optional) out.push_back(Value::none());
  for (DType d : kAllDTypes) out.push_back(Value::dtypeCode(d));
  return out;
}

bool knownDtypeCode(const Value &v) {
  auto c = v.intValue();
  return c && fromC10Code(*c);
}

/// Alternatives for one argument, or empty when it is already concrete.
std::vector<Value> alternativesFor(const SchemaType &type, const Value &v) {
  switch (type.kind) {
  case K::Tensor:
    return needsTensorChoice(v) ? tensorAlternatives(v) : std::vector<Value>{};
  case K::Number:
    if (v.isNumber() && v.numKind()) return {};
    {
      std::vector<Value> out;
      NumKinds kinds = v.isNumber() ? v.numKinds() : NumKinds::all();
      for (NumKind k : kinds) out.push_back(Value::number(k));
      return out;
    }
  case K::ScalarType:
    return v.isNumber() && knownDtypeCode(v) ? std::vector<Value>{} : dtypeArgAlternatives(false);
  case K::Optional: {
    const SchemaType &in = *type.inner();
    if (v.isNone()) return {};
    if (in.kind == K::Tensor) {
      if (v.isTensor()) return needsTensorChoice(v) ? tensorAlternatives(v) : std::vector<Value>{};
      auto alts = tensorAlternatives(Value::unknownTensor());
      alts.insert(alts.begin(), Value::none());
      return alts;
    }
    if (in.kind == K::ScalarType)
      return v.isNumber() && knownDtypeCode(v) ? std::vector<Value>{} : dtypeArgAlternatives(true);
    if (in.kind == K::Number && v.isNumber()) return alternativesFor(in, v);
    return {};
  }
  default: return {};
  }
}

void collectChoices(const Schema &schema, std::span<const Value> args, std::vector<Choice> &out) {
  for (size_t i = 0; i < args.size() && i < schema.args.size(); ++i) {
    const SchemaType &t = *schema.args[i].type;
    if (t.kind == K::List && t.inner() && t.inner()->isTensorLike()) {
      const Value &l = args[i];
      if (!l.lengthKnown()) continue; // the rule sees the summary
      for (size_t e = 0; e < l.elements().size(); ++e) {
        auto alts = alternativesFor(*t.inner(), l.elements()[e]);
        if (!alts.empty()) out.push_back({i, e, std::move(alts)});
      }
      continue;
    }
    auto alts = alternativesFor(t, args[i]);
    if (!alts.empty()) out.push_back({i, std::nullopt, std::move(alts)});
  }
}

RuleResult runRule(const OpRule &rule, const Schema &schema, std::span<const Value> args) {
  try {
    return rule.fn(OpCall(schema, args));
  } catch (const std::logic_error &e) {
    // A rule that cannot handle this case is a rule bug; degrade to unknown
    // rather than guess, and say why.
    return RuleError{ErrorKind::Semantic, std::string("internal: ") + e.what()};
  }
}

bool isInternal(const RuleError &e) { return e.message.starts_with("internal: "); }

} // namespace

Value unknownOfType(const SchemaType &type) {
  switch (type.kind) {
  case K::Tensor: return Value::unknownTensor();
  case K::Int: return Value::number(NumKind::Int);
  case K::Float: return Value::number(NumKind::Float);
  case K::Bool: return Value::number(NumKind::Bool);
  case K::Complex: return Value::number(NumKind::Complex);
  case K::Number: return Value::number(NumKinds::all());
  case K::ScalarType:
  case K::Layout:
  case K::MemoryFormat: return Value::number(NumKind::Int);
  case K::Str: return Value::unknownString();
  case K::List: return Value::listOf(unknownOfType(*type.inner()));
  case K::Tuple: {
    std::vector<Value> elems;
    for (auto &c : type.children) elems.push_back(unknownOfType(*c));
    return Value::tuple(std::move(elems));
  }
  default: return Value::top();
  }
}

std::vector<Value> unknownOutputs(const Schema &schema) {
  std::vector<Value> out;
  for (const SchemaArg &r : schema.returns) out.push_back(unknownOfType(*r.type));
  return out;
}

Value defaultValue(const SchemaArg &arg) {
  if (!arg.defaultText) return Value::top();
  auto v = parseNotation(*arg.defaultText, arg.type.get());
  if (!v.value) return Value::top();
  // `int[2] stride=1` means [1, 1].
  const SchemaType *t = arg.type.get();
  if (t->kind == K::List && v.value->isNumber()) {
    if (t->fixedSize) return Value::list(std::vector<Value>(*t->fixedSize, *v.value));
    return Value::listOf(*v.value);
  }
  return *v.value;
}

InferOutcome infer(const Registry &registry, const Schema &schema, std::span<const Value> args) {
  InferOutcome out;
  const OpRule *rule = registry.find(schema);
  if (!rule) {
    out.status = InferOutcome::Status::NoRule;
    out.outputs = unknownOutputs(schema);
    return out;
  }
  if (args.size() != schema.args.size())
    throw std::invalid_argument(schema.key() + ": expected " + std::to_string(schema.args.size()) +
                                " arguments, got " + std::to_string(args.size()));

  auto wrongCount = [&](std::vector<Value> &outputs) {
    if (outputs.size() == schema.returns.size() || schema.varReturns) return false;
    out.outputs = unknownOutputs(schema);
    out.possibleError = RuleError{ErrorKind::Semantic, "internal: " + schema.key() +
                                                           ": rule returned a wrong number of results"};
    return true;
  };

  std::vector<Choice> choices;
  collectChoices(schema, args, choices);
  if (choices.empty()) { // concrete arguments (the common case): one rule call, read in place
    RuleResult r = runRule(*rule, schema, args);
    if (r.ok()) {
      std::vector<Value> outputs = r.takeOutputs();
      if (!wrongCount(outputs)) out.outputs = std::move(outputs);
      return out;
    }
    // Never guess: a rule that cannot answer leaves the call unknown; otherwise PyTorch raises.
    if (isInternal(r.error())) {
      out.possibleError = r.error();
    } else {
      out.status = InferOutcome::Status::Error;
      out.error = r.error();
    }
    out.outputs = unknownOutputs(schema);
    return out;
  }
  size_t cases = 1;
  for (const Choice &c : choices) {
    cases *= c.alternatives.size();
    if (cases > kMaxEnumeratedCases) {
      out.status = InferOutcome::Status::TooManyUnknowns;
      out.outputs = unknownOutputs(schema);
      return out;
    }
  }

  std::vector<Value> concrete(args.begin(), args.end());
  std::span<const Value> callArgs = concrete;
  std::vector<size_t> pick(choices.size(), 0);
  std::optional<std::vector<Value>> joined;
  std::optional<RuleError> firstError;
  bool internal = false;
  for (size_t n = 0; n < cases; ++n) {
    // Odometer over the choices; rebuild list arguments that changed.
    for (size_t c = 0; c < choices.size(); ++c) {
      const Choice &ch = choices[c];
      const Value &alt = ch.alternatives[pick[c]];
      if (!ch.elem) { concrete[ch.arg] = alt; continue; }
      std::vector<Value> elems = concrete[ch.arg].elements();
      elems[*ch.elem] = alt;
      concrete[ch.arg] = Value::list(std::move(elems));
    }
    RuleResult r = runRule(*rule, schema, callArgs);
    if (r.ok()) {
      if (!joined) joined = r.takeOutputs();
      else {
        auto &j = *joined;
        if (j.size() != r.outputs().size()) { internal = true; break; }
        for (size_t i = 0; i < j.size(); ++i) j[i] = Value::join(j[i], r.outputs()[i]);
      }
    } else {
      if (isInternal(r.error())) internal = true;
      if (!firstError) firstError = r.error();
    }
    for (size_t c = 0; c < choices.size(); ++c) {
      if (++pick[c] < choices[c].alternatives.size()) break;
      pick[c] = 0;
    }
  }

  if (internal) {
    // Never guess: a rule that cannot answer a case leaves the call unknown.
    out.outputs = unknownOutputs(schema);
    out.possibleError = firstError;
    return out;
  }
  if (!joined) {
    out.status = InferOutcome::Status::Error;
    out.error = firstError;
    out.outputs = unknownOutputs(schema);
    return out;
  }
  if (wrongCount(*joined)) return out;
  out.outputs = std::move(*joined);
  out.possibleError = firstError;
  return out;
}

} // namespace dtf

namespace dtf {

BindResult bindArguments(const Schema &schema, std::span<const Value> positional,
                         std::span<const std::pair<std::string, Value>> named) {
  BindResult out;
  const size_t n = schema.args.size();
  std::vector<std::optional<Value>> slots(n);
  if (positional.size() > n && !schema.varargs) {
    out.error = fmt::format("{}: takes {} arguments, {} given", schema.key(), n, positional.size());
    return out;
  }
  // Arguments past a varargs schema's named ones (`format(str, ...)`) bind to nothing.
  for (size_t i = 0; i < std::min(positional.size(), n); ++i) slots[i] = positional[i];
  for (const auto &[argName, v] : named) {
    int i = schema.argIndex(argName);
    if (i < 0) {
      std::string names;
      for (const SchemaArg &a : schema.args) names += (names.empty() ? "" : ", ") + a.name;
      out.error = fmt::format("{}: no argument named '{}' (arguments: {})", schema.key(), argName, names);
      return out;
    }
    if (slots[i]) {
      out.error = fmt::format("{}: argument '{}' given twice", schema.key(), argName);
      return out;
    }
    slots[i] = v;
  }
  for (size_t i = 0; i < n; ++i) {
    if (slots[i]) continue;
    const SchemaArg &a = schema.args[i];
    if (!a.defaultText) {
      out.error = fmt::format("{}: missing argument '{}' ({})", schema.key(), a.name, a.type->str());
      return out;
    }
    slots[i] = defaultValue(a);
  }
  for (auto &s : slots) out.args.push_back(std::move(*s));
  return out;
}

} // namespace dtf
