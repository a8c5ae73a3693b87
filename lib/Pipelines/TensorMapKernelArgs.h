//===- TensorMapKernelArgs.h - TMA descriptors as kernel pointers -*- C++ -*-===//
//
// Private to NormPipelines: the norm-lower-to-nvvm step that passes TMA
// descriptors to outlined kernels as !llvm.ptr (TensorMapKernelArgs.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef NORM_LIB_PIPELINES_TENSORMAPKERNELARGS_H
#define NORM_LIB_PIPELINES_TENSORMAPKERNELARGS_H

#include <memory>

namespace mlir {
class Pass;
namespace norm {

/// Rewrites every gpu.func argument of !nvgpu.tensormap.descriptor type to
/// !llvm.ptr (cast back to the descriptor type at the kernel's entry) and
/// casts the matching gpu.launch_func operands to !llvm.ptr.
std::unique_ptr<Pass> createTensorMapKernelArgsPass();

} // namespace norm
} // namespace mlir

#endif // NORM_LIB_PIPELINES_TENSORMAPKERNELARGS_H
