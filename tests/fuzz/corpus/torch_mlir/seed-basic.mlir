// A small module in torch-mlir's pretty form: what dtypeflow reads.
#loc0 = loc("model.py":3:0)
module attributes {torch.debug_module_name = "Net"} {
  func.func @forward(%arg0: !torch.vtensor<[2,3],f32>, %arg1: !torch.vtensor<[3],si64>) -> !torch.vtensor<[2,3],f64> {
    %int1 = torch.constant.int 1
    %int7 = torch.constant.int 7 // c10's number for float64
    %false = torch.constant.bool false
    %none = torch.constant.none
    %0 = torch.aten.add.Tensor %arg0, %arg1, %int1 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[3],si64>, !torch.int -> !torch.vtensor loc(#loc0)
    %1 = torch.aten.to.dtype %0, %int7, %false, %false, %none : !torch.vtensor, !torch.int, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[2,3],f64>
    %2 = torch.aten.relu %1 : !torch.vtensor<[2,3],f64> -> !torch.vtensor
    %3 = torch.aten.sum %2, %none : !torch.vtensor, !torch.none -> !torch.vtensor
    %float2 = torch.constant.float 2.000000e+00
    %4 = torch.aten.mul.Scalar %2, %float2 : !torch.vtensor, !torch.float -> !torch.vtensor
    return %4 : !torch.vtensor<[2,3],f64>
  }
  func.func private @helper(%arg0: !torch.vtensor<*,bf16>) -> !torch.vtensor {
    %int0 = torch.constant.int 0
    %int-1 = torch.constant.int -1
    %0 = torch.prim.ListConstruct %int0, %int-1 : (!torch.int, !torch.int) -> !torch.list<int>
    %true = torch.constant.bool true
    %none = torch.constant.none
    %1 = torch.aten.mean.dim %arg0, %0, %true, %none : !torch.vtensor<*,bf16>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor
    %2 = torch.operator "mylib.fancy"(%1) : (!torch.vtensor) -> !torch.vtensor
    %3 = torch.aten.gt.Scalar %1, %int0 : !torch.vtensor, !torch.int -> !torch.vtensor<*,unk>
    %4 = func.call @forward2(%1) : (!torch.vtensor) -> !torch.vtensor
    return %1 : !torch.vtensor
  }
}

// -----

func.func @forward2(%x: !torch.vtensor<[4,?],f16>) -> !torch.vtensor {
  %int1 = torch.constant.int 1
  %true = torch.constant.bool true
  %0:2 = torch.aten.max.dim %x, %int1, %true : !torch.vtensor<[4,?],f16>, !torch.int, !torch.bool -> !torch.vtensor, !torch.vtensor
  %1 = torch.aten.add_.Tensor %0#0, %0#0, %int1 : !torch.vtensor, !torch.vtensor, !torch.int -> !torch.vtensor
  %2 = torch.vtensor.literal(dense<[1, 2]> : tensor<2xsi32>) : !torch.vtensor<[2],si32>
  %3 = torch.aten.mul.Tensor %0#1, %2 : !torch.vtensor, !torch.vtensor<[2],si32> -> !torch.vtensor<[4],si32>
  return %3 : !torch.vtensor
}
