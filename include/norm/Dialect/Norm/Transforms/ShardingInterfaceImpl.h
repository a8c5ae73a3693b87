//===- ShardingInterfaceImpl.h - norm ops under shard -----------*- C++ -*-===//
//
// Registration of the shard::ShardingInterface models of the norm ops, which
// let sharding-propagation and shard-partition split them (DESIGN.md §10).
//
//===----------------------------------------------------------------------===//

#ifndef NORM_DIALECT_NORM_TRANSFORMS_SHARDINGINTERFACEIMPL_H
#define NORM_DIALECT_NORM_TRANSFORMS_SHARDINGINTERFACEIMPL_H

namespace mlir {
class DialectRegistry;
namespace norm {

/// Attaches shard::ShardingInterface to norm.rms_norm, norm.layer_norm and
/// the four fused norm/matmul ops.
void registerShardingInterfaceExternalModels(DialectRegistry &registry);

} // namespace norm
} // namespace mlir

#endif // NORM_DIALECT_NORM_TRANSFORMS_SHARDINGINTERFACEIMPL_H
