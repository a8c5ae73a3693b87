// The default parallel-threshold is derived: an op of B bytes splits over T
// threads when B >= T/(T-1) * fork-join-ns * core-bytes-per-ns (avx2: 40
// bytes/ns, fork/join 2000 ns; T = 2 when num-threads is 0, unknown). So on
// avx2 at 2 threads from 160000 bytes: RMSNorm f32 16x4096 (x and y, 512
// KiB) splits, 2x4096 (64 KiB) does not.
// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx2 num-threads=2" --canonicalize | FileCheck %s --check-prefixes=SPLIT16,SERIAL2,SPLIT256,SERIAL4,SPLITBF
// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx2" --canonicalize | FileCheck %s --check-prefixes=SPLIT16,SERIAL2,SPLIT256,SERIAL4
// At 4 threads the other threads save 3/4 of the serial time: from 106667
// bytes, so 4x4096 (128 KiB) splits too.
// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx2 num-threads=4" --canonicalize | FileCheck %s --check-prefixes=SPLIT16,SERIAL2,SPLIT256,SPLIT4
// On avx512 (128 bytes/ns) the break-even is 512000 bytes: 16x4096 f32
// (524288) just splits; with a 7 us fork/join it would not.
// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx512 num-threads=2" --canonicalize | FileCheck %s --check-prefixes=SPLIT16,SERIAL2,SPLIT256,SERIAL4,SERIALBF
// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx512 num-threads=2 fork-join-ns=7000" --canonicalize | FileCheck %s --check-prefixes=SERIAL16,SERIAL2,SPLIT256,SERIAL4
// With target=host both constants default to those measured on the host's
// CPU (its LLVM name; host-cpu names another, which makes this test the same
// on every host): znver3 40 B/ns and 2000 ns (from 160000 bytes), znver4 56
// and 900 (from 100800: RMSNorm bf16 16x4096, 256 KiB, and f32 4x4096 split),
// znver5 128 and 2000 (from 512000). Explicit constants win over the CPU's.
// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=host host-cpu=znver3 num-threads=2" --canonicalize | FileCheck %s --check-prefixes=SPLIT16,SERIAL2,SPLIT256,SERIAL4,SPLITBF
// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=host host-cpu=znver4 num-threads=2" --canonicalize | FileCheck %s --check-prefixes=SPLIT16,SERIAL2,SPLIT256,SPLIT4,SPLITBF
// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=host host-cpu=znver5 num-threads=2" --canonicalize | FileCheck %s --check-prefixes=SPLIT16,SERIAL2,SPLIT256,SERIAL4,SERIALBF
// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=host host-cpu=znver4 num-threads=2 fork-join-ns=2000 core-bytes-per-ns=128" --canonicalize | FileCheck %s --check-prefixes=SPLIT16,SERIAL2,SPLIT256,SERIAL4,SERIALBF
// The two constants are options: a slow core (1 byte/ns) splits 2x4096.
// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx2 num-threads=2 core-bytes-per-ns=1" --canonicalize | FileCheck %s --check-prefixes=SPLIT16,SPLIT2,SPLIT256,SPLIT4
// An explicit threshold is used as it is: 1 MiB keeps 16x4096 serial, 0
// splits every op of more than one row; -1 never splits.
// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx2 num-threads=2 parallel-threshold=1048576" --canonicalize | FileCheck %s --check-prefixes=SERIAL16,SERIAL2,SPLIT256,SERIAL4
// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx2 num-threads=2 parallel-threshold=0" --canonicalize | FileCheck %s --check-prefixes=SPLIT16,SPLIT2,SPLIT256,SPLIT4
// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx2 num-threads=2 parallel-threshold=-1" --canonicalize | FileCheck %s --check-prefixes=SERIAL16,SERIAL2,SERIAL256,SERIAL4
// One thread never splits, whatever the threshold.
// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx2 num-threads=1" --canonicalize | FileCheck %s --check-prefixes=SERIAL16,SERIAL2,SERIAL256,SERIAL4
// RUN: norm-opt %s --split-input-file --convert-norm-to-vector="target=avx2 num-threads=1 parallel-threshold=0" --canonicalize | FileCheck %s --check-prefixes=SERIAL16,SERIAL2,SERIAL256,SERIAL4
// Bad values are located errors.
// RUN: not norm-opt %s --split-input-file --convert-norm-to-vector="parallel-threshold=-3" 2>&1 | FileCheck %s --check-prefix=BADTHRESH
// RUN: not norm-opt %s --split-input-file --convert-norm-to-vector="fork-join-ns=-2" 2>&1 | FileCheck %s --check-prefix=BADFORK
// RUN: not norm-opt %s --split-input-file --convert-norm-to-vector="target=host host-cpu=zen9" 2>&1 | FileCheck %s --check-prefix=BADCPU
// RUN: not norm-opt %s --split-input-file --convert-norm-to-vector="target=host host-cpu=pentium4" 2>&1 | FileCheck %s --check-prefix=BADCPU32
// RUN: not norm-opt %s --split-input-file --convert-norm-to-vector="target=avx512-bf16 host-cpu=znver4" 2>&1 | FileCheck %s --check-prefix=CPUTARGET
// RUN: not norm-opt %s --split-input-file --convert-norm-to-vector="core-bytes-per-ns=-5" 2>&1 | FileCheck %s --check-prefix=BADRATE
// RUN: not norm-opt %s --split-input-file --convert-norm-to-vector="num-threads=5000" 2>&1 | FileCheck %s --check-prefix=BADTHREADS

