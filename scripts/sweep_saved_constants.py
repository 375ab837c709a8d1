#!/usr/bin/env python3
"""Sweep: dtypeflow's answers on saved modules (.pt) against what libtorch computes running them.

How a 0-dim tensor constant behaves depends on how the module was saved (see README,
"Known limits"): this script builds, for every op below and every constant dtype, four
modules computing `op(x, c)` with a 0-dim tensor `c`:

  frozen    torch.jit.freeze(torch.jit.script(m)), saved: `c` is a constant of the code
  traced    torch.jit.trace(m), saved: `c` baked into the trace as a constant
  fallback  scripted, also reading a bool attribute: dtypeflow's loader freezes it itself
  plain     scripted: `c` read with prim::GetAttr (lowered to a graph input)

runs each saved module (after torch.jit.load) on x of every dtype at rank 0 and 1, and compares
the result's dtype with `dtypeflow annotate` on the module's IR (`dtypeflow-pt-import`, then
`--tensor-constants runtime`, the default for .pt). A run that raises counts as right only if
dtypeflow reports an error; one that raises because libtorch has no CPU kernel for the dtype
(float16 / complex64 -> ComplexHalf division) is counted apart, as a CPU kernel gap.
Exit code 1 when anything else disagrees.

    /usr/bin/python3 scripts/sweep_saved_constants.py --build build --out /tmp/dtf-sweep

About 8 500 cases; ~5 minutes to build and run the modules, ~5 more to check them (2 cores).
"""
import argparse
import itertools
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import torch

OPS = {
    'add': 'x + c', 'sub': 'x - c', 'mul': 'x * c', 'div': 'x / c', 'radd': 'c + x', 'rmul': 'c * x',
    'add_alpha': 'torch.add(x, c, alpha=2)', 'floor_divide': 'torch.floor_divide(x, c)',
    'remainder': 'torch.remainder(x, c)', 'maximum': 'torch.maximum(x, c)', 'where': 'torch.where(x > 0, x, c)',
    'div_mode': "torch.div(x, c, rounding_mode='floor')", 'eq': 'x == c', 'pow': 'torch.pow(x, c)',
    'sub_twice': '(x - c) * c',
}
CONST_DTYPES = [torch.int16, torch.int64, torch.float16, torch.float32, torch.float64, torch.bool, torch.uint8,
                torch.complex64]
INPUT_DTYPES = [torch.bool, torch.uint8, torch.int8, torch.int32, torch.int64, torch.float16, torch.bfloat16,
                torch.float32, torch.float64]
NAMES = {torch.bool: 'bool', torch.uint8: 'uint8', torch.int8: 'int8', torch.int16: 'int16', torch.int32: 'int32',
         torch.int64: 'int64', torch.float16: 'float16', torch.bfloat16: 'bfloat16', torch.float32: 'float32',
         torch.float64: 'float64', torch.complex32: 'complex32', torch.complex64: 'complex64',
         torch.complex128: 'complex128'}
TORCH_TYPE_NAMES = {'Bool': 'bool', 'Byte': 'uint8', 'Char': 'int8', 'Short': 'int16', 'Int': 'int32',
                    'Long': 'int64', 'Half': 'float16', 'BFloat16': 'bfloat16', 'Float': 'float32',
                    'Double': 'float64', 'ComplexHalf': 'complex32', 'ComplexFloat': 'complex64',
                    'ComplexDouble': 'complex128'}


def module_source():
    """TorchScript needs the modules' source in a file: one plain and one bool-attribute class per op."""
    src = ['import torch']
    for name, expr in OPS.items():
        src.append(f'''
class {name}_plain(torch.nn.Module):
    def __init__(s, c):
        super().__init__(); s.c = c
    def forward(s, x):
        c = s.c
        return {expr}

class {name}_fallback(torch.nn.Module):
    def __init__(s, c):
        super().__init__(); s.c = c; s.flag = True
    def forward(s, x):
        c = s.c
        if s.flag:
            return {expr}
        return x
''')
    return '\n'.join(src)


