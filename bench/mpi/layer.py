#!/usr/bin/env python3
"""Helpers of bench/mpi/run.sh (issue 31 item 4). Python 3 standard library.

  layer.py bytes PARTITIONED LOWERED FUNC [--procs P]
      bytes one process communicates per call of FUNC: the collectives of
      the partitioned module (norm-opt --norm-partition-shards) at the
      ideal algorithm's bytes, and the mpi calls of the lowered one
      (--norm-lower-shard-to-mpi) as they run. Prints one line of
      key=value pairs.
  layer.py merge LOWERED DRIVER
      the lowered layer's module with the driver's functions appended (the
      driver calls the layer with each process's shapes, which only the
      partitioned signature has); adds the MPICH DLTI entry the mpi → LLVM
      lowering needs when the module has none (the unsharded layer).
  layer.py median
      the median of the numbers on stdin, one a line (the times that
      process 0 printed), and the line count; ignores the last line (the
      checksum the driver prints after the times).
"""

import re
import statistics
import sys

ELEM_BYTES = {"f32": 4, "f64": 8, "bf16": 2, "f16": 2, "i8": 1, "i16": 2,
              "i32": 4, "i64": 8}
DLTI = '#dlti.map<"MPI:Implementation" = "MPICH">'


def function_body(text, func):
    """The lines of func.func @func in a printed module."""
    lines, inside = [], False
    for line in text.splitlines():
        if re.match(r"\s*func\.func (?:private )?@%s\(" % re.escape(func),
                    line):
            inside = True
        elif inside and re.match(r"\s*func\.func ", line):
            break
        if inside:
            lines.append(line)
    if not lines:
        sys.exit("layer.py: no function @%s" % func)
    return lines


def type_bytes(shaped):
    """Bytes of a static tensor<AxBxT> or memref<AxBxT>."""
    m = re.match(r"(?:tensor|memref)<((?:\d+x)*)(\w+)", shaped)
    dims = [int(d) for d in m.group(1).split("x") if d]
    n = 1
    for d in dims:
        n *= d
    return n * ELEM_BYTES[m.group(2)]


def partitioned_bytes(lines, procs):
    """Ideal bytes sent per process: ring all-reduce 2(P−1)/P of the
    buffer, all-gather and reduce-scatter (an all-reduce whose only use is
    an all_slice) (P−1)/P of the whole tensor."""
    text = "\n".join(lines)
    counts = {"all_reduce": 0, "reduce_scatter": 0, "all_gather": 0}
    sent = 0.0
    for m in re.finditer(r"(%[\w.]+) = shard\.all_reduce \S+ .*?: (\S+) ->",
                         text):
        name, size = m.group(1), type_bytes(m.group(2))
        uses = re.findall(re.escape(name) + r"\b", text)
        sliced = re.search(r"shard\.all_slice " + re.escape(name) + r"\b",
                           text)
        if sliced and len(uses) == 2:
            counts["reduce_scatter"] += 1
            sent += size * (procs - 1) / procs
        else:
            counts["all_reduce"] += 1
            sent += 2 * size * (procs - 1) / procs
    for m in re.finditer(r"shard\.all_gather .*?-> (\S+)", text):
        counts["all_gather"] += 1
        sent += type_bytes(m.group(1)) * (procs - 1) / procs
    others = re.findall(r"shard\.(all_to_all|broadcast|gather|scatter|send|"
                        r"recv|shift|reduce)\b", text)
    if others:
        sys.exit("layer.py: collectives not counted: %s" % sorted(set(others)))
    return counts, sent


def lowered_bytes(lines, procs):
    """mpi calls as they run: MPI_Allreduce payload (the buffer; a process
    sends 2(P−1)/P of it with a ring, all of it with recursive doubling:
    the same for P = 2), send and recv buffers. The lowering's rings
    (RingCollectives.cpp) write each step's send twice, once in each
    branch of the even/odd order, inside a loop of P − 1 steps: a written
    send runs (P − 1) / 2 times."""
    calls = {"allreduce": 0, "send": 0, "recv": 0}
    payload = {"allreduce": 0, "send": 0, "recv": 0}
    for line in lines:
        m = re.search(r"\bmpi\.(allreduce|send|recv)\(.*\) : (memref<[^>]*>)",
                      line)
        if m:
            calls[m.group(1)] += 1
            payload[m.group(1)] += type_bytes(m.group(2))
    sent = (2 * payload["allreduce"] * (procs - 1) / procs
            + payload["send"] * (procs - 1) / 2)
    return calls, payload, sent


def cmd_bytes(args):
    procs = 2
    if "--procs" in args:
        i = args.index("--procs")
        procs = int(args[i + 1])
        del args[i:i + 2]
    part, lowered, func = args
    counts, ideal = partitioned_bytes(
        function_body(open(part).read(), func), procs)
    calls, payload, sent = lowered_bytes(
        function_body(open(lowered).read(), func), procs)
    print(" ".join([
        "all_reduce=%d reduce_scatter=%d all_gather=%d" %
        (counts["all_reduce"], counts["reduce_scatter"], counts["all_gather"]),
        "ideal_sent=%d" % ideal,
        "mpi_allreduce=%d mpi_send=%d mpi_recv=%d" %
        (calls["allreduce"], calls["send"], calls["recv"]),
        "allreduce_payload=%d" % payload["allreduce"],
        "lowered_sent=%d" % sent]))


def cmd_merge(args):
    lowered, drv = args
    text = open(lowered).read().rstrip()
    if not text.endswith("}"):
        sys.exit("layer.py: %s is not a printed module" % lowered)
    text = re.sub(r"^module \{$", "module attributes {mpi.dlti = %s} {" % DLTI,
                  text[:-1], count=1, flags=re.M)
    sys.stdout.write(text + open(drv).read() + "}\n")


def cmd_median(_):
    values = [float(v) for v in sys.stdin.read().split()][:-1]
    if not values:
        sys.exit("layer.py: no times")
    print("%.6f %d" % (statistics.median(values), len(values)))


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in ("bytes", "merge", "median"):
        sys.exit(__doc__)
    {"bytes": cmd_bytes, "merge": cmd_merge,
     "median": cmd_median}[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    main()
