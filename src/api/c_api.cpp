// The C API: validate (src/core), then dispatch to a registered kernel (src/registry).
// Never synchronizes, never prints, never aborts; every failure is a status plus a
// detail kept on the handle (or per thread for calls made with a null handle).
#include <cstring>
#include <exception>
#include <new>
#include <string>

#include <cuda_runtime_api.h>

#include "core/validate.hpp"
#include "kernels/beta_scale.hpp"
#include "registry/registry.hpp"
#include "tilemm/tilemm.h"

struct tilemmContext {
  tilemm::DeviceInfo device;
  cudaStream_t stream = nullptr;
  std::string algorithm = "auto";
  std::string detail;
  std::string last_kernel;
  tilemm::AutoChoiceCache auto_choices;
};

namespace {

thread_local std::string t_null_handle_detail;

std::string& detail_slot(tilemmHandle_t h) { return h != nullptr ? h->detail : t_null_handle_detail; }

tilemmStatus_t finish(tilemmHandle_t h, tilemmStatus_t status, std::string detail) {
  detail_slot(h) = std::move(detail);
  return status;
}

tilemmStatus_t launch_failed(tilemmHandle_t h, const char* what, cudaError_t err) {
  return finish(h, TILEMM_STATUS_EXECUTION_FAILED,
                std::string(what) + " failed: " + cudaGetErrorName(err) + " (" +
                    cudaGetErrorString(err) + ")");
}

tilemmStatus_t execute(tilemmHandle_t h, const tilemm::GemmArgs& args) {
  using tilemm::Action;
  tilemm::GemmPlan plan = tilemm::plan_gemm(args);
  if (plan.status != TILEMM_STATUS_SUCCESS) return finish(h, plan.status, std::move(plan.detail));
  h->last_kernel.clear();
  if (plan.action == Action::Nothing) return finish(h, TILEMM_STATUS_SUCCESS, {});
  if (plan.action == Action::ScaleC) {
    const cudaError_t err = tilemm::kernels::launch_beta_scale(plan.problem, h->stream);
    if (err != cudaSuccess) return launch_failed(h, "beta_scale launch", err);
    h->last_kernel = "beta_scale";
    return finish(h, TILEMM_STATUS_SUCCESS, {});
  }

  const tilemm::Registry& reg = tilemm::registry();
  const tilemm::KernelEntry* entry = nullptr;
  if (h->algorithm == "auto") {
    // Vectors with unit stride along k, read K-major: a row vector in NN (m = 1, lda = 1) went
    // to the element-load entries (bf16 1 x 4096 x 11008: 45.0 us; the same bytes in TN 27.5).
    // A forced kernel gets the problem as given (some take NN but not TN).
    plan.problem = tilemm::vectors_read_k_major(plan.problem);
    entry = h->auto_choices.find(plan.problem);
    if (entry == nullptr) {
      std::string why;
      entry = reg.choose(plan.problem, h->device, &why);
      if (entry == nullptr) return finish(h, TILEMM_STATUS_NOT_SUPPORTED, why);
      h->auto_choices.remember(plan.problem, entry);
    }
  } else {
    entry = reg.find(h->algorithm);
    if (entry == nullptr) return finish(h, TILEMM_STATUS_INTERNAL_ERROR, "algorithm '" + h->algorithm + "' vanished from the registry");
    const std::string reason = entry->can_implement(plan.problem, h->device);
    if (!reason.empty()) {
      const bool arch = h->device.compute_capability() < entry->min_compute_capability;
      return finish(h, arch ? TILEMM_STATUS_ARCH_MISMATCH : TILEMM_STATUS_NOT_SUPPORTED,
                    "kernel '" + entry->name + "' cannot run this problem: " + reason);
    }
  }
  const cudaError_t err = entry->launch(plan.problem, h->stream);
  if (err != cudaSuccess) return launch_failed(h, (entry->name + " launch").c_str(), err);
  h->last_kernel = entry->name;
  return finish(h, TILEMM_STATUS_SUCCESS, {});
}

// Exceptions never cross the C boundary.
template <class F>
tilemmStatus_t guarded(tilemmHandle_t h, F&& f) {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    return finish(h, TILEMM_STATUS_ALLOC_FAILED, "host allocation failed");
  } catch (const std::exception& e) {
    return finish(h, TILEMM_STATUS_INTERNAL_ERROR, std::string("internal error: ") + e.what());
  } catch (...) {
    return finish(h, TILEMM_STATUS_INTERNAL_ERROR, "internal error: unknown exception");
  }
}

}  // namespace

