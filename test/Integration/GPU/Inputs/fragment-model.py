#!/usr/bin/env python3
"""A model of one 64 x 128 x 32 block tile of the tensor-core fused GEMM
(lib/Conversion/NormToGPU/Gemm/MmaSyncLoop.cpp and Epilogue.cpp): the
ldmatrix lane addresses and the accumulator-to-C mapping written there,
with ldmatrix (.x4, plain and .trans) and mma.sync m16n8k16 modelled after
the PTX ISA's fragment layouts. Prints OK per W layout when the modelled
tile equals X·W. Run by fragment-model.test; no GPU needed."""
import random
BM,BN,BK=64,128,32
random.seed(1)
def ldmatrix(smem_row_fn, addrs, trans):
    # addrs[lane] = (r, c) start of the 8-element row lane provides; smem_row_fn(r,c,j) element
    regs = [[None]*4 for _ in range(32)]
    for q in range(4):
        rows = [[smem_row_fn(*addrs[q*8+i], j) for j in range(8)] for i in range(8)]  # matrix q: 8x8
        for t in range(32):
            g, c = t//4, t%4
            if not trans:
                regs[t][q] = (rows[g][2*c], rows[g][2*c+1])
            else:
                regs[t][q] = (rows[2*c][g], rows[2*c+1][g])
    return regs
def mma(a, b, acc):
    # a: per lane 4 regs (pairs), b: per lane 2 regs, acc: per lane 4 floats. Returns new acc.
    A = [[0]*16 for _ in range(16)]; B = [[0]*8 for _ in range(16)]
    for t in range(32):
        g, c = t//4, t%4
        A[g][2*c], A[g][2*c+1] = a[t][0]
        A[g+8][2*c], A[g+8][2*c+1] = a[t][1]
        A[g][2*c+8], A[g][2*c+9] = a[t][2]
        A[g+8][2*c+8], A[g+8][2*c+9] = a[t][3]
        B[2*c][g], B[2*c+1][g] = b[t][0]
        B[2*c+8][g], B[2*c+9][g] = b[t][1]
    out = []
    for t in range(32):
        g, c = t//4, t%4
        vals = []
        for (r, col) in [(g,2*c),(g,2*c+1),(g+8,2*c),(g+8,2*c+1)]:
            vals.append(sum(A[r][k]*B[k][col] for k in range(16)))
        out.append([acc[t][i]+vals[i] for i in range(4)])
    return out
X = [[random.randint(-3,3) for _ in range(BK)] for _ in range(BM)]
W = [[random.randint(-3,3) for _ in range(BN)] for _ in range(BK)]   # K x N
WT = [[W[k][n] for k in range(BK)] for n in range(BN)]               # N x K
for transpose in (False, True):
  C = [[None]*BN for _ in range(BM)]
  for warp in range(4):
    wm, wn = warp//2, warp%2
    acc = {(mt,nt): [[0]*4 for _ in range(32)] for mt in range(2) for nt in range(8)}
    for ks in range(2):
        a = []
        for mt in range(2):
            addrs = [(wm*32+mt*16+l%16, (l//16)*8+ks*16) for l in range(32)]
            a.append(ldmatrix(lambda r,c,j: X[r][c+j], addrs, False))
        w = []
        for np_ in range(4):
            colBase = wn*64+np_*16
            if transpose:
                addrs = [(colBase+(l//16)*8+l%8, ((l//8)%2)*8+ks*16) for l in range(32)]
                tile = ldmatrix(lambda r,c,j: WT[r][c+j], addrs, False)
            else:
                addrs = [(l%16+ks*16, colBase+(l//16)*8) for l in range(32)]
                tile = ldmatrix(lambda r,c,j: W[r][c+j], addrs, True)
            for half in range(2):
                w.append([[tile[t][half*2+0], tile[t][half*2+1]] for t in range(32)])
        for mt in range(2):
            for nt in range(8):
                acc[(mt,nt)] = mma(a[mt], w[nt], acc[(mt,nt)])
    for mt in range(2):
        for nt in range(8):
            for t in range(32):
                for i in range(2):
                    for j in range(2):
                        row = wm*32 + t//4 + mt*16 + i*8
                        col = wn*64 + (t%4)*2 + nt*8 + j
                        C[row][col] = acc[(mt,nt)][t][i*2+j]
  ref = [[sum(X[m][k]*W[k][n] for k in range(BK)) for n in range(BN)] for m in range(BM)]
  print("transpose" if transpose else "KxN", "OK" if C == ref else "MISMATCH")

# The residual path of norm -> matmul (stageTile, prologueOnTile, storeSum):
# R's chunks are staged with A's mapping (chunk c = tid + 128 i, i < 2, at
# row c / 4, column (c % 4) * 8), tails past M and K zero-filled; the
# prologue's thread reads row tid / 2, columns (tid % 2) * 16 + 8 j, j < 2,
# forms s = x + r and, in the blocks with bx = 0, stores the chunk's
# elements that lie inside M and K (16-byte stores in the cp.async kernel
# where K % 8 = 0, guarded element stores otherwise). Over a whole grid of
# max(ceil(N / BN), 1) x ceil(M / BM) blocks, every element of S must be
# written exactly once and equal x + r (rounding left out: exact integers).
def residual_sum(M, K, N):
    X = [[random.randint(-9, 9) for _ in range(K)] for _ in range(M)]
    R = [[random.randint(-9, 9) for _ in range(K)] for _ in range(M)]
    writes = [[0] * K for _ in range(M)]
    S = [[None] * K for _ in range(M)]
    for bx in range(max(-(-N // BN), 1)):
        for by in range(-(-M // BM)):
            m0 = by * BM
            for kt in range(-(-K // BK)):
                k0 = kt * BK
                tileA = [[None] * BK for _ in range(BM)]
                tileR = [[None] * BK for _ in range(BM)]
                for tid in range(128):
                    for i in range(BM * BK // 8 // 128):
                        c = tid + 128 * i
                        row, col = c // 4, (c % 4) * 8
                        for l in range(8):
                            inside = m0 + row < M and k0 + col + l < K
                            tileA[row][col + l] = X[m0 + row][k0 + col + l] if inside else 0
                            tileR[row][col + l] = R[m0 + row][k0 + col + l] if inside else 0
                for tid in range(128):
                    row = tid // 2
                    for j in range(2):
                        col = (tid % 2) * 16 + j * 8
                        s = [tileA[row][col + l] + tileR[row][col + l] for l in range(8)]
                        if bx != 0 or m0 + row >= M:
                            continue
                        for l in range(8):
                            if k0 + col + l < K:
                                writes[m0 + row][k0 + col + l] += 1
                                S[m0 + row][k0 + col + l] = s[l]
    once = all(w == 1 for r in writes for w in r)
    right = all(S[m][k] == X[m][k] + R[m][k] for m in range(M) for k in range(K))
    return once and right
print("residual S", "OK" if all(residual_sum(*mkn) for mkn in
      [(70, 100, 200), (1, 64, 0), (64, 96, 300), (130, 40, 8)]) else "MISMATCH")
