#!/usr/bin/env python3
"""Record phase of the GPU execution tests: runs the RUN lines of each
test/Integration/GPU/CUDA test as lit would, but with aot.py's recording
norm-opt and mlir-runner and without FileCheck (lit stops a test at its
first failing RUN line, and nothing can be checked before the device has
run it). replay.sh then runs the same tests under lit itself.

Usage: record_lit.py BIN_DIR BUILD_DIR TEST.mlir...
"""
import os
import re
import subprocess
import sys
import tempfile


def main():
    bin_dir, build, tests = sys.argv[1], sys.argv[2], sys.argv[3:]
    llvm_lib = "/usr/lib/llvm-22/lib"
    subs = [
        ("%bf16_to_f32", "awk '{ gsub(/b?f16/, \"f32\") } "
         "!(/^func\\.func private/ && seen[$0]++)'"),
        ("%mlir_c_runner_utils", llvm_lib + "/libmlir_c_runner_utils.so"),
        ("%mlir_runner_utils", llvm_lib + "/libmlir_runner_utils.so"),
        ("%norm_test_runtime", build + "/lib/libnorm_test_runtime.so"),
        ("%norm_cuda_runtime", build + "/lib/libnorm_cuda_runtime.so"),
    ]
    failed = 0
    for test in tests:
        with open(test) as f:
            runs = [m.group(1) for m in re.finditer(r"^// RUN: (.*)$", f.read(),
                                                    re.M)]
        with tempfile.TemporaryDirectory() as tmp:
            for line in runs:
                # Everything after the runner is checking: drop it.
                line = re.sub(r"\|\s*FileCheck.*$", "", line)
                for key, value in subs:
                    line = line.replace(key, value)
                line = line.replace("%s", test).replace(
                    "%S", os.path.dirname(test)).replace(
                    "%t", os.path.join(tmp, "t"))
                line = re.sub(r"\bnorm-opt\b", bin_dir + "/norm-opt", line)
                line = re.sub(r"\bmlir-runner\b", bin_dir + "/mlir-runner",
                              line)
                ran = subprocess.run(["bash", "-o", "pipefail", "-c", line])
                if ran.returncode != 0:
                    print("record_lit: failed: %s" % line, file=sys.stderr)
                    failed += 1
        print("recorded %s (%d RUN lines)" % (os.path.basename(test),
                                              len(runs)), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
