//===- frontends/torch_mlir/mlir_reader.cpp - Torch-dialect MLIR to graphs ===//
//
// MLIR's grammar is generic (`"op"(%a) <{props}> ({regions}) {attrs} :
// (T) -> T`) but every dialect prints its ops in a form of its own. The
// Torch dialect's forms share a shape, which the reader relies on: operands
// (value names, maybe in parentheses) up to a `:` at depth 0, then operand
// types, then `->` or `to` and result types; an op ends with its line
// (unless the line ends in `,`, `:`, `->` or `to`). torch.prim.If and
// torch.prim.Loop, whose forms hold regions, and func.func/module are read
// by their own grammar.
//
//===----------------------------------------------------------------------===//
#include "frontends/torch_mlir/mlir_reader.h"
#include "frontends/text/printable.h"
#include "frontends/torch_mlir/mlir_affine.h"
#include "frontends/torch_mlir/mlir_lexer.h"
#include "frontends/torch_mlir/mlir_types.h"
#include "graph/name_map.h"
#include "ops/semantics.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <bit>
#include <cstring>
#include <deque>
#include <unordered_map>
#include <utility>

namespace dtf::torch_mlir {
namespace {

using TK = Tok::Kind;
using LK = ir::Attribute::LitKind;

struct Span {
  size_t begin = kNone, end = kNone;
  bool valid() const { return begin != kNone; }
};

/// One op as read, before it becomes a node.
struct OpSyntax {
  std::string_view name; ///< into the source (or nameStore: a generic name with escapes)
  std::string nameStore;
  Tok first, nameTok;
  bool generic = false;
  std::vector<std::pair<Tok, size_t>> results; ///< `%0#1` names (expanded), in order
  std::vector<size_t> uses;                      ///< indices into Function::uses, in operand order
  std::vector<Span> operandTypes, resultTypes;
  std::vector<std::pair<std::string, std::string>> attrs; ///< name -> value text (`1 : i64`)
  Tok literal;                                            ///< pretty constants: the token after the name
  std::vector<Tok> successors;                  ///< `^bb1` blocks the op may branch to, in order
  std::vector<std::vector<size_t>> passed;      ///< per successor: the uses it passes (when `paired`)
  bool paired = false;                          ///< `passed` pairs operands with successors (cf.br, cf.cond_br)
  bool resultsImplied = false; ///< the types written are the operands' only (the op implies its results')
  const std::string *attr(std::string_view n) const {
    for (const auto &[k, v] : attrs)
      if (k == n) return &v;
    return nullptr;
  }
};

/// Prim ops the refinement models by kind (prim_transfer.cpp), which the schema table does not list.
bool structuralPrim(std::string_view op) {
  static constexpr std::string_view kOps[] = {"ListConstruct", "ListUnpack", "TupleConstruct", "TupleIndex",
                                              "TupleUnpack", "dtype", "device", "unchecked_cast", "layout",
                                              "RaiseException", "Uninitialized", "requires_grad", "is_cuda",
                                              "data", "isinstance"};
  for (std::string_view k : kOps)
    if (k == op) return true;
  return false;
}

/// Ops that only restate their operand with another static type.
bool isIdentityOp(std::string_view name) {
  return name == "torch.tensor_static_info_cast" || name == "torch.copy.to_vtensor" ||
         name == "torch.copy.to_tensor" || name == "torch.derefine";
}

/// Ops whose written operand types may be rewritten to the refined ones
/// (torch-mlir's value-semantics ops); every other use keeps its type.
UseKind useKindOf(std::string_view op) {
  if (op.starts_with("torch.aten.")) return UseKind::Follows; // the common case first: none of the others below
  if (op == "torch.prim.If.yield") return UseKind::Yield;
  if (op == "torch.copy.to_vtensor" || op == "torch.copy.to_tensor") return UseKind::Implied;
  if (op == "torch.prim.Loop.condition" || op == "torch.prim.Loop" || op == "torch.overwrite.tensor.contents" ||
      op == "torch.operator" || op == "torch.bind_symbolic_shape")
    return UseKind::Fixed;
  if (op.starts_with("torch.aten.") || op.starts_with("torch.prim.") || op.starts_with("torch.prims.") ||
      isIdentityOp(op))
    return UseKind::Follows;
  return UseKind::Fixed;
}

/// Strings looked up by a token's text, without making a string.
struct NameHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

using ir::NameMap;

class Parser {
public:
  Parser(std::string_view src, const Semantics &sem) : src_(src), lex_(src), sem_(sem) {
    tok_ = lex_.next();
    for (size_t p = src.find("// -----"); p != std::string_view::npos; p = src.find("// -----", p + 1))
      splitAt_.push_back(p);
  }

  std::vector<Function> parseModule() {
    Function scratch; // ops outside any function (globals ...): read, not kept
    scratch.graph = std::make_unique<ir::Graph>();
    ctx_ = &scratch;
    size_t part = 0;
    while (tok_.kind != TK::End) {
      // Each `// -----` part is a module of its own: top-level names start afresh.
      for (; part < splitAt_.size() && splitAt_[part] < tok_.begin; ++part) {
        names_.clear();
        scopeNames_.clear();
      }
      if (tok_.kind == TK::Hash) { // `#loc1 = loc(...)`, `#map = affine_map<...>`
        bump();
        expectPunct('=');
        skipAttributeValue();
        continue;
      }
      parseOp(0);
    }
    return std::move(functions_);
  }

private:
  // --- tokens ---------------------------------------------------------------
  void bump() {
    prev_ = tok_;
    tok_ = lex_.next();
  }
  [[noreturn]] void fail(const Tok &t, const std::string &msg) { throw ir::IRSyntaxError(t.line, t.col, msg); }
  std::string describe(const Tok &t) {
    return t.kind == TK::End ? "end of input" : fmt::format("'{}'", ir::printable(t.text, 80));
  }
  bool isPunct(char c) const { return tok_.kind == TK::Punct && tok_.punct == c; }
  bool isIdent(std::string_view s) const { return tok_.kind == TK::Ident && tok_.text == s; }
  void expectPunct(char c) {
    if (!isPunct(c)) fail(tok_, fmt::format("expected '{}' but found {}", c, describe(tok_)));
    bump();
  }
  static ir::SourceLoc loc(const Tok &t) { return {t.line, t.col}; }
  /// Skip one bracketed group starting at the current token (which opens it);
  /// a bracket closed by the wrong one is refused there.
  void skipGroup() {
    if (tok_.kind == TK::Punct && (tok_.punct == '(' || tok_.punct == '[' || tok_.punct == '{' || tok_.punct == '<'))
      if (std::optional<Tok> close = lex_.skipBalanced(tok_.punct)) { // the common case, by bytes
        prev_ = *close;
        tok_ = lex_.next();
        return;
      }
    std::string closers;
    const Tok open = tok_;
    do {
      if (tok_.kind == TK::End) fail(open, fmt::format("'{}' is never closed", open.text));
      if (tok_.kind == TK::Punct) {
        char c = tok_.punct;
        if (c == '(' || c == '[' || c == '{' || c == '<') closers += c == '(' ? ')' : c == '[' ? ']' : c == '{' ? '}' : '>';
        if (c == ')' || c == ']' || c == '}' || c == '>') {
          if (closers.empty() || closers.back() != c)
            fail(tok_, fmt::format("'{}' where '{}' was expected", c, closers.empty() ? ' ' : closers.back()));
          closers.pop_back();
        }
        if (closers.size() > static_cast<size_t>(ir::kMaxNesting)) fail(tok_, "brackets nested too deeply");
      }
      bump();
    } while (!closers.empty());
  }
  /// An attribute value: tokens up to ',' '}' '>' ')' ']' at depth 0, on its line
  /// (brackets may span lines: `dense<...>`, `loc(...)`).
  Span skipAttributeValue() {
    Span s{tok_.begin, tok_.begin};
    while (tok_.kind != TK::End && tok_.kind != TK::Value) {
      if (s.end != s.begin && tok_.line != prev_.line) break; // `#alias = ...` ends with its line
      if (tok_.kind == TK::Punct) {
        char c = tok_.punct;
        if (c == ',' || c == '}' || c == ')' || c == ']' || c == '>') break;
        if (c == '(' || c == '[' || c == '{' || c == '<') {
          skipGroup();
          s.end = prev_.end;
          continue;
        }
      }
      bump();
      s.end = prev_.end;
    }
    return s;
  }
  /// `{name = value, name}` (also inside `<{...}>`).
  void parseAttrDict(OpSyntax &op) {
    expectPunct('{');
    while (!isPunct('}')) {
      if (tok_.kind != TK::Ident && tok_.kind != TK::String)
        fail(tok_, fmt::format("expected an attribute name but found {}", describe(tok_)));
      std::string name = tok_.kind == TK::String ? ir::unquote(tok_.text) : std::string(tok_.text);
      bump();
      std::string value;
      if (isPunct('=')) {
        bump();
        Span s = skipAttributeValue();
        if (s.end == s.begin) fail(tok_, fmt::format("attribute '{}' has no value", ir::printable(name, 80)));
        value = std::string(src_.substr(s.begin, s.end - s.begin));
      }
      op.attrs.emplace_back(std::move(name), std::move(value));
      if (!isPunct('}')) expectPunct(',');
    }
    bump();
  }
  void skipLoc() {
    if (isIdent("loc") && nextIs('(')) {
      bump();
      skipGroup();
    }
  }
  bool nextIs(char c) const {
    Lexer ahead = lex_;
    Tok t = ahead.next();
    return t.kind == TK::Punct && t.punct == c;
  }

