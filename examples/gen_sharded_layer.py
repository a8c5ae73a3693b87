#!/usr/bin/env python3
"""Generates the Llama-like layer with shard annotations for 2 processes
(issue 31; DESIGN.md §10) in the form MLIR 22 partitions: heads a real
dimension of Wq/Wk/Wv/Wo ([heads, head_dim, hidden]), the contractions and
softmax as linalg.generic, the causal mask an input, no RoPE.

Layers (MODE):
  tp    Megatron tensor parallelism: q/k/v and gate/up column-parallel, o
        and down row-parallel (partition all-reduces their products), the
        norms replicated (the second fused with gate and up).
  sp    tensor + sequence parallelism (Megatron-SP): the residual stream is
        split by rows, the norms run on the local rows, their results are
        all-gathered before q/k/v and gate/up, and the o/down products are
        all-reduced and sliced (reduce-scatter) back to rows.
  none  the same layer without annotations (the one-process reference).

Drivers (FORM):
  check every argument comes in whole; @main runs the MODE layer and the
        unannotated one on every process and prints [1] when they agree
        within 1e-6 (small) or 1e-5 (large; relative, DESIGN.md §4 f32),
        [0] otherwise.
  bench the layer alone, its arguments annotated as each process's
        shards (weights split, the sp residual stream by rows), so that
        the partitioned signature has the local shapes.
  driver the @main of a bench layer, with the local shapes (append it to
        the partitioned module: bench/mpi/layer.py merge): calls the layer
        REPS times; process 0 prints each call's time in seconds (rtclock
        around the call, after MPI_Init), one a line, then a checksum.

  gen_sharded_layer.py [--out-dir DIR]     write examples/llama-layer-sp.mlir
  gen_sharded_layer.py emit MODE FORM [--size small|large] [--reps N]

Python 3 standard library only; edit this script, not the file it writes.
"""

import argparse
import math
import os
import sys

SIZES = {
    "small": dict(seq=8, hidden=64, heads=4, head_dim=16, ffn=128),
    "large": dict(seq=128, hidden=1024, heads=16, head_dim=64, ffn=2816),
}
P = 2  # processes: the grid @tp
# The check's bound on max |sharded − whole| / max |whole|: DESIGN.md §4's
# f32 norms at the small size; its fused norm + matmul bound at the large
# one, whose K = 1024 and 2816 sums run in another order on 2 processes
# (3e-6 measured).
TOLERANCE = {"small": "1.0e-6", "large": "1.0e-5"}


def ty(shape):
    return "tensor<%sxf32>" % "x".join(str(d) for d in shape)


