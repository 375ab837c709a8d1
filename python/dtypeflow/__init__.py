"""dtypeflow: the dtype (and rank) of every tensor of a PyTorch program, without running it.

    import dtypeflow, torch
    dtypeflow.result_type(torch.int8, 2.5)                       # torch.float32
    dtypeflow.infer_op("aten::sum.dim_IntList", "int32:r3", dim=[1]).dtype   # torch.int64
    a = dtypeflow.annotate(exported_program)                     # or a GraphModule, ScriptModule, path
    a["add"].dtype, a.errors

Everything answers as one PyTorch version (`torch="2.14"`, the default, "2.6" or "1.13"). Operands
are torch.dtype (a tensor of that dtype, rank unknown), torch.Tensor (its dtype and rank; never
its data), Python numbers, None, lists, or strings in the CLI's notation ("float32:r2", "int",
"?"). `rules=[path, ...]` adds rule files for custom ops (the CLI's --rules, docs/custom-ops.md).
Bad input raises ValueError or TypeError with the CLI's message, options named by their keywords.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, field
from typing import Any, Dict, Iterator, List, Mapping, Optional

from . import _core
from ._convert import operand_text, to_dtype
from . import _fx

__all__ = ["result_type", "infer_op", "annotate", "load", "Annotation", "ValueInfo", "Diagnostic", "ResultType",
           "OpResult", "DEFAULT_TORCH", "TORCH_VERSIONS"]

DEFAULT_TORCH: str = _core.newest_torch
TORCH_VERSIONS: str = _core.torch_versions


@dataclass(frozen=True)
class Diagnostic:
    severity: str       # "error" (PyTorch would raise) or "warning"
    category: str       # "dtype-error", "no-rule", "unknown-op" ...
    message: str
    node: Optional[str]  # the op, e.g. "aten::add"
    line: Optional[int]  # in IR text
    values: List[str]    # the values it concerns

    def __str__(self) -> str:
        return f"{self.severity}: {self.message}" + (f" [{self.node}]" if self.node else "")


@dataclass(frozen=True)
class ValueInfo:
    name: str
    dtype: Any                  # torch.dtype (or its name when torch is not importable); None: unknown
    rank: Optional[int]
    possible: List[Any]         # the dtypes it may have (one when known)
    node: str                   # the op that defines it ("block parameter" for inputs)
    is_input: bool              # graph input, constant or attribute: typed, not inferred
    reason: Optional[str]       # why it is not fully known
    diagnostics: List[Diagnostic] = field(default_factory=list)
    recorded_dtype: Optional[str] = None  # .pt2: what torch.export recorded
    recorded_rank: Optional[int] = None
    verdict: Optional[str] = None         # check=True: "correct" / "unknown" / "wrong" against the record
    cpu_answer: Optional[str] = None      # check=True, .pt2: eager CPU's answer ("float32:r2") where it differs
                                          # from the meta kernels' (FakeTensor's), which the archive records
    shape: Optional[List[Any]] = None     # sizes when the rank is known: ints, "2*s0"-style strings for
                                          # symbolic sizes (torch.SymInt's str), None for an unknown dim


@dataclass(frozen=True)
class Annotation:
    """Every tensor value of a program, in graph order, with the diagnostics."""
    torch: str
    values: Dict[str, ValueInfo]
    diagnostics: List[Diagnostic]
    counts: Optional[Dict[str, int]]  # check=True: the comparison `dtypeflow check` makes (None otherwise)

    def __getitem__(self, name: str) -> ValueInfo:
        return self.values[name]

    def __iter__(self) -> Iterator[ValueInfo]:
        return iter(self.values.values())

    def __len__(self) -> int:
        return len(self.values)

    @property
    def errors(self) -> List[Diagnostic]:
        """Where PyTorch would raise a dtype error."""
        return [d for d in self.diagnostics if d.category == "dtype-error"]


@dataclass(frozen=True, eq=False)
class ResultType:
    """torch.result_type's answer. It compares equal to its dtype (`result_type(torch.int8, 2.5)
    == torch.float32`), as torch.result_type's own answer would; to another ResultType field by field."""
    dtype: Any               # None when unknown or when PyTorch always raises
    possible: List[Any]
    error: Optional[str]     # what PyTorch raises (always when always_raises, else in some cases)
    always_raises: bool
    torch: str

    def _fields(self):
        return (self.dtype, self.possible, self.error, self.always_raises, self.torch)

    def __eq__(self, other: Any) -> bool:
        if isinstance(other, ResultType):
            return self._fields() == other._fields()
        if other is None or isinstance(other, (str, list, tuple, dict, int, float)):
            return NotImplemented
        return self.dtype is not None and self.dtype == other  # a torch.dtype

    def __hash__(self) -> int:
        return hash(self.dtype)


@dataclass(frozen=True)
class OpOutput:
    dtype: Any               # tensors: torch.dtype or None
    rank: Optional[int]
    is_tensor: bool
    text: str                # as the CLI prints it ("float32", "unknown", "[float16...]", "3")
    shape: Optional[List[Any]] = None  # sizes when the rank is known (see ValueInfo.shape)


@dataclass(frozen=True)
class OpResult:
    op: str
    status: str              # "ok", "error", "no-rule", "too-many-unknowns"
    results: List[OpOutput]
    error: Optional[str]
    possible_error: Optional[str]
    torch: str
    kernel_gap: Optional[str] = None  # the error or possible error as a device gap ("no CPU kernel for uint16 in 2.14")

    @property
    def dtype(self) -> Any:
        """The first result's dtype."""
        return self.results[0].dtype if self.results else None


def _version(torch: Optional[str]) -> str:
    if torch is None:
        return DEFAULT_TORCH
    if not isinstance(torch, str):
        raise TypeError(f"torch= takes a version string such as '2.14', not {type(torch).__name__}")
    return torch


def _rules(rules: Any) -> List[str]:
    if rules is None:
        return []
    if isinstance(rules, (str, os.PathLike)):
        rules = [rules]
    try:
        return [os.fspath(r) for r in rules]
    except TypeError:
        raise TypeError("rules= takes a path or a list of paths to rule files (docs/custom-ops.md)") from None


def result_type(*operands: Any, torch: Optional[str] = None, rules: Any = None) -> ResultType:
    """torch.result_type over tensors and Python numbers (at least one)."""
    r = _core.result_type([operand_text(o) for o in operands], _version(torch), _rules(rules))
    return ResultType(dtype=to_dtype(r["dtype"]), possible=[to_dtype(d) for d in r["possible"]],
                      error=r["error"], always_raises=r["always_raises"], torch=r["torch"])


def infer_op(op: str, *args: Any, torch: Optional[str] = None, rules: Any = None, autocast: Any = None,
             cpu: Optional[str] = None, kernels: Optional[str] = None, **kwargs: Any) -> OpResult:
    """The result dtypes of one op overload ("aten::add.Tensor") on these arguments, by
    position or schema name; omitted arguments take their schema defaults. autocast=
    ("cpu", torch.bfloat16) or "cpu:bfloat16" runs the call inside torch.autocast; cpu=
    "avx512" (or "host") answers as on that kind of CPU; kernels="meta" as the meta kernels
    and FakeTensor do (what torch.export records), the CLI's --cpu and --kernels."""
    if not isinstance(op, str):
        raise TypeError(f"op must be an overload name such as 'aten::add.Tensor', not {type(op).__name__}")
    r = _core.infer_op(op, [operand_text(a) for a in args],
                       [(k, operand_text(v)) for k, v in kwargs.items()], _version(torch), _rules(rules),
                       _autocast_spec(autocast), cpu or "", kernels or "")
    msg = lambda e: e["message"] if e else None  # noqa: E731
    outs = [OpOutput(to_dtype(o["dtype"]), o["rank"], o["is_tensor"], o["text"], o.get("shape"))
            for o in r["results"]]
    gap = next((e["gap"] for e in (r["error"], r["possible_error"]) if e and "gap" in e), None)
    return OpResult(r["op"], r["status"], outs, msg(r["error"]), msg(r["possible_error"]), r["torch"], gap)


def _input_specs(inputs: Optional[Mapping[str, Any]]) -> List[str]:
    if inputs is None:
        return []
    if not isinstance(inputs, Mapping):
        raise TypeError("inputs= takes a mapping {name: dtype, tensor or notation}")
    return [f"{name}={operand_text(v)}" for name, v in inputs.items()]


def _dtype_name(d: Any, what: str) -> str:
    if d is None:
        return ""
    text = operand_text(d)
    if ":" in text or text.startswith("["):
        raise ValueError(f"{what}: a dtype is needed, not {d!r}")
    return text


def _annotation(r: dict) -> Annotation:
    diags = [Diagnostic(d["severity"], d["category"], d["message"], d["node"], d["line"], list(d["values"]))
             for d in r["diagnostics"]]
    values = {}
    for v in r["values"]:
        values[v["name"]] = ValueInfo(
            name=v["name"], dtype=to_dtype(v["dtype"]), rank=v["rank"],
            possible=[to_dtype(d) for d in v["possible"]], node=v["node"], is_input=v["is_input"],
            reason=v["reason"], diagnostics=[diags[i] for i in v["diagnostics"]],
            recorded_dtype=v.get("recorded_dtype"), recorded_rank=v.get("recorded_rank"), verdict=v["verdict"],
            cpu_answer=v.get("cpu_answer"), shape=v.get("shape"))
    return Annotation(r["torch"], values, diags, r["counts"])


def load(obj: Any, torch: Optional[str] = None, model: Optional[str] = None, rules: Any = None) -> "_core.Program":
    """Read a program once (a path, ExportedProgram, GraphModule, ScriptModule/Function, or IR
    text as a str starting with 'graph('); refine it with annotate(program, ...) as often as wanted
    (a ScriptModule's parameter types are then passed by inputs=). It answers as the version
    (and with the rule files) it was read with; annotate(program, torch=V) with another version
    reads the object again as V."""
    rules = _rules(rules)
    prog, _ = _load(obj, torch, model, rules)
    prog._read_as = lambda version: _load(obj, version, model, rules)[0]
    return prog


def _load(obj: Any, torch: Optional[str], model: Optional[str], rules: List[str]):
    """(Program, {input name: notation} implied by the object itself)."""
    if isinstance(obj, _core.Program):
        # Read with a version (and its schemas): another version reads the object again.
        if torch is not None and _version(torch) != obj.torch:
            read_as = getattr(obj, "_read_as", None)
            if read_as is None:
                raise ValueError(f"torch=\"{torch}\": this program was read as PyTorch {obj.torch}; "
                                 f"read it with dtypeflow.load(..., torch=\"{torch}\")")
            return read_as(_version(torch)), {}
        if rules:
            raise ValueError("rules=: a loaded program keeps the rule files it was read with; "
                             "pass rules= to dtypeflow.load")
        if model:
            raise ValueError("model=: a loaded program is one program already")
        return obj, {}
    torch = _version(torch)
    if isinstance(obj, (str, os.PathLike)):
        text = os.fspath(obj)
        if isinstance(obj, str) and (text.lstrip().startswith("graph(") or
                                     (not os.path.exists(text) and _core.looks_like_mlir(text))):
            # IR text, or Torch-dialect MLIR text (str(torch_mlir_module)): read from the str itself.
            if model:
                raise ValueError("model= applies to .pt2 archives only")
            return _core.Program.from_text(text, torch, rules=rules), {}
        if _core.reader_of(text) == "module":  # a saved TorchScript module: through torch.jit.load
            if model:
                raise ValueError("model= applies to .pt2 archives only")
            import torch as _torch
            return _fx.script_program(_torch.jit.load(text, map_location="cpu"), torch, rules)
        return _core.Program.read(text, torch, model or "", rules), {}
    kind = _fx.kind_of(obj)
    if model:
        raise ValueError("model= applies to .pt2 archives only")
    if kind == "exported":
        import torch as _torch
        # The archive is what the C++ reader reads: one format, one reader.
        with tempfile.TemporaryDirectory(prefix="dtypeflow-") as d:
            path = os.path.join(d, "program.pt2")
            _torch.export.save(obj, path)
            return _core.Program.read(path, torch, "", rules), {}
    if kind == "script":
        return _fx.script_program(obj, torch, rules)
    if kind == "fx":
        return _fx.fx_program(obj, torch, rules)
    raise TypeError(f"annotate takes an ExportedProgram, a torch.fx.GraphModule, a ScriptModule or "
                    f"ScriptFunction, a path or IR text, not {type(obj).__name__}")


def annotate(obj: Any, torch: Optional[str] = None, inputs: Optional[Mapping[str, Any]] = None,
             params: Any = None, float_inputs: Any = None, tensor_constants: Optional[str] = None,
             model: Optional[str] = None, check: bool = False, rules: Any = None,
             autocast: Any = None) -> Annotation:
    """Infer every tensor value of a program.

    obj: a torch.export ExportedProgram, a torch.fx.GraphModule (ATen-level: every call is a
      torch.ops.aten overload), a torch.jit ScriptModule or ScriptFunction, a path (.pt2 archive,
      TorchScript IR text, saved .pt module, Torch-dialect .mlir), IR text (a str starting with
      "graph("), or Torch-dialect MLIR text (a str starting with "module" or "func.func", as
      str(torch_mlir_module) gives). A module of several functions names its values "@FUNCTION:NAME".
    inputs: {graph input name: dtype / tensor / notation}; a dtype alone keeps a .pt2's recorded rank.
    params, float_inputs: .pt2 only: re-type every floating parameter/buffer, every floating user
      input (as module.to(dtype) and casting the inputs would).
    tensor_constants: "traced" (default), "strict" or "runtime" (see the CLI's --tensor-constants).
    check: refine as `dtypeflow check` does (written or recorded types only compared, never used)
      and fill `counts` and each value's `verdict`; a .pt2 re-typed by inputs=, params= or
      float_inputs= is another program than the one recorded: counts["compared"] is False.
    rules: rule files for custom ops (a path or a list; the CLI's --rules).
    autocast: run inside torch.autocast: ("cpu", torch.bfloat16), ("cuda", torch.float16) ... or
      "cpu:bfloat16" (the CLI's --autocast).
    """
    prog, implied = _load(obj, torch, model, _rules(rules))
    specs = [f"{k}={v}" for k, v in implied.items() if not (inputs and k in inputs)] + _input_specs(inputs)
    r = prog.annotate(specs, _dtype_name(params, "params"), _dtype_name(float_inputs, "float_inputs"),
                      tensor_constants or "", check, _autocast_spec(autocast))
    return _annotation(r)


def _autocast_spec(autocast: Any) -> str:
    """("cpu", torch.bfloat16) -> "cpu:bfloat16"; a string is taken as it is; None -> ""."""
    if autocast is None or isinstance(autocast, str):
        return autocast or ""
    device, dtype = autocast
    return f"{device}:{_dtype_name(dtype, 'autocast')}"
