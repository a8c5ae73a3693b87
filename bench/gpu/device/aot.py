#!/usr/bin/env python3
"""Ahead-of-time stand-ins for norm-opt and mlir-runner, so that the GPU
tests and benchmarks run on a GPU machine that has no LLVM/MLIR.

The device machines this project is lent have a GPU, the CUDA driver and
Python, but not LLVM/MLIR 22, and they cannot install it. So the work is
split in three phases, with the same command lines in each:

  record  (here)    `norm-opt ARGS` runs the real norm-opt and prefixes its
                    output with a key (a hash of ARGS, each file argument by
                    its content, and of stdin); `mlir-runner` compiles what it
                    is given ahead of time (mlir-translate, clang, a shim for
                    main and printMemrefF32) to DIR/exe/KEY and prints nothing.
  device  (GPU)     `norm-opt ARGS` prints only the key; `mlir-runner` runs
                    DIR/exe/KEY. The benchmarks run there for real this way;
                    `run-all` runs every recorded test executable and keeps
                    its output and exit status in DIR/out/.
  replay  (here)    `norm-opt ARGS` prints only the key; `mlir-runner` prints
                    the output recorded on the device and exits with its
                    status, so lit and FileCheck check the GPU's output here.

Usage: aot.py MODE DIR norm-opt|mlir-runner ARGS...   (the wrappers)
       aot.py run-all DIR LIST [TIMEOUT_S]              (on the device)
The real tools come from $NORM_AOT_NORM_OPT and /usr/lib/llvm-22/bin.
"""
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
LLVM_BIN = os.environ.get("NORM_AOT_LLVM_BIN", "/usr/lib/llvm-22/bin")
KEY_PREFIX = "// AOT-KEY "


def die(message):
    sys.stderr.write("aot: %s\n" % message)
    sys.exit(1)


def input_key(args, stdin_text):
    """The key of a norm-opt run: its options, its input's content."""
    digest = hashlib.sha256()
    read_stdin = True
    for arg in args:
        if os.path.isfile(arg):
            with open(arg, "rb") as f:
                digest.update(b"file:" + hashlib.sha256(f.read()).digest())
            read_stdin = False
        else:
            digest.update(b"arg:" + arg.encode())
    if read_stdin:
        digest.update(b"stdin:" + stdin_text.encode())
    return digest.hexdigest()[:24]


def norm_opt(mode, root, args):
    reads_stdin = not any(os.path.isfile(a) for a in args)
    stdin_text = sys.stdin.read() if reads_stdin else ""
    key = input_key(args, stdin_text)
    if mode != "record":
        if not os.path.exists(os.path.join(root, "exe", key)):
            die("norm-opt %s: no executable recorded for this input (key %s)"
                % (" ".join(args), key))
        print(KEY_PREFIX + key)
        return 0
    real = os.environ.get("NORM_AOT_NORM_OPT")
    if not real:
        die("NORM_AOT_NORM_OPT is not set")
    ran = subprocess.run([real] + args, input=stdin_text, text=True,
                         capture_output=True)
    sys.stderr.write(ran.stderr)
    if ran.returncode != 0:
        return ran.returncode
    sys.stdout.write(KEY_PREFIX + key + "\n" + ran.stdout)
    return 0


def shared_libs(args):
    for arg in args:
        if arg.startswith("-shared-libs="):
            return [l for l in arg.split("=", 1)[1].split(",") if l]
    return []


