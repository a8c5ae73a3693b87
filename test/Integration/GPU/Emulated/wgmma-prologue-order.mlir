// The two orders of the sm_90a wgmma GEMM's RMSNorm prologue
// (WarpgroupPrologue.cpp) compute the same bits: each thread's four chunks
// of an A-tile row read and rewritten in order c
// (wgmma-conflict-free-prologue=0) or c ^ (row % 4) (the default), with
// Σx² added in chunk order either way. Emulated on host threads, the f32
// outputs of RMSNorm → matmul (bf16 γ with a K tail; f32 γ with
// weight_offset 1, W as N×K) are printed as their bit patterns (i32) and
// the two runs compared whole; 128 × 256 (two consumer warpgroups) and the
// serial schedule as well. The mma.sync kernel (chip=sm_90) sums Σx² in
// another order, so its bits differ (the comparison can see a difference).
// (The sanitizer runs drop what follows %emulated_run: nothing to compare.)
// REQUIRES: mlir-runner
// UNSUPPORTED: sanitizers
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_90a max-split-k=1 wgmma-conflict-free-prologue=0" --norm-test-emulate-gpu-on-cpu %emulated_to_llvm | %emulated_run | sed -e 's/base@ = [0-9a-fx]*//' > %t.old
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_90a max-split-k=1" --norm-test-emulate-gpu-on-cpu %emulated_to_llvm | %emulated_run | sed -e 's/base@ = [0-9a-fx]*//' > %t.new
// RUN: FileCheck %s < %t.new
// RUN: cmp %t.old %t.new
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_90a max-split-k=1 wgmma-block-m=128 wgmma-block-n=256" --norm-test-emulate-gpu-on-cpu %emulated_to_llvm | %emulated_run | sed -e 's/base@ = [0-9a-fx]*//' > %t.new256
// RUN: cmp %t.old %t.new256
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_90a max-split-k=1 wgmma-pipeline=0" --norm-test-emulate-gpu-on-cpu %emulated_to_llvm | %emulated_run | sed -e 's/base@ = [0-9a-fx]*//' > %t.serial
// RUN: cmp %t.old %t.serial
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_90 max-split-k=1" --norm-test-emulate-gpu-on-cpu %emulated_to_llvm | %emulated_run | sed -e 's/base@ = [0-9a-fx]*//' > %t.sm90
// RUN: FileCheck %s < %t.sm90
// RUN: not cmp -s %t.old %t.sm90

// CHECK: Unranked Memref rank = 2 offset = 0 sizes = [70, 40] strides = [40, 1] data =
// CHECK: Unranked Memref rank = 2 offset = 0 sizes = [33, 24] strides = [24, 1] data =

func.func private @norm_test_fill_bf16(memref<*xbf16>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_f32(memref<*xf32>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_bf16(memref<*xbf16>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  call @gamma_bf16_tail() : () -> ()
  call @gamma_f32_offset_nk() : () -> ()
  return
}

// The bits of y, printed as i32.
func.func @print_bits(%y: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %y, %c0 : memref<?x?xf32>
  %n = memref.dim %y, %c1 : memref<?x?xf32>
  %bits = memref.alloc(%m, %n) : memref<?x?xi32>
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %v = memref.load %y[%i, %j] : memref<?x?xf32>
      %b = arith.bitcast %v : f32 to i32
      memref.store %b, %bits[%i, %j] : memref<?x?xi32>
    }
  }
  %u = memref.cast %bits : memref<?x?xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  memref.dealloc %bits : memref<?x?xi32>
  return
}

// bf16 γ, W as K×N, K = 520 (one chunk in the last K tile).
func.func @gamma_bf16_tail() {
  %x = gpu.alloc host_shared () : memref<70x520xbf16>
  %x_u = memref.cast %x : memref<70x520xbf16> to memref<*xbf16>
  %x_seed = arith.constant 7001 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %g = gpu.alloc host_shared () : memref<520xbf16>
  %g_u = memref.cast %g : memref<520xbf16> to memref<*xbf16>
  %g_seed = arith.constant 7002 : i64
  %g_mean = arith.constant 0.5 : f64
  %g_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %w = gpu.alloc host_shared () : memref<520x40xbf16>
  %w_u = memref.cast %w : memref<520x40xbf16> to memref<*xbf16>
  %w_seed = arith.constant 7003 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<70x40xf32>
  norm.rms_norm_matmul ins(%x : memref<70x520xbf16>) weight(%g : memref<520xbf16>) rhs(%w : memref<520x40xbf16>) outs(%y : memref<70x40xf32>) {epsilon = 1.0e-06 : f64}
  %y_d = memref.cast %y : memref<70x40xf32> to memref<?x?xf32>
  call @print_bits(%y_d) : (memref<?x?xf32>) -> ()
  gpu.dealloc %x : memref<70x520xbf16>
  gpu.dealloc %g : memref<520xbf16>
  gpu.dealloc %w : memref<520x40xbf16>
  gpu.dealloc %y : memref<70x40xf32>
  return
}

// Gemma: f32 γ with bf16 X, weight_offset 1, W as N×K.
func.func @gamma_f32_offset_nk() {
  %x = gpu.alloc host_shared () : memref<33x136xbf16>
  %x_u = memref.cast %x : memref<33x136xbf16> to memref<*xbf16>
  %x_seed = arith.constant 7011 : i64
  %x_mean = arith.constant 0.5 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %g = gpu.alloc host_shared () : memref<136xf32>
  %g_u = memref.cast %g : memref<136xf32> to memref<*xf32>
  %g_seed = arith.constant 7012 : i64
  %g_mean = arith.constant 0.1 : f64
  %g_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_f32(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xf32>, i64, f64, f64) -> ()
  %w = gpu.alloc host_shared () : memref<24x136xbf16>
  %w_u = memref.cast %w : memref<24x136xbf16> to memref<*xbf16>
  %w_seed = arith.constant 7013 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<33x24xf32>
  norm.rms_norm_matmul ins(%x : memref<33x136xbf16>) weight(%g : memref<136xf32>) rhs(%w : memref<24x136xbf16>) outs(%y : memref<33x24xf32>) {epsilon = 1.0e-06 : f64, weight_offset = 1.0 : f32, transpose_rhs}
  %y_d = memref.cast %y : memref<33x24xf32> to memref<?x?xf32>
  call @print_bits(%y_d) : (memref<?x?xf32>) -> ()
  gpu.dealloc %x : memref<33x136xbf16>
  gpu.dealloc %g : memref<136xf32>
  gpu.dealloc %w : memref<24x136xbf16>
  gpu.dealloc %y : memref<33x24xf32>
  return
}