class Layer:
    """Writes one layer function; `mode` picks the annotations."""

    def __init__(self, name, mode, form, s):
        self.name, self.mode, self.form, self.s = name, mode, form, s
        self.lines = []
        self.n = 0

    def emit(self, line):
        self.lines.append("  " + line)

    def tmp(self, base):
        self.n += 1
        return "%%%s%d" % (base, self.n)

    def empty(self, shape, fill=None):
        e = self.tmp("e")
        self.emit("%s = tensor.empty() : %s" % (e, ty(shape)))
        if fill is None:
            return e
        f = self.tmp("f")
        self.emit("%s = linalg.fill ins(%s : f32) outs(%s : %s) -> %s"
                  % (f, fill, e, ty(shape), ty(shape)))
        return f

    def generic(self, res, dims, ins, out_map, out_shape, iters, body,
                fill=None):
        """res = generic over `dims` with ins [(value, map, shape)]; body
        lines use %a, %b (the inputs) and %o (the output), yield %y."""
        out = self.empty(out_shape, fill)
        d = ", ".join(dims)
        maps = ", ".join("affine_map<(%s) -> (%s)>" % (d, m)
                         for _, m, _ in ins)
        maps += ", affine_map<(%s) -> (%s)>" % (d, out_map)
        its = ", ".join('"%s"' % i for i in iters)
        args = ", ".join(v for v, _, _ in ins)
        tys = ", ".join(ty(sh) for _, _, sh in ins)
        names = ["%a", "%b"][:len(ins)]
        self.emit("%s = linalg.generic {indexing_maps = [%s], "
                  "iterator_types = [%s]}" % (res, maps, its))
        self.emit("    ins(%s : %s) outs(%s : %s) {" % (args, tys, out,
                                                        ty(out_shape)))
        self.emit("^bb0(%s%%o: f32):" % "".join(n + ": f32, " for n in names))
        for line in body:
            self.emit("  " + line)
        self.emit("  linalg.yield %y : f32")
        self.emit("} -> %s" % ty(out_shape))

    def contract(self, res, dims, a, b, out_map, out_shape, iters):
        self.generic(res, dims, [a, b], out_map, out_shape, iters,
                     ["%m = arith.mulf %a, %b : f32",
                      "%y = arith.addf %o, %m : f32"], fill="%zero")

    def add(self, res, a, b, shape):
        self.generic(res, ["i", "j"], [(a, "i, j", shape), (b, "i, j", shape)],
                     "i, j", shape, ["parallel", "parallel"],
                     ["%y = arith.addf %a, %b : f32"])

    def shard(self, res, value, sharding, shape, for_users=False):
        if self.mode == "none":
            self.alias[res] = value
            return
        self.emit("%s = shard.shard %s to %s%s : %s"
                  % (res, value, sharding,
                     " annotate_for_users" if for_users else "", ty(shape)))

    def v(self, name):
        """The value a name stands for (annotations vanish in mode none)."""
        while name in self.alias:
            name = self.alias[name]
        return name

    def text(self):
        s = self.s
        T, H, NH, D, F = s["seq"], s["hidden"], s["heads"], s["head_dim"], \
            s["ffn"]
        sp = self.mode == "sp"
        self.alias = {}
        # How each argument is split for its users: weights along dim 0
        # (heads, ffn rows), x by rows under sp, the rest replicated.
        args = [("x", [T, H], "%d0" if sp else "%r"), ("g1", [H], "%r"),
                ("wq", [NH, D, H], "%d0"), ("wk", [NH, D, H], "%d0"),
                ("wv", [NH, D, H], "%d0"), ("wo", [NH, D, H], "%d0"),
                ("mask", [T, T], "%r"), ("g2", [H], "%r"),
                ("wg", [F, H], "%d0"), ("wu", [F, H], "%d0"),
                ("wd", [F, H], "%d0")]

        out_shape = [T, H]  # global: partition gives the local shapes
        sig = ", ".join("%%%s: %s" % (n, ty(sh)) for n, sh, _ in args)
        head = ["func.func @%s(%s) -> %s {" % (self.name, sig, ty(out_shape))]
        if self.mode != "none":
            self.emit("%r = shard.sharding @tp split_axes = [[]] "
                      ": !shard.sharding")
            self.emit("%d0 = shard.sharding @tp split_axes = [[0]] "
                      ": !shard.sharding")
        for n, sh, sd in args:
            # check: whole on every process, split for the users (a local
            # slice); bench: the argument is the process's shard.
            arrive = sd if self.form == "bench" else "%r"
            self.shard("%%%s_in" % n, "%" + n, arrive, sh)
            self.shard("%%%s_" % n, "%%%s_in" % n, sd, sh, for_users=True)
        v = self.v
        self.emit("%zero = arith.constant 0.0 : f32")
        self.emit("%ninf = arith.constant -3.0e38 : f32")
        rows = "%d0" if sp else "%r"
        self.emit("// Attention: RMSNorm on %s." %
                  ("the local rows, then all-gathered" if sp else
                   "every process's whole rows (replicated)"))
        e = self.empty([T, H])
        self.emit("%%n1 = norm.rms_norm ins(%s : %s) weight(%s : %s) "
                  "outs(%s : %s) -> %s"
                  % (v("%x_"), ty([T, H]), v("%g1_"), ty([H]), e, ty([T, H]),
                     ty([T, H])))
        self.shard("%n1_s", "%n1", rows, [T, H])
        self.shard("%n1_", "%n1_s", "%r", [T, H], for_users=True)
        hd = ["h", "t", "d", "k"]
        for w in ("q", "k", "v"):
            self.contract("%%%s" % w, hd,
                          (v("%n1_"), "t, k", [T, H]),
                          (v("%%w%s_" % w), "h, d, k", [NH, D, H]),
                          "h, t, d", [NH, T, D],
                          ["parallel"] * 3 + ["reduction"])
        self.emit("// Scores (h, t, s) = q·k / sqrt(D) + mask, softmax "
                  "over s.")
        self.contract("%qk", ["h", "t", "s", "d"], ("%q", "h, t, d", [NH, T, D]),
                      ("%k", "h, s, d", [NH, T, D]), "h, t, s", [NH, T, T],
                      ["parallel"] * 3 + ["reduction"])
        hts = ["h", "t", "s"]
        par3 = ["parallel"] * 3
        red3 = ["parallel", "parallel", "reduction"]
        self.generic("%sc", hts, [("%qk", "h, t, s", [NH, T, T]),
                                  (v("%mask_"), "t, s", [T, T])],
                     "h, t, s", [NH, T, T], par3,
                     ["%%c = arith.constant %.9e : f32" % (1 / math.sqrt(D)),
                      "%m = arith.mulf %a, %c : f32",
                      "%y = arith.addf %m, %b : f32"])
        self.generic("%mx", hts, [("%sc", "h, t, s", [NH, T, T])], "h, t",
                     [NH, T], red3, ["%y = arith.maximumf %a, %o : f32"],
                     fill="%ninf")
        self.generic("%ex", hts, [("%sc", "h, t, s", [NH, T, T]),
                                  ("%mx", "h, t", [NH, T])],
                     "h, t, s", [NH, T, T], par3,
                     ["%d = arith.subf %a, %b : f32",
                      "%y = math.exp %d : f32"])
        self.generic("%sm", hts, [("%ex", "h, t, s", [NH, T, T])], "h, t",
                     [NH, T], red3, ["%y = arith.addf %a, %o : f32"],
                     fill="%zero")
        self.generic("%pr", hts, [("%ex", "h, t, s", [NH, T, T]),
                                  ("%sm", "h, t", [NH, T])],
                     "h, t, s", [NH, T, T], par3,
                     ["%y = arith.divf %a, %b : f32"])
        self.contract("%pv", ["h", "t", "d", "s"],
                      ("%pr", "h, t, s", [NH, T, T]),
                      ("%v", "h, s, d", [NH, T, D]), "h, t, d", [NH, T, D],
                      ["parallel"] * 3 + ["reduction"])
        self.emit("// o: row-parallel (contracts the local heads), "
                  "all-reduced%s." % (", then sliced to the local rows"
                                      if sp else ""))
        self.contract("%attn", ["t", "n", "h", "d"],
                      ("%pv", "h, t, d", [NH, T, D]),
                      (v("%wo_"), "h, d, n", [NH, D, H]), "t, n", [T, H],
                      ["parallel", "parallel", "reduction", "reduction"])
        self.shard("%o_r", "%attn", "%r", [T, H])
        self.shard("%o_", "%o_r", rows, [T, H], for_users=True)
        self.add("%h1", v("%x_"), v("%o_"), [T, H])
        self.shard("%h1_s", "%h1", rows, [T, H])
        self.shard("%h1_", "%h1_s", rows, [T, H], for_users=True)
        if sp:
            self.emit("// MLP: RMSNorm on the local rows, all-gathered; "
                      "gate and up column-parallel.")
            e = self.empty([T, H])
            self.emit("%%n2 = norm.rms_norm ins(%s : %s) weight(%s : %s) "
                      "outs(%s : %s) -> %s"
                      % (v("%h1_"), ty([T, H]), v("%g2_"), ty([H]), e,
                         ty([T, H]), ty([T, H])))
            self.shard("%n2_s", "%n2", rows, [T, H])
            self.shard("%n2_", "%n2_s", "%r", [T, H], for_users=True)
            for w, name in (("wg", "gate"), ("wu", "up")):
                self.contract("%" + name, ["t", "f", "k"],
                              (v("%n2_"), "t, k", [T, H]),
                              (v("%%%s_" % w), "f, k", [F, H]), "t, f",
                              [T, F], ["parallel", "parallel", "reduction"])
        else:
            self.emit("// MLP: the norm fused with gate and up, "
                      "column-parallel.")
            for w, name in (("wg", "gate"), ("wu", "up")):
                e = self.empty([T, F])
                self.emit("%%%s = norm.rms_norm_matmul ins(%s : %s) "
                          "weight(%s : %s) rhs(%s : %s) outs(%s : %s) "
                          "{transpose_rhs} -> %s"
                          % (name, v("%h1_"), ty([T, H]), v("%g2_"), ty([H]),
                             v("%%%s_" % w), ty([F, H]), e, ty([T, F]),
                             ty([T, F])))
        self.generic("%act", ["i", "j"], [("%gate", "i, j", [T, F]),
                                          ("%up", "i, j", [T, F])],
                     "i, j", [T, F], ["parallel", "parallel"],
                     ["%n = arith.negf %a : f32", "%e = math.exp %n : f32",
                      "%one = arith.constant 1.0 : f32",
                      "%den = arith.addf %e, %one : f32",
                      "%s = arith.divf %a, %den : f32",
                      "%y = arith.mulf %s, %b : f32"])
        self.emit("// down: row-parallel, all-reduced%s."
                  % (", then sliced to the local rows" if sp else ""))
        f = self.empty([T, H], "%zero")
        self.emit("%%down = linalg.matmul ins(%%act, %s : %s, %s) "
                  "outs(%s : %s) -> %s"
                  % (v("%wd_"), ty([T, F]), ty([F, H]), f, ty([T, H]),
                     ty([T, H])))
        self.shard("%down_r", "%down", "%r", [T, H])
        self.shard("%down_", "%down_r", rows, [T, H], for_users=True)
        self.add("%out", v("%h1_"), v("%down_"), [T, H])
        self.shard("%out_s", "%out", rows, [T, H])
        if self.form == "check":
            self.shard("%out_r", "%out_s", "%r", [T, H], for_users=True)
            res = v("%out_r")
        else:
            res = v("%out_s")
        self.emit("return %s : %s" % (res, ty(out_shape)))
        return "\n".join(head + [l for l in self.lines if l.strip()] + ["}"])


