#!/usr/bin/python3
"""Write the seed corpora of the fuzz targets into tests/fuzz/corpus/<target>/.

Seeds are small inputs that reach the code paths (kept under ~120 KB per
target); the fuzzers grow new inputs elsewhere (scripts/sanitize.sh) and only
crash reproducers are committed next to the seeds.

  ir_parser    bundled IR: examples, golden inputs, traced corpus files
               (torch's `# file.py:line` comments, scopes), and hand-written
               graphs (If/Loop, fork sections, Python ops, tensor dumps)
  notation     result-type and infer-op calls (first byte: mode and version,
               second: an op of fuzz_notation.cpp's list)
  module_text  what dtypeflow-pt-import prints for saved modules (made here
               with PyTorch 1.13: traced, scripted, frozen attributes, a
               tensor constant printed as data)
  pt2_json     the program JSON (models/model.json) of committed .pt2 archives
  pt2_archive  committed .pt2 archives

Usage (from the repository root, after building build/):
    /usr/bin/python3 tests/fuzz/gen_seeds.py [--importer build/tools/dtypeflow-pt-import]
The module_text seeds need PyTorch (python3-torch) and the importer; without
them those seeds are left as they are.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CORPUS = os.path.join(ROOT, "tests", "fuzz", "corpus")


def fresh(target):
    d = os.path.join(CORPUS, target)
    if os.path.isdir(d):
        for f in os.listdir(d):
            if f.startswith("seed-"):
                os.remove(os.path.join(d, f))
    os.makedirs(d, exist_ok=True)
    return d


def put(d, name, data):
    with open(os.path.join(d, "seed-" + name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


HAND_WRITTEN = {
    "fork.ir": """graph(%x : Float(3)):
  %2 : Future[Float(3)] = prim::fork_0(%x)
  %u : Union[int, Tensor] = prim::Uninitialized()
  %6 : Tensor = aten::wait(%2)
  return (%6)
with prim::fork_0 = graph(%y : Float(3)):
  %1 : int = prim::Constant[value=1]()
  %z : Tensor = aten::add(%y, %y, %1)
  return (%z)
""",
    "python_op.ir": """graph(%x : Float(2, 3, strides=[3, 1], requires_grad=0, device=cpu)):
  %y : Float(2, 3) = ^MyFn[inplace=0](2.0, "a(b)", <object at 0x7f>)(%x), scope: __module.f # m.py:3:0
  %t : NamedTuple(logits : Tensor, aux : Tensor?) = prim::TupleConstruct(%y, %y)
  return (%t)
""",
    "tensor_dump.ir": """graph(%x : Long(3)):
  %c : Float(3, strides=[1], requires_grad=0, device=cpu) = prim::Constant[value= 1  2  3 [ CPUFloatType{3} ]]()
  %s : Double(requires_grad=0, device=cpu) = prim::Constant[value={2.5}]()
  %z : ComplexDouble(requires_grad=0, device=cpu) = prim::Constant[value={(0,1)}]()
  %t : Tensor = prim::Constant[value=<Tensor>]()
  %1 : int = prim::Constant[value=1]()
  %y : Tensor = aten::add(%x, %c, %1)
  %w : Tensor = aten::mul(%y, %s)
  %v : Tensor = aten::sub(%w, %z, %1)
  return (%v, %t)
""",
    "control.ir": """graph(%x : Tensor, %n : int, %b : bool):
  %l : Tensor[] = prim::ListConstruct()
  %r : Tensor = prim::If(%b)
    block0():
      %i : int = prim::Constant[value=6]()
      %f : bool = prim::Constant[value=0]()
      %none : NoneType = prim::Constant()
      %d : Tensor = aten::to(%x, %i, %f, %f, %none)
      -> (%d)
    block1():
      -> (%x)
  %k : int = prim::Constant[value=9223372036854775807]()
  %t : bool = prim::Constant[value=1]()
  %acc : Tensor = prim::Loop(%n, %t, %r)
    block0(%j : int, %a : Tensor):
      %e : Tensor[] = aten::append(%l, %a)
      %m : Tensor = aten::mul(%a, %j)
      -> (%t, %m)
  %g : Tensor = aten::__getitem__(%l, %n)
  %s : int = aten::add(%k, %n)
  return (%acc, %g, %s)
