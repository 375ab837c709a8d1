#include "frontends/text/ir_parser.h"
#include "graph/name_map.h"
#include "frontends/text/printable.h"
#include "refine/huge_pages.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <unordered_map>

namespace dtf::ir {
namespace {

using TK = Token::Kind;

TypeExpr::Kind scalarKind(std::string_view name) {
  using K = TypeExpr::Kind;
  // (quantized ones among them: QUInt8 ..., see parseType)
  if (name == "Tensor" || dtypeFromTorchTypeName(name)) return K::Tensor;
  if (name == "int") return K::Int;
  if (name == "float") return K::Float;
  if (name == "bool") return K::Bool;
  if (name == "complex") return K::Complex;
  if (name == "Scalar" || name == "number") return K::Number;
  if (name == "str") return K::Str;
  if (name == "Device") return K::Device;
  if (name == "NoneType") return K::None;
  if (name == "NamedTuple") return K::Tuple; // its fields follow in parentheses
  return K::Other;
}

/// Type names torch prints or its IR parser reads that the analysis keeps
/// opaque (K::Other); any other name is refused, as torch's parser refuses
/// it ("unknown type specifier"). Qualified names (`__torch__.Net`) are
/// classes.
bool knownOpaqueType(std::string_view name) {
  static constexpr std::string_view kNames[] = {
      "Optional", "List", "Tuple", "Dict", "Future", "RRef", "Await", "Union", "Generator", "Dimname",
      "ScalarType", "Layout", "MemoryFormat", "Storage", "QScheme", "Quantizer", "ConstQuantizerPtr",
      "DeviceIndex", "Stream", "SymInt", "SymFloat", "SymBool", "None", "Capsule", "Any", "AnyClassType",
      "AnyEnumType", "AnyListType", "AnyTupleType", "PyObject", "Object", "Enum", "Function", "Type"};
  for (std::string_view k : kNames)
    if (name == k) return true;
  return name.find('.') != std::string_view::npos;
}

/// Newlines + 1, by memchr (std::count went byte by byte: 5 % of a 10^6-node annotate).
size_t countLines(std::string_view s) {
  size_t n = 1;
  for (const char *p = s.data(), *end = s.data() + s.size();
       (p = static_cast<const char *>(std::memchr(p, '\n', static_cast<size_t>(end - p)))); ++p)
    ++n;
  return n;
}

class Parser {
public:
  Parser(std::string_view src, const ParseLimits &limits)
      : src_(src), lex_(src), limits_(limits), lines_(countLines(src)) {
    ids_.reserve(lines_); // at most about one value definition per line: no rehash
    tok_ = lex_.next();
  }

  std::unique_ptr<Graph> parseGraph() {
    g_ = std::make_unique<Graph>();
    // About one node and one value per line (counting lines costs ~1 % of
    // reading them): the big vectors grow once, not by copies, on huge
    // pages where they are big (a 10^6-line file: ~200 MB first touched
    // here; refine/huge_pages.h says why that matters).
    refine::reserveOnHugePages(g_->nodes, lines_);
    refine::reserveOnHugePages(g_->values, lines_);
    refine::reserveOnHugePages(g_->blocks[0].nodes, lines_);
    parseBody();
    if (isIdent("with")) parseSubgraphs();
    if (tok_.kind != TK::End) fail(tok_, "expected end of input after the graph's return");
    return std::move(g_);
  }

private:
  // --- tokens -------------------------------------------------------------
  void bump() {
    lastEnd_ = tok_.end;
    lastLine_ = tok_.line;
    tok_ = lex_.next();
  }
  /// A node's `# model.py:12:0` comment, interned (torch repeats them).
  void recordSource(NodeId n, std::string_view comment) {
    // What dtypeflow's printer added (`model.py:1:0; dtypeflow: %y is Float ...`) is no source.
    if (size_t note = comment.find("dtypeflow: "); note != std::string_view::npos) {
      comment = comment.substr(0, note);
      while (!comment.empty() && (comment.back() == ' ' || comment.back() == ';')) comment.remove_suffix(1);
      if (comment.empty()) return;
    }
    auto [it, fresh] = sourceIds_.try_emplace(std::string(comment), static_cast<uint32_t>(g_->sources.size()));
    if (fresh) g_->sources.push_back(it->first);
    g_->nodes[n].source = it->second;
  }
  static SourceLoc loc(const Token &t) { return {t.line, t.col}; }
  [[noreturn]] void fail(const Token &t, const std::string &msg) { throw IRSyntaxError(t.line, t.col, msg); }
  std::string describe(const Token &t) {
    return t.kind == TK::End ? "end of input" : fmt::format("'{}'", printable(src_.substr(t.begin, t.end - t.begin), 80));
  }
  bool isPunct(char c) const { return tok_.kind == TK::Punct && tok_.punct == c; }
  /// Is the token after the current one `c`? (a copy of the lexer reads it)
  bool nextIsPunct(char c) const {
    Lexer ahead = lex_;
    Token t = ahead.next();
    return t.kind == TK::Punct && t.punct == c;
  }
  bool isIdent(std::string_view s) const { return tok_.kind == TK::Ident && tok_.text == s; }
  void expectPunct(char c) {
    if (!isPunct(c)) fail(tok_, fmt::format("expected '{}' but found {}", c, describe(tok_)));
    bump();
  }
  void expectIdent(std::string_view s) {
    if (!isIdent(s)) fail(tok_, fmt::format("expected '{}' but found {}", s, describe(tok_)));
    bump();
  }

