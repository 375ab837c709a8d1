func.func @f(%arg0: !torch.vtensor<*,f32>) -> !torch.vtensor {
  %1 = torch.aten.cos %arg0 : !torch.vtensor<*,f32> -> !torch.vtensor return %1 : !torch.vtensor
}
