# Probe of PyTorch's dtype behaviour behind dtypeflow's rules; run under each version and compare:
#   /usr/bin/python3 scripts/probes/norms.py   (1.13, host)
#   scripts/torch214-root.sh run python3 scripts/probes/norms.py   (2.14)
import torch
def t(f):
    try: r=f(); return str(r.dtype)[6:]
    except Exception as e: return "ERR:"+str(e).split('\n')[0][:90]
x=torch.ones(2,2)
print("norm bool dtype", t(lambda: torch.norm(torch.ones(2,dtype=torch.bool), 2, dtype=torch.float32)))
print("norm int dtype", t(lambda: torch.norm(torch.ones(2,dtype=torch.int32), 2, dtype=torch.float32)))
print("norm f16 dtype f32", t(lambda: torch.norm(torch.ones(2,dtype=torch.float16), 2, dtype=torch.float32)))
print("norm f32 dtype f16", t(lambda: torch.norm(torch.ones(2,dtype=torch.float32), 2, dtype=torch.float16)))
print("norm f32 dtype c64", t(lambda: torch.norm(torch.ones(2,dtype=torch.float32), 2, dtype=torch.complex64)))
print("norm c64 dtype f32", t(lambda: torch.norm(torch.ones(2,dtype=torch.complex64), 2, dtype=torch.float32)))
print("norm c64 dtype c128", t(lambda: torch.norm(torch.ones(2,dtype=torch.complex64), 2, dtype=torch.complex128)))
print("norm p True", t(lambda: torch.norm(torch.ones(2), True)))
print("norm int p True", t(lambda: torch.norm(torch.ones(2,dtype=torch.int32), True)))
print("norm int p 2", t(lambda: torch.norm(torch.ones(2,dtype=torch.int32), 2)))
print("dist p True", t(lambda: torch.dist(torch.ones(2), torch.ones(2), True)))
print("dist u8 f16 p True", t(lambda: torch.dist(torch.ones(2, dtype=torch.uint8), torch.ones(2, dtype=torch.float16), True)))
for d in [torch.float8_e5m2, torch.float16, torch.bfloat16]:
  for o in ['fro','nuc',1,2,float('inf')]:
    print("matrix_norm", d, o, t(lambda: torch.linalg.matrix_norm(torch.ones(2,2,dtype=d), o)))
  print("vector_norm", d, t(lambda: torch.linalg.vector_norm(torch.ones(2,2,dtype=d))))
  print("linalg_norm", d, t(lambda: torch.linalg.norm(torch.ones(2,2,dtype=d))))
for dd in [torch.int32, torch.float16, torch.float64, torch.complex64, torch.bool]:
  print("nanmean f16 dtype", dd, t(lambda: torch.nanmean(torch.ones(2,dtype=torch.float16), dtype=dd)))
  print("nanmean f32 dtype", dd, t(lambda: torch.nanmean(torch.ones(2,dtype=torch.float32), dtype=dd)))
print("nanmean c64", t(lambda: torch.nanmean(torch.ones(2,dtype=torch.complex64))))
