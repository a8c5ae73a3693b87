// The residual-add → RMSNorm → gate/up chain of a Llama block (bf16, the
// Linear weights through linalg.transpose), from unfused tensor IR to PTX;
// --norm-fuse-matmul folds the norm and its residual add into both matmuls
// (the first also returns S for the residual stream), one-shot bufferization
// gives the memref form the GPU lowering takes, and --norm-lower-to-nvvm
// compiles each fused op to its two tensor-core kernels (cp.async and
// guarded loads), which add R to the A tiles themselves. With ptxas, every
// kernel assembles for sm_80 and sm_90 without local memory.
// RUN: norm-opt %s --norm-fuse-matmul | FileCheck %s --check-prefix=FUSED
// RUN: norm-opt %s --norm-fuse-matmul --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --norm-lower-to-nvvm="format=isa" -o %t.sm90.mlir
// RUN: rm -rf %t.sm90 && %python %S/../Inputs/extract-ptx.py %t.sm90.mlir %t.sm90 | FileCheck %s --check-prefix=EXTRACT
// RUN: FileCheck %s --check-prefixes=PTX,SUM16 < %t.sm90/residual_norm_gate_up_kernel.ptx
// RUN: FileCheck %s --check-prefixes=PTX,NOSUM16 < %t.sm90/residual_norm_gate_up_kernel_1.ptx
// RUN: %if ptxas %{ %python %S/../Inputs/extract-ptx.py %t.sm90.mlir %t.sm90 --ptxas %ptxas --arch sm_90 | FileCheck %s --check-prefix=CLEAN %}
// RUN: %if ptxas %{ norm-opt %s --norm-fuse-matmul --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --norm-lower-to-nvvm="chip=sm_80 features=+ptx70 format=isa" -o %t.sm80.mlir %}
// RUN: %if ptxas %{ rm -rf %t.sm80 && %python %S/../Inputs/extract-ptx.py %t.sm80.mlir %t.sm80 --ptxas %ptxas --arch sm_80 | FileCheck %s --check-prefix=CLEAN %}

// FUSED-LABEL: func.func @residual_norm_gate_up
//   FUSED-NOT:   norm.rms_norm ins
//       FUSED:   norm.rms_norm_matmul ins(%arg0 : tensor<16x256xbf16>) residual(%arg1 : tensor<16x256xbf16>) weight(%arg2 : tensor<256xbf16>) rhs(%arg3 : tensor<512x256xbf16>) outs(%{{.*}} : tensor<16x512xbf16>) sum_outs(%{{.*}} : tensor<16x256xbf16>) {{.*}}transpose_rhs
//       FUSED:   norm.rms_norm_matmul ins(%arg0 : tensor<16x256xbf16>) residual(%arg1 : tensor<16x256xbf16>) weight(%arg2 : tensor<256xbf16>) rhs(%arg4 : tensor<512x256xbf16>) outs(%{{.*}} : tensor<16x512xbf16>) {{{.*}}transpose_rhs}
//   FUSED-NOT:   linalg.matmul

// Two fused ops × (cp.async kernel, guarded kernel).
// EXTRACT: extracted 4 PTX modules

// PTX: cp.async.cg.shared.global
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// The gate projection writes S (16-byte stores of s); up does not.
// SUM16-COUNT-2: st.global.v4.b32
// NOSUM16-NOT:   st.global.v4.b32

// CLEAN-COUNT-4: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// CLEAN-NOT:     error

func.func @residual_norm_gate_up(%x: tensor<16x256xbf16>, %h: tensor<16x256xbf16>, %g: tensor<256xbf16>,
                                 %wg: tensor<512x256xbf16>, %wu: tensor<512x256xbf16>)
    -> (tensor<16x512xbf16>, tensor<16x512xbf16>, tensor<16x256xbf16>) {
  %e = tensor.empty() : tensor<16x256xbf16>
  %n, %s = norm.rms_norm ins(%x : tensor<16x256xbf16>) residual(%h : tensor<16x256xbf16>)
    weight(%g : tensor<256xbf16>) outs(%e : tensor<16x256xbf16>) sum_outs(%e : tensor<16x256xbf16>)
    {epsilon = 1.0e-5 : f32} -> tensor<16x256xbf16>, tensor<16x256xbf16>
  %te = tensor.empty() : tensor<256x512xbf16>
  %wgt = linalg.transpose ins(%wg : tensor<512x256xbf16>) outs(%te : tensor<256x512xbf16>) permutation = [1, 0]
  %wut = linalg.transpose ins(%wu : tensor<512x256xbf16>) outs(%te : tensor<256x512xbf16>) permutation = [1, 0]
  %zero = arith.constant 0.0 : bf16
  %ce = tensor.empty() : tensor<16x512xbf16>
  %z = linalg.fill ins(%zero : bf16) outs(%ce : tensor<16x512xbf16>) -> tensor<16x512xbf16>
  %gate = linalg.matmul ins(%n, %wgt : tensor<16x256xbf16>, tensor<256x512xbf16>) outs(%z : tensor<16x512xbf16>) -> tensor<16x512xbf16>
  %up = linalg.matmul ins(%n, %wut : tensor<16x256xbf16>, tensor<256x512xbf16>) outs(%z : tensor<16x512xbf16>) -> tensor<16x512xbf16>
  return %gate, %up, %s : tensor<16x512xbf16>, tensor<16x512xbf16>, tensor<16x256xbf16>
}
