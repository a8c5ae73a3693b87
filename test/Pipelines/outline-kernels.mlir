// A model whose layers repeat compiles each kernel once (issue 28): the
// two layers below, the same body with other baked weights, call the same
// two kernels (the norm fused into the matmul, its γ folded into each
// layer's W, which stays a global passed to the kernel; the activation
// fused with the add), each lowered once to an internal LLVM function.
// outline-kernels=false compiles every site.
// RUN: norm-opt %s --pass-pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu)' | FileCheck %s
// RUN: norm-opt %s --pass-pipeline='builtin.module(norm-fuse-matmul,norm-lower-to-cpu{outline-kernels=false})' | FileCheck %s --check-prefix=INLINE

// CHECK-LABEL: llvm.func @layer0(
// CHECK-COUNT-2: llvm.call @__norm_kernel_{{[0-9]+}}_
// CHECK-NOT:     llvm.call @__norm_kernel
// CHECK:         llvm.return
// CHECK-COUNT-2: llvm.func internal @__norm_kernel_
// CHECK-LABEL: llvm.func @layer1(
// CHECK-COUNT-2: llvm.call @__norm_kernel_{{[0-9]+}}_
// CHECK:         llvm.return
// CHECK-NOT:   llvm.func internal @__norm_kernel_
// INLINE-NOT:  @__norm_kernel

func.func @layer0(%x: tensor<16x64xf32>) -> tensor<16x32xf32> {
  %g = arith.constant dense<1.5> : tensor<64xf32>
  %w = arith.constant dense<0.25> : tensor<64x32xf32>
  %e = tensor.empty() : tensor<16x64xf32>
  %n = norm.rms_norm ins(%x : tensor<16x64xf32>) weight(%g : tensor<64xf32>)
      outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %zero = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<16x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%eo : tensor<16x32xf32>) -> tensor<16x32xf32>
  %m = linalg.matmul ins(%n, %w : tensor<16x64xf32>, tensor<64x32xf32>)
      outs(%acc : tensor<16x32xf32>) -> tensor<16x32xf32>
  %a = linalg.exp ins(%m : tensor<16x32xf32>) outs(%eo : tensor<16x32xf32>) -> tensor<16x32xf32>
  %r = linalg.add ins(%a, %m : tensor<16x32xf32>, tensor<16x32xf32>) outs(%eo : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %r : tensor<16x32xf32>
}

func.func @layer1(%x: tensor<16x64xf32>) -> tensor<16x32xf32> {
  %g = arith.constant dense<0.5> : tensor<64xf32>
  %w = arith.constant dense<-0.25> : tensor<64x32xf32>
  %e = tensor.empty() : tensor<16x64xf32>
  %n = norm.rms_norm ins(%x : tensor<16x64xf32>) weight(%g : tensor<64xf32>)
      outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %zero = arith.constant 0.0 : f32
  %eo = tensor.empty() : tensor<16x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%eo : tensor<16x32xf32>) -> tensor<16x32xf32>
  %m = linalg.matmul ins(%n, %w : tensor<16x64xf32>, tensor<64x32xf32>)
      outs(%acc : tensor<16x32xf32>) -> tensor<16x32xf32>
  %a = linalg.exp ins(%m : tensor<16x32xf32>) outs(%eo : tensor<16x32xf32>) -> tensor<16x32xf32>
  %r = linalg.add ins(%a, %m : tensor<16x32xf32>, tensor<16x32xf32>) outs(%eo : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %r : tensor<16x32xf32>
}
