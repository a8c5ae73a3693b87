//===- Passes.td - norm-mlir conversion passes --------------*- tablegen -*-===//

#ifndef NORM_CONVERSION_PASSES_TD
#define NORM_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertNormToVectorPass : Pass<"convert-norm-to-vector"> {
  let summary = "Lower memref-form norm ops to multi-threaded vector code";
  let description = [{
    Rewrites every `norm.rms_norm` and `norm.layer_norm` on memrefs with an
    identity layout into row loops of `vector` code (the project's CPU code
    generation, DESIGN.md §5):

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

    Fused norm/matmul ops on memrefs are split into the norm op (lowered as
    above) and a `linalg.generic` matmul. Ops on tensors, and ops on strided
    memrefs, are left for `--norm-decompose`.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"host\"",
           "Vector ISA: host, avx512 (512-bit), avx512-bf16 (512-bit with "
           "vcvtneps2bf16), avx2 (256-bit) or generic (128-bit)">,
    Option<"accumulators", "accumulators", "int64_t", /*default=*/"4",
           "Independent vector accumulators per statistic (1 to 16)">,
    Option<"parallelThreshold", "parallel-threshold", "int64_t",
           /*default=*/"1048576",
           "Bytes an op must touch to be split across threads (-1: never)">,
    Option<"streamingThreshold", "streaming-threshold", "int64_t",
           /*default=*/"0",
           "Output bytes from which stores bypass the cache (0: the host's "
           "last-level cache size; -1: never)">,
    Option<"pipelineRows", "pipeline-rows", "bool", /*default=*/"true",
           "Gather row r+1's statistics during row r's normalize sweep">,
    Option<"prefetch", "prefetch", "bool", /*default=*/"true",
           "Without pipelining: prefetch the next row while normalizing the "
           "current one">,
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

#endif // NORM_CONVERSION_PASSES_TD
