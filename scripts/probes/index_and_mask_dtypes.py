# Index and mask dtypes that changed between PyTorch 1.13 and 2.14 (CPU).
# Run: /usr/bin/python3 scripts/probes/index_and_mask_dtypes.py (1.13);
#      scripts/torch214-root.sh run python3 scripts/probes/index_and_mask_dtypes.py (2.14).
import torch

def t(f):
    try:
        r = f()
        return str(r.dtype).replace('torch.', '') if hasattr(r, 'dtype') else str(tuple(x.dtype for x in r))
    except Exception as e:
        return 'ERR %s: %s' % (type(e).__name__, str(e).split('\n')[0][:90])

x = torch.ones(3)
i32, i64 = torch.tensor([0, 1]), None
cases = {
    'masked_fill(f32, uint8 mask, 1.0)': lambda: x.masked_fill(torch.ones(3, dtype=torch.uint8), 1.0),
    'masked_fill(f32, bool mask, 1.0)': lambda: x.masked_fill(torch.ones(3, dtype=torch.bool), 1.0),
    'masked_scatter(f32, uint8 mask)': lambda: x.masked_scatter(torch.ones(3, dtype=torch.uint8), x),
    'masked_select(f32, uint8 mask)': lambda: x.masked_select(torch.ones(3, dtype=torch.uint8)),
    'sort(complex64)': lambda: torch.sort(torch.ones(3, dtype=torch.complex64)),
    'argsort(complex64)': lambda: torch.argsort(torch.ones(3, dtype=torch.complex64)),
    'topk(complex64)': lambda: torch.topk(torch.ones(3, dtype=torch.complex64), 1),
    'msort(complex64)': lambda: torch.msort(torch.ones(3, dtype=torch.complex64)),
    'gather(int32 index)': lambda: torch.gather(x, 0, torch.zeros(2, dtype=torch.int32)),
    'scatter(int32 index)': lambda: torch.scatter(x, 0, torch.zeros(2, dtype=torch.int32), 1.0),
    'scatter_add(int32 index)': lambda: torch.scatter_add(x, 0, torch.zeros(2, dtype=torch.int32), x[:2]),
    'scatter_reduce(int32 index)': lambda: torch.scatter_reduce(x, 0, torch.zeros(2, dtype=torch.int32), x[:2], 'sum'),
    'index_select(int32 index)': lambda: torch.index_select(x, 0, torch.zeros(2, dtype=torch.int32)),
    'take_along_dim(int32)': lambda: torch.take_along_dim(x, torch.zeros(2, dtype=torch.int32)),
    'norm(f32, p=True)': lambda: torch.norm(x, p=True),
    'norm(f16)': lambda: torch.norm(x.half()),
    'where(uint8 cond)': lambda: torch.where(torch.ones(3, dtype=torch.uint8), x, x),
}
print(torch.__version__.split('+')[0])
for k, f in cases.items():
    print('  %-36s %s' % (k, t(f)))
