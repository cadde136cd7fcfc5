#include "core/validate.hpp"

#include <algorithm>
#include <cstdlib>
#include <sstream>

namespace tilemm {

std::int64_t dtype_size(DType t) {
  switch (t) {
    case DType::F32: return 4;
    case DType::F16: return 2;
    case DType::BF16: return 2;
  }
  return 0;
}

const char* dtype_name(DType t) {
  switch (t) {
    case DType::F32: return "fp32";
    case DType::F16: return "fp16";
    case DType::BF16: return "bf16";
  }
  return "?";
}

const char* op_name(Op op) { return op == Op::N ? "N" : "T"; }

std::string op_code(Op opa, Op opb) { return std::string(op_name(opa)) + op_name(opb); }

GemmProblem vectors_read_k_major(const GemmProblem& p) {
  // The 16-byte copies read the vector's last 16-byte unit whole: a k that ends inside one
  // keeps ld = k, so that they leave it to kernels that read it element by element.
  const auto k_major_ld = [&p](DType t) {
    const std::int64_t k = std::max<std::int64_t>(p.k, 1);
    return k * dtype_size(t) % 16 == 0 ? (k + 63) / 64 * 64 : k;
  };
  GemmProblem q = p;
  if (p.m == 1 && p.opa == Op::N && p.lda == 1) {
    q.opa = Op::T;
    q.lda = k_major_ld(p.a_type);
  }
  if (p.n == 1 && p.opb == Op::T && p.ldb == 1) {
    q.opb = Op::N;
    q.ldb = k_major_ld(p.b_type);
  }
  return q;
}

namespace {

GemmPlan fail(tilemmStatus_t status, std::string detail) {
  GemmPlan plan;
  plan.status = status;
  plan.detail = std::move(detail);
  return plan;
}

bool valid_op(int op) { return op == TILEMM_OP_N || op == TILEMM_OP_T || op == TILEMM_OP_C; }

const char* cuda_type_name(int t) {
  switch (t) {
    case CUDA_R_32F: return "CUDA_R_32F";
    case CUDA_R_16F: return "CUDA_R_16F";
    case CUDA_R_16BF: return "CUDA_R_16BF";
    case CUDA_R_64F: return "CUDA_R_64F";
    case CUDA_R_8I: return "CUDA_R_8I";
    case CUDA_R_32I: return "CUDA_R_32I";
    case CUDA_C_32F: return "CUDA_C_32F";
    case CUDA_C_64F: return "CUDA_C_64F";
    default: return "an unknown cudaDataType_t";
  }
}

const char* compute_name(int c) {
  switch (c) {
    case TILEMM_COMPUTE_32F: return "TILEMM_COMPUTE_32F";
    case TILEMM_COMPUTE_32F_FAST_TF32: return "TILEMM_COMPUTE_32F_FAST_TF32";
    default: return "an unknown tilemmComputeType_t";
  }
}

// Bytes from the first to one past the last element of a column-major rows x cols
// matrix with leading dimension ld (rows, cols > 0).
std::int64_t span_elements(std::int64_t rows, std::int64_t cols, std::int64_t ld) {
  return ld * (cols - 1) + rows;
}

struct ByteRange {
  std::uintptr_t begin = 0, end = 0;  // [begin, end)
};

// The bytes a batch of matrices may touch, from the lowest to the highest element.
ByteRange batch_range(const void* base, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                      std::int64_t stride, std::int64_t batch, std::int64_t elem) {
  const std::int64_t span = span_elements(rows, cols, ld);
  const std::int64_t reach = std::llabs(stride) * (batch - 1);
  const auto b = reinterpret_cast<std::uintptr_t>(base);
  ByteRange r;
  if (stride >= 0) {
    r.begin = b;
    r.end = b + std::uintptr_t((reach + span) * elem);
  } else {
    r.begin = b - std::uintptr_t(reach * elem);
    r.end = b + std::uintptr_t(span * elem);
  }
  return r;
}

bool ranges_overlap(ByteRange x, ByteRange y) { return x.begin < y.end && y.begin < x.end; }

}  // namespace

bool strided_batches_overlap(std::int64_t rows, std::int64_t cols, std::int64_t ld,
                             std::int64_t stride, std::int64_t batch, std::int64_t max_steps) {
  if (batch <= 1 || rows <= 0 || cols <= 0) return false;
  const std::int64_t s = std::llabs(stride);
  if (s == 0) return true;
  // Items i and j overlap iff d = |j - i| * s = dr + dc * ld with |dr| < rows, |dc| < cols.
  // Since rows <= ld, only dc = floor(d / ld) and dc + 1 can work.
  const std::int64_t span = span_elements(rows, cols, ld);
  std::int64_t steps = 0;
  for (std::int64_t t = 1; t < batch; ++t) {
    if (s > span / t) return false;  // t * s >= span: no larger distance overlaps either
    const std::int64_t d = t * s;
    const std::int64_t dc = d / ld;
    const std::int64_t rem = d - dc * ld;
    if (dc < cols && rem < rows) return true;
    if (dc + 1 < cols && ld - rem < rows) return true;
    if (++steps >= max_steps) return true;
  }
  return false;
}

GemmPlan plan_gemm(const GemmArgs& a) {
  std::ostringstream os;

  // 1-5: operations and sizes, reference BLAS order.
  if (!valid_op(a.transa)) {
    os << "transa = " << a.transa << " must be TILEMM_OP_N, TILEMM_OP_T or TILEMM_OP_C (argument 1)";
    return fail(TILEMM_STATUS_INVALID_VALUE, os.str());
  }
  if (!valid_op(a.transb)) {
    os << "transb = " << a.transb << " must be TILEMM_OP_N, TILEMM_OP_T or TILEMM_OP_C (argument 2)";
    return fail(TILEMM_STATUS_INVALID_VALUE, os.str());
  }
  const Op opa = a.transa == TILEMM_OP_N ? Op::N : Op::T;
  const Op opb = a.transb == TILEMM_OP_N ? Op::N : Op::T;
  if (a.m < 0) {
    os << "m = " << a.m << " must be >= 0 (argument 3)";
    return fail(TILEMM_STATUS_INVALID_VALUE, os.str());
  }
  if (a.n < 0) {
    os << "n = " << a.n << " must be >= 0 (argument 4)";
    return fail(TILEMM_STATUS_INVALID_VALUE, os.str());
  }
  if (a.k < 0) {
    os << "k = " << a.k << " must be >= 0 (argument 5)";
    return fail(TILEMM_STATUS_INVALID_VALUE, os.str());
  }

  // 8, 10, 13: leading dimensions, checked before any quick return.
  const std::int64_t a_rows = opa == Op::N ? a.m : a.k;
  const char* a_rows_name = opa == Op::N ? "m" : "k";
  if (a.lda < std::max<std::int64_t>(1, a_rows)) {
    os << "lda = " << a.lda << " must be >= max(1, " << a_rows_name << ") = "
       << std::max<std::int64_t>(1, a_rows) << " (argument 8)";
    return fail(TILEMM_STATUS_INVALID_VALUE, os.str());
  }
  const std::int64_t b_rows = opb == Op::N ? a.k : a.n;
  const char* b_rows_name = opb == Op::N ? "k" : "n";
  if (a.ldb < std::max<std::int64_t>(1, b_rows)) {
    os << "ldb = " << a.ldb << " must be >= max(1, " << b_rows_name << ") = "
       << std::max<std::int64_t>(1, b_rows) << " (argument 10)";
    return fail(TILEMM_STATUS_INVALID_VALUE, os.str());
  }
  if (a.ldc < std::max<std::int64_t>(1, a.m)) {
    os << "ldc = " << a.ldc << " must be >= max(1, m) = " << std::max<std::int64_t>(1, a.m)
       << " (argument 13)";
    return fail(TILEMM_STATUS_INVALID_VALUE, os.str());
  }

  if (!a.handle_valid) {
    return fail(TILEMM_STATUS_NOT_INITIALIZED,
                "handle is null or destroyed: create one with tilemmCreate");
  }
  if (a.alpha == nullptr) return fail(TILEMM_STATUS_INVALID_VALUE, "alpha = NULL: alpha must point to a host scalar (argument 6)");
  if (a.beta == nullptr) return fail(TILEMM_STATUS_INVALID_VALUE, "beta = NULL: beta must point to a host scalar (argument 11)");

  // alpha and beta are host values of the compute type's scalar: float for both 32F types.
  const bool scalar_is_float =
      a.compute == TILEMM_COMPUTE_32F || a.compute == TILEMM_COMPUTE_32F_FAST_TF32;
  double alpha = 1.0, beta = 1.0;
  bool alpha_known = false;
  if (scalar_is_float) {
    alpha = double(*static_cast<const float*>(a.alpha));
    beta = double(*static_cast<const float*>(a.beta));
    alpha_known = true;
  }

  // What the call reads and writes decides which pointers must be valid.
  const bool empty_output = a.m == 0 || a.n == 0 || a.batch == 0;
  const bool no_product = a.k == 0 || (alpha_known && alpha == 0.0);
  const bool reads_ab = !empty_output && !no_product;
  const bool touches_c = !empty_output && !(no_product && alpha_known && beta == 1.0);
  if (reads_ab && a.A == nullptr) return fail(TILEMM_STATUS_INVALID_VALUE, "A = NULL: A is read since m, n, k > 0 and alpha != 0 (argument 7)");
  if (reads_ab && a.B == nullptr) return fail(TILEMM_STATUS_INVALID_VALUE, "B = NULL: B is read since m, n, k > 0 and alpha != 0 (argument 9)");
  if (touches_c && a.C == nullptr) return fail(TILEMM_STATUS_INVALID_VALUE, "C = NULL: C is written since m, n > 0 (argument 12)");

  if (a.batch < 0) {
    os << "batchCount = " << a.batch << " must be >= 0";
    return fail(TILEMM_STATUS_INVALID_VALUE, os.str());
  }

  // Element size for the overlap checks; unknown types are refused just below, so an
  // assumed size here only affects which of two errors is reported first.
  const auto elem_of = [](int t) -> std::int64_t {
    switch (t) {
      case CUDA_R_16F: case CUDA_R_16BF: return 2;
      case CUDA_R_64F: return 8;
      default: return 4;
    }
  };
  if (touches_c && a.batch > 1 && strided_batches_overlap(a.m, a.n, a.ldc, a.stride_c, a.batch)) {
    os << "strideC = " << a.stride_c << " makes the outputs of different batch items overlap"
       << " (m = " << a.m << ", n = " << a.n << ", ldc = " << a.ldc << ", batchCount = " << a.batch
       << "); every C_i must be disjoint";
    return fail(TILEMM_STATUS_INVALID_VALUE, os.str());
  }
  if (touches_c && reads_ab) {
    const ByteRange c = batch_range(a.C, a.m, a.n, a.ldc, a.stride_c, a.batch, elem_of(a.c_type));
    const ByteRange ra = batch_range(a.A, a_rows, opa == Op::N ? a.k : a.m, a.lda, a.stride_a,
                                     a.batch, elem_of(a.a_type));
    const ByteRange rb = batch_range(a.B, b_rows, opb == Op::N ? a.n : a.k, a.ldb, a.stride_b,
                                     a.batch, elem_of(a.b_type));
    if (ranges_overlap(c, ra)) return fail(TILEMM_STATUS_INVALID_VALUE, "C overlaps A in memory: the output must not alias an input");
    if (ranges_overlap(c, rb)) return fail(TILEMM_STATUS_INVALID_VALUE, "C overlaps B in memory: the output must not alias an input");
  }

  // Type combinations: the ones with a kernel behind them. A and B share one type;
  // 16-bit inputs accumulate in fp32 and write C in their own type or in fp32; fp32
  // data may go through the TF32 tensor cores when the caller allows it.
  const auto dtype_of = [](int t, DType* out) {
    switch (t) {
      case CUDA_R_32F: *out = DType::F32; return true;
      case CUDA_R_16F: *out = DType::F16; return true;
      case CUDA_R_16BF: *out = DType::BF16; return true;
      default: return false;
    }
  };
  DType ab_type = DType::F32, c_type = DType::F32;
  bool types_ok = a.a_type == a.b_type && dtype_of(a.a_type, &ab_type) && dtype_of(a.c_type, &c_type);
  Compute compute = Compute::F32;
  if (types_ok) {
    if (ab_type == DType::F32) {
      types_ok = c_type == DType::F32 &&
                 (a.compute == TILEMM_COMPUTE_32F || a.compute == TILEMM_COMPUTE_32F_FAST_TF32);
      if (a.compute == TILEMM_COMPUTE_32F_FAST_TF32) compute = Compute::F32_FAST_TF32;
    } else {
      types_ok = (c_type == ab_type || c_type == DType::F32) && a.compute == TILEMM_COMPUTE_32F;
    }
  }
  if (!types_ok) {
    os << "Atype = " << cuda_type_name(a.a_type) << ", Btype = " << cuda_type_name(a.b_type)
       << ", Ctype = " << cuda_type_name(a.c_type) << " with " << compute_name(a.compute)
       << " is not supported; supported: A, B, C in CUDA_R_32F with TILEMM_COMPUTE_32F or "
          "TILEMM_COMPUTE_32F_FAST_TF32; A and B both CUDA_R_16F or both CUDA_R_16BF, C in the "
          "same type or CUDA_R_32F, with TILEMM_COMPUTE_32F";
    return fail(TILEMM_STATUS_NOT_SUPPORTED, os.str());
  }

  GemmPlan plan;
  GemmProblem& p = plan.problem;
  p.opa = opa;
  p.opb = opb;
  p.m = a.m;
  p.n = a.n;
  p.k = a.k;
  p.alpha = alpha;
  p.beta = beta;
  p.A = a.A;
  p.lda = a.lda;
  p.stride_a = a.stride_a;
  p.B = a.B;
  p.ldb = a.ldb;
  p.stride_b = a.stride_b;
  p.C = a.C;
  p.ldc = a.ldc;
  p.stride_c = a.stride_c;
  p.batch = a.batch;
  p.a_type = p.b_type = ab_type;
  p.c_type = c_type;
  p.compute = compute;
  plan.action = !touches_c ? Action::Nothing : (reads_ab ? Action::Multiply : Action::ScaleC);
  return plan;
}

}  // namespace tilemm
