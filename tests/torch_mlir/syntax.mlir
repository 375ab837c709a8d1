// Forms of Torch-dialect syntax found in torch-mlir's own tests (scripts/torch_mlir_sweep.py)
// that the reader once refused; written here afresh, one function each.

// Sibling regions reuse a name (MLIR scopes names by region).
func.func @sibling_regions(%c: !torch.bool, %a: !torch.vtensor<[2],f32>) -> !torch.vtensor {
  %0 = torch.prim.If %c -> (!torch.vtensor) {
    %1 = torch.aten.relu %a : !torch.vtensor<[2],f32> -> !torch.vtensor
    torch.prim.If.yield %1 : !torch.vtensor
  } else {
    %1 = torch.aten.neg %a : !torch.vtensor<[2],f32> -> !torch.vtensor
    torch.prim.If.yield %1 : !torch.vtensor
  }
  return %0 : !torch.vtensor
}

// An I1Attr reads 1 as true: keepdim keeps the rank.
func.func @bool_as_integer(%a: !torch.vtensor<[2,3],si64>) -> !torch.vtensor {
  %keep = torch.constant.bool 1
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  %dims = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.sum.dim_IntList %a, %dims, %keep, %none : !torch.vtensor<[2,3],si64>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor
  return %0 : !torch.vtensor
}

// Regions named by keywords, the result type after them; an unnamed result.
func.func @keyword_regions(%a: !torch.vtensor<*,f32>) -> !torch.vtensor {
  %0 = torch.dtype.calculate {
    %1 = torch.aten.tanh %a : !torch.vtensor<*,f32> -> !torch.vtensor
    torch.dtype.calculate.yield %1 : !torch.vtensor
  } dtypes {
    %2 = torch.prim.dtype %a : !torch.vtensor<*,f32> -> !torch.int
    torch.prim.ListConstruct %2 : (!torch.int) -> !torch.list<int>
    torch.dtype.calculate.yield.dtypes %2 : !torch.int
  } : !torch.vtensor
  return %0 : !torch.vtensor
}

// Implied result types, operand types beside the operands, a method call's type list,
// operands on the line after the op's name.
func.func @operand_type_forms(%w: !torch.tensor, %k: !torch.str, %m: !torch.nn.Module<"c">, %x: !torch.vtensor<[4],si8>) -> !torch.vtensor {
  %p = torch.linear_params.create %w, %w : !torch.tensor, !torch.tensor
  %d = torch.prim.DictConstruct keys(%k : !torch.str) values(%w : !torch.tensor) -> !torch.dict<str, tensor>
  %f = torch.constant.float 5.000000e-01
  %r = torch.prim.CallMethod %m["forward"] (%f) : !torch.nn.Module<"c">, (!torch.float) -> !torch.float
  %0 = torch.aten.mul.Scalar
      %x, %r
      : !torch.vtensor<[4],si8>, !torch.float
      -> !torch.vtensor
  return %0 : !torch.vtensor
}

// A sparse tensor's encoding: the element gives the dtype, the type prints as written.
func.func @sparse(%a: !torch.vtensor<[8,8],f32,#CSR>) -> !torch.vtensor {
  %0 = torch.aten.abs %a : !torch.vtensor<[8,8],f32,#CSR> -> !torch.vtensor
  return %0 : !torch.vtensor
}

// -----

// Each part is a module of its own: its top-level names too.
%c1 = torch.constant.int 1
torch.nn_module {
  torch.slot "i", %c1 : !torch.int
} : !torch.nn.Module<"c">
func.func @part_one() -> !torch.int {
  %0 = torch.constant.int 1
  return %0 : !torch.int
}

// -----

%c1 = torch.constant.int 2
torch.nn_module {
  torch.slot "i", %c1 : !torch.int
} : !torch.nn.Module<"c">
