"""Runs every input of a fuzz corpus through norm-opt with the pipelines
norm-fuzz runs (read from tools/norm-fuzz/FuzzPipelines.inc), and fails if
any run crashes (a signal, or an exit code other than 0 or 1). Prints one
line per input.

Usage: replay.py NORM_OPT CORPUS_DIR FUZZ_PIPELINES_INC"""

import pathlib
import re
import subprocess
import sys


def read_pipelines(path):
    """The string literals of tools/norm-fuzz/FuzzPipelines.inc, one a line:
    the pipelines norm-fuzz itself runs."""
    lines = pathlib.Path(path).read_text().splitlines()
    return [m.group(1) for m in map(re.compile(r'^"(.*)",$').match, lines) if m]


def main():
    norm_opt, corpus = sys.argv[1], pathlib.Path(sys.argv[2])
    pipelines = read_pipelines(sys.argv[3])
    if not pipelines:
        print(f"no pipelines in {sys.argv[3]}")
        return 1
    crashed = 0
    for path in sorted(corpus.glob("*.mlir")):
        codes = []
        for pipeline in pipelines:
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
