//===- frontends/pt2/control_flow.cpp - higher-order ops as If / Loop ------===//
//
// torch.export keeps control flow as higher-order ops whose bodies are
// sub-graphs (as_graph arguments). Each becomes the TorchScript construct
// the refinement joins over, the sub-graph's nodes inlined into its blocks:
//
//   cond(pred, true_fn, false_fn, operands)
//     -> prim::If(Bool(pred)) { true_fn(operands) } { false_fn(operands) }
//   while_loop(cond_fn, body_fn, carried, additional)
//     -> c = cond_fn(carried, additional)
//        prim::Loop(max, Bool(c), carried) block(i, state):
//          next = body_fn(state, additional); -> (Bool(cond_fn(next, additional)), next)
//   map_impl(body_fn, xs, args)   (torch._higher_order_ops.map)
//     -> ys = []; prim::Loop(xs[0].size(0), true) block(i):
//          ys.append(body_fn(xs[...][i], args)); then stack(ys)
//   wrap_with_autocast(device, dtype, enabled, cache_enabled, fn, *args)
//     -> higher_order::wrap_with_autocast[autocast="cpu:bfloat16"](args) { fn(args) }
//        (the refinement runs the block inside that autocast context; an
//        empty context: autocast disabled there; "?": a context not modelled)
//
//===----------------------------------------------------------------------===//
#include "frontends/pt2/builder.h"
#include "frontends/pt2/serde_enums.h"

#include <fmt/format.h>

#include <limits>