  // --- values -------------------------------------------------------------
  ValueId define(const Token &name, TypePtr type) {
    const auto id = static_cast<ValueId>(g_->values.size()); // what addValue gives it
    if (!ids_.insert(name.text, id)) fail(name, fmt::format("value %{} is defined twice", printable(name.text, 80)));
    return g_->addValue(std::string(name.text), std::move(type));
  }
  ValueId use() {
    if (tok_.kind != TK::ValueName) fail(tok_, fmt::format("expected a value (%name) but found {}", describe(tok_)));
    size_t id = ids_.find(tok_.text);
    if (id == kNoName) fail(tok_, fmt::format("use of undefined value %{}", printable(tok_.text, 80)));
    bump();
    return static_cast<ValueId>(id);
  }
  /// `(%a, %b)` after the opening point (into a buffer reused by every
  /// node: no allocation per node; copy it before the next parseUses).
  const std::vector<ValueId> &parseUses() {
    expectPunct('(');
    std::vector<ValueId> &out = uses_;
    out.clear();
    while (!isPunct(')')) {
      out.push_back(use());
      if (!isPunct(')')) expectPunct(',');
    }
    bump();
    return out;
  }
  /// `%a : T, %b : T)` (the '(' already consumed); types are required.
  std::vector<ValueId> parseParams(BlockId block) {
    std::vector<ValueId> out;
    while (!isPunct(')')) {
      if (tok_.kind != TK::ValueName) fail(tok_, fmt::format("expected a parameter (%name) but found {}", describe(tok_)));
      Token name = tok_;
      bump();
      TypePtr type = tensorType();
      if (isPunct(':')) { bump(); type = parseType(); }
      ValueId v = define(name, type);
      g_->values[v].paramOf = block;
      out.push_back(v);
      if (!isPunct(')')) expectPunct(',');
    }
    bump();
    return out;
  }

