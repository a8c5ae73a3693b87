#!/usr/bin/env python3
"""GPU benchmark of norm.rms_norm / norm.layer_norm (bf16 and f32) through
--norm-lower-to-nvvm, next to the measured device-to-device copy bandwidth.

For each case it generates an MLIR program (static shapes, device buffers
from gpu.alloc, seeded random inputs), compiles it with norm-opt, runs it
under mlir-runner with libnorm_cuda_runtime.so and the benchmark helpers
(bench_helpers.cpp), and reads back the median GPU time of the launches
(L2 flushed before each). Prints a table and writes it to --out.

Usage: bench.py --norm-opt PATH --runner PATH --libs a.so,b.so --out FILE
                [--chip sm_90] [--repeat N] [--quick]
"""
import argparse
import datetime
import os
import platform
import re
import subprocess
import sys

SHAPES = [(32768, 4096), (4096, 4096), (8192, 8192), (1, 4096)]
QUICK_SHAPES = [(4096, 4096), (1, 4096)]
ELEMENT_BYTES = {"f32": 4, "bf16": 2}


def program(op, dtype, rows, n, repeat):
    """The MLIR of one case: fill, warm up, time `repeat` launches."""
    x = "memref<%dx%dx%s>" % (rows, n, dtype)
    v = "memref<%dx%s>" % (n, dtype)
    u = "memref<*x%s>" % dtype
    moved = 2 * rows * n * ELEMENT_BYTES[dtype]  # read x, write y
    params = ["g"] + (["b"] if op == "layer_norm" else [])
    lines = [
        "func.func private @bench_fill_%s(%s, i64) attributes {llvm.emit_c_interface}" % (dtype, u),
        "func.func private @bench_flush_l2()",
        "func.func private @bench_begin()",
        "func.func private @bench_sample()",
        "func.func private @bench_report(i64)",
        "func.func private @bench_copy_bandwidth(i64, i64)",
        "func.func @main() {",
        # Device memory, allocated synchronously: the pipeline's
        # norm-gpu-async-allocs gives each its own stream, in the async form
        # gpu-to-llvm lowers. (A `gpu.wait [%t]` destroys the stream of %t,
        # so a chain of allocs on one stream cannot be waited on one by one.)
        "  %x = gpu.alloc () : " + x,
        "  %y = gpu.alloc () : " + x,
    ]
    for index, name in enumerate(["x"] + params):
        if name != "x":
            lines.append("  %%%s = gpu.alloc () : %s" % (name, v))
        ty = x if name == "x" else v
        lines += [
            "  %%%s_u = memref.cast %%%s : %s to %s" % (name, name, ty, u),
            "  %%%s_seed = arith.constant %d : i64" % (name, 1234 + index),
            "  func.call @bench_fill_%s(%%%s_u, %%%s_seed) : (%s, i64) -> ()"
            % (dtype, name, name, u),
        ]
    operands = "ins(%%x : %s) weight(%%g : %s)" % (x, v)
    if op == "layer_norm":
        operands += " bias(%%b : %s)" % v
    norm = "    norm.%s %s outs(%%y : %s)" % (op, operands, x)
    lines += [
        "  %c0 = arith.constant 0 : index",
        "  %c1 = arith.constant 1 : index",
        "  %warmup = arith.constant 3 : index",
        "  %%repeat = arith.constant %d : index" % repeat,
        "  scf.for %i = %c0 to %warmup step %c1 {",
        norm,
        "  }",
        "  func.call @bench_begin() : () -> ()",
        "  scf.for %i = %c0 to %repeat step %c1 {",
        "    func.call @bench_flush_l2() : () -> ()",
        norm,
        "    func.call @bench_sample() : () -> ()",
        "  }",
        "  %%bytes = arith.constant %d : i64" % moved,
        "  func.call @bench_report(%bytes) : (i64) -> ()",
        "  %%copy_bytes = arith.constant %d : i64" % (moved // 2),
        "  %%copy_repeat = arith.constant %d : i64" % repeat,
        "  func.call @bench_copy_bandwidth(%copy_bytes, %copy_repeat) : (i64, i64) -> ()",
        "  return",
        "}",
    ]
    return "\n".join(lines) + "\n"


def gpu_name():
    """The GPU and driver nvidia-smi reports, for the report's header."""
    try:
        return subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version",
                               "--format=csv,noheader"], capture_output=True,
                              text=True).stdout.strip() or "unknown GPU"
    except OSError:  # no driver here (bench/gpu/device/pack.sh records)
        return "unknown GPU"


def run_case(args, op, dtype, rows, n):
    source = program(op, dtype, rows, n, args.repeat)
    pipeline = "--norm-lower-to-nvvm=chip=%s" % args.chip
    compiled = subprocess.run([args.norm_opt, "-", pipeline], input=source,
                              capture_output=True, text=True)
    if compiled.returncode != 0:
        return None, "norm-opt failed: " + compiled.stderr.strip()
    ran = subprocess.run(
        [args.runner, "-e", "main", "-entry-point-result=void",
         "-shared-libs=" + args.libs], input=compiled.stdout,
        capture_output=True, text=True)
    if ran.returncode != 0:
        return None, "run failed: " + (ran.stderr.strip() or ran.stdout.strip())
    result = {}
    for key, value in re.findall(r"(\w+)=([0-9.]+)", ran.stdout):
        result[key] = float(value)
    if not {"median_us", "gbps", "copy_gbps"} <= result.keys():
        return None, "no timing in the output"
    return result, None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--norm-opt", required=True)
    parser.add_argument("--runner", required=True)
    parser.add_argument("--libs", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--chip", default="sm_90")
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()

    gpu = gpu_name()
    header = ["# GPU norm benchmark",
              "",
              "- date: %s" % datetime.datetime.now().isoformat(timespec="seconds"),
              "- host: %s; GPU: %s" % (platform.node(), gpu),
              "- command: %s" % " ".join(sys.argv),
              "- pipeline: --norm-lower-to-nvvm=chip=%s (fatbin); median of %d "
              "launches, GPU time from events around each launch, L2 flushed "
              "before each" % (args.chip, args.repeat),
              "- copy: cuMemcpyDtoD of the same size as x, same method; "
              "GB/s count reads + writes",
              "",
              "| op | dtype | rows × n | median µs | GB/s | copy GB/s | % of copy |",
              "|---|---|---|---|---|---|---|"]
    print("\n".join(header), flush=True)
    rows_out = []
    for op in ("rms_norm", "layer_norm"):
        for dtype in ("bf16", "f32"):
            for rows, n in (QUICK_SHAPES if args.quick else SHAPES):
                result, error = run_case(args, op, dtype, rows, n)
                if error:
                    line = "| %s | %s | %d × %d | %s | | | |" % (
                        op, dtype, rows, n, error.replace("|", "/")[:120])
                else:
                    line = "| %s | %s | %d × %d | %.2f | %.0f | %.0f | %.0f%% |" % (
                        op, dtype, rows, n, result["median_us"], result["gbps"],
                        result["copy_gbps"],
                        100.0 * result["gbps"] / result["copy_gbps"])
                print(line, flush=True)
                rows_out.append(line)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        f.write("\n".join(header + rows_out) + "\n")
    print("\nwrote " + args.out)


if __name__ == "__main__":
    main()
