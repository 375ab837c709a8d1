// Blocks and branches in the generic form as MLIR 16 prints it; mlir-opt 16 verifies
// that every branch passes exactly its block's argument types after annotate.
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%c: i1, %a: !torch.vtensor<[2,3],f32>, %b: !torch.vtensor<[4],f32>):
    %0 = "torch.constant.int"() {value = 1 : i64} : () -> !torch.int
    %1 = "torch.tensor_static_info_cast"(%a) : (!torch.vtensor<[2,3],f32>) -> !torch.vtensor
    %2 = "torch.tensor_static_info_cast"(%b) : (!torch.vtensor<[4],f32>) -> !torch.vtensor
    "cf.cond_br"(%c, %1, %2)[^bb1, ^bb2] {operand_segment_sizes = array<i32: 1, 1, 1>} : (i1, !torch.vtensor, !torch.vtensor) -> ()
  ^bb1(%x: !torch.vtensor):
    %3 = "torch.aten.add.Scalar"(%x, %0, %0) : (!torch.vtensor, !torch.int, !torch.int) -> !torch.vtensor
    "cf.br"(%3)[^bb2] : (!torch.vtensor) -> ()
  ^bb2(%z: !torch.vtensor):
    %4 = "torch.aten.neg"(%z) : (!torch.vtensor) -> !torch.vtensor
    "func.return"(%4) : (!torch.vtensor) -> ()
  }) {function_type = (i1, !torch.vtensor<[2,3],f32>, !torch.vtensor<[4],f32>) -> !torch.vtensor, sym_name = "join_rank"} : () -> ()
  "func.func"() ({
  ^bb0(%c: i1, %a: !torch.vtensor<[3],f32>, %i: !torch.vtensor<[3],si64>):
    %0 = "torch.constant.int"() {value = 1 : i64} : () -> !torch.int
    %1 = "torch.tensor_static_info_cast"(%a) : (!torch.vtensor<[3],f32>) -> !torch.vtensor
    "cf.br"(%1)[^bb1] : (!torch.vtensor) -> ()
  ^bb1(%acc: !torch.vtensor):
    "cf.cond_br"(%c)[^bb2, ^bb3] {operand_segment_sizes = array<i32: 1, 0, 0>} : (i1) -> ()
  ^bb2:
    %2 = "torch.aten.add.Tensor"(%acc, %i, %0) : (!torch.vtensor, !torch.vtensor<[3],si64>, !torch.int) -> !torch.vtensor
    "cf.br"(%2)[^bb1] : (!torch.vtensor) -> ()
  ^bb3:
    %3 = "func.call"(%acc) {callee = @twice} : (!torch.vtensor) -> !torch.vtensor
    "func.return"(%3) : (!torch.vtensor) -> ()
  }) {function_type = (i1, !torch.vtensor<[3],f32>, !torch.vtensor<[3],si64>) -> !torch.vtensor, sym_name = "loop"} : () -> ()
  "func.func"() ({
  ^bb0(%t: !torch.vtensor):
    %0 = "torch.aten.mul.Tensor"(%t, %t) : (!torch.vtensor, !torch.vtensor) -> !torch.vtensor
    "func.return"(%0) : (!torch.vtensor) -> ()
  }) {function_type = (!torch.vtensor) -> !torch.vtensor, sym_name = "twice", sym_visibility = "private"} : () -> ()
}) : () -> ()