def compile_program(root, key, ir, libs):
    """IR (LLVM dialect, a gpu.binary inside) -> DIR/exe/KEY."""
    os.makedirs(os.path.join(root, "exe"), exist_ok=True)
    os.makedirs(os.path.join(root, "lib"), exist_ok=True)
    exe = os.path.join(root, "exe", key)
    link = []
    for lib in libs:
        name = os.path.basename(lib)
        # MLIR's own runner libraries need libMLIR; the shim stands in.
        if name.startswith("libmlir_"):
            continue
        kept = os.path.join(root, "lib", name)
        if not os.path.exists(kept) or not os.path.samefile(lib, kept):
            shutil.copy2(lib, kept)
        link.append("-l:" + name)
    with tempfile.TemporaryDirectory() as tmp:
        ll, obj = os.path.join(tmp, "p.ll"), os.path.join(tmp, "p.o")
        steps = [
            [LLVM_BIN + "/mlir-translate", "--mlir-to-llvmir", "-o", ll],
            ["clang-22", "-O2", "-c", "-fPIC", "-Wno-override-module", ll,
             "-o", obj],
            [LLVM_BIN + "/llvm-objcopy", "--redefine-sym", "main=mlir_main",
             obj],
            ["clang-22", "-O2", os.path.join(HERE, "aot_shim.c"), obj, "-o",
             exe, "-L" + os.path.join(root, "lib")] + link +
            ["-lm", "-Wl,-rpath,$ORIGIN/../lib", "-Wl,--no-undefined",
             # libcuda.so.1 is the device's; the libraries name it.
             "-Wl,--allow-shlib-undefined"],
        ]
        for i, step in enumerate(steps):
            ran = subprocess.run(step, input=ir if i == 0 else None,
                                 text=True, capture_output=True)
            if ran.returncode != 0:
                die("%s failed:\n%s" % (os.path.basename(step[0]),
                                        ran.stderr[-4000:]))
    with open(os.path.join(root, "recorded.txt"), "a") as f:
        f.write(key + "\n")
    # The most recent program, for a test that runs what it recorded.
    last = os.path.join(root, "last")
    if os.path.lexists(last):
        os.remove(last)
    os.symlink(os.path.join("exe", key), last)


def runner(mode, root, args):
    text = sys.stdin.read()
    first, _, rest = text.partition("\n")
    if first.startswith(KEY_PREFIX):
        key = first[len(KEY_PREFIX):].strip()
    elif mode == "record":  # IR from a real norm-opt: keyed by its content
        key, rest = hashlib.sha256(text.encode()).hexdigest()[:24], text
    else:
        die("mlir-runner: the input does not start with a key (was it "
            "made by aot.py's norm-opt?)")
    if mode == "record":
        compile_program(root, key, rest, shared_libs(args))
        return 0
    if mode == "device":
        sys.stdout.flush()
        return subprocess.run([os.path.join(root, "exe", key)]).returncode
    out = os.path.join(root, "out", key)
    if not os.path.exists(out + ".txt"):
        die("mlir-runner: nothing recorded on the device for key %s" % key)
    with open(out + ".txt", "rb") as f:
        sys.stdout.buffer.write(f.read())
    with open(out + ".rc") as f:
        return int(f.read().strip() or 1)


def run_all(root, listing, timeout):
    """On the device: the executables LISTING names, output and status kept."""
    os.makedirs(os.path.join(root, "out"), exist_ok=True)
    with open(listing) as f:
        keys = sorted(set(f.read().split()))
    failed = 0
    for key in keys:
        out = os.path.join(root, "out", key)
        with open(out + ".txt", "w") as log:
            try:
                rc = subprocess.run([os.path.join(root, "exe", key)],
                                    stdout=log, stderr=subprocess.STDOUT,
                                    timeout=timeout).returncode
            except subprocess.TimeoutExpired:
                log.write("\naot: timed out after %d s\n" % timeout)
                rc = 124
        with open(out + ".rc", "w") as f:
            f.write("%d\n" % rc)
        failed += rc != 0
        print("%s rc=%d" % (key, rc), flush=True)
    print("run-all: %d programs, %d non-zero" % (len(keys), failed))
    return 0


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == "run-all":
        timeout = int(sys.argv[4]) if len(sys.argv) > 4 else 120
        return run_all(sys.argv[2], sys.argv[3], timeout)
    if len(sys.argv) < 4 or sys.argv[1] not in ("record", "device", "replay"):
        die(__doc__.strip().split("\n\n")[-2])
    mode, root, args = sys.argv[1], sys.argv[2], sys.argv[4:]
    tool = os.path.basename(sys.argv[3])  # lit may give the tool's path
    if tool == "norm-opt":
        return norm_opt(mode, root, args)
    if tool == "mlir-runner":
        return runner(mode, root, args)
    die("unknown tool '%s'" % tool)


if __name__ == "__main__":
    sys.exit(main())
