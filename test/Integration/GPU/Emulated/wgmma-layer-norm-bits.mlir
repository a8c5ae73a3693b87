// The sm_90a wgmma kernel's LayerNorm statistics are those of the mma.sync
// kernel bit for bit: the pivot (the mean of the row's first 32 elements,
// each half summed from 0, then added), Σ(x − p) and Σ(x − p)² summed over
// the same elements in the same order (the wgmma thread takes the mma.sync
// thread's half of both 32-column halves of a 64-column K tile), r and
// μ = p + (μ − p) from the same epilogue code (emitRowScale). Emulated on
// host threads, the saved mean and rstd of LayerNorm → matmul (bf16, γ, β,
// W as K×N, K = 1000 with a tail, rows of mean ±10⁴; f16, W as N×K,
// K = 520) are printed as their bit patterns (i32) and compared whole with
// the mma.sync kernel's (chip=sm_90): pipelined 64 × 128 (the default),
// 128 × 256, serial, and the chunks in the order c. C itself differs in the
// last bits (the MMAs add in another order).
// (The sanitizer runs drop what follows %emulated_run: nothing to compare.)
// REQUIRES: mlir-runner
// UNSUPPORTED: sanitizers
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_90 max-split-k=1" --norm-test-emulate-gpu-on-cpu %emulated_to_llvm | %emulated_run | sed -e 's/base@ = [0-9a-fx]*//' > %t.sm90
// RUN: FileCheck %s < %t.sm90
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_90a max-split-k=1" --norm-test-emulate-gpu-on-cpu %emulated_to_llvm | %emulated_run | sed -e 's/base@ = [0-9a-fx]*//' > %t.pipe
// RUN: cmp %t.sm90 %t.pipe
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_90a max-split-k=1 wgmma-block-m=128 wgmma-block-n=256" --norm-test-emulate-gpu-on-cpu %emulated_to_llvm | %emulated_run | sed -e 's/base@ = [0-9a-fx]*//' > %t.256
// RUN: cmp %t.sm90 %t.256
// RUN: norm-opt %s --convert-norm-to-gpu="chip=sm_90a max-split-k=1 wgmma-pipeline=0 wgmma-conflict-free-prologue=0" --norm-test-emulate-gpu-on-cpu %emulated_to_llvm | %emulated_run | sed -e 's/base@ = [0-9a-fx]*//' > %t.serial
// RUN: cmp %t.sm90 %t.serial
// CHECK-COUNT-4: Unranked Memref rank = 1 offset = 0 sizes = [{{200|70}}] strides = [1] data =

