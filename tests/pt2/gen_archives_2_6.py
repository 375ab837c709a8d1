#!/usr/bin/env python3
"""Write tests/pt2/archives-2.6: archives torch.export of PyTorch 2.6 records otherwise than the
exported program runs (scripts/probes/export_records.py measures both):

    scripts/torch-root.sh 2.6 run python3 tests/pt2/gen_archives_2_6.py tests/pt2/archives-2.6

- lstm_batch3.pt2: a 2-layer bidirectional LSTM over a batch of 3; its h_n is recorded
  [4, 1, 3, 16] (the exported module returns [4, 3, 16]).
- autocast_region.pt2: a linear and a matmul inside torch.autocast('cpu', bfloat16); the region's
  values are recorded float32 (they run bfloat16). 2.6's torch.export.load refuses this archive.
- nonfinite_constants.pt2: -inf, inf and NaN as op arguments, which 2.6 writes as the bare
  tokens Python's json.dumps allows (`-Infinity`, `NaN`) and JSON does not.
- symbolic_int_division.pt2: int32 / int32 and bool / 2 with a dynamic size, recorded int32
  and int64 (the program runs float32); a static operand pair stays float32.
- fake_references.pt2: ops FakeTensor runs as torch's Python references, recorded with
  another dtype than the CPU kernel gives (a bool ** True, losses of float32 and float64).
`dtypeflow check --torch 2.6` must count every recorded value right (the run's answer, or
the recorded one as --kernels meta gives it, named in a note).
"""
import os
import sys

import torch
import torch.nn as nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_pt2  # noqa: E402

torch.manual_seed(0)


class LstmBatch3(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(4, 6, 2, batch_first=True, bidirectional=True)

    def forward(self, x):
        out, (h, c) = self.lstm(x)
        return out.relu(), h.sum(0), c


class AutocastRegion(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)

    def forward(self, x):
        with torch.autocast("cpu", dtype=torch.bfloat16):
            h = self.fc(x)
            y = h.softmax(-1) @ h.transpose(-1, -2)
        return y, h.float() + x


class NonFiniteConstants(nn.Module):
    def forward(self, x, mask):
        return (x.masked_fill(mask, float("-inf")).softmax(-1), x.clamp(max=float("inf")),
                torch.nan_to_num(x, nan=0.0, posinf=1e4), x.to(torch.float16).masked_fill(~mask, float("nan")))


# Ops FakeTensor runs as torch's Python references: the module 2.14's archives hold too.
FakeReferences = gen_pt2.FakeReferences


class SymbolicIntDivision(nn.Module):
    """True division of integers and bools, exported with a dynamic size: 2.6 records the
    promoted integral dtype where an operand's size is symbolic (the program runs float32)."""

    def forward(self, i, b):
        return i / i, b / 2, i / i[:1], i.sum() / 2


class SingleResultHops(nn.Module):
    """A cond and a map of one result each: 2.6 writes such a higher-order op's result as a list of one
    (`[{"as_tensors": [...]}]`), 2.14 as the tensor."""

    def forward(self, x, xs, y):
        from functorch.experimental.control_flow import map as fmap
        c = torch.cond(x.sum() > 0, lambda x: x.sum(0, keepdim=True), lambda x: x[:1] * 3, (x,))
        return c, c.half() + 1, fmap(lambda a, b: a * b, xs, y).half()


class TailSlice(nn.Module):
    """`y[-5:]` of a Dim.AUTO length: 2.6 writes the range's max_val past int64 (int64 max + 5)."""

    def forward(self, y):
        return y[-5:]


class UniqueRecords(nn.Module):
    """torch.unique with its inverse and counts, flat and by dim: 2.6's FakeTensor records them in
    the input's dtype (float32), the program returns int64."""

    def forward(self, x):
        u, inv, cnt = torch.unique(x, sorted=True, return_inverse=True, return_counts=True)
        ud, invd, cntd = torch.unique(x.reshape(2, 4), dim=1, return_inverse=True, return_counts=True)
        return u, inv, cnt, ud, invd, cntd


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "archives-2.6")
    os.makedirs(out, exist_ok=True)
    for name, m, args in [("lstm_batch3", LstmBatch3(), (torch.randn(3, 5, 4),)),
                          ("autocast_region", AutocastRegion(), (torch.randn(4, 8),)),
                          ("nonfinite_constants", NonFiniteConstants(), (torch.randn(2, 5), torch.rand(2, 5) > 0.5)),
                          ("fake_references", FakeReferences(), (torch.rand(2, 3) > 0.5, torch.randn(2, 3), torch.rand(2, 3, dtype=torch.float64))),
                          ("symbolic_int_division", SymbolicIntDivision(),
                           (torch.arange(1, 6, dtype=torch.int32), torch.rand(5) > 0.5)),
                          ("single_result_hops", SingleResultHops(), (torch.randn(6, 4), torch.randn(3, 4), torch.randn(4))),
                          ("tail_slice", TailSlice(), (torch.randn(11),)),
                          ("unique_records", UniqueRecords(), (torch.tensor([3., 1., 3., 2., 1., 5., 5., 0.]),))]:
        auto = torch.export.Dim.AUTO
        dynamic = ({0: auto}, {0: auto}) if name == "symbolic_int_division" else ({0: auto},) if name == "tail_slice" else None
        ep = torch.export.export(m.eval(), args, dynamic_shapes=dynamic)
        path = os.path.join(out, name + ".pt2")
        torch.export.save(ep, path)
        print(f"wrote {path} ({os.path.getsize(path)} bytes, torch {torch.__version__})")


if __name__ == "__main__":
    main()
