// Sibling regions reuse SSA names, as MLIR scopes them: %1 is float16 in the then-arm and
// float32 in the else-arm. JSON, Python and explain key the second definition `1#2`.
func.func @ifs(%x: !torch.vtensor<[3],f16>, %c: !torch.bool) -> !torch.vtensor {
  %0 = torch.prim.If %c -> (!torch.vtensor) {
    %1 = torch.aten.relu %x : !torch.vtensor<[3],f16> -> !torch.vtensor
    torch.prim.If.yield %1 : !torch.vtensor
  } else {
    %int6 = torch.constant.int 6
    %false = torch.constant.bool false
    %none = torch.constant.none
    %1 = torch.aten.to.dtype %x, %int6, %false, %false, %none : !torch.vtensor<[3],f16>, !torch.int, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor
    torch.prim.If.yield %1 : !torch.vtensor
  }
  return %0 : !torch.vtensor
}
