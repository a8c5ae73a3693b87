// Split-K on the sm_90a wgmma kernel keeps the bits of the split mma.sync
// kernel's S and saved statistics when the slices cover the same K: with
// max-split-k=2 and K = 1000 both kernels run two slices, K [0, 512) and
// [512, 1000) (16 wgmma tiles of 64 as 8 + 8, 32 mma.sync tiles of 32 as
// 16 + 16), each slice's row sums in the mma.sync kernel's order (the
// residual prologue's two chains, LayerNorm's sums about the pivot of K
// tile 0, which every wgmma slice loads on its own barrier), stored in the
// same layout and summed by the same reduction. Emulated on host threads,
// the saved rstd (and mean) of RMSNorm → matmul (bf16, residual, γ, W as
// K×N, a K tail) and LayerNorm → matmul (f16, residual, W as N×K, rows of
// mean 10³) are printed as their bit patterns (i32), with the number of
// elements of S whose bits differ from round(x + r) computed on the host
// (0: each K tile's S written by its slice), and compared whole with the
// mma.sync kernel's (chip=sm_90): pipelined 64 × 128 (the default),
// 128 × 256, serial. Against the unsplit kernels only S keeps its bits:
// the statistics and C are summed in another order (slice by slice).
// (The sanitizer runs drop what follows %emulated_run: nothing to compare.)
// REQUIRES: mlir-runner
// UNSUPPORTED: sanitizers
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_90 max-split-k=2" --canonicalize | FileCheck %s --check-prefix=SPLIT90
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_90a max-split-k=2" --canonicalize | FileCheck %s --check-prefix=SPLIT90A
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_90 max-split-k=2" --norm-test-emulate-gpu-on-cpu %emulated_to_llvm | %emulated_run | sed -e 's/base@ = [0-9a-fx]*//' > %t.sm90
// RUN: FileCheck %s < %t.sm90
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_90a max-split-k=2" --norm-test-emulate-gpu-on-cpu %emulated_to_llvm | %emulated_run | sed -e 's/base@ = [0-9a-fx]*//' > %t.pipe
// RUN: cmp %t.sm90 %t.pipe
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_90a max-split-k=2 wgmma-block-m=128 wgmma-block-n=256" --norm-test-emulate-gpu-on-cpu %emulated_to_llvm | %emulated_run | sed -e 's/base@ = [0-9a-fx]*//' > %t.256
// RUN: cmp %t.sm90 %t.256
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_90a max-split-k=2 wgmma-pipeline=0" --norm-test-emulate-gpu-on-cpu %emulated_to_llvm | %emulated_run | sed -e 's/base@ = [0-9a-fx]*//' > %t.serial
// RUN: cmp %t.sm90 %t.serial
// CHECK:      Unranked Memref rank = 1 offset = 0 sizes = [200] strides = [1] data =
// CHECK:      Unranked Memref rank = 1 offset = 0 sizes = [1] strides = [1] data =
// CHECK-NEXT: [0]
// CHECK-COUNT-2: Unranked Memref rank = 1 offset = 0 sizes = [70] strides = [1] data =
// CHECK:      Unranked Memref rank = 1 offset = 0 sizes = [1] strides = [1] data =
// CHECK-NEXT: [0]
// Both ops split in two, on mma.sync at sm_90 and on wgmma at sm_90a.
// SPLIT90-COUNT-2: gpu.alloc async [%{{.*}}] (%c2, %{{.*}}, %{{.*}}) : memref<?x?x?xf32>
// SPLIT90-NOT:     nvvm.wgmma
// SPLIT90A:        gpu.alloc async [%{{.*}}] (%c2, %{{.*}}, %{{.*}}) : memref<?x?x?xf32>
// SPLIT90A:        nvvm.wgmma.mma_async
// SPLIT90A:        gpu.alloc async [%{{.*}}] (%c2, %{{.*}}, %{{.*}}) : memref<?x?x?xf32>
// SPLIT90A:        nvvm.wgmma.mma_async

