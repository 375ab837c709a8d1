//===- ops/families/view_copies.cpp - X_copy ops take X's rule ------------===//
//
// Functionalization gave 1.13 a non-aliasing `X_copy` for each view op X
// (permute_copy, view_copy.dtype, split_copy.Tensor ...): same arguments
// (names included, checked below), same result dtypes and ranks, only fresh
// memory. Each one reuses its view's rule and conformance samples, so this
// family runs after every family that registers a view.
//
//===----------------------------------------------------------------------===//
#include "ops/registry.h"

#include <stdexcept>
#include <string>

namespace dtf {

namespace {

bool sameArgumentNames(const Schema &a, const Schema &b) {
  if (a.args.size() != b.args.size()) return false;
  for (size_t i = 0; i < a.args.size(); ++i)
    if (a.args[i].name != b.args[i].name) return false;
  return true;
}

// {view, copy}: copies whose view has a rule. narrow/expand/unfold_copy
// and lift_fresh_copy have rules of their own.
static const char *const kPairs[][2] = {
    {"aten::alias", "aten::alias_copy"},
    {"aten::as_strided", "aten::as_strided_copy"},
    {"aten::detach", "aten::detach_copy"},
    {"aten::diagonal", "aten::diagonal_copy"},
    {"aten::permute", "aten::permute_copy"},
    {"aten::select.int", "aten::select_copy.int"},
    {"aten::slice.Tensor", "aten::slice_copy.Tensor"},
    {"aten::split.Tensor", "aten::split_copy.Tensor"},
    {"aten::split_with_sizes", "aten::split_with_sizes_copy"},
    {"aten::squeeze", "aten::squeeze_copy"},
    {"aten::squeeze.dim", "aten::squeeze_copy.dim"},
    {"aten::squeeze.dims", "aten::squeeze_copy.dims"}, // 2.x
    {"aten::t", "aten::t_copy"},
    {"aten::transpose.int", "aten::transpose_copy.int"},
    {"aten::unbind.int", "aten::unbind_copy.int"},
    {"aten::unsqueeze", "aten::unsqueeze_copy"},
    {"aten::view", "aten::view_copy"},
    {"aten::view.dtype", "aten::view_copy.dtype"},
    {"aten::view_as_complex", "aten::view_as_complex_copy"},
    {"aten::view_as_real", "aten::view_as_real_copy"},
};

} // namespace

void registerViewCopies(Registry &r) {
  for (const auto &[view, copy] : kPairs) {
    const OpRule *base = r.find(view);
    if (!base && !r.schemas().find(view)) continue; // a view this version lacks (squeeze.dims in 1.13)
    if (!base) throw std::logic_error(std::string(copy) + ": its view " + view + " has no rule");
    Registry::Entry e = r.add(copy, base->family, base->fn);
    r.declare(std::string_view(copy).substr(0, std::string_view(copy).find('.')),
              r.facts(std::string_view(view).substr(0, std::string_view(view).find('.'))));
    if (!r.find(copy)) continue; // not in this version's schema table
    const OpRule &added = *r.find(copy);
    if (!sameArgumentNames(*base->schema, *added.schema))
      throw std::logic_error(std::string(copy) + ": arguments differ from " + view + "'s");
    for (const auto &[arg, spec] : base->samples.args) e.sample(arg, spec);
    for (const auto &v : base->samples.variants) e.variant(v.args);
    if (!base->samples.skipReason.empty()) e.skipConformance(base->samples.skipReason);
    e.withBounds(base->intBounds); // same names, same positions (its variants already sample them)
  }
  // 2.14's _reshape_copy(self, size): view_copy's rule (its arguments are named alike).
  if (const OpRule *viewCopy = r.find("aten::view_copy"))
    r.add("aten::_reshape_copy", viewCopy->family, viewCopy->fn).withSamples(viewCopy->samples);
  // _lazy_clone (2.14): a copy-on-write clone, of self's dtype and rank.
  if (const OpRule *clone = r.find("aten::clone"))
    r.add("aten::_lazy_clone", clone->family, [](const OpCall &c) -> RuleResult {
      return tensorOf(c.dtype("self"), c.rank("self")).withUnitDims(c.arg("self").unitDims());
    });
}

/// Each copy's shape rule is its view's (issue 35, shapes-corpus): the
/// copies had dtype rules only, so view_copy, permute_copy ... lost sizes.
/// Registered after every family's shape rules (families.def).
void registerViewCopyShapes(Registry &r) {
  for (const auto &[view, copy] : kPairs) {
    const OpRule *base = r.find(view), *added = r.find(copy);
    if (base && added && base->shape && !added->shape) r.shape(copy, base->shape);
  }
  const OpRule *viewCopy = r.find("aten::view_copy"), *reshapeCopy = r.find("aten::_reshape_copy");
  if (viewCopy && reshapeCopy && viewCopy->shape && !reshapeCopy->shape) r.shape("aten::_reshape_copy", viewCopy->shape);
}

} // namespace dtf