namespace dtf::pt2 {

bool Builder::buildHigherOrder(Scope &scope, const Field &node, ir::BlockId b, const std::string &target) {
  std::string_view op = std::string_view(target).substr(std::string_view("torch.ops.higher_order.").size());
  if (op == "cond") buildCond(scope, node, b);
  else if (op == "while_loop") buildWhileLoop(scope, node, b);
  else if (op == "map_impl") buildMap(scope, node, b);
  else if (op == "wrap_with_autocast") buildAutocastRegion(scope, node, b);
  else return false;
  return true;
}

ir::ValueId Builder::predicate(ir::ValueId v, ir::BlockId b) {
  const ir::TypeExpr &t = *g_->values[v].type;
  if (t.kind == ir::TypeExpr::Kind::Bool) return v;
  // A tensor (or a SymInt) predicate: Python's bool() of it.
  ir::NodeId n = g_->addNode(b, g_->internPinnedKind("aten::Bool", t.isTensor() ? "Tensor" : "int"), {});
  g_->nodes[n].inputs.push_back(v);
  ir::ValueId out = fresh(type("bool"));
  g_->values[out].def = n;
  g_->nodes[n].outputs.push_back(out);
  return out;
}

/// A higher-order op's results: torch 2.6 writes one result as `[{"as_tensors": [{"name": ...}]}]`
/// (2.14: `[{"as_tensor": ...}]`): the list's elements are then the results, each its own value.
bool Builder::resultsListed(const Field &outputs) { return outputs.size() == 1 && outputs.at(0).unionTag() == "as_tensors"; }
size_t Builder::hopResultCount(const Field &outputs) {
  return resultsListed(outputs) ? outputs.at(0).unionValue().size() : outputs.size();
}
Field Builder::hopResultName(const Field &outputs, size_t k) {
  if (resultsListed(outputs)) return outputs.at(0).unionValue().at(k)["name"];
  Field o = outputs.at(k);
  if (o.unionTag() != "as_tensor") o.fail(fmt::format("expected a tensor result, found '{}'", o.unionTag()));
  return o.unionValue()["name"];
}
void Builder::defineHopOutputs(Scope &scope, const Field &outputs, ir::NodeId n, ir::BlockId b) {
  if (!resultsListed(outputs)) return defineOutputs(scope, outputs, n, b);
  for (size_t k = 0; k < hopResultCount(outputs); ++k) {
    Field name = hopResultName(outputs, k);
    ir::ValueId out = define(scope, name, type("Tensor"));
    record(scope, name.str(), out);
    g_->values[out].def = n;
    g_->nodes[n].outputs.push_back(out);
  }
}

std::vector<ir::ValueId> Builder::listValues(Scope &scope, const Field &arg, ir::BlockId b) {
  std::string_view tag = arg.unionTag();
  Field v = arg.unionValue();
  std::vector<ir::ValueId> out;
  if (tag == "as_tensors") {
    for (size_t i = 0; i < v.size(); ++i) out.push_back(lookup(scope, v.at(i)["name"]));
  } else if (tag == "as_sym_ints" || tag == "as_sym_bools" || tag == "as_sym_floats") {
    for (size_t i = 0; i < v.size(); ++i) {
      Field e = v.at(i);
      std::string_view t = e.unionTag();
      Field x = e.unionValue();
      out.push_back(t == "as_name"    ? lookup(scope, x)
                    : t == "as_int"   ? intConstant(b, x.integer())
                    : t == "as_bool"  ? boolConstant(b, x.boolean())
                    : t == "as_float" ? floatConstant(b, x.floating())
                                      : (e.fail(fmt::format("unknown symbolic argument kind '{}'", t)), ir::kNoId));
    }
  } else if (tag == "as_ints" || tag == "as_floats" || tag == "as_bools") {
    for (size_t i = 0; i < v.size(); ++i) {
      Field e = v.at(i);
      out.push_back(tag == "as_ints"     ? intConstant(b, e.integer())
                    : tag == "as_floats" ? floatConstant(b, e.floating())
                                         : boolConstant(b, e.boolean()));
    }
  } else {
    arg.fail(fmt::format("expected a list of operands, found '{}'", tag));
  }
  return out;
}

std::vector<ir::ValueId> Builder::inlineGraph(Scope &outer, const Field &graphArg, const std::vector<ir::ValueId> &inputs,
                                              ir::BlockId b) {
  if (graphArg.unionTag() != "as_graph") graphArg.fail(fmt::format("expected a sub-graph (as_graph), found '{}'", graphArg.unionTag()));
  Field ga = graphArg.unionValue();
  Field graph = ga["graph"];
  if (outer.depth + 1 > ir::kMaxNesting) ga.fail(fmt::format("sub-graphs nested deeper than {} levels are refused", ir::kMaxNesting));
  Scope s;
  s.graph = &graph;
  s.prefix = fmt::format("{}{}.", outer.prefix, ga["name"].str());
  s.depth = outer.depth + 1;
  Field params = graph["inputs"];
  if (params.size() != inputs.size())
    params.fail(fmt::format("the sub-graph takes {} inputs, the op passes {}", params.size(), inputs.size()));
  for (size_t i = 0; i < inputs.size(); ++i) {
    Field p = params.at(i);
    std::string_view tag = p.unionTag();
    Field v = p.unionValue();
    std::string name;
    if (tag == "as_tensor") name = v["name"].str();
    else if ((tag == "as_sym_int" || tag == "as_sym_bool" || tag == "as_sym_float") && v.unionTag() == "as_name")
      name = v.unionValue().str();
    else continue; // a constant input: nothing refers to it by name
    if (!s.values.emplace(name, inputs[i]).second) p.fail(fmt::format("sub-graph input '{}' is named twice", name));
  }
  buildNodes(s, graph["nodes"], b);
  Field outputs = graph["outputs"];
  std::vector<ir::ValueId> out;
  for (Field o : outputs.items()) out.push_back(argument(s, o, nullptr, b));
  return out;
}

void Builder::buildCond(Scope &scope, const Field &node, ir::BlockId b) {
  Field inputs = node["inputs"];
  if (inputs.size() != 4)
    inputs.fail(fmt::format("torch.cond takes 4 arguments (pred, true_fn, false_fn, operands), found {}", inputs.size()));
  ir::ValueId pred = predicate(argument(scope, inputs.at(0)["arg"], nullptr, b), b);
  std::vector<ir::ValueId> operands = listValues(scope, inputs.at(3)["arg"], b);
  Field outputs = node["outputs"];
  ir::NodeId n = g_->addNode(b, "prim::If", {});
  g_->nodes[n].inputs.push_back(pred);
  for (size_t branch = 1; branch <= 2; ++branch) {
    ir::BlockId blk = g_->addBlock(n, {});
    Field fn = inputs.at(branch)["arg"];
    std::vector<ir::ValueId> results = inlineGraph(scope, fn, operands, blk);
    if (results.size() != hopResultCount(outputs))
      fn.fail(fmt::format("the branch returns {} values, torch.cond records {} results", results.size(),
                          hopResultCount(outputs)));
    g_->blocks[blk].returns = std::move(results);
  }
  defineHopOutputs(scope, outputs, n, b);
}

void Builder::buildWhileLoop(Scope &scope, const Field &node, ir::BlockId b) {
  Field inputs = node["inputs"];
  if (inputs.size() != 4)
    inputs.fail(fmt::format("while_loop takes 4 arguments (cond_fn, body_fn, carried_inputs, additional_inputs), "
                            "found {}",
                            inputs.size()));
  Field condFn = inputs.at(0)["arg"], bodyFn = inputs.at(1)["arg"];
  std::vector<ir::ValueId> carried = listValues(scope, inputs.at(2)["arg"], b);
  std::vector<ir::ValueId> extra = listValues(scope, inputs.at(3)["arg"], b);
  auto withExtra = [&](std::vector<ir::ValueId> v) {
    v.insert(v.end(), extra.begin(), extra.end());
    return v;
  };
  auto condition = [&](const std::vector<ir::ValueId> &state, ir::BlockId blk) {
    std::vector<ir::ValueId> c = inlineGraph(scope, condFn, withExtra(state), blk);
    if (c.size() != 1) condFn.fail(fmt::format("the condition returns {} values, not one", c.size()));
    return predicate(c[0], blk);
  };
  ir::ValueId first = condition(carried, b);
  ir::ValueId maxTrips = intConstant(b, std::numeric_limits<int64_t>::max()); // TorchScript's `while`
  ir::NodeId n = g_->addNode(b, "prim::Loop", {});
  g_->nodes[n].inputs = {maxTrips, first};
  g_->nodes[n].inputs.insert(g_->nodes[n].inputs.end(), carried.begin(), carried.end());
  ir::BlockId body = g_->addBlock(n, {});
  // The body's state: block params named after body_fn's inputs, with their recorded types.
  Field bodyGraph = bodyFn.unionValue()["graph"];
  Field bodyParams = bodyGraph["inputs"];
  if (bodyParams.size() != carried.size() + extra.size())
    bodyParams.fail(fmt::format("the body takes {} inputs, while_loop passes {}", bodyParams.size(),
                                carried.size() + extra.size()));
  Scope names; // only to name the params: `<body graph>.<input>`
  names.graph = &bodyGraph;
  names.prefix = fmt::format("{}{}.", scope.prefix, bodyFn.unionValue()["name"].str());
  ir::ValueId index = fresh(type("int"));
  g_->values[index].paramOf = body;
  g_->blocks[body].params.push_back(index);
  std::vector<ir::ValueId> state;
  for (size_t i = 0; i < carried.size(); ++i) {
    Field p = bodyParams.at(i);
    Field pv = p.unionValue();
    const ir::TypeExpr &outerType = *g_->values[carried[i]].type;
    ir::TypePtr t = outerType.isTensor() ? type("Tensor") : g_->values[carried[i]].type;
    ir::ValueId param;
    if (p.unionTag() == "as_tensor") {
      param = define(names, pv["name"], t);
      record(names, pv["name"].str(), param);
    } else {
      param = fresh(t);
    }
    g_->values[param].paramOf = body;
    g_->blocks[body].params.push_back(param);
    state.push_back(param);
  }
  std::vector<ir::ValueId> next = inlineGraph(scope, bodyFn, withExtra(state), body);
  if (next.size() != carried.size())
    bodyFn.fail(fmt::format("the body returns {} values for {} carried inputs", next.size(), carried.size()));
  g_->blocks[body].returns.push_back(condition(next, body));
  g_->blocks[body].returns.insert(g_->blocks[body].returns.end(), next.begin(), next.end());
  Field outputs = node["outputs"];
  if (hopResultCount(outputs) != carried.size())
    outputs.fail(fmt::format("while_loop records {} results for {} carried inputs", hopResultCount(outputs), carried.size()));
  defineHopOutputs(scope, outputs, n, b);
}

void Builder::buildMap(Scope &scope, const Field &node, ir::BlockId b) {
  Field inputs = node["inputs"];
  if (inputs.size() != 3)
    inputs.fail(fmt::format("map_impl takes 3 arguments (body_fn, xs, args), found {}", inputs.size()));
  Field bodyFn = inputs.at(0)["arg"];
  std::vector<ir::ValueId> xs = listValues(scope, inputs.at(1)["arg"], b);
  std::vector<ir::ValueId> args = listValues(scope, inputs.at(2)["arg"], b);
  if (xs.empty()) inputs.at(1).fail("map_impl over no tensors");
  Field outputs = node["outputs"];
  auto op = [&](ir::BlockId blk, std::string_view kind, std::string_view overload, std::vector<ir::ValueId> ins,
                std::string_view resultType) {
    ir::NodeId n = g_->addNode(blk, g_->internPinnedKind(kind, overload), {});
    g_->nodes[n].inputs = std::move(ins);
    ir::ValueId out = fresh(type(resultType));
    g_->values[out].def = n;
    g_->nodes[n].outputs.push_back(out);
    return out;
  };
  ir::ValueId zero = intConstant(b, 0);
  const size_t count = hopResultCount(outputs);
  std::vector<ir::ValueId> results; // one list per output, grown by the loop
  for (size_t k = 0; k < count; ++k) {
    ir::NodeId n = g_->addNode(b, "prim::ListConstruct", {});
    ir::ValueId l = fresh(type("Tensor[]"));
    g_->values[l].def = n;
    g_->nodes[n].outputs.push_back(l);
    results.push_back(l);
  }
  ir::ValueId trips = op(b, "aten::size", "int", {xs[0], zero}, "int");
  ir::ValueId yes = boolConstant(b, true);
  ir::NodeId loop = g_->addNode(b, "prim::Loop", {});
  g_->nodes[loop].inputs = {trips, yes};
  ir::BlockId body = g_->addBlock(loop, {});
  ir::ValueId index = fresh(type("int"));
  g_->values[index].paramOf = body;
  g_->blocks[body].params.push_back(index);
  std::vector<ir::ValueId> slices;
  for (ir::ValueId x : xs) slices.push_back(op(body, "aten::select", "int", {x, zero, index}, "Tensor"));
  slices.insert(slices.end(), args.begin(), args.end());
  std::vector<ir::ValueId> ys = inlineGraph(scope, bodyFn, slices, body);
  if (ys.size() != count)
    bodyFn.fail(fmt::format("the body returns {} values, map_impl records {} results", ys.size(), count));
  for (size_t k = 0; k < ys.size(); ++k) op(body, "aten::append", "t", {results[k], ys[k]}, "Tensor[]");
  g_->blocks[body].returns.push_back(boolConstant(body, true));
  // Each result stacks the body's results along a new leading dim.
  for (size_t k = 0; k < count; ++k) {
    ir::NodeId n = g_->addNode(b, g_->internPinnedKind("aten::stack", ""), {});
    g_->nodes[n].inputs = {results[k], zero};
    Field name = hopResultName(outputs, k);
    ir::ValueId out = define(scope, name, type("Tensor"));
    record(scope, name.str(), out);
    g_->values[out].def = n;
    g_->nodes[n].outputs.push_back(out);
  }
}

void Builder::buildAutocastRegion(Scope &scope, const Field &node, ir::BlockId b) {
  Field inputs = node["inputs"];
  if (inputs.size() < 5)
    inputs.fail(fmt::format("wrap_with_autocast takes (device, dtype, enabled, cache_enabled, fn, *args), found {} "
                            "arguments",
                            inputs.size()));
  Field device = inputs.at(0)["arg"], dtype = inputs.at(1)["arg"], enabled = inputs.at(2)["arg"];
  if (device.unionTag() != "as_string") device.fail("wrap_with_autocast's device is not a string");
  if (enabled.unionTag() != "as_bool") enabled.fail("wrap_with_autocast's enabled is not a bool");
  // The context as --autocast spells it; the refinement checks it against the version's lists.
  std::string context;
  if (enabled.unionValue().boolean()) {
    std::optional<DType> d;
    if (dtype.unionTag() == "as_scalar_type")
      if (auto torchName = serdeDTypeName(dtype.unionValue().integer())) d = modelledDType(*torchName, dtypes_);
    // None: the device's default lower precision dtype, which this reader does not know; so "?".
    context = d ? fmt::format("{}:{}", device.unionValue().str(), name(*d)) : "?";
  }
  std::vector<ir::ValueId> operands;
  for (size_t i = 5; i < inputs.size(); ++i) operands.push_back(argument(scope, inputs.at(i)["arg"], nullptr, b));
  ir::NodeId n = g_->addNode(b, "higher_order::wrap_with_autocast", {});
  g_->nodes[n].inputs = operands;
  ir::Attribute attr;
  attr.name = "autocast";
  attr.text = fmt::format("\"{}\"", context);
  attr.kind = ir::Attribute::LitKind::String;
  attr.literal = Value::string(context);
  g_->nodes[n].attrs.push_back(std::move(attr));
  ir::BlockId blk = g_->addBlock(n, {});
  Field fn = inputs.at(4)["arg"], outputs = node["outputs"];
  std::vector<ir::ValueId> results = inlineGraph(scope, fn, operands, blk);
  if (results.size() != hopResultCount(outputs))
    fn.fail(fmt::format("the region returns {} values, wrap_with_autocast records {} results", results.size(),
                        hopResultCount(outputs)));
  g_->blocks[blk].returns = std::move(results);
  defineHopOutputs(scope, outputs, n, b);
}

} // namespace dtf::pt2
