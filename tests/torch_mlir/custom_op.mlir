// Custom ops through torch.operator (pretty and generic), known from tests/custom_op/dtf_test_ops.toml (--rules).
func.func @f(%x: !torch.vtensor<[2,3],f16>, %s: !torch.vtensor<[3],si64>) -> !torch.vtensor {
  %float0 = torch.constant.float 0.000000e+00
  %int1 = torch.constant.int 1
  %0 = torch.operator "dtf_test.fused_gelu"(%x, %float0) : (!torch.vtensor<[2,3],f16>, !torch.float) -> !torch.vtensor
  %1 = torch.operator "dtf_test.scale_shift"(%s, %s, %int1) : (!torch.vtensor<[3],si64>, !torch.vtensor<[3],si64>, !torch.int) -> !torch.vtensor
  %2 = "torch.operator"(%x, %float0) <{name = "dtf_test.fused_gelu"}> : (!torch.vtensor<[2,3],f16>, !torch.float) -> !torch.vtensor
  return %0 : !torch.vtensor
}
