// Blocks and branches: block arguments take the join of what every branch passes them.

// A branch passes a float32 tensor: cos of it is float32.
func.func @straight(%arg0: !torch.vtensor<[2,3],f32>) -> !torch.vtensor {
  %cast = torch.tensor_static_info_cast %arg0 : !torch.vtensor<[2,3],f32> to !torch.vtensor
  cf.br ^bb1(%cast : !torch.vtensor)
^bb1(%x: !torch.vtensor):
  %1 = torch.aten.cos %x : !torch.vtensor -> !torch.vtensor
  return %1 : !torch.vtensor
}

// Both arms pass float32 of different ranks: the join knows the dtype only; the
// rank-2 one is cast to the argument's printed type. A value of the entry block
// (%int1) is used in the blocks it dominates.
func.func @join_rank(%c: i1, %a: !torch.vtensor<[2,3],f32>, %b: !torch.vtensor<[4],f32>) -> !torch.vtensor {
  %int1 = torch.constant.int 1
  %a0 = torch.tensor_static_info_cast %a : !torch.vtensor<[2,3],f32> to !torch.vtensor
  %b0 = torch.tensor_static_info_cast %b : !torch.vtensor<[4],f32> to !torch.vtensor
  cf.cond_br %c, ^bb1(%a0 : !torch.vtensor), ^bb2(%b0 : !torch.vtensor)
^bb1(%x: !torch.vtensor):
  %y = torch.aten.add.Scalar %x, %int1, %int1 : !torch.vtensor, !torch.int, !torch.int -> !torch.vtensor
  cf.br ^bb2(%y : !torch.vtensor)
^bb2(%z: !torch.vtensor):
  %r = torch.aten.neg %z : !torch.vtensor -> !torch.vtensor
  return %r : !torch.vtensor
}

// The arms disagree on the dtype (float32, float64): unknown, as written.
func.func @join_dtype(%c: i1, %a: !torch.vtensor<[2],f32>, %b: !torch.vtensor<[2],f64>) -> !torch.vtensor {
  %a0 = torch.tensor_static_info_cast %a : !torch.vtensor<[2],f32> to !torch.vtensor
  %b0 = torch.tensor_static_info_cast %b : !torch.vtensor<[2],f64> to !torch.vtensor
  cf.cond_br %c, ^bb1(%a0 : !torch.vtensor), ^bb1(%b0 : !torch.vtensor)
^bb1(%x: !torch.vtensor):
  %r = torch.aten.neg %x : !torch.vtensor -> !torch.vtensor
  return %r : !torch.vtensor
}

// A loop between blocks: the carried tensor is float32 on entry, and each trip
// adds an int64 tensor to it (float32 again): the fixpoint is float32, rank 1.
func.func @loop(%c: i1, %a: !torch.vtensor<[3],f32>, %i: !torch.vtensor<[3],si64>) -> !torch.vtensor {
  %int1 = torch.constant.int 1
  %a0 = torch.tensor_static_info_cast %a : !torch.vtensor<[3],f32> to !torch.vtensor
  cf.br ^head(%a0 : !torch.vtensor)
^head(%acc: !torch.vtensor):
  cf.cond_br %c, ^body, ^exit
^body:
  %next = torch.aten.add.Tensor %acc, %i, %int1 : !torch.vtensor, !torch.vtensor<[3],si64>, !torch.int -> !torch.vtensor
  cf.br ^head(%next : !torch.vtensor)
^exit:
  return %acc : !torch.vtensor
}

// A loop whose trips change the dtype (float32, then the int64 tensor's
// dtype joined in by where): unknown after the join, never a guess.
func.func @loop_changes(%c: i1, %a: !torch.vtensor<[3],f32>, %i: !torch.vtensor<[3],si64>) -> !torch.vtensor {
  %a0 = torch.tensor_static_info_cast %a : !torch.vtensor<[3],f32> to !torch.vtensor
  %i0 = torch.tensor_static_info_cast %i : !torch.vtensor<[3],si64> to !torch.vtensor
  cf.br ^head(%a0 : !torch.vtensor)
^head(%acc: !torch.vtensor):
  cf.cond_br %c, ^head(%i0 : !torch.vtensor), ^exit
^exit:
  %r = torch.aten.neg %acc : !torch.vtensor -> !torch.vtensor
  return %r : !torch.vtensor
}

// One value passed to two blocks whose arguments print differently (<*,f32>: ranks 1 and 2 join;
// unknown: float32 and float64 join): a cast to each.
func.func @two_targets(%c: i1, %a: !torch.vtensor<[2],f32>, %m: !torch.vtensor<[2,2],f32>, %b: !torch.vtensor<[2],f64>) -> !torch.vtensor {
  %a0 = torch.tensor_static_info_cast %a : !torch.vtensor<[2],f32> to !torch.vtensor
  %m0 = torch.tensor_static_info_cast %m : !torch.vtensor<[2,2],f32> to !torch.vtensor
  %b0 = torch.tensor_static_info_cast %b : !torch.vtensor<[2],f64> to !torch.vtensor
  cf.cond_br %c, ^bb1(%a0 : !torch.vtensor), ^bb2(%a0 : !torch.vtensor)
^bb1(%x: !torch.vtensor):
  cf.cond_br %c, ^bb1(%m0 : !torch.vtensor), ^bb2(%b0 : !torch.vtensor)
^bb2(%y: !torch.vtensor):
  return %y : !torch.vtensor
}

// A raise ends its own block: the block after it is reached through the branch (neg is float32).
func.func @raise_in_a_block(%c: i1, %a: !torch.vtensor<[2],f32>) -> !torch.vtensor {
  %str = torch.constant.str "bad"
  %none = torch.constant.none
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  torch.prim.RaiseException %str, %none : !torch.str, !torch.none
  cf.br ^bb2
^bb2:
  %0 = torch.aten.neg %a : !torch.vtensor<[2],f32> -> !torch.vtensor
  return %0 : !torch.vtensor
}