  // --- types --------------------------------------------------------------
  /// Guards the recursion of nested types and literals against absurd input.
  struct DepthGuard {
    DepthGuard(Parser &p) : p(p) {
      if (++p.nestDepth_ > kMaxNesting)
        p.fail(p.tok_, fmt::format("types or literals nested deeper than {} levels are refused", kMaxNesting));
    }
    ~DepthGuard() { --p.nestDepth_; }
    Parser &p;
  };
  TypePtr parseType() {
    DepthGuard guard(*this);
    if (TypePtr known = bareTypeSeenBefore()) return known;
    size_t begin = tok_.begin;
    auto t = std::make_shared<TypeExpr>();
    if (isPunct('(')) {
      bump();
      t->kind = TypeExpr::Kind::Tuple;
      while (!isPunct(')')) {
        t->elems.push_back(parseType());
        if (!isPunct(')')) expectPunct(',');
      }
      bump();
    } else {
      if (tok_.kind != TK::Ident) fail(tok_, fmt::format("expected a type but found {}", describe(tok_)));
      std::string_view name = tok_.text;
      t->kind = scalarKind(name);
      t->dtype = dtypeFromTorchTypeName(name);
      const Token nameTok = tok_;
      // `FloatTensor(requires_grad=0, device=cpu)`: how torch prints a
      // sparse (non-strided) tensor: its dtype, no sizes (rank unknown).
      bool noSizes = false;
      if (t->kind != TypeExpr::Kind::Tensor && name.size() > 6 && name.ends_with("Tensor"))
        if (auto d = dtypeFromTorchTypeName(name.substr(0, name.size() - 6))) {
          t->kind = TypeExpr::Kind::Tensor;
          t->dtype = d;
          noSizes = true;
        }
      // Bits and sub-byte tensors: dtypes no rule models, so tensors whose
      // dtype is left unknown. Quantized ones (QUInt8 ...) are kept: the
      // quantize family's rules read them, every other rule answers unknown.
      if (t->dtype && category(*t->dtype) == Category::Other && !isQuantized(*t->dtype)) t->dtype.reset();
      if (t->kind == TypeExpr::Kind::Other && !knownOpaqueType(name))
        fail(nameTok, fmt::format("unknown type '{}' (not a TorchScript type; torch's parser refuses it too)",
                                  printable(name, 80)));
      bump();
      if (isPunct('(')) {
        parseTypeArgs(*t);
        if (noSizes) { // no sizes printed: not a 0-dim tensor
          t->rank.reset();
          t->unitDims = {};
          t->dims.clear();
        }
      } else if (isPunct('[') && (name == "Optional" || name == "List")) {
        bump();
        t->kind = name == "List" ? TypeExpr::Kind::List : TypeExpr::Kind::Optional;
        t->elems.push_back(parseType());
        expectPunct(']');
      } else if (isPunct('[') && t->kind == TypeExpr::Kind::Other) {
        // `Future[Tensor]` (torch.jit.fork), `Union[int, Tensor]`, `Await[T]`: opaque to the analysis.
        bump();
        while (!isPunct(']')) {
          t->elems.push_back(parseType());
          if (!isPunct(']')) expectPunct(',');
        }
        bump();
      }
    }
    while (true) {
      if (isPunct('[')) {
        bump();
        expectPunct(']');
        wrap(t, TypeExpr::Kind::List, begin);
      } else if (isPunct('?')) {
        bump();
        wrap(t, TypeExpr::Kind::Optional, begin);
      } else {
        break;
      }
    }
    t->text = std::string(src_.substr(begin, lastEnd_ - begin));
    auto it = types_.find(t->text);
    if (it != types_.end()) return it->second;
    finishType(*t);
    types_.emplace(t->text, t);
    if (t->kind != TypeExpr::Kind::Other && t->text.find_first_of("([?") == std::string::npos)
      bareTypes_.emplace(src_.substr(begin, lastEnd_ - begin), t);
    return t;
  }
  /// A type written as a bare name (`Tensor`, `int`) that was parsed before,
  /// consumed; null otherwise. A 10^6-node trace writes `Tensor` 10^6 times:
  /// one lookup instead of a parse each.
  TypePtr bareTypeSeenBefore() {
    if (tok_.kind != TK::Ident) return nullptr;
    auto it = bareTypes_.find(tok_.text);
    if (it == bareTypes_.end()) return nullptr;
    // Bare only when what follows on the line ends the type (not `(`, `[`, `?`).
    size_t next = tok_.end;
    while (next < src_.size() && (src_[next] == ' ' || src_[next] == '\t')) ++next;
    if (next >= src_.size() || (src_[next] != '=' && src_[next] != ',' && src_[next] != ')')) return nullptr;
    bump();
    return it->second;
  }
  void wrap(std::shared_ptr<TypeExpr> &t, TypeExpr::Kind kind, size_t begin) {
    t->text = std::string(src_.substr(begin, lastEnd_ - begin));
    auto outer = std::make_shared<TypeExpr>();
    outer->kind = kind;
    outer->elems.push_back(t);
    t = outer;
  }
  /// A size as the tracer printed it (a non-negative int; anything else,
  /// which torch never prints, is left unknown).
  static Dim writtenSize(const Token &t) {
    int64_t v = 0;
    auto [end, ec] = std::from_chars(t.text.data(), t.text.data() + t.text.size(), v);
    if (ec != std::errc() || end != t.text.data() + t.text.size() || v < 0) return Dim();
    return Dim(v);
  }
  /// `(2, *, strides=[..], device=cpu)` for tensors, `(str, Tensor)` otherwise.
  void parseTypeArgs(TypeExpr &t) {
    const Token open = tok_;
    bump();
    int sizes = 0;
    // torch prints a tensor type on one line: details that run onto the next
    // would also be printed back verbatim, as text that does not parse again.
    auto sameLine = [&] {
      if (t.kind == TypeExpr::Kind::Tensor && tok_.line != open.line)
        fail(tok_, fmt::format("the tensor type's details opened at {}:{} do not close on that line", open.line,
                               open.col));
    };
    while (!isPunct(')')) {
      sameLine();
      if (t.kind == TypeExpr::Kind::Tensor) {
        if (isPunct('*') || tok_.kind == TK::Number) {
          if (tok_.kind == TK::Number && sizes < 32) {
            uint32_t bit = uint32_t{1} << sizes;
            (tok_.text == "1" ? t.unitDims.ones : t.unitDims.others) |= bit;
          }
          t.dims.push_back(tok_.kind == TK::Number ? writtenSize(tok_) : Dim());
          ++sizes;
          bump();
        } else if (tok_.kind == TK::Ident) {
          bump();
          expectPunct('=');
          skipBalanced();
        } else {
          fail(tok_, fmt::format("expected a size or a name=value in a tensor type, found {}", describe(tok_)));
        }
      } else {
        // `NamedTuple(logits : Tensor, aux : Tensor?)`: a field name, then its type
        if (tok_.kind == TK::Ident && nextIsPunct(':')) {
          bump();
          bump();
        }
        t.elems.push_back(parseType());
      }
      if (!isPunct(')')) expectPunct(',');
    }
    sameLine();
    bump();
    if (t.kind == TypeExpr::Kind::Tensor) t.rank = sizes;
  }
  /// Skip one attribute-ish value: tokens up to ',' ')' or ']' at depth 0.
  void skipBalanced() {
    int depth = 0;
    while (tok_.kind != TK::End) {
      if (tok_.kind == TK::Punct) {
        char c = tok_.punct;
        if (depth == 0 && (c == ',' || c == ')' || c == ']' || c == '}' || c == '>')) return;
        if (c == '(' || c == '[' || c == '{' || c == '<') ++depth;
        if (c == ')' || c == ']' || c == '}' || c == '>') --depth;
      }
      bump();
    }
  }

