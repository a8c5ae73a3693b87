"""Prints the FileCheck lines of streaming-threshold-host.mlir for this host.

The default streaming threshold (streaming-threshold=0) is the size of the
last cache level sysfs lists for CPU 0 (the last index0..7/size that
parses); the kernel compares the output's bytes with it. Where glibc's
sysconf reports another L3 size (virtual machines can report the whole
package's), that number must not appear: it was the threshold while sysfs
was misread (issue 32).
"""

import re
import subprocess

last = 0
for index in range(8):
    path = "/sys/devices/system/cpu/cpu0/cache/index%d/size" % index
    try:
        with open(path) as f:
            text = f.read().strip()
    except OSError:
        break
    match = re.fullmatch(r"(\d+)([KM]?)", text)
    if match and int(match.group(1)) > 0:
        last = int(match.group(1)) * {"": 1, "K": 1 << 10, "M": 1 << 20}[
            match.group(2)]
if last == 0:
    raise SystemExit("host-cache-checks.py: no cache size in sysfs")

# Python's os.sysconf has no cache names; getconf asks glibc's sysconf.
try:
    sysconf_l3 = int(subprocess.run(["getconf", "LEVEL3_CACHE_SIZE"],
                                    capture_output=True, text=True,
                                    check=True).stdout.strip() or 0)
except (OSError, ValueError, subprocess.CalledProcessError):
    sysconf_l3 = 0
other = sysconf_l3 if sysconf_l3 > 0 and sysconf_l3 != last else None

print("CHECK-LABEL: func.func @rms")
if other:
    print("CHECK-NOT: %d" % other)
print("CHECK: %[[BYTES:.*]] = arith.muli %{{.*}}, %c4{{[_0-9]*}} : index")
print("CHECK: arith.cmpi uge, %%[[BYTES]], %%c%d{{(_[0-9]+)?}} : index" % last)
if other:
    print("CHECK-NOT: %d" % other)
print("CHECK: nontemporal = true")
