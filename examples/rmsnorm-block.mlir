// A transformer-block fragment as a frontend hands it over after raising
// (post-attention residual, RMSNorm, MLP up-projection), then a driver that
// runs it on seeded random inputs and checks every result against a float64
// reference computed on the host.
//
//   h   = x + attn          the residual stream, returned
//   y   = rms_norm(h) · γ   Llama's post-attention norm, ε = 1e-6
//   out = y · W_up          [rows, 256] x [256, 512]
//
// Run it (what scripts/run-example.sh does):
//   norm-opt examples/rmsnorm-block.mlir --norm-lower-to-cpu |
//     mlir-runner -e main -entry-point-result=void \
//       -shared-libs=libmlir_c_runner_utils.so,libmlir_runner_utils.so,build/lib/libnorm_test_runtime.so,libomp.so

func.func @block(%x: tensor<?x256xf32>, %attn: tensor<?x256xf32>, %gamma: tensor<256xf32>,
                 %w_up: tensor<256x512xf32>)
    -> (tensor<?x512xf32>, tensor<?x256xf32>, tensor<?x256xf32>) {
  %c0 = arith.constant 0 : index
  %rows = tensor.dim %x, %c0 : tensor<?x256xf32>
  %y_init = tensor.empty(%rows) : tensor<?x256xf32>
  %h_init = tensor.empty(%rows) : tensor<?x256xf32>
  %y, %h = norm.rms_norm ins(%x : tensor<?x256xf32>) residual(%attn : tensor<?x256xf32>)
      weight(%gamma : tensor<256xf32>) outs(%y_init : tensor<?x256xf32>) sum_outs(%h_init : tensor<?x256xf32>)
      {epsilon = 1.0e-06 : f64} -> tensor<?x256xf32>, tensor<?x256xf32>
  %zero = arith.constant 0.0 : f32
  %out_init = tensor.empty(%rows) : tensor<?x512xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%out_init : tensor<?x512xf32>) -> tensor<?x512xf32>
  %out = linalg.matmul ins(%y, %w_up : tensor<?x256xf32>, tensor<256x512xf32>)
                       outs(%acc : tensor<?x512xf32>) -> tensor<?x512xf32>
  return %out, %h, %y : tensor<?x512xf32>, tensor<?x256xf32>, tensor<?x256xf32>
}

//===----------------------------------------------------------------------===//
// Driver: random inputs, run, verify.
//===----------------------------------------------------------------------===//

func.func private @norm_test_fill_f32(memref<*xf32>, i64, f64, f64) attributes {llvm.emit_c_interface}
func.func private @norm_test_fill_rows_f32(memref<*xf32>, i64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_rms_norm_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>,
    memref<*xf32>, memref<*xf32>, i64, f64, f64, f64, i64) attributes {llvm.emit_c_interface}
func.func private @norm_test_check_rms_norm_matmul_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>,
    memref<*xf32>, memref<*xf32>, f64, f64, i64) attributes {llvm.emit_c_interface}

func.func @main() {
  // Inputs: 64 rows with varied means and scales (one row with |mean| ≫ std),
  // an attention output, γ around 1, and W_up.
  %x_m = memref.alloc() : memref<64x256xf32>
  %attn_m = memref.alloc() : memref<64x256xf32>
  %g_m = memref.alloc() : memref<256xf32>
  %w_m = memref.alloc() : memref<256x512xf32>
  %x_u = memref.cast %x_m : memref<64x256xf32> to memref<*xf32>
  %attn_u = memref.cast %attn_m : memref<64x256xf32> to memref<*xf32>
  %g_u = memref.cast %g_m : memref<256xf32> to memref<*xf32>
  %w_u = memref.cast %w_m : memref<256x512xf32> to memref<*xf32>
  %s1 = arith.constant 1 : i64
  %s2 = arith.constant 2 : i64
  %s3 = arith.constant 3 : i64
  %s4 = arith.constant 4 : i64
  %axis = arith.constant 1 : i64
  %half = arith.constant 0.5 : f64
  %one = arith.constant 1.0 : f64
  %tenth = arith.constant 0.1 : f64
  %quarter = arith.constant 0.25 : f64
  %zero = arith.constant 0.0 : f64
  %wscale = arith.constant 0.0625 : f64
  func.call @norm_test_fill_rows_f32(%x_u, %s1, %half, %one, %axis) : (memref<*xf32>, i64, f64, f64, i64) -> ()
  func.call @norm_test_fill_f32(%attn_u, %s2, %tenth, %half) : (memref<*xf32>, i64, f64, f64) -> ()
  func.call @norm_test_fill_f32(%g_u, %s3, %one, %quarter) : (memref<*xf32>, i64, f64, f64) -> ()
  func.call @norm_test_fill_f32(%w_u, %s4, %zero, %wscale) : (memref<*xf32>, i64, f64, f64) -> ()

  %x_s = bufferization.to_tensor %x_m restrict : memref<64x256xf32> to tensor<64x256xf32>
  %attn_s = bufferization.to_tensor %attn_m restrict : memref<64x256xf32> to tensor<64x256xf32>
  %g = bufferization.to_tensor %g_m restrict : memref<256xf32> to tensor<256xf32>
  %w = bufferization.to_tensor %w_m restrict : memref<256x512xf32> to tensor<256x512xf32>
  %x = tensor.cast %x_s : tensor<64x256xf32> to tensor<?x256xf32>
  %attn = tensor.cast %attn_s : tensor<64x256xf32> to tensor<?x256xf32>
  %out, %h, %y = func.call @block(%x, %attn, %g, %w)
      : (tensor<?x256xf32>, tensor<?x256xf32>, tensor<256xf32>, tensor<256x512xf32>)
        -> (tensor<?x512xf32>, tensor<?x256xf32>, tensor<?x256xf32>)

  %out_m = bufferization.to_buffer %out : tensor<?x512xf32> to memref<?x512xf32>
  %h_m = bufferization.to_buffer %h : tensor<?x256xf32> to memref<?x256xf32>
  %y_m = bufferization.to_buffer %y : tensor<?x256xf32> to memref<?x256xf32>
  %out_u = memref.cast %out_m : memref<?x512xf32> to memref<*xf32>
  %h_u = memref.cast %h_m : memref<?x256xf32> to memref<*xf32>
  %y_u = memref.cast %y_m : memref<?x256xf32> to memref<*xf32>
  // (Buffers live until exit: the CPU pipeline's ownership-based
  // deallocation frees what the program allocates after bufferization.)
  %unused_m = memref.alloc() : memref<1xf32>
  %unused = memref.cast %unused_m : memref<1xf32> to memref<*xf32>

  // The norm and the residual stream: flags = residual | gamma | sum.
  %eps = arith.constant 1.0e-06 : f64
  %no_partial = arith.constant 1.0 : f64
  %norm_flags = arith.constant 35 : i64
  func.call @norm_test_check_rms_norm_f32(%x_u, %attn_u, %g_u, %y_u, %h_u, %unused, %axis, %eps, %zero,
      %no_partial, %norm_flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, f64,
         f64, f64, i64) -> ()
  // The block output, rms_norm(h) · W_up, against float64: flags = gamma.
  %mm_flags = arith.constant 2 : i64
  func.call @norm_test_check_rms_norm_matmul_f32(%h_u, %g_u, %w_u, %unused, %out_u, %eps, %zero, %mm_flags)
      : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, f64, f64, i64) -> ()
  return
}
