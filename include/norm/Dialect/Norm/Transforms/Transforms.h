//===- Transforms.h - norm dialect rewrite entry points ---------*- C++ -*-===//
//
// Pattern populators and external-model registration for the norm dialect,
// for use by passes and by downstream compilers.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_DIALECT_NORM_TRANSFORMS_TRANSFORMS_H
#define NORM_DIALECT_NORM_TRANSFORMS_TRANSFORMS_H

namespace mlir {
class DialectRegistry;
class RewritePatternSet;

namespace norm {

/// Patterns that decompose every norm op into linalg (through
/// AggregatedOpInterface::decomposeOperation).
void populateNormDecompositionPatterns(RewritePatternSet &patterns);

/// Registers the BufferizableOpInterface models of the norm ops, so that
/// one-shot bufferization turns their tensor form into their memref form.
void registerBufferizableOpInterfaceExternalModels(DialectRegistry &registry);

} // namespace norm
} // namespace mlir

#endif // NORM_DIALECT_NORM_TRANSFORMS_TRANSFORMS_H
