#!/usr/bin/env python3
"""Writes a module of N copies of one function of an MLIR file, renamed
ENTRY_0 ... ENTRY_{N-1}: a whole-model export in which every layer is the
same function body. Everything outside the function (attribute aliases,
resource blobs) is kept once.

  replicate.py FILE.mlir ENTRY N > OUT.mlir
"""

import re
import sys


def main(argv):
    path, entry, copies = argv[1], argv[2], int(argv[3])
    text = open(path).read()
    start = re.search(r"^func\.func @%s\(" % re.escape(entry), text, re.M)
    if not start:
        sys.exit("replicate.py: no top-level func.func @%s in %s" % (entry, path))
    # The function ends at the first "}" alone on a line after its start
    # (the examples' functions are written at column 0).
    end = re.compile(r"^}\n", re.M).search(text, start.start())
    if not end:
        sys.exit("replicate.py: cannot find the end of @%s" % entry)
    func = text[start.start():end.end()]
    copies_text = "\n".join(
        func.replace("@%s(" % entry, "@%s_%d(" % (entry, i), 1)
        for i in range(copies))
    sys.stdout.write(text[:start.start()] + copies_text + text[end.end():])


if __name__ == "__main__":
    main(sys.argv)
