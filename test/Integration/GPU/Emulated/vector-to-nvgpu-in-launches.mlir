// --norm-test-vector-to-nvgpu-in-launches (test/lib/Transforms): upstream's
// vector → nvgpu mma.sync conversion inside gpu.launch bodies only. A
// vector.contract in a launch becomes ldmatrix / mma.sync; the same
// contract outside any launch, and a scalar arith.mulf (on which MLIR 22's
// --convert-vector-to-gpu=use-nvgpu=true fails for the whole module), are
// left as they are. (Upstream leaves the replaced contract dead in the
// launch; --canonicalize removes it.)
// RUN: norm-opt %s --norm-test-vector-to-nvgpu-in-launches --canonicalize | FileCheck %s

#mA = affine_map<(m, n, k) -> (m, k)>
#mB = affine_map<(m, n, k) -> (n, k)>
#mC = affine_map<(m, n, k) -> (m, n)>
#transposed = affine_map<(d0, d1) -> (d1, d0)>

// CHECK-LABEL: func.func @in_launch
// CHECK:         gpu.launch
// CHECK:           nvgpu.ldmatrix
// CHECK:           nvgpu.mma.sync
// CHECK-NOT:       vector.contract
func.func @in_launch(%a: memref<16x16xf16, #gpu.address_space<workgroup>>,
                     %b: memref<16x8xf16, #gpu.address_space<workgroup>>,
                     %res: memref<16x8xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %pad = arith.constant 0.0 : f16
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %A = vector.transfer_read %a[%c0, %c0], %pad {in_bounds = [true, true]} : memref<16x16xf16, #gpu.address_space<workgroup>>, vector<16x16xf16>
    %B = vector.transfer_read %b[%c0, %c0], %pad {in_bounds = [true, true], permutation_map = #transposed} : memref<16x8xf16, #gpu.address_space<workgroup>>, vector<8x16xf16>
    %C = vector.transfer_read %res[%c0, %c0], %pad {in_bounds = [true, true]} : memref<16x8xf16>, vector<16x8xf16>
    %D = vector.contract {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %A, %B, %C : vector<16x16xf16>, vector<8x16xf16> into vector<16x8xf16>
    vector.transfer_write %D, %res[%c0, %c0] {in_bounds = [true, true]} : vector<16x8xf16>, memref<16x8xf16>
    gpu.terminator
  }
  return
}

// CHECK-LABEL: func.func @outside
// CHECK:         arith.mulf
// CHECK:         vector.contract
// CHECK-NOT:     nvgpu.
func.func @outside(%A: vector<16x16xf16>, %B: vector<8x16xf16>, %C: vector<16x8xf16>,
                   %x: f32) -> (vector<16x8xf16>, f32) {
  %y = arith.mulf %x, %x : f32
  %D = vector.contract {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %A, %B, %C : vector<16x16xf16>, vector<8x16xf16> into vector<16x8xf16>
  return %D, %y : vector<16x8xf16>, f32
}
