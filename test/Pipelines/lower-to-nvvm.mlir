// --norm-lower-to-nvvm: norm ops to a gpu.binary per kernel plus LLVM-dialect
// host code. format=isa needs no CUDA toolkit (PTX from LLVM's NVPTX back
// end); bin and fatbin run the toolkit's ptxas (and fatbinary).
// RUN: norm-opt %s --norm-lower-to-nvvm="format=isa" | FileCheck %s --check-prefix=ISA90
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_80 features=+ptx70 format=isa opt-level=2" | FileCheck %s --check-prefix=ISA80
// RUN: %if ptxas %{ norm-opt %s --norm-lower-to-nvvm="format=bin" | FileCheck %s --check-prefix=CUBIN %}
// RUN: %if ptxas %{ norm-opt %s --norm-lower-to-nvvm | FileCheck %s --check-prefix=FATBIN %}

// Blackwell: without `features` the PTX level is the chip's minimum (8.6 for
// sm_100, 8.7 for sm_120: PTX 8.0 cannot target them), with it any level
// LLVM has from that minimum up.
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_100 format=isa" | FileCheck %s --check-prefix=ISA100
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_100a features=+ptx88 format=isa" | FileCheck %s --check-prefix=ISA100A
// RUN: norm-opt %s --norm-lower-to-nvvm="chip=sm_120 format=isa" | FileCheck %s --check-prefix=ISA120
// RUN: %if ptxas %{ norm-opt %s --norm-lower-to-nvvm="chip=sm_100 format=bin" | FileCheck %s --check-prefix=CUBIN100 %}
// RUN: %if ptxas %{ norm-opt %s --norm-lower-to-nvvm="chip=sm_120" | FileCheck %s --check-prefix=FATBIN120 %}

// Bad options: a diagnostic and a non-zero exit.
// RUN: not norm-opt %s --norm-lower-to-nvvm="chip=sm_50" 2>&1 | FileCheck %s --check-prefix=BADCHIP
// RUN: not norm-opt %s --norm-lower-to-nvvm="chip=gfx90a" 2>&1 | FileCheck %s --check-prefix=BADCHIP2
// RUN: not norm-opt %s --norm-lower-to-nvvm="format=elf" 2>&1 | FileCheck %s --check-prefix=BADFORMAT
// RUN: not norm-opt %s --norm-lower-to-nvvm="features=ptx80" 2>&1 | FileCheck %s --check-prefix=BADFEATURES
// Chip and PTX level are checked together, never left to abort in LLVM.
// RUN: not norm-opt %s --norm-lower-to-nvvm="chip=sm_100 features=+ptx80" 2>&1 | FileCheck %s --check-prefix=LOWPTX100
// RUN: not norm-opt %s --norm-lower-to-nvvm="chip=sm_100 features=+ptx70" 2>&1 | FileCheck %s --check-prefix=LOWPTX100-70
// RUN: not norm-opt %s --norm-lower-to-nvvm="chip=sm_120 features=+ptx86 format=isa" 2>&1 | FileCheck %s --check-prefix=LOWPTX120
// RUN: not norm-opt %s --norm-lower-to-nvvm="chip=sm_90a features=+ptx78" 2>&1 | FileCheck %s --check-prefix=LOWPTX90A
// RUN: not norm-opt %s --norm-lower-to-nvvm="chip=sm_80a" 2>&1 | FileCheck %s --check-prefix=CHIP80A
// RUN: not norm-opt %s --norm-lower-to-nvvm="chip=sm_99" 2>&1 | FileCheck %s --check-prefix=CHIP99
// RUN: not norm-opt %s --norm-lower-to-nvvm="chip=sm_90 features=+ptx79" 2>&1 | FileCheck %s --check-prefix=NOPTX79
// RUN: not norm-opt %s --norm-lower-to-nvvm="chip=sm_90 features=+ptx990" 2>&1 | FileCheck %s --check-prefix=NOPTX990
// RUN: not norm-opt %s --norm-lower-to-nvvm="opt-level=7" 2>&1 | FileCheck %s --check-prefix=BADOPT
// RUN: not norm-opt %s --norm-lower-to-nvvm="gpu-options={register-elements=-1}" 2>&1 | FileCheck %s --check-prefix=BADREGS
// RUN: not norm-opt %s --norm-lower-to-nvvm="gpu-options={max-split-k=0}" 2>&1 | FileCheck %s --check-prefix=BADSPLIT
// RUN: not norm-opt %s --pass-pipeline='builtin.module(norm-lower-to-nvvm{gpu-options={block-row-threshold=0}})' 2>&1 | FileCheck %s --check-prefix=BADBLOCK
// RUN: not norm-opt %s --norm-lower-to-nvvm="gpu-options={no-such-knob=1}" 2>&1 | FileCheck %s --check-prefix=BADKNOB
// RUN: not norm-opt %s --norm-lower-to-nvvm="gpu-options={chip=sm_80}" 2>&1 | FileCheck %s --check-prefix=OWNOPT
// RUN: not norm-opt %s --norm-lower-to-nvvm="no-such-option=1" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not norm-opt %s --pass-pipeline="builtin.module(func.func(norm-lower-to-nvvm))" 2>&1 | FileCheck %s --check-prefix=NESTED

