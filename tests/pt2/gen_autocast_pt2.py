#!/usr/bin/env python3
"""Make tests/pt2/autocast/resnet18_autocast_bf16.pt2: torchvision's resnet18 (random
weights, no download) exported inside torch.autocast('cpu', dtype=torch.bfloat16).

    scripts/torch214-root.sh run python3 tests/pt2/gen_autocast_pt2.py tests/pt2/autocast

torch.export 2.14 records every value bfloat16 while the graph holds plain
aten.conv2d/aten.linear and no autocast op (issue 31): `dtypeflow check` must name the
context (`--autocast cpu:bfloat16`). The weights are dropped from the archive (its data/
entries emptied) so the file stays small: dtypeflow reads only the program JSON.
"""
import io
import os
import sys
import zipfile

import torch
import torchvision

torch.manual_seed(0)


def strip_weights(path):
    """Rewrite the archive with every data/ entry (weights, constants) empty."""
    with zipfile.ZipFile(path) as z:
        entries = [(i, z.read(i.filename)) for i in z.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for info, data in entries:
            if "/data/" in info.filename and not info.filename.endswith(".json"):
                data = b""
            z.writestr(info.filename, data)


class AutocastRegion(torch.nn.Module):
    """An autocast region inside forward: 2.14's torch.export writes it as
    torch.ops.higher_order.wrap_with_autocast(device, dtype, enabled, cache, submod, *args)."""

    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)

    def forward(self, x):
        with torch.autocast("cpu", dtype=torch.bfloat16):
            y = self.lin(x)
        return y.relu() + 1, self.lin(x)


class NestedAutocastRegions(AutocastRegion):
    """A region that disables autocast inside a bfloat16 one, then a float16 one."""

    def forward(self, x):
        with torch.autocast("cpu", dtype=torch.bfloat16):
            y = self.lin(x)
            with torch.autocast("cpu", enabled=False):
                z = torch.mm(x, x.t())
            w = torch.mm(x, x.t())
        with torch.autocast("cpu", dtype=torch.float16):
            h = self.lin(x)
        return y, z, w, h


def main(out, only=None):
    regions = [("wrap_with_autocast", AutocastRegion()), ("wrap_with_autocast_nested", NestedAutocastRegions())]
    for name, module in regions:
        if only and name != only:
            continue
        region = torch.export.export(module, (torch.randn(2, 4),))
        torch.export.save(region, os.path.join(out, name + ".pt2"))
        print(name, "written")
    if only:
        return
    m = torchvision.models.resnet18(weights=None).eval()
    x = torch.randn(1, 3, 64, 64)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        ep = torch.export.export(m, (x,))
    path = os.path.join(out, "resnet18_autocast_bf16.pt2")
    torch.export.save(ep, path)
    strip_weights(path)
    print(path, os.path.getsize(path), "bytes")


if __name__ == "__main__":
    # gen_autocast_pt2.py [OUT_DIR [ONLY_NAME]]: ONLY_NAME writes that one region archive only.
    main(sys.argv[1] if len(sys.argv) > 1 else ".", sys.argv[2] if len(sys.argv) > 2 else None)
