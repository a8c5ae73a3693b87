// RUN: norm-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(norm-vectorize-elementwise{target=avx512}))' | FileCheck %s
// RUN: norm-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(norm-vectorize-elementwise{target=avx512 max-row=64}))' | FileCheck %s --check-prefix=SHORT
// RUN: norm-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(norm-vectorize-elementwise{target=avx512 parallel-threshold=-1}))' | FileCheck %s --check-prefix=SERIAL
// RUN: not norm-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(norm-vectorize-elementwise{target=sse9}))' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not norm-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(norm-vectorize-elementwise{max-row=0}))' 2>&1 | FileCheck %s --check-prefix=BAD-ROW

// The thread options' bounds are accepted: at the top (1024 threads, a
// second of fork/join, a TB/s core: the derived threshold is about 1e15
// bytes) every op stays serial; at the bottom (0 threads: unknown, counted
// as 2; no fork/join cost; the target's rate) the threshold is 0 and
// silu_mul splits. -2 is the derived threshold, spelled out.
// RUN: norm-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(norm-vectorize-elementwise{target=avx512 num-threads=1024 fork-join-ns=1000000000 core-bytes-per-ns=1000000 parallel-threshold=-2}))' | FileCheck %s --check-prefix=TOP
// RUN: norm-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(norm-vectorize-elementwise{target=avx512 num-threads=0 fork-join-ns=0 core-bytes-per-ns=0}))' | FileCheck %s --check-prefix=BOTTOM
// One past each bound: a located error (the function the pass runs on)
// and a non-zero exit.
// RUN: not norm-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(norm-vectorize-elementwise{num-threads=-1}))' 2>&1 | FileCheck %s --check-prefix=BAD-THREADS-LOW
// RUN: not norm-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(norm-vectorize-elementwise{num-threads=1025}))' 2>&1 | FileCheck %s --check-prefix=BAD-THREADS
// RUN: not norm-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(norm-vectorize-elementwise{fork-join-ns=-2}))' 2>&1 | FileCheck %s --check-prefix=BAD-FORK-LOW
// RUN: not norm-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(norm-vectorize-elementwise{fork-join-ns=1000000001}))' 2>&1 | FileCheck %s --check-prefix=BAD-FORK
// RUN: not norm-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(norm-vectorize-elementwise{core-bytes-per-ns=-1}))' 2>&1 | FileCheck %s --check-prefix=BAD-RATE-LOW
// RUN: not norm-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(norm-vectorize-elementwise{core-bytes-per-ns=1000001}))' 2>&1 | FileCheck %s --check-prefix=BAD-RATE
// RUN: not norm-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(norm-vectorize-elementwise{parallel-threshold=-3}))' 2>&1 | FileCheck %s --check-prefix=BAD-THRESH
// RUN: not norm-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(norm-vectorize-elementwise{target=host host-cpu=zen9}))' 2>&1 | FileCheck %s --check-prefix=BAD-CPU
// RUN: not norm-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(norm-vectorize-elementwise{target=avx512 host-cpu=znver4}))' 2>&1 | FileCheck %s --check-prefix=BAD-CPU-TARGET
// With target=host the derived threshold's constants are those measured on
// the host CPU; host-cpu names the CPU (the dynamic row sum below compares
// its bytes with the threshold): znver3 2 · 2000 · 40, znver4 2 · 900 · 56,
// znver5 2 · 2000 · 128; explicit constants still win.
// RUN: norm-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(norm-vectorize-elementwise{target=host host-cpu=znver3}))' | FileCheck %s --check-prefix=ZEN3
// RUN: norm-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(norm-vectorize-elementwise{target=host host-cpu=znver4}))' | FileCheck %s --check-prefix=ZEN4
// RUN: norm-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(norm-vectorize-elementwise{target=host host-cpu=znver5}))' | FileCheck %s --check-prefix=ZEN5
// RUN: norm-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(norm-vectorize-elementwise{target=host host-cpu=znver4 fork-join-ns=2000 core-bytes-per-ns=128}))' | FileCheck %s --check-prefix=ZEN5

