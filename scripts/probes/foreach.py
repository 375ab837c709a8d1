# _foreach_* ops against the op they loop over, per element, under PyTorch 2.14:
#   scripts/torch214-root.sh run python3 scripts/probes/foreach.py
# Each line: op, how many dtype cases differ from the base op (dtype or raise), of how many;
# then _foreach_powsum's dtypes next to linalg.vector_norm's (powsum has no base op).
import torch, itertools
A=torch.ops.aten
dts=[torch.bool,torch.uint8,torch.int8,torch.int32,torch.int64,torch.float16,torch.bfloat16,torch.float32,torch.float64,torch.complex64,torch.complex128]
def T(d,shape=(2,)): return torch.ones(shape,dtype=d)
def outc(f):
  try:
    r=f()
    if isinstance(r,(list,tuple)): return tuple(str(x.dtype)[6:] for x in r)
    return str(r.dtype)[6:] if r is not None else 'None'
  except Exception as e: return 'ERR:'+str(e).splitlines()[0][:70]
def cmp(name, fe, base, combos):
  bad=0
  for cb in combos:
    a=outc(lambda: fe(*cb)); b=outc(lambda: base(*cb))
    if isinstance(b,str) and not b.startswith('ERR'): b=(b,)
    if (a.startswith('ERR') if isinstance(a,str) else False) and (b.startswith('ERR') if isinstance(b,str) else False): continue
    if a!=b:
      bad+=1
      if bad<=4: print('  DIFF',name,[str(x)[6:] if isinstance(x,torch.dtype) else x for x in cb],a,b)
  print(name,'diffs',bad,'of',len(combos))
P=list(itertools.product(dts,dts))
nums=[True,2,2.5,1j]
cmp('add.Tensor', lambda a,b: A._foreach_add.Tensor([T(a)],T(b,()),alpha=1), lambda a,b: A.add.Tensor(T(a),T(b,()),alpha=1), P)
cmp('add.Tensor r1other', lambda a,b: A._foreach_add.Tensor([T(a)],T(b)), lambda a,b: A.add.Tensor(T(a),T(b)), [(torch.float32,torch.float32)])
cmp('mul.Tensor', lambda a,b: A._foreach_mul.Tensor([T(a)],T(b,())), lambda a,b: A.mul.Tensor(T(a),T(b,())), P)
cmp('div.Tensor', lambda a,b: A._foreach_div.Tensor([T(a)],T(b,())), lambda a,b: A.div.Tensor(T(a),T(b,())), P)
cmp('clamp_max.List', lambda a,b: A._foreach_clamp_max.List([T(a)],[T(b)]), lambda a,b: A.clamp_max.Tensor(T(a),T(b)), P)
cmp('clamp_min.List', lambda a,b: A._foreach_clamp_min.List([T(a)],[T(b)]), lambda a,b: A.clamp_min.Tensor(T(a),T(b)), P)
PN=list(itertools.product(dts,nums))
cmp('clamp_max.Scalar', lambda a,s: A._foreach_clamp_max.Scalar([T(a)],s), lambda a,s: A.clamp_max(T(a),s), PN)
cmp('clamp_min.Scalar', lambda a,s: A._foreach_clamp_min.Scalar([T(a)],s), lambda a,s: A.clamp_min(T(a),s), PN)
cmp('clamp_max.ScalarList', lambda a,s: A._foreach_clamp_max.ScalarList([T(a)],[s]), lambda a,s: A.clamp_max(T(a),s), PN)
cmp('maximum.Scalar=clamp_min', lambda a,s: A._foreach_maximum.Scalar([T(a)],s), lambda a,s: A.clamp_min(T(a),s), PN)
cmp('minimum.ScalarList=clamp_max', lambda a,s: A._foreach_minimum.ScalarList([T(a)],[s]), lambda a,s: A.clamp_max(T(a),s), PN)
cmp('pow.List', lambda a,b: A._foreach_pow.List([T(a)],[T(b)]), lambda a,b: A.pow.Tensor_Tensor(T(a),T(b)), P)
cmp('pow.Scalar', lambda a,s: A._foreach_pow.Scalar([T(a)],s), lambda a,s: A.pow.Tensor_Scalar(T(a),s), PN)
cmp('pow.ScalarList', lambda a,s: A._foreach_pow.ScalarList([T(a)],[s]), lambda a,s: A.pow.Tensor_Scalar(T(a),s), PN)
cmp('pow.ScalarAndTensor', lambda a,s: A._foreach_pow.ScalarAndTensor(s,[T(a)]), lambda a,s: A.pow.Scalar(s,T(a)), PN)
cmp('lerp.Scalar', lambda a,b,s: A._foreach_lerp.Scalar([T(a)],[T(b)],s), lambda a,b,s: A.lerp.Scalar(T(a),T(b),s), [(a,b,s) for a,b in P for s in nums])
cmp('lerp.ScalarList', lambda a,b,s: A._foreach_lerp.ScalarList([T(a)],[T(b)],[s]), lambda a,b,s: A.lerp.Scalar(T(a),T(b),s), [(a,b,s) for a,b in P for s in nums])
cmp('lerp.List', lambda a,b,c: A._foreach_lerp.List([T(a)],[T(b)],[T(c)]), lambda a,b,c: A.lerp.Tensor(T(a),T(b),T(c)), [(a,b,c) for a in dts for b in dts for c in dts[5:9]])
cmp('rsqrt', lambda a: A._foreach_rsqrt([T(a)]), lambda a: A.rsqrt(T(a)), [(a,) for a in dts])
cmp('sign', lambda a: A._foreach_sign([T(a)]), lambda a: A.sign(T(a)), [(a,) for a in dts])
cmp('max', lambda a: A._foreach_max([T(a)]), lambda a: A.max(T(a)), [(a,) for a in dts])
cmp('clone', lambda a: A._foreach_clone([T(a)]), lambda a: A.clone(T(a)), [(a,) for a in dts])
cmp('mm', lambda a,b: A._foreach_mm([T(a,(2,2))],[T(b,(2,2))]), lambda a,b: A.mm(T(a,(2,2)),T(b,(2,2))), P)
cmp('copy', lambda a,b: A._foreach_copy([T(a)],[T(b)]), lambda a,b: A.copy(T(a),T(b)), P)
for nm,f in [('addcdiv.Tensor',A._foreach_addcdiv.Tensor),('addcmul.Tensor',A._foreach_addcmul.Tensor)]:
  base=A.addcdiv if 'div' in nm else A.addcmul
  for sd in dts:
    cmp(nm+' scalars='+str(sd), lambda a,b: f([T(a)],[T(b)],[T(b)],T(sd,(1,))), lambda a,b: base(T(a),T(b),T(b),value=T(sd,()).item()), P)
print(outc(lambda: A._foreach_addcmul.Tensor([T(torch.float32)],[T(torch.float32)],[T(torch.float32)],T(torch.float32,()))))
for d in dts:
  for od in [None, torch.float64, torch.int64]:
    print('powsum',d,od,outc(lambda: A._foreach_powsum.Scalar([T(d)],2,dtype=od)), outc(lambda: A._foreach_powsum.Scalar([T(d)],1.5,dtype=od)), outc(lambda: A.linalg_vector_norm(T(d),2,dtype=od)))
