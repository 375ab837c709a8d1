# Probe of PyTorch's dtype behaviour behind dtypeflow's rules; run under each version and compare:
#   /usr/bin/python3 scripts/probes/lerp_isin.py   (1.13, host)
#   scripts/torch214-root.sh run python3 scripts/probes/lerp_isin.py   (2.14)
import torch
def t(f):
    try: r=f(); return str(r.dtype)[6:]
    except Exception as e: return "E:"+str(e).split('\n')[0][:50]
D=[torch.bool,torch.uint8,torch.int32,torch.float16,torch.bfloat16,torch.float32,torch.float64,torch.complex64]
for s in D:
  for w in D:
    print("lerp", str(s)[6:], str(w)[6:], t(lambda: torch.lerp(torch.ones(2,dtype=s), torch.ones(2,dtype=s), torch.ones(2,dtype=w))), t(lambda: torch.ones(2,dtype=s).lerp_(torch.ones(2,dtype=s), torch.ones(2,dtype=w))), t(lambda: torch.lerp(torch.ones(2,dtype=s), torch.ones(2,dtype=s), torch.ones([],dtype=w))))
for a in D:
  for b in D:
    print("isin", str(a)[6:], str(b)[6:], t(lambda: torch.isin(torch.ones(2,dtype=a), torch.ones(3,dtype=b))))
