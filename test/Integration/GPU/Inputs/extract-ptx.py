#!/usr/bin/env python3
"""Writes the PTX of every gpu.binary object in an MLIR file (as printed by
gpu-module-to-binary{format=isa}) to OUT_DIR/<module>.ptx, so that lit tests
can assemble it with ptxas.

Usage: extract-ptx.py INPUT.mlir OUT_DIR [--ptxas PTXAS --arch sm_NN]

With --ptxas, also assembles each file with `PTXAS -arch sm_NN -v` (in name
order), printing ptxas's report (registers, spills, stack) for FileCheck,
and fails if any file does not assemble."""
import os
import re
import subprocess
import sys


def unescape(text):
    # MLIR prints non-printable bytes as \XX (hex) and quotes/backslashes
    # as \" and \\.
    return re.sub(r'\\([0-9A-Fa-f]{2}|\\|")',
                  lambda m: m.group(1) if m.group(1) in ('\\', '"')
                  else chr(int(m.group(1), 16)), text)


def assemble(paths, ptxas, arch):
    failed = False
    for path in sorted(paths):
        result = subprocess.run(
            [ptxas, "-arch", arch, "-v", path, "-o", path + ".cubin"],
            capture_output=True, text=True)
        print("== " + os.path.basename(path))
        sys.stdout.write(result.stdout + result.stderr)
        failed = failed or result.returncode != 0
    if failed:
        sys.exit("extract-ptx.py: ptxas failed")


def main():
    source, out_dir = sys.argv[1], sys.argv[2]
    options = dict(zip(sys.argv[3::2], sys.argv[4::2]))
    os.makedirs(out_dir, exist_ok=True)
    text = open(source).read()
    count = 0
    paths = []
    for binary in re.finditer(r'gpu\.binary @(\w+)(.*?)\]\s*$', text,
                              re.M | re.S):
        for index, asm in enumerate(re.finditer(
                r'assembly = "((?:[^"\\]|\\.)*)"', binary.group(2))):
            name = binary.group(1) + ("" if index == 0 else "_%d" % index)
            path = os.path.join(out_dir, name + ".ptx")
            with open(path, "w") as f:
                f.write(unescape(asm.group(1)))
            paths.append(path)
            count += 1
    if count == 0:
        sys.exit("extract-ptx.py: no gpu.binary with PTX in " + source)
    print("extracted %d PTX modules" % count)
    if "--ptxas" in options:
        assemble(paths, options["--ptxas"], options.get("--arch", "sm_90"))


if __name__ == "__main__":
    main()
