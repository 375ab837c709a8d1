# torch.export asserts, dep tokens, _is_all_true/_is_any_true, _lazy_clone, _reshape_copy under PyTorch 2.14:
#   scripts/torch214-root.sh run python3 scripts/probes/export_asserts.py
import torch
A=torch.ops.aten
def oc(f):
  try:
    r=f()
    if r is None: return 'None'
    return str(r.dtype)[6:]+':r'+str(r.dim())+str(tuple(r.shape))
  except Exception as e: return 'ERR('+str(e).splitlines()[0][:60]+')'
print('dep', oc(lambda: A._make_dep_token()), oc(lambda: A._make_dep_token(dtype=torch.int64)))
print('fas', oc(lambda: A._functional_assert_scalar(True,'m',A._make_dep_token())), oc(lambda: A._functional_assert_scalar(2,'m',torch.ones(3,dtype=torch.int8))))
print('fscr', oc(lambda: A._functional_sym_constrain_range(3,0,5,torch.ones(3,dtype=torch.int8))), oc(lambda: A._functional_sym_constrain_range_for_size(3,0,5,torch.ones(3,dtype=torch.int8))))
print('faa', oc(lambda: A._functional_assert_async.msg(torch.tensor(True),'m',torch.ones(3,dtype=torch.int8))))
for d in [torch.bool,torch.int64,torch.float32,torch.complex64]:
  print(d, 'aa', oc(lambda: A._assert_async.msg(torch.ones((),dtype=d),'m')), oc(lambda: A._assert_async.msg(torch.ones((2,),dtype=d),'m')),
   'faa', oc(lambda: A._functional_assert_async.msg(torch.ones((),dtype=d),'m',torch.ones(3,dtype=torch.int8))),
   'all', oc(lambda: A._is_all_true(torch.ones((2,),dtype=d))), oc(lambda: A._is_all_true(torch.ones((),dtype=d))), 'any', oc(lambda: A._is_any_true(torch.ones((2,),dtype=d))),
   'lazy', oc(lambda: A._lazy_clone(torch.ones((2,),dtype=d))), 'resh', oc(lambda: A._reshape_copy(torch.ones((2,3),dtype=d),[3,2])))
print(oc(lambda: A._assert_scalar(0,'m')), oc(lambda: A.sym_constrain_range(3,min=0,max=5)), oc(lambda: A._print('x')))
