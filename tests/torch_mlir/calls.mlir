// func.call: a call's results take the callee's refined returns.

// A chain: @main calls @scale, which calls @widen; each result follows its callee.
func.func private @widen(%t: !torch.vtensor) -> !torch.vtensor {
  %int7 = torch.constant.int 7
  %false = torch.constant.bool false
  %none = torch.constant.none
  %0 = torch.aten.to.dtype %t, %int7, %false, %false, %none : !torch.vtensor, !torch.int, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor
  return %0 : !torch.vtensor
}
func.func private @scale(%t: !torch.vtensor) -> !torch.vtensor {
  %0 = func.call @widen(%t) : (!torch.vtensor) -> !torch.vtensor
  %1 = torch.aten.mul.Tensor %0, %0 : !torch.vtensor, !torch.vtensor -> !torch.vtensor
  return %1 : !torch.vtensor
}
func.func @main(%x: !torch.vtensor<[2,3],f16>) -> !torch.vtensor {
  %cast = torch.tensor_static_info_cast %x : !torch.vtensor<[2,3],f16> to !torch.vtensor
  %0 = call @scale(%cast) : (!torch.vtensor) -> !torch.vtensor
  %1 = torch.aten.neg %0 : !torch.vtensor -> !torch.vtensor
  return %1 : !torch.vtensor
}

// Two returns: the call's result is their join (float32 from both, ranks 2 and 1: rank unknown).
func.func private @either(%c: i1, %a: !torch.vtensor<[2,2],f32>, %b: !torch.vtensor<[4],f32>) -> !torch.vtensor {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %0 = torch.aten.relu %a : !torch.vtensor<[2,2],f32> -> !torch.vtensor
  return %0 : !torch.vtensor
^bb2:
  %1 = torch.aten.relu %b : !torch.vtensor<[4],f32> -> !torch.vtensor
  return %1 : !torch.vtensor
}
func.func @calls_either(%c: i1, %a: !torch.vtensor<[2,2],f32>, %b: !torch.vtensor<[4],f32>) -> !torch.vtensor {
  %0 = func.call @either(%c, %a, %b) : (i1, !torch.vtensor<[2,2],f32>, !torch.vtensor<[4],f32>) -> !torch.vtensor
  %1 = torch.aten.exp %0 : !torch.vtensor -> !torch.vtensor
  return %1 : !torch.vtensor
}

// Recursion: the results of calls in a cycle stay as written (unknown), with a diagnostic.
func.func private @rec(%t: !torch.vtensor) -> !torch.vtensor {
  %0 = func.call @rec(%t) : (!torch.vtensor) -> !torch.vtensor
  %1 = torch.aten.neg %0 : !torch.vtensor -> !torch.vtensor
  return %1 : !torch.vtensor
}
func.func @calls_rec(%x: !torch.vtensor<[2],f32>) -> !torch.vtensor {
  %0 = func.call @rec(%x) : (!torch.vtensor<[2],f32>) -> !torch.vtensor
  return %0 : !torch.vtensor
}

// A declaration (no body): its results are as written.
func.func private @external(!torch.vtensor) -> !torch.vtensor<[2],f32>
func.func @calls_external(%x: !torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32> {
  %0 = func.call @external(%x) : (!torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32>
  %1 = torch.aten.neg %0 : !torch.vtensor<[2],f32> -> !torch.vtensor<[2],f32>
  return %1 : !torch.vtensor<[2],f32>
}
