/* A C program using the installed tilemm: a bad call is refused with a detail on any
 * machine; where a GPU exists, a 2 x 2 product is computed and checked. */
#include <stdio.h>
#include <string.h>

#include <tilemm/tilemm.h>

int main(void) {
  const float one = 1.0f, zero = 0.0f;
  tilemmStatus_t s = tilemmSgemm(NULL, TILEMM_OP_N, TILEMM_OP_N, -1, 2, 2, &one, NULL, 2, NULL,
                                 2, &zero, NULL, 2);
  if (s != TILEMM_STATUS_INVALID_VALUE || strstr(tilemmGetErrorDetail(NULL), "argument 3") == NULL) {
    printf("unexpected: %s / %s\n", tilemmGetStatusString(s), tilemmGetErrorDetail(NULL));
    return 1;
  }
  printf("bad call refused: %s\n", tilemmGetErrorDetail(NULL));

  tilemmHandle_t h;
  s = tilemmCreate(&h);
  if (s == TILEMM_STATUS_NO_DEVICE) {
    printf("no CUDA device: linked tilemm with %lld kernels; product not run\n",
           (long long)tilemmGetAlgorithmCount());
    return 0;
  }
  if (s != TILEMM_STATUS_SUCCESS) return 1;
  const float a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8}; /* column-major */
  float c[4] = {0, 0, 0, 0};
  float *dA, *dB, *dC;
  cudaMalloc((void**)&dA, sizeof a);
  cudaMalloc((void**)&dB, sizeof b);
  cudaMalloc((void**)&dC, sizeof c);
  cudaMemcpy(dA, a, sizeof a, cudaMemcpyHostToDevice);
  cudaMemcpy(dB, b, sizeof b, cudaMemcpyHostToDevice);
  s = tilemmSgemm(h, TILEMM_OP_N, TILEMM_OP_N, 2, 2, 2, &one, dA, 2, dB, 2, &zero, dC, 2);
  cudaMemcpy(c, dC, sizeof c, cudaMemcpyDeviceToHost);
  cudaFree(dA);
  cudaFree(dB);
  cudaFree(dC);
  tilemmDestroy(h);
  /* [1 3; 2 4] * [5 7; 6 8] = [23 31; 34 46] */
  const int ok = s == TILEMM_STATUS_SUCCESS && c[0] == 23 && c[1] == 34 && c[2] == 31 && c[3] == 46;
  printf("2x2 product: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
