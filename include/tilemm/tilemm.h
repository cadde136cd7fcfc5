/*
 * tilemm C API: dense matrix multiplication C = alpha * op(A) * op(B) + beta * C.
 *
 * Shaped like cuBLAS so existing code switches with little change:
 *   - column-major storage, leading dimensions in elements;
 *   - alpha and beta are host pointers;
 *   - every call is asynchronous on the handle's stream;
 *   - every call returns a status; tilemmGetErrorDetail() tells the last failure in words.
 *
 * Argument checks follow reference BLAS order and report the first failure
 * (transa = 1, transb = 2, m = 3, n = 4, k = 5, lda = 8, ldb = 10, ldc = 13).
 * An invalid call launches nothing and leaves C untouched.
 */
#ifndef TILEMM_TILEMM_H
#define TILEMM_TILEMM_H

#include <stdint.h>

#include <cuda_runtime_api.h>
#include <library_types.h>

#if defined(_WIN32)
#define TILEMM_API __declspec(dllexport)
#else
#define TILEMM_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define TILEMM_VERSION_MAJOR 0
#define TILEMM_VERSION_MINOR 1
#define TILEMM_VERSION_PATCH 0

typedef enum {
  TILEMM_STATUS_SUCCESS = 0,
  TILEMM_STATUS_NOT_INITIALIZED = 1,  /* null handle */
  TILEMM_STATUS_INVALID_VALUE = 2,    /* an argument breaks a rule; see the detail */
  TILEMM_STATUS_NOT_SUPPORTED = 3,    /* valid, but no kernel here computes it */
  TILEMM_STATUS_ARCH_MISMATCH = 4,    /* the chosen kernel needs a newer GPU */
  TILEMM_STATUS_ALLOC_FAILED = 5,     /* a host or device allocation failed */
  TILEMM_STATUS_EXECUTION_FAILED = 6, /* a launch or the CUDA runtime failed */
  TILEMM_STATUS_INTERNAL_ERROR = 7,   /* a bug in tilemm: please report it */
  TILEMM_STATUS_NO_DEVICE = 8         /* no CUDA device is visible */
} tilemmStatus_t;

typedef enum {
  TILEMM_OP_N = 0, /* op(X) = X */
  TILEMM_OP_T = 1, /* op(X) = X^T */
  TILEMM_OP_C = 2  /* op(X) = X^H; equal to X^T for the real types tilemm supports */
} tilemmOperation_t;

typedef enum {
  TILEMM_COMPUTE_32F = 0,          /* fp32 arithmetic, no TF32 */
  TILEMM_COMPUTE_32F_FAST_TF32 = 1 /* fp32 data through TF32 tensor cores */
} tilemmComputeType_t;

typedef struct tilemmContext* tilemmHandle_t;

/* Creates a handle bound to the current CUDA device and the default stream. */
TILEMM_API tilemmStatus_t tilemmCreate(tilemmHandle_t* handle);
TILEMM_API tilemmStatus_t tilemmDestroy(tilemmHandle_t handle);
TILEMM_API tilemmStatus_t tilemmSetStream(tilemmHandle_t handle, cudaStream_t stream);
TILEMM_API tilemmStatus_t tilemmGetStream(tilemmHandle_t handle, cudaStream_t* stream);

/* "auto" (the default) lets tilemm choose; any name of tilemmGetAlgorithmName forces
 * that kernel. A forced kernel that cannot run a problem makes the call return
 * TILEMM_STATUS_NOT_SUPPORTED with the reason, never a wrong result. */
TILEMM_API tilemmStatus_t tilemmSetAlgorithm(tilemmHandle_t handle, const char* name);
TILEMM_API const char* tilemmGetAlgorithm(tilemmHandle_t handle);
/* The name of the kernel the last successful multiplication on this handle ran
 * ("" when none ran, e.g. after a quick return). */
TILEMM_API const char* tilemmGetLastKernel(tilemmHandle_t handle);

/* The registered kernels, in ladder order. */
TILEMM_API int64_t tilemmGetAlgorithmCount(void);
TILEMM_API const char* tilemmGetAlgorithmName(int64_t index);

TILEMM_API const char* tilemmGetStatusString(tilemmStatus_t status);
/* The last failure in words, e.g. "lda = 3 must be >= max(1, m) = 4 (argument 8)".
 * With a null handle: the last failure of this thread (calls made with a null handle
 * record their detail there). Empty after a successful call. */
TILEMM_API const char* tilemmGetErrorDetail(tilemmHandle_t handle);

TILEMM_API tilemmStatus_t tilemmSgemm(tilemmHandle_t handle, tilemmOperation_t transa,
                                      tilemmOperation_t transb, int64_t m, int64_t n,
                                      int64_t k, const float* alpha, const float* A,
                                      int64_t lda, const float* B, int64_t ldb,
                                      const float* beta, float* C, int64_t ldc);

/* Types (A and B always of one type; every other combination returns
 * TILEMM_STATUS_NOT_SUPPORTED with a detail naming what is supported):
 *   A, B, C in CUDA_R_32F with TILEMM_COMPUTE_32F            fp32 arithmetic;
 *   A, B, C in CUDA_R_32F with TILEMM_COMPUTE_32F_FAST_TF32  TF32 tensor cores (inputs
 *                                                            rounded to tf32, fp32 sums);
 *   A, B in CUDA_R_16F or CUDA_R_16BF, C in the same type or CUDA_R_32F, with
 *   TILEMM_COMPUTE_32F                                       tensor cores, fp32 sums, a
 *                                                            16-bit C rounded to nearest.
 * alpha and beta point to floats for all of them (the 32F compute types' scalar). */
TILEMM_API tilemmStatus_t tilemmGemmEx(tilemmHandle_t handle, tilemmOperation_t transa,
                                       tilemmOperation_t transb, int64_t m, int64_t n,
                                       int64_t k, const void* alpha, const void* A,
                                       cudaDataType_t Atype, int64_t lda, const void* B,
                                       cudaDataType_t Btype, int64_t ldb, const void* beta,
                                       void* C, cudaDataType_t Ctype, int64_t ldc,
                                       tilemmComputeType_t computeType);

/* batchCount products; product i uses A + i*strideA, B + i*strideB, C + i*strideC
 * (strides in elements). strideA or strideB of 0 broadcasts one matrix to every
 * product; outputs of different products must not overlap. */
TILEMM_API tilemmStatus_t tilemmGemmStridedBatchedEx(
    tilemmHandle_t handle, tilemmOperation_t transa, tilemmOperation_t transb, int64_t m,
    int64_t n, int64_t k, const void* alpha, const void* A, cudaDataType_t Atype,
    int64_t lda, int64_t strideA, const void* B, cudaDataType_t Btype, int64_t ldb,
    int64_t strideB, const void* beta, void* C, cudaDataType_t Ctype, int64_t ldc,
    int64_t strideC, int64_t batchCount, tilemmComputeType_t computeType);

#ifdef __cplusplus
}
#endif

#endif /* TILEMM_TILEMM_H */
