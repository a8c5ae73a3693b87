// REQUIRES: norm-jit
// The options and the output line of norm-run.
//
// bytes: every argument and result buffer once. x 4x16xf32 (256) + g 16xf32
// (64) + y 4x16xf32 (256) = 576.
// RUN: norm-run %s --entry=rms --dims=4,16,16,4,16 | FileCheck %s --check-prefix=LINE
// LINE: {{^}}norm-run: entry=rms pipeline=project threads=0 bytes=576 median_ms={{[0-9]+\.[0-9]+}} min_ms={{[0-9]+\.[0-9]+}} gbps={{[0-9]+\.[0-9]+}}{{$}}
//
// Tensor results count too: x 6x50xbf16 (600) + g 50xbf16 (100) + the
// returned y (600) = 1300.
// RUN: norm-run %s --entry=rms_t --dims=6,50,50 --check | FileCheck %s --check-prefix=TBYTES
// TBYTES: {{^}}norm-run: entry=rms_t pipeline=project threads=0 bytes=1300 {{.*}} tol=1e-02 PASS{{$}}
//
// --threads and --target go into the project pipeline's options; --threads
// is echoed.
// RUN: norm-run %s --entry=rms --dims=64,128,128,64,128 --threads=2 --target=avx2 --check | FileCheck %s --check-prefix=THREADS
// RUN: norm-run %s --entry=rms --dims=64,128,128,64,128 --threads 1 --target generic --check | FileCheck %s --check-prefix=THREADS1
// RUN: norm-run %s --entry=rms --dims=64,128,128,64,128 --threads=2 --pipeline=upstream --check | FileCheck %s --check-prefix=UPTHREADS
// THREADS: {{^}}norm-run: entry=rms pipeline=project threads=2 bytes=66048 {{.*}} PASS{{$}}
// THREADS1: {{^}}norm-run: entry=rms pipeline=project threads=1 bytes=66048 {{.*}} PASS{{$}}
// UPTHREADS: {{^}}norm-run: entry=rms pipeline=upstream threads=2 bytes=66048 {{.*}} PASS{{$}}
//
// --print-ir prints the lowered module (only @rms and what it calls), then
// the line.
// RUN: norm-run %s --entry=rms --dims=2,8,8,2,8 --print-ir --warmup=0 --repeat=1 | FileCheck %s --check-prefix=IR
// IR: llvm.func @rms(
// IR: llvm.func @_mlir_ciface_rms(
// IR-NOT: @rms_t
// IR-NOT: @computed
// IR: {{^}}norm-run: entry=rms pipeline=project
//
// --release-memory (glibc's malloc at its defaults) changes no result.
// RUN: norm-run %s --entry=rms --dims=3,33,33,3,33 --release-memory --check | FileCheck %s --check-prefix=PASS
//
// Seeds, distributions, --mean/--scale, --warmup/--repeat and --shared-libs.
// RUN: norm-run %s --entry=rms --dims=3,33,33,3,33 --seed=-7 --dist=normal --mean=-2 --scale=0.5 --warmup=3 --repeat=4 --check | FileCheck %s --check-prefix=PASS
// RUN: norm-run %s --entry=rms --dims=3,33,33,3,33 --seed 123 --dist uniform --scale=0 --mean=1 --check | FileCheck %s --check-prefix=PASS
// RUN: norm-run %s --entry=rms --dims=3,33,33,3,33 --check --shared-libs=%mlir_c_runner_utils,%mlir_runner_utils | FileCheck %s --check-prefix=PASS
// RUN: norm-run --entry=rms %s --dims 3,33,33,3,33 -check | FileCheck %s --check-prefix=PASS
// PASS: {{^}}norm-run: entry=rms pipeline=project threads=0 bytes={{[0-9]+}} {{.*}} rel_err={{[0-9.e+-]+}} tol=1e-06 PASS{{$}}
//
// A norm op --check could not check (its input is computed) runs without
// --check.
// RUN: norm-run %s --entry=computed --warmup=0 --repeat=1 | FileCheck %s --check-prefix=NOCHECK
// NOCHECK: {{^}}norm-run: entry=computed pipeline=project threads=0 bytes=256 median_ms={{[0-9.]+}} min_ms={{[0-9.]+}} gbps={{[0-9.]+}}{{$}}
//
// RUN: norm-run --help | FileCheck %s --check-prefix=HELP
// HELP: usage: norm-run FILE.mlir --entry=<func> [options]
// HELP: --dims=D0,D1,...
// HELP: --release-memory

func.func @rms(%x: memref<?x?xf32>, %g: memref<?xf32>, %y: memref<?x?xf32>) {
  norm.rms_norm ins(%x : memref<?x?xf32>) weight(%g : memref<?xf32>)
      outs(%y : memref<?x?xf32>)
  return
}

func.func @rms_t(%x: tensor<?x?xbf16>, %g: tensor<?xbf16>) -> tensor<?x?xbf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = tensor.dim %x, %c0 : tensor<?x?xbf16>
  %n = tensor.dim %x, %c1 : tensor<?x?xbf16>
  %e = tensor.empty(%r, %n) : tensor<?x?xbf16>
  %y = norm.rms_norm ins(%x : tensor<?x?xbf16>) weight(%g : tensor<?xbf16>)
      outs(%e : tensor<?x?xbf16>) -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}

func.func @computed(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %x2 = linalg.add ins(%x, %x : tensor<4x8xf32>, tensor<4x8xf32>)
      outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %y = norm.rms_norm ins(%x2 : tensor<4x8xf32>) outs(%e2 : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
