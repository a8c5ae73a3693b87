// RUN: norm-opt %s --norm-raise | FileCheck %s
// RUN: norm-opt %s --norm-raise=remarks=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// --norm-raise on named linalg ops: linalg.reduce, linalg.broadcast and the
// elementwise named ops (linalg.mul, add, sub, div, rsqrt, sqrt, square,
// reciprocal, elementwise), with constants as linalg.fill or splats.
// test/Integration/CPU/raise-named.test runs them before and after raising.

// REMARK-COUNT-3: remark: norm-raise: raised norm.
// REMARK-NOT: remark

// CHECK-LABEL: func.func @named_rms
//  CHECK-SAME: %[[X:.*]]: tensor<16x64xf32>, %[[G:.*]]: tensor<64xf32>
//       CHECK: %[[Y:.*]] = norm.rms_norm ins(%[[X]] : tensor<16x64xf32>) weight(%[[G]] : tensor<64xf32>) outs(%{{.*}}) {epsilon = 9.99999997E-7 : f32}
//   CHECK-NOT: linalg.
//       CHECK: return %[[Y]]
func.func @named_rms(%x: tensor<16x64xf32>, %g: tensor<64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %inv = arith.constant 0.015625 : f32
  %eps = arith.constant dense<1.0e-6> : tensor<16xf32>
  %e = tensor.empty() : tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<16xf32>
  %sq = linalg.square ins(%x : tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  %ss = linalg.reduce ins(%sq : tensor<16x64xf32>) outs(%z : tensor<16xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  %invt = linalg.fill ins(%inv : f32) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  %ms = linalg.mul ins(%ss, %invt : tensor<16xf32>, tensor<16xf32>) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  %mse = linalg.add ins(%ms, %eps : tensor<16xf32>, tensor<16xf32>) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  %r = linalg.rsqrt ins(%mse : tensor<16xf32>) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  %rb = linalg.broadcast ins(%r : tensor<16xf32>) outs(%e : tensor<16x64xf32>) dimensions = [1]
  %gb = linalg.broadcast ins(%g : tensor<64xf32>) outs(%e : tensor<16x64xf32>) dimensions = [0]
  %xr = linalg.mul ins(%x, %rb : tensor<16x64xf32>, tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %y = linalg.mul ins(%xr, %gb : tensor<16x64xf32>, tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

// LayerNorm: mean by linalg.div, x − μ by linalg.sub, the reciprocal of the
// root (linalg.reciprocal of linalg.sqrt), β by linalg.add.
// CHECK-LABEL: func.func @named_ln
//       CHECK: norm.layer_norm ins(%{{.*}} : tensor<16x64xf32>) weight(%{{.*}}) bias(%{{.*}}) outs(%{{.*}}) {epsilon = 9.99999974E-6 : f32}
//   CHECK-NOT: linalg.
func.func @named_ln(%x: tensor<16x64xf32>, %g: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %nval = arith.constant 64.0 : f32
  %epsv = arith.constant 1.0e-5 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  %n = linalg.fill ins(%nval : f32) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  %eps = linalg.fill ins(%epsv : f32) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  %s = linalg.reduce ins(%x : tensor<16x64xf32>) outs(%z : tensor<16xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  %mu = linalg.div ins(%s, %n : tensor<16xf32>, tensor<16xf32>) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  %mub = linalg.broadcast ins(%mu : tensor<16xf32>) outs(%e : tensor<16x64xf32>) dimensions = [1]
  %d = linalg.sub ins(%x, %mub : tensor<16x64xf32>, tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %d2 = linalg.mul ins(%d, %d : tensor<16x64xf32>, tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %vs = linalg.reduce ins(%d2 : tensor<16x64xf32>) outs(%z : tensor<16xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  %var = linalg.div ins(%vs, %n : tensor<16xf32>, tensor<16xf32>) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  %ve = linalg.add ins(%var, %eps : tensor<16xf32>, tensor<16xf32>) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  %sd = linalg.sqrt ins(%ve : tensor<16xf32>) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  %r = linalg.reciprocal ins(%sd : tensor<16xf32>) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  %rb = linalg.broadcast ins(%r : tensor<16xf32>) outs(%e : tensor<16x64xf32>) dimensions = [1]
  %gb = linalg.broadcast ins(%g : tensor<64xf32>) outs(%e : tensor<16x64xf32>) dimensions = [0]
  %bb = linalg.broadcast ins(%b : tensor<64xf32>) outs(%e : tensor<16x64xf32>) dimensions = [0]
  %dn = linalg.mul ins(%d, %rb : tensor<16x64xf32>, tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %dg = linalg.mul ins(%dn, %gb : tensor<16x64xf32>, tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %y = linalg.add ins(%dg, %bb : tensor<16x64xf32>, tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

// linalg.elementwise and linalg.map.
// CHECK-LABEL: func.func @elementwise_rms
//       CHECK: norm.rms_norm ins(%{{.*}} : tensor<16x64xf32>) outs(%{{.*}}) {epsilon = 9.99999997E-7 : f32}
//   CHECK-NOT: linalg.
func.func @elementwise_rms(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %inv = arith.constant 0.015625 : f32
  %eps = arith.constant 1.0e-6 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %e1 = tensor.empty() : tensor<16xf32>
  %sq = linalg.elementwise kind=#linalg.elementwise_kind<mul> ins(%x, %x : tensor<16x64xf32>, tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16xf32>) -> tensor<16xf32>
  %ss = linalg.reduce ins(%sq : tensor<16x64xf32>) outs(%z : tensor<16xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  %r = linalg.map ins(%ss : tensor<16xf32>) outs(%e1 : tensor<16xf32>)
    (%in: f32, %init: f32) {
      %m = arith.mulf %in, %inv : f32
      %a = arith.addf %m, %eps : f32
      %q = math.rsqrt %a : f32
      linalg.yield %q : f32
    }
  %rb = linalg.broadcast ins(%r : tensor<16xf32>) outs(%e : tensor<16x64xf32>) dimensions = [1]
  %y = linalg.elementwise kind=#linalg.elementwise_kind<mul> ins(%x, %rb : tensor<16x64xf32>, tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}
