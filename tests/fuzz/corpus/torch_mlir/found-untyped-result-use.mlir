func.func @f(%arg: !torch.vtensor<*,f32>) {
  %false = torchstant.bool false
  %int1 = torch.constant.int 1
  %0 = torch.aten.add.Scalar %arg, %false, %int1 : !torch.vtensor<*,f32>, !torch.bool, !torch.int -> !torch.vtensor
  return
}
