//===- Passes.td - norm-mlir conversion passes --------------*- tablegen -*-===//

#ifndef NORM_CONVERSION_PASSES_TD
#define NORM_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertNormToVectorPass : Pass<"convert-norm-to-vector"> {
  let summary = "Lower memref-form norm ops to multi-threaded vector code";
  let description = [{
    Rewrites every `norm.rms_norm` and `norm.layer_norm` on memrefs with an
    identity layout, or on strided views whose rows are unit-stride and
    evenly spaced (a column slice of wider rows: read and written in place),
    into row loops of `vector` code (the project's CPU code generation,
    DESIGN.md §5):

    - the normalized dims are flattened to one row of `n` elements; each row
      is reduced with `accumulators` independent vector accumulators of
      `target`'s width, with a masked tail for any `n`;
    - statistics in `acc_type` (inputs converted before squaring); LayerNorm
      takes the mean in a first sweep and the corrected two-pass variance
      `Σd²/n − (Σd/n)²`, `d = x − mean`, in a second, never `E[x²] − E[x]²`;
    - x is read from memory once per row: the later sweeps re-read the row
      from cache;
    - outputs of at least `streaming-threshold` bytes are written with
      aligned non-temporal stores (a per-row masked head reaches the
      alignment), so they neither pollute the cache nor pay a read for
      ownership;
    - rows are split across threads with `scf.parallel` (lowered to OpenMP by
      the pipeline) when the op touches at least `parallel-threshold` bytes.
      By default that threshold is where the split pays: with T threads
      (`num-threads`; 0, unknown, counts as 2) a serial op of B bytes saves
      (1 - 1/T) · B / rate ns and pays one fork/join, so
      B = T/(T-1) · `fork-join-ns` · `core-bytes-per-ns`. `num-threads=1`
      never splits. The two constants default to the target's; with
      `target=host`, to those measured on the host's CPU where there are
      (znver3, znver4, znver5; `host-cpu` names another CPU instead of the
      host's, for tests), else to its vector width's.

    Fused norm/matmul ops on memrefs become a cache-blocked, packed GEMM
    with a register-tiled vector FMA micro-kernel, multi-threaded over column
    chunks (`gemm-*` options): norm → matmul gathers the row statistics while
    A is packed and scales as C is stored; matmul → norm writes the pre-norm
    sum and its per-row statistics (per-segment partials from the epilogue,
    merged with Chan's combination), and the row kernel normalizes it in one
    sweep. Fused ops whose `acc_type` is not f32
    are split into the norm op and a `linalg.generic` matmul. With
    `lower-matmuls`, memref `linalg.matmul`s with an f32 C and f32, bf16 or
    f16 A and W (and the generic form of one, W as K×N or N×K), and batch
    matmuls of that kind (`linalg.batch_matmul`, or a generic whose batch
    dim is first or, for W, second: one GEMM per batch, batches over the
    threads) use the same GEMM. Ops on tensors, fused ops on strided
    memrefs and norms on other strided memrefs (an inner stride other than
    1, row dims that do not merge into one stride) are left for
    `--norm-decompose`; a norm op the patterns promise to lower still there
    at the end is an error at the op.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"host\"",
           "Vector ISA: host, avx512 (512-bit), avx512-bf16 (512-bit with "
           "vcvtneps2bf16), avx2 (256-bit) or generic (128-bit)">,
    Option<"accumulators", "accumulators", "int64_t", /*default=*/"4",
           "Independent vector accumulators per statistic (1 to 16)">,
    Option<"parallelThreshold", "parallel-threshold", "int64_t",
           /*default=*/"-2",
           "Bytes an op must touch to be split across threads (-1: never; "
           "-2: derived, T/(T-1) * fork-join-ns * core-bytes-per-ns for T "
           "threads)">,
    Option<"numThreads", "num-threads", "int64_t", /*default=*/"0",
           "Threads a split runs on (0: unknown, taken as 2 by the derived "
           "threshold; 1: never split)">,
    Option<"forkJoinNs", "fork-join-ns", "int64_t", /*default=*/"-1",
           "Derived threshold: nanoseconds one fork/join of the threads "
           "costs (-1: the target's; 2000, 900 on a host znver4)">,
    Option<"coreBytesPerNs", "core-bytes-per-ns", "int64_t",
           /*default=*/"0",
           "Derived threshold: bytes one core's kernel moves per nanosecond "
           "in cache (0: the target's, 128 for 512-bit vectors, 40 for "
           "256- and 128-bit; target=host: 40 on znver3, 56 on znver4, "
           "128 on znver5)">,
    Option<"hostCpu", "host-cpu", "std::string", /*default=*/"\"\"",
           "target=host only: the LLVM CPU name the derived threshold's "
           "defaults are keyed on (empty: the host's, as LLVM names it)">,
    Option<"streamingThreshold", "streaming-threshold", "int64_t",
           /*default=*/"0",
           "Output bytes from which stores bypass the cache (0: the host's "
           "last-level cache size; -1: never)">,
    Option<"pipelineRows", "pipeline-rows", "bool", /*default=*/"true",
           "Gather row r+1's statistics during row r's normalize sweep">,
    Option<"prefetch", "prefetch", "bool", /*default=*/"true",
           "Without pipelining: prefetch the next row while normalizing the "
           "current one">,
    Option<"gradBlockRows", "grad-block-rows", "int64_t", /*default=*/"2",
           "Gradient ops with dgamma or dbeta: rows per column sweep, whose "
           "terms are added into the partial column sums with one load and "
           "store (1 to 8; 1: a row at a time; the same bits for any)">,
    Option<"bf16PairOrder", "bf16-pair-order", "bool", /*default=*/"true",
           "Rows of bf16 on 256-bit targets (16 lanes) and on 512-bit "
           "ones (32 lanes, two registers): keep their f32 vectors in pair "
           "order (even elements, then odd ones; fewer shuffles; on 512-bit "
           "targets the statistics sum 32-lane vectors and may differ in the "
           "last bit)">,
    Option<"lowerMatmuls", "lower-matmuls", "bool", /*default=*/"true",
           "Also lower memref linalg matmuls and batch matmuls with an f32 C "
           "(f32, bf16 or f16 A and W; named or generic) to the project's "
           "GEMM">,
    Option<"gemmTileRows", "gemm-tile-rows", "int64_t", /*default=*/"0",
           "Fused GEMM: rows of the register micro-tile (0: 12 with "
           "AVX-512, else 6; at most 16)">,
    Option<"gemmTileVectors", "gemm-tile-vectors", "int64_t", /*default=*/"0",
           "Fused GEMM: vectors per micro-tile row (0: 2; at most 4)">,
    Option<"gemmBlockK", "gemm-block-k", "int64_t", /*default=*/"0",
           "Fused GEMM: K block (0: 256)">,
    Option<"gemmBlockM", "gemm-block-m", "int64_t", /*default=*/"0",
           "Fused GEMM: M block (0: 16 micro-tiles)">,
    Option<"gemmBlockN", "gemm-block-n", "int64_t", /*default=*/"0",
           "Fused GEMM: columns per thread task (0: 256)">,
    Option<"gemmUnroll", "gemm-unroll", "int64_t", /*default=*/"0",
           "Fused GEMM: k steps per micro-kernel iteration (0: 4; at most "
           "16)">,
    Option<"gemmGemvRows", "gemm-gemv-rows", "int64_t", /*default=*/"0",
           "Fused GEMM: up to this many rows (M), stream W unpacked through "
           "the GEMV kernel (0: the default, 16; -1: never; at most 64)">,
    Option<"gemmBF16Dot", "gemm-bf16-dot", "bool", /*default=*/"true",
           "Fused GEMM: with bf16 A and W, a target with "
           "AVX512-BF16 runs the micro-kernel on vdpbf16ps: bf16 pairs in "
           "both panels, x*gamma rounded to bf16 in the packed A, W as it "
           "is, f32 accumulation">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
    "::mlir::x86vector::X86VectorDialect"
  ];
}

def ConvertNormToGPUPass : Pass<"convert-norm-to-gpu"> {
  let summary = "Lower memref-form norm ops to GPU kernels (gpu.launch): row "
                "kernels and tensor-core fused GEMMs";
  let description = [{
    Replaces every `norm.rms_norm` and `norm.layer_norm` on memrefs with an
    identity layout by host code that launches a row kernel (the project's
    NVIDIA GPU code generation, DESIGN.md §5). The memrefs must be
    accessible from the device (`gpu.alloc`, managed or host-registered
    memory). Kernel shapes:

    - the normalized dims are flattened to rows of `n` elements; a warp
      computes a row when it is short, the fewest warps (up to 16) that keep
      the row in registers when it is mid-sized, and a block of 512 threads
      when `n` ≥ `block-row-threshold` (a dynamic `n` picks the warp or the
      block kernel at run time);
    - 16-byte vector loads and stores when `n` is a multiple of the vector
      length and the buffers are 16-byte aligned (checked on the host at run
      time; a scalar kernel is the fallback); chunks past the row's end are
      masked;
    - each thread keeps its share of the row in registers between the
      statistics and the normalize sweep when it is at most
      `register-elements` values, and re-reads it (from L1/L2) otherwise;
    - statistics in `acc_type` (f32 for f16/bf16/f32), reduced with
      `gpu.shuffle xor` within a warp and through shared memory across the
      warps of a row; LayerNorm is two-pass (mean, then the corrected
      `Σd²/n − (Σd/n)²` over `d = x − mean`), never `E[x²] − E[x]²`;
    - every variant of the ops: residual and `sum_outs`, `mean_outs` /
      `rstd_outs`, `weight_offset`, `partial`, `eps_mode`, `cast_mode`;
      dynamic row counts size the grid at run time.

    Example:

    ```mlir
    norm.rms_norm ins(%x : memref<?x4096xbf16>) weight(%g : memref<4096xbf16>)
      outs(%y : memref<?x4096xbf16>)
    ```

    becomes a `gpu.launch` of ⌈rows / 2⌉ blocks of 128 × 2 threads (128
    threads per row holding 32 elements each, 16-byte loads), after a
    host-side alignment test that falls back to a scalar launch.

    The fused ops (`norm.rms_norm_matmul`, `norm.layer_norm_matmul`,
    `norm.matmul_rms_norm`, `norm.matmul_layer_norm`) on bf16/f16 memrefs
    become tensor-core GEMMs for sm_80+ (`nvgpu.ldmatrix`,
    `nvgpu.mma.sync` m16n8k16 with f32 accumulation, `cp.async` into
    double-buffered shared memory; blocks of 64 × 128 outputs, 4 warps);
    on f32 memrefs, the same kernel on the FMA units (SIMT: each thread an
    8 × 8 tile of f32 FMAs from shared memory, K tiles of 16; TF32 tensor
    cores would round the operands to 10 bits):

    - norm → matmul runs the GEMM on the raw rows of X (times γ + offset,
      applied to the shared-memory A tile, and minus LayerNorm's per-row
      pivot), gathers the row statistics from the same shared-memory tiles,
      and applies `r·acc` (LayerNorm: `− r·(μ − p)·c + β·W`) and the bias in
      the epilogue, rounding once; with `residual(R)` the R tile is staged
      beside A and `S = round(X + R)` is what the statistics and the MMAs
      see, and the blocks of the first column tile write `S` to `sum_outs`
      (also when N = 0);
    - matmul → norm writes the pre-norm sum `S = A·W + bias + residual`,
      rounded to the element type, into `sum_outs` (or a `gpu.alloc`
      temporary) from the GEMM's epilogue, then normalizes `S` with the row
      kernel, so `Y` is exactly the norm of the rounded `S`;
    - W as K×N or N×K (`transpose_rhs`); M, N, K of any size (zero-filled
      tails; a second kernel with guarded element loads when K, or N for a
      K×N W, is not a multiple of a 16-byte chunk (8 bf16/f16, 4 f32) or a
      buffer is not 16-byte aligned);
    - split-K for outputs with few blocks (decode: 16 × 4096 is 32 blocks):
      when the blocks are fewer than two per SM of the chip, the cp.async
      kernel runs as up to `max-split-k` slices of K (at least 8 K tiles
      each), writing f32 partials (and the statistics' partial sums) to
      device temporaries, and a second kernel sums them and applies the
      epilogue.

    With `chip=sm_90a` (the architecture-specific PTX that has warpgroup
    MMA), the bf16/f16 GEMMs, split over K or not, with no prologue or an
    RMSNorm or LayerNorm prologue (γ and β of the element type or f32, a
    weight offset, a residual of the element type returning S, cast_mode,
    partial RMSNorm) run on `wgmma.mma_async` instead: one warpgroup per
    64 × 128 block, A and W tiles loaded by TMA (`nvgpu.tma.async.load`,
    128-byte swizzle, descriptors made on the host) into four stages of
    shared memory completing on mbarriers, the statistics from the A tiles
    (cast_mode and partial RMSNorm: from a pass over A's rows before the K
    loop), the scale, bias and residual in the epilogue. Other GEMMs (f32
    data, K or N not a multiple of 8, other parameter types), and every
    GEMM for `sm_90`, use the mma.sync kernel.

    `wgmma-pipeline` runs that kernel warp-specialized: a producer warp
    issues the TMA loads into stages the consumers have released (per-stage
    "full" and "empty" mbarriers) while `wgmma-block-m` / 64 consumer
    warpgroups each compute 64 × `wgmma-block-n` of the block, keeping one
    K tile of MMAs in flight (`wgmma.wait_group 1`). It is the default
    since an H100 run (bf16 4096³: 262 µs at 128 × 256 against 468 µs
    serial; 16 × 4096 × 4096: 41 µs at 64 × 128 against 51 µs). With
    `wgmma-block-m` / `wgmma-block-n` left at 0 each GEMM gets 128 × 256
    when its static output has at least one such block per multiprocessor,
    else 64 × 128. A GEMM whose prologue rewrites the A tiles (γ, weight
    offset) takes it too (a named barrier per consumer warpgroup). Two
    parts of it, on by default since an H200 run (bf16 4096³ own GEMM
    252.9 → 232.4 µs, 74% of cuBLAS), can be turned off:
    `wgmma-scale-d0` (the first K tile's first MMA with scale-d 0, so that
    no instruction but wgmma writes the accumulators; ptxas serializes the
    wgmma of the linalg.matmul kernels without it) and `wgmma-vector-store`
    (C's adjacent column pairs stored, and bias / residual read, as one
    vector when N is static and even). `wgmma-conflict-free-prologue`
    (default on) has each thread of the RMSNorm prologue read (and, with γ
    or a weight offset, rewrite) its four 16-byte chunks of an A-tile row
    in the order c ^ (row % 4), free of shared-memory bank conflicts, with
    the same Σx² bits as the order c (`=0`).

    With `lower-matmuls`, memref matmuls (`linalg.matmul`, or the generic
    form of one) with an f32 C and f32, bf16 or f16 inputs (W as K×N, or N×K
    through the indexing maps), recognized as the CPU's `lower-matmuls`
    recognizes them, run on the same GEMM kernel with no prologue, C += A·B:
    the project's own GEMM alone. A memref-form named matmul it cannot take
    (another element type, a 16-bit C, a strided or transposed A, a batch
    matmul, a chip below sm_80) is an error at the op, since nothing later
    in the GPU pipeline lowers host linalg ops; ops on tensors and generics
    that are not matmuls are left alone.

    A memref-form fused op the kernels do not handle is an error at the op:
    f64 elements, an `acc_type` other than f32, a `chip` below sm_80, or an
    operand the kernel does not read. So is a fused op on a strided memref,
    and a standalone norm on a strided view the row kernel does not take
    (an inner stride other than 1, row dims that do not merge into one row
    stride; column slices of wider rows are lowered, the row stride carried
    into the kernel): nothing later in the GPU pipeline lowers a norm op on
    memrefs, so the pass never exits 0 leaving one.

    Run `gpu-kernel-outlining` afterwards (`--norm-lower-to-nvvm` does), and
    `norm-lower-bf16-mma-sync` before `convert-nvgpu-to-nvvm`. Ops on
    tensors are left alone.
  }];
  let options = [
    Option<"blockRowThreshold", "block-row-threshold", "int64_t",
           /*default=*/"65536",
           "Rows of at least this many elements get a whole thread block">,
    Option<"registerElements", "register-elements", "int64_t",
           /*default=*/"32",
           "Row elements each thread may hold in registers between the "
           "sweeps (0 to 128; 0: always re-read the row)">,
    Option<"lowerMatmuls", "lower-matmuls", "bool", /*default=*/"false",
           "Also run memref linalg matmuls (named or generic) with an f32 C "
           "(f32, bf16 or f16 inputs; W as K x N or, by the indexing maps, "
           "N x K) on the GEMM kernel, C += A*B">,
    Option<"maxSplitK", "max-split-k", "int64_t", /*default=*/"16",
           "The most K slices of a split-K fused GEMM, used when the output "
           "has too few 64 x 128 blocks to fill the GPU (1 to 64; 1: never "
           "split)">,
    Option<"wgmmaPipeline", "wgmma-pipeline", "bool", /*default=*/"true",
           "sm_90a: run the warpgroup-MMA GEMM warp-specialized (a producer "
           "warp, per-stage full/empty mbarriers, one K tile of MMAs in "
           "flight) instead of waiting for each K tile">,
    Option<"wgmmaBlockM", "wgmma-block-m", "int64_t", /*default=*/"0",
           "sm_90a: rows of a warpgroup-MMA GEMM block, 64 or 128 (one or "
           "two consumer warpgroups; 128 needs wgmma-pipeline); 0 with "
           "wgmma-block-n 0: chosen per GEMM, else 64">,
    Option<"wgmmaBlockN", "wgmma-block-n", "int64_t", /*default=*/"0",
           "sm_90a: columns of a warpgroup-MMA GEMM block, 128 or 256 (256 "
           "needs wgmma-pipeline); 0 with wgmma-block-m 0: chosen per GEMM, "
           "else 128">,
    Option<"wgmmaScaleDZero", "wgmma-scale-d0", "bool", /*default=*/"true",
           "sm_90a pipelined: the first K tile's first MMA with scale-d 0 "
           "instead of zeroed accumulators (no non-wgmma writes of them)">,
    Option<"wgmmaVectorStore", "wgmma-vector-store", "bool",
           /*default=*/"true",
           "sm_90a: store C's adjacent column pairs as one vector when N is "
           "static and even">,
    Option<"wgmmaConflictFreePrologue", "wgmma-conflict-free-prologue", "bool",
           /*default=*/"true",
           "sm_90a: the RMSNorm prologue reads (and rewrites with gamma) its "
           "16-byte chunks of an A-tile row in the order c ^ (row % 4), free "
           "of shared-memory bank conflicts; 0: in the order c">,
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "The GPU the kernels are for (sm_NN, sm_NNa); the fused ops' "
           "tensor-core kernels need sm_80 or newer, sm_90a adds the "
           "warpgroup-MMA GEMM">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::nvgpu::NVGPUDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
}

#endif // NORM_CONVERSION_PASSES_TD
