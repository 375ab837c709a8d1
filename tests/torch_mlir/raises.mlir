// aten::mm of float32 and float64 operands: PyTorch raises, so `check` exits 1 as for every input.
func.func @main(%a: !torch.vtensor<[2,3],f32>, %b: !torch.vtensor<[3,2],f64>) -> !torch.vtensor {
  %0 = torch.aten.mm %a, %b : !torch.vtensor<[2,3],f32>, !torch.vtensor<[3,2],f64> -> !torch.vtensor
  return %0 : !torch.vtensor
}
