# linalg__powsum and _foreach_powsum dtypes under PyTorch 2.14 (ops/families/reductions.cpp powsum):
#   scripts/torch214-root.sh run python3 scripts/probes/powsum.py
import torch
A=torch.ops.aten
dts=[torch.bool,torch.uint8,torch.int64,torch.float16,torch.bfloat16,torch.float32,torch.float64,torch.complex64,torch.complex128]
def oc(f):
  try:
    r=f()
    if isinstance(r,(list,tuple)): return '['+','.join(str(x.dtype)[6:]+':r'+str(x.dim()) for x in r)+']'
    return str(r.dtype)[6:]+':r'+str(r.dim())
  except Exception as e: return 'ERR('+str(e).splitlines()[0][:60]+')'
for d in dts:
  for od in [None, torch.float16, torch.float32, torch.float64, torch.complex64, torch.int64]:
    for o in [2, 2.5]:
      print(str(d)[6:], od, o, 'fe', oc(lambda: A._foreach_powsum.Scalar([torch.ones(2,2,dtype=d)],o,dtype=od)), 'r0', oc(lambda: A._foreach_powsum.Scalar([torch.ones((),dtype=d)],o,dtype=od)),
        'la', oc(lambda: A.linalg__powsum(torch.ones(2,2,dtype=d),o,dtype=od)))
print(oc(lambda: A._foreach_powsum.Scalar([torch.ones(2)],1j)))
print(oc(lambda: A.linalg__powsum(torch.ones(2,3),2,[1],True)))
