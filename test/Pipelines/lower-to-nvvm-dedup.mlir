// --norm-lower-to-nvvm generates each kernel that several sites share once
// (issue 28): two equal norm sites, and two equal fused GEMMs (other
// weights), call one dispatch function each, whose kernels (the vector and
// the scalar row kernel; the cp.async and the guarded GEMM) are one
// gpu.binary each, launched for both sites; a norm and a GEMM of other
// shapes get their own kernels, launched where they are. With
// dedup-kernels=false every site has its own kernels (12 gpu.binary ops
// instead of 8). The dispatch functions are checked in the synchronous host
// code (async-launches=0 device-intermediates=0); by default they are
// inlined back into their callers (norm-gpu-inline-dispatch) and the
// kernels stay shared (ASYNC).
// RUN: norm-opt %s --norm-lower-to-nvvm="format=isa gpu-options={max-split-k=1} async-launches=0 device-intermediates=0" -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: mlir-translate --mlir-to-llvmir %t.mlir -o /dev/null
// RUN: norm-opt %s --norm-lower-to-nvvm="format=isa gpu-options={max-split-k=1} dedup-kernels=false" | FileCheck %s --check-prefix=EVERY
// RUN: norm-opt %s --norm-lower-to-nvvm="format=isa gpu-options={max-split-k=1}" | FileCheck %s --check-prefix=ASYNC

// CHECK-LABEL: llvm.func @layers(
// CHECK-COUNT-2: llvm.call @__norm_kernel_0_norm_rms_norm(
// CHECK:         gpu.launch_func  @layers_kernel::@layers_kernel
// CHECK:         gpu.launch_func  @layers_kernel_0::@layers_kernel
// CHECK-COUNT-2: llvm.call @__norm_kernel_1_norm_rms_norm_matmul(
// CHECK:         gpu.launch_func  @layers_kernel_1::@layers_kernel
// CHECK:         gpu.launch_func  @layers_kernel_2::@layers_kernel
// CHECK-NOT:     llvm.call @__norm_kernel
// CHECK:         llvm.return
// CHECK-COUNT-4: gpu.binary @layers_kernel
// CHECK-LABEL: llvm.func internal @__norm_kernel_0_norm_rms_norm(
// CHECK:         gpu.launch_func  @__norm_kernel_0_norm_rms_norm_kernel::@__norm_kernel_0_norm_rms_norm_kernel
// CHECK:         gpu.launch_func  @__norm_kernel_0_norm_rms_norm_kernel_3::@__norm_kernel_0_norm_rms_norm_kernel
// CHECK:         llvm.return
// CHECK:       gpu.binary @__norm_kernel_0_norm_rms_norm_kernel {{.*}}.entry __norm_kernel_0_norm_rms_norm_kernel({{.*}}ld.global.v4
// CHECK:       gpu.binary @__norm_kernel_0_norm_rms_norm_kernel_3
// CHECK-LABEL: llvm.func internal @__norm_kernel_1_norm_rms_norm_matmul(
// CHECK:         gpu.launch_func  @__norm_kernel_1_norm_rms_norm_matmul_kernel::@__norm_kernel_1_norm_rms_norm_matmul_kernel
// CHECK:         gpu.launch_func  @__norm_kernel_1_norm_rms_norm_matmul_kernel_4::@__norm_kernel_1_norm_rms_norm_matmul_kernel
// CHECK:         llvm.return
// CHECK:       gpu.binary @__norm_kernel_1_norm_rms_norm_matmul_kernel {{.*}}mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// CHECK:       gpu.binary @__norm_kernel_1_norm_rms_norm_matmul_kernel_4
// CHECK-NOT:   gpu.binary

// ASYNC-LABEL: llvm.func @layers(
// ASYNC-NOT:     llvm.call @__norm_kernel
// ASYNC-COUNT-4: gpu.launch_func <%{{.*}} : !llvm.ptr> @__norm_kernel_0_norm_rms_norm_kernel
// ASYNC-COUNT-4: gpu.launch_func <%{{.*}} : !llvm.ptr> @__norm_kernel_1_norm_rms_norm_matmul_kernel
// ASYNC:         llvm.return
// ASYNC-COUNT-8: gpu.binary
// ASYNC-NOT:     gpu.binary
// ASYNC-NOT:     llvm.func internal

// EVERY-LABEL: llvm.func @layers(
// EVERY-NOT:     llvm.call @__norm_kernel
// EVERY:         llvm.return
// EVERY-COUNT-12: gpu.binary @layers_kernel
// EVERY-NOT:     gpu.binary
// EVERY-NOT:     llvm.func internal

func.func @layers(%x: memref<64x1024xf32>, %g: memref<1024xf32>, %a: memref<64x1024xf32>,
    %b: memref<64x1024xf32>, %d: memref<8x512xf32>, %e: memref<8x512xf32>,
    %xh: memref<32x256xbf16>, %gh: memref<256xbf16>, %w0: memref<256x512xbf16>,
    %w1: memref<256x512xbf16>, %c0: memref<32x512xbf16>, %c1: memref<32x512xbf16>,
    %w2: memref<256x128xbf16>, %c2: memref<32x128xbf16>) {
  norm.rms_norm ins(%x : memref<64x1024xf32>) weight(%g : memref<1024xf32>) outs(%a : memref<64x1024xf32>)
  norm.rms_norm ins(%a : memref<64x1024xf32>) weight(%g : memref<1024xf32>) outs(%b : memref<64x1024xf32>)
  norm.rms_norm ins(%d : memref<8x512xf32>) outs(%e : memref<8x512xf32>)
  norm.rms_norm_matmul ins(%xh : memref<32x256xbf16>) weight(%gh : memref<256xbf16>)
    rhs(%w0 : memref<256x512xbf16>) outs(%c0 : memref<32x512xbf16>)
  norm.rms_norm_matmul ins(%xh : memref<32x256xbf16>) weight(%gh : memref<256xbf16>)
    rhs(%w1 : memref<256x512xbf16>) outs(%c1 : memref<32x512xbf16>)
  norm.rms_norm_matmul ins(%xh : memref<32x256xbf16>) weight(%gh : memref<256xbf16>)
    rhs(%w2 : memref<256x128xbf16>) outs(%c2 : memref<32x128xbf16>)
  return
}
