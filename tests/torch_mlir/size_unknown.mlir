// index_select by an index of unknown length: right in dtype and rank, its first size unknown
// (check -v --format json lists it under "size_unknown", as for an archive).
func.func @main(%x: !torch.vtensor<[3,4],f32>, %i: !torch.vtensor<[?],si64>) -> !torch.vtensor<[?,4],f32> {
  %int0 = torch.constant.int 0
  %0 = torch.aten.index_select %x, %int0, %i : !torch.vtensor<[3,4],f32>, !torch.int, !torch.vtensor<[?],si64> -> !torch.vtensor<[5,4],f32>
  return %0 : !torch.vtensor<[5,4],f32>
}