def make_fn(name, shape, offset, scale):
    """A function filling `shape` with ((37 l + offset) mod 101 / 101 − 0.5)
    · scale, l the row-major element index."""
    r = len(shape)
    dims = ", ".join("d%d" % i for i in range(r))
    lines = ["// %s: element l (row-major) = ((37 l + %d) mod 101 / 101 − "
             "0.5) · %s." % (name, offset, scale),
             "func.func @%s() -> %s {" % (name, ty(shape)),
             "  %%e = tensor.empty() : %s" % ty(shape),
             "  %%r = linalg.generic {indexing_maps = [affine_map<(%s) -> "
             "(%s)>], iterator_types = [%s]} outs(%%e : %s) {"
             % (dims, dims, ", ".join(['"parallel"'] * r), ty(shape)),
             "  ^bb0(%o: f32):",
             "    %l0 = linalg.index 0 : index"]
    for i in range(1, r):
        lines += ["    %%i%d = linalg.index %d : index" % (i, i),
                  "    %%s%d = arith.constant %d : index" % (i, shape[i]),
                  "    %%m%d = arith.muli %%l%d, %%s%d : index" % (i, i - 1, i),
                  "    %%l%d = arith.addi %%m%d, %%i%d : index" % (i, i, i)]
    lines += ["    %c37 = arith.constant 37 : index",
              "    %%coff = arith.constant %d : index" % offset,
              "    %c101 = arith.constant 101 : index",
              "    %%a = arith.muli %%l%d, %%c37 : index" % (r - 1),
              "    %b = arith.addi %a, %coff : index",
              "    %c = arith.remui %b, %c101 : index",
              "    %ci = arith.index_cast %c : index to i64",
              "    %cf = arith.sitofp %ci : i64 to f32",
              "    %f101 = arith.constant 101.0 : f32",
              "    %half = arith.constant 0.5 : f32",
              "    %%k = arith.constant %s : f32" % scale,
              "    %u = arith.divf %cf, %f101 : f32",
              "    %v = arith.subf %u, %half : f32",
              "    %w = arith.mulf %v, %k : f32",
              "    linalg.yield %w : f32",
              "  } -> %s" % ty(shape),
              "  return %%r : %s" % ty(shape),
              "}"]
    return "\n".join(lines)


