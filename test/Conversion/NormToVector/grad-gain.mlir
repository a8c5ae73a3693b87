// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx512 parallel-threshold=-1 streaming-threshold=-1 prefetch=false" | FileCheck %s

// A bf16 γ is widened to f32 once for the kernel, before the chunks, and
// the sweeps of every row load it as f32 (kGainBufferMaxRowBytes: rows of
// 64 elements take 64 · (2 + 2 + 4) bytes, within 32 KiB).
// CHECK-LABEL: func.func @rms_bf16_short
//  CHECK-SAME: %[[GARG:[^:]*]]: memref<64xbf16>
//       CHECK: %[[G:.*]] = memref.reinterpret_cast %[[GARG]]
//       CHECK: %[[GAIN:.*]] = memref.alloc(%c64) {alignment = 64 : i64} : memref<?xf32>
//       CHECK: scf.for %[[J:.*]] =
//       CHECK:   %[[V:.*]] = vector.load %[[G]][%[[J]]] : memref<64xbf16>, vector<16xbf16>
//       CHECK:   %[[W:.*]] = arith.extf %[[V]] : vector<16xbf16> to vector<16xf32>
//       CHECK:   vector.store %[[W]], %[[GAIN]][%[[J]]] : memref<?xf32>, vector<16xf32>
//       CHECK: vector.maskedstore %[[GAIN]][
//   CHECK-NOT: %[[G]][
//       CHECK: scf.for %{{.*}} step %c64
//       CHECK:   vector.load %[[GAIN]][%{{.*}}] : memref<?xf32>, vector<16xf32>
//   CHECK-NOT: %[[G]][
//       CHECK: vector.load %[[GAIN]][%{{.*}}] : memref<?xf32>, vector<16xf32>
//   CHECK-NOT: %[[G]][
//       CHECK: memref.dealloc %[[GAIN]] :
func.func @rms_bf16_short(%dy: memref<?x64xbf16>, %x: memref<?x64xbf16>, %g: memref<64xbf16>,
                          %r: memref<?xf32>, %dx: memref<?x64xbf16>, %dg: memref<64xbf16>) {
  norm.rms_norm_grad grad(%dy : memref<?x64xbf16>) ins(%x : memref<?x64xbf16>)
      weight(%g : memref<64xbf16>) rstd(%r : memref<?xf32>) outs(%dx : memref<?x64xbf16>)
      weight_grad_outs(%dg : memref<64xbf16>)
  return
}

// -----

// Rows of 8192 bf16 (64 KiB with the widened γ) widen γ per step: no buffer.
// CHECK-LABEL: func.func @rms_bf16_long
//  CHECK-SAME: %[[GARG:[^:]*]]: memref<8192xbf16>
//       CHECK: %[[G:.*]] = memref.reinterpret_cast %[[GARG]]
//   CHECK-NOT: memref<?xf32>, vector<16xf32>
//       CHECK: scf.for %{{.*}} step %c64
//       CHECK:   vector.load %[[G]][%{{.*}}] : memref<8192xbf16>, vector<16xbf16>
//   CHECK-NOT: memref<?xf32>, vector<16xf32>
//       CHECK: return
func.func @rms_bf16_long(%dy: memref<?x8192xbf16>, %x: memref<?x8192xbf16>, %g: memref<8192xbf16>,
                         %r: memref<?xf32>, %dx: memref<?x8192xbf16>, %dg: memref<8192xbf16>) {
  norm.rms_norm_grad grad(%dy : memref<?x8192xbf16>) ins(%x : memref<?x8192xbf16>)
      weight(%g : memref<8192xbf16>) rstd(%r : memref<?xf32>) outs(%dx : memref<?x8192xbf16>)
      weight_grad_outs(%dg : memref<8192xbf16>)
  return
}

// -----

// An f32 γ needs no widening: no buffer.
// CHECK-LABEL: func.func @ln_f32
//   CHECK-NOT: memref.alloc({{[^,]*}}) {{.*}} : memref<?xf32>
//       CHECK: return
func.func @ln_f32(%dy: memref<?x64xf32>, %x: memref<?x64xf32>, %g: memref<64xf32>,
                  %m: memref<?xf32>, %r: memref<?xf32>, %dx: memref<?x64xf32>,
                  %dg: memref<64xf32>, %db: memref<64xf32>) {
  norm.layer_norm_grad grad(%dy : memref<?x64xf32>) ins(%x : memref<?x64xf32>)
      weight(%g : memref<64xf32>) mean(%m : memref<?xf32>) rstd(%r : memref<?xf32>)
      outs(%dx : memref<?x64xf32>) weight_grad_outs(%dg : memref<64xf32>)
      bias_grad_outs(%db : memref<64xf32>)
  return
}

// -----

// A row length known only at run time: the buffer is filled, and each
// chunk takes the rows with the widened γ when n · 8 bytes fit 32 KiB,
// else widens γ per step: the first branch loads only the buffer, the
// other (from its first load of γ on) never.
// CHECK-LABEL: func.func @ln_bf16_dynamic
//  CHECK-SAME: %[[GARG:[^:]*]]: memref<?xbf16>
//       CHECK: %[[G:.*]] = memref.reinterpret_cast %[[GARG]]
//       CHECK: %[[GAIN:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xf32>
//       CHECK: scf.for
//       CHECK:   %[[BYTES:.*]] = arith.muli %{{.*}}, %c8{{.*}} : index
//       CHECK:   %[[FITS:.*]] = arith.cmpi ule, %[[BYTES]], %c32768{{.*}} : index
//       CHECK:   scf.if %[[FITS]] {
//   CHECK-NOT:     vector.load %[[G]][
//       CHECK:     vector.load %[[GAIN]][
//   CHECK-NOT:     vector.load %[[G]][
//       CHECK:     vector.load %[[G]][
//   CHECK-NOT:     %[[GAIN]][
//       CHECK: memref.dealloc %[[GAIN]] :
func.func @ln_bf16_dynamic(%dy: memref<?x?xbf16>, %x: memref<?x?xbf16>, %g: memref<?xbf16>,
                           %m: memref<?xf32>, %r: memref<?xf32>, %dx: memref<?x?xbf16>,
                           %dg: memref<?xbf16>, %db: memref<?xbf16>) {
  norm.layer_norm_grad grad(%dy : memref<?x?xbf16>) ins(%x : memref<?x?xbf16>)
      weight(%g : memref<?xbf16>) mean(%m : memref<?xf32>) rstd(%r : memref<?xf32>)
      outs(%dx : memref<?x?xbf16>) weight_grad_outs(%dg : memref<?xbf16>)
      bias_grad_outs(%db : memref<?xbf16>)
  return
}

// -----

// dγ and dβ only: no dx, which alone reads the gain: no buffer.
// CHECK-LABEL: func.func @ln_bf16_param_grads
//   CHECK-NOT: memref<?xf32>, vector<16xf32>
//       CHECK: return
func.func @ln_bf16_param_grads(%dy: memref<?x64xbf16>, %x: memref<?x64xbf16>, %g: memref<64xbf16>,
                               %m: memref<?xf32>, %r: memref<?xf32>,
                               %dg: memref<64xf32>, %db: memref<64xf32>) {
  norm.layer_norm_grad grad(%dy : memref<?x64xbf16>) ins(%x : memref<?x64xbf16>)
      weight(%g : memref<64xbf16>) mean(%m : memref<?xf32>) rstd(%r : memref<?xf32>)
      weight_grad_outs(%dg : memref<64xf32>) bias_grad_outs(%db : memref<64xf32>)
  return
}
