// REQUIRES: norm-jit
// norm-run --check of quantized norm results (DESIGN.md section 8), in
// tensor form (a function may return f8E4M3FN, f8E5M2 or i8; it may not
// take them): every quantized element against the quantization of the
// float64 y / s (equal, or one step off within 1e-6 of a rounding
// boundary), the dynamic scales within 1e-6, the residual sum as usual.
// The static scale is a constant or an argument (a 0-d tensor).
//
// RUN: norm-run %s --entry=rms_e4m3_const --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=rms_e4m3_const --seed=2 --mean=0.5 --scale=3 --dist=normal --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=rms_i8_arg --arg-mean=1:1,2:0.05 --scale=0.01 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=rms_e5m2_token_residual --mean=0.5 --scale=2 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=ln_i8_group --seed=5 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=ln_i8_group --seed=6 --dist=normal --mean=-1 --scale=4 --warmup=0 --repeat=1 --check | FileCheck %s

// cast_mode = before_weight: the normalized value rounds to x's type, and
// the weight step (γ, its offset, β) is never rounded before the
// quantization (DESIGN.md section 8), on the CPU row kernel (project) and
// the decomposition (upstream). With bf16 γ a bf16 weight step moves y by up
// to 2^-9 relative: many i8 values and some fp8 ones a step off.
// RUN: norm-run %s --entry=bw_rms_bf16_i8_token --seed=3 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=bw_rms_bf16_i8_token --seed=3 --pipeline=upstream --warmup=0 --repeat=1 --check | FileCheck %s --check-prefix=UPSTREAM
// RUN: norm-run %s --entry=bw_ln_bf16_e4m3_static --seed=4 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=bw_ln_bf16_e4m3_static --seed=4 --pipeline=upstream --warmup=0 --repeat=1 --check | FileCheck %s --check-prefix=UPSTREAM
// RUN: norm-run %s --entry=bw_rms_f32_i8_static --seed=5 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=bw_rms_f32_i8_static --seed=5 --pipeline=upstream --warmup=0 --repeat=1 --check | FileCheck %s --check-prefix=UPSTREAM
// RUN: norm-run %s --entry=bw_ln_f32_e5m2_token --seed=6 --warmup=0 --repeat=1 --check | FileCheck %s
// RUN: norm-run %s --entry=bw_ln_f32_e5m2_token --seed=6 --pipeline=upstream --warmup=0 --repeat=1 --check | FileCheck %s --check-prefix=UPSTREAM

// CHECK: {{^}}norm-run: entry={{[a-z0-9_]+}} pipeline=project {{.*}} rel_err={{[0-9.e+-]+}} tol={{.*}} quant_one_step={{[0-9]+}}/{{[0-9]+}} PASS{{$}}
// UPSTREAM: {{^}}norm-run: entry={{[a-z0-9_]+}} pipeline=upstream {{.*}} quant_one_step={{[0-9]+}}/{{[0-9]+}} PASS{{$}}

func.func @rms_e4m3_const(%x: tensor<8x64xf32>, %g: tensor<64xf32>) -> tensor<8x64xf8E4M3FN> {
  %s = arith.constant 0.004 : f32
  %e = tensor.empty() : tensor<8x64xf8E4M3FN>
  %q = norm.rms_norm ins(%x : tensor<8x64xf32>) weight(%g : tensor<64xf32>) scale(%s : f32)
         outs(%e : tensor<8x64xf8E4M3FN>) {epsilon = 1.0e-06 : f32} -> tensor<8x64xf8E4M3FN>
  return %q : tensor<8x64xf8E4M3FN>
}

func.func @rms_i8_arg(%x: tensor<8x64xf32>, %g: tensor<64xf32>, %s: tensor<f32>) -> tensor<8x64xi8> {
  %e = tensor.empty() : tensor<8x64xi8>
  %q = norm.rms_norm ins(%x : tensor<8x64xf32>) weight(%g : tensor<64xf32>) scale(%s : tensor<f32>)
         outs(%e : tensor<8x64xi8>) {epsilon = 1.0e-06 : f32} -> tensor<8x64xi8>
  return %q : tensor<8x64xi8>
}

