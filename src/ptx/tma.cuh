// Wrappers for the Tensor Memory Accelerator, the bulk tensor copy engine (sm_90).
// PTX ISA, "Data Movement and Conversion Instructions: cp.async.bulk.tensor" and
// "prefetch.tensormap"; the tensor map is built on the host by cuTensorMapEncodeTiled.
//
// One instruction, issued by one thread, copies a whole box (here up to 64 x 256
// elements) of a 3-D tensor (columns, rows, batch) into shared memory, applying the
// tensor map's swizzle, filling elements outside the tensor with zeros, and reporting
// the bytes it wrote to an mbarrier (complete_tx). Borders need no code in the kernel.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

namespace tilemm::ptx {

// prefetch.tensormap [map]: brings the tensor map (a kernel parameter) into the cache
// before the first copy needs it.
__device__ __forceinline__ void prefetch_tensormap(const void* tensor_map) {
  asm volatile("prefetch.tensormap [%0];\n" ::"l"(reinterpret_cast<std::uint64_t>(tensor_map)) : "memory");
}

// cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
//   [dst], [map, {x, y, z}], [bar]
// x is the contiguous coordinate. dst must be 128-byte aligned (1024 for 128-byte swizzle).
__device__ __forceinline__ void cp_async_bulk_tensor_3d_global_to_shared(unsigned dst, const void* tensor_map,
                                                                         int x, int y, int z, unsigned bar) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], "
      "[%5];\n" ::"r"(dst),
      "l"(reinterpret_cast<std::uint64_t>(tensor_map)), "r"(x), "r"(y), "r"(z), "r"(bar)
      : "memory");
}

// The same with .multicast::cluster: the box lands at the same shared-memory offset in
// every CTA of the cluster named in cta_mask, and each one's mbarrier at `bar`'s
// offset receives the bytes it got. Two CTAs that need the same tile load half each.
__device__ __forceinline__ void cp_async_bulk_tensor_3d_global_to_shared_multicast(unsigned dst,
                                                                                   const void* tensor_map, int x,
                                                                                   int y, int z, unsigned bar,
                                                                                   unsigned short cta_mask) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%0], "
      "[%1, {%2, %3, %4}], [%5], %6;\n" ::"r"(dst),
      "l"(reinterpret_cast<std::uint64_t>(tensor_map)), "r"(x), "r"(y), "r"(z), "r"(bar), "h"(cta_mask)
      : "memory");
}

// cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group [map, {x, y, z}], [src]:
// the reverse direction, shared memory to the tensor, one box; elements outside the
// tensor are not written (the borders clip themselves). Completion is tracked per
// thread in bulk groups (commit / wait below), not on an mbarrier.
__device__ __forceinline__ void cp_async_bulk_tensor_3d_shared_to_global(const void* tensor_map, int x, int y,
                                                                         int z, unsigned src) {
  asm volatile(
      "cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group [%0, {%1, %2, %3}], [%4];\n" ::"l"(
          reinterpret_cast<std::uint64_t>(tensor_map)),
      "r"(x), "r"(y), "r"(z), "r"(src)
      : "memory");
}

// cp.async.bulk.commit_group: closes this thread's group of bulk copies issued so far.
__device__ __forceinline__ void cp_async_bulk_commit_group() {
  asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
}

// cp.async.bulk.wait_group.read N: waits until at most N of this thread's bulk groups
// still read their shared-memory source (the buffer may then be overwritten).
template <int N>
__device__ __forceinline__ void cp_async_bulk_wait_group_read() {
  asm volatile("cp.async.bulk.wait_group.read %0;\n" ::"n"(N) : "memory");
}

// cp.async.bulk.wait_group N: waits until at most N bulk groups are incomplete (their
// writes to global memory done).
template <int N>
__device__ __forceinline__ void cp_async_bulk_wait_group() {
  asm volatile("cp.async.bulk.wait_group %0;\n" ::"n"(N) : "memory");
}

// fence.proxy.async.shared::cta: orders this thread's ordinary shared-memory writes
// before later reads of them by the async proxy (the TMA engine).
__device__ __forceinline__ void fence_proxy_async_shared_cta() {
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

}  // namespace tilemm::ptx