func.func private @norm_test_fill_bf16(memref<*xbf16>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_bf16(memref<*xbf16>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_f16(memref<*xf16>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_f16(memref<*xf16>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  call @ln_kn_bf16() : () -> ()
  call @ln_nk_f16() : () -> ()
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

func.func @ln_kn_bf16() {
  %x = gpu.alloc host_shared () : memref<200x1000xbf16>
  %x_u = memref.cast %x : memref<200x1000xbf16> to memref<*xbf16>
  %x_seed = arith.constant 9301 : i64
  %x_mean = arith.constant 1.0e4 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_bf16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xbf16>, i64, f64, f64, i64) -> ()
  %g = gpu.alloc host_shared () : memref<1000xbf16>
  %g_u = memref.cast %g : memref<1000xbf16> to memref<*xbf16>
  %g_seed = arith.constant 9302 : i64
  %g_mean = arith.constant 0.5 : f64
  %g_scale = arith.constant 1.0 : f64
  func.call @norm_test_fill_bf16(%g_u, %g_seed, %g_mean, %g_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %b = gpu.alloc host_shared () : memref<1000xbf16>
  %b_u = memref.cast %b : memref<1000xbf16> to memref<*xbf16>
  %b_seed = arith.constant 9303 : i64
  %b_mean = arith.constant 0.1 : f64
  %b_scale = arith.constant 0.5 : f64
  func.call @norm_test_fill_bf16(%b_u, %b_seed, %b_mean, %b_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %w = gpu.alloc host_shared () : memref<1000x136xbf16>
  %w_u = memref.cast %w : memref<1000x136xbf16> to memref<*xbf16>
  %w_seed = arith.constant 9304 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_bf16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xbf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<200x136xbf16>
  %m = gpu.alloc host_shared () : memref<200xf32>
  %rs = gpu.alloc host_shared () : memref<200xf32>
  norm.layer_norm_matmul ins(%x : memref<200x1000xbf16>) weight(%g : memref<1000xbf16>) bias(%b : memref<1000xbf16>) rhs(%w : memref<1000x136xbf16>) outs(%y : memref<200x136xbf16>) mean_outs(%m : memref<200xf32>) rstd_outs(%rs : memref<200xf32>) {epsilon = 1.0e-05 : f64}
  %md = memref.cast %m : memref<200xf32> to memref<?xf32>
  %rsd = memref.cast %rs : memref<200xf32> to memref<?xf32>
  call @print_bits(%md) : (memref<?xf32>) -> ()
  call @print_bits(%rsd) : (memref<?xf32>) -> ()
  gpu.dealloc %x : memref<200x1000xbf16>
  gpu.dealloc %g : memref<1000xbf16>
  gpu.dealloc %b : memref<1000xbf16>
  gpu.dealloc %w : memref<1000x136xbf16>
  gpu.dealloc %y : memref<200x136xbf16>
  gpu.dealloc %m : memref<200xf32>
  gpu.dealloc %rs : memref<200xf32>
  return
}

func.func @ln_nk_f16() {
  %x = gpu.alloc host_shared () : memref<70x520xf16>
  %x_u = memref.cast %x : memref<70x520xf16> to memref<*xf16>
  %x_seed = arith.constant 9311 : i64
  %x_mean = arith.constant 1.0e3 : f64
  %x_scale = arith.constant 1.0 : f64
  %x_axis = arith.constant 1 : i64
  func.call @norm_test_fill_rows_f16(%x_u, %x_seed, %x_mean, %x_scale, %x_axis) : (memref<*xf16>, i64, f64, f64, i64) -> ()
  %w = gpu.alloc host_shared () : memref<72x520xf16>
  %w_u = memref.cast %w : memref<72x520xf16> to memref<*xf16>
  %w_seed = arith.constant 9312 : i64
  %w_mean = arith.constant 0.02 : f64
  %w_scale = arith.constant 0.1 : f64
  func.call @norm_test_fill_f16(%w_u, %w_seed, %w_mean, %w_scale) : (memref<*xf16>, i64, f64, f64) -> ()
  %y = gpu.alloc host_shared () : memref<70x72xf16>
  %m = gpu.alloc host_shared () : memref<70xf32>
  %rs = gpu.alloc host_shared () : memref<70xf32>
  norm.layer_norm_matmul ins(%x : memref<70x520xf16>) rhs(%w : memref<72x520xf16>) outs(%y : memref<70x72xf16>) mean_outs(%m : memref<70xf32>) rstd_outs(%rs : memref<70xf32>) {epsilon = 1.0e-05 : f64, transpose_rhs}
  %md = memref.cast %m : memref<70xf32> to memref<?xf32>
  %rsd = memref.cast %rs : memref<70xf32> to memref<?xf32>
  call @print_bits(%md) : (memref<?xf32>) -> ()
  call @print_bits(%rsd) : (memref<?xf32>) -> ()
  gpu.dealloc %x : memref<70x520xf16>
  gpu.dealloc %w : memref<72x520xf16>
  gpu.dealloc %y : memref<70x72xf16>
  gpu.dealloc %m : memref<70xf32>
  gpu.dealloc %rs : memref<70xf32>
  return
}
