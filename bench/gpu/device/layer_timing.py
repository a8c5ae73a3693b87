#!/usr/bin/env python3
"""Turns a test driver of examples/gen_examples.py (fill the inputs, call
the layer once, print its result) into a timing driver: one untimed call,
then REPEAT calls each timed on the host clock (the layer's host code
synchronizes its stream before it returns), printed as `layer_ms=`.

Usage: gen_examples.py driver llama --size large | layer_timing.py [REPEAT]
"""
import re
import sys


def main():
    repeat = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    lines = sys.stdin.read().split("\n")
    call = next(i for i, l in enumerate(lines)
                if re.match(r"\s*%out = func\.call @", l))
    end = next(i for i in range(call, len(lines))
               if lines[i].strip() == "return")
    call_text = lines[call].strip()[len("%out = "):]
    body = ["  %warm = " + call_text]
    for i in range(repeat):
        body += ["  %%t%d = func.call @rtclock() : () -> f64" % i,
                 "  %%o%d = %s" % (i, call_text),
                 "  %%u%d = func.call @rtclock() : () -> f64" % i,
                 "  %%d%d = arith.subf %%u%d, %%t%d : f64" % (i, i, i),
                 "  func.call @norm_aot_print_ms(%%d%d) : (f64) -> ()" % i]
    decls = ["func.func private @rtclock() -> f64",
             "func.func private @norm_aot_print_ms(f64)"]
    out = lines[:call] + body + lines[end:]
    print("\n".join(decls + out))


if __name__ == "__main__":
    main()