func.func private @norm_test_fill_bf16(memref<*xbf16>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_bf16(memref<*xbf16>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_f16(memref<*xf16>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_f16(memref<*xf16>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  call @rr_kn_bf16() : () -> ()
  call @lr_nk_f16() : () -> ()
  return
}

// The bits of v, printed as i32.
func.func @print_bits(%v: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %v, %c0 : memref<?xf32>
  %bits = memref.alloc(%m) : memref<?xi32>
  scf.for %i = %c0 to %m step %c1 {
    %x = memref.load %v[%i] : memref<?xf32>
    %b = arith.bitcast %x : f32 to i32
    memref.store %b, %bits[%i] : memref<?xi32>
  }
  %u = memref.cast %bits : memref<?xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  memref.dealloc %bits : memref<?xi32>
  return
}

// The number of elements of s whose bits differ from round(x + r).
func.func @print_sum_mismatches(%x: memref<?x?xbf16>, %r: memref<?x?xbf16>, %s: memref<?x?xbf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %x, %c0 : memref<?x?xbf16>
  %k = memref.dim %x, %c1 : memref<?x?xbf16>
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %count = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %zero) -> (i32) {
    %row = scf.for %j = %c0 to %k step %c1 iter_args(%a = %acc) -> (i32) {
      %xv = memref.load %x[%i, %j] : memref<?x?xbf16>
      %rv = memref.load %r[%i, %j] : memref<?x?xbf16>
      %sv = memref.load %s[%i, %j] : memref<?x?xbf16>
      %xf = arith.extf %xv : bf16 to f32
      %rf = arith.extf %rv : bf16 to f32
      %sum = arith.addf %xf, %rf : f32
      %ref = arith.truncf %sum : f32 to bf16
      %rb = arith.bitcast %ref : bf16 to i16
      %sb = arith.bitcast %sv : bf16 to i16
      %ne = arith.cmpi ne, %rb, %sb : i16
      %inc = arith.select %ne, %one, %zero : i32
      %n = arith.addi %a, %inc : i32
      scf.yield %n : i32
    }
    scf.yield %row : i32
  }
  %out = memref.alloc() : memref<1xi32>
  memref.store %count, %out[%c0] : memref<1xi32>
  %u = memref.cast %out : memref<1xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  memref.dealloc %out : memref<1xi32>
  return
}

func.func @print_sum_mismatches_f16(%x: memref<?x?xf16>, %r: memref<?x?xf16>, %s: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %x, %c0 : memref<?x?xf16>
  %k = memref.dim %x, %c1 : memref<?x?xf16>
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %count = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %zero) -> (i32) {
    %row = scf.for %j = %c0 to %k step %c1 iter_args(%a = %acc) -> (i32) {
      %xv = memref.load %x[%i, %j] : memref<?x?xf16>
      %rv = memref.load %r[%i, %j] : memref<?x?xf16>
      %sv = memref.load %s[%i, %j] : memref<?x?xf16>
      %xf = arith.extf %xv : f16 to f32
      %rf = arith.extf %rv : f16 to f32
      %sum = arith.addf %xf, %rf : f32
      %ref = arith.truncf %sum : f32 to f16
      %rb = arith.bitcast %ref : f16 to i16
      %sb = arith.bitcast %sv : f16 to i16
      %ne = arith.cmpi ne, %rb, %sb : i16
      %inc = arith.select %ne, %one, %zero : i32
      %n = arith.addi %a, %inc : i32
      scf.yield %n : i32
    }
    scf.yield %row : i32
  }
  %out = memref.alloc() : memref<1xi32>
  memref.store %count, %out[%c0] : memref<1xi32>
  %u = memref.cast %out : memref<1xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  memref.dealloc %out : memref<1xi32>
  return
}

func.func @rr_kn_bf16() {
  %x = gpu.alloc host_shared () : memref<200x1000xbf16>
  %x_u = memref.cast %x : memref<200x1000xbf16> to memref<*xbf16>
  %x_seed = arith.constant 9701 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %r = gpu.alloc host_shared () : memref<200x1000xbf16>
  %r_u = memref.cast %r : memref<200x1000xbf16> to memref<*xbf16>
  %r_seed = arith.constant 9702 : i64
  %r_mean = arith.constant 0.0 : f64
  %r_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%r_u, %r_seed, %r_mean, %r_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %g = gpu.alloc host_shared () : memref<1000xbf16>
  %g_u = memref.cast %g : memref<1000xbf16> to memref<*xbf16>
  %g_seed = arith.constant 9703 : i64
  %g_mean = arith.constant 0.5 : f64
  %g_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %w = gpu.alloc host_shared () : memref<1000x136xbf16>
  %w_u = memref.cast %w : memref<1000x136xbf16> to memref<*xbf16>
  %w_seed = arith.constant 9704 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<200x136xbf16>
  %s = gpu.alloc host_shared () : memref<200x1000xbf16>
  %rs = gpu.alloc host_shared () : memref<200xf32>
  norm.rms_norm_matmul ins(%x : memref<200x1000xbf16>) residual(%r : memref<200x1000xbf16>) weight(%g : memref<1000xbf16>) rhs(%w : memref<1000x136xbf16>) outs(%y : memref<200x136xbf16>) sum_outs(%s : memref<200x1000xbf16>) rstd_outs(%rs : memref<200xf32>) {epsilon = 1.0e-06 : f64}
  %rsd = memref.cast %rs : memref<200xf32> to memref<?xf32>
  call @print_bits(%rsd) : (memref<?xf32>) -> ()
  %xd = memref.cast %x : memref<200x1000xbf16> to memref<?x?xbf16>
  %rd = memref.cast %r : memref<200x1000xbf16> to memref<?x?xbf16>
  %sd = memref.cast %s : memref<200x1000xbf16> to memref<?x?xbf16>
  call @print_sum_mismatches(%xd, %rd, %sd) : (memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>) -> ()
  gpu.dealloc %x : memref<200x1000xbf16>
  gpu.dealloc %r : memref<200x1000xbf16>
  gpu.dealloc %g : memref<1000xbf16>
  gpu.dealloc %w : memref<1000x136xbf16>
  gpu.dealloc %y : memref<200x136xbf16>
  gpu.dealloc %s : memref<200x1000xbf16>
  gpu.dealloc %rs : memref<200xf32>
  return
}

func.func @lr_nk_f16() {
  %x = gpu.alloc host_shared () : memref<70x1000xf16>
  %x_u = memref.cast %x : memref<70x1000xf16> to memref<*xf16>
  %x_seed = arith.constant 9711 : i64
  %x_mean = arith.constant 1.0e3 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf16>, i64, f64, f64, i64) -> ()
  %r = gpu.alloc host_shared () : memref<70x1000xf16>
  %r_u = memref.cast %r : memref<70x1000xf16> to memref<*xf16>
  %r_seed = arith.constant 9712 : i64
  %r_mean = arith.constant 0.0 : f64
  %r_scale = arith.constant 10.0 : f64
  func.call @norm_test_fill_f16(%r_u, %r_seed, %r_mean, %r_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %w = gpu.alloc host_shared () : memref<72x1000xf16>
  %w_u = memref.cast %w : memref<72x1000xf16> to memref<*xf16>
  %w_seed = arith.constant 9713 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_f16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<70x72xf16>
  %s = gpu.alloc host_shared () : memref<70x1000xf16>
  %m = gpu.alloc host_shared () : memref<70xf32>
  %rs = gpu.alloc host_shared () : memref<70xf32>
  norm.layer_norm_matmul ins(%x : memref<70x1000xf16>) residual(%r : memref<70x1000xf16>) rhs(%w : memref<72x1000xf16>) outs(%y : memref<70x72xf16>) sum_outs(%s : memref<70x1000xf16>) mean_outs(%m : memref<70xf32>) rstd_outs(%rs : memref<70xf32>) {epsilon = 1.0e-05 : f64, transpose_rhs}
  %md = memref.cast %m : memref<70xf32> to memref<?xf32>
  %rsd = memref.cast %rs : memref<70xf32> to memref<?xf32>
  call @print_bits(%md) : (memref<?xf32>) -> ()
  call @print_bits(%rsd) : (memref<?xf32>) -> ()
  %xd = memref.cast %x : memref<70x1000xf16> to memref<?x?xf16>
  %rd = memref.cast %r : memref<70x1000xf16> to memref<?x?xf16>
  %sd = memref.cast %s : memref<70x1000xf16> to memref<?x?xf16>
  call @print_sum_mismatches_f16(%xd, %rd, %sd) : (memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf16>) -> ()
  gpu.dealloc %x : memref<70x1000xf16>
  gpu.dealloc %r : memref<70x1000xf16>
  gpu.dealloc %w : memref<72x1000xf16>
  gpu.dealloc %y : memref<70x72xf16>
  gpu.dealloc %s : memref<70x1000xf16>
  gpu.dealloc %m : memref<70xf32>
  gpu.dealloc %rs : memref<70xf32>
  return
}