// BADTHRESH: parallel-threshold.mlir:{{[0-9]+}}:{{[0-9]+}}: error: convert-norm-to-vector: parallel-threshold must be a byte count, -1 (never) or -2 (derived), got -3
// BADFORK: parallel-threshold.mlir:{{[0-9]+}}:{{[0-9]+}}: error: convert-norm-to-vector: fork-join-ns must be in [-1, 1000000000], got -2
// BADCPU: parallel-threshold.mlir:{{[0-9]+}}:{{[0-9]+}}: error: convert-norm-to-vector: host-cpu must be an x86-64 CPU name LLVM knows (e.g. znver4, sapphirerapids), got 'zen9'
// BADCPU32: parallel-threshold.mlir:{{[0-9]+}}:{{[0-9]+}}: error: convert-norm-to-vector: host-cpu must be an x86-64 CPU name LLVM knows (e.g. znver4, sapphirerapids), got 'pentium4'
// CPUTARGET: parallel-threshold.mlir:{{[0-9]+}}:{{[0-9]+}}: error: convert-norm-to-vector: host-cpu applies to target=host only, got host-cpu=znver4 with target=avx512-bf16
// BADRATE: parallel-threshold.mlir:{{[0-9]+}}:{{[0-9]+}}: error: convert-norm-to-vector: core-bytes-per-ns must be in [0, 1000000], got -5
// BADTHREADS: parallel-threshold.mlir:{{[0-9]+}}:{{[0-9]+}}: error: convert-norm-to-vector: num-threads must be in [0, 1024], got 5000

// SPLIT16-LABEL: func.func @rows16
//       SPLIT16:   scf.parallel
// SERIAL16-LABEL: func.func @rows16
//   SERIAL16-NOT:   scf.parallel
//       SERIAL16:   return
func.func @rows16(%x: memref<16x4096xf32>, %g: memref<4096xf32>, %y: memref<16x4096xf32>) {
  norm.rms_norm ins(%x : memref<16x4096xf32>) weight(%g : memref<4096xf32>) outs(%y : memref<16x4096xf32>)
  return
}

// -----

// SPLIT2-LABEL: func.func @rows2
//       SPLIT2:   scf.parallel
// SERIAL2-LABEL: func.func @rows2
//   SERIAL2-NOT:   scf.parallel
//       SERIAL2:   return
func.func @rows2(%x: memref<2x4096xf32>, %g: memref<4096xf32>, %y: memref<2x4096xf32>) {
  norm.rms_norm ins(%x : memref<2x4096xf32>) weight(%g : memref<4096xf32>) outs(%y : memref<2x4096xf32>)
  return
}

// -----

// SPLIT4-LABEL: func.func @rows4
//       SPLIT4:   scf.parallel
// SERIAL4-LABEL: func.func @rows4
//   SERIAL4-NOT:   scf.parallel
//       SERIAL4:   return
func.func @rows4(%x: memref<4x4096xf32>, %g: memref<4096xf32>, %y: memref<4x4096xf32>) {
  norm.rms_norm ins(%x : memref<4x4096xf32>) weight(%g : memref<4096xf32>) outs(%y : memref<4x4096xf32>)
  return
}

// -----

// SPLIT256-LABEL: func.func @rows256
//       SPLIT256:   scf.parallel
// SERIAL256-LABEL: func.func @rows256
//   SERIAL256-NOT:   scf.parallel
//       SERIAL256:   return
func.func @rows256(%x: memref<256x4096xbf16>, %g: memref<4096xbf16>, %y: memref<256x4096xbf16>) {
  norm.layer_norm ins(%x : memref<256x4096xbf16>) weight(%g : memref<4096xbf16>) outs(%y : memref<256x4096xbf16>)
  return
}

// -----

// SPLITBF-LABEL: func.func @rows16bf16
//       SPLITBF:   scf.parallel
// SERIALBF-LABEL: func.func @rows16bf16
//   SERIALBF-NOT:   scf.parallel
//       SERIALBF:   return
func.func @rows16bf16(%x: memref<16x4096xbf16>, %g: memref<4096xbf16>, %y: memref<16x4096xbf16>) {
  norm.rms_norm ins(%x : memref<16x4096xbf16>) weight(%g : memref<4096xbf16>) outs(%y : memref<16x4096xbf16>)
  return
}
