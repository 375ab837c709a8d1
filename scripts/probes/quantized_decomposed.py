# quantized_decomposed::* over dtypes (src/ops/families/quantized_decomposed.cpp), under 2.14:
#   scripts/torch214-root.sh run python3 scripts/probes/quantized_decomposed.py
import torch, torch.ao.quantization.fx._decomposed
Q=torch.ops.quantized_decomposed
dts=[torch.bool,torch.uint8,torch.int8,torch.int16,torch.int32,torch.int64,torch.float16,torch.bfloat16,torch.float32,torch.float64,torch.complex64,torch.uint16,torch.float8_e5m2,torch.float8_e4m3fn]
def t(d,*s): return torch.ones(*s).to(d)
def run(name,f):
    out=[]
    for d in dts:
        try: r=f(d); out.append(f"{str(d)[6:]}:{str(r.dtype)[6:]}/{r.dim()}")
        except Exception as e: out.append(f"{str(d)[6:]}:ERR({type(e).__name__}:{str(e)[:60]})")
    print(name); print("   "+"\n   ".join(out))
run("qpt input=d dtype=int8", lambda d: Q.quantize_per_tensor(t(d,2,3),0.1,0,-128,127,torch.int8))
run("qpt input=f32 dtype=d", lambda d: Q.quantize_per_tensor(t(torch.float32,2,3),0.1,0,0,1,d))
run("qpt input=f32 dtype=d 0dim", lambda d: Q.quantize_per_tensor(t(torch.float32),0.1,0,0,1,d))
run("qpt.tensor scale=d", lambda d: Q.quantize_per_tensor.tensor(t(torch.float32,2,3),t(d),torch.tensor(0),-128,127,torch.int8))
run("dqpt input=d dtype=d", lambda d: Q.dequantize_per_tensor(t(d,2,3),0.1,0,0,1,d))
run("dqpt input=int8 dtype=d", lambda d: Q.dequantize_per_tensor(t(torch.int8,2,3),0.1,0,0,1,d))
run("dqpt input=int8 out_dtype=d", lambda d: Q.dequantize_per_tensor(t(torch.int8,2,3),0.1,0,-128,127,torch.int8,out_dtype=d))
run("dqpt.tensor input=int8 scale=d", lambda d: Q.dequantize_per_tensor.tensor(t(torch.int8,2,3),t(d),torch.tensor(0),-128,127,torch.int8))
run("qpc input=d", lambda d: Q.quantize_per_channel(t(d,2,3),torch.ones(2),torch.zeros(2,dtype=torch.long),0,-128,127,torch.int8))
run("qpc dtype=d", lambda d: Q.quantize_per_channel(t(torch.float32,2,3),torch.ones(2),torch.zeros(2,dtype=torch.long),0,0,1,d))
run("qpc scales=d", lambda d: Q.quantize_per_channel(t(torch.float32,2,3),t(d,2),torch.zeros(2,dtype=torch.long),0,-128,127,torch.int8))
run("dqpc dtype=d", lambda d: Q.dequantize_per_channel(t(d,2,3),torch.ones(2),torch.zeros(2,dtype=torch.long),0,0,1,d))
run("dqpc out_dtype=d", lambda d: Q.dequantize_per_channel(t(torch.int8,2,3),torch.ones(2),torch.zeros(2,dtype=torch.long),0,-128,127,torch.int8,out_dtype=d))
run("dqpc scales=d", lambda d: Q.dequantize_per_channel(t(torch.int8,2,3),t(d,2),torch.zeros(2,dtype=torch.long),0,-128,127,torch.int8))
run("qpt qmin out of range", lambda d: Q.quantize_per_tensor(t(torch.float32,2,3),0.1,0,-300,127,torch.int8))
run("qpc axis 5", lambda d: Q.quantize_per_channel(t(torch.float32,2,3),torch.ones(2),torch.zeros(2,dtype=torch.long),5,-128,127,torch.int8))
