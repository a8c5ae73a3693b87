// REQUIRES: norm-jit
// The fused norm <-> matmul ops with mixed element types (docs/design.md,
// "Mixed element types"), run through the project pipeline and checked
// against the float64 reference: f32 γ/β with bf16 or f16 data (Gemma 3:
// bf16 activations, f32 norm weights, weight_offset 1), bf16 A and W with
// an f32 result (f32 accumulation kept), S rounded to the output's type.
//
// @gemma_mm(x: RxK bf16, g: K f32, w: NxK bf16, c: RxN bf16):  R,K, K, N,K, R,N
// RUN: norm-run %s --entry=gemma_mm --dims=7,96,96,40,96,7,40 --seed=201 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,BF16
// RUN: norm-run %s --entry=gemma_mm --dims=70,300,300,130,300,70,130 --seed=202 --mean=0.5 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,BF16
// @rms_mm_f32out(x: RxK bf16, r: RxK bf16, g: K f32, w: KxN bf16, mb: N f32, c: RxN f32, s: RxK bf16)
// RUN: norm-run %s --entry=rms_mm_f32out --dims=9,64,9,64,64,64,24,24,9,24,9,64 --seed=203 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,BF16
// RUN: norm-run %s --entry=rms_mm_f32out --dims=100,520,100,520,520,520,270,270,100,270,100,520 --seed=204 --scale=2 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,BF16
// Without the bf16 dot products (which round the normalized activations to
// bf16, hence the bf16 tolerance above), the f32 C is exact to f32 rounding:
// RUN: norm-run %s --entry=rms_mm_f32out --dims=33,200,33,200,200,200,70,70,33,70,33,200 --seed=207 --target=avx2 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefix=EXACT
// @ln_mm_f16(x: RxK f16, g: K f32, b: K f32, w: KxN f16, c: RxN f16)
// RUN: norm-run %s --entry=ln_mm_f16 --dims=5,48,48,48,48,16,5,16 --seed=205 --mean=2 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,F16
// RUN: norm-run %s --entry=ln_mm_f16 --dims=1,700,700,700,700,300,1,300 --seed=206 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,F16
//
// @mm_rms_f32(a: RxK bf16, w: KxN bf16, mb: N f32, res: RxN f32, g: N f32, y: RxN f32, s: RxN f32)
// RUN: norm-run %s --entry=mm_rms_f32 --dims=8,40,40,24,24,8,24,24,8,24,8,24 --seed=211 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,F32
// RUN: norm-run %s --entry=mm_rms_f32 --dims=130,300,300,520,520,130,520,520,130,520,130,520 --seed=212 --mean=0.3 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,F32
// @mm_ln_f32(a: RxK f16, w: NxK f16, g: N f32, b: N f32): tensors
// RUN: norm-run %s --entry=mm_ln_f32 --dims=6,64,20,64,20,20 --seed=213 --mean=1 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,F32
// RUN: norm-run %s --entry=mm_ln_f32 --dims=1,200,300,200,300,300 --seed=214 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,F32
// @mm_gemma(a: RxK bf16, w: KxN bf16, res: RxN bf16, g: N f32, y: RxN bf16, s: RxN bf16)
// RUN: norm-run %s --entry=mm_gemma --dims=12,64,64,96,12,96,96,12,96,12,96 --seed=215 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,BF16
// RUN: norm-run %s --entry=mm_gemma --dims=90,256,256,600,90,600,600,90,600,90,600 --seed=216 --scale=0.5 --threads=2 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,BF16
// Per head (QK-norm with f32 γ), f32 S from bf16 A and W:
// @mm_qk_f32(a: RxK bf16, w: NxK bf16, g: D f32, y: RxN f32)
// RUN: norm-run %s --entry=mm_qk_f32 --dims=10,64,64,10 --seed=217 --warmup=0 --repeat=1 --check | FileCheck %s --check-prefixes=CHECK,F32

// BF16: {{^}}norm-run: {{.*}} rel_err={{[0-9.e+-]+}} tol=1e-02 PASS{{$}}
// F16: {{^}}norm-run: {{.*}} rel_err={{[0-9.e+-]+}} tol=2e-03 PASS{{$}}
// F32: {{^}}norm-run: {{.*}} rel_err={{[0-9.e+-]+}} tol=1e-05 PASS{{$}}
// EXACT: {{^}}norm-run: {{.*}} rel_err={{[0-9.]+}}e-0{{[5-9]}} tol=1e-02 PASS{{$}}
// CHECK-NOT: FAIL