def mask_fn(T):
    return "\n".join([
        "// The causal mask: 0 on and below the diagonal, −1e9 above.",
        "func.func @make_mask() -> %s {" % ty([T, T]),
        "  %%e = tensor.empty() : %s" % ty([T, T]),
        "  %%r = linalg.generic {indexing_maps = [affine_map<(t, s) -> "
        "(t, s)>], iterator_types = [\"parallel\", \"parallel\"]} "
        "outs(%%e : %s) {" % ty([T, T]),
        "  ^bb0(%o: f32):",
        "    %t = linalg.index 0 : index",
        "    %s = linalg.index 1 : index",
        "    %future = arith.cmpi ugt, %s, %t : index",
        "    %zero = arith.constant 0.0 : f32",
        "    %big = arith.constant -1.0e9 : f32",
        "    %v = arith.select %future, %big, %zero : f32",
        "    linalg.yield %v : f32",
        "  } -> %s" % ty([T, T]),
        "  return %%r : %s" % ty([T, T]),
        "}"])


CHECK_FN = """// 1 when max |a − b| / max |b| ≤ TOL (DESIGN.md §4, f32), else 0.
func.func @check(%a: TY, %b: TY) -> tensor<1xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %m:2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, \
affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (0)>, \
affine_map<(i, j) -> (1)>], iterator_types = ["reduction", "reduction"]}
      ins(%a, %b : TY, TY) outs(%f, %f : tensor<2xf32>, tensor<2xf32>) {
  ^bb0(%va: f32, %vb: f32, %d: f32, %n: f32):
    %s = arith.subf %va, %vb : f32
    %as = math.absf %s : f32
    %ab = math.absf %vb : f32
    %d2 = arith.maximumf %d, %as : f32
    %n2 = arith.maximumf %n, %ab : f32
    linalg.yield %d2, %n2 : f32, f32
  } -> (tensor<2xf32>, tensor<2xf32>)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d = tensor.extract %m#0[%c0] : tensor<2xf32>
  %n = tensor.extract %m#1[%c1] : tensor<2xf32>
  %r = arith.divf %d, %n : f32
  %tol = arith.constant TOL : f32
  %ok = arith.cmpf ole, %r, %tol : f32
  %one = arith.constant 1.0 : f32
  %flag = arith.select %ok, %one, %z : f32
  %t = tensor.from_elements %flag : tensor<1xf32>
  return %t : tensor<1xf32>
}"""