extern "C" {

tilemmStatus_t tilemmCreate(tilemmHandle_t* handle) {
  if (handle == nullptr) return finish(nullptr, TILEMM_STATUS_INVALID_VALUE, "handle = NULL: pass the address of a tilemmHandle_t");
  *handle = nullptr;
  int device = -1;
  const cudaError_t err = cudaGetDevice(&device);
  tilemm::DeviceInfo info;
  if (err != cudaSuccess || !tilemm::query_device(device, &info)) {
    cudaGetLastError();
    return finish(nullptr, TILEMM_STATUS_NO_DEVICE,
                  std::string("no CUDA device is visible: ") + cudaGetErrorString(err));
  }
  auto* ctx = new (std::nothrow) tilemmContext;
  if (ctx == nullptr) return finish(nullptr, TILEMM_STATUS_ALLOC_FAILED, "host allocation of the handle failed");
  ctx->device = info;
  *handle = ctx;
  return TILEMM_STATUS_SUCCESS;
}

tilemmStatus_t tilemmDestroy(tilemmHandle_t handle) {
  if (handle == nullptr) return finish(nullptr, TILEMM_STATUS_NOT_INITIALIZED, "handle is null");
  delete handle;
  return TILEMM_STATUS_SUCCESS;
}

tilemmStatus_t tilemmSetStream(tilemmHandle_t handle, cudaStream_t stream) {
  if (handle == nullptr) return finish(nullptr, TILEMM_STATUS_NOT_INITIALIZED, "handle is null");
  handle->stream = stream;
  return finish(handle, TILEMM_STATUS_SUCCESS, {});
}

tilemmStatus_t tilemmGetStream(tilemmHandle_t handle, cudaStream_t* stream) {
  if (handle == nullptr) return finish(nullptr, TILEMM_STATUS_NOT_INITIALIZED, "handle is null");
  if (stream == nullptr) return finish(handle, TILEMM_STATUS_INVALID_VALUE, "stream = NULL: pass the address of a cudaStream_t");
  *stream = handle->stream;
  return finish(handle, TILEMM_STATUS_SUCCESS, {});
}

tilemmStatus_t tilemmSetAlgorithm(tilemmHandle_t handle, const char* name) {
  if (handle == nullptr) return finish(nullptr, TILEMM_STATUS_NOT_INITIALIZED, "handle is null");
  return guarded(handle, [&] {
    if (name == nullptr) return finish(handle, TILEMM_STATUS_INVALID_VALUE, "name = NULL: pass \"auto\" or a kernel name");
    const std::string wanted(name);
    if (wanted != "auto" && tilemm::registry().find(wanted) == nullptr) {
      std::string known;
      for (const auto& e : tilemm::registry().entries()) known += (known.empty() ? "" : ", ") + e.name;
      return finish(handle, TILEMM_STATUS_INVALID_VALUE,
                    "algorithm '" + wanted + "' is not registered; known: auto, " + known);
    }
    handle->algorithm = wanted;
    return finish(handle, TILEMM_STATUS_SUCCESS, {});
  });
}

const char* tilemmGetAlgorithm(tilemmHandle_t handle) {
  return handle != nullptr ? handle->algorithm.c_str() : "";
}

const char* tilemmGetLastKernel(tilemmHandle_t handle) {
  return handle != nullptr ? handle->last_kernel.c_str() : "";
}

int64_t tilemmGetAlgorithmCount(void) {
  return static_cast<int64_t>(tilemm::registry().entries().size());
}

const char* tilemmGetAlgorithmName(int64_t index) {
  const auto& entries = tilemm::registry().entries();
  if (index < 0 || index >= static_cast<int64_t>(entries.size())) return nullptr;
  return entries[static_cast<size_t>(index)].name.c_str();
}

const char* tilemmGetStatusString(tilemmStatus_t status) {
  switch (status) {
    case TILEMM_STATUS_SUCCESS: return "TILEMM_STATUS_SUCCESS";
    case TILEMM_STATUS_NOT_INITIALIZED: return "TILEMM_STATUS_NOT_INITIALIZED";
    case TILEMM_STATUS_INVALID_VALUE: return "TILEMM_STATUS_INVALID_VALUE";
    case TILEMM_STATUS_NOT_SUPPORTED: return "TILEMM_STATUS_NOT_SUPPORTED";
    case TILEMM_STATUS_ARCH_MISMATCH: return "TILEMM_STATUS_ARCH_MISMATCH";
    case TILEMM_STATUS_ALLOC_FAILED: return "TILEMM_STATUS_ALLOC_FAILED";
    case TILEMM_STATUS_EXECUTION_FAILED: return "TILEMM_STATUS_EXECUTION_FAILED";
    case TILEMM_STATUS_INTERNAL_ERROR: return "TILEMM_STATUS_INTERNAL_ERROR";
    case TILEMM_STATUS_NO_DEVICE: return "TILEMM_STATUS_NO_DEVICE";
  }
  return "TILEMM_STATUS_<unknown>";
}

const char* tilemmGetErrorDetail(tilemmHandle_t handle) { return detail_slot(handle).c_str(); }

tilemmStatus_t tilemmGemmStridedBatchedEx(
    tilemmHandle_t handle, tilemmOperation_t transa, tilemmOperation_t transb, int64_t m,
    int64_t n, int64_t k, const void* alpha, const void* A, cudaDataType_t Atype,
    int64_t lda, int64_t strideA, const void* B, cudaDataType_t Btype, int64_t ldb,
    int64_t strideB, const void* beta, void* C, cudaDataType_t Ctype, int64_t ldc,
    int64_t strideC, int64_t batchCount, tilemmComputeType_t computeType) {
  return guarded(handle, [&] {
    tilemm::GemmArgs a;
    a.handle_valid = handle != nullptr;
    a.transa = static_cast<int>(transa);
    a.transb = static_cast<int>(transb);
    a.m = m;
    a.n = n;
    a.k = k;
    a.alpha = alpha;
    a.A = A;
    a.a_type = static_cast<int>(Atype);
    a.lda = lda;
    a.stride_a = strideA;
    a.B = B;
    a.b_type = static_cast<int>(Btype);
    a.ldb = ldb;
    a.stride_b = strideB;
    a.beta = beta;
    a.C = C;
    a.c_type = static_cast<int>(Ctype);
    a.ldc = ldc;
    a.stride_c = strideC;
    a.batch = batchCount;
    a.compute = static_cast<int>(computeType);
    if (handle == nullptr) {
      tilemm::GemmPlan plan = tilemm::plan_gemm(a);
      return finish(nullptr, plan.status, std::move(plan.detail));
    }
    return execute(handle, a);
  });
}

tilemmStatus_t tilemmGemmEx(tilemmHandle_t handle, tilemmOperation_t transa,
                            tilemmOperation_t transb, int64_t m, int64_t n, int64_t k,
                            const void* alpha, const void* A, cudaDataType_t Atype, int64_t lda,
                            const void* B, cudaDataType_t Btype, int64_t ldb, const void* beta,
                            void* C, cudaDataType_t Ctype, int64_t ldc,
                            tilemmComputeType_t computeType) {
  return tilemmGemmStridedBatchedEx(handle, transa, transb, m, n, k, alpha, A, Atype, lda, 0, B,
                                    Btype, ldb, 0, beta, C, Ctype, ldc, 0, 1, computeType);
}

tilemmStatus_t tilemmSgemm(tilemmHandle_t handle, tilemmOperation_t transa,
                           tilemmOperation_t transb, int64_t m, int64_t n, int64_t k,
                           const float* alpha, const float* A, int64_t lda, const float* B,
                           int64_t ldb, const float* beta, float* C, int64_t ldc) {
  return tilemmGemmEx(handle, transa, transb, m, n, k, alpha, A, CUDA_R_32F, lda, B, CUDA_R_32F,
                      ldb, beta, C, CUDA_R_32F, ldc, TILEMM_COMPUTE_32F);
}

}  // extern "C"
