"""TorchScript and torch.fx programs as the IR text the core's text frontend reads.

Nothing here runs a model: a ScriptModule's graph is printed (its parameters typed from the
tensors' dtype and dim), an FX graph is walked node by node.
"""

from __future__ import annotations

import operator
from typing import Any, Dict, List, Tuple

from . import _core
from ._convert import _dtype_text

# c10::ScalarType codes of the dtypes every modelled version numbers alike (TorchScript passes a
# dtype argument as this int).
_SCALAR_TYPE_CODES = {
    "uint8": 0, "int8": 1, "int16": 2, "int32": 3, "int64": 4, "float16": 5, "float32": 6,
    "float64": 7, "complex32": 8, "complex64": 9, "complex128": 10, "bool": 11, "qint8": 12,
    "quint8": 13, "qint32": 14, "bfloat16": 15,
}
_MEMORY_FORMAT_CODES = {"contiguous_format": 0, "preserve_format": 1, "channels_last": 2,
                        "channels_last_3d": 3}
_LAYOUT_CODES = {"strided": 0, "sparse_coo": 1}


def kind_of(obj: Any) -> str:
    try:
        import torch
    except ImportError:
        return ""
    if type(obj).__name__ == "ExportedProgram" and hasattr(obj, "graph_module"):
        return "exported"
    if isinstance(obj, (torch.jit.ScriptModule, torch.jit.ScriptFunction, torch._C.Graph)):
        return "script"
    if isinstance(obj, torch.fx.GraphModule):
        return "fx"
    return ""


def _graph_text(g: Any) -> str:
    try:
        return g.str(False)  # without source ranges (absolute paths)
    except TypeError:
        return str(g)


def script_program(obj: Any, torch_version: str, rules: List[str] = ()) -> Tuple["_core.Program", Dict[str, str]]:
    """A ScriptModule is inlined and lowered (parameters become typed graph inputs, as in
    examples/); one whose attributes cannot be lowered is read from its inlined graph, where
    parameters stay untyped."""
    import torch
    implied: Dict[str, str] = {}
    if isinstance(obj, torch._C.Graph):
        text = _graph_text(obj)
    elif isinstance(obj, torch.jit.ScriptFunction):
        text = _graph_text(obj.graph)
    else:
        g = obj.graph.copy()
        torch._C._jit_pass_inline(g)
        try:
            lowered, params = torch._C._jit_pass_lower_graph(g, obj._c)
        except RuntimeError:
            text = _graph_text(obj.inlined_graph)
        else:
            graph_inputs = list(lowered.inputs())
            for value, t in zip(graph_inputs[len(graph_inputs) - len(params):], params):
                if isinstance(t, torch.Tensor):
                    implied[value.debugName()] = f"{_dtype_text(t.dtype)}:r{t.dim()}"
            text = _graph_text(lowered)
    return _core.Program.from_text(text, torch_version, "<TorchScript graph>", list(rules)), implied


class _Writer:
    """IR text of an ATen-level FX graph: one TorchScript node per FX call, with every schema
    argument spelled out (defaults filled) as TorchScript prints them."""

    def __init__(self) -> None:
        self.lines: List[str] = []
        self.count = 0
        self.names: Dict[Any, Any] = {}  # fx node -> "%name" or a list of them (multi-result ops)

    def fresh(self) -> str:
        self.count += 1
        return f"%_dtf{self.count}"

    def constant(self, type_text: str, value: str = None) -> str:
        name = self.fresh()
        attr = "" if value is None else f"[value={value}]"
        self.lines.append(f"  {name} : {type_text} = prim::Constant{attr}()")
        return name

    def arg(self, x: Any, where: str) -> str:
        import torch
        if isinstance(x, torch.fx.Node):
            v = self.names.get(x)
            if not isinstance(v, str):
                raise ValueError(f"{where}: argument {x.name} is not a single value")
            return v
        if x is None:
            return self.constant("NoneType")
        if isinstance(x, bool):
            return self.constant("bool", "1" if x else "0")
        if isinstance(x, int):
            return self.constant("int", str(x))
        if isinstance(x, float):
            return self.constant("float", repr(x))
        if isinstance(x, str):
            return self.constant("str", '"' + x.replace("\\", "\\\\").replace('"', '\\"') + '"')
        if isinstance(x, torch.dtype):
            code = _SCALAR_TYPE_CODES.get(_dtype_text(x))
            if code is None:
                raise ValueError(f"{where}: dtype {x} as an argument cannot be written as TorchScript IR")
            return self.constant("int", str(code))
        if isinstance(x, torch.memory_format):
            return self.constant("int", str(_MEMORY_FORMAT_CODES[_dtype_text(x)]))
        if isinstance(x, torch.layout):
            return self.constant("int", str(_LAYOUT_CODES[_dtype_text(x)]))
        if isinstance(x, torch.device):
            return self.constant("Device", f'"{x}"')
        if isinstance(x, (list, tuple)):
            items = [self.arg(e, where) for e in x]
            nodes = [e for e in x if isinstance(e, torch.fx.Node)]
            if nodes:
                elem = "Tensor?" if any(e is None for e in x) else "Tensor"
                if all(not _is_tensor_node(e) for e in nodes):
                    elem = "int"  # symbolic sizes
            elif all(isinstance(e, bool) for e in x) and x:
                elem = "bool"
            elif all(isinstance(e, int) and not isinstance(e, bool) for e in x):
                elem = "int"
            else:
                elem = "float"
            name = self.fresh()
            self.lines.append(f"  {name} : {elem}[] = prim::ListConstruct({', '.join(items)})")
            return name
        raise ValueError(f"{where}: cannot write an argument of type {type(x).__name__} as TorchScript IR")


