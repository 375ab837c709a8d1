#!/usr/bin/env python3
# Trace torch-mlir's e2e test modules under the torch at hand and write each graph as IR text: the
# "programs the project did not write" measurement of docs (issue 24). torch-mlir is not vendored:
#   git -C TORCH_MLIR archive HEAD projects/pt1/python/torch_mlir_e2e_test | tar -x -C /work/tmp/tmlir
#   scripts/torch214-root.sh run python3 scripts/torch_mlir_e2e_trace.py /work/tmp/tmlir OUT_DIR
#   python3 scripts/check_dir.py OUT_DIR 2.14
import os, re, sys, types, torch, signal
stub = types.ModuleType("multiprocess"); stub.set_start_method = lambda *a, **k: None
sys.modules["multiprocess"] = stub
class _V:
    def __init__(self, s): self.t = tuple(int(x) for x in re.findall(r"\d+", s)[:3])
    def __lt__(s, o): return s.t < o.t
    def __le__(s, o): return s.t <= o.t
    def __gt__(s, o): return s.t > o.t
    def __ge__(s, o): return s.t >= o.t
vm = types.ModuleType("torch_mlir._version")
vm.torch_version_for_comparison = lambda: _V(torch.__version__)
vm.version = types.SimpleNamespace(parse=_V)
sys.modules["torch_mlir"] = types.ModuleType("torch_mlir"); sys.modules["torch_mlir._version"] = vm
sys.path.insert(0, os.path.join(sys.argv[1], "projects/pt1/python"))
from torch_mlir_e2e_test.registry import GLOBAL_TEST_REGISTRY
from torch_mlir_e2e_test import test_suite
from torch_mlir_e2e_test.framework import TestUtils
test_suite.register_all_tests()
OUT = sys.argv[2]
class Got(Exception): pass
class Rec:
    def __init__(self, m): self.m = m
    def __getattr__(self, n):
        if n == "forward":
            def f(*a):
                self.args = a; raise Got()
            return f
        return getattr(self.m, n)
ok = fail = 0
def alarm(*a): raise TimeoutError()
signal.signal(signal.SIGALRM, alarm)
for t in GLOBAL_TEST_REGISTRY:
    try:
        signal.alarm(20)
        m = t.program_factory()
        r = Rec(m)
        try: t.program_invoker(r, TestUtils())
        except Got: pass
        if not hasattr(r, "args") or not all(isinstance(a, torch.Tensor) for a in r.args): raise ValueError("inputs")
        tr = torch.jit.trace(m, tuple(a.clone() for a in r.args), check_trace=False)
        g = tr.graph.copy(); torch._C._jit_pass_inline(g)
        g2, _ = torch._C._jit_pass_lower_graph(g, tr._c)
        text = re.sub(r"# /[^\n]*", "", str(g2))
        open(os.path.join(OUT, t.unique_name + ".ir"), "w").write(text); ok += 1
    except BaseException as e:
        fail += 1
    finally:
        signal.alarm(0)
print("traced", ok, "skipped", fail, file=sys.stderr)
