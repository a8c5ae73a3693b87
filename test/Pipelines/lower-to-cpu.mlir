// RUN: norm-opt %s --norm-lower-to-cpu | FileCheck %s
// An unknown pipeline option is a diagnostic, not a crash.
// RUN: not norm-opt %s --norm-lower-to-cpu="vector-width=512" 2>&1 | FileCheck %s --check-prefix=BADOPT

// The whole module, norm ops and upstream tensor IR together, ends in the
// LLVM dialect: nothing of norm, linalg, tensor, memref or scf is left.
// CHECK-LABEL: llvm.func @block
// CHECK-NOT: norm.
// CHECK-NOT: linalg.
// CHECK-NOT: tensor.
// CHECK-NOT: scf.
// CHECK: llvm.return
// CHECK: llvm.func @_mlir_ciface_block

// BADOPT: no such option vector-width

func.func @block(%x: tensor<?x64xbf16>, %r: tensor<?x64xbf16>, %g: tensor<64xbf16>, %w: tensor<64x32xbf16>)
    -> (tensor<?x32xbf16>, tensor<?x64xbf16>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x64xbf16>
  %e = tensor.empty(%n) : tensor<?x64xbf16>
  %es = tensor.empty(%n) : tensor<?x64xbf16>
  %y, %h = norm.rms_norm ins(%x : tensor<?x64xbf16>) residual(%r : tensor<?x64xbf16>) weight(%g : tensor<64xbf16>)
      outs(%e : tensor<?x64xbf16>) sum_outs(%es : tensor<?x64xbf16>) -> tensor<?x64xbf16>, tensor<?x64xbf16>
  %zero = arith.constant 0.0 : bf16
  %eo = tensor.empty(%n) : tensor<?x32xbf16>
  %acc = linalg.fill ins(%zero : bf16) outs(%eo : tensor<?x32xbf16>) -> tensor<?x32xbf16>
  %o = linalg.matmul ins(%y, %w : tensor<?x64xbf16>, tensor<64x32xbf16>) outs(%acc : tensor<?x32xbf16>) -> tensor<?x32xbf16>
  return %o, %h : tensor<?x32xbf16>, tensor<?x64xbf16>
}
