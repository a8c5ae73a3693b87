// Upstream MLIR 22 crash, not the project's: `array<index: ...>` (index is
// not an integer or float type of fixed width) segfaults the parser, also in
// Debian's own mlir-opt-22:
//   #4 mlir::FloatType::getWidth()
//   #5 mlir::Type::getIntOrFloatBitWidth() const
//   #6 mlir::detail::Parser::parseDenseArrayAttr(mlir::Type)
func.func @f() attributes {a = array<index: 1, 2>} {
  return
}