def module(mode, form, size):
    s = SIZES[size]
    T, H, NH, D, F = s["seq"], s["hidden"], s["heads"], s["head_dim"], \
        s["ffn"]
    name = "llama_layer_%s" % mode if mode != "none" else "llama_layer"
    parts = []
    if mode != "none":
        parts.append("shard.grid @tp(shape = %d)" % P)
    wscale = "%.9e" % (2 / math.sqrt(H))
    if form == "check":
        parts.append("func.func private @printMemrefF32(tensor<*xf32>)")
        parts.append(Layer(name, mode, form, s).text())
        if mode != "none":
            parts.append(Layer("llama_layer", "none", form, s).text())
        parts += [make_fn("make_x", [T, H], 0, "4.0"),
                  make_fn("make_gamma", [H], 5, "1.0"),
                  make_fn("make_heads", [NH, D, H], 11, wscale),
                  make_fn("make_ffn", [F, H], 17, wscale), mask_fn(T),
                  CHECK_FN.replace("TY", ty([T, H])).replace(
                      "TOL", TOLERANCE[size])]
        tys = [[T, H], [H], [NH, D, H], [NH, D, H], [NH, D, H], [NH, D, H],
               [T, T], [H], [F, H], [F, H], [F, H]]
        call_ty = "(%s) -> %s" % (", ".join(ty(t) for t in tys), ty([T, H]))
        args = "%x, %g, %wh, %wh, %wh, %wh, %mask, %g, %wf, %wf, %wf"
        parts.append("\n".join([
            "// Runs the layer on every process and checks it against one "
            "process.",
            "func.func @main() {",
            "  %init = mpi.init : !mpi.retval",
            "  %%x = call @make_x() : () -> %s" % ty([T, H]),
            "  %%g = call @make_gamma() : () -> %s" % ty([H]),
            "  %%wh = call @make_heads() : () -> %s" % ty([NH, D, H]),
            "  %%wf = call @make_ffn() : () -> %s" % ty([F, H]),
            "  %%mask = call @make_mask() : () -> %s" % ty([T, T]),
            "  %%y1 = call @%s(%s) : %s" % (name, args, call_ty),
            "  %%y2 = call @llama_layer(%s) : %s" % (args, call_ty),
            "  %%ok = call @check(%%y1, %%y2) : (%s, %s) -> tensor<1xf32>"
            % (ty([T, H]), ty([T, H])),
            "  %u = tensor.cast %ok : tensor<1xf32> to tensor<*xf32>",
            "  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()",
            "  %fin = mpi.finalize : !mpi.retval",
            "  return",
            "}"]))
    else:
        parts.append(Layer(name, mode, form, s).text())
    return "\n\n".join(parts) + "\n"


