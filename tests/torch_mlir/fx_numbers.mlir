// torch-mlir's FX importer passes a Python number given for a Tensor argument (torch.export keeps
// `x * 0.5` as aten.mul.Tensor(x, 0.5)) through torch.prim.NumToTensor.Scalar, typed as
// torch.tensor(0.5) is: float32 (complex64, int64, bool). The ops it feeds compute as PyTorch does with
// the number (a wrapped number); the types written are export's records, PyTorch 2.14 eager:
//   x.sum() * 0.5 with x float16 -> float16 (a float32 0-dim tensor would give float32)
//   i[0] + 1 with i int32 -> int32 (an int64 0-dim tensor would give int64)
// TorchScript's own NumToTensor (float64 for a float: at::scalar_to_tensor) is a 0-dim tensor.
func.func @main(%x: !torch.vtensor<[4],f16>, %i: !torch.vtensor<[3],si32>, %n: !torch.vtensor<[2],si32>) -> (!torch.vtensor<[],f16>, !torch.vtensor<[],si32>, !torch.vtensor<[4],f16>, !torch.vtensor<[],f64>) {
  %none = torch.constant.none
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %float5 = torch.constant.float 5.000000e-01
  %sum = torch.aten.sum %x, %none : !torch.vtensor<[4],f16>, !torch.none -> !torch.vtensor<[],f16>
  %half = torch.prim.NumToTensor.Scalar %float5 : !torch.float -> !torch.vtensor<[],f32>
  %mul = torch.aten.mul.Tensor %sum, %half : !torch.vtensor<[],f16>, !torch.vtensor<[],f32> -> !torch.vtensor<[],f16>
  %sel = torch.aten.select.int %i, %int0, %int0 : !torch.vtensor<[3],si32>, !torch.int, !torch.int -> !torch.vtensor<[],si32>
  %one = torch.prim.NumToTensor.Scalar %int1 : !torch.int -> !torch.vtensor<[],si64>
  %add = torch.aten.add.Tensor %sel, %one, %int1 : !torch.vtensor<[],si32>, !torch.vtensor<[],si64>, !torch.int -> !torch.vtensor<[],si32>
  %scaled = torch.aten.mul.Tensor %x, %half : !torch.vtensor<[4],f16>, !torch.vtensor<[],f32> -> !torch.vtensor<[4],f16>
  %ts = torch.prim.NumToTensor.Scalar %float5 : !torch.float -> !torch.vtensor<[],f64>
  %tsadd = torch.aten.add.Tensor %sum, %ts, %int1 : !torch.vtensor<[],f16>, !torch.vtensor<[],f64>, !torch.int -> !torch.vtensor<[],f64>
  return %mul, %add, %scaled, %tsadd : !torch.vtensor<[],f16>, !torch.vtensor<[],si32>, !torch.vtensor<[4],f16>, !torch.vtensor<[],f64>
}
