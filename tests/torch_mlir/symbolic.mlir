// Dynamic sizes as torch-mlir's FX importer states them (fx_importer with dynamic_shapes):
// torch.symbolic_int declares a size symbol with its range, torch.bind_symbolic_shape gives
// a value's sizes as an affine map of bound symbols (symbol k of the map = the k-th operand).
// Written here afresh after the importer's output form (test/python/fx_importer/symbolic_shape_expr_test.py).

// tanh and sigmoid keep sizes; cat along dim 1 adds them: 2*s0 + s2 + s3.
func.func @tanh_sigmoid_cat(%x: !torch.vtensor<[?,?,3],f32>, %y: !torch.vtensor<[?,?,3],f32>, %z: !torch.vtensor<[?,?,3],f32>) -> !torch.vtensor<[?,?,3],f32> {
  %s0 = torch.symbolic_int "s0" {min_val = 5, max_val = 10} : !torch.int
  %s1 = torch.symbolic_int "s1" {min_val = 2, max_val = 100} : !torch.int
  %s2 = torch.symbolic_int "s2" {min_val = 2, max_val = 50} : !torch.int
  %s3 = torch.symbolic_int "s3" {min_val = 2, max_val = 9223372036854775806} : !torch.int
  torch.bind_symbolic_shape %x, [%s1, %s0], affine_map<()[s0, s1] -> (s0, s1, 3)> : !torch.vtensor<[?,?,3],f32>
  torch.bind_symbolic_shape %y, [%s1, %s2], affine_map<()[s0, s1] -> (s0, s1, 3)> : !torch.vtensor<[?,?,3],f32>
  torch.bind_symbolic_shape %z, [%s1, %s3], affine_map<()[s0, s1] -> (s0, s1, 3)> : !torch.vtensor<[?,?,3],f32>
  %0 = torch.aten.tanh %x : !torch.vtensor<[?,?,3],f32> -> !torch.vtensor<[?,?,3],f32>
  torch.bind_symbolic_shape %0, [%s1, %s0], affine_map<()[s0, s1] -> (s0, s1, 3)> : !torch.vtensor<[?,?,3],f32>
  %1 = torch.aten.sigmoid %y : !torch.vtensor<[?,?,3],f32> -> !torch.vtensor<[?,?,3],f32>
  torch.bind_symbolic_shape %1, [%s1, %s2], affine_map<()[s0, s1] -> (s0, s1, 3)> : !torch.vtensor<[?,?,3],f32>
  %list = torch.prim.ListConstruct %0, %0, %1, %z : (!torch.vtensor<[?,?,3],f32>, !torch.vtensor<[?,?,3],f32>, !torch.vtensor<[?,?,3],f32>, !torch.vtensor<[?,?,3],f32>) -> !torch.list<vtensor>
  %int1 = torch.constant.int 1
  %2 = torch.aten.cat %list, %int1 : !torch.list<vtensor>, !torch.int -> !torch.vtensor<[?,?,3],f32>
  torch.bind_symbolic_shape %2, [%s1, %s3, %s0, %s2], affine_map<()[s0, s1, s2, s3] -> (s0, s1 + s3 + s2 * 2, 3)> : !torch.vtensor<[?,?,3],f32>
  return %2 : !torch.vtensor<[?,?,3],f32>
}

// A view to a size computed from symbolic ints (aten.size.int, aten.mul.int), and a
// reshape-like flatten whose size is bound as s0 * s0.
func.func @outer_flattened(%a: !torch.vtensor<[?],f32>) -> !torch.vtensor<[?],f32> {
  %s0 = torch.symbolic_int "s0" {min_val = 2, max_val = 9223372036854775806} : !torch.int
  torch.bind_symbolic_shape %a, [%s0], affine_map<()[s0] -> (s0)> : !torch.vtensor<[?],f32>
  %int0 = torch.constant.int 0
  %n = torch.aten.size.int %a, %int0 : !torch.vtensor<[?],f32>, !torch.int -> !torch.int
  %0 = torch.aten.outer %a, %a : !torch.vtensor<[?],f32>, !torch.vtensor<[?],f32> -> !torch.vtensor<[?,?],f32>
  torch.bind_symbolic_shape %0, [%s0], affine_map<()[s0] -> (s0, s0)> : !torch.vtensor<[?,?],f32>
  %nn = torch.aten.mul.int %n, %n : !torch.int, !torch.int -> !torch.int
  %sizes = torch.prim.ListConstruct %nn : (!torch.int) -> !torch.list<int>
  %1 = torch.aten.view %0, %sizes : !torch.vtensor<[?,?],f32>, !torch.list<int> -> !torch.vtensor<[?],f32>
  torch.bind_symbolic_shape %1, [%s0], affine_map<()[s0] -> (s0 * s0)> : !torch.vtensor<[?],f32>
  return %1 : !torch.vtensor<[?],f32>
}