def driver(mode, size, reps):
    """The bench form's @main, with each process's shapes: appended to the
    layer's module once partitioned (the layer's signature then has them)."""
    s = SIZES[size]
    T, H, NH, D, F = s["seq"], s["hidden"], s["heads"], s["head_dim"], \
        s["ffn"]
    name = "llama_layer_%s" % mode if mode != "none" else "llama_layer"
    q = P if mode != "none" else 1
    xrows = T // q if mode == "sp" else T
    wscale = "%.9e" % (2 / math.sqrt(H))
    parts = ["func.func private @rtclock() -> f64",
             "func.func private @printF64(f64)",
             "func.func private @printNewline()",
             make_fn("make_x", [xrows, H], 0, "4.0"),
             make_fn("make_gamma", [H], 5, "1.0"),
             make_fn("make_heads", [NH // q, D, H], 11, wscale),
             make_fn("make_ffn", [F // q, H], 17, wscale), mask_fn(T)]
    tys = [[xrows, H], [H], [NH // q, D, H], [NH // q, D, H],
           [NH // q, D, H], [NH // q, D, H], [T, T], [H], [F // q, H],
           [F // q, H], [F // q, H]]
    out = ty([xrows, H])
    call_ty = "(%s) -> %s" % (", ".join(ty(t) for t in tys), out)
    args = "%x, %g, %wh, %wh, %wh, %wh, %mask, %g, %wf, %wf, %wf"
    parts.append("\n".join([
        "// Calls the layer %d times; process 0 prints each call's time "
        "(rtclock, s)," % reps,
        "// then the sum of y[0, 0] over the calls (keeps the calls alive).",
        "func.func @main() {",
        "  %init = mpi.init : !mpi.retval",
        "  %comm = mpi.comm_world : !mpi.comm",
        "  %rank = mpi.comm_rank(%comm) : i32",
        "  %c0i = arith.constant 0 : i32",
        "  %lead = arith.cmpi eq, %rank, %c0i : i32",
        "  %%x = call @make_x() : () -> %s" % ty([xrows, H]),
        "  %%g = call @make_gamma() : () -> %s" % ty([H]),
        "  %%wh = call @make_heads() : () -> %s" % ty([NH // q, D, H]),
        "  %%wf = call @make_ffn() : () -> %s" % ty([F // q, H]),
        "  %%mask = call @make_mask() : () -> %s" % ty([T, T]),
        "  %c0 = arith.constant 0 : index",
        "  %c1 = arith.constant 1 : index",
        "  %%n = arith.constant %d : index" % reps,
        "  %zero = arith.constant 0.0 : f32",
        "  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero)"
        " -> (f32) {",
        "    %t0 = func.call @rtclock() : () -> f64",
        "    %%y = func.call @%s(%s) : %s" % (name, args, call_ty),
        "    %t1 = func.call @rtclock() : () -> f64",
        "    %dt = arith.subf %t1, %t0 : f64",
        "    scf.if %lead {",
        "      func.call @printF64(%dt) : (f64) -> ()",
        "      func.call @printNewline() : () -> ()",
        "    }",
        "    %%y0 = tensor.extract %%y[%%c0, %%c0] : %s" % out,
        "    %acc2 = arith.addf %acc, %y0 : f32",
        "    scf.yield %acc2 : f32",
        "  }",
        "  %s64 = arith.extf %sum : f32 to f64",
        "  scf.if %lead {",
        "    func.call @printF64(%s64) : (f64) -> ()",
        "    func.call @printNewline() : () -> ()",
        "  }",
        "  %fin = mpi.finalize : !mpi.retval",
        "  return",
        "}"]))
    return "\n\n".join(parts) + "\n"


SP_HEADER = """\
// A Llama-like decoder layer with tensor and sequence parallelism
// (Megatron-SP) over a grid of 2 processes (issue 31 item 3; DESIGN.md
// §10), run with mpirun -np 2:
//   bash scripts/run-example-mpi.sh examples/llama-layer-sp.mlir
// The form of llama-layer-tp.mlir (heads a real dim, generic contractions
// and softmax, the causal mask an input, no RoPE) with the residual
// stream split by rows: each RMSNorm runs on the process's 4 of the 8
// rows (no communication), its result is all-gathered for the
// column-parallel q/k/v and gate/up (half the heads, half the ffn rows a
// process), and the row-parallel o and down products are all-reduced and
// sliced back to the local rows (a reduce-scatter), where the residual
// adds run. Per layer: two all-gathers and two reduce-scatters of 8×64
// f32 (docs/design.md, Sharding, says what the MPI lowering moves for
// them). The arguments come in whole and leave whole (x sliced to the
// local rows, the output gathered: the check's, not the layer's).
// @main runs @llama_layer_sp and the same layer without annotations
// (@llama_layer) on every process and prints [1] when they agree within
// 1e-6 (relative), [0] otherwise.
//
// Generated by examples/gen_sharded_layer.py; edit that, not this file.

"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out-dir")
    sub = ap.add_subparsers(dest="cmd")
    em = sub.add_parser("emit")
    em.add_argument("mode", choices=["tp", "sp", "none"])
    em.add_argument("form", choices=["check", "bench", "driver"])
    em.add_argument("--size", choices=sorted(SIZES), default="small")
    em.add_argument("--reps", type=int, default=5)
    a = ap.parse_args()
    if a.cmd == "emit":
        if a.mode == "none" and a.form == "check":
            sys.exit("gen_sharded_layer.py: the check form needs tp or sp")
        if a.form == "driver":
            sys.stdout.write(driver(a.mode, a.size, a.reps))
        else:
            sys.stdout.write(module(a.mode, a.form, a.size))
        return
    out = a.out_dir or os.path.dirname(os.path.abspath(__file__))
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "llama-layer-sp.mlir")
    with open(path, "w") as f:
        f.write(SP_HEADER + module("sp", "check", "small"))
    print(path)


if __name__ == "__main__":
    main()
