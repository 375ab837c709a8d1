// a type that does not close
func.func @f(%a: !torch.vtensor<[2,f32>) -> !torch.vtensor {
  return %a : !torch.vtensor
}
