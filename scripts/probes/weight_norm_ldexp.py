# Probe of PyTorch's dtype behaviour behind dtypeflow's rules; run under each version and compare:
#   /usr/bin/python3 scripts/probes/weight_norm_ldexp.py   (1.13, host)
#   scripts/torch214-root.sh run python3 scripts/probes/weight_norm_ldexp.py   (2.14)
import torch
A=torch.ops.aten
def t(f):
    try: r=f(); return [ (str(x.dtype)[6:], x.dim()) for x in (r if isinstance(r,(tuple,list)) else [r])]
    except Exception as e: return "E:"+str(e).split('\n')[0][:60]
D=[torch.bool,torch.uint8,torch.int32,torch.int64,torch.float16,torch.bfloat16,torch.float32,torch.float64,torch.complex64]
for v in D:
  for g in [torch.float16, torch.float32, torch.float64, torch.bfloat16]:
    print("wni", str(v)[6:], str(g)[6:], t(lambda: A._weight_norm_interface(torch.ones(2,2,dtype=v), torch.ones(2,1,dtype=g), 0)))
# _weight_norm: the fused kernel (dim 0 or the last) or the composite (any other dim, -1: a 0-dim norm)
for v in D:
  for g in D:
    for dim, gs in [(0, (2, 1)), (1, (1, 3)), (-1, ())]:
      print("wn", str(v)[6:], str(g)[6:], dim, t(lambda: A._weight_norm(torch.ones(2,3,dtype=v), torch.ones(*gs,dtype=g), dim)))
F8=[d for d in (getattr(torch, n, None) for n in ["float8_e4m3fn","float8_e5m2"]) if d is not None]
for a in D + F8:
  for b in D:
    print("ldexp", str(a)[6:], str(b)[6:], t(lambda: torch.ldexp(torch.ones(2,dtype=a), torch.ones(2,dtype=b))), t(lambda: torch.ones(2,dtype=a).ldexp_(torch.ones(2,dtype=b))))
