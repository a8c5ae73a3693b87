// REQUIRES: sysfs-cpu-cache
// RUN: %python %S/Inputs/host-cache-checks.py > %t.checks
// RUN: norm-opt %s --convert-norm-to-vector="target=host parallel-threshold=-1" | FileCheck %t.checks
// RUN: norm-opt %s --convert-norm-to-vector="target=host parallel-threshold=-1 streaming-threshold=65536" | FileCheck %s --check-prefix=EXPLICIT
// RUN: norm-opt %s --convert-norm-to-vector="target=host parallel-threshold=-1 streaming-threshold=-1" | FileCheck %s --check-prefix=NEVER

// The default streaming threshold is the host's last-level cache, read
// from sysfs: the kernel streams its stores when y has at least that many
// bytes. Inputs/host-cache-checks.py writes the checks for this host (the
// size sysfs gives; not sysconf's where that differs: a VM's sysconf can
// report the whole package's L3, 320 MiB where the VM has 32 MiB, and the
// threshold was that while sysfs was misread, so 8192² f32 outputs did not
// stream). An explicit threshold is taken as given; -1 never streams.

// EXPLICIT-LABEL: func.func @rms
//       EXPLICIT: %[[BYTES:.*]] = arith.muli %{{.*}}, %c4{{[_0-9]*}} : index
//       EXPLICIT: arith.cmpi uge, %[[BYTES]], %c65536{{(_[0-9]+)?}} : index
//       EXPLICIT: nontemporal = true

// NEVER-LABEL: func.func @rms
//   NEVER-NOT: arith.cmpi uge
//   NEVER-NOT: nontemporal
//       NEVER: return
func.func @rms(%x: memref<?x?xf32>, %g: memref<?xf32>, %y: memref<?x?xf32>) {
  norm.rms_norm ins(%x : memref<?x?xf32>) weight(%g : memref<?xf32>) outs(%y : memref<?x?xf32>) {epsilon = 1.0e-06 : f64}
  return
}