// BAD: vectorize-elementwise.mlir:{{[0-9]+}}:{{[0-9]+}}: error: norm-vectorize-elementwise: unknown target 'sse9'
// BAD-ROW: vectorize-elementwise.mlir:{{[0-9]+}}:{{[0-9]+}}: error: norm-vectorize-elementwise: max-row must be at least 1
// BAD-THREADS-LOW: vectorize-elementwise.mlir:{{[0-9]+}}:{{[0-9]+}}: error: norm-vectorize-elementwise: num-threads must be in [0, 1024], got -1
// BAD-THREADS: vectorize-elementwise.mlir:{{[0-9]+}}:{{[0-9]+}}: error: norm-vectorize-elementwise: num-threads must be in [0, 1024], got 1025
// BAD-FORK-LOW: vectorize-elementwise.mlir:{{[0-9]+}}:{{[0-9]+}}: error: norm-vectorize-elementwise: fork-join-ns must be in [-1, 1000000000], got -2
// BAD-FORK: vectorize-elementwise.mlir:{{[0-9]+}}:{{[0-9]+}}: error: norm-vectorize-elementwise: fork-join-ns must be in [-1, 1000000000], got 1000000001
// BAD-RATE-LOW: vectorize-elementwise.mlir:{{[0-9]+}}:{{[0-9]+}}: error: norm-vectorize-elementwise: core-bytes-per-ns must be in [0, 1000000], got -1
// BAD-RATE: vectorize-elementwise.mlir:{{[0-9]+}}:{{[0-9]+}}: error: norm-vectorize-elementwise: core-bytes-per-ns must be in [0, 1000000], got 1000001
// BAD-THRESH: vectorize-elementwise.mlir:{{[0-9]+}}:{{[0-9]+}}: error: norm-vectorize-elementwise: parallel-threshold must be a byte count, -1 (never) or -2 (derived), got -3
// BAD-CPU: vectorize-elementwise.mlir:{{[0-9]+}}:{{[0-9]+}}: error: norm-vectorize-elementwise: host-cpu must be an x86-64 CPU name LLVM knows (e.g. znver4, sapphirerapids), got 'zen9'
// BAD-CPU-TARGET: vectorize-elementwise.mlir:{{[0-9]+}}:{{[0-9]+}}: error: norm-vectorize-elementwise: host-cpu applies to target=host only, got host-cpu=znver4 with target=avx512

