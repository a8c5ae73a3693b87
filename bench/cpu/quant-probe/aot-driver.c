// Times a bench kernel (quant.py's `kernel(x: memref<?x?xbf16>, g:
// memref<?xbf16>)` at 16x4096) compiled ahead of time from norm-opt's
// output (probe.sh), so that its buffers' offsets can be chosen:
//   ./aot [calls per round] [rounds] [x offset bytes] [gamma offset bytes]
// Inputs as replica.c's. Prints the page offsets of q (the kernel's global,
// where it has one), x and gamma, and the median/min us a call.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void kernel(void *, void *, long, long, long, long, long, void *, void *, long,
            long, long);
extern char q[] __attribute__((weak));

static uint16_t bf16(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return (u + 0x7FFF + ((u >> 16) & 1)) >> 16;
}
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}
static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  const int R = 16, H = 4096;
  int calls = argc > 1 ? atoi(argv[1]) : 2000,
      rounds = argc > 2 ? atoi(argv[2]) : 7;
  size_t xoff = argc > 3 ? (size_t)atol(argv[3]) % 4096 : 0;
  size_t goff = argc > 4 ? (size_t)atol(argv[4]) % 4096 : 0;
  if (rounds < 1 || rounds > 64)
    rounds = 7;
  char *xb = aligned_alloc(4096, R * H * 2 + 4096),
       *gb = aligned_alloc(4096, H * 2 + 4096);
  uint16_t *x = (uint16_t *)(xb + xoff), *g = (uint16_t *)(gb + goff);
  srand(1);
  for (int i = 0; i < R * H; i++)
    x[i] = bf16(2.0f * (float)rand() / (float)RAND_MAX - 1.0f);
  for (int i = 0; i < H; i++)
    g[i] = bf16(2.0f * (float)rand() / (float)RAND_MAX - 1.0f);
  for (int i = 0; i < 200; i++)
    kernel(x, x, 0, R, H, H, 1, g, g, 0, H, 1);
  double t[64];
  for (int r = 0; r < rounds; r++) {
    double a = now();
    for (int i = 0; i < calls; i++)
      kernel(x, x, 0, R, H, H, 1, g, g, 0, H, 1);
    t[r] = (now() - a) / calls / 1e3;
  }
  qsort(t, rounds, sizeof(double), cmp);
  printf("q%%4096=%lu x%%4096=%lu g%%4096=%lu median_us=%.3f min_us=%.3f "
         "max_us=%.3f\n",
         q ? (unsigned long)((uintptr_t)q & 4095) : 0UL,
         (unsigned long)((uintptr_t)x & 4095),
         (unsigned long)((uintptr_t)g & 4095), t[rounds / 2], t[0],
         t[rounds - 1]);
  return 0;
}
