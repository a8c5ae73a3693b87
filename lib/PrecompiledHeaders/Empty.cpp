//===- Empty.cpp - the source that builds the shared precompiled header ---===//
//
// CMake builds a target's precompiled header beside one of its sources; the
// project libraries reuse this target's (cmake/modules/AddNorm.cmake).
//
//===----------------------------------------------------------------------===//
