# Wrapped-number-only arithmetic: the dtype of torch.OP(number, number) per PyTorch version.
# Run: /usr/bin/python3 scripts/probes/wrapped_numbers.py (1.13); scripts/torch214-root.sh run python3 scripts/probes/wrapped_numbers.py (2.14).
import torch
def t(f):
    try: return str(f().dtype).replace('torch.','')
    except Exception as e: return 'ERR '+type(e).__name__
cases = {
 'add(5.0,1.5)': lambda: torch.add(5.0,1.5),
 'mul(2,3)': lambda: torch.mul(2,3),
 'add(5.0,1)': lambda: torch.add(5.0,1),
 'add(True,1.5)': lambda: torch.add(True,1.5),
 'mul(2,1j)': lambda: torch.mul(2,1j),
 'where(c,1.0,2)': lambda: torch.where(torch.tensor(True),1.0,2),
 'where(c,1.0,2.0)': lambda: torch.where(torch.tensor(True),1.0,2.0),
 'pow(2.0,3)': lambda: torch.pow(2.0, 3),
 'atan2(1.0,2.0)': lambda: torch.atan2(torch.tensor(1.0,dtype=torch.float64),2.0),
 'maximum(1.0,2.0)': lambda: torch.maximum(1.0, 2.0) ,
 'eq(1.0,2)': lambda: torch.eq(1.0, 2),
 'div(1,2)': lambda: torch.div(1,2),
 'true_divide(1.0,2.0)': lambda: torch.true_divide(1.0,2.0),
 'fmod(5.0,2)': lambda: torch.fmod(5.0,2),
 'bitwise_and(1,3)': lambda: torch.bitwise_and(1,3),
 'lerp': lambda: torch.lerp(1.0,2.0,0.5),
 'add(1.5,1.5,alpha=2)': lambda: torch.add(1.5,1.5,alpha=2),
 'sub(1.5,2)': lambda: torch.sub(1.5,2),
 'rsub(1.5,2)': lambda: torch.rsub(1.5,2),
 'addcmul': lambda: torch.addcmul(1.0,2.0,3.0),
}
import sys
print(torch.__version__.split('+')[0], {k: t(f) for k,f in cases.items()})