// An MLP activation, silu(gate)·up: one vector of 16 f32 per tile along the
// row, exp as upstream's polynomial (no libm call), no linalg left. It
// touches 4.3 MB, over the default parallel-threshold (512000 bytes on
// avx512, derived from the fork/join cost): its tiles
// are one scf.parallel (threads, after convert-scf-to-openmp); with
// parallel-threshold=-1 they are scf.for loops. The smaller ops below keep
// scf.for.
// CHECK-LABEL: func.func @silu_mul
//   CHECK-NOT:   linalg.generic
//       CHECK:   scf.parallel (%{{.*}}, %{{.*}}) = (%c0, %c0) to (%c128, %c2816) step (%c1, %c16)
// TOP-LABEL: func.func @silu_mul
//   TOP-NOT:   scf.parallel
//       TOP:   scf.for
// BOTTOM-LABEL: func.func @silu_mul
//       BOTTOM:   scf.parallel
// SERIAL-LABEL: func.func @silu_mul
//   SERIAL-NOT:   scf.parallel
//       SERIAL:   scf.for
//       SERIAL:     scf.for {{.*}} step %c16
//       CHECK:       vector.load {{.*}} : memref<16xf32, {{.*}}>, vector<16xf32>
//       CHECK:       math.fma {{.*}} : vector<16xf32>
//   CHECK-NOT:       math.exp
//       CHECK:       arith.divf {{.*}} : vector<16xf32>
//       CHECK:       vector.store {{.*}} : memref<16xf32, {{.*}}>, vector<16xf32>
func.func @silu_mul(%g: memref<128x2816xf32>, %u: memref<128x2816xf32>, %o: memref<128x2816xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%g, %u : memref<128x2816xf32>, memref<128x2816xf32>) outs(%o : memref<128x2816xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %n = arith.negf %a : f32
    %e = math.exp %n : f32
    %one = arith.constant 1.0 : f32
    %d = arith.addf %e, %one : f32
    %s = arith.divf %a, %d : f32
    %m = arith.mulf %s, %b : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// A row of 37: tiles of 16 up to a masked tail of 5 (vectorized under
// vector.mask, the masks moved into the loads and stores); a bias broadcast
// along the rows is read per tile too.
// CHECK-LABEL: func.func @add_bias_tail
//       CHECK:   scf.for {{.*}} step %c16
//       CHECK:     vector.create_mask
//       CHECK:     vector.maskedload {{.*}} : memref<1x?xf32, {{.*}}>, vector<16xi1>, vector<16xf32> into vector<16xf32>
//       CHECK:     vector.maskedload {{.*}} : memref<?xf32, {{.*}}>, vector<16xi1>, vector<16xf32> into vector<16xf32>
//       CHECK:     arith.addf {{.*}} : vector<16xf32>
//       CHECK:     vector.maskedstore {{.*}} : memref<1x?xf32, {{.*}}>, vector<16xi1>, vector<16xf32>
func.func @add_bias_tail(%x: memref<4x37xf32>, %b: memref<37xf32>, %o: memref<4x37xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : memref<4x37xf32>, memref<37xf32>) outs(%o : memref<4x37xf32>) {
  ^bb0(%a: f32, %c: f32, %d: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A softmax's row max: one row of 100 per tile, one vector.reduction. With
// max-row=64 the row is too long for one vector and is reduced in chunks of
// 16: 4 accumulators over 64 (none here after the first), one over 16, the
// last 4 masked.
// CHECK-LABEL: func.func @row_max
//       CHECK:   vector.load {{.*}} : memref<100xf32, {{.*}}>, vector<100xf32>
//       CHECK:   vector.reduction <maximumf>, {{.*}} : vector<100xf32> into f32
// SHORT-LABEL: func.func @row_max
//   SHORT-NOT:   linalg.generic
//       SHORT:   scf.for {{.*}} step %c64 iter_args({{.*}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
//       SHORT:   scf.for {{.*}} step %c16 iter_args({{.*}}) -> (vector<16xf32>)
//       SHORT:   vector.maskedload
//       SHORT:   vector.reduction <maximumf>, {{.*}} : vector<16xf32> into f32
func.func @row_max(%x: memref<16x128x100xf32>, %o: memref<16x128xf32>) {
  linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : memref<16x128x100xf32>) outs(%o : memref<16x128xf32>) {
  ^bb0(%a: f32, %c: f32):
    %m = arith.maximumf %a, %c : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// bf16: 32 lanes (the vector width of the narrowest-wide type), tanh
// computed in f32 (extended, approximated, rounded back).
// CHECK-LABEL: func.func @bf16_tanh
//       CHECK:   scf.for {{.*}} step %c32
//       CHECK:     vector.load {{.*}} vector<32xbf16>
//       CHECK:     arith.extf {{.*}} : vector<32xbf16> to vector<32xf32>
//   CHECK-NOT:     math.tanh
//       CHECK:     arith.truncf {{.*}} : vector<32xf32> to vector<32xbf16>
func.func @bf16_tanh(%x: memref<8x64xbf16>, %o: memref<8x64xbf16>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<8x64xbf16>) outs(%o : memref<8x64xbf16>) {
  ^bb0(%a: bf16, %c: bf16):
    %t = math.tanh %a : bf16
    linalg.yield %t : bf16
  }
  return
}

// -----

// A keepdim reduction into a [.., 1] buffer (a constant map result, as
// frontends emit a softmax's max): the unit dim is collapsed away first
// (memref.collapse_shape), then it is a plain row reduction.
// CHECK-LABEL: func.func @keepdim_max
//       CHECK:   memref.collapse_shape %{{.*}} {{\[}}[0], [1, 2]] : memref<4x16x1xf32> into memref<4x16xf32>
//       CHECK:   vector.reduction <maximumf>, {{.*}} : vector<128xf32> into f32
//   CHECK-NOT:   linalg.generic
func.func @keepdim_max(%x: memref<4x16x128xf32>, %k: memref<4x16x1xf32>) {
  linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, 0)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : memref<4x16x128xf32>) outs(%k : memref<4x16x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %o : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// Dynamic bounds: tiles of one vector along the row, each masked (the
// mask from the tile's dynamic size), exp as the polynomial.
// CHECK-LABEL: func.func @dynamic_exp
//   CHECK-NOT:   linalg.generic
//       CHECK:   scf.for
//       CHECK:     scf.for {{.*}} step %c16
//       CHECK:       %[[N:.*]] = affine.min
//       CHECK:       %[[MASK:.*]] = vector.create_mask %c1, %[[N]] : vector<1x16xi1>
//       CHECK:       vector.maskedload
//   CHECK-NOT:       math.exp
//       CHECK:       vector.maskedstore
func.func @dynamic_exp(%d: memref<?x?xf32>, %o: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%d : memref<?x?xf32>) outs(%o : memref<?x?xf32>) {
  ^bb0(%a: f32, %b: f32):
    %e = math.exp %a : f32
    linalg.yield %e : f32
  }
  return
}

// -----

// A reduction along a dynamic row (a softmax's Σ exp(x − max) over a
// dynamic key length), in chunks of one vector: the row's max loaded once
// and broadcast, four accumulators over whole groups of 4 vectors, one over
// the remaining whole vectors, the partial last chunk masked with the
// neutral element (0) in its missing lanes, then one vector.reduction that
// starts from the output's value.
// Its size is known at run time only, so both loop nests are emitted: the
// rows on threads (scf.parallel, then OpenMP) when the operands span at
// least parallel-threshold bytes (derived: 2 · 2000 ns · 128 B/ns = 512000
// on avx512, num-threads unknown), one after another otherwise; the
// chunked row is the same in both (checked on the serial nest alone, with
// parallel-threshold=-1).
// CHECK-LABEL: func.func @dynamic_row_sum_exp
//   CHECK-NOT:   linalg.generic
//       CHECK:   %[[LARGE:.*]] = arith.cmpi sge, %{{.*}}, %c512000 : index
// ZEN3-LABEL: func.func @dynamic_row_sum_exp
//       ZEN3:   arith.cmpi sge, %{{.*}}, %c160000 : index
// ZEN4-LABEL: func.func @dynamic_row_sum_exp
//       ZEN4:   arith.cmpi sge, %{{.*}}, %c100800 : index
// ZEN5-LABEL: func.func @dynamic_row_sum_exp
//       ZEN5:   arith.cmpi sge, %{{.*}}, %c512000 : index
//       CHECK:   scf.if %[[LARGE]] {
//       CHECK:     scf.parallel
//       CHECK:       vector.reduction <add>
//       CHECK:   } else {
//       CHECK:     scf.for
//       CHECK:       vector.reduction <add>
// SERIAL-LABEL: func.func @dynamic_row_sum_exp
//   SERIAL-NOT:   scf.if
//   SERIAL-NOT:   scf.parallel
//   SERIAL-NOT:   linalg.generic
//       SERIAL:   scf.for
//       SERIAL:     %[[MAX:.*]] = memref.load
//       SERIAL:     %[[MAXV:.*]] = vector.broadcast %[[MAX]] : f32 to vector<16xf32>
//       SERIAL:     %[[WIDE:.*]]:4 = scf.for {{.*}} step %c64 iter_args(%{{.*}} = %[[ZERO:.*]], %{{.*}} = %[[ZERO]], %{{.*}} = %[[ZERO]], %{{.*}} = %[[ZERO]])
//       SERIAL:       %[[X:.*]] = vector.load {{.*}} vector<16xf32>
//       SERIAL:       arith.subf %[[X]], %[[MAXV]] : vector<16xf32>
//   SERIAL-NOT:       math.exp
//       SERIAL:       arith.addf {{.*}} : vector<16xf32>
// SERIAL-COUNT-3:     vector.load
//       SERIAL:       scf.yield
//       SERIAL:     scf.for {{.*}} step %c16 iter_args
//       SERIAL:     %[[TAIL:.*]] = scf.if
//       SERIAL:       %[[MASK:.*]] = vector.create_mask %{{.*}} : vector<16xi1>
//       SERIAL:       vector.maskedload {{.*}}, %[[MASK]]
//       SERIAL:       %[[KEPT:.*]] = arith.select %[[MASK]], %{{.*}}, %[[ZERO]]
//       SERIAL:       arith.addf %[[KEPT]]
//       SERIAL:     %[[INIT:.*]] = memref.load
//       SERIAL:     %[[SUM:.*]] = vector.reduction <add>, %[[TAIL]], %[[INIT]] : vector<16xf32> into f32
//       SERIAL:     memref.store %[[SUM]]
func.func @dynamic_row_sum_exp(%d: memref<?x?xf32>, %m: memref<?xf32>, %ds: memref<?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%d, %m : memref<?x?xf32>, memref<?xf32>) outs(%ds : memref<?xf32>) {
  ^bb0(%a: f32, %mx: f32, %o: f32):
    %x = arith.subf %a, %mx : f32
    %e = math.exp %x : f32
    %s = arith.addf %e, %o : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// bf16 rows summed in f32 (16 lanes, the f32 width; the loads are
// vector<16xbf16>), a whole dynamic vector reduced to a 0-d output (no loop
// around the row), and an i32 sum of a static row longer than max-row.
// CHECK-LABEL: func.func @chunk_types
//       CHECK:   vector.load {{.*}} : memref<?xbf16>, vector<16xbf16>
//       CHECK:   arith.extf {{.*}} : vector<16xbf16> to vector<16xf32>
//       CHECK:   vector.reduction <add>, {{.*}} : vector<16xf32> into f32
//       CHECK:   memref.store {{.*}} : memref<f32>
//       CHECK:   vector.load {{.*}} vector<16xi32>
//       CHECK:   arith.addi {{.*}} : vector<16xi32>
//       CHECK:   vector.reduction <add>, {{.*}} : vector<16xi32> into i32
//   CHECK-NOT:   linalg.generic
func.func @chunk_types(%b: memref<?xbf16>, %bs: memref<f32>, %i: memref<4x8192xi32>, %is: memref<4xi32>) {
  linalg.generic {indexing_maps = [affine_map<(j) -> (j)>, affine_map<(j) -> ()>],
                  iterator_types = ["reduction"]}
      ins(%b : memref<?xbf16>) outs(%bs : memref<f32>) {
  ^bb0(%a: bf16, %o: f32):
    %f = arith.extf %a : bf16 to f32
    %s = arith.addf %f, %o : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%i : memref<4x8192xi32>) outs(%is : memref<4xi32>) {
  ^bb0(%a: i32, %o: i32):
    %s = arith.addi %a, %o : i32
    linalg.yield %s : i32
  }
  return
}

// -----

// Left alone: a transpose that moves the innermost dim (a gather per
// vector); a reduction over a dim that is not the innermost; index
// elements. Dynamic reductions the chunks cannot take: linalg.index in the
// body, an integer division (a masked lane's 0 would trap), a combiner
// with no neutral element (x − acc), two outputs, a row read with a
// stride. Their scalar math keeps libm (math.exp stays).
// CHECK-LABEL: func.func @left_alone
//       CHECK:   linalg.generic {{.*}} outs(%{{.*}} : memref<4x32xindex>)
// CHECK-COUNT-2: linalg.generic
//       CHECK:   linalg.generic
//       CHECK:     linalg.index 1
//       CHECK:   linalg.generic
//       CHECK:     arith.divsi
//       CHECK:   linalg.generic
//       CHECK:     arith.subf
//       CHECK:   linalg.generic
//       CHECK:     math.exp {{.*}} : f32
//       CHECK:   linalg.generic
//       CHECK:     math.exp {{.*}} : f32
//   CHECK-NOT:   vector.load
func.func @left_alone(%d: memref<?x?xf32>, %x: memref<16x128xf32>,
                      %t: memref<128x16xf32>, %c: memref<128xf32>, %ix: memref<4x32xindex>,
                      %ds: memref<?xf32>, %di: memref<?x?xi32>, %dis: memref<?xi32>,
                      %ds2: memref<?xf32>, %strided: memref<?x?xf32, strided<[?, 2]>>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      outs(%ix : memref<4x32xindex>) {
  ^bb0(%o: index):
    %j = linalg.index 1 : index
    linalg.yield %j : index
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<16x128xf32>) outs(%t : memref<128x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [affine_map<(j, i) -> (i, j)>, affine_map<(j, i) -> (j)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<16x128xf32>) outs(%c : memref<128xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%d : memref<?x?xf32>) outs(%ds : memref<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i32
    %jf = arith.sitofp %ji : i32 to f32
    %p = arith.mulf %a, %jf : f32
    %s = arith.addf %p, %o : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%di : memref<?x?xi32>) outs(%dis : memref<?xi32>) {
  ^bb0(%a: i32, %o: i32):
    %c7 = arith.constant 7 : i32
    %q = arith.divsi %c7, %a : i32
    %s = arith.addi %q, %o : i32
    linalg.yield %s : i32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%d : memref<?x?xf32>) outs(%ds : memref<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.subf %a, %o : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%d : memref<?x?xf32>) outs(%ds, %ds2 : memref<?xf32>, memref<?xf32>) {
  ^bb0(%a: f32, %o: f32, %o2: f32):
    %e = math.exp %a : f32
    %s = arith.addf %e, %o : f32
    %m = arith.maximumf %a, %o2 : f32
    linalg.yield %s, %m : f32, f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%strided : memref<?x?xf32, strided<[?, 2]>>) outs(%ds : memref<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %e = math.exp %a : f32
    %s = arith.addf %e, %o : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// x.pow(2) as torch-mlir writes it: the vectorized fpowi (whose exponent is
// now a vector, which LLVM's powi does not take) becomes a multiply.
// CHECK-LABEL: func.func @pow_two
//   CHECK-NOT:   math.fpowi
//       CHECK:   arith.mulf %[[V:.*]], %[[V]] : vector<16xf32>
//   CHECK-NOT:   math.fpowi
func.func @pow_two(%x: memref<4x64xf32>, %y: memref<4x64xf32>) {
  %c2 = arith.constant 2 : i64
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<4x64xf32>) outs(%y : memref<4x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %p = math.fpowi %a, %c2 : f32, i64
    linalg.yield %p : f32
  }
  return
}

// -----

// Every other column (an inner stride of 2, e.g. the decomposition of a norm
// on such a view): a vector would need a gather, which the transfer
// lowering would leave as a vector.transfer_read nothing lowers; the op
// keeps its loops.
// CHECK-LABEL: func.func @inner_stride
//       CHECK:   linalg.generic
//   CHECK-NOT:   vector.
func.func @inner_stride(%x: memref<6x20xf32, strided<[40, 2]>>, %y: memref<6x20xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<6x20xf32, strided<[40, 2]>>) outs(%y : memref<6x20xf32>) {
  ^bb0(%a: f32, %o: f32):
    %e = math.exp %a : f32
    linalg.yield %e : f32
  }
  return
}
