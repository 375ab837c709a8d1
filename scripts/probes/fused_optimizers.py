# The CPU fused optimizer steps' dtype checks under PyTorch 2.14 (ops/families/fused_optimizers.cpp):
#   scripts/torch214-root.sh run python3 scripts/probes/fused_optimizers.py
import torch
A=torch.ops.aten
dts=[torch.bool,torch.uint8,torch.int64,torch.float16,torch.bfloat16,torch.float32,torch.float64,torch.complex64]
def T(d,s=(2,)): return torch.ones(s,dtype=d)
def oc(f):
  try:
    r=f()
    if r is None: return 'ok'
    return 'ok:'+','.join('['+','.join(str(x.dtype)[6:]+'r'+str(x.dim()) for x in l)+']' for l in r)
  except Exception as e: return 'ERR('+str(e).splitlines()[0][:70]+')'
kw=dict(lr=0.1,beta1=0.9,beta2=0.99,weight_decay=0.0,eps=1e-8,amsgrad=False,maximize=False)
print('== adam: param dtype p, grad g (others = p), steps float32')
for p in dts:
  print(str(p)[6:], 'func', oc(lambda: A._fused_adamw([T(p)],[T(p)],[T(p)],[T(p)],[],[T(torch.float32,())],**kw)),
        'inplace', oc(lambda: A._fused_adamw_([T(p)],[T(p)],[T(p)],[T(p)],[],[T(torch.float32,())],**kw)))
print('== mixed: p float32, one other list different')
for d in dts:
  print(str(d)[6:], 'grad', oc(lambda: A._fused_adamw_([T(torch.float32)],[T(d)],[T(torch.float32)],[T(torch.float32)],[],[T(torch.float32,())],**kw)),
   'exp_avg', oc(lambda: A._fused_adamw_([T(torch.float32)],[T(torch.float32)],[T(d)],[T(torch.float32)],[],[T(torch.float32,())],**kw)),
   'steps', oc(lambda: A._fused_adamw_([T(torch.float32)],[T(torch.float32)],[T(torch.float32)],[T(torch.float32)],[],[T(d,())],**kw)),
   'steps_r1', oc(lambda: A._fused_adamw_([T(torch.float32)],[T(torch.float32)],[T(torch.float32)],[T(torch.float32)],[],[T(d,(1,))],**kw)),
   'gscale', oc(lambda: A._fused_adamw_([T(torch.float32)],[T(torch.float32)],[T(torch.float32)],[T(torch.float32)],[],[T(torch.float32,())],grad_scale=T(d,()),**kw)),
   'finf', oc(lambda: A._fused_adamw_([T(torch.float32)],[T(torch.float32)],[T(torch.float32)],[T(torch.float32)],[],[T(torch.float32,())],found_inf=T(d,()),**kw)),
   'lrT', oc(lambda: A._fused_adamw_.tensor_lr([T(torch.float32)],[T(torch.float32)],[T(torch.float32)],[T(torch.float32)],[],[T(torch.float32,())],**dict(kw,lr=T(d,())))))
print('amsgrad empty max', oc(lambda: A._fused_adamw_([T(torch.float32)],[T(torch.float32)],[T(torch.float32)],[T(torch.float32)],[],[T(torch.float32,())],**dict(kw,amsgrad=True))))
print('amsgrad', oc(lambda: A._fused_adamw([T(torch.float32)],[T(torch.float32)],[T(torch.float32)],[T(torch.float32)],[T(torch.float32)],[T(torch.float32,())],**dict(kw,amsgrad=True))))
print('len mismatch', oc(lambda: A._fused_adamw_([T(torch.float32)],[T(torch.float32),T(torch.float32)],[T(torch.float32)],[T(torch.float32)],[],[T(torch.float32,())],**kw)))
print('rank0 param', oc(lambda: A._fused_adamw_([T(torch.float32,())],[T(torch.float32,())],[T(torch.float32,())],[T(torch.float32,())],[],[T(torch.float32,())],**kw)))
print('grad shape mismatch', oc(lambda: A._fused_adamw_([T(torch.float32)],[T(torch.float32,())],[T(torch.float32)],[T(torch.float32)],[],[T(torch.float32,())],**kw)))
sk=dict(weight_decay=0.0,momentum=0.9,lr=0.1,dampening=0.0,nesterov=False,maximize=False,is_first_step=False)
print('== sgd')
for p in dts:
  print(str(p)[6:], 'func', oc(lambda: A._fused_sgd([T(p)],[T(p)],[T(p)],**sk)), 'nomom', oc(lambda: A._fused_sgd([T(p)],[T(p)],[],**dict(sk,momentum=0.0))),
   'gradf32', oc(lambda: A._fused_sgd_([T(p)],[T(torch.float32)],[T(p)],**sk)), 'momf32', oc(lambda: A._fused_sgd_([T(p)],[T(p)],[T(torch.float32)],**sk)),
   'lrT', oc(lambda: A._fused_sgd_.tensor_lr([T(torch.float32)],[T(torch.float32)],[T(torch.float32)],**dict(sk,lr=T(p,())))))
ak=dict(lr=0.1,lr_decay=0.0,weight_decay=0.0,eps=1e-10,maximize=False)
print('== adagrad')
for p in dts:
  print(str(p)[6:], 'func', oc(lambda: A._fused_adagrad([T(p)],[T(p)],[T(p)],[T(torch.float32,())],**ak)), 'steps', oc(lambda: A._fused_adagrad_([T(torch.float32)],[T(torch.float32)],[T(torch.float32)],[T(p,())],**ak)),
  'sums', oc(lambda: A._fused_adagrad_([T(torch.float32)],[T(torch.float32)],[T(p)],[T(torch.float32,())],**ak)),
  'lrT', oc(lambda: A._fused_adagrad_.tensor_lr([T(torch.float32)],[T(torch.float32)],[T(torch.float32)],[T(torch.float32,())],**dict(ak,lr=T(p,())))))
