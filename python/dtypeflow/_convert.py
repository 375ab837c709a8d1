"""Python objects to the operand notation the core reads, dtype names back to torch.dtype."""

from __future__ import annotations

import math
from typing import Any, Optional

try:
    import torch as _torch
except ImportError:  # the core needs no torch; results are then dtype names
    _torch = None


def _dtype_text(d: Any) -> str:
    return str(d).removeprefix("torch.")


def _size_text(s: Any) -> str:
    """One size: an int, a SymInt's expression ("s0", "2*s0") when it reads as one, else unknown."""
    if isinstance(s, int):
        return str(s)
    text = str(s)
    return text if text and all(c.isalnum() or c in "_*+- " for c in text) else "?"


def operand_text(x: Any) -> str:
    """The notation of one operand or argument: tensors by dtype and rank (never data)."""
    if isinstance(x, str):
        return x  # already notation: "float32:r2", "int", "floor"
    if x is None:
        return "None"
    if isinstance(x, bool):  # before int: bool is an int
        return "True" if x else "False"
    if isinstance(x, int):
        return str(x)
    if isinstance(x, float):
        # A literal keeps checks that read the value (a Scalar that must fit the dtype).
        return repr(x) if math.isfinite(x) else "float"
    if isinstance(x, complex):
        return f"{x.imag!r}j" if x.real == 0 and math.isfinite(x.imag) else "complex"
    if isinstance(x, (list, tuple)):
        return "[" + ",".join(operand_text(e) for e in x) + "]"
    if _torch is not None:
        if isinstance(x, _torch.dtype):
            return _dtype_text(x)
        if isinstance(x, _torch.Tensor):  # fake and meta tensors too: only dtype and sizes are read
            return f"{_dtype_text(x.dtype)}:[{','.join(_size_text(s) for s in x.shape)}]"
        if isinstance(x, _torch.device):
            return x.type
        if isinstance(x, (_torch.layout, _torch.memory_format)):
            return _dtype_text(x)
    raise TypeError(f"cannot pass {type(x).__name__} to dtypeflow: give a torch.dtype, a tensor, a Python "
                    f"number, None, a list, or a string in the operand notation ('float32:r2')")


def to_dtype(name: Optional[str]) -> Any:
    """A dtype name as a torch.dtype when torch has it (else the name; None stays None)."""
    if name is None or _torch is None:
        return name
    d = getattr(_torch, name, None)
    return d if isinstance(d, _torch.dtype) else name
