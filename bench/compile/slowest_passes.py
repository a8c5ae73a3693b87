#!/usr/bin/env python3
"""Prints the N passes with the most wall-clock time in an -mlir-timing
-mlir-timing-display=list report (its "Wall Time" column when it has a
"User Time" column too), leaving out the root, the total and the pass
pipelines' own entries.

  slowest_passes.py TIMING.txt N
"""

import re
import sys

ENTRY = re.compile(r"^\s+((?:[0-9.]+ \(\s*[0-9.]+%\)\s+)+)(\S.*)$")
TIME = re.compile(r"([0-9.]+) \(\s*([0-9.]+)%\)")


def main(argv):
    path, count = argv[1], int(argv[2])
    rows = []
    for line in open(path):
        m = ENTRY.match(line)
        if not m:
            continue
        name = m.group(2).strip()
        if name in ("root", "Total") or "Pipeline" in name:
            continue
        seconds, percent = TIME.findall(m.group(1))[-1]  # wall clock
        rows.append((float(seconds), float(percent), name))
    for seconds, percent, name in sorted(rows, reverse=True)[:count]:
        print("%8.3f s %5.1f%%  %s" % (seconds, percent, name))


if __name__ == "__main__":
    main(sys.argv)
