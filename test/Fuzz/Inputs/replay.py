"""Runs every input of a fuzz corpus through norm-opt with the pipelines
norm-fuzz runs, and fails if any run crashes (a signal, or an exit code other
than 0 or 1). Prints one line per input."""

import pathlib
import subprocess
import sys

PIPELINES = [
    "builtin.module(norm-raise)",
    "builtin.module(norm-fuse-matmul)",
    "builtin.module(norm-decompose)",
    "builtin.module(canonicalize)",
    "builtin.module(norm-raise,norm-fuse-matmul,norm-lower-to-cpu)",
    "builtin.module(norm-lower-to-cpu{codegen=upstream})",
    "builtin.module(norm-lower-to-nvvm{format=isa})",
]


def main():
    norm_opt, corpus = sys.argv[1], pathlib.Path(sys.argv[2])
    crashed = 0
    for path in sorted(corpus.glob("*.mlir")):
        codes = []
        for pipeline in PIPELINES:
            run = subprocess.run([norm_opt, str(path), "--pass-pipeline=" + pipeline],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            codes.append(run.returncode)
        bad = [c for c in codes if c not in (0, 1)]
        crashed += bool(bad)
        print(f"{path.name}: {'CRASH ' + str(bad) if bad else 'ok'}")
    print(f"replayed, {crashed} crashed")
    return 1 if crashed else 0


if __name__ == "__main__":
    sys.exit(main())