def build_cases(out, importer):
    """Save every module, run it on every input, write its IR: [(ir path, x dtype, rank, truth)]."""
    with open(os.path.join(out, 'sweep_modules.py'), 'w') as f:
        f.write(module_source())
    sys.path.insert(0, out)
    import sweep_modules as mods
    cases = []
    for name, cdt in itertools.product(OPS, CONST_DTYPES):
        c = torch.tensor(2, dtype=cdt)
        for flavour in ['frozen', 'traced', 'fallback', 'plain']:
            path = os.path.join(out, f'{name}_{NAMES[cdt]}_{flavour}.pt')
            try:
                plain = getattr(mods, name + '_plain')(c)
                if flavour == 'frozen':
                    m = torch.jit.freeze(torch.jit.script(plain.eval()))
                elif flavour == 'traced':
                    m = torch.jit.trace(plain, torch.ones(3), check_trace=False)
                elif flavour == 'fallback':
                    m = torch.jit.script(getattr(mods, name + '_fallback')(c))
                else:
                    m = torch.jit.script(plain)
                m.save(path)
                m = torch.jit.load(path)
            except Exception:  # noqa: BLE001  (the module cannot be built: e.g. tracing a raising op)
                continue
            ir = subprocess.run([importer, path], capture_output=True, text=True)
            if ir.returncode:
                print(f'{path}: dtypeflow-pt-import failed: {ir.stderr.strip()[:200]}', file=sys.stderr)
                continue
            ir_path = path[:-3] + '.ir'
            with open(ir_path, 'w') as f:
                f.write(ir.stdout)
            for xdt, rank in itertools.product(INPUT_DTYPES, [0, 1]):
                try:
                    truth = NAMES[m(torch.ones((3,) * rank, dtype=xdt)).dtype]
                except Exception as e:  # noqa: BLE001
                    truth = 'no CPU kernel' if 'not implemented for' in str(e) else 'raises'
                cases.append((ir_path, NAMES[xdt], rank, truth))
        print(f'{name} {NAMES[cdt]}: {len(cases)} cases so far', file=sys.stderr)
    return cases


def answer(dtypeflow, case):
    ir_path, xdt, rank, _ = case
    r = subprocess.run([dtypeflow, 'annotate', ir_path, '--tensor-constants', 'runtime', '--input',
                        f'x={xdt}:r{rank}'], capture_output=True, text=True)
    if r.returncode == 2:
        return 'bad input: ' + r.stderr.strip()[:200]
    if re.search(r': error: ', r.stderr):
        return 'raises'
    ret = re.search(r'return \(%([^)]+)\)', r.stdout).group(1)
    typed = re.search(r'%' + re.escape(ret) + r' : ([A-Za-z0-9]+)', r.stdout)
    return TORCH_TYPE_NAMES.get(typed.group(1), 'unknown') if typed else 'unknown'


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--build', default='build', help='build directory holding tools/dtypeflow (default: build)')
    ap.add_argument('--out', default='/tmp/dtf-sweep', help='where the modules, IR and cases go')
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 2, help='parallel dtypeflow runs')
    args = ap.parse_args()
    dtypeflow = os.path.abspath(os.path.join(args.build, 'tools', 'dtypeflow'))
    os.makedirs(args.out, exist_ok=True)
    cases = build_cases(args.out, dtypeflow + '-pt-import')
    with open(os.path.join(args.out, 'cases.json'), 'w') as f:
        json.dump(cases, f)
    right = unknown = mismatch = gaps = 0
    with ThreadPoolExecutor(args.jobs) as pool:
        for case, ours in zip(cases, pool.map(lambda c: answer(dtypeflow, c), cases)):
            if ours == case[3]:
                right += 1
            elif case[3] == 'no CPU kernel' and not ours.startswith('bad input'):
                gaps += 1  # a dtype exists (meta computes it); the CPU kernel for it does not
            elif ours == 'unknown':
                unknown += 1
            else:
                mismatch += 1
                print(f'MISMATCH {os.path.basename(case[0])} x={case[1]}:r{case[2]}: libtorch {case[3]}, dtypeflow {ours}')
    print(f'{len(cases)} cases: {right} right, {unknown} unknown, {gaps} CPU kernel gaps, {mismatch} mismatches')
    return 1 if mismatch else 0


if __name__ == '__main__':
    sys.exit(main())
