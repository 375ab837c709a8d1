// Only the inputs bound (a program whose result sizes were dropped, or written by hand): annotate
// binds each result whose refined sizes it knows in the declared symbols, as the FX importer would.
func.func @main(%x: !torch.vtensor<[?,?,3],f32>, %w: !torch.vtensor<[8,3],f32>) -> !torch.vtensor {
  %s0 = torch.symbolic_int "s0" {min_val = 2, max_val = 64} : !torch.int
  %s1 = torch.symbolic_int "s1" {min_val = 2, max_val = 9223372036854775806} : !torch.int
  torch.bind_symbolic_shape %x, [%s0, %s1], affine_map<()[s0, s1] -> (s0, s1, 3)> : !torch.vtensor<[?,?,3],f32>
  %0 = torch.aten.tanh %x : !torch.vtensor<[?,?,3],f32> -> !torch.vtensor
  %none = torch.constant.none
  %1 = torch.aten.linear %0, %w, %none : !torch.vtensor, !torch.vtensor<[8,3],f32>, !torch.none -> !torch.vtensor
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %2 = torch.aten.flatten.using_ints %1, %int0, %int1 : !torch.vtensor, !torch.int, !torch.int -> !torch.stensor
  return %2 : !torch.vtensor
}
