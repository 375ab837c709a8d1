func.func @f(%a: !torch.vtensor<[2],f32>) -> !torch.vtensor {
  %0 = torch.aten.neg %a : !torch.vtensor<[2],f32> -> !torch.vtensor
  %1 = torch.aten.cos %b : !torch.vtensor -> !torch.vtensor
  return %1 : !torch.vtensor
}
