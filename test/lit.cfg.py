# -*- Python -*-
# lit configuration for norm-mlir.

import os
import shutil

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "NORM"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py",
                   "lit.site.cfg.py", "Inputs", "lib"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.norm_obj_root, "test")

# Strict FileCheck everywhere (CONVENTIONS.md C.16).
config.environment["FILECHECK_OPTS"] = (
    "-enable-var-scope --allow-unused-prefixes=false")

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

lib_dir = config.llvm_lib_dir
config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%shlibext", ".so"))
config.substitutions.append(
    ("%mlir_runner_utils", os.path.join(lib_dir, "libmlir_runner_utils.so")))
config.substitutions.append(
    ("%mlir_c_runner_utils", os.path.join(lib_dir, "libmlir_c_runner_utils.so")))
# The CPU pipeline runs large ops on OpenMP threads (Debian's libomp-22-dev).
config.substitutions.append(("%libomp", os.path.join(lib_dir, "libomp.so")))
config.substitutions.append(
    ("%norm_test_runtime",
     os.path.join(config.norm_lib_dir, "libnorm_test_runtime.so")))
config.substitutions.append(
    ("%norm_plugin", os.path.join(config.norm_lib_dir, "NormPlugin.so")))
config.substitutions.append(("%norm_src_root", config.norm_src_root))
config.substitutions.append(("%norm_obj_root", config.norm_obj_root))
config.substitutions.append(("%mlir_dir", config.mlir_dir))
config.substitutions.append(("%cmake_generator", config.cmake_generator))
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%cxx", config.cxx_compiler))
config.substitutions.append(("%cc", config.c_compiler))

tool_dirs = [config.norm_tools_dir, config.llvm_tools_dir]
# scripts/test-sanitizers.sh puts its instrumented norm-opt and norm-run first.
sanitizer_tools_dir = lit_config.params.get("norm_tools_dir")
if sanitizer_tools_dir:
    tool_dirs.insert(0, sanitizer_tools_dir)
    config.available_features.add("sanitizers")
tools = [
    "norm-opt",
    "norm-run",
    "norm-capi-test",
    "norm-reference-test",
    ToolSubst("mlir-opt", unresolved="fatal"),
    ToolSubst("mlir-translate", unresolved="fatal"),
    # LLVM's optimizer and x86 code generator: tests of the machine code the
    # CPU pipeline's LLVM IR becomes (llvm-22-tools, scripts/setup.sh).
    ToolSubst("opt", unresolved="fatal"),
    ToolSubst("llc", unresolved="fatal"),
    ToolSubst("mlir-runner", unresolved="ignore"),
]
llvm_config.add_tool_substitutions(tools, tool_dirs)

if shutil.which("mlir-runner", path=config.llvm_tools_dir):
    config.available_features.add("mlir-runner")
# AVX512-BF16 on the host (the fused GEMM's dot-product tests run code
# built for it).
try:
    with open("/proc/cpuinfo") as cpuinfo:
        if "avx512_bf16" in cpuinfo.read().split():
            config.available_features.add("avx512bf16")
except OSError:
    pass

# The host's cache sizes in sysfs (the default streaming threshold is read
# there; streaming-threshold-host.mlir checks it).
if os.path.exists("/sys/devices/system/cpu/cpu0/cache/index0/size"):
    config.available_features.add("sysfs-cpu-cache")

# MPICH (scripts/setup.sh installs it) runs the sharded tests on 2
# processes; always mpirun.mpich, which an Open MPI install cannot take over.
# Under a timeout: a process waiting for its peer would hang the suite.
mpirun = shutil.which("mpirun.mpich")
libmpich = "/usr/lib/x86_64-linux-gnu/libmpich.so.12"
if mpirun and os.path.exists(libmpich):
    config.available_features.add("mpi")
    config.substitutions.append(
        ("%mpirun", "timeout 300 " + mpirun + " -np 2"))
    # Another process count: `%mpiexec -np N`.
    config.substitutions.append(("%mpiexec", "timeout 300 " + mpirun))
    config.substitutions.append(("%libmpich", libmpich))

# The CUDA toolkit's ptxas assembles the PTX of the GPU lowering tests.
ptxas = shutil.which("ptxas") or (
    "/usr/local/cuda/bin/ptxas"
    if os.path.exists("/usr/local/cuda/bin/ptxas") else None)
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))

# libnorm_cuda_runtime.so (built only where the CUDA toolkit was found).
cuda_runtime = os.path.join(config.norm_lib_dir, "libnorm_cuda_runtime.so")
config.substitutions.append(("%norm_cuda_runtime", cuda_runtime))
if os.path.exists(cuda_runtime):
    config.available_features.add("cuda-runtime")


def has_cuda_gpu():
    """An NVIDIA GPU with a working driver: nvidia-smi lists a GPU."""
    import subprocess
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False
    try:
        listing = subprocess.run([smi, "-L"], capture_output=True, text=True,
                                 timeout=30)
    except (OSError, subprocess.SubprocessError):
        return False
    return listing.returncode == 0 and "GPU" in listing.stdout


# GPU execution tests: `REQUIRES: cuda-gpu` (an NVIDIA GPU, its driver and
# the project's CUDA runtime); they are UNSUPPORTED elsewhere.
if "cuda-runtime" in config.available_features and has_cuda_gpu():
    config.available_features.add("cuda-gpu")


def cuda_compute_capabilities():
    """The compute capabilities nvidia-smi reports ("9.0", ...)."""
    import subprocess
    try:
        query = subprocess.run(
            ["nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader"],
            capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return []
    return query.stdout.split() if query.returncode == 0 else []


# sm_90a code (wgmma, TMA) runs only on compute capability 9.0 (H100/H200):
# `REQUIRES: cuda-sm90`.
if "cuda-gpu" in config.available_features and \
        "9.0" in cuda_compute_capabilities():
    config.available_features.add("cuda-sm90")