  // --- attributes ---------------------------------------------------------
  Value numberLiteral(const Token &t, Attribute::LitKind &kind) {
    std::string s(t.text);
    bool isFloat = s.find_first_of(".eEin") != std::string::npos;
    if (s.ends_with("j")) { kind = Attribute::LitKind::Other; return Value::number(NumKind::Complex); }
    if (!isFloat) {
      int64_t i = 0;
      auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), i);
      if (ec == std::errc()) { kind = Attribute::LitKind::Int; return Value::integer(i); }
      if (ec == std::errc::result_out_of_range)
        fail(t, fmt::format("integer {} does not fit int64 (torch's parser refuses it too)", printable(s, 80)));
    }
    kind = Attribute::LitKind::Float;
    return Value::floating(std::strtod(s.c_str(), nullptr));
  }
  Value parseLiteral(Attribute::LitKind &kind) {
    DepthGuard guard(*this);
    Token t = tok_;
    // `nan  1 [ CPUFloatType{2} ]`, `[ CPUFloatType{0} ]` (an empty tensor) too.
    if (t.kind == TK::Number || isPunct('(') || isPunct('[') ||
        (t.kind == TK::Ident && (t.text == "nan" || t.text == "inf"))) {
      // A multi-element tensor constant printed as its data: typed by the
      // value's annotation, its elements are not dtype facts.
      if (!lex_.skipTensorDump(t.begin).empty()) {
        // The literal's text is the whole dump (the printer writes it back),
        // not just the token it starts with.
        const size_t dumpEnd = lex_.offset();
        bump();
        lastEnd_ = dumpEnd;
        kind = Attribute::LitKind::TensorLiteral;
        return Value();
      }
    }
    if (t.kind == TK::Number) { bump(); return numberLiteral(t, kind); }
    if (t.kind == TK::String) { bump(); kind = Attribute::LitKind::String; return Value::string(unquote(t.text)); }
    if (t.kind == TK::Ident && (t.text == "inf" || t.text == "nan")) {
      bump();
      kind = Attribute::LitKind::Float;
      return Value::floating(std::strtod(std::string(t.text).c_str(), nullptr));
    }
    if (isPunct('{')) { // 0-dim tensor constant `{2.5}`
      bump();
      Value v;
      if (tok_.kind == TK::Number) { Attribute::LitKind k; v = numberLiteral(tok_, k); bump(); }
      else if (isPunct('(')) { // a complex value `{(0,1)}`
        bump();
        Attribute::LitKind k;
        Value re = tok_.kind == TK::Number ? numberLiteral(tok_, k) : Value();
        skipBalanced();
        if (isPunct(',')) bump();
        Value im = tok_.kind == TK::Number ? numberLiteral(tok_, k) : Value();
        skipBalanced();
        expectPunct(')');
        v = re.floatValue() && im.floatValue() ? Value::complexNumber(*re.floatValue(), *im.floatValue())
                                               : Value::number(NumKind::Complex);
      } else {
        skipBalanced();
      }
      expectPunct('}');
      kind = Attribute::LitKind::TensorLiteral;
      return v;
    }
    if (isPunct('<')) { // `<Tensor>`: a tensor constant printed without its data
      bump();
      skipBalanced();
      expectPunct('>');
      kind = Attribute::LitKind::TensorLiteral;
      return Value();
    }
    if (isPunct('[')) {
      bump();
      std::vector<Value> elems;
      while (!isPunct(']')) {
        if (elems.size() >= limits_.maxListLength)
          fail(tok_, fmt::format("list literal longer than {} elements: refused", limits_.maxListLength));
        Attribute::LitKind k;
        elems.push_back(parseLiteral(k));
        if (!isPunct(']')) expectPunct(',');
      }
      bump();
      kind = Attribute::LitKind::List;
      return Value::list(std::move(elems));
    }
    skipBalanced();
    kind = Attribute::LitKind::Other;
    return Value::top();
  }
  void parseAttrs(Node &n) {
    bump(); // '['
    while (!isPunct(']')) {
      if (tok_.kind != TK::Ident) fail(tok_, fmt::format("expected an attribute name but found {}", describe(tok_)));
      Attribute a;
      a.name = std::string(tok_.text);
      bump();
      expectPunct('=');
      size_t begin = tok_.begin;
      a.literal = parseLiteral(a.kind);
      // `[value=]`: nothing consumed (fuzz_module_text: the text slice then
      // ran to the end of the input and was printed back as the value).
      if (lastEnd_ <= begin) fail(tok_, fmt::format("attribute '{}' has no value", printable(a.name, 80)));
      a.text = std::string(src_.substr(begin, lastEnd_ - begin));
      n.attrs.push_back(std::move(a));
      if (!isPunct(']')) expectPunct(',');
    }
    bump();
  }

