// The generic form as MLIR 16 prints it (inherent attributes in {...}, no <{...}> properties).
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%arg0: !torch.vtensor<[2,3],f32>, %arg1: !torch.vtensor<[3],si64>):
    %0 = "torch.constant.int"() {value = 1 : i64} : () -> !torch.int
    %1 = "torch.aten.add.Tensor"(%arg0, %arg1, %0) : (!torch.vtensor<[2,3],f32>, !torch.vtensor<[3],si64>, !torch.int) -> !torch.vtensor loc("model.py":4:0)
    %2 = "torch.constant.int"() {value = 5 : i64} : () -> !torch.int
    %3 = "torch.constant.bool"() {value = false} : () -> !torch.bool
    %4 = "torch.constant.none"() : () -> !torch.none
    %5 = "torch.aten.to.dtype"(%1, %2, %3, %3, %4) : (!torch.vtensor, !torch.int, !torch.bool, !torch.bool, !torch.none) -> !torch.vtensor
    %6 = "torch.aten.tanh"(%5) : (!torch.vtensor) -> !torch.vtensor
    "func.return"(%6) : (!torch.vtensor) -> ()
  }) {function_type = (!torch.vtensor<[2,3],f32>, !torch.vtensor<[3],si64>) -> !torch.vtensor, sym_name = "forward"} : () -> ()
}) : () -> ()
