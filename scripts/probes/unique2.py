# Probe of PyTorch's dtype behaviour behind dtypeflow's rules; run under each version and compare:
#   /usr/bin/python3 scripts/probes/unique2.py   (1.13, host)
#   scripts/torch214-root.sh run python3 scripts/probes/unique2.py   (2.14)
import torch
A=torch.ops.aten
for shape in [[], [2,2], [3]]:
  for inv in [False, True]:
    for cnt in [False, True]:
      for srt in [False, True]:
        o=A._unique2(torch.ones(shape), srt, inv, cnt)
        print(shape, "sorted",srt, "inv",inv, "cnt",cnt, [ (str(t.dtype)[6:], t.dim()) for t in o])
