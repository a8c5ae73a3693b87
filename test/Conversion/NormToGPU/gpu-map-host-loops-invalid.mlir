// RUN: norm-opt %s --verify-diagnostics --norm-gpu-map-host-loops="block-size=2048"

// expected-error @+1 {{norm-gpu-map-host-loops: block-size must be in [1, 1024], got 2048}}
module {
}