  /// `graph(%x : T, ...): nodes return (%r, ...)` into g_'s body.
  void parseBody() {
    expectIdent("graph");
    g_->body().loc = loc(tok_);
    expectPunct('(');
    g_->body().params = parseParams(0);
    expectPunct(':');
    parseNodes(0, 0);
    expectIdent("return");
    g_->body().returns = parseUses();
  }
  /// `with prim::fork_0 = graph(%x : T): ... return (...)` after the graph:
  /// the functions of fork nodes, each with its own value names, parsed into
  /// Graph::subgraphs (the solver refines one where a fork node runs it) and
  /// kept as text (Graph::subgraphText) to be printed back.
  void parseSubgraphs() {
    size_t begin = tok_.begin;
    auto outer = std::move(ids_);
    Graph *top = g_.get();
    while (isIdent("with")) {
      bump();
      if (tok_.kind != TK::Ident || tok_.text.find("::") == std::string_view::npos)
        fail(tok_, fmt::format("expected a subgraph name (ns::name_N) after 'with' but found {}", describe(tok_)));
      std::string name(tok_.text);
      if (top->subgraph(name)) fail(tok_, fmt::format("subgraph {} is defined twice", printable(name, 80)));
      bump();
      expectPunct('=');
      ids_.clear();
      sourceIds_.clear(); // interned per graph (Graph::sources)
      auto sub = std::make_unique<Graph>();
      std::swap(g_, sub); // the section's nodes and values go to a graph of their own
      parseBody();
      g_->sectionsOwner = top;
      std::swap(g_, sub);
      top->subgraphs.emplace_back(std::move(name), std::move(sub));
    }
    ids_ = std::move(outer);
    g_->subgraphText = std::string(src_.substr(begin, lastEnd_ - begin));
  }

