// Bad options are located diagnostics with a non-zero exit, never a crash.
// RUN: not norm-opt %s --convert-norm-to-gpu=register-elements=200 2>&1 | FileCheck %s --check-prefix=REGS
// RUN: not norm-opt %s --convert-norm-to-gpu=block-row-threshold=0 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not norm-opt %s --convert-norm-to-gpu=chip=gfx90a 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not norm-opt %s --convert-norm-to-gpu=max-split-k=0 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: not norm-opt %s --convert-norm-to-gpu=max-split-k=65 2>&1 | FileCheck %s --check-prefix=SPLIT65
// RUN: not norm-opt %s --convert-norm-to-gpu="wgmma-pipeline=1 wgmma-block-m=96" 2>&1 | FileCheck %s --check-prefix=WGM
// RUN: not norm-opt %s --convert-norm-to-gpu="wgmma-pipeline=1 wgmma-block-n=64" 2>&1 | FileCheck %s --check-prefix=WGN
// RUN: not norm-opt %s --convert-norm-to-gpu="chip=sm_90a wgmma-pipeline=0 wgmma-block-n=256" 2>&1 | FileCheck %s --check-prefix=WGSERIAL

// REGS: bad-options.mlir:{{[0-9]+}}:{{[0-9]+}}: error: convert-norm-to-gpu: register-elements must be in [0, 128], got 200
// BLOCK: bad-options.mlir:{{[0-9]+}}:{{[0-9]+}}: error: convert-norm-to-gpu: block-row-threshold must be at least 1, got 0
// SPLIT: bad-options.mlir:{{[0-9]+}}:{{[0-9]+}}: error: convert-norm-to-gpu: max-split-k must be in [1, 64], got 0
// SPLIT65: error: convert-norm-to-gpu: max-split-k must be in [1, 64], got 65
// WGM: bad-options.mlir:{{[0-9]+}}:{{[0-9]+}}: error: convert-norm-to-gpu: wgmma-block-m must be 0, 64 or 128, got 96
// WGN: bad-options.mlir:{{[0-9]+}}:{{[0-9]+}}: error: convert-norm-to-gpu: wgmma-block-n must be 0, 128 or 256, got 64
// WGSERIAL: bad-options.mlir:{{[0-9]+}}:{{[0-9]+}}: error: convert-norm-to-gpu: a wgmma block other than 64 x 128 needs wgmma-pipeline=1
// CHIP: bad-options.mlir:{{[0-9]+}}:{{[0-9]+}}: error: convert-norm-to-gpu: chip must be sm_NN (e.g. sm_80, sm_90a), got 'gfx90a'
module {
  func.func @f(%x: memref<4x8xf32>, %y: memref<4x8xf32>) {
    norm.rms_norm ins(%x : memref<4x8xf32>) outs(%y : memref<4x8xf32>)
    return
  }
}
