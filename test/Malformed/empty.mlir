// An empty input (nothing but comments) is a valid, empty module for every
// pass and pipeline.
// RUN: norm-opt %s | FileCheck %s
// RUN: norm-opt %s --canonicalize | FileCheck %s
// RUN: norm-opt %s --norm-decompose | FileCheck %s
// RUN: norm-opt %s --norm-lower-to-cpu | FileCheck %s
// RUN: norm-opt %s -split-input-file --norm-decompose | FileCheck %s
// RUN: printf '' | norm-opt - --norm-lower-to-cpu | FileCheck %s

// CHECK: module {
// CHECK-NEXT: }
