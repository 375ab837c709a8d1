# Probe of PyTorch's dtype behaviour behind dtypeflow's rules; run under each version and compare:
#   /usr/bin/python3 scripts/probes/conv_bias.py   (1.13, host)
#   scripts/torch214-root.sh run python3 scripts/probes/conv_bias.py   (2.14)
import torch
D=[torch.bool,torch.uint8,torch.int8,torch.int16,torch.int32,torch.int64,torch.float16,torch.bfloat16,torch.float32,torch.float64,torch.complex64,torch.complex128]
def run(f):
    try: f(); return "."
    except Exception as e:
        m=str(e)
        if "bias" in m: return "B"
        return "k"
def mk(shape,d): return torch.ones(shape,dtype=d)
ops={
 'conv1d': lambda d,b: torch.conv1d(mk([1,2,4],d), mk([2,2,1],d), mk([2],b)),
 'conv2d': lambda d,b: torch.conv2d(mk([1,2,4,4],d), mk([2,2,1,1],d), mk([2],b)),
 'conv3d': lambda d,b: torch.conv3d(mk([1,2,4,4,4],d), mk([2,2,1,1,1],d), mk([2],b)),
 'conv1d_small': lambda d,b: torch.conv1d(mk([2,2],d), mk([2,2,1],d), mk([2],b)),
 'convT1d': lambda d,b: torch.conv_transpose1d(mk([1,2,4],d), mk([2,2,1],d), mk([2],b)),
 'convT2d': lambda d,b: torch.conv_transpose2d(mk([1,2,4,4],d), mk([2,2,1,1],d), mk([2],b)),
 'convolution_T': lambda d,b: torch.convolution(mk([1,2,4,4],d), mk([2,2,1,1],d), mk([2],b), [1,1],[0,0],[1,1],True,[0,0],1),
 'convolution_F': lambda d,b: torch.convolution(mk([1,2,4,4],d), mk([2,2,1,1],d), mk([2],b), [1,1],[0,0],[1,1],False,[0,0],1),
}
for n,f in ops.items():
    print(n)
    for d in D:
        print("  %-15s %s" % (str(d)[6:], "".join(run(lambda: f(d,b)) for b in D)))