func.func @rms_e5m2_token_residual(%x: tensor<6x96xf32>, %r: tensor<6x96xf32>, %g: tensor<96xf32>) -> (tensor<6x96xf8E5M2>, tensor<6x96xf32>, tensor<6xf32>) {
  %e = tensor.empty() : tensor<6x96xf8E5M2>
  %es = tensor.empty() : tensor<6x96xf32>
  %esc = tensor.empty() : tensor<6xf32>
  %q, %sum, %sc = norm.rms_norm ins(%x : tensor<6x96xf32>) residual(%r : tensor<6x96xf32>) weight(%g : tensor<96xf32>)
         outs(%e : tensor<6x96xf8E5M2>) sum_outs(%es : tensor<6x96xf32>) scale_outs(%esc : tensor<6xf32>)
         {epsilon = 1.0e-06 : f32} -> tensor<6x96xf8E5M2>, tensor<6x96xf32>, tensor<6xf32>
  return %q, %sum, %sc : tensor<6x96xf8E5M2>, tensor<6x96xf32>, tensor<6xf32>
}

func.func @ln_i8_group(%x: tensor<4x256xbf16>, %g: tensor<256xbf16>, %b: tensor<256xbf16>) -> (tensor<4x256xi8>, tensor<4x2xf32>) {
  %e = tensor.empty() : tensor<4x256xi8>
  %esc = tensor.empty() : tensor<4x2xf32>
  %q, %sc = norm.layer_norm ins(%x : tensor<4x256xbf16>) weight(%g : tensor<256xbf16>) bias(%b : tensor<256xbf16>)
         outs(%e : tensor<4x256xi8>) scale_outs(%esc : tensor<4x2xf32>)
         {epsilon = 1.0e-05 : f32, group_size = 128 : i64, scale_min = 1.0e-06 : f32} -> tensor<4x256xi8>, tensor<4x2xf32>
  return %q, %sc : tensor<4x256xi8>, tensor<4x2xf32>
}

func.func @bw_rms_bf16_i8_token(%x: tensor<8x256xbf16>, %g: tensor<256xbf16>) -> (tensor<8x256xi8>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<8x256xi8>
  %esc = tensor.empty() : tensor<8xf32>
  %q, %sc = norm.rms_norm ins(%x : tensor<8x256xbf16>) weight(%g : tensor<256xbf16>)
         outs(%e : tensor<8x256xi8>) scale_outs(%esc : tensor<8xf32>)
         {epsilon = 1.0e-06 : f32, weight_offset = 1.0 : f32, cast_mode = #norm.cast_mode<before_weight>} -> tensor<8x256xi8>, tensor<8xf32>
  return %q, %sc : tensor<8x256xi8>, tensor<8xf32>
}

func.func @bw_ln_bf16_e4m3_static(%x: tensor<8x256xbf16>, %g: tensor<256xbf16>, %b: tensor<256xbf16>) -> tensor<8x256xf8E4M3FN> {
  %s = arith.constant 0.0075 : f32
  %e = tensor.empty() : tensor<8x256xf8E4M3FN>
  %q = norm.layer_norm ins(%x : tensor<8x256xbf16>) weight(%g : tensor<256xbf16>) bias(%b : tensor<256xbf16>) scale(%s : f32)
         outs(%e : tensor<8x256xf8E4M3FN>) {epsilon = 1.0e-05 : f32, cast_mode = #norm.cast_mode<before_weight>} -> tensor<8x256xf8E4M3FN>
  return %q : tensor<8x256xf8E4M3FN>
}

func.func @bw_rms_f32_i8_static(%x: tensor<8x96xf32>, %g: tensor<96xf32>) -> tensor<8x96xi8> {
  %s = arith.constant 0.02 : f32
  %e = tensor.empty() : tensor<8x96xi8>
  %q = norm.rms_norm ins(%x : tensor<8x96xf32>) weight(%g : tensor<96xf32>) scale(%s : f32)
         outs(%e : tensor<8x96xi8>) {epsilon = 1.0e-06 : f32, cast_mode = #norm.cast_mode<before_weight>} -> tensor<8x96xi8>
  return %q : tensor<8x96xi8>
}

func.func @bw_ln_f32_e5m2_token(%x: tensor<6x128xf32>, %g: tensor<128xf32>, %b: tensor<128xf32>) -> (tensor<6x128xf8E5M2>, tensor<6xf32>) {
  %e = tensor.empty() : tensor<6x128xf8E5M2>
  %esc = tensor.empty() : tensor<6xf32>
  %q, %sc = norm.layer_norm ins(%x : tensor<6x128xf32>) weight(%g : tensor<128xf32>) bias(%b : tensor<128xf32>)
         outs(%e : tensor<6x128xf8E5M2>) scale_outs(%esc : tensor<6xf32>)
         {epsilon = 1.0e-05 : f32, cast_mode = #norm.cast_mode<before_weight>} -> tensor<6x128xf8E5M2>, tensor<6xf32>
  return %q, %sc : tensor<6x128xf8E5M2>, tensor<6xf32>
}
