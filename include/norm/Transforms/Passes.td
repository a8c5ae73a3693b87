//===- Passes.td - norm-mlir passes over upstream IR -------*- tablegen -*-===//
//
// Passes that transform upstream dialects' IR (none lowers a norm op):
// vectorizing the linalg ops around the norms, adapting GPU IR to what MLIR
// 22's own lowerings accept, emitting each distinct kernel once. The
// pipelines run them; norm-opt runs each alone.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_TRANSFORMS_PASSES_TD
#define NORM_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// Vectorize (lib/Transforms/Vectorize)
//===----------------------------------------------------------------------===//

def NormVectorizeElementwisePass
    : Pass<"norm-vectorize-elementwise", "::mlir::func::FuncOp"> {
  let summary = "Vectorize the elementwise and row-reduction linalg ops "
                "around the norms (model IR on memrefs)";
  let description = [{
    The model IR around the norms and matmuls — activations, RoPE, the
    softmax, residual adds, the attention head transposes — reaches the
    CPU pipeline as `linalg.generic` ops on memrefs, which
    `convert-linalg-to-loops` would turn into scalar loops (and `math.exp`,
    `math.tanh` into libm calls per element). This pass gives them vector
    code instead (static or dynamic bounds):

    - all-parallel ops are tiled to one vector of `target`'s width along the
      innermost dim (1 along the others; the last tile masked, every tile
      when the row's length is dynamic) and
      vectorized (`linalg::vectorize`);
    - ops whose innermost dim alone is a reduction (a softmax's row max and
      sum) are tiled to one row, up to `max-row` elements, and vectorized
      whole (a `vector.multi_reduction` per row); a longer or dynamic row
      is reduced in chunks of one vector into four vector accumulators
      (the last chunk masked, its missing lanes the combiner's neutral
      element) and one `vector.reduction`, when the combiner is one add,
      mul, max, min, and, or or xor and the rest of the body is scalar
      elementwise ops;
    - `math.exp`, `math.tanh`, `math.log`, `math.erf` and friends on the
      new vectors become upstream's polynomial approximations
      (`populateMathPolynomialApproximationPatterns`; bf16/f16 computed in
      f32); the transfers become (masked) vector loads and stores.

    Unit dims are dropped first (`linalg::dropUnitDims`, collapsing
    identity-layout buffers), so a keepdim reduction into a `[.., 1]`
    buffer becomes a plain row reduction.

    An op with static shapes that touches at least `parallel-threshold`
    bytes (its operands' sizes) gets its tile loops as one `scf.parallel`,
    which `norm-lower-to-cpu` turns into OpenMP threads like the norm
    kernels; smaller ops keep `scf.for` (a thread fork/join costs
    microseconds, as much as a small op), and dynamic shapes get both,
    chosen at run time. The threshold is derived as convert-norm-to-vector's
    (`num-threads`, `fork-join-ns`, `core-bytes-per-ns`, `host-cpu`).

    Left for
    `convert-linalg-to-loops` (scalar math keeps libm): long or dynamic
    reductions with another combiner, several outputs, `linalg.index` or
    an integer division in the body, or a strided row;
    reductions other than over the innermost dim alone; maps that keep a
    constant result; operands that
    read the innermost dim other than as their last dim (a transpose that
    moves it would be a gather per vector); non-int/float elements; ops the
    vectorizer rejects. Run after the norm ops and matmuls are lowered
    (`convert-norm-to-vector`, `norm-decompose`); `norm-lower-to-cpu` runs
    it with `codegen=vector`.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"host\"",
           "Vector ISA (as convert-norm-to-vector): the vector width">,
    Option<"maxRow", "max-row", "int64_t", /*default=*/"4096",
           "Longest reduction row vectorized whole">,
    Option<"parallelThreshold", "parallel-threshold", "int64_t",
           /*default=*/"-2",
           "Bytes an op must touch for its tiles to be an scf.parallel (-1: "
           "never; -2: derived, as convert-norm-to-vector's)">,
    Option<"numThreads", "num-threads", "int64_t", /*default=*/"0",
           "Threads a split runs on (0: unknown, taken as 2; 1: never "
           "split)">,
    Option<"forkJoinNs", "fork-join-ns", "int64_t", /*default=*/"-1",
           "Derived threshold: nanoseconds one fork/join costs (-1: the "
           "target's)">,
    Option<"coreBytesPerNs", "core-bytes-per-ns", "int64_t",
           /*default=*/"0",
           "Derived threshold: bytes a core moves per nanosecond in cache "
           "(0: the target's)">,
    Option<"hostCpu", "host-cpu", "std::string", /*default=*/"\"\"",
           "target=host only: the LLVM CPU name the derived threshold's "
           "defaults are keyed on (empty: the host's)">
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
}

//===----------------------------------------------------------------------===//
// LLVM dialect (lib/Transforms/LLVM)
//===----------------------------------------------------------------------===//

def NormBF16MemoryAsI16Pass : Pass<"norm-bf16-memory-as-i16"> {
  let summary = "Load and store bf16 values of the LLVM dialect as i16";
  let description = [{
    Rewrites every `llvm.load`, `llvm.store`, `llvm.intr.masked.load` and
    `llvm.intr.masked.store` of a bf16 scalar or vector into the same access
    of i16 (same alignment, volatility, ordering, non-temporal hint), with
    an `llvm.bitcast` between the value and its bits. Nothing else changes.

    `--norm-lower-to-cpu` expands `arith.truncf` and `arith.extf` of bf16
    into integer arithmetic (`arith-expand`), but the value stored or loaded
    is still typed `bfloat`. On x86 without AVX512-BF16, LLVM has no bf16
    vector operations, and two things then become scalar code in the back
    end: LLVM's InstCombine moves the bitcast to `bfloat` above the NaN
    `select` of the rounding, and a `select` of `<8 x bfloat>` is split into
    eight `vucomiss`/`cmov`/`movw` (AVX2's full-vector stores of a bf16
    row); a masked load or store of `<8 x bfloat>` is split into one
    `__truncsfbf2` call per element. With i16 memory accesses no `bfloat`
    value is left once the bitcasts fold, and the same code becomes
    `vblendvps`/`vpackusdw` and a plain or per-lane masked i16 access.
    The bits stored are the same.

    ```mlir
    // norm-opt --norm-bf16-memory-as-i16
    llvm.store %v, %p : vector<8xbf16>, !llvm.ptr
    // becomes
    %b = llvm.bitcast %v : vector<8xbf16> to vector<8xi16>
    llvm.store %b, %p : vector<8xi16>, !llvm.ptr
    ```

    `--norm-lower-to-cpu` runs it after the conversion to the LLVM dialect.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def NormSingleLaneMaskedStoresPass : Pass<"norm-single-lane-masked-stores"> {
  let summary = "Write masked stores that enable one constant lane as plain "
                "stores";
  let description = [{
    Rewrites every `llvm.intr.masked.store` whose mask is a constant that
    enables exactly one lane (of a vector of whole-byte elements) into an
    `llvm.extractelement` of that lane and a plain `llvm.store` of it at
    its address, aligned as the vector's alignment allows at that offset.
    Nothing else changes: the same bytes are written.

    LLVM 22's x86 back end miscompiles such a store when AVX-512 is on and
    the stored vector is a truncation (llvm/llvm-project#179489, fixed by
    PR #179853 after the 22 branch; Debian's 22.1.8 has the bug): it forms
    a truncating masked store, then reduces the one-lane store to a scalar
    store of the wide element, so one byte of an i8 vector truncated from
    i32 lanes is written as four (`vmovss`), two bytes of an i16 vector as
    four. The row kernels store a row's tail with a constant mask when the
    row length is static: a quantized row of 16k + 1 elements (or a
    16-bit one truncated in integer lanes) wrote three bytes of the next
    row — a data race with the thread writing that row, and a write past
    the end of the buffer for the last row. The target option does not
    matter: a JIT compiles for the host, which may have AVX-512 whatever
    the kernels' vector width.

    ```mlir
    // norm-opt --norm-single-lane-masked-stores
    llvm.intr.masked.store %v, %p, %mask {alignment = 1 : i32}
        : vector<16xi8>, vector<16xi1> into !llvm.ptr
    // with %mask = dense<[true, false, ..., false]> becomes
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %e = llvm.extractelement %v[%c0 : i64] : vector<16xi8>
    llvm.store %e, %p {alignment = 1 : i64} : i8, !llvm.ptr
    ```

    `--norm-lower-to-cpu` runs it after the conversion to the LLVM
    dialect, for every target. A mask that becomes constant only in LLVM's
    own optimization (a dynamic kernel inlined into a static caller) is not
    seen here.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def NormX86NontemporalStoresPass : Pass<"norm-x86-nontemporal-stores"> {
  let summary = "Write non-temporal stores of 16-bit vectors as vmovntdq";
  let description = [{
    Rewrites every non-temporal `llvm.store` of a 128-, 256- or 512-bit
    vector of 16-bit elements (i16, bf16, f16), aligned to its size, into
    an `llvm.inline_asm` `vmovntdq` of the same value to the same address
    (a memory clobber keeps it ordered with the accesses around it).
    Nothing else changes. For AVX-512 targets only: the instruction needs
    AVX, and the pass exists for what LLVM's AVX-512 back end does.

    LLVM 22's x86 back end drops the non-temporal hint of such stores when
    AVX-512 is enabled: InstCombine folds the bitcast of a bf16 value into
    the store (`norm-bf16-memory-as-i16` cannot keep it i16), and AVX-512
    has non-temporal patterns for integer and f32/f64 vectors but none for
    `v8bf16`/`v16bf16`/`v32bf16` (nor f16), so the store becomes a plain
    `vmovaps`; an i16 value that is a truncation becomes a truncating
    `vpmovdw` store, which has no non-temporal form. Every streamed bf16 y
    of the row kernels was written with write-allocating stores on
    AVX-512 hosts (AVX2 keeps the hint). The hint on the inline assembly
    cannot be folded away.

    ```mlir
    // norm-opt --norm-x86-nontemporal-stores
    llvm.store %v, %p {alignment = 32 : i64, nontemporal} : vector<16xi16>, !llvm.ptr
    // becomes
    llvm.inline_asm has_side_effects asm_dialect = att
        "vmovntdq $0, ($1)", "x,r,~{memory}" %v, %p
        : (vector<16xi16>, !llvm.ptr) -> ()
    ```

    `--norm-lower-to-cpu` runs it after `norm-bf16-memory-as-i16` for
    AVX-512 targets. A JIT of the result needs the target's assembly
    parser (`norm-run` initializes it).
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def NormExpandBF16TruncationPass : Pass<"norm-expand-bf16-truncation"> {
  let summary = "Round f32 to bf16 with integer arithmetic, NaNs picked in "
                "f32 lanes";
  let description = [{
    Rewrites every `arith.truncf` from f32 to bf16 (scalar or vector,
    without a rounding mode other than to-nearest-even) into the integer
    rounding `arith-expand` emits, with the same bits for every input (a
    NaN becomes the quiet NaN 0x7fc0), but with the NaN case chosen before
    the rounding: `select(isnan(x), 0x7fc00000, x)` among the f32 lanes,
    then `(bits + 0x7fff + (bits >> 16 & 1)) >> 16` truncated to i16.
    `arith-expand` chooses the NaN among the 16-bit results, and LLVM keeps
    that select on 16-bit lanes: on AVX2 it narrows the compare's mask and
    blends bytes (`vextractf128`, `vpackssdw`, `vpblendvb`, four
    instructions per 8 values) where a select of f32 lanes is one
    `vblendvps`.

    ```mlir
    // norm-opt --norm-expand-bf16-truncation
    %y = arith.truncf %x : vector<8xf32> to vector<8xbf16>
    // becomes
    %nan = arith.cmpf uno, %x, %x : vector<8xf32>
    %q = arith.select %nan, %quiet_nan, %x : vector<8xi1>, vector<8xf32>
    %bits = arith.bitcast %q : vector<8xf32> to vector<8xi32>
    ... // + 0x7fff + the lowest kept bit, >> 16
    %h = arith.trunci %r : vector<8xi32> to vector<8xi16>
    %y = arith.bitcast %h : vector<8xi16> to vector<8xbf16>
    ```

    `--norm-lower-to-cpu` runs it before `arith-expand`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def NormReinterpretDynamicExpandShapePass
    : Pass<"norm-reinterpret-dynamic-expand-shape"> {
  let summary = "Write a memref.expand_shape with several dynamic sizes in "
                "one group as a reinterpret_cast";
  let description = [{
    MLIR 22's `expand-strided-metadata` crashes (a null size in
    `memref.reinterpret_cast`'s builder) on a `memref.expand_shape` that
    splits one dim into several dynamic sizes, e.g. `[?, 8]` into
    `[?, ?, 8]` with `output_shape [%a, %b, 8]`: what bufferization makes of
    torch-mlir's and ONNX's reshapes to `[batch, seq, ...]`. This pass
    rewrites exactly those expand_shapes into the view they are: a
    `memref.reinterpret_cast` of the source at its own offset, with the
    sizes of `output_shape` and, per group, the source dim's stride for the
    last dim and the product with the sizes after it for the others, then a
    `memref.cast` to the op's result type. Every other expand_shape is left
    to `expand-strided-metadata`.

    ```mlir
    // norm-opt --norm-reinterpret-dynamic-expand-shape
    %e = memref.expand_shape %m [[0, 1], [2]] output_shape [%a, %b, 8]
        : memref<?x8xf32> into memref<?x?x8xf32>
    // becomes
    %base, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %m
    %s0 = arith.muli %strides#0, %b : index
    %v = memref.reinterpret_cast %m to offset: [%offset],
        sizes: [%a, %b, 8], strides: [%s0, %strides#0, %strides#1]
        : memref<?x8xf32> to memref<?x?x8xf32, strided<[?, ?, ?], offset: ?>>
    %e = memref.cast %v : ... to memref<?x?x8xf32>
    ```

    `--norm-lower-to-cpu` and `--norm-lower-to-nvvm` run it before
    `expand-strided-metadata`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def NormOpenMPLoopNowaitPass : Pass<"norm-omp-loop-nowait"> {
  let summary = "Drop the barrier after a worksharing loop that ends its "
                "parallel region";
  let description = [{
    Sets `nowait` on each `omp.wsloop` without reductions that is the last
    op of its `omp.parallel` (only the region's terminator after it). The
    end of a parallel region is a barrier already (the join of the fork),
    so the loop's own barrier, which `convert-scf-to-openmp` leaves on,
    only makes each thread wait twice. Clang emits `#pragma omp parallel
    for` the same way: one `__kmpc_for_static_fini`, no `__kmpc_barrier`.
    A loop followed by other ops of the region keeps its barrier (they may
    read what other threads wrote), and so does one with reductions.

    ```mlir
    // norm-opt --norm-omp-loop-nowait
    omp.parallel {
      omp.wsloop {
        omp.loop_nest (%i) : index = (%lb) to (%ub) step (%c1) { ... }
      }
      omp.terminator
    }
    // becomes the same with `omp.wsloop nowait`.
    ```

    `--norm-lower-to-cpu` runs it after `convert-scf-to-openmp`. On a
    2-core AVX2 VM a call's fork and join took about 0.3 us less
    (docs/design.md, "Threads for small problems").
  }];
  let dependentDialects = ["::mlir::omp::OpenMPDialect"];
}

def NormInlineAllocaScopesPass : Pass<"norm-inline-alloca-scopes"> {
  let summary = "Inline the memref.alloca_scope ops that allocate nothing "
                "on the stack";
  let description = [{
    `convert-scf-to-openmp` wraps each parallel iteration in a
    `memref.alloca_scope`, and `scf-to-cf` later makes the loops inside it
    blocks, which the scope's single-block region does not allow ("expects
    region #0 to have 0 or 1 blocks"). Canonicalization inlines a scope
    only when nothing in it might allocate on the stack, and it counts
    every op without declared memory effects as a possible allocation,
    `llvm.call_intrinsic` included: a kernel that calls x86 intrinsics (the
    quantized rows' `vpackssdw`, `vpmaddwd`, `vpshufb`) in a parallel loop
    kept its scope and the pipeline stopped.

    This pass inlines every scope whose body (outside nested allocation
    scopes) holds no op that may allocate on the stack. An op may allocate
    when it declares an `Allocate` effect on the automatic-allocation-scope
    resource (`memref.alloca`, `llvm.alloca`), when it is an
    `llvm.call_intrinsic` of `llvm.stacksave`, `llvm.stackrestore` or
    `llvm.stackprotector`, or when it is any other op without memory
    effects; calls (`func.call`, `llvm.call`) do not, since a callee's
    frame ends with the call. A scope that may allocate is left as it is.

    ```mlir
    // norm-opt --norm-inline-alloca-scopes
    omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
      memref.alloca_scope {
        %p = llvm.call_intrinsic "llvm.x86.avx2.packssdw"(%a, %b) : ...
        ...
      }
      omp.yield
    }
    // becomes the loop body without the scope.
    ```

    `--norm-lower-to-cpu` runs it after `convert-scf-to-openmp`.
  }];
}

//===----------------------------------------------------------------------===//
// GPU (lib/Transforms/GPU)
//===----------------------------------------------------------------------===//

def NormLowerBF16MmaSyncPass : Pass<"norm-lower-bf16-mma-sync"> {
  let summary = "Lower bf16 nvgpu.mma.sync to nvvm.mma.sync";
  let description = [{
    MLIR 22's `convert-nvgpu-to-nvvm` lowers `nvgpu.mma.sync` on f16, tf32,
    f64 and integer operands but rejects bf16 ("failed to deduce operand
    PTX types"), although `nvvm.mma.sync` and PTX
    (`mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32`) support it.
    This pass rewrites every bf16 `nvgpu.mma.sync` of shape m16n8k16 with
    an f32 accumulator into `nvvm.mma.sync`: each pair of bf16 values of
    the A and B fragments becomes one i32 register (`vector.bitcast`), the
    accumulator four f32 scalars, and the result struct a
    `vector<2x2xf32>` again. Other `nvgpu.mma.sync` ops are left for
    `convert-nvgpu-to-nvvm`. `--norm-lower-to-nvvm` runs it inside each
    `gpu.module`.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def NormGPUAsyncAllocsPass : Pass<"norm-gpu-async-allocs"> {
  let summary = "Rewrite gpu.alloc/gpu.dealloc into the forms that "
                "gpu-to-llvm lowers";
  let description = [{
    MLIR 22's `gpu-to-llvm` lowers a `gpu.alloc` of device memory and a
    `gpu.dealloc` only when they are async with exactly one dependency, and
    a `gpu.alloc host_shared` (managed memory) only when it is synchronous
    without dependencies; it leaves any other form in the host code, where
    translation to LLVM IR fails ("unsupported GPU operation"). This pass
    rewrites every other form into the lowered one, keeping its ordering:

    ```mlir
    gpu.dealloc %m : memref<?xf32>
    // becomes
    %t0 = gpu.wait async
    %t1 = gpu.dealloc async [%t0] %m : memref<?xf32>
    gpu.wait [%t1]
    ```

    A synchronous op still completes before the host goes on (the blocking
    `gpu.wait`), after its dependencies (the `gpu.wait async` of a fresh
    stream waits on them). An async op with no or several dependencies gets
    a `gpu.wait async` joining them; a `host_shared` allocation with
    dependencies waits for them on the host and, when async, returns a
    fresh token. `--norm-lower-to-nvvm` runs it before `gpu-to-llvm`, so
    that input IR may use the synchronous forms. The buffers
    `--convert-norm-to-gpu` allocates are already in the lowered form.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def NormGPUMapHostLoopsPass : Pass<"norm-gpu-map-host-loops"> {
  let summary = "Map the host's scf.parallel loops to GPU blocks and "
                "threads";
  let description = [{
    Prepares the loops `convert-linalg-to-parallel-loops` makes of a
    function's memref-form linalg ops (elementwise chains, transposes,
    fills, reductions, matmuls the GEMM does not take) for
    `convert-parallel-loops-to-gpu`: each outermost `scf.parallel` outside a
    `gpu.launch` is collapsed into one dimension, tiled by `block-size`
    (in-tile bounds constant, the tail guarded by an `scf.if`), and mapped,
    the tile loop to block x and the in-tile loop to thread x:

    ```mlir
    scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c64) step (%c1, %c1) {...}
    // becomes (one thread per element, 256 threads a block)
    scf.parallel (%b) = (%c0) to (%c512) step (%c256) {
      scf.parallel (%t) = (%c0) to (%c256) step (%c1) {
        %k = arith.addi %t, %b : index
        scf.if (%k < %c512) { ... element (%k / 64, %k mod 64) ... }
      } {mapping = [#gpu.loop_dim_map<processor = thread_x, ...>]}
    } {mapping = [#gpu.loop_dim_map<processor = block_x, ...>]}
    ```

    A reduction dimension stays an `scf.for` inside the element's thread; a
    parallel loop nested in a loop body runs sequentially in that thread.
    Loops with `scf.reduce` operands are left alone (`linalg` makes none).
    `--norm-lower-to-nvvm` runs it after `convert-norm-to-gpu`.
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "Threads per block (1 to 1024)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def NormGPUCopiesToLinalgPass : Pass<"norm-gpu-copies-to-linalg"> {
  let summary = "Make the host's memref.copy ops linalg.copy, so that they "
                "become GPU kernels";
  let description = [{
    Bufferization leaves a `memref.copy` for each tensor copy it cannot
    avoid (a `tensor.insert_slice` of a computed value, e.g. the two halves
    of RoPE's rotation). Lowered as they are, they run on the host
    (`memrefCopy`, element by element for a strided layout), and on managed
    memory each moves its pages from the GPU to the host and back. As
    `linalg.copy` they take the path of every other linalg op:
    `convert-linalg-to-parallel-loops`, `norm-gpu-map-host-loops`, a kernel.

    ```mlir
    memref.copy %a, %b : memref<16x128x32xf32> to memref<16x128x32xf32, strided<[8192, 64, 1]>>
    // becomes
    linalg.copy ins(%a : memref<16x128x32xf32>) outs(%b : memref<16x128x32xf32, strided<[8192, 64, 1]>>)
    ```

    Only copies between views of `gpu.alloc` buffers are rewritten (the
    form `--norm-lower-to-nvvm`'s bufferization gives every buffer): a
    kernel cannot reach a host buffer (`memref.alloc`, a global, an argument
    the caller may have allocated on the host). Copies inside a
    `gpu.launch` or a `gpu.module`, and copies of unranked or rank-0
    memrefs, are left alone. `--norm-lower-to-nvvm` runs it before
    `convert-linalg-to-parallel-loops`.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def NormGPUInlineDispatchPass
    : Pass<"norm-gpu-inline-dispatch", "::mlir::ModuleOp"> {
  let summary = "Inline norm-outline-kernels' dispatch functions back into "
                "their callers, after outlining the kernels";
  let description = [{
    `norm-outline-kernels` moves each kernel op several sites share into a
    private function called (`no_inline`) from each site, so that the
    kernel is generated and compiled once. Once the kernels are outlined
    into `gpu.module`s, that function only launches them: this pass inlines
    each such call (a `no_inline` call of a private function with a
    `gpu.launch_func`) into its caller and erases the functions left
    unused. Every site still launches the one shared kernel; the caller's
    launches and buffers are in one function, where
    `norm-gpu-device-intermediates` and `norm-gpu-async-launches` see them
    (a call is a host op to both). `--norm-lower-to-nvvm` runs it on the
    host code when either option is on.
  }];
}

def NormGPUDeviceIntermediatesPass : Pass<"norm-gpu-device-intermediates"> {
  let summary = "Make managed buffers that only the GPU touches device "
                "memory";
  let description = [{
    `--norm-lower-to-nvvm`'s bufferization makes every buffer managed memory
    (`gpu.alloc host_shared`), which the host can read. A host function's
    intermediates are only ever used by kernels: this pass makes each
    synchronous `gpu.alloc host_shared` of a host function device memory
    (`gpu.alloc`, `cuMemAlloc`) when every use of it, followed through its
    views (`memref.subview`, `reinterpret_cast`, `expand_shape`,
    `collapse_shape`, `cast`, any view-like op), is a kernel operand of a
    `gpu.launch_func`, a `gpu.dealloc`, `gpu.memcpy` or `gpu.memset`, a TMA
    descriptor (`nvgpu.tma.create.descriptor`) or a read of its shape
    (`memref.dim`, `memref.extract_strided_metadata`). A buffer the host
    reads or writes (`memref.load`, `memref.store`, `memref.copy`), passes
    to a call or a branch, or returns stays managed; function arguments are
    never touched. `--norm-lower-to-nvvm{device-intermediates=1}` runs it
    on the host code, after outlining the kernels.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def NormGPUAsyncLaunchesPass : Pass<"norm-gpu-async-launches"> {
  let summary = "Queue a host function's GPU work on one stream, and wait "
                "only where the host needs its results";
  let description = [{
    A synchronous `gpu.launch_func` is lowered by `gpu-to-llvm` as a stream
    created, launched on, synchronized and destroyed, so every kernel waits
    for the host and the host for every kernel. This pass chains the GPU
    ops of each host function (`gpu.launch_func`, `gpu.alloc` of device
    memory, `gpu.dealloc`, `gpu.memcpy`, `gpu.memset`) on one async token,
    in program order, and puts a blocking `gpu.wait` only before the first
    host op that may read or write a buffer (any op with memory effects
    other than allocating a fresh one: `memref.load`/`store`/`copy`, a
    call, the function's return):

    ```mlir
    gpu.launch_func @k::@k blocks in (...) threads in (...) args(%a : ...)
    gpu.launch_func @k::@l blocks in (...) threads in (...) args(%a : ...)
    gpu.dealloc %a : memref<64xf32>
    return
    // becomes
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @k::@k ...
    %t2 = gpu.launch_func async [%t1] @k::@l ...
    %t3 = gpu.dealloc async [%t2] %a : memref<64xf32>
    gpu.wait [%t3]
    return
    ```

    `gpu-to-llvm` lowers each async op onto its dependency's stream, so
    the chain is one stream: one `mgpuStreamCreate` and one
    `mgpuStreamSynchronize` a segment. Ops in `scf` regions that hold only
    such ops (a split-K branch) go on the enclosing chain's stream; a region
    with a host op in it is a host op itself, and its blocks get chains of
    their own. Managed allocations (`gpu.alloc host_shared`) stay
    synchronous: they allocate fresh memory and touch no kernel's buffer.
    The device allocations and deallocations `convert-norm-to-gpu` writes
    in their own blocking form (`gpu.wait async`, the op, `gpu.wait`) join
    the chain; other ops that already have a token are left as they are,
    after a wait. `--norm-lower-to-nvvm{async-launches=1}` runs it on the
    host code, after outlining the kernels.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def NormTensorMapKernelArgsPass
    : Pass<"norm-tensormap-kernel-args", "::mlir::ModuleOp"> {
  let summary = "Pass TMA descriptors to outlined kernels as !llvm.ptr";
  let description = [{
    The sm_90a GEMM's TMA descriptors are made on the host
    (`nvgpu.tma.create.descriptor`) and used in the kernel
    (`nvgpu.tma.async.load`), so outlining makes them kernel arguments of
    `!nvgpu.tensormap.descriptor` type, which neither `convert-gpu-to-nvvm`
    (the `gpu.func` signature) nor `gpu-to-llvm` (the launch operands)
    converts. This pass rewrites every such `gpu.func` argument to
    `!llvm.ptr`, cast back to the descriptor type at the kernel's entry, and
    casts the matching `gpu.launch_func` operands to `!llvm.ptr`: the
    descriptor crosses the launch as what it lowers to, a pointer to the
    128-byte CUtensorMap. Both casts fold away once `convert-nvgpu-to-nvvm`
    has lowered the ops on each side (`reconcile-unrealized-casts`).
    `--norm-lower-to-nvvm` runs it after outlining.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def NormGPUMergeKernelsPass
    : Pass<"norm-gpu-merge-kernels", "::mlir::ModuleOp"> {
  let summary = "Keep one gpu.module of each set of equal ones and launch "
                "it from every site";
  let description = [{
    `gpu-kernel-outlining` makes one `gpu.module` per `gpu.launch`, so two
    sites that launch the same kernel (the same row kernel of two norms in
    one function, an elementwise op that two layers repeat) compile it
    twice and carry two `gpu.binary`s. This pass finds the top-level
    `gpu.module`s that are equal but for their names and their kernels'
    names — the same attributes (targets), the same ops in the same order,
    each `gpu.func` with the same type, attributes and body, other ops
    (a `memref.global` the kernel uses) equal as they are, locations
    aside — keeps the first of each set and points every `gpu.launch_func`
    of the others at it:

    ```mlir
    gpu.launch_func @f_kernel::@f_kernel ...
    gpu.launch_func @f_kernel_0::@f_kernel ...   // an equal module
    // becomes
    gpu.launch_func @f_kernel::@f_kernel ...
    gpu.launch_func @f_kernel::@f_kernel ...
    ```

    A module that something other than a `gpu.launch_func` refers to is
    kept. Nothing else changes: a module without an equal one keeps its
    name and place. `--norm-lower-to-nvvm` runs it after outlining
    (`dedup-kernels=false` turns it off), so each distinct kernel is
    lowered and compiled to one `gpu.binary` once.
  }];
}

def NormGPUCopyGlobalsPass
    : Pass<"norm-gpu-copy-globals", "::mlir::ModuleOp"> {
  let summary = "Copy each memref.get_global of a function into an allocated "
                "buffer";
  let description = [{
    A `memref.global` lives in host memory, where a GPU kernel cannot read
    it. This pass replaces every `memref.get_global` in a `func.func` of the
    module by a fresh `memref.alloc` holding a copy of the global:

    ```mlir
    %g = memref.get_global @w : memref<4xf32>
    // becomes
    %g = memref.get_global @w : memref<4xf32>
    %c = memref.alloc() : memref<4xf32>
    memref.copy %g, %c : memref<4xf32> to memref<4xf32>
    ```

    (every other use of the global's view now uses the copy). The copy is
    allocated like any other buffer, so the ownership-based deallocation
    frees it and `norm-gpu-host-shared-allocs` makes it managed memory; it
    is made on every call. A global of dynamic shape or with a layout is an
    error at the op. `norm-run --target=cuda` runs it after one-shot
    bufferization.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def NormGPUHostSharedAllocsPass
    : Pass<"norm-gpu-host-shared-allocs", "::mlir::ModuleOp"> {
  let summary = "Allocate the buffers of host functions as managed memory "
                "(gpu.alloc host_shared)";
  let description = [{
    Rewrites every `memref.alloc` in a `func.func` of the module into a
    `gpu.alloc host_shared` (managed memory: `mgpuMemAlloc`,
    `cuMemAllocManaged`) and every `memref.dealloc` into a `gpu.dealloc`,
    so that the kernels of `--norm-lower-to-nvvm` can read and write every
    buffer a function allocates, and the host code still can:

    ```mlir
    %m = memref.alloc(%n) : memref<?xf32>
    memref.dealloc %m : memref<?xf32>
    // becomes
    %m = gpu.alloc host_shared (%n) : memref<?xf32>
    gpu.dealloc %m : memref<?xf32>
    ```

    Run it after the deallocation pipeline, so that every alloc and dealloc
    is rewritten and the two always match. The synchronous `gpu.dealloc` is
    put in the form `gpu-to-llvm` lowers by `norm-gpu-async-allocs`.
    `norm-run --target=cuda` runs it before `--norm-lower-to-nvvm`.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

//===----------------------------------------------------------------------===//
// Outline (lib/Transforms/Outline)
//===----------------------------------------------------------------------===//

def NormOutlineKernelsPass
    : Pass<"norm-outline-kernels", "::mlir::ModuleOp"> {
  let summary = "Emit each distinct memref-form kernel op once, as a private "
                "function, and call it from every site";
  let description = [{
    A whole-model export repeats every layer, and without this pass every
    GEMM, row kernel and vectorized elementwise op is compiled at each
    site: 32 identical layers cost 32 times the code generation of one.
    As IREE deduplicates its dispatches, this pass moves every kernel op of
    the module's functions — a norm op, a fused norm ⇄ matmul op, a linalg
    op (matmul, batch matmul, elementwise or reduction `linalg.generic`,
    transpose, fill) on memrefs — into a private function and replaces it
    by a `func.call`. Structurally equal ops share one function: same op,
    attributes, operand types (static shapes, dynamic dims, element types,
    layouts), body, and the same pattern of repeated operands. The tuning
    options and the target are the same for the whole module.

    ```mlir
    norm.rms_norm ins(%x : memref<128x1024xf32>) weight(%g0 : memref<1024xf32>)
        outs(%a : memref<128x1024xf32>)
    norm.rms_norm ins(%a : memref<128x1024xf32>) weight(%g1 : memref<1024xf32>)
        outs(%b : memref<128x1024xf32>)
    // becomes
    func.call @__norm_kernel_0_norm_rms_norm(%x, %g0, %a) {no_inline} : ...
    func.call @__norm_kernel_0_norm_rms_norm(%a, %g1, %b) {no_inline} : ...
    func.func private @__norm_kernel_0_norm_rms_norm(%arg0: memref<128x1024xf32>,
        %arg1: memref<1024xf32>, %arg2: memref<128x1024xf32>)
        attributes {llvm.linkage = #llvm.linkage<internal>} {
      norm.rms_norm ins(%arg0 : ...) weight(%arg1 : ...) outs(%arg2 : ...)
      return
    }
    ```

    Buffers (weights from `memref.get_global` included) are arguments, so
    layers with different weights share a kernel; scalar and vector
    constants the op uses (a fill value, a constant captured by a
    `linalg.generic` body) are cloned into the function and are part of
    what must be equal, since the kernels fold them. An operand passed
    twice is one argument. The call is the op's destination-passing form:
    the caller's buffers are passed as they are, with no copy. Each
    function is placed after the first function that calls it, has
    internal LLVM linkage, and its calls are `no_inline`.

    Left in place: ops on tensors or with results, and ops whose regions
    use a value from above that is not a constant (it would have to become
    an argument, and the kernel would no longer see it as what it is).
    `norm-lower-to-cpu` runs it after bufferization, before the kernels are
    generated, so each distinct kernel is generated and lowered once
    (`outline-kernels=false` turns it off).

    With `min-sites=N`, a kernel is outlined only when at least N sites of
    the module share it; the others stay where they are.
    `norm-lower-to-nvvm` runs it with `min-sites=2` after bufferization
    (`dedup-kernels=false` turns it off): each distinct kernel then gets
    one host dispatch and one `gpu.module` / `gpu.binary` per variant,
    launched from every site, and a module without a repeated kernel
    lowers as it did without the pass.
  }];
  let options = [
    Option<"minSites", "min-sites", "unsigned", /*default=*/"1",
           "Outline a kernel only when at least this many sites share it">,
  ];
  let dependentDialects = [
    "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect"
  ];
}

//===----------------------------------------------------------------------===//
// Sharding (lib/Transforms/Shard)
//===----------------------------------------------------------------------===//

def NormPartitionShardsPass
    : Pass<"norm-partition-shards", "::mlir::ModuleOp"> {
  let summary = "Partition the functions of a module that has a shard.grid";
  let description = [{
    DESIGN.md §10. In a module with a `shard.grid`, runs MLIR 22's
    `sharding-propagation` and `shard-partition` on every function that
    uses shard ops, after `convert-elementwise-to-linalg` (arith/math on
    tensors have no sharding interface in 22), then `canonicalize`. The
    other functions (declarations, a driver that calls `mpi.init` and the
    sharded function) are the same on every process and left alone, as is
    a module without a grid, so `--norm-lower-to-cpu`, which runs this pass
    first, is unchanged for unsharded IR.

    ```mlir
    shard.grid @g(shape = 2)
    func.func @f(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
      %s = shard.sharding @g split_axes = [[], [0]] : !shard.sharding
      %xs = shard.shard %x to %s : tensor<16x64xf32>
      ... norm.rms_norm ins(%xs ...)
    // becomes @f(%x: tensor<16x32xf32>) with the norm's Σx² all-reduced
    // (shard.all_reduce ... : tensor<16xf32>)
    ```
  }];
  let dependentDialects = ["::mlir::shard::ShardDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def NormLowerShardToMPIPass
    : Pass<"norm-lower-shard-to-mpi", "::mlir::ModuleOp"> {
  let summary = "Lower partitioned shard collectives to mpi, all of them or "
                "a located error";
  let description = [{
    MLIR 22's `convert-shard-to-mpi` lowers `all_reduce` and the process
    queries only, and when one op cannot be converted it rolls the whole
    module back and still succeeds. This pass first rewrites what 22 cannot
    lower into what it can. An `all_reduce` read only by the `all_slice` of
    the same processes (22's partition of a reduce-scatter) becomes a
    `reduce_scatter`. `all_gather` and `reduce_scatter` (sum, and max/min of
    floats) whose P chunks are contiguous (every dim before the gathered or
    scattered one is 1) over a grid whose processes are the MPI world
    become rings of `mpi.send` / `mpi.recv`: P − 1 steps of one chunk each,
    even ranks sending first (the blocking calls cannot all wait around the
    ring), the bytes of a textbook ring. Otherwise `all_gather` becomes an
    `all_reduce` of a zero tensor holding this process's part in its slot
    (exact: x + 0 = x) and `reduce_scatter` an `all_reduce` and the
    process's slice (twice a ring's bytes with two processes); `all_slice`
    becomes a local `extract_slice` (upstream's pattern). Any other
    collective (`all_to_all`, `broadcast`, `send`, ...), an `all_reduce`
    with a dynamic shape (22 emits an out-of-range `memref.dim`) or an
    element type MPI's lowering does not map (f16, bf16) is an error at the
    op. Then `convert-shard-to-mpi` runs and anything of `shard` left is an
    error. Last: an `mpi.comm_split` of the world with a constant color (a
    reduction over a 1-D grid) becomes the world itself (22 splits once per
    all-reduce and never frees, and MPICH runs out of communicators after
    about 2000 calls; the processes must be as many as the grid's), the
    `shard.grid` ops are erased, and the module gets the DLTI entry
    `"MPI:Implementation"` that the mpi → LLVM lowering requires, unless it
    has one.
  }];
  let options = [
    Option<"mpiImplementation", "mpi-implementation", "std::string",
           /*default=*/"\"MPICH\"",
           "The MPI ABI the lowering targets when the module does not say: "
           "MPICH (the default; Debian's mpich) or OpenMPI">,
  ];
  let dependentDialects = ["::mlir::mpi::MPIDialect",
                           "::mlir::DLTIDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

def NormDropShardingPass : Pass<"norm-drop-sharding", "::mlir::ModuleOp"> {
  let summary = "Remove the shard annotations: the one-process program";
  let description = [{
    Replaces each `shard.shard` by its source and erases `shard.sharding`
    and `shard.grid`, so that a sharded file compiles as the one-process
    program it annotates: the reference of an MPI run
    (`norm-run --compare-pipeline='builtin.module(norm-drop-sharding,
    norm-lower-to-cpu)'`). A module with other shard ops (collectives,
    process queries) is an error at the first.
  }];
}

//===----------------------------------------------------------------------===//
// Checks (lib/Transforms/Check)
//===----------------------------------------------------------------------===//

def NormOrderConstantGlobalsPass
    : Pass<"norm-order-constant-globals", "::mlir::ModuleOp"> {
  let summary = "Create the memref.global of each tensor constant in the "
                "order the module uses them";
  let description = [{
    One-shot bufferization with function boundaries turns each tensor
    `arith.constant` into a `memref.global` (`__constant_8xf32`,
    `__constant_8xf32_0`, ...), named and placed in the order it bufferizes
    the functions; MLIR 22 picks that order from a map keyed by pointers, so
    the names and the order of the globals change from one run to the next.
    This pass, run just before bufferization, creates the global of every
    tensor constant in the order of a walk of the module, with the
    alignment bufferization will ask for: bufferization then finds each
    global already there, and the output is the same on every run. The
    constants themselves are left for bufferization.
  }];
  let options = [
    Option<"alignment", "alignment", "uint64_t", /*default=*/"64",
           "The alignment of the globals: one-shot bufferization's "
           "`buffer-alignment`">,
  ];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def NormCheckLoweredPass : Pass<"norm-check-lowered"> {
  let summary = "Fail with a located error at each op a pipeline left "
                "unlowered";
  let description = [{
    A pipeline must either lower everything it promised or say why not: a
    pass that leaves an op behind exits 0, and the failure shows up much
    later, far from the cause (in `mlir-translate`, or in a verifier once the
    op's body has been converted). This pass walks the IR and reports, at
    each op of one of `dialects`, that `pipeline` left it and why:

    - a norm op with a strided memref operand: non-contiguous rows are not
      supported by the row kernels;
    - an op on tensors: the IR was not bufferized;
    - any other op: no pass of `pipeline` lowers it.

    It also rejects a `gpu.launch` or `gpu.launch_func` with a constant
    grid or block size of 0, which no GPU runs.

    ```mlir
    // norm-opt --norm-check-lowered="pipeline=norm-lower-to-nvvm dialects=linalg"
    linalg.generic ... // error: 'linalg.generic' op is left by
                       // norm-lower-to-nvvm: no pass of norm-lower-to-nvvm
                       // lowers it
    ```

    `--norm-lower-to-cpu` runs it last; `--norm-lower-to-nvvm` runs it
    after the kernel stage (before host code is converted, which would turn
    the body of a leftover `linalg` op into `llvm` ops) and last.
  }];
  let options = [
    Option<"pipeline", "pipeline", "std::string",
           /*default=*/"\"norm-check-lowered\"",
           "The pipeline or pass whose work is checked, named in the errors">,
    ListOption<"dialects", "dialects", "std::string",
               "The dialects whose ops must all be gone">,
  ];
}

#endif // NORM_TRANSFORMS_PASSES_TD
