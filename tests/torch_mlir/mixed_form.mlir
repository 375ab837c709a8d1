// A pretty module and function around generic-form torch ops, as `annotate X.pt2 --format
// torch-mlir` writes them: the cast annotate adds before the return must be generic too, or
// MLIR without the torch dialect (mlir-opt --allow-unregistered-dialect) cannot read it.
module {
  func.func @main(%x: !torch.vtensor<[2,3],f32>) -> (!torch.vtensor<[?,3],f32>) {
    %0 = "torch.constant.int"() {value = 1 : i64} : () -> !torch.int
    %1 = "torch.aten.add.Scalar"(%x, %0, %0) : (!torch.vtensor<[2,3],f32>, !torch.int, !torch.int) -> !torch.vtensor<[?,3],f32>
    return %1 : !torch.vtensor<[?,3],f32>
  }
}
