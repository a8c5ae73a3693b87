// REQUIRES: norm-jit
// Functions on tensors: the pipeline bufferizes the function boundary, the
// arguments become buffers norm-run fills, the results become buffers the
// callee allocates (norm-run frees them). --check maps the op's results to
// the returned values. Each function runs through the project pipeline, the
// upstream code generation and a textual pipeline.
//
// @rms_t(x: ?x?xf32, g: ?xf32) -> ?x?xf32:            R,N, N
// RUN: norm-run %s --entry=rms_t --dims=4,17,17 --seed=1 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefix=PROJECT
// RUN: norm-run %s --entry=rms_t --dims=9,300,300 --seed=2 --mean=1 --warmup=0 --repeat=2 --check --pipeline=upstream | FileCheck %s --check-prefix=UPSTREAM
// RUN: norm-run %s --entry=rms_t --dims=3,64,64 --seed=3 --warmup=0 --repeat=1 --check --pipeline='builtin.module(norm-lower-to-cpu)' | FileCheck %s --check-prefix=CUSTOM
//
// @ln_stats_t(x, r: ?x?xbf16, g, b: ?xbf16) -> (y, sum, mean, rstd):
//                                                     R,N, R,N, N, N
// RUN: norm-run %s --entry=ln_stats_t --dims=6,50,6,50,50,50 --seed=11 --mean=1 --scale=2 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefix=PROJECT
// RUN: norm-run %s --entry=ln_stats_t --dims=2,1000,2,1000,1000,1000 --seed=12 --warmup=0 --repeat=1 --check --pipeline=upstream | FileCheck %s --check-prefix=UPSTREAM
// RUN: norm-run %s --entry=ln_stats_t --dims=5,7,5,7,7,7 --seed=13 --warmup=0 --repeat=1 --check --pipeline='builtin.module(norm-lower-to-cpu{codegen=upstream})' | FileCheck %s --check-prefix=CUSTOM
//
// @two_norms_t: two independent norm ops in one function, f16; both
// checked (the line reports the worst output).          R,N, N, R,N
// RUN: norm-run %s --entry=two_norms_t --dims=4,96,96,3,40 --seed=21 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefix=PROJECT
// RUN: norm-run %s --entry=two_norms_t --dims=1,8,8,17,24 --seed=22 --dist=normal --warmup=0 --repeat=1 --check --pipeline=upstream | FileCheck %s --check-prefix=UPSTREAM
//
// @static_t: static shapes, no --dims.
// RUN: norm-run %s --entry=static_t --seed=31 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefix=PROJECT
// RUN: norm-run %s --entry=static_t --seed=32 --warmup=0 --repeat=1 --check --pipeline='builtin.module(norm-lower-to-cpu{target=generic num-threads=1})' | FileCheck %s --check-prefix=CUSTOM

// PROJECT: {{^}}norm-run: entry={{[a-z0-9_]+}} pipeline=project threads=0 bytes={{[0-9]+}} median_ms={{[0-9.]+}} min_ms={{[0-9.]+}} gbps={{[0-9.]+}} rel_err={{[0-9.e+-]+}} tol={{.*}} PASS{{$}}
// UPSTREAM: {{^}}norm-run: entry={{[a-z0-9_]+}} pipeline=upstream threads=0 bytes={{[0-9]+}} {{.*}} PASS{{$}}
// CUSTOM: {{^}}norm-run: entry={{[a-z0-9_]+}} pipeline=custom threads=0 bytes={{[0-9]+}} {{.*}} PASS{{$}}

func.func @rms_t(%x: tensor<?x?xf32>, %g: tensor<?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = tensor.dim %x, %c0 : tensor<?x?xf32>
  %n = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%r, %n) : tensor<?x?xf32>
  %y = norm.rms_norm ins(%x : tensor<?x?xf32>) weight(%g : tensor<?xf32>)
      outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @ln_stats_t(%x: tensor<?x?xbf16>, %res: tensor<?x?xbf16>, %g: tensor<?xbf16>, %b: tensor<?xbf16>)
    -> (tensor<?x?xbf16>, tensor<?x?xbf16>, tensor<?xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = tensor.dim %x, %c0 : tensor<?x?xbf16>
  %n = tensor.dim %x, %c1 : tensor<?x?xbf16>
  %e0 = tensor.empty(%r, %n) : tensor<?x?xbf16>
  %e1 = tensor.empty(%r, %n) : tensor<?x?xbf16>
  %e2 = tensor.empty(%r) : tensor<?xf32>
  %e3 = tensor.empty(%r) : tensor<?xf32>
  %y, %s, %mean, %rstd = norm.layer_norm ins(%x : tensor<?x?xbf16>)
      residual(%res : tensor<?x?xbf16>) weight(%g : tensor<?xbf16>) bias(%b : tensor<?xbf16>)
      outs(%e0 : tensor<?x?xbf16>) sum_outs(%e1 : tensor<?x?xbf16>)
      mean_outs(%e2 : tensor<?xf32>) rstd_outs(%e3 : tensor<?xf32>)
      -> tensor<?x?xbf16>, tensor<?x?xbf16>, tensor<?xf32>, tensor<?xf32>
  return %y, %s, %mean, %rstd : tensor<?x?xbf16>, tensor<?x?xbf16>, tensor<?xf32>, tensor<?xf32>
}

func.func @two_norms_t(%x: tensor<?x?xf16>, %g: tensor<?xf16>, %x2: tensor<?x?xf16>)
    -> (tensor<?x?xf16>, tensor<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = tensor.dim %x, %c0 : tensor<?x?xf16>
  %n = tensor.dim %x, %c1 : tensor<?x?xf16>
  %e = tensor.empty(%r, %n) : tensor<?x?xf16>
  %y = norm.rms_norm ins(%x : tensor<?x?xf16>) weight(%g : tensor<?xf16>)
      outs(%e : tensor<?x?xf16>) {weight_offset = 1.0 : f32} -> tensor<?x?xf16>
  %r2 = tensor.dim %x2, %c0 : tensor<?x?xf16>
  %n2 = tensor.dim %x2, %c1 : tensor<?x?xf16>
  %e2 = tensor.empty(%r2, %n2) : tensor<?x?xf16>
  %z = norm.layer_norm ins(%x2 : tensor<?x?xf16>) outs(%e2 : tensor<?x?xf16>) -> tensor<?x?xf16>
  return %y, %z : tensor<?x?xf16>, tensor<?x?xf16>
}

func.func @static_t(%x: tensor<8x48xf32>, %g: tensor<48xf32>) -> tensor<8x48xf32> {
  %init = tensor.empty() : tensor<8x48xf32>
  %y = norm.rms_norm ins(%x : tensor<8x48xf32>) weight(%g : tensor<48xf32>)
      outs(%init : tensor<8x48xf32>) {partial = 0.5 : f32} -> tensor<8x48xf32>
  return %y : tensor<8x48xf32>
}
