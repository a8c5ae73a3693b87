// RUN: norm-opt %s --norm-check-rope-sizes -split-input-file -verify-diagnostics
// Without -verify-diagnostics: the exit status is non-zero and the error
// names the op's location, the symbol and what it is.
// RUN: not norm-opt %s --norm-check-rope-sizes -split-input-file 2>&1 >/dev/null | FileCheck %s

// The run-time check calls the C functions `dprintf` and `abort`, declared
// as `llvm.func`s. A module symbol of either name that is not an `llvm.func`
// of that C type can neither be called as it nor be declared beside: an
// error at the op whose check needs it, never a crash or an unlocated
// redefinition.

// CHECK: check-rope-sizes-invalid.mlir:[[@LINE+6]]:3: error: the rope size check calls '@abort' as the C function '!llvm.func<void ()>', but the module's symbol '@abort' is a 'func.func'
// expected-note @+1 {{symbol '@abort' here}}
func.func private @abort()

func.func @user_abort(%x: memref<?x4x64xf32>, %c: memref<?x1x64xf32>, %s: memref<?x1x64xf32>, %y: memref<?x4x64xf32>) {
  // expected-error @+1 {{the rope size check calls '@abort' as the C function '!llvm.func<void ()>', but the module's symbol '@abort' is a 'func.func'}}
  norm.rms_norm ins(%x : memref<?x4x64xf32>) rope(%c, %s : memref<?x1x64xf32>, memref<?x1x64xf32>) outs(%y : memref<?x4x64xf32>)
  return
}

// -----

// CHECK: error: the rope size check calls '@dprintf' as the C function '!llvm.func<i32 (i32, ptr, ...)>', but the module's symbol '@dprintf' is a 'func.func'
// expected-note @+1 {{symbol '@dprintf' here}}
func.func @dprintf(%fd: i32, %format: !llvm.ptr) -> i32 {
  return %fd : i32
}

func.func @user_dprintf(%x: tensor<?x4x64xf32>, %c: tensor<?x1x64xf32>, %s: tensor<?x1x64xf32>, %y: tensor<?x4x64xf32>) -> tensor<?x4x64xf32> {
  // expected-error @+1 {{the rope size check calls '@dprintf' as the C function '!llvm.func<i32 (i32, ptr, ...)>', but the module's symbol '@dprintf' is a 'func.func'}}
  %r = norm.layer_norm ins(%x : tensor<?x4x64xf32>) rope(%c, %s : tensor<?x1x64xf32>, tensor<?x1x64xf32>) outs(%y : tensor<?x4x64xf32>) -> tensor<?x4x64xf32>
  return %r : tensor<?x4x64xf32>
}

// -----

// An `llvm.func` of the name but another type (here `abort(int)`).
// CHECK: error: the rope size check calls '@abort' as the C function '!llvm.func<void ()>', but the module's symbol '@abort' is an 'llvm.func' of type '!llvm.func<void (i32)>'
// expected-note @+1 {{symbol '@abort' here}}
llvm.func @abort(i32)

func.func @wrong_abort_type(%x: memref<?x4x64xf32>, %c: memref<?x1x64xf32>, %s: memref<?x1x64xf32>, %y: memref<?x4x64xf32>) {
  // expected-error @+1 {{the module's symbol '@abort' is an 'llvm.func' of type '!llvm.func<void (i32)>'}}
  norm.rms_norm ins(%x : memref<?x4x64xf32>) rope(%c, %s : memref<?x1x64xf32>, memref<?x1x64xf32>) outs(%y : memref<?x4x64xf32>)
  return
}

// -----

// A `dprintf` that is not variadic is another type.
// CHECK: error: {{.*}}'@dprintf' is an 'llvm.func' of type '!llvm.func<i32 (i32, ptr)>'
// expected-note @+1 {{symbol '@dprintf' here}}
llvm.func @dprintf(i32, !llvm.ptr) -> i32

func.func @dprintf_not_variadic(%x: memref<?x4x64xf32>, %c: memref<?x1x64xf32>, %s: memref<?x1x64xf32>, %y: memref<?x4x64xf32>) {
  // expected-error @+1 {{the module's symbol '@dprintf' is an 'llvm.func' of type '!llvm.func<i32 (i32, ptr)>'}}
  norm.rms_norm ins(%x : memref<?x4x64xf32>) rope(%c, %s : memref<?x1x64xf32>, memref<?x1x64xf32>) outs(%y : memref<?x4x64xf32>)
  return
}

// -----

// Not a function at all.
// CHECK: error: {{.*}}'@abort' is a 'llvm.mlir.global'
// expected-note @+1 {{symbol '@abort' here}}
llvm.mlir.global internal constant @abort(0 : i32) : i32

func.func @global_abort(%x: memref<?x4x64xf32>, %c: memref<?x1x64xf32>, %s: memref<?x1x64xf32>, %y: memref<?x4x64xf32>) {
  // expected-error @+1 {{the module's symbol '@abort' is a 'llvm.mlir.global'}}
  norm.rms_norm ins(%x : memref<?x4x64xf32>) rope(%c, %s : memref<?x1x64xf32>, memref<?x1x64xf32>) outs(%y : memref<?x4x64xf32>)
  return
}

// -----

// Static sizes need no check, so no functions: a user's `abort` is no error.
func.func private @abort()

func.func @static_sizes(%x: memref<7x4x64xf32>, %c: memref<7x1x64xf32>, %s: memref<7x1x64xf32>, %y: memref<7x4x64xf32>) {
  norm.rms_norm ins(%x : memref<7x4x64xf32>) rope(%c, %s : memref<7x1x64xf32>, memref<7x1x64xf32>) outs(%y : memref<7x4x64xf32>)
  return
}