// The generic form: `symbol_name` and `shape_expressions` attributes; a slice from 5 on.
"builtin.module"() ({
  "func.func"() <{function_type = (!torch.vtensor<[?],f32>) -> !torch.vtensor<[?],f32>, sym_name = "generic_form"}> ({
  ^bb0(%arg0: !torch.vtensor<[?],f32>):
    %0 = "torch.symbolic_int"() <{max_val = 10 : i64, min_val = 5 : i64, symbol_name = "s4"}> : () -> !torch.int
    "torch.bind_symbolic_shape"(%arg0, %0) <{shape_expressions = affine_map<()[s0] -> (s0)>}> : (!torch.vtensor<[?],f32>, !torch.int) -> ()
    %2 = "torch.constant.int"() <{value = 0 : i64}> : () -> !torch.int
    %3 = "torch.constant.int"() <{value = 5 : i64}> : () -> !torch.int
    %4 = "torch.constant.none"() : () -> !torch.none
    %5 = "torch.constant.int"() <{value = 1 : i64}> : () -> !torch.int
    %1 = "torch.aten.slice.Tensor"(%arg0, %2, %3, %4, %5) : (!torch.vtensor<[?],f32>, !torch.int, !torch.int, !torch.none, !torch.int) -> !torch.vtensor<[?],f32>
    "torch.bind_symbolic_shape"(%1, %0) <{shape_expressions = affine_map<()[s0] -> (s0 - 5)>}> : (!torch.vtensor<[?],f32>, !torch.int) -> ()
    "func.return"(%1) : (!torch.vtensor<[?],f32>) -> ()
  }) : () -> ()
}) : () -> ()

// A symbol named by an expression (torch-mlir's canonicalize.mlir form): "s0 + 1" is s0 + 1 with
// s0's declared range; [1:] of it is s0 again. A constant int binds nothing (a warning).
func.func @expression_symbol(%arg0: !torch.vtensor<[?],f32>, %arg1: !torch.vtensor<[?],f32>) -> !torch.vtensor<[?],f32> {
  %0 = torch.symbolic_int "s0" {min_val = 3, max_val = 6} : !torch.int
  %1 = torch.symbolic_int "s0 + 1" {min_val = 4, max_val = 7} : !torch.int
  torch.bind_symbolic_shape %arg0, [%0], affine_map<()[s0] -> (s0)> : !torch.vtensor<[?],f32>
  torch.bind_symbolic_shape %arg1, [%0], affine_map<()[s0] -> (s0 + 1)> : !torch.vtensor<[?],f32>
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int9223372036854775807 = torch.constant.int 9223372036854775807
  %2 = torch.aten.slice.Tensor %arg1, %int0, %int1, %int9223372036854775807, %int1 : !torch.vtensor<[?],f32>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[?],f32>
  torch.bind_symbolic_shape %2, [%0], affine_map<()[s0] -> (s0)> : !torch.vtensor<[?],f32>
  %3 = torch.aten.add.Tensor %arg0, %2, %int1 : !torch.vtensor<[?],f32>, !torch.vtensor<[?],f32>, !torch.int -> !torch.vtensor<[?],f32>
  torch.bind_symbolic_shape %3, [%1], affine_map<()[s0] -> (s0 - 1)> : !torch.vtensor<[?],f32>
  torch.bind_symbolic_shape %3, [%int0], affine_map<()[s0] -> (s0)> : !torch.vtensor<[?],f32>
  return %3 : !torch.vtensor<[?],f32>
}