func.func @gemma_mm(%x: memref<?x?xbf16>, %g: memref<?xf32>,
                    %w: memref<?x?xbf16>, %c: memref<?x?xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<?x?xbf16>) weight(%g : memref<?xf32>)
      rhs(%w : memref<?x?xbf16>) outs(%c : memref<?x?xbf16>)
      {weight_offset = 1.0 : f32, transpose_rhs}
  return
}

func.func @rms_mm_f32out(%x: memref<?x?xbf16>, %r: memref<?x?xbf16>,
                         %g: memref<?xf32>, %w: memref<?x?xbf16>,
                         %mb: memref<?xf32>, %c: memref<?x?xf32>,
                         %s: memref<?x?xbf16>) {
  norm.rms_norm_matmul ins(%x : memref<?x?xbf16>) residual(%r : memref<?x?xbf16>)
      weight(%g : memref<?xf32>) rhs(%w : memref<?x?xbf16>)
      matmul_bias(%mb : memref<?xf32>) outs(%c : memref<?x?xf32>)
      sum_outs(%s : memref<?x?xbf16>)
  return
}

func.func @ln_mm_f16(%x: memref<?x?xf16>, %g: memref<?xf32>, %b: memref<?xf32>,
                     %w: memref<?x?xf16>, %c: memref<?x?xf16>) {
  norm.layer_norm_matmul ins(%x : memref<?x?xf16>) weight(%g : memref<?xf32>)
      bias(%b : memref<?xf32>) rhs(%w : memref<?x?xf16>)
      outs(%c : memref<?x?xf16>)
  return
}

func.func @mm_rms_f32(%a: memref<?x?xbf16>, %w: memref<?x?xbf16>,
                      %mb: memref<?xf32>, %res: memref<?x?xf32>,
                      %g: memref<?xf32>, %y: memref<?x?xf32>,
                      %s: memref<?x?xf32>) {
  norm.matmul_rms_norm ins(%a : memref<?x?xbf16>) rhs(%w : memref<?x?xbf16>)
      matmul_bias(%mb : memref<?xf32>) residual(%res : memref<?x?xf32>)
      weight(%g : memref<?xf32>) outs(%y : memref<?x?xf32>)
      sum_outs(%s : memref<?x?xf32>)
  return
}

func.func @mm_ln_f32(%a: tensor<?x?xf16>, %w: tensor<?x?xf16>,
                     %g: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %r = tensor.dim %a, %c0 : tensor<?x?xf16>
  %n = tensor.dim %w, %c0 : tensor<?x?xf16>
  %e = tensor.empty(%r, %n) : tensor<?x?xf32>
  %y = norm.matmul_layer_norm ins(%a : tensor<?x?xf16>) rhs(%w : tensor<?x?xf16>)
      weight(%g : tensor<?xf32>) bias(%b : tensor<?xf32>)
      outs(%e : tensor<?x?xf32>) {transpose_rhs} -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @mm_gemma(%a: memref<?x?xbf16>, %w: memref<?x?xbf16>,
                    %res: memref<?x?xbf16>, %g: memref<?xf32>,
                    %y: memref<?x?xbf16>, %s: memref<?x?xbf16>) {
  norm.matmul_rms_norm ins(%a : memref<?x?xbf16>) rhs(%w : memref<?x?xbf16>)
      residual(%res : memref<?x?xbf16>) weight(%g : memref<?xf32>)
      outs(%y : memref<?x?xbf16>) sum_outs(%s : memref<?x?xbf16>)
      {weight_offset = 1.0 : f32}
  return
}

func.func @mm_qk_f32(%a: memref<?x?xbf16>, %w: memref<128x?xbf16>,
                     %g: memref<32xf32>, %y: memref<?x128xf32>) {
  norm.matmul_rms_norm ins(%a : memref<?x?xbf16>) rhs(%w : memref<128x?xbf16>)
      weight(%g : memref<32xf32>) outs(%y : memref<?x128xf32>)
      {transpose_rhs, head_dim = 32 : i64}
  return
}