""",
}

NOTATION = [
    # (mode byte, op byte, text): mode bit 0 = PyTorch 1.13, bit 1 = result-type
    (3, 0, "int8:r1 float"), (2, 0, "bfloat16:r1 complex"), (2, 0, "uint16:r1 int8:r1"), (3, 0, "uint8:r1 int8:r0"),
    (3, 0, "int8:r1 99999999999999999999999"), (3, 0, "int8:r1 1e309"), (3, 0, "? int:r0 1j True -1 2.5e-3j"),
    (3, 0, "[float16:r1,int64:r1]"), (1, 0, "aten::sum.dim_IntList self=int32:r3 dim=[1] keepdim=False"),
    (1, 0, "aten::mm self=float32:r2 mat2=float64:r2"), (1, 0, "aten::zeros size=[99999999999999999999]"),
    (1, 0, "aten::narrow.Tensor self=int32:r1 dim=0 start=bfloat16:r0 length=1"),
    (1, 0, "aten::rrelu_with_noise_backward grad_output=int16:r0 self=uint8:r0 noise=complex64:r2 lower=1j "
           "upper=0.5+0.5j training=False self_is_result=False"),
    (1, 0, "aten::cat [int8:r1,float16:r1]"), (1, 0, "aten::empty.memory_format size=[2,3] memory_format=channels_last"),
    (0, 4, "self=float32:r0 dim=0 start=int64:r0 length=1"), (1, 2, "tensors=[float16:r1,?:r1] dim=0"),
    (1, 8, "input=float32:r4 weight=bfloat16:r4 bias=None stride=[1,1] padding=[0,0] dilation=[1,1] groups=1"),
    (0, 10, "size=[1,2,3,4] memory_format=channels_last_3d dtype=float64"), (1, 13, "size=[2] fill_value=300 dtype=uint8"),
    (1, 16, "list=[1,2,3] idx=5"), (1, 17, "a=9223372036854775807 b=1"), (1, 0, "aten::div.Tensor_mode int64:r1 int64:r0 'floor'"),
]


def module_seeds(d, importer):
    try:
        import torch
    except ImportError:
        print("module_text: no torch; seeds left as they are")
        return
    if not os.path.exists(importer):
        print(f"module_text: {importer} not built; seeds left as they are")
        return
    import torch.nn as nn

    class Scale(nn.Module):
        def __init__(self):
            super().__init__()
            self.w = nn.Parameter(torch.ones(3, dtype=torch.float64))
            self.register_buffer("b", torch.zeros(3, dtype=torch.int32))
            self.k = torch.tensor([1.0, 2.0, 3.0])  # a tensor constant, printed as data

        def forward(self, x):
            return (x * self.w + self.b) * self.k + 2.5

    class Attr(nn.Module):
        def __init__(self):
            super().__init__()
            self.n = 3
            self.lin = nn.Linear(4, 2)

        def forward(self, x):
            y = self.lin(x)
            for _ in range(self.n):
                y = torch.relu(y) * 0.5
            if y.dim() > 1:
                y = y.sum(dim=-1, keepdim=True)
            return y.to(torch.float16)

    class Frozen(nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("mask", torch.tensor([True, False]))

        def forward(self, x):
            self.mask = self.mask & (x > 0)
            return torch.where(self.mask, x, x.half().float()), self.mask.sum()

    with tempfile.TemporaryDirectory() as tmp:
        made = {
            "traced_scale.pt": torch.jit.trace(Scale(), torch.ones(3, dtype=torch.int64)),
            "scripted_attr.pt": torch.jit.script(Attr()),
            "frozen_setattr.pt": torch.jit.script(Frozen()),
        }
        for name, m in made.items():
            path = os.path.join(tmp, name)
            m.save(path)
            p = subprocess.run([importer, path], capture_output=True)
            if p.returncode != 0:
                print(f"module_text: {name}: {p.stderr.decode()[:200]}")
                continue
            put(d, name.replace(".pt", ".ir"), p.stdout)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--importer", default=os.path.join(ROOT, "build", "tools", "dtypeflow-pt-import"))
    args = ap.parse_args()

    d = fresh("ir_parser")
    for rel in ["examples/control_flow.ir", "examples/token_embedding.ir", "examples/transformer_encoder.ir",
                "tests/golden/if_join.ir", "tests/golden/loop_carried.ir", "tests/golden/lists_and_raise.ir",
                "tests/golden/traced_scalars.ir", "tests/golden/dtype_error.ir", "tests/golden/unknown_op.ir",
                "tests/corpus/half_mix.ir", "tests/corpus/inplace.ir", "tests/corpus/complex.ir",
                "tests/corpus/zero_dim_chain.ir", "tests/corpus/attention.ir"]:
        with open(os.path.join(ROOT, rel), "rb") as f:
            put(d, os.path.basename(rel), f.read())
    for name, text in HAND_WRITTEN.items():
        put(d, name, text)

    d = fresh("notation")
    for i, (mode, op, text) in enumerate(NOTATION):
        put(d, f"{i:02d}", bytes([mode, op]) + text.encode())

    module_seeds(fresh("module_text"), args.importer)
    for name, text in HAND_WRITTEN.items():  # importer-like text without torch, too
        if name in ("tensor_dump.ir", "python_op.ir"):
            put(os.path.join(CORPUS, "module_text"), name, text)

    d_json, d_zip = fresh("pt2_json"), fresh("pt2_archive")
    archives = os.path.join(ROOT, "tests", "pt2", "archives")
    for name in ["bf16_mlp.pt2", "cond.pt2", "map.pt2", "while_loop.pt2"]:
        path = os.path.join(archives, name)
        shutil.copyfile(path, os.path.join(d_zip, "seed-" + name))
        with zipfile.ZipFile(path) as z:
            member = next(n for n in z.namelist() if n.endswith("/models/model.json"))
            put(d_json, name.replace(".pt2", ".json"), z.read(member))

    for target in sorted(os.listdir(CORPUS)):
        files = os.listdir(os.path.join(CORPUS, target))
        size = sum(os.path.getsize(os.path.join(CORPUS, target, f)) for f in files)
        print(f"{target:12s} {len(files):3d} files {size:8d} bytes")


if __name__ == "__main__":
    sys.exit(main())
