# Probe of PyTorch's dtype behaviour behind dtypeflow's rules; run under each version and compare:
#   /usr/bin/python3 scripts/probes/linear_bias.py   (1.13, host)
#   scripts/torch214-root.sh run python3 scripts/probes/linear_bias.py   (2.14)
import torch
def t(f):
    try: r=f(); return str(r.dtype)[6:]
    except Exception as e: return "ERR:"+str(e).split('\n')[0][:70]
for ir in [1,2,3,4]:
  for wd,bd in [(torch.float32,torch.float64),(torch.float64,torch.float32),(torch.int64,torch.int32),(torch.int32,torch.int64),(torch.float32,torch.int64),(torch.int64, torch.float32),(torch.float32,torch.float16)]:
    for br in [0,1]:
      x=torch.ones([2]*ir,dtype=wd); w=torch.ones([2,2],dtype=wd); b=torch.ones([2]*br,dtype=bd)
      print(ir, wd, bd, br, t(lambda: torch.nn.functional.linear(x,w,b)))
  x=torch.ones([2]*ir); w=torch.ones([2]); print(ir, "w1", t(lambda: torch.nn.functional.linear(x,w,torch.ones([],dtype=torch.float64))))