  // --- nodes and blocks ---------------------------------------------------
  void parseNodes(BlockId block, int depth) {
    while (tok_.kind == TK::ValueName || isPunct('=')) parseNode(block, depth);
  }
  void parseNode(BlockId block, int depth) {
    Token first = tok_;
    std::vector<std::pair<Token, TypePtr>> &outs = outs_; // defined below, before any nested block reuses it
    outs.clear();
    while (tok_.kind == TK::ValueName) {
      Token name = tok_;
      bump();
      TypePtr type = tensorType();
      if (isPunct(':')) { bump(); type = parseType(); }
      outs.emplace_back(name, type);
      if (!isPunct('=')) expectPunct(',');
    }
    expectPunct('=');
    // `^Name[attrs](python scalars)(%inputs)`: a call of a Python autograd Function.
    bool pythonOp = tok_.kind == TK::Ident && tok_.text.starts_with('^');
    if (!pythonOp && (tok_.kind != TK::Ident || tok_.text.find("::") == std::string_view::npos))
      fail(tok_, fmt::format("expected an operator name (ns::name) but found {}", describe(tok_)));
    if (g_->nodes.size() >= limits_.maxNodes)
      fail(first, fmt::format("more than {} nodes: refused (the limit keeps a huge input from exhausting memory)",
                              limits_.maxNodes));
    NodeId n = g_->addNode(block, pythonOp ? std::string_view("prim::PythonOp") : tok_.text, loc(first));
    if (pythonOp) {
      std::string fn(tok_.text.substr(1));
      g_->nodes[n].attrs.push_back({"name", fn, Attribute::LitKind::String, Value::string(fn)});
    }
    bump();
    if (isPunct('[')) parseAttrs(g_->nodes[n]);
    if (pythonOp) {
      if (!isPunct('(')) fail(tok_, fmt::format("expected '(' and the Python op's scalar arguments but found {}", describe(tok_)));
      lex_.skipRawParenthesised();
      bump();
    }
    g_->nodes[n].inputs = parseUses();
    uint32_t lastLine = lastLine_;
    if (isPunct(',')) { // `, scope: a/b.c` printed by torch: skip the rest of the line
      lastLine = tok_.line;
      lex_.skipRestOfLine();
      bump();
    }
    if (std::string_view c = lex_.commentEndingLine(lastLine); !c.empty()) recordSource(n, c);
    for (auto &[name, type] : outs) {
      ValueId v = define(name, type);
      g_->values[v].def = n;
      g_->nodes[n].outputs.push_back(v);
    }
    while (tok_.kind == TK::Ident && tok_.text.starts_with("block")) parseBlock(n, depth + 1);
  }
  void parseBlock(NodeId owner, int depth) {
    if (depth > kMaxNesting)
      fail(tok_, fmt::format("blocks nested deeper than {} levels are refused", kMaxNesting));
    BlockId b = g_->addBlock(owner, loc(tok_));
    bump();
    expectPunct('(');
    auto params = parseParams(b);
    g_->blocks[b].params = std::move(params);
    expectPunct(':');
    parseNodes(b, depth);
    if (tok_.kind != TK::Arrow) fail(tok_, fmt::format("expected '-> (...)' ending the block but found {}", describe(tok_)));
    bump();
    g_->blocks[b].returns = parseUses();
  }

  std::string_view src_;
  Lexer lex_;
  ParseLimits limits_;
  Token tok_;
  size_t lastEnd_ = 0;
  uint32_t lastLine_ = 0; ///< line of the last token consumed
  int nestDepth_ = 0;
  std::unique_ptr<Graph> g_;
  /// Value names as views into the text (it outlives the parse): no copy per definition or use.
  size_t lines_;
  NameMap ids_;
  std::unordered_map<std::string, TypePtr> types_;
  std::unordered_map<std::string_view, TypePtr> bareTypes_; ///< by name, views into the text (bareTypeSeenBefore)
  std::vector<ValueId> uses_;                               ///< parseUses' buffer
  std::vector<std::pair<Token, TypePtr>> outs_;             ///< parseNode's outputs, before they are defined
  std::unordered_map<std::string, uint32_t> sourceIds_;
};

} // namespace

std::unique_ptr<Graph> parseIR(std::string_view text, const ParseLimits &limits) {
  Parser p(text, limits);
  return p.parseGraph();
}

} // namespace dtf::ir
