// --norm-lower-to-nvvm: norm ops to a gpu.binary per kernel plus LLVM-dialect
// host code. format=isa needs no CUDA toolkit (PTX from LLVM's NVPTX back
// end); bin and fatbin run the toolkit's ptxas (and fatbinary).
// RUN: norm-opt %s --norm-lower-to-nvvm="format=isa" | FileCheck %s --check-prefix=ISA90
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_80 features=+ptx70 format=isa opt-level=2" | FileCheck %s --check-prefix=ISA80
// RUN: %if ptxas %{ norm-opt %s --norm-lower-to-nvvm="format=bin" | FileCheck %s --check-prefix=CUBIN %}
// RUN: %if ptxas %{ norm-opt %s --norm-lower-to-nvvm | FileCheck %s --check-prefix=FATBIN %}

// Bad options: a diagnostic and a non-zero exit.
// RUN: not norm-opt %s --norm-lower-to-nvvm="chip=sm_50" 2>&1 | FileCheck %s --check-prefix=BADCHIP
// RUN: not norm-opt %s --norm-lower-to-nvvm="chip=gfx90a" 2>&1 | FileCheck %s --check-prefix=BADCHIP2
// RUN: not norm-opt %s --norm-lower-to-nvvm="format=elf" 2>&1 | FileCheck %s --check-prefix=BADFORMAT
// RUN: not norm-opt %s --norm-lower-to-nvvm="features=ptx80" 2>&1 | FileCheck %s --check-prefix=BADFEATURES
// RUN: not norm-opt %s --norm-lower-to-nvvm="opt-level=7" 2>&1 | FileCheck %s --check-prefix=BADOPT
// RUN: not norm-opt %s --norm-lower-to-nvvm="register-elements=-1" 2>&1 | FileCheck %s --check-prefix=BADREGS
// RUN: not norm-opt %s --norm-lower-to-nvvm="no-such-option=1" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not norm-opt %s --pass-pipeline="builtin.module(func.func(norm-lower-to-nvvm))" 2>&1 | FileCheck %s --check-prefix=NESTED

// The host function launches the vector or the scalar kernel; each kernel is
// its own gpu.binary for the requested chip and PTX level.
// ISA90-LABEL: llvm.func @rms
// ISA90:         llvm.cond_br
// ISA90:         gpu.launch_func @rms_kernel::@rms_kernel blocks in
// ISA90:         gpu.launch_func @rms_kernel_0::@rms_kernel blocks in
// ISA90-NOT:     norm.
// ISA90:       gpu.binary @rms_kernel  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">, {{.*}}assembly = "{{.*}}.version 8.0\0A.target sm_90\0A{{.*}}.entry rms_kernel({{.*}}.maxntid 128, 2, 1{{.*}}shfl.sync.bfly.b32{{.*}}bar.sync
// ISA90:       gpu.binary @rms_kernel_0

// ISA80:       gpu.binary @rms_kernel  [#gpu.object<#nvvm.target<chip = "sm_80", features = "+ptx70">, properties = {{{.*}}O = 2 : i32}, assembly = "{{.*}}.version 7.0\0A.target sm_80\0A{{.*}}ld.global.v4.b32

// CUBIN:       gpu.binary @rms_kernel  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">, {{.*}}bin = "\7FELF
// FATBIN:      gpu.binary @rms_kernel  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">, {{.*}}}, "P\EDU\BA

// BADCHIP: error: norm-lower-to-nvvm: chip must be sm_70 or newer (e.g. sm_80, sm_90, sm_90a), got 'sm_50'
// BADCHIP2: error: norm-lower-to-nvvm: chip must be sm_70 or newer (e.g. sm_80, sm_90, sm_90a), got 'gfx90a'
// BADFORMAT: error: norm-lower-to-nvvm: format must be 'isa' (PTX), 'bin' (cubin) or 'fatbin', got 'elf'
// BADFEATURES: error: norm-lower-to-nvvm: features must be a PTX level such as +ptx80, got 'ptx80'
// BADOPT: error: norm-lower-to-nvvm: opt-level must be in [0, 3]
// BADREGS: error: norm-lower-to-nvvm: register-elements must be in [0, 128]
// UNKNOWN: no-such-option
// NESTED: error: norm-lower-to-nvvm runs on 'builtin.module', not nested under 'func.func'
func.func @rms(%x: memref<?x4096xbf16>, %g: memref<4096xbf16>, %y: memref<?x4096xbf16>) {
  norm.rms_norm ins(%x : memref<?x4096xbf16>) weight(%g : memref<4096xbf16>)
    outs(%y : memref<?x4096xbf16>)
  return
}
