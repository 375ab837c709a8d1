// A bound size dtypeflow proves different (cat of [s0, 3] and [s1, 3] along dim 0 is s0 + s1, not
// s0 + s1 + 1): check reports the value wrong, naming both.
func.func @main(%a: !torch.vtensor<[?,3],f32>, %b: !torch.vtensor<[?,3],f32>) -> !torch.vtensor<[?,3],f32> {
  %s0 = torch.symbolic_int "s0" {min_val = 2, max_val = 9223372036854775806} : !torch.int
  %s1 = torch.symbolic_int "s1" {min_val = 2, max_val = 9223372036854775806} : !torch.int
  torch.bind_symbolic_shape %a, [%s0], affine_map<()[s0] -> (s0, 3)> : !torch.vtensor<[?,3],f32>
  torch.bind_symbolic_shape %b, [%s1], affine_map<()[s0] -> (s0, 3)> : !torch.vtensor<[?,3],f32>
  %int0 = torch.constant.int 0
  %list = torch.prim.ListConstruct %a, %b : (!torch.vtensor<[?,3],f32>, !torch.vtensor<[?,3],f32>) -> !torch.list<vtensor>
  %0 = torch.aten.cat %list, %int0 : !torch.list<vtensor>, !torch.int -> !torch.vtensor<[?,3],f32>
  torch.bind_symbolic_shape %0, [%s0, %s1], affine_map<()[s0, s1] -> (s0 + s1 + 1, 3)> : !torch.vtensor<[?,3],f32>
  return %0 : !torch.vtensor<[?,3],f32>
}