f16,f32,f64,bf=torch.float16,torch.float32,torch.float64,torch.bfloat16
kw=dict(lr=0.1,beta1=0.9,beta2=0.99,weight_decay=0.0,eps=1e-8,amsgrad=False,maximize=False)
for p in [f16,bf,f64]:
  for s in [f32,p]:
    print('adam p',p,'gs',s, oc(lambda: A._fused_adam_([T(p)],[T(p)],[T(p)],[T(p)],[],[T(f32,())],grad_scale=T(s,()),**kw)), 'finf', oc(lambda: A._fused_adam_([T(p)],[T(p)],[T(p)],[T(p)],[],[T(f32,())],found_inf=T(s,()),**kw)))
print('adam nonamsgrad with max list', oc(lambda: A._fused_adam_([T(f32)],[T(f32)],[T(f32)],[T(f32)],[T(torch.int64)],[T(f32,())],**kw)))
print('adam steps len mismatch', oc(lambda: A._fused_adam_([T(f32)],[T(f32)],[T(f32)],[T(f32)],[],[T(f32,()),T(f32,())],**kw)))
print('adam empty', oc(lambda: A._fused_adam_([],[],[],[],[],[],**kw)))
print('adam gs rank1', oc(lambda: A._fused_adam_([T(f32)],[T(f32)],[T(f32)],[T(f32)],[],[T(f32,())],grad_scale=T(f32,(1,)),**kw)))
print('adam gs rank1 n2', oc(lambda: A._fused_adam_([T(f32)],[T(f32)],[T(f32)],[T(f32)],[],[T(f32,())],grad_scale=T(f32,(2,)),**kw)))
print('adam lr rank1', oc(lambda: A._fused_adam_.tensor_lr([T(f32)],[T(f32)],[T(f32)],[T(f32)],[],[T(f32,())],**dict(kw,lr=T(f32,(1,))))))
print('adam lr rank1 n2', oc(lambda: A._fused_adam_.tensor_lr([T(f32)],[T(f32)],[T(f32)],[T(f32)],[],[T(f32,())],**dict(kw,lr=T(f32,(2,))))))
print('adam steps rank1 n2', oc(lambda: A._fused_adam_([T(f32)],[T(f32)],[T(f32)],[T(f32)],[],[T(f32,(2,))],**kw)))
print('adam steps complex', oc(lambda: A._fused_adam_([T(f32)],[T(f32)],[T(f32)],[T(f32)],[],[T(torch.complex64,())],**kw)))
print('adam two params different dtypes', oc(lambda: A._fused_adam_([T(f32),T(f64)],[T(f32),T(f64)],[T(f32),T(f64)],[T(f32),T(f64)],[],[T(f32,()),T(f32,())],**kw)))
sk=dict(weight_decay=0.0,momentum=0.9,lr=0.1,dampening=0.0,nesterov=False,maximize=False,is_first_step=False)
print('sgd mom empty', oc(lambda: A._fused_sgd_([T(f32)],[T(f32)],[],**sk)))
print('sgd mom0 nonempty', oc(lambda: A._fused_sgd_([T(f32)],[T(f32)],[T(f64)],**dict(sk,momentum=0.0))))
for p in [f16,f64]:
  print('sgd gs', p, oc(lambda: A._fused_sgd_([T(p)],[T(p)],[T(p)],grad_scale=T(f32,()),**sk)), oc(lambda: A._fused_sgd_([T(p)],[T(p)],[T(p)],found_inf=T(p,()),**sk)))
ak=dict(lr=0.1,lr_decay=0.0,weight_decay=0.0,eps=1e-10,maximize=False)
for p in [f16,f64]:
  print('adagrad sums=f32 p',p, oc(lambda: A._fused_adagrad_([T(p)],[T(p)],[T(f32)],[T(f32,())],**ak)), 'gs', oc(lambda: A._fused_adagrad_([T(p)],[T(p)],[T(p)],[T(f32,())],grad_scale=T(f32,()),**ak)))
print('adagrad.tensor_lr func', oc(lambda: A._fused_adagrad.tensor_lr([T(f32)],[T(f32)],[T(f32)],[T(f32,())],**dict(ak,lr=T(f32,())))))
o=[T(torch.int64)]*4
print('adagrad.out', oc(lambda: A._fused_adagrad.out([T(f32)],[T(f32)],[T(f32)],[T(f32,())],out=o,**ak)))
o=[T(torch.int64)]*3
print('sgd.out int out', oc(lambda: A._fused_sgd.out([T(f32)],[T(f32)],[T(f32)],out=o,**sk)))
print('sgd.out short', oc(lambda: A._fused_sgd.out([T(f32)],[T(f32)],[T(f32)],out=[T(f32)],**sk)))
print('sgd.out complex', oc(lambda: A._fused_sgd.out([T(f32)],[T(f32)],[T(f32)],out=[T(torch.complex64)]*3,**sk)))
f32=torch.float32
sk=dict(weight_decay=0.0,momentum=0.9,lr=0.1,dampening=0.0,nesterov=False,maximize=False,is_first_step=False)
for od in [torch.int64, torch.complex64, torch.bool, torch.float64]:
  try: A._fused_sgd.out([T(f32)],[T(f32)],[T(f32)],out=[T(od)],**sk); print(od,'ok')
  except Exception as e: print(od, str(e)[:100])
try: A._fused_sgd.out([T(f32),T(f32)],[T(f32)]*2,[T(f32)]*2,out=[T(f32)],**sk); print('n2 out1 ok')
except Exception as e: print('n2 out1', str(e)[:100])