def _is_tensor_node(n: Any) -> bool:
    import torch
    val = n.meta.get("val", n.meta.get("tensor_meta"))
    if val is None:
        return True
    return isinstance(val, torch.Tensor) or type(val).__name__ == "TensorMetadata"


def _meta_notation(n: Any) -> str:
    """A placeholder's type from the metadata tracing recorded (dtype and dim), or unknown."""
    import torch
    val = n.meta.get("val", n.meta.get("tensor_meta"))
    if isinstance(val, torch.Tensor) or type(val).__name__ == "TensorMetadata":
        return f"{_dtype_text(val.dtype)}:r{len(val.shape)}"
    return ""


def _type_text(t: Any) -> str:
    s = str(t)
    if s in ("Tensor", "int", "float", "bool", "complex", "Scalar", "SymInt", "SymFloat", "SymBool"):
        return {"SymInt": "int", "SymFloat": "float", "SymBool": "bool"}.get(s, s)
    if s in ("List[Tensor]", "Tensor[]"):
        return "Tensor[]"
    return "Tensor" if "Tensor" in s else s


def fx_program(gm: Any, torch_version: str, rules: List[str] = ()) -> Tuple["_core.Program", Dict[str, str]]:
    """An FX graph whose calls are all ATen overloads (torch.ops.aten.*: what torch.export,
    make_fx and aot_autograd produce). Placeholders are typed from their recorded metadata
    (meta['val'] / ['tensor_meta']); get_attr tensors from the tensor's dtype and dim. A call of
    anything else (a torch function, a module, a method) is refused: its ATen ops are what a
    trace to ATen would reveal."""
    import torch
    w = _Writer()
    params: List[str] = []
    implied: Dict[str, str] = {}
    result = None
    for n in gm.graph.nodes:
        where = f"FX node {n.name} ({n.op} {getattr(n.target, '__name__', n.target)})"
        if n.op == "placeholder":
            name = f"%{n.name}"
            tensor = _is_tensor_node(n)
            params.append(f"{name} : {'Tensor' if tensor else 'int'}")
            if tensor and _meta_notation(n):
                implied[n.name] = _meta_notation(n)
            w.names[n] = name
        elif n.op == "get_attr":
            obj = gm
            for part in str(n.target).split("."):
                obj = getattr(obj, part)
            if not isinstance(obj, torch.Tensor):
                raise ValueError(f"{where}: only tensor attributes are read")
            name = f"%{n.name}"
            params.append(f"{name} : Tensor")
            implied[n.name] = f"{_dtype_text(obj.dtype)}:r{obj.dim()}"
            w.names[n] = name
        elif n.op == "call_function" and n.target is operator.getitem:
            src, idx = n.args
            outs = w.names.get(src)
            if isinstance(outs, list):
                w.names[n] = outs[idx]
            else:
                out = f"%{n.name}"
                w.lines.append(f"  {out} : Tensor = aten::__getitem__({outs}, {w.arg(idx, where)})")
                w.names[n] = out
        elif n.op == "call_function" and isinstance(n.target, torch._ops.OpOverload):
            schema = n.target._schema
            args = []
            for i, a in enumerate(schema.arguments):
                if a.name in n.kwargs:
                    v = n.kwargs[a.name]
                elif i < len(n.args) and not a.kwarg_only:
                    v = n.args[i]
                elif a.default_value is not None or a.type.kind() == "OptionalType":
                    v = a.default_value
                else:
                    raise ValueError(f"{where}: argument {a.name} is missing")
                args.append(w.arg(v, where))
            rets = [_type_text(r.type) for r in schema.returns]
            call = f"{schema.name}({', '.join(args)})"
            if len(rets) == 1:
                out = f"%{n.name}"
                w.lines.append(f"  {out} : {rets[0]} = {call}")
                w.names[n] = out
            else:
                outs = [f"%{n.name}.{i}" for i in range(len(rets))]
                w.lines.append(f"  {', '.join(f'{o} : {t}' for o, t in zip(outs, rets))} = {call}")
                w.names[n] = outs
        elif n.op == "call_module" and str(n.target) == "_guards_fn" and not n.users:
            # ExportedProgram.module() (2.x) checks the inputs' guards first: no value, no dtype.
            continue
        elif n.op == "output":
            val = n.args[0]
            items = list(val) if isinstance(val, (list, tuple)) else [val]
            outs = [w.arg(v, where) for v in items]
            if isinstance(val, (list, tuple)):
                result = w.fresh()
                w.lines.append(f"  {result} : ({', '.join('Tensor' for _ in outs)}) = prim::TupleConstruct({', '.join(outs)})")
            else:
                result = outs[0]
        else:
            raise ValueError(f"{where}: not an ATen overload; dtypeflow reads ATen-level FX graphs "
                             f"(torch.export, make_fx): export the module and pass the ExportedProgram")
    if result is None:
        raise ValueError("the FX graph has no output")
    text = f"graph({', '.join(params)}):\n" + "\n".join(w.lines) + f"\n  return ({result})\n"
    return _core.Program.from_text(text, torch_version, "<FX graph>", list(rules)), implied
