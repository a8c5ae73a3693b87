// REQUIRES: norm-jit
// --check fails (exit code 1, FAIL at the end of the line, one line per
// compared output on stderr) when an output is wrong, and NaN never passes.
//
// RUN: not norm-run %s --entry=overwritten --check --warmup=0 --repeat=1 2>&1 | FileCheck %s --check-prefix=WRONG
// WRONG: norm-run: check: norm.rms_norm at {{.*}}check-fail.mlir:[[@LINE+10]]:3: y rel_err={{[0-9.e+-]+}} tol=1e-06 FAIL
// WRONG: {{^}}norm-run: entry=overwritten pipeline=project threads=0 bytes=256 {{.*}} rel_err={{[0-9.e+-]+}} tol=1e-06 FAIL{{$}}
//
// RUN: not norm-run %s --entry=nan_stats --dims=4,16,16,16,4,16,4,4 --check --warmup=0 --repeat=1 2>&1 | FileCheck %s --check-prefix=NAN
// NAN-DAG: norm-run: check: norm.layer_norm at {{.*}}: y rel_err={{.*}} tol=1e-06 PASS
// NAN-DAG: norm-run: check: norm.layer_norm at {{.*}}: mean rel_err={{.*}} tol=1e-06 PASS
// NAN-DAG: norm-run: check: norm.layer_norm at {{.*}}: rstd rel_err=nan tol=1e-06 FAIL
// NAN: {{^}}norm-run: entry=nan_stats pipeline=project {{.*}} rel_err=nan tol=1e-06 FAIL{{$}}

func.func @overwritten(%x: memref<4x8xf32>, %y: memref<4x8xf32>) {
  norm.rms_norm ins(%x : memref<4x8xf32>) outs(%y : memref<4x8xf32>)
  %half = arith.constant 0.5 : f32
  linalg.fill ins(%half : f32) outs(%y : memref<4x8xf32>)
  return
}

// rstd overwritten with NaN after the op.
func.func @nan_stats(%x: memref<?x?xf32>, %g: memref<?xf32>, %b: memref<?xf32>,
                     %y: memref<?x?xf32>, %mean: memref<?xf32>, %rstd: memref<?xf32>) {
  norm.layer_norm ins(%x : memref<?x?xf32>) weight(%g : memref<?xf32>)
      bias(%b : memref<?xf32>) outs(%y : memref<?x?xf32>)
      mean_outs(%mean : memref<?xf32>) rstd_outs(%rstd : memref<?xf32>)
  %nan = arith.constant 0x7FC00000 : f32
  linalg.fill ins(%nan : f32) outs(%rstd : memref<?xf32>)
  return
}
