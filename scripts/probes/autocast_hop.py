# What torch.export writes for an autocast region inside forward (issue 31, part 3):
#   scripts/torch214-root.sh run python3 scripts/probes/autocast_hop.py
import torch
class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)
    def forward(self, x):
        with torch.autocast("cpu", dtype=torch.bfloat16):
            y = self.lin(x)
        return y.relu() + 1
x = torch.randn(2, 4)
for name, f in [("export (training IR)", lambda: torch.export.export(M(), (x,))),
                ("export_for_training", lambda: torch.export.export_for_training(M(), (x,)) if hasattr(torch.export, "export_for_training") else None),
                ("export().run_decompositions()", lambda: torch.export.export(M(), (x,)).run_decompositions())]:
    try:
        ep = f()
    except Exception as e:
        print(name, "raises", str(e)[:200]); continue
    if ep is None: print(name, "n/a"); continue
    print("==", name)
    for n in ep.graph.nodes:
        if n.op == "call_function":
            print("  ", n.target, n.meta.get("val").dtype if hasattr(n.meta.get("val"), "dtype") else "")
    for n, sub in ep.graph_module.named_children():
        print("  submodule", n)
        for m in sub.graph.nodes:
            if m.op == "call_function": print("     ", m.target)
