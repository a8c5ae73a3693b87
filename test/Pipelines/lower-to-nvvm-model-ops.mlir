// --norm-lower-to-nvvm lowers the ops of a transformer layer around the
// norms: tensor-level input is bufferized as --norm-lower-to-cpu does (each
// buffer then managed memory), and the linalg ops convert-norm-to-gpu does
// not take become upstream's parallel loops, one thread an element
// (norm-gpu-map-host-loops), and kernels (convert-parallel-loops-to-gpu).
// Each function keeps no linalg, tensor, norm or bufferization op, launches
// its kernels from LLVM-dialect host code that translates to LLVM IR, and
// its PTX assembles.
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_80 format=isa" -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mlir-translate --mlir-to-llvmir %t.mlir -o /dev/null
// RUN: %if ptxas %{ rm -rf %t.ptx && %python %S/../Integration/GPU/Inputs/extract-ptx.py %t.mlir %t.ptx --ptxas %ptxas --arch sm_80 > /dev/null %}
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_90a format=isa" | mlir-translate --mlir-to-llvmir -o /dev/null

// CHECK-NOT: linalg.
// CHECK-NOT: tensor.
// CHECK-NOT: norm.
// CHECK-NOT: bufferization.

// An elementwise op on buffers: a kernel of 256-thread blocks.
// CHECK-LABEL: llvm.func @generic(
// CHECK:         gpu.launch_func {{.*}}@generic_kernel::@generic_kernel
// CHECK:       gpu.binary @generic_kernel
#map = affine_map<(d0) -> (d0)>
func.func @generic(%a: memref<64xf32>, %b: memref<64xf32>) {
  linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%a : memref<64xf32>) outs(%b : memref<64xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}

// Matmuls the GEMM does not take (without lower-matmuls, batch matmuls):
// a thread an element of C, the K loop in the thread.
// CHECK-LABEL: llvm.func @matmul(
// CHECK:         gpu.launch_func {{.*}}@matmul_kernel::@matmul_kernel
func.func @matmul(%a: memref<16x32xf32>, %b: memref<32x8xf32>, %c: memref<16x8xf32>) {
  linalg.matmul ins(%a, %b : memref<16x32xf32>, memref<32x8xf32>) outs(%c : memref<16x8xf32>)
  return
}

// CHECK-LABEL: llvm.func @batch_matmul(
// CHECK:         gpu.launch_func {{.*}}@batch_matmul_kernel::@batch_matmul_kernel
func.func @batch_matmul(%a: memref<2x16x32xf16>, %b: memref<2x32x8xf16>, %c: memref<2x16x8xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<2x16x32xf16>, memref<2x32x8xf16>) outs(%c : memref<2x16x8xf32>)
  return
}

// A norm on tensors: bufferized, its output allocated as managed memory,
// the row kernel.
// CHECK-LABEL: llvm.func @norm_on_tensors(
// CHECK:         llvm.call @mgpuMemAlloc(%{{.*}}, %{{.*}}, %{{.*}}) : (i64, !llvm.ptr, i8)
// CHECK:         gpu.launch_func {{.*}}@norm_on_tensors_kernel
func.func @norm_on_tensors(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %y = norm.rms_norm ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// GELU with math.erf after a transpose, on tensors of a dynamic size: the
// transpose and the elementwise chain fuse into one kernel; erf comes from
// libdevice.
// CHECK-LABEL: llvm.func @gelu_transposed(
// CHECK:         gpu.launch_func {{.*}}@gelu_transposed_kernel::@gelu_transposed_kernel
// CHECK-NOT:     gpu.launch_func
// CHECK:       gpu.binary @gelu_transposed_kernel
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @gelu_transposed(%x: tensor<64x?xf32>) -> tensor<?x64xf32> {
  %c1 = arith.constant 1 : index
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %r = arith.constant 0.70710678 : f32
  %n = tensor.dim %x, %c1 : tensor<64x?xf32>
  %e = tensor.empty(%n) : tensor<?x64xf32>
  %t = linalg.transpose ins(%x : tensor<64x?xf32>) outs(%e : tensor<?x64xf32>) permutation = [1, 0]
  %e2 = tensor.empty(%n) : tensor<?x64xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t : tensor<?x64xf32>) outs(%e2 : tensor<?x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.mulf %a, %r : f32
    %f = math.erf %s : f32
    %p = arith.addf %f, %one : f32
    %h = arith.mulf %a, %half : f32
    %g = arith.mulf %h, %p : f32
    linalg.yield %g : f32
  } -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// A row reduction (softmax's max): a thread a row, the reduction loop in
// the thread; the fill before it a kernel of its own.
// CHECK-LABEL: llvm.func @row_max(
// CHECK-COUNT-2: gpu.launch_func
// CHECK-NOT:     gpu.launch_func
// CHECK:         llvm.return
#rows = affine_map<(d0, d1) -> (d0)>
func.func @row_max(%x: tensor<8x16xf32>) -> tensor<8xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<8xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %m = linalg.generic {indexing_maps = [#id, #rows], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x16xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %v = arith.maximumf %a, %acc : f32
    linalg.yield %v : f32
  } -> tensor<8xf32>
  return %m : tensor<8xf32>
}