  // --- types ----------------------------------------------------------------
  /// One type's tokens: `!torch.vtensor<[2],f32>`, `i64`, `tensor<2xf32>`, `(T) -> T`.
  Span typeSpan() {
    Span s{tok_.begin, tok_.end};
    if (tok_.kind == TK::Bang || tok_.kind == TK::Ident) {
      bump();
      if (isPunct('<') && tok_.begin == prev_.end) skipGroup();
    } else if (isPunct('(')) {
      skipGroup();
      if (tok_.kind == TK::Arrow) {
        bump();
        typeSpan();
      }
    } else {
      fail(tok_, fmt::format("expected a type but found {}", describe(tok_)));
    }
    s.end = prev_.end;
    return s;
  }
  /// `T, T` or `(T, T)`; stops before `->`, `to`, `{`, `loc(`, or the op's end.
  std::vector<Span> typeList(uint32_t opLine) {
    std::vector<Span> out;
    typeList(opLine, out);
    return out;
  }
  /// typeList into `out` (cleared first; its room reused).
  void typeList(uint32_t opLine, std::vector<Span> &out) {
    out.clear();
    if (isPunct('(')) {
      bump();
      while (!isPunct(')')) {
        out.push_back(typeSpan());
        if (!isPunct(')')) expectPunct(',');
      }
      bump();
      return;
    }
    while (tok_.kind == TK::Bang || (tok_.kind == TK::Ident && !isIdent("to") && !isIdent("loc"))) {
      if (tok_.line != prev_.line && !(prev_.kind == TK::Punct && prev_.punct == ',') && prev_.kind != TK::Arrow &&
          !(prev_.kind == TK::Punct && prev_.punct == ':') && !(prev_.kind == TK::Ident && prev_.text == "to"))
        break; // the next op (`func.func`, `return` on the next line)
      out.push_back(typeSpan());
      if (!isPunct(',')) break;
      bump();
    }
    // `T, (T, T) -> T` (torch.prim.CallMethod: the receiver's type, then its arguments'): one list.
    if (!out.empty() && prev_.kind == TK::Punct && prev_.punct == ',' && isPunct('(')) {
      bump();
      while (!isPunct(')')) {
        out.push_back(typeSpan());
        if (!isPunct(')')) expectPunct(',');
      }
      bump();
    }
    (void)opLine;
  }
  ir::TypePtr typeAt(Span s, const Tok &where) {
    std::string_view text = src_.substr(s.begin, s.end - s.begin);
    auto it = types_.find(text);
    if (it != types_.end()) return it->second;
    ir::TypePtr t = parseType(text);
    if (!t) fail(where, fmt::format("malformed type '{}'", ir::printable(text, 120)));
    // A dtype this PyTorch version does not have (f8 under 1.13): unknown, as the version would not know it.
    if (t->dtype && !sem_.types().names(*t->dtype)) {
      auto copy = std::make_shared<ir::TypeExpr>(*t);
      copy->dtype.reset();
      copy->inputValue.reset();
      copy->coarseValue.reset();
      ir::finishType(*copy);
      t = copy;
    }
    types_.emplace(std::string(text), t);
    return t;
  }
  ir::TypePtr implied(std::string_view text) {
    auto it = implied_.find(text);
    if (it != implied_.end()) return it->second;
    return implied_.emplace(std::string(text), parseType(text)).first->second;
  }

  // --- values ---------------------------------------------------------------
  Function &fn() { return *ctx_; }
  ir::Graph &g() { return *ctx_->graph; }
  size_t defineSsa(const Tok &name, ir::ValueId v, bool result) {
    std::string_view n = name.text.substr(1);
    if (!defineName(n, fn().defs.size())) fail(name, fmt::format("value {} is defined twice", ir::printable(name.text, 80)));
    fn().defs.push_back(SsaDef{std::string(n), v, "", kNone, kNone, loc(name), result});
    return fn().defs.size() - 1;
  }
  /// A name for the rest of the current region (MLIR's scoping: a region's
  /// values are not seen outside it, so sibling regions may reuse names).
  bool defineName(std::string_view key, size_t def) {
    if (!names_.insert(key, def)) return false;
    scopeNames_.push_back(key);
    return true;
  }
  struct NameScope {
    explicit NameScope(Parser &p) : parser(p), mark(p.scopeNames_.size()) {}
    ~NameScope() {
      for (size_t i = mark; i < parser.scopeNames_.size(); ++i) parser.names_.erase(parser.scopeNames_[i]);
      parser.scopeNames_.resize(mark);
    }
    NameScope(const NameScope &) = delete;
    NameScope &operator=(const NameScope &) = delete;
    Parser &parser;
    size_t mark;
  };
  /// A use of `%x` by the op starting at `op`.
  size_t use(const Tok &name, const Tok &op, std::string_view opName, bool generic) {
    std::string_view n = name.text.substr(1);
    size_t def = names_.find(n);
    if (def == kNone) fail(name, fmt::format("use of undefined value {}", ir::printable(name.text, 80)));
    Use u{def, name.begin, name.end, kNone, kNone, useKindOf(opName), kNone, op.begin, generic};
    fn().uses.push_back(u);
    return fn().uses.size() - 1;
  }
  ir::ValueId valueOfUse(size_t u) { return fn().defs[fn().uses[u].def].value; }

  // --- ops ------------------------------------------------------------------
  /// A fresh OpSyntax for an op read at the current nesting depth of ops (an
  /// op's regions hold ops): one per depth, reused, so that its lists keep
  /// their room from op to op instead of being allocated for each.
  struct OpLease {
    explicit OpLease(Parser &p) : parser(p), op(p.freshOp()) {}
    ~OpLease() { --parser.opDepth_; }
    OpLease(const OpLease &) = delete;
    OpLease &operator=(const OpLease &) = delete;
    Parser &parser;
    OpSyntax &op;
  };
  OpSyntax &freshOp() {
    if (opDepth_ == opPool_.size()) opPool_.push_back(std::make_unique<OpSyntax>());
    OpSyntax &op = *opPool_[opDepth_++];
    // Every field as new (fields added later included), the lists' room kept.
    auto results = std::move(op.results);
    auto uses = std::move(op.uses);
    auto operandTypes = std::move(op.operandTypes), resultTypes = std::move(op.resultTypes);
    op = OpSyntax();
    op.results = std::move(results);
    op.uses = std::move(uses);
    op.operandTypes = std::move(operandTypes);
    op.resultTypes = std::move(resultTypes);
    op.results.clear();
    op.uses.clear();
    op.operandTypes.clear();
    op.resultTypes.clear();
    return op;
  }
  void parseOp(ir::BlockId block) {
    OpLease lease(*this);
    OpSyntax &op = lease.op;
    op.first = tok_;
    if (tok_.kind == TK::Value) parseResultNames(op);
    op.nameTok = tok_;
    if (tok_.kind == TK::String) {
      op.generic = true;
      if (tok_.text.find('\\') == std::string_view::npos) {
        op.name = tok_.text.substr(1, tok_.text.size() - 2);
      } else {
        op.nameStore = ir::unquote(tok_.text);
        op.name = op.nameStore;
      }
    } else if (tok_.kind == TK::Ident) {
      op.name = tok_.text;
    } else {
      fail(tok_, fmt::format("expected an operation but found {}", describe(tok_)));
    }
    if (g().nodes.size() >= ir::kMaxNodes) fail(op.first, fmt::format("more than {} ops: refused", ir::kMaxNodes));
    bump();
    if (!op.generic) {
      if (op.name == "func.func") return parseFunc(op);
      if (op.name == "module" || op.name == "builtin.module") return parseModuleOp(op, block);
      if (op.name == "torch.prim.If") return parseIf(op, block);
      if (op.name == "torch.prim.Loop") return parseLoop(op, block);
      if (op.name == "cf.br" || op.name == "cf.cond_br") return parseBranch(op, block);
      // Any other op (other dialects' too) is read by the common shape.
      parsePretty(op, block);
    } else {
      parseGeneric(op, block);
    }
  }
  void parseResultNames(OpSyntax &op) {
    while (tok_.kind == TK::Value) {
      Tok name = tok_;
      if (name.text.find('#') != std::string_view::npos) fail(name, "a result name cannot hold '#'");
      bump();
      size_t count = 1;
      if (isPunct(':')) {
        bump();
        if (tok_.kind != TK::Number) fail(tok_, "expected the number of results after ':'");
        auto [p, ec] = std::from_chars(tok_.text.data(), tok_.text.data() + tok_.text.size(), count);
        if (ec != std::errc() || count == 0 || count > 4096) fail(tok_, "bad result count");
        bump();
        for (size_t i = 0; i < count; ++i) op.results.emplace_back(name, i + 1);
      } else {
        op.results.emplace_back(name, 0);
      }
      if (!isPunct(',')) break;
      bump();
    }
    expectPunct('=');
  }
  /// The name a result is used by: `%0`, or `%0#1` of `%0:2`.
  static std::string resultName(const std::pair<Tok, size_t> &r) {
    return r.second ? fmt::format("{}#{}", r.first.text, r.second - 1) : std::string(r.first.text);
  }
  /// Where an op ends in the pretty form: at `}` or at a line that does not continue the last one.
  bool opEnds() const {
    if (tok_.kind == TK::End || isPunct('}')) return true;
    if (tok_.line == prev_.line) return false;
    bool continues = (prev_.kind == TK::Punct && (prev_.punct == ',' || prev_.punct == ':' || prev_.punct == '(' ||
                                                 prev_.punct == '=' || prev_.punct == '[')) ||
                     prev_.kind == TK::Arrow || (prev_.kind == TK::Ident && prev_.text == "to");
    return !continues;
  }

