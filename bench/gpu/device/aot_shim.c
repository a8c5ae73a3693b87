/*===- aot_shim.c - main and runner utilities for AOT GPU programs -------===*/
/*
 * What mlir-runner and libmlir_(c_)runner_utils give a program, for the
 * programs bench/gpu/device/aot.py compiles ahead of time: a C main that
 * calls the MLIR @main (renamed mlir_main), printMemrefF32 in the format
 * examples/gen_examples.py's check reads, and rtclock. Debian's runner
 * utilities link libMLIR, which the GPU machines do not have.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

extern void mlir_main(void);

typedef struct {
  int64_t rank;
  void *descriptor;
} UnrankedMemRef;

/* The ranked descriptor: allocated, aligned, offset, sizes, strides. */
void _mlir_ciface_printMemrefF32(UnrankedMemRef *m) {
  void **d = (void **)m->descriptor;
  const float *aligned = (const float *)d[1];
  const int64_t *meta = (const int64_t *)(d + 2);
  int64_t offset = meta[0], rank = m->rank, count = 1;
  const int64_t *sizes = meta + 1, *strides = meta + 1 + rank;
  printf("Unranked Memref rank = %lld sizes = [", (long long)rank);
  for (int64_t i = 0; i < rank; ++i) {
    printf(i ? ", %lld" : "%lld", (long long)sizes[i]);
    count *= sizes[i];
  }
  printf("] data = \n[");
  for (int64_t flat = 0; flat < count; ++flat) {
    int64_t rest = flat, at = offset;
    for (int64_t i = rank - 1; i >= 0; --i) {
      at += (rest % sizes[i]) * strides[i];
      rest /= sizes[i];
    }
    printf(flat ? ", %g" : "%g", (double)aligned[at]);
  }
  printf("]\n");
}

/* memref.copy between layouts that are not both contiguous. */
void memrefCopy(int64_t elemSize, UnrankedMemRef *src, UnrankedMemRef *dst) {
  void **s = (void **)src->descriptor, **d = (void **)dst->descriptor;
  const int64_t *sm = (const int64_t *)(s + 2), *dm = (const int64_t *)(d + 2);
  int64_t rank = src->rank, count = 1;
  for (int64_t i = 0; i < rank; ++i)
    count *= sm[1 + i];
  for (int64_t flat = 0; flat < count; ++flat) {
    int64_t rest = flat, from = sm[0], to = dm[0];
    for (int64_t i = rank - 1; i >= 0; --i) {
      int64_t index = rest % sm[1 + i];
      rest /= sm[1 + i];
      from += index * sm[1 + rank + i];
      to += index * dm[1 + rank + i];
    }
    memcpy((char *)d[1] + to * elemSize, (const char *)s[1] + from * elemSize,
           (size_t)elemSize);
  }
}

double rtclock(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* One timed call of bench/gpu/device/layer_timing.py's driver. */
void norm_aot_print_ms(double seconds) {
  printf("layer_ms=%.4f\n", 1e3 * seconds);
}

void printF64(double v) { printf("%g", v); }
void printNewline(void) { printf("\n"); }

int main(void) {
  mlir_main();
  fflush(stdout);
  return 0;
}
