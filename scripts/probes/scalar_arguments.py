# Probe of PyTorch's dtype behaviour behind dtypeflow's rules; run under each version and compare:
#   /usr/bin/python3 scripts/probes/scalar_arguments.py   (1.13, host)
#   scripts/torch214-root.sh run python3 scripts/probes/scalar_arguments.py   (2.14)
import torch
def t(f):
    try: r=f(); return "ok"
    except Exception as e: return "ERR"
A=torch.ops.aten
V=[70000, 1e39, 3.395e38, -0.5, 255.5, 256, 300, -256, 1j, float('inf'), 1e300]
c=torch.ones(2,dtype=torch.bool)
for d in [torch.float16, torch.bfloat16, torch.float32, torch.uint8, torch.int8, torch.float8_e4m3fn, torch.float8_e4m3fnuz, torch.complex32, torch.uint16]:
  print(str(d)[6:])
  print("  whereO", [v for v in V if t(lambda: A.where.ScalarOther(c, torch.ones(2,dtype=d), v))=="ERR"])
  print("  whereS", [v for v in V if t(lambda: A.where.ScalarSelf(c, v, torch.ones(2,dtype=d)))=="ERR"])
  print("  scalar_tensor", [v for v in V if t(lambda: A.scalar_tensor(v, dtype=d))=="ERR"])
  print("  threshold", [v for v in V if t(lambda: A.threshold(torch.ones(2,dtype=d), v, 0.5))=="ERR"])
  print("  threshold_bw", [v for v in V if t(lambda: A.threshold_backward(torch.ones(2,dtype=d), torch.ones(2,dtype=d), v))=="ERR"])
import torch
def t(f):
    try: r=f(); return "ok"
    except Exception as e: return "ERR"
A=torch.ops.aten
for d in [torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.uint8, torch.int8, torch.int64, torch.float8_e4m3fn, torch.float8_e5m2, torch.float8_e8m0fnu, torch.complex32, torch.complex64, torch.bool, torch.uint16]:
  print(str(d)[6:], [ (v, t(lambda: A.fill.Scalar(torch.ones([],dtype=d), v)), t(lambda: A.fill.Scalar(torch.ones([2],dtype=d), v))) for v in [70000, 1e39, 3.395e38, -0.5, 255.5, 256, 1j, 0.0, float('inf'), float('nan'), 1e300]])