  void parsePretty(OpSyntax &op, ir::BlockId block) {
    op.literal = tok_;
    int depth = 0;
    // Operands: every `%x` before the first `:` at depth 0 (attribute dicts skipped).
    while (!(depth == 0 && (isPunct(':') || tok_.kind == TK::Arrow || (opEnds() && !operandsOnNextLine(op))))) {
      if (tok_.kind == TK::End) fail(op.first, "the op never ends");
      if (tok_.kind == TK::Value) {
        op.uses.push_back(use(tok_, op.first, op.name, false));
      } else if (tok_.kind == TK::BlockLabel) {
        op.successors.push_back(tok_); // an op the reader does not pair operands with: opaque edges
      } else if (depth == 0 && isPunct('{')) {
        if (regionFollows()) break;
        parseAttrDict(op);
        continue;
      } else if (tok_.kind == TK::Punct) {
        char c = tok_.punct;
        if (c == '(' || c == '[' || c == '<') ++depth;
        if (c == ')' || c == ']' || c == '>') --depth;
        if (depth < 0) fail(tok_, fmt::format("unbalanced {}", describe(tok_)));
      }
      bump();
    }
    if (isPunct(':')) {
      prettyTypes(op);
    } else if (tok_.kind == TK::Arrow) { // operand types written beside them: `keys(%k : T) values(%v : T) -> T`
      bump();
      typeList(op.first.line, op.resultTypes);
    }
    skipLoc();
    // Regions after the types (torch.operator "onnx.If" ... { ... }): their ops are read in place;
    // a keyword may name the next one (torch.dtype.calculate { ... } dtypes { ... }).
    bool regions = false;
    while (isPunct('{') || (regions && tok_.kind == TK::Ident && tok_.line == prev_.line && nextIs('{'))) {
      if (tok_.kind == TK::Ident) bump();
      inlineRegion(block);
      regions = true;
      if (isPunct(',')) bump();
    }
    // Types after the regions: `torch.nn_module { ... } : !torch.nn.Module<"c">`.
    if (regions && isPunct(':') && tok_.line == prev_.line) prettyTypes(op);
    skipLoc();
    finishOp(op, block);
  }
  /// `: T, T [-> T | to T]` after an op's operands (or its regions).
  void prettyTypes(OpSyntax &op) {
    bump();
    typeList(op.first.line, op.operandTypes);
    if (tok_.kind == TK::Arrow || isIdent("to")) {
      bump();
      typeList(op.first.line, op.resultTypes);
    } else if (!op.results.empty() && op.operandTypes.size() == op.uses.size() &&
               op.operandTypes.size() != op.results.size()) {
      op.resultsImplied = true; // `%p = torch.linear_params.create %w, %b : T, T`: the types are the operands'
    } else if (!op.results.empty()) {
      op.resultTypes.clear();
      std::swap(op.resultTypes, op.operandTypes);
    }
  }
  /// `%x = torch.op` ending its line, its operands on the next (as hand-written tests wrap long ops)?
  bool operandsOnNextLine(const OpSyntax &op) const {
    if (op.results.empty() || prev_.begin != op.nameTok.begin || tok_.kind != TK::Value) return false;
    // Not when the next line defines values of its own: `%a, %b:2 = ...`.
    Lexer ahead = lex_;
    for (Tok t = ahead.next();; t = ahead.next()) {
      if (t.kind == TK::Punct && t.punct == '=') return false;
      if (t.kind == TK::Punct && t.punct == ':') {
        t = ahead.next();
        if (t.kind != TK::Number) return true;
        continue;
      }
      if (t.kind == TK::Punct && t.punct == ',') {
        if (ahead.next().kind != TK::Value) return true;
        continue;
      }
      return true;
    }
  }
  /// At a `{` in an op: does a region follow (ops), not an attribute dict?
  bool regionFollows() const {
    Lexer ahead = lex_;
    Tok t = ahead.next();
    if (t.kind == TK::Value || t.kind == TK::BlockLabel) return true;
    if (t.kind == TK::Punct && t.punct == '}') return t.line != tok_.line;
    if (t.kind == TK::String) { // `"op"(...)` vs `"attr" = ...`
      Tok u = ahead.next();
      return u.kind == TK::Punct && u.punct == '(';
    }
    if (t.kind == TK::Ident) {
      Tok u = ahead.next();
      return !(u.kind == TK::Punct && (u.punct == '=' || u.punct == ',' || u.punct == '}'));
    }
    return false;
  }

  void parseGeneric(OpSyntax &op, ir::BlockId block) {
    expectPunct('(');
    while (!isPunct(')')) {
      if (tok_.kind != TK::Value) fail(tok_, fmt::format("expected an operand (%name) but found {}", describe(tok_)));
      op.uses.push_back(use(tok_, op.first, op.name, true));
      bump();
      if (!isPunct(')')) expectPunct(',');
    }
    bump();
    if (isPunct('[')) genericSuccessors(op);
    if (isPunct('<') && nextIs('{')) {
      bump();
      parseAttrDict(op);
      expectPunct('>');
    }
    std::vector<size_t> regionStarts;
    if (isPunct('(') && nextIs('{')) { // regions: read by the op's own logic
      bump();
      if (op.name == "func.func") return parseGenericFunc(op);
      if (op.name == "builtin.module") {
        while (!isPunct(')')) {
          inlineRegion(block);
          if (!isPunct(')')) expectPunct(',');
        }
        bump();
        skipGenericTail(op);
        return;
      }
      if (op.name == "torch.prim.If" || op.name == "torch.prim.Loop") return parseGenericControl(op, block);
      while (!isPunct(')')) {
        inlineRegion(block);
        if (!isPunct(')')) expectPunct(',');
      }
      bump();
    }
    skipGenericTail(op);
    finishOp(op, block);
  }
  /// `{attrs} : (T, T) -> (T) loc(...)` of a generic op.
  void skipGenericTail(OpSyntax &op) {
    if (isPunct('{')) parseAttrDict(op);
    expectPunct(':');
    if (!isPunct('(')) fail(tok_, fmt::format("expected the op's function type '(...) -> ...' but found {}", describe(tok_)));
    op.operandTypes = typeList(op.first.line);
    if (tok_.kind != TK::Arrow) fail(tok_, fmt::format("expected '->' but found {}", describe(tok_)));
    bump();
    op.resultTypes = isPunct('(') ? typeList(op.first.line) : std::vector<Span>{typeSpan()};
    skipLoc();
  }

  // --- regions --------------------------------------------------------------
  /// Block arguments `(%a: T, %b: T loc(...))`; each a new graph value from `make`.
  template <class Make> void blockArgs(Make make) {
    expectPunct('(');
    while (!isPunct(')')) {
      if (tok_.kind != TK::Value) fail(tok_, fmt::format("expected a block argument but found {}", describe(tok_)));
      Tok name = tok_;
      bump();
      expectPunct(':');
      Span s = typeSpan();
      if (isPunct('{')) skipGroup(); // argument attributes
      skipLoc();
      ir::ValueId v = make(name, typeAt(s, name));
      size_t d = defineSsa(name, v, false);
      fn().defs[d].writtenType = std::string(src_.substr(s.begin, s.end - s.begin));
      fn().defs[d].typeBegin = s.begin; // refined only when a result (CFG block arguments: cfgBlock)
      fn().defs[d].typeEnd = s.end;
      if (!isPunct(')')) expectPunct(',');
    }
    bump();
  }
  /// `{ ops }` whose ops go into `block`; the first block's label may give
  /// arguments (`make`); later blocks (`^bb1(...)`, entered by branches) are
  /// read in place, in the order written (a value must be defined above its
  /// uses), their arguments given by the branches to them (cfgBlock).
  template <class Make> void region(ir::BlockId block, Make make) {
    const Tok open = tok_;
    expectPunct('{');
    NameScope scope(*this);
    if (++depth_ > ir::kMaxNesting) fail(open, fmt::format("regions nested deeper than {} levels are refused", ir::kMaxNesting));
    cfgs_.emplace_back();
    const size_t firstNode = g().blocks[block].nodes.size();
    bool firstBlock = true;
    while (!isPunct('}')) {
      if (tok_.kind == TK::End) fail(open, "the region's '{' is never closed");
      if (tok_.kind == TK::BlockLabel) {
        Tok label = tok_;
        bump();
        if (firstBlock) {
          cfgs_.back().labels.emplace_back(std::string(label.text), kNone);
          if (isPunct('(')) blockArgs(make);
        } else {
          cfgBlock(label, block);
        }
        expectPunct(':');
      }
      firstBlock = false;
      while (!isPunct('}') && tok_.kind != TK::BlockLabel) {
        if (tok_.kind == TK::End) fail(open, "the region's '{' is never closed");
        parseOp(block);
      }
    }
    resolveEdges(block, firstNode);
    bump();
    --depth_;
  }
  /// A region of an op the reader does not model: its ops read into `block`
  /// (their types are what they are), its arguments unknown.
  void inlineRegion(ir::BlockId block) {
    frames_.push_back(Frame{Frame::Other, block, {}});
    ir::NodeId n = ir::kNoId;
    region(block, [&](const Tok &name, ir::TypePtr t) {
      if (n == ir::kNoId) n = g().addNode(block, "unmapped::region_argument", loc(name));
      ir::ValueId v = g().addValue(std::string(name.text.substr(1)), t);
      g().values[v].def = n;
      g().nodes[n].outputs.push_back(v);
      return v;
    });
    frames_.pop_back();
  }

