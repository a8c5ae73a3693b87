// RUN: norm-opt %s --norm-expand-bf16-truncation --split-input-file | FileCheck %s

// A vector f32 → bf16 truncation: the NaN lanes become the quiet NaN among
// the f32 lanes, then the integer rounding to nearest even.
// CHECK-LABEL: func.func @vector
//  CHECK-SAME: (%[[X:.*]]: vector<8xf32>)
//   CHECK-DAG: %[[QNAN:.*]] = arith.constant dense<0x7FC00000> : vector<8xf32>
//   CHECK-DAG: %[[C16:.*]] = arith.constant dense<16> : vector<8xi32>
//   CHECK-DAG: %[[C1:.*]] = arith.constant dense<1> : vector<8xi32>
//   CHECK-DAG: %[[BIAS:.*]] = arith.constant dense<32767> : vector<8xi32>
//       CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]] : vector<8xf32>
//       CHECK: %[[Q:.*]] = arith.select %[[NAN]], %[[QNAN]], %[[X]] : vector<8xi1>, vector<8xf32>
//       CHECK: %[[BITS:.*]] = arith.bitcast %[[Q]] : vector<8xf32> to vector<8xi32>
//       CHECK: %[[SH:.*]] = arith.shrui %[[BITS]], %[[C16]] : vector<8xi32>
//       CHECK: %[[LSB:.*]] = arith.andi %[[SH]], %[[C1]] : vector<8xi32>
//       CHECK: %[[B1:.*]] = arith.addi %[[BITS]], %[[BIAS]] : vector<8xi32>
//       CHECK: %[[B2:.*]] = arith.addi %[[B1]], %[[LSB]] : vector<8xi32>
//       CHECK: %[[HI:.*]] = arith.shrui %[[B2]], %[[C16]] : vector<8xi32>
//       CHECK: %[[T:.*]] = arith.trunci %[[HI]] : vector<8xi32> to vector<8xi16>
//       CHECK: %[[Y:.*]] = arith.bitcast %[[T]] : vector<8xi16> to vector<8xbf16>
//       CHECK: return %[[Y]]
//   CHECK-NOT: arith.truncf
func.func @vector(%x: vector<8xf32>) -> vector<8xbf16> {
  %y = arith.truncf %x : vector<8xf32> to vector<8xbf16>
  return %y : vector<8xbf16>
}

// -----

// A scalar one, and an explicit to_nearest_even rounding mode.
// CHECK-LABEL: func.func @scalar
//       CHECK: arith.cmpf uno
//       CHECK: arith.select %{{.*}} : f32
//       CHECK: arith.trunci %{{.*}} : i32 to i16
//       CHECK: arith.bitcast %{{.*}} : i16 to bf16
//       CHECK: arith.trunci %{{.*}} : i32 to i16
//   CHECK-NOT: arith.truncf
func.func @scalar(%x: f32) -> (bf16, bf16) {
  %y = arith.truncf %x : f32 to bf16
  %z = arith.truncf %x to_nearest_even : f32 to bf16
  return %y, %z : bf16, bf16
}

// -----

// Left alone: other source or result types, and other rounding modes (the
// integer rounding is to nearest even only).
// CHECK-LABEL: func.func @others
//       CHECK: arith.truncf %{{.*}} : vector<8xf32> to vector<8xf16>
//       CHECK: arith.truncf %{{.*}} : f64 to bf16
//       CHECK: arith.truncf %{{.*}} upward : f32 to bf16
//       CHECK: arith.truncf %{{.*}} toward_zero : vector<4xf32> to vector<4xbf16>
//   CHECK-NOT: arith.trunci
func.func @others(%h: vector<8xf32>, %d: f64, %x: f32, %v: vector<4xf32>)
    -> (vector<8xf16>, bf16, bf16, vector<4xbf16>) {
  %a = arith.truncf %h : vector<8xf32> to vector<8xf16>
  %b = arith.truncf %d : f64 to bf16
  %c = arith.truncf %x upward : f32 to bf16
  %e = arith.truncf %v toward_zero : vector<4xf32> to vector<4xbf16>
  return %a, %b, %c, %e : vector<8xf16>, bf16, bf16, vector<4xbf16>
}