// The host function launches the vector or the scalar kernel; each kernel is
// its own gpu.binary for the requested chip and PTX level.
// ISA90-LABEL: llvm.func @rms
// ISA90:         llvm.cond_br
// ISA90:         gpu.launch_func {{.*}}@rms_kernel::@rms_kernel blocks in
// ISA90:         gpu.launch_func {{.*}}@rms_kernel_0::@rms_kernel blocks in
// ISA90-NOT:     norm.
// ISA90:       gpu.binary @rms_kernel  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">, {{.*}}assembly = "{{.*}}.version 8.0\0A.target sm_90\0A{{.*}}.entry rms_kernel({{.*}}.maxntid 128, 2, 1{{.*}}shfl.sync.bfly.b32{{.*}}bar.sync
// ISA90:       gpu.binary @rms_kernel_0

// ISA80:       gpu.binary @rms_kernel  [#gpu.object<#nvvm.target<chip = "sm_80", features = "+ptx70">, properties = {{{.*}}O = 2 : i32}, assembly = "{{.*}}.version 7.0\0A.target sm_80\0A{{.*}}ld.global.v4.b32

// ISA100:      gpu.binary @rms_kernel  [#gpu.object<#nvvm.target<O = 3, chip = "sm_100", features = "+ptx86">, {{.*}}assembly = "{{.*}}.version 8.6\0A.target sm_100\0A{{.*}}.entry rms_kernel(
// ISA100A:     gpu.binary @rms_kernel  [#gpu.object<#nvvm.target<O = 3, chip = "sm_100a", features = "+ptx88">, {{.*}}assembly = "{{.*}}.version 8.8\0A.target sm_100a\0A{{.*}}.entry rms_kernel(
// ISA120:      gpu.binary @rms_kernel  [#gpu.object<#nvvm.target<O = 3, chip = "sm_120", features = "+ptx87">, {{.*}}assembly = "{{.*}}.version 8.7\0A.target sm_120\0A{{.*}}.entry rms_kernel(

// CUBIN:       gpu.binary @rms_kernel  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">, {{.*}}bin = "\7FELF
// FATBIN:      gpu.binary @rms_kernel  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">, {{.*}}}, "P\EDU\BA
// CUBIN100:    gpu.binary @rms_kernel  [#gpu.object<#nvvm.target<O = 3, chip = "sm_100", features = "+ptx86">, {{.*}}bin = "\7FELF
// FATBIN120:   gpu.binary @rms_kernel  [#gpu.object<#nvvm.target<O = 3, chip = "sm_120", features = "+ptx87">, {{.*}}}, "P\EDU\BA

// BADCHIP: error: norm-lower-to-nvvm: chip must be sm_70 or newer (e.g. sm_80, sm_90, sm_90a, sm_100, sm_120), got 'sm_50'
// BADCHIP2: error: norm-lower-to-nvvm: chip must be sm_70 or newer (e.g. sm_80, sm_90, sm_90a, sm_100, sm_120), got 'gfx90a'
// BADFORMAT: error: norm-lower-to-nvvm: format must be 'isa' (PTX), 'bin' (cubin) or 'fatbin', got 'elf'
// BADFEATURES: error: norm-lower-to-nvvm: features must be a PTX level such as +ptx80, got 'ptx80'
// LOWPTX100: error: norm-lower-to-nvvm: chip 'sm_100' needs PTX ISA 8.6 or newer (features=+ptx86 or higher), got '+ptx80' (PTX ISA 8.0)
// LOWPTX100-70: error: norm-lower-to-nvvm: chip 'sm_100' needs PTX ISA 8.6 or newer (features=+ptx86 or higher), got '+ptx70' (PTX ISA 7.0)
// LOWPTX120: error: norm-lower-to-nvvm: chip 'sm_120' needs PTX ISA 8.7 or newer (features=+ptx87 or higher), got '+ptx86' (PTX ISA 8.6)
// LOWPTX90A: error: norm-lower-to-nvvm: chip 'sm_90a' needs PTX ISA 8.0 or newer (features=+ptx80 or higher), got '+ptx78' (PTX ISA 7.8)
// CHIP80A: error: norm-lower-to-nvvm: unknown chip 'sm_80a' ('a' variants exist from sm_90a, 'f' variants from sm_100f); known chips: sm_70, sm_72, sm_75, sm_80, {{.*}}, sm_121f
// CHIP99: error: norm-lower-to-nvvm: unknown chip 'sm_99'
// NOPTX79: error: norm-lower-to-nvvm: features '+ptx79' is not a PTX ISA version the installed LLVM's NVPTX back end supports (+ptx32 to +ptx{{[0-9]+}})
// NOPTX990: error: norm-lower-to-nvvm: features '+ptx990' is not a PTX ISA version
// BADOPT: error: norm-lower-to-nvvm: opt-level must be in [0, 3]
// BADREGS: error: norm-lower-to-nvvm: register-elements must be in [0, 128]
// BADSPLIT: error: norm-lower-to-nvvm: max-split-k must be in [1, 64]
// BADBLOCK: error: norm-lower-to-nvvm: block-row-threshold must be at least 1, got 0
// BADKNOB: error: norm-lower-to-nvvm: gpu-options: no such option no-such-knob
// OWNOPT: error: norm-lower-to-nvvm: chip and lower-matmuls are options of the pipeline, not of gpu-options
// UNKNOWN: no-such-option
// NESTED: error: norm-lower-to-nvvm runs on 'builtin.module', not nested under 'func.func'
func.func @rms(%x: memref<?x4096xbf16>, %g: memref<4096xbf16>, %y: memref<?x4096xbf16>) {
  norm.rms_norm ins(%x : memref<?x4096xbf16>) weight(%g : memref<4096xbf16>)
    outs(%y : memref<?x4096xbf16>)
  return
}