  // --- blocks and branches --------------------------------------------------
  /// One region's block labels (kNone: its entry block) and the branches read in it.
  struct Edge {
    Tok label;
    std::vector<size_t> passed; ///< the uses passed, one per argument
    bool opaque = false;        ///< passed values not paired with the arguments
  };
  struct RegionCfg {
    std::vector<std::pair<std::string, size_t>> labels;
    std::vector<Edge> edges;
  };
  /// `^bb1(%x: T, ...):` after a region's first block: a CfgBlock whose
  /// arguments are the outputs of a cf::block_arguments node.
  void cfgBlock(const Tok &label, ir::BlockId block) {
    for (const auto &[l, i] : cfgs_.back().labels)
      if (l == label.text) fail(label, fmt::format("block {} is defined twice", ir::printable(label.text, 80)));
    size_t index = fn().blocks.size();
    cfgs_.back().labels.emplace_back(std::string(label.text), index);
    fn().blocks.push_back(CfgBlock{std::string(label.text), {}, {}, false, ir::kNoId, loc(label)});
    if (!isPunct('(')) return;
    ir::NodeId n = g().addNode(block, "cf::block_arguments", loc(label));
    fn().blocks[index].node = n;
    size_t firstDef = fn().defs.size();
    blockArgs([&](const Tok &name, ir::TypePtr t) {
      ir::ValueId v = g().addValue(std::string(name.text.substr(1)), t);
      g().values[v].def = n;
      g().nodes[n].outputs.push_back(v);
      return v;
    });
    for (size_t d = firstDef; d < fn().defs.size(); ++d) {
      fn().defs[d].result = true; // refined (and printed) like an op result
      fn().blocks[index].argDefs.push_back(d);
    }
  }
  /// `cf.br ^bb1(%a, %b : T, T)` / `cf.cond_br %c, ^bb1(%a : T), ^bb2`.
  void parseBranch(OpSyntax &op, ir::BlockId block) {
    const bool cond = op.name == "cf.cond_br";
    if (cond) {
      if (tok_.kind != TK::Value) fail(tok_, fmt::format("expected the condition of cf.cond_br but found {}", describe(tok_)));
      op.uses.push_back(use(tok_, op.first, op.name, false));
      bump();
      if (isIdent("weights") && nextIs('(')) { // branch weights (MLIR 19 and later)
        bump();
        skipGroup();
      }
    }
    for (int i = 0; i < (cond ? 2 : 1); ++i) {
      if (i || cond) expectPunct(',');
      successor(op);
    }
    op.paired = true;
    if (isPunct('{')) parseAttrDict(op);
    skipLoc();
    finishOp(op, block);
  }
  /// `^bb1` or `^bb1(%a, %b : T, T)` of a pretty branch: its uses typed where written.
  void successor(OpSyntax &op) {
    if (tok_.kind != TK::BlockLabel) fail(tok_, fmt::format("expected a block (^name) but found {}", describe(tok_)));
    op.successors.push_back(tok_);
    bump();
    std::vector<size_t> passed;
    if (isPunct('(')) {
      bump();
      while (tok_.kind == TK::Value) {
        passed.push_back(use(tok_, op.first, op.name, false));
        bump();
        if (!isPunct(',')) break;
        bump();
      }
      if (!passed.empty()) {
        expectPunct(':');
        for (size_t k = 0; k < passed.size(); ++k) {
          if (k) expectPunct(',');
          Span t = typeSpan();
          fn().uses[passed[k]].typeBegin = t.begin;
          fn().uses[passed[k]].typeEnd = t.end;
        }
      }
      expectPunct(')');
    }
    op.uses.insert(op.uses.end(), passed.begin(), passed.end());
    op.passed.push_back(std::move(passed));
  }
  /// `[^bb1, ^bb2]` of a generic op; cf.br and cf.cond_br pair their operands with them.
  void genericSuccessors(OpSyntax &op) {
    expectPunct('[');
    while (tok_.kind == TK::BlockLabel) {
      op.successors.push_back(tok_);
      bump();
      if (!isPunct(',')) break;
      bump();
    }
    expectPunct(']');
  }
  /// What each successor of a generic cf.br / cf.cond_br is passed (operandSegmentSizes).
  void pairGeneric(OpSyntax &op) {
    if (op.name == "cf.br" && op.successors.size() == 1) {
      op.passed = {op.uses};
      op.paired = true;
      return;
    }
    if (op.name != "cf.cond_br" || op.successors.size() != 2) return;
    const std::string *seg = op.attr("operandSegmentSizes");
    if (!seg) seg = op.attr("operand_segment_sizes");
    if (!seg) return;
    std::vector<size_t> sizes; // `array<i32: 1, 1, 0>` or `dense<[1, 1, 0]> : vector<3xi32>`
    std::string_view t = *seg;
    t = t.substr(0, t.find('>'));
    if (size_t colon = t.find(':'); t.starts_with("array<") && colon != std::string_view::npos) t = t.substr(colon + 1);
    else if (size_t br = t.find('['); br != std::string_view::npos) t = t.substr(br + 1);
    else return;
    for (size_t i = 0; i < t.size();) {
      while (i < t.size() && (t[i] == ' ' || t[i] == ',' || t[i] == ']')) ++i;
      if (i >= t.size()) break;
      size_t v = 0;
      auto [p, ec] = std::from_chars(t.data() + i, t.data() + t.size(), v);
      if (ec != std::errc()) return;
      sizes.push_back(v);
      i = static_cast<size_t>(p - t.data());
    }
    if (sizes.size() != 3 || sizes[0] != 1 || 1 + sizes[1] + sizes[2] != op.uses.size()) return;
    auto from = op.uses.begin() + 1;
    op.passed = {std::vector<size_t>(from, from + static_cast<std::ptrdiff_t>(sizes[1])),
                 std::vector<size_t>(from + static_cast<std::ptrdiff_t>(sizes[1]), op.uses.end())};
    op.paired = true;
  }
  /// The op's branches, resolved at the end of its region (blocks may be named before they are written).
  void branchEdges(OpSyntax &op) {
    if (cfgs_.empty()) return;
    if (op.generic) pairGeneric(op);
    for (size_t i = 0; i < op.successors.size(); ++i) {
      Edge e{op.successors[i], {}, !op.paired};
      if (op.paired) e.passed = op.passed[i];
      cfgs_.back().edges.push_back(std::move(e));
    }
  }
  void resolveEdges(ir::BlockId block, size_t firstNode) {
    RegionCfg cfg = std::move(cfgs_.back());
    cfgs_.pop_back();
    for (const Edge &e : cfg.edges) {
      auto it = std::find_if(cfg.labels.begin(), cfg.labels.end(), [&](const auto &l) { return l.first == e.label.text; });
      if (it == cfg.labels.end()) fail(e.label, fmt::format("branch to {}, a block not in this region", ir::printable(e.label.text, 80)));
      if (it->second == kNone) fail(e.label, fmt::format("branch to {}, the region's entry block", ir::printable(e.label.text, 80)));
      CfgBlock &b = fn().blocks[it->second];
      if (e.opaque) {
        b.opaque = true;
        continue;
      }
      if (e.passed.size() != b.argDefs.size())
        fail(e.label, fmt::format("branch to {} passes {} value(s) for {} argument(s)", ir::printable(e.label.text, 80),
                                  e.passed.size(), b.argDefs.size()));
      for (size_t k = 0; k < e.passed.size(); ++k) {
        Use &u = fn().uses[e.passed[k]];
        u.kind = UseKind::Yield; // its type must be the argument's, as printed
        u.target = b.argDefs[k];
      }
      b.preds.push_back(e.passed);
    }
    // A raise ends its block only: in a region of several blocks the next ones run on their own,
    // but the pass would take the rest of the graph block for dead code. Such a raise (it has no
    // results) leaves the graph: what runs after it is reached through branches alone.
    if (cfg.labels.size() > 1) {
      auto &nodes = g().blocks[block].nodes;
      auto raise = [&](ir::NodeId n) { return g().kindOf(n) == "prim::RaiseException"; };
      nodes.erase(std::remove_if(nodes.begin() + static_cast<std::ptrdiff_t>(firstNode), nodes.end(), raise), nodes.end());
    }
  }

