# What torch.export records (TensorMeta) where it differs from what the exported program runs:
#   scripts/torch-root.sh 2.6 run python3 scripts/probes/export_records.py
#   scripts/torch214-root.sh run python3 scripts/probes/export_records.py
# 1. lstm.input's h_n and c_n, over layers, directions, batch_first, batch 1 or 3, float32/float64
#    and grad mode: recorded shape against the exported module's run (2.6: [L*D, 1, B, H] where B != 1).
# 2. A wrap_with_autocast region: recorded dtypes against the run (2.6: float32 recorded, bfloat16 run).
# Feeds src/dtype/version_facts.def (LstmDecompositionSqueezesStepDim, ExportRecordsAutocastRegions).
import itertools
import warnings

import torch
import torch.nn as nn

warnings.filterwarnings("ignore")
print("torch", torch.__version__)


class Lstm(nn.Module):
    def __init__(self, layers, directions, batch_first):
        super().__init__()
        self.lstm = nn.LSTM(8, 16, layers, batch_first=batch_first, bidirectional=directions == 2)

    def forward(self, x):
        out, (h, c) = self.lstm(x)
        return out, h, c


for L, D, bf, B, dt, grad in itertools.product([1, 2], [1, 2], [False, True], [1, 3],
                                               [torch.float32, torch.float64], [False, True]):
    m = Lstm(L, D, bf).to(dt).eval()
    x = torch.randn((B, 5, 8) if bf else (5, B, 8), dtype=dt)
    with torch.set_grad_enabled(grad):
        ep = torch.export.export(m, (x,))
    node = next(n for n in ep.graph.nodes if n.op == "call_function" and "lstm" in str(n.target))
    recorded = [tuple(t.shape) for t in node.meta["val"]][1:]
    run = [tuple(t.shape) for t in ep.module()(x)][1:]
    print(f"lstm layers={L} directions={D} batch_first={bf} batch={B} {str(dt)[6:]} grad={grad}: "
          f"recorded {recorded}, runs {run}{'' if recorded == run else '  DIFFERS'}")


class Autocasted(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 16)

    def forward(self, x):
        with torch.autocast("cpu", dtype=torch.bfloat16):
            h = self.fc(x)
            y = h.softmax(-1) @ h.transpose(-1, -2)
        return y, h.float() + x


x = torch.randn(4, 16)
ep = torch.export.export(Autocasted().eval(), (x,))
hop = next(n for n in ep.graph.nodes if n.op == "call_function" and "autocast" in str(n.target))
print("wrap_with_autocast: recorded", [t.dtype for t in hop.meta["val"]], "runs", [t.dtype for t in ep.module()(x)][:1])
