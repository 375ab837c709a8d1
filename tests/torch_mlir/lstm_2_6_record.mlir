// Written by `dtypeflow annotate --torch 2.6 tests/pt2/archives-2.6/lstm_batch3.pt2 --format torch-mlir`
// (what torch-mlir's FX importer takes from the export too): torch 2.6 records the LSTM's h_n and c_n
// as [4, 1, 3, 6] (its decomposition's squeeze(1)), which the CPU computes as [4, 3, 6].
module {
  func.func @main(%p_lstm_weight_ih_l0: !torch.vtensor<[24,4],f32>, %p_lstm_weight_hh_l0: !torch.vtensor<[24,6],f32>, %p_lstm_bias_ih_l0: !torch.vtensor<[24],f32>, %p_lstm_bias_hh_l0: !torch.vtensor<[24],f32>, %p_lstm_weight_ih_l0_reverse: !torch.vtensor<[24,4],f32>, %p_lstm_weight_hh_l0_reverse: !torch.vtensor<[24,6],f32>, %p_lstm_bias_ih_l0_reverse: !torch.vtensor<[24],f32>, %p_lstm_bias_hh_l0_reverse: !torch.vtensor<[24],f32>, %p_lstm_weight_ih_l1: !torch.vtensor<[24,12],f32>, %p_lstm_weight_hh_l1: !torch.vtensor<[24,6],f32>, %p_lstm_bias_ih_l1: !torch.vtensor<[24],f32>, %p_lstm_bias_hh_l1: !torch.vtensor<[24],f32>, %p_lstm_weight_ih_l1_reverse: !torch.vtensor<[24,12],f32>, %p_lstm_weight_hh_l1_reverse: !torch.vtensor<[24,6],f32>, %p_lstm_bias_ih_l1_reverse: !torch.vtensor<[24],f32>, %p_lstm_bias_hh_l1_reverse: !torch.vtensor<[24],f32>, %x: !torch.vtensor<[3,5,4],f32>) -> (!torch.vtensor<[3,5,12],f32>, !torch.vtensor<[1,3,6],f32>, !torch.vtensor<[4,1,3,6],f32>) {
    %c0 = "torch.constant.int"() {value = 4 : i64} : () -> !torch.int
    %c1 = "torch.constant.int"() {value = 3 : i64} : () -> !torch.int
    %c2 = "torch.constant.int"() {value = 6 : i64} : () -> !torch.int
    %0 = "torch.prim.ListConstruct"(%c0, %c1, %c2) : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
    %1 = "torch.constant.int"() {value = 6 : i64} : () -> !torch.int
    %2 = "torch.constant.none"() : () -> !torch.none
    %3 = "torch.constant.device"() {value = "cpu"} : () -> !torch.Device
    %4 = "torch.constant.bool"() {value = false} : () -> !torch.bool
    %zeros = "torch.aten.zeros"(%0, %1, %2, %3, %4) : (!torch.list<int>, !torch.int, !torch.none, !torch.Device, !torch.bool) -> !torch.vtensor<[4,3,6],f32>
    %c3 = "torch.constant.int"() {value = 4 : i64} : () -> !torch.int
    %c4 = "torch.constant.int"() {value = 3 : i64} : () -> !torch.int
    %c5 = "torch.constant.int"() {value = 6 : i64} : () -> !torch.int
    %5 = "torch.prim.ListConstruct"(%c3, %c4, %c5) : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
    %6 = "torch.constant.int"() {value = 6 : i64} : () -> !torch.int
    %7 = "torch.constant.none"() : () -> !torch.none
    %8 = "torch.constant.device"() {value = "cpu"} : () -> !torch.Device
    %9 = "torch.constant.bool"() {value = false} : () -> !torch.bool
    %zeros_1 = "torch.aten.zeros"(%5, %6, %7, %8, %9) : (!torch.list<int>, !torch.int, !torch.none, !torch.Device, !torch.bool) -> !torch.vtensor<[4,3,6],f32>
    %10 = "torch.prim.ListConstruct"(%zeros, %zeros_1) : (!torch.vtensor<[4,3,6],f32>, !torch.vtensor<[4,3,6],f32>) -> !torch.list<vtensor>
    %11 = "torch.prim.ListConstruct"(%p_lstm_weight_ih_l0, %p_lstm_weight_hh_l0, %p_lstm_bias_ih_l0, %p_lstm_bias_hh_l0, %p_lstm_weight_ih_l0_reverse, %p_lstm_weight_hh_l0_reverse, %p_lstm_bias_ih_l0_reverse, %p_lstm_bias_hh_l0_reverse, %p_lstm_weight_ih_l1, %p_lstm_weight_hh_l1, %p_lstm_bias_ih_l1, %p_lstm_bias_hh_l1, %p_lstm_weight_ih_l1_reverse, %p_lstm_weight_hh_l1_reverse, %p_lstm_bias_ih_l1_reverse, %p_lstm_bias_hh_l1_reverse) : (!torch.vtensor<[24,4],f32>, !torch.vtensor<[24,6],f32>, !torch.vtensor<[24],f32>, !torch.vtensor<[24],f32>, !torch.vtensor<[24,4],f32>, !torch.vtensor<[24,6],f32>, !torch.vtensor<[24],f32>, !torch.vtensor<[24],f32>, !torch.vtensor<[24,12],f32>, !torch.vtensor<[24,6],f32>, !torch.vtensor<[24],f32>, !torch.vtensor<[24],f32>, !torch.vtensor<[24,12],f32>, !torch.vtensor<[24,6],f32>, !torch.vtensor<[24],f32>, !torch.vtensor<[24],f32>) -> !torch.list<vtensor>
    %12 = "torch.constant.bool"() {value = true} : () -> !torch.bool
    %13 = "torch.constant.int"() {value = 2 : i64} : () -> !torch.int
    %14 = "torch.constant.float"() {value = 0.00000000000000000e+00 : f64} : () -> !torch.float
    %15 = "torch.constant.bool"() {value = false} : () -> !torch.bool
    %16 = "torch.constant.bool"() {value = true} : () -> !torch.bool
    %17 = "torch.constant.bool"() {value = true} : () -> !torch.bool
    %getitem, %getitem_1, %getitem_2 = "torch.aten.lstm.input"(%x, %10, %11, %12, %13, %14, %15, %16, %17) : (!torch.vtensor<[3,5,4],f32>, !torch.list<vtensor>, !torch.list<vtensor>, !torch.bool, !torch.int, !torch.float, !torch.bool, !torch.bool, !torch.bool) -> (!torch.vtensor<[3,5,12],f32>, !torch.vtensor<[4,1,3,6],f32>, !torch.vtensor<[4,1,3,6],f32>)
    %relu = "torch.aten.relu"(%getitem) : (!torch.vtensor<[3,5,12],f32>) -> !torch.vtensor<[3,5,12],f32>
    %c6 = "torch.constant.int"() {value = 0 : i64} : () -> !torch.int
    %18 = "torch.prim.ListConstruct"(%c6) : (!torch.int) -> !torch.list<int>
    %c7 = "torch.constant.bool"() {value = false} : () -> !torch.bool
    %c8 = "torch.constant.none"() : () -> !torch.none
    %sum_1 = "torch.aten.sum.dim_IntList"(%getitem_1, %18, %c7, %c8) : (!torch.vtensor<[4,1,3,6],f32>, !torch.list<int>, !torch.bool, !torch.none) -> !torch.vtensor<[1,3,6],f32>
    return %relu, %sum_1, %getitem_2 : !torch.vtensor<[3,5,12],f32>, !torch.vtensor<[1,3,6],f32>, !torch.vtensor<[4,1,3,6],f32>
  }
}