  // --- functions and modules ------------------------------------------------
  struct SavedCtx {
    Function *ctx;
    NameMap names;
    std::vector<struct Frame> frames;
  };
  Function &beginFunction(const Tok &at, std::string name) {
    // The function under construction lives apart until it is complete (functions_ may grow meanwhile).
    auto f = std::make_unique<Function>();
    f->name = std::move(name);
    f->loc = loc(at);
    f->graph = std::make_unique<ir::Graph>();
    f->graph->body().loc = loc(at);
    size_t split = 0;
    while (split < splitAt_.size() && splitAt_[split] < at.begin) ++split;
    f->split = static_cast<int>(split);
    // Room for the function's ops up front (a line is about an op): growing the lists
    // one op at a time dominated reading a 10^5-op function.
    size_t end = src_.find("func.func", at.end);
    std::string_view body = src_.substr(at.begin, end == std::string_view::npos ? end : end - at.begin);
    size_t lines = std::min(count(body, '\n') + 8, ir::kMaxNodes);
    f->defs.reserve(lines);
    f->uses.reserve(std::min(count(body, '%'), 8 * ir::kMaxNodes)); // every use is a '%' (unused room costs no memory)
    f->graph->nodes.reserve(lines);
    f->graph->values.reserve(lines);
    f->graph->body().nodes.reserve(lines);
    pending_.push_back(std::move(f));
    return *pending_.back();
  }
  static size_t count(std::string_view s, char c) {
    size_t n = 0;
    for (const char *p = s.data(), *end = p + s.size(); (p = static_cast<const char *>(std::memchr(p, c, end - p))); ++p) ++n;
    return n;
  }
  template <class Body> void withFunction(Function &f, Body body) {
    Function *savedCtx = ctx_;
    const size_t scopeMark = scopeNames_.size(); // a function's names are its own (isolated from above)
    auto savedNames = std::move(names_);
    auto savedFrames = std::move(frames_);
    ctx_ = &f;
    names_.clear();
    names_.reserve(f.defs.capacity());
    frames_.clear();
    frames_.push_back(Frame{Frame::Func, 0, {}});
    body();
    ctx_ = savedCtx;
    scopeNames_.resize(scopeMark);
    names_ = std::move(savedNames);
    frames_ = std::move(savedFrames);
  }
  void finishFunction(Function &f) {
    keyReusedNames(f);
    for (auto it = pending_.begin(); it != pending_.end(); ++it)
      if (it->get() == &f) {
        functions_.push_back(std::move(**it));
        pending_.erase(it);
        return;
      }
  }
  /// The k-th definition of a name sibling regions reuse gets the graph name `name#k`, so the
  /// values JSON, Python and diagnostics key by name stay apart (the text keeps its names).
  static void keyReusedNames(Function &f) {
    std::unordered_map<std::string_view, int> seen;
    for (SsaDef &d : f.defs) {
      d.occurrence = ++seen[d.name];
      std::string &graphName = f.graph->values[d.value].name;
      if (d.occurrence > 1 && graphName == d.name) graphName = d.key(); // not a cast's operand's name
    }
  }
  ir::ValueId graphInput(const Tok &name, ir::TypePtr t) {
    ir::ValueId v = g().addValue(std::string(name.text.substr(1)), std::move(t));
    g().values[v].paramOf = 0;
    g().body().params.push_back(v);
    return v;
  }
  /// `func.func [private] @name(%a: T, ...) [-> results] [attributes {...}] [{ body }]`
  void parseFunc(const OpSyntax &op) {
    bool isPrivate = isIdent("private");
    if (isIdent("private") || isIdent("public") || isIdent("nested")) bump();
    if (tok_.kind != TK::Symbol) fail(tok_, fmt::format("expected the function's @name but found {}", describe(tok_)));
    Tok sym = tok_;
    bump();
    std::string name(sym.text.substr(1));
    if (name.starts_with('"')) name = ir::unquote(name);
    Function &f = beginFunction(op.first, name);
    f.isPrivate = isPrivate;
    withFunction(f, [&] {
      if (!isPunct('(')) fail(tok_, fmt::format("expected '(' and the arguments but found {}", describe(tok_)));
      Lexer save = lex_;
      bool declaration = false;
      {
        // `func.func private @f(!torch.int) -> ...`: a declaration, argument types only.
        Lexer ahead = lex_;
        Tok t = ahead.next();
        declaration = t.kind != TK::Value && !(t.kind == TK::Punct && t.punct == ')');
      }
      (void)save;
      if (declaration) skipGroup();
      else blockArgs([&](const Tok &n, ir::TypePtr t) { return graphInput(n, std::move(t)); });
      if (tok_.kind == TK::Arrow) {
        bump();
        if (isPunct('(')) skipGroup();
        else {
          typeSpan();
          if (isPunct('{') && !regionFollows()) skipGroup(); // result attributes
        }
      }
      if (isIdent("attributes")) {
        bump();
        skipGroup();
      }
      skipLoc();
      f.declaration = !isPunct('{') || declaration;
      if (isPunct('{') && !declaration) region(0, [&](const Tok &n, ir::TypePtr t) { return graphInput(n, std::move(t)); });
    });
    skipLoc();
    finishFunction(f);
  }
  void parseGenericFunc(OpSyntax &op) {
    const std::string *sym = op.attr("sym_name");
    std::string name = sym ? ir::unquote(*sym) : "";
    Function &f = beginFunction(op.first, name);
    withFunction(f, [&] {
      bool first = true;
      while (!isPunct(')')) {
        if (first) region(0, [&](const Tok &n, ir::TypePtr t) { return graphInput(n, std::move(t)); });
        else inlineRegion(0);
        first = false;
        if (!isPunct(')')) expectPunct(',');
      }
      bump();
    });
    OpSyntax tail;
    skipGenericTail(tail);
    if (!sym) {
      if (const std::string *s = tail.attr("sym_name")) f.name = ir::unquote(*s);
    }
    for (const OpSyntax *o : {static_cast<const OpSyntax *>(&op), static_cast<const OpSyntax *>(&tail)})
      if (const std::string *v = o->attr("sym_visibility")) f.isPrivate = ir::unquote(*v) == "private";
    finishFunction(f);
  }
  void parseModuleOp(const OpSyntax &op, ir::BlockId block) {
    (void)op;
    if (tok_.kind == TK::Symbol) bump();
    if (isIdent("attributes")) {
      bump();
      skipGroup();
    }
    inlineRegion(block);
    skipLoc();
  }

  // --- control flow ---------------------------------------------------------
  struct Frame {
    enum Kind { Func, If, Loop, Other } kind;
    ir::BlockId block;
    std::vector<size_t> resultDefs; ///< If: the If's result defs (yield targets)
  };
  /// The node of an op with results typed later (setResultTypes).
  ir::NodeId resultNode(const OpSyntax &op, ir::BlockId block, ir::KindId kind, std::vector<size_t> &defs) {
    ir::NodeId n = g().addNode(block, kind, loc(op.first));
    for (const auto &r : op.results) {
      ir::ValueId v = g().addValue(resultName(r).substr(1), ir::tensorType());
      g().values[v].def = n;
      g().nodes[n].outputs.push_back(v);
      Tok t = r.first;
      t.text = src_.substr(t.begin, t.end - t.begin);
      defs.push_back(defineNamed(resultName(r), t, v));
    }
    return n;
  }
  /// `name` (with '%'): a view into the source, or copied so that the name table may keep it.
  size_t defineNamed(std::string_view name, const Tok &at, ir::ValueId v) {
    if (name.data() < src_.data() || name.data() + name.size() > src_.data() + src_.size())
      name = ownedNames_.emplace_back(name);
    if (!defineName(name.substr(1), fn().defs.size()))
      fail(at, fmt::format("value {} is defined twice", ir::printable(name, 80)));
    fn().defs.push_back(SsaDef{std::string(name.substr(1)), v, "", kNone, kNone, loc(at), true});
    return fn().defs.size() - 1;
  }
  /// resultName without a string made for a plain `%x`.
  static std::string_view resultKey(const std::pair<Tok, size_t> &r, std::string &store) {
    if (!r.second) return r.first.text;
    return store = resultName(r);
  }
  void setResultTypes(const std::vector<size_t> &defs, const std::vector<Span> &types, const Tok &at, bool refinable) {
    if (defs.empty()) return; // results MLIR leaves unnamed (a value nothing uses): nothing to type
    if (types.size() != defs.size())
      fail(at, fmt::format("{} result(s) named but {} result type(s) written", defs.size(), types.size()));
    for (size_t i = 0; i < defs.size(); ++i) {
      SsaDef &d = fn().defs[defs[i]];
      d.writtenType = std::string(src_.substr(types[i].begin, types[i].end - types[i].begin));
      g().values[d.value].type = typeAt(types[i], at);
      if (refinable) {
        d.typeBegin = types[i].begin;
        d.typeEnd = types[i].end;
      }
    }
  }
  /// `%r = torch.prim.If %c -> (T) { ... } else { ... }`
  void parseIf(OpSyntax &op, ir::BlockId block) {
    if (tok_.kind != TK::Value) fail(tok_, fmt::format("expected the condition of torch.prim.If but found {}", describe(tok_)));
    size_t cond = use(tok_, op.first, op.name, false);
    bump();
    std::vector<Span> types;
    if (tok_.kind == TK::Arrow) {
      bump();
      types = typeList(op.first.line);
    }
    std::vector<size_t> defs;
    ir::NodeId n = resultNode(op, block, g().internKind("prim::If"), defs);
    g().nodes[n].inputs.push_back(valueOfUse(cond));
    setResultTypes(defs, types, op.first, true);
    for (int branch = 0; branch < 2; ++branch) {
      if (branch == 1) {
        if (!isIdent("else")) fail(tok_, fmt::format("expected 'else' but found {}", describe(tok_)));
        bump();
      }
      ir::BlockId b = g().addBlock(n, loc(tok_));
      frames_.push_back(Frame{Frame::If, b, defs});
      region(b, [&](const Tok &name, ir::TypePtr) -> ir::ValueId { fail(name, "torch.prim.If's regions take no arguments"); });
      frames_.pop_back();
    }
    skipLoc();
  }
  /// `%r = torch.prim.Loop %max, %cond, init(%x) { ^bb0(%i: !torch.int, %x: T): ... } : (...) -> (...)`
  void parseLoop(OpSyntax &op, ir::BlockId block) {
    std::vector<size_t> uses;
    while (!isPunct('{')) {
      if (tok_.kind == TK::End || isPunct('}')) fail(tok_, "expected the loop's region");
      if (tok_.kind == TK::Value) uses.push_back(use(tok_, op.first, op.name, false));
      bump();
    }
    if (uses.size() < 2) fail(op.first, "torch.prim.Loop needs a trip count and a condition");
    std::vector<size_t> defs;
    ir::NodeId n = resultNode(op, block, g().internKind("prim::Loop"), defs);
    for (size_t u : uses) g().nodes[n].inputs.push_back(valueOfUse(u));
    ir::BlockId b = g().addBlock(n, loc(tok_));
    frames_.push_back(Frame{Frame::Loop, b, {}});
    region(b, [&](const Tok &name, ir::TypePtr t) {
      ir::ValueId v = g().addValue(std::string(name.text.substr(1)), std::move(t));
      g().values[v].paramOf = b;
      g().blocks[b].params.push_back(v);
      return v;
    });
    frames_.pop_back();
    expectPunct(':');
    std::vector<Span> ins = typeList(op.first.line);
    if (tok_.kind != TK::Arrow) fail(tok_, fmt::format("expected '->' but found {}", describe(tok_)));
    bump();
    setResultTypes(defs, typeList(op.first.line), op.first, false); // loop-carried types stay as written
    (void)ins;
    skipLoc();
  }
  void parseGenericControl(OpSyntax &op, ir::BlockId block) {
    bool isIf = op.name == "torch.prim.If";
    std::vector<size_t> defs;
    ir::NodeId n = resultNode(op, block, g().internKind(isIf ? "prim::If" : "prim::Loop"), defs);
    for (size_t u : op.uses) g().nodes[n].inputs.push_back(valueOfUse(u));
    while (!isPunct(')')) {
      ir::BlockId b = g().addBlock(n, loc(tok_));
      frames_.push_back(Frame{isIf ? Frame::If : Frame::Loop, b, isIf ? defs : std::vector<size_t>{}});
      region(b, [&](const Tok &name, ir::TypePtr t) -> ir::ValueId {
        if (isIf) fail(name, "torch.prim.If's regions take no arguments");
        ir::ValueId v = g().addValue(std::string(name.text.substr(1)), std::move(t));
        g().values[v].paramOf = b;
        g().blocks[b].params.push_back(v);
        return v;
      });
      frames_.pop_back();
      if (!isPunct(')')) expectPunct(',');
    }
    bump();
    skipGenericTail(op);
    setResultTypes(defs, op.resultTypes, op.first, isIf);
  }

  // --- ops into nodes -------------------------------------------------------
  void note(refine::Severity s, std::string category, std::string message, ir::NodeId n, const Tok &at) {
    refine::Diagnostic d;
    d.severity = s;
    d.category = std::move(category);
    d.message = std::move(message);
    d.node = n;
    d.loc = loc(at);
    fn().diagnostics.push_back(std::move(d));
  }
  /// Attach written operand types to the uses (when one is written per operand).
  void operandTypes(const OpSyntax &op) {
    if (op.operandTypes.size() != op.uses.size()) return;
    for (size_t i = 0; i < op.uses.size(); ++i) {
      Use &u = fn().uses[op.uses[i]];
      u.typeBegin = op.operandTypes[i].begin;
      u.typeEnd = op.operandTypes[i].end;
    }
  }
  void finishOp(OpSyntax &op, ir::BlockId block) {
    operandTypes(op);
    if (!op.successors.empty()) branchEdges(op);
    std::string_view name = op.name;
    if (name.starts_with("torch.aten.")) return torchOp(op, block); // the common case (none of the others below)
    if (name == "return" || name == "func.return" || name == "torch.prim.If.yield" ||
        name == "torch.prim.Loop.condition")
      return terminator(op);
    if (name.starts_with("torch.constant.")) return constant(op, block);
    if (name == "torch.vtensor.literal" || name == "torch.tensor.literal") {
      ir::Attribute a{"value", "<literal>", LK::TensorLiteral, Value()};
      return (void)emit(op, block, constantKind(), {std::move(a)});
    }
    if (isIdentityOp(name) && op.uses.size() == 1 && op.results.size() == 1) {
      size_t d = defineNamed(resultName(op.results[0]), op.results[0].first, valueOfUse(op.uses[0]));
      if (fn().uses[op.uses[0]].kind == UseKind::Implied) fn().defs[d].impliedBy = fn().uses[op.uses[0]].def;
      if (op.resultTypes.size() == 1) {
        (void)typeAt(op.resultTypes[0], op.first); // a malformed type is refused here as anywhere (printed back: it must read)
        SsaDef &def = fn().defs[d];
        def.writtenType = std::string(src_.substr(op.resultTypes[0].begin, op.resultTypes[0].end - op.resultTypes[0].begin));
        def.typeBegin = op.resultTypes[0].begin;
        def.typeEnd = op.resultTypes[0].end;
      }
      return;
    }
    if (name == "torch.operator") return customOp(op, block);
    if (name == "torch.symbolic_int") return symbolicInt(op, block);
    if (name == "torch.bind_symbolic_shape") return bindSymbolicShape(op);
    if (name == "func.call" || name == "call") return callOp(op, block);
    if (name.starts_with("torch.") && name.find('.', 6) != std::string_view::npos) return torchOp(op, block);
    if (op.results.empty()) return; // func.call @f without results, cf.br, asserts ...: nothing to infer
    unmapped(op, block, fmt::format("{}: not an op dtypeflow models (not a Torch-dialect op); results unknown", name));
  }
  /// A call: its results are the outputs of a `func::call` node whose values
  /// mlir_refine gives from the callee's returns; their written types stay
  /// (MLIR requires them to be the callee's declared ones).
  void callOp(OpSyntax &op, ir::BlockId block) {
    recordCall(op);
    if (op.results.empty()) return;
    ir::NodeId n = emit(op, block, g().internKind("func::call"), {});
    for (const auto &r : op.results) {
      SsaDef &d = fn().defs[names_.find(std::string_view(resultName(r)).substr(1))];
      d.typeBegin = d.typeEnd = kNone;
    }
    if (!fn().calls.empty() && fn().calls.back().loc.line == op.first.line && fn().calls.back().loc.col == op.first.col)
      fn().calls.back().node = n;
  }
  /// `func.call @f(...)` / `"func.call"(...) <{callee = @f}>`: its arguments refine a private @f.
  void recordCall(const OpSyntax &op) {
    std::string callee;
    if (const std::string *c = op.attr("callee")) callee = *c;
    else if (op.literal.kind == TK::Symbol) callee = std::string(op.literal.text);
    if (!callee.starts_with('@')) return;
    callee.erase(0, 1);
    if (callee.starts_with('"')) callee = ir::unquote(callee);
    Call c{std::move(callee), {}, ir::kNoId, loc(op.first)};
    for (size_t u : op.uses) c.args.push_back(valueOfUse(u));
    fn().calls.push_back(std::move(c));
  }
  /// What torchOp makes of an op name: the same for every op of that name, so
  /// worked out (the schema table searched) once per name, not per op.
  struct TorchTarget {
    enum How : uint8_t { Pinned, Plain, UnknownTarget, Unmodelled } how = Unmodelled;
    std::string opName, overload, key;
    const ir::Graph *graph = nullptr; ///< whose KindId `kind` is (each function's graph interns its own)
    ir::KindId kind = 0;
  };
  /// torch.NS.OP[.OVERLOAD] -> NS::OP pinned to OVERLOAD when the schema table has it.
  TorchTarget &torchTarget(std::string_view name) {
    auto it = torchTargets_.find(name);
    if (it != torchTargets_.end()) return it->second;
    TorchTarget t;
    std::string_view rest = name.substr(6);
    size_t dot = rest.find('.');
    std::string_view ns = rest.substr(0, dot);
    std::string_view tail = rest.substr(dot + 1);
    size_t dot2 = tail.find('.');
    t.opName = fmt::format("{}::{}", ns, tail.substr(0, dot2));
    if (dot2 != std::string_view::npos) t.overload = std::string(tail.substr(dot2 + 1));
    if (t.overload.find('.') != std::string::npos) t.overload.clear(), t.opName.clear();
    const SchemaTable &table = sem_.schemas();
    if (!t.opName.empty()) {
      t.key = t.overload.empty() ? t.opName : t.opName + "." + t.overload;
      if (table.find(t.key)) t.how = TorchTarget::Pinned;
      else if (ns == "prim" && t.overload.empty() && structuralPrim(tail)) t.how = TorchTarget::Plain;
      else if (ns == "prim" && !table.overloads(t.opName).empty()) t.how = TorchTarget::Plain;
      else if (ns == "aten" || ns == "prims" || ns == "prim" || ns == "quantized" || ns == "torchvision")
        t.how = TorchTarget::UnknownTarget;
    }
    return torchTargets_.emplace(std::string(name), std::move(t)).first->second;
  }
  void torchOp(OpSyntax &op, ir::BlockId block) {
    TorchTarget &t = torchTarget(op.name);
    if (t.how == TorchTarget::Pinned || t.how == TorchTarget::Plain) {
      if (t.graph != &g()) {
        t.kind = t.how == TorchTarget::Pinned ? g().internPinnedKind(t.opName, t.overload) : g().internKind(t.opName);
        t.graph = &g();
      }
      ir::NodeId n = emit(op, block, t.kind, {});
      if (t.opName == "prim::NumToTensor") importedNumber(n);
      else if (!importedNumbers_.empty()) readImportedNumbers(n);
      return;
    }
    if (op.results.empty()) return;
    if (t.how == TorchTarget::UnknownTarget)
      return unmapped(op, block, fmt::format("{}: {} is not in PyTorch {}'s schema table; results unknown", op.name,
                                             t.key, sem_.versionName()), "unknown-target");
    unmapped(op, block, fmt::format("{}: a Torch-dialect op dtypeflow does not model; results unknown", op.name));
  }
  /// torch-mlir's FX importer passes a Python number given for a Tensor argument (torch.export's
  /// wrapped number: `x * 0.5` is aten.mul.Tensor(x, 0.5)) through `torch.prim.NumToTensor.Scalar`,
  /// typed as torch.tensor(number) is (fx_importer.py, _import_scalar_as_tensor): float32 for a float,
  /// complex64 for a complex, int64, bool. TorchScript's NumToTensor is at::scalar_to_tensor's 0-dim
  /// tensor: float64 / complex128. So one written float32 (complex64) is the importer's: its value is
  /// aten::tensor.float's (.complex's), and the ops it feeds read the number, as PyTorch did. One of an
  /// int or a bool (int64 / bool either way) feeds the number too: the readings differ only where
  /// every tensor operand is 0-dim, where the importer's is the program's (and the types it writes).
  void importedNumber(ir::NodeId n) {
    const ir::Node &node = g().nodes[n];
    if (node.inputs.size() != 1 || node.outputs.size() != 1) return;
    const ir::TypeExpr &number = *g().values[node.inputs[0]].type;
    const std::optional<DType> written = g().values[node.outputs[0]].type->dtype;
    if (!written) return; // `!torch.vtensor` without a dtype: TorchScript's reading (the rule's)
    const char *overload = number.kind == ir::TypeExpr::Kind::Float && *written == DType::Float32       ? "float"
                           : number.kind == ir::TypeExpr::Kind::Complex && *written == DType::Complex64 ? "complex"
                           : number.kind == ir::TypeExpr::Kind::Int && *written == DType::Int64         ? ""
                           : number.kind == ir::TypeExpr::Kind::Bool && *written == DType::Bool         ? ""
                                                                                        : nullptr;
    if (!overload) return;
    if (*overload) g().nodes[n].kind = g().internPinnedKind("aten::tensor", overload);
    importedNumbers_.emplace(node.outputs[0], node.inputs[0]);
  }
  /// The numbers node `n`'s imported NumToTensor operands hold, in their place, where another
  /// operand is a tensor (the importer's `x * 0.5`); arithmetic among them alone is TorchScript's
  /// on 0-dim tensors holding sizes (`x.size(0) * 2` traced), whose expressions they carry.
  void readImportedNumbers(ir::NodeId n) {
    auto &inputs = g().nodes[n].inputs;
    bool tensor = false;
    for (ir::ValueId in : inputs)
      tensor = tensor || (g().values[in].type->isTensor() && !importedNumbers_.count(in));
    if (!tensor) return;
    for (ir::ValueId &in : inputs)
      if (auto it = importedNumbers_.find(in); it != importedNumbers_.end()) in = it->second;
  }
  // --- symbolic sizes (torch-mlir's FX importer) ------------------------------
  /// An attribute's integer (`5`, or `5 : i64` in generic form).
  std::optional<int64_t> intAttr(const OpSyntax &op, std::string_view name) {
    const std::string *text = op.attr(name);
    if (!text) return std::nullopt;
    std::string_view t = *text;
    if (size_t colon = t.find(" :"); colon != std::string_view::npos) t = t.substr(0, colon);
    int64_t v = 0;
    auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec != std::errc() || end != t.data() + t.size()) return std::nullopt;
    return v;
  }
  /// `%s0 = torch.symbolic_int "s0" {min_val = 5, max_val = 10} : !torch.int`: a size symbol with
  /// its range (torch.export's range_constraints), the int value of an unknown number holding it.
  void symbolicInt(OpSyntax &op, ir::BlockId block) {
    if (op.results.size() != 1) fail(op.first, "torch.symbolic_int has one result");
    std::string symbol;
    if (const std::string *n = op.attr("symbol_name")) symbol = ir::unquote(*n);
    else if (op.literal.kind == TK::String) symbol = ir::unquote(op.literal.text);
    else fail(op.first, "torch.symbolic_int needs its symbol's name (a string)");
    SymRange range;
    if (auto lo = intAttr(op, "min_val")) range.lo = *lo;
    if (auto hi = intAttr(op, "max_val")) range.hi = *hi >= SymRange::kInf - 1 ? SymRange::kInf : *hi;
    if (range.lo > range.hi)
      fail(op.first, fmt::format("torch.symbolic_int \"{}\": min_val {} > max_val {}", ir::printable(symbol, 80),
                                 range.lo, range.hi));
    Value value = Value::number(NumKind::Int);
    try {
      SymExpr e = parseSymExpr(symbol, [&](std::string_view name) {
        if (name == symbol) return range;
        auto it = symbolRanges_.find(name);
        return it != symbolRanges_.end() ? it->second : SymRange{};
      });
      if (e.symbols() == std::vector<std::string>{symbol}) {
        symbolRanges_[symbol] = range;
        fn().symbolDefs[symbol] = resultName(op.results[0]).substr(1);
      }
      value = Value::symInt(e);
    } catch (const std::invalid_argument &e) {
      note(refine::Severity::Warning, "unsupported-op",
           fmt::format("torch.symbolic_int: {}; the sizes it binds stay unknown", e.what()), ir::kNoId, op.first);
    }
    emit(op, block, constantKind(), {ir::Attribute{"value", symbol, ir::Attribute::LitKind::Int, value}});
  }
  /// The size expression a torch.symbolic_int result holds, if `u` uses one.
  std::optional<SymExpr> symbolOfUse(size_t u) {
    ir::ValueId v = valueOfUse(u);
    ir::NodeId n = g().values[v].def;
    if (n == ir::kNoId || g().nodes[n].attrs.size() != 1 || g().nodes[n].kind != constantKind()) return std::nullopt;
    const Value &held = g().nodes[n].attrs[0].literal;
    if (held.intValue()) return std::nullopt; // a torch.constant.int: no symbol (torch-mlir's verifier refuses it)
    return held.intExpr();
  }
  /// `torch.bind_symbolic_shape %x, [%s0, %s1], affine_map<()[s0, s1] -> (s1, 3)> : T`: %x's sizes
  /// in the symbols; they become the sizes its type states (a graph input's, or a result's that
  /// `check` compares).
  void bindSymbolicShape(const OpSyntax &op) {
    if (op.uses.empty()) fail(op.first, "torch.bind_symbolic_shape needs the value it binds");
    std::vector<SymExpr> symbols;
    for (size_t i = 1; i < op.uses.size(); ++i) {
      auto e = symbolOfUse(op.uses[i]);
      if (!e) {
        note(refine::Severity::Warning, "unsupported-op",
             fmt::format("torch.bind_symbolic_shape: operand {} is no torch.symbolic_int; the sizes stay unknown", i + 1),
             ir::kNoId, op.first);
        return;
      }
      symbols.push_back(std::move(*e));
    }
    std::string_view map = affineMapText(op);
    if (map.empty()) fail(op.first, "torch.bind_symbolic_shape needs an affine_map<...> of the sizes");
    std::vector<std::optional<SymExpr>> sizes;
    try {
      sizes = affineMapResults(map, symbols);
    } catch (const std::invalid_argument &e) {
      fail(op.first, fmt::format("torch.bind_symbolic_shape: {}", e.what()));
    }
    ir::ValueId v = valueOfUse(op.uses[0]);
    const ir::TypeExpr &old = *g().values[v].type;
    if (!old.isTensor() || (old.rank && static_cast<size_t>(*old.rank) != sizes.size()))
      fail(op.first, fmt::format("torch.bind_symbolic_shape binds {} sizes to a value of type {}", sizes.size(),
                                 ir::printable(old.text, 80)));
    auto t = std::make_shared<ir::TypeExpr>(old);
    t->rank = static_cast<int>(sizes.size());
    t->dims.resize(sizes.size());
    for (size_t i = 0; i < sizes.size(); ++i) {
      if (!sizes[i]) continue;
      Dim bound = sizes[i]->constant() ? Dim(*sizes[i]->constant()) : Dim(*sizes[i]);
      if (t->dims[i].known() && bound.known() && !(*t->dims[i].expr() == *bound.expr()))
        fail(op.first, fmt::format("torch.bind_symbolic_shape: size {} is {}, but the type says {}", i,
                                   bound.str(), t->dims[i].str()));
      t->dims[i] = std::move(bound);
    }
    ir::finishType(*t);
    g().values[v].type = std::move(t);
    fn().boundValues.insert(v);
  }
  /// The `affine_map<...>` of a bind_symbolic_shape: its `shape_expressions` attribute (generic
  /// form), or the text after its operands (pretty form).
  std::string_view affineMapText(const OpSyntax &op) {
    if (const std::string *a = op.attr("shape_expressions")) return *a;
    size_t from = op.nameTok.end;
    size_t to = op.operandTypes.empty() ? src_.size() : op.operandTypes[0].begin;
    size_t at = src_.substr(0, to).find("affine_map<", from);
    return at == std::string_view::npos ? std::string_view() : src_.substr(at, to - at);
  }
  /// prim::Constant's KindId in the current graph.
  ir::KindId constantKind() {
    if (constantKind_.first != &g()) constantKind_ = {&g(), g().internKind("prim::Constant")};
    return constantKind_.second;
  }
  /// `torch.operator "ns.op[.overload]"(...)`: the op `ns::op`, known through --rules files.
  void customOp(OpSyntax &op, ir::BlockId block) {
    std::string target;
    if (const std::string *n = op.attr("name")) target = ir::unquote(*n);
    else if (op.literal.kind == TK::String) target = ir::unquote(op.literal.text);
    size_t dot = target.find('.');
    if (dot == std::string::npos || dot == 0) {
      if (op.results.empty()) return;
      return unmapped(op, block, fmt::format("torch.operator \"{}\": not of the form ns.op; results unknown",
                                             ir::printable(target, 80)));
    }
    std::string opName = target.substr(0, dot) + "::" + target.substr(dot + 1);
    std::string overload;
    if (size_t d2 = opName.find('.'); d2 != std::string::npos) {
      overload = opName.substr(d2 + 1);
      opName.resize(d2);
    }
    std::string key = overload.empty() ? opName : opName + "." + overload;
    if (sem_.schemas().find(key)) return (void)emit(op, block, g().internPinnedKind(opName, overload), {});
    if (op.results.empty()) return;
    unmapped(op, block, fmt::format("torch.operator \"{}\": {} is not in the schema table (a custom op needs its rule "
                                    "file: --rules FILE); results unknown",
                                    ir::printable(target, 80), key),
             "unknown-target");
  }
  void unmapped(OpSyntax &op, ir::BlockId block, std::string why, std::string category = "unsupported-op") {
    std::string_view shortName = op.name.starts_with("torch.") ? op.name.substr(6) : op.name;
    ir::NodeId n = emit(op, block, g().internKind(fmt::format("unmapped::{}", shortName)), {});
    note(refine::Severity::Warning, std::move(category), std::move(why), n, op.first);
  }
  ir::NodeId emit(OpSyntax &op, ir::BlockId block, ir::KindId kind, std::vector<ir::Attribute> attrs) {
    ir::NodeId n = g().addNode(block, kind, loc(op.first));
    g().nodes[n].inputs.reserve(op.uses.size());
    for (size_t u : op.uses) g().nodes[n].inputs.push_back(valueOfUse(u));
    g().nodes[n].attrs = std::move(attrs);
    std::vector<size_t> &defs = emitDefs_; // emit never nests: one list, its room reused
    defs.clear();
    g().nodes[n].outputs.reserve(op.results.size());
    std::string store;
    for (const auto &r : op.results) {
      std::string_view name = resultKey(r, store);
      ir::ValueId v = g().addValue(std::string(name.substr(1)), ir::tensorType());
      g().values[v].def = n;
      g().nodes[n].outputs.push_back(v);
      defs.push_back(defineNamed(name, r.first, v));
    }
    // Another dialect's op may imply its result types (`arith.constant 1 : i64` writes one for two
    // ...): when they do not pair up, its results stay untyped (unknown anyway).
    bool paired = op.resultTypes.size() == defs.size();
    if (op.resultsImplied) return n;
    if (paired || op.name.starts_with("torch.") || op.generic) setResultTypes(defs, op.resultTypes, op.first, true);
    for (size_t d : defs) fn().defs[d].generic = op.generic;
    return n;
  }
  void terminator(const OpSyntax &op) {
    if (frames_.empty()) return;
    Frame &f = frames_.back();
    ir::Block &b = g().blocks[f.block];
    if (f.kind == Frame::Func && op.name != "torch.prim.If.yield" && op.name != "torch.prim.Loop.condition") {
      std::vector<ir::ValueId> site;
      for (size_t u : op.uses) site.push_back(valueOfUse(u));
      if (b.returns.empty()) b.returns = site;
      fn().returnSites.push_back(std::move(site));
    } else if (f.kind == Frame::If && op.name == "torch.prim.If.yield") {
      if (op.uses.size() != f.resultDefs.size())
        fail(op.first, fmt::format("torch.prim.If.yield yields {} value(s) for {} result(s)", op.uses.size(),
                                   f.resultDefs.size()));
      for (size_t i = 0; i < op.uses.size(); ++i) {
        b.returns.push_back(valueOfUse(op.uses[i]));
        fn().uses[op.uses[i]].target = f.resultDefs[i];
      }
    } else if (f.kind == Frame::Loop && op.name == "torch.prim.Loop.condition") {
      for (size_t u : op.uses) b.returns.push_back(valueOfUse(u));
    }
  }
  void constant(OpSyntax &op, ir::BlockId block) {
    if (op.results.size() != 1) fail(op.first, fmt::format("{} has one result", op.name));
    std::string_view what = std::string_view(op.name).substr(15);
    std::string text;
    if (const std::string *v = op.attr("value")) text = *v;
    else if (op.literal.kind != TK::Value && op.literal.line == op.first.line && what != "none") text = std::string(op.literal.text);
    // Errors point at the literal when it is on the op's line, else at the op.
    if (op.generic || op.literal.line != op.first.line) op.literal = op.nameTok;
    if (size_t colon = text.find(" :"); colon != std::string::npos) text.resize(colon); // `1 : i64`
    ir::Attribute a{"value", text, LK::Other, Value()};
    std::string_view type;
    if (what == "none") {
      type = "!torch.none";
    } else if (what == "str" || what == "device") {
      if (!text.starts_with('"')) fail(op.literal, fmt::format("{} needs a string", op.name));
      a.kind = LK::String;
      a.literal = Value::string(ir::unquote(text));
      type = what == "str" ? "!torch.str" : "!torch.Device";
    } else if (what == "bool") {
      // Its value is an I1Attr: `true`/`false` as MLIR prints it, `1`/`0` as it also reads it.
      if (text != "true" && text != "false" && text != "1" && text != "0")
        fail(op.literal, "torch.constant.bool needs true or false");
      a.kind = LK::Int;
      a.literal = Value::integer(text == "true" || text == "1");
      type = "!torch.bool";
    } else if (what == "int" || what == "float" || what == "number") {
      bool isFloat = what == "float" || text.find_first_of(".eE") != std::string::npos ||
                     (what != "int" && text.find("0x") != std::string::npos);
      if (text.empty()) fail(op.literal, fmt::format("{} needs a value", op.name));
      if (!isFloat) {
        int64_t i = 0;
        auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), i);
        if (ec != std::errc() || p != text.data() + text.size())
          fail(op.literal, fmt::format("{}: '{}' is not an int64", op.name, ir::printable(text, 80)));
        a.kind = LK::Int;
        a.literal = Value::integer(i);
        type = "!torch.int";
      } else {
        a.kind = LK::Float;
        a.literal = Value::floating(floatLiteral(text, op.literal));
        type = "!torch.float";
      }
    } else {
      return unmapped(op, block, fmt::format("{}: a constant dtypeflow does not model; its value is unknown", op.name));
    }
    ir::NodeId n = g().addNode(block, constantKind(), loc(op.first));
    if (a.kind != LK::Other) g().nodes[n].attrs.push_back(std::move(a));
    std::string store;
    std::string_view name = resultKey(op.results[0], store);
    ir::ValueId v = g().addValue(std::string(name.substr(1)), implied(type));
    g().values[v].def = n;
    g().nodes[n].outputs.push_back(v);
    size_t d = defineNamed(name, op.results[0].first, v);
    fn().defs[d].writtenType = std::string(type);
  }
  double floatLiteral(const std::string &text, const Tok &at) {
    if (text.starts_with("0x") || text.starts_with("0X")) { // the bits of an f64 (how MLIR writes inf and nan)
      uint64_t bits = 0;
      auto [p, ec] = std::from_chars(text.data() + 2, text.data() + text.size(), bits, 16);
      if (ec != std::errc()) fail(at, fmt::format("bad hexadecimal float '{}'", ir::printable(text, 80)));
      double d;
      std::memcpy(&d, &bits, sizeof d);
      return d;
    }
    char *end = nullptr;
    double d = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size()) fail(at, fmt::format("bad float '{}'", ir::printable(text, 80)));
    return d;
  }

  std::string_view src_;
  Lexer lex_;
  const Semantics &sem_;
  Tok tok_, prev_;
  std::vector<size_t> splitAt_;
  Function *ctx_ = nullptr;
  NameMap names_;
  std::vector<std::string_view> scopeNames_; ///< names_'s keys in the order defined (NameScope pops them)
  std::deque<std::string> ownedNames_; ///< names the source does not spell (`%0#1` of `%0:2`), kept for names_
  std::vector<Frame> frames_;
  std::vector<RegionCfg> cfgs_; ///< one per region being read, innermost last
  std::vector<Function> functions_;
  std::vector<std::unique_ptr<Function>> pending_;
  std::unordered_map<std::string, ir::TypePtr, NameHash, std::equal_to<>> types_, implied_;
  std::unordered_map<std::string, TorchTarget, NameHash, std::equal_to<>> torchTargets_;
  /// torch.symbolic_int symbols read so far, with their ranges (the module's names).
  std::unordered_map<std::string, SymRange, NameHash, std::equal_to<>> symbolRanges_;
  std::pair<const ir::Graph *, ir::KindId> constantKind_{nullptr, 0};
  int depth_ = 0;
  std::vector<std::unique_ptr<OpSyntax>> opPool_; ///< by op nesting depth (OpLease)
  size_t opDepth_ = 0;
  std::vector<size_t> emitDefs_;
  /// A NumToTensor result the FX importer made -> the number it holds (importedNumber).
  std::unordered_map<ir::ValueId, ir::ValueId> importedNumbers_;
};

} // namespace

Module readModule(std::string text, const Semantics &semantics) {
  Module m;
  m.text = std::move(text);
  Parser p(m.text, semantics);
  m.functions = p.parseModule();
  return m;
}

bool looksLikeMlir(std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') { ++i; continue; }
    if (text.substr(i, 2) == "//" || (c == '#' && i + 1 < text.size() && text[i + 1] != ' ' &&
                                      text.substr(i, text.find('\n', i) - i).find('=') != std::string_view::npos)) {
      size_t nl = text.find('\n', i); // a comment, or an attribute alias `#loc = loc(...)`
      if (nl == std::string_view::npos) return false;
      i = nl + 1;
      continue;
    }
    std::string_view rest = text.substr(i);
    for (std::string_view start : {"module", "func.func", "\"builtin.module\"", "\"func.func\""})
      if (rest.starts_with(start)) return true;
    return false;
  }
  return false;
}

} // namespace dtf::torch_mlir
