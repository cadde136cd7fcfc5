// Wrappers for programmatic dependent launch (sm_90): a kernel launched with the
// cudaLaunchAttributeProgrammaticStreamSerialization attribute may start while the kernel
// before it in the stream is still running, so its launch and prologue (CTA dispatch,
// barrier setup, tensor-map prefetch, cluster barrier) overlap that kernel's tail. Code
// built for GPUs before sm_90, which launch nothing early, leaves both instructions out.
// PTX ISA, "griddepcontrol".
#pragma once

#include <cuda_runtime.h>

namespace tilemm::ptx {

// griddepcontrol.wait: blocks until every grid this one depends on has completed and its
// memory operations are visible. Before it, a dependent kernel must not touch global
// memory the previous kernel may write or read. Without the launch attribute there is
// nothing to wait for and it returns at once.
__device__ __forceinline__ void griddepcontrol_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;\n" ::: "memory");
#endif
}

// griddepcontrol.launch_dependents: this CTA no longer holds back the launch of the next
// kernel (which launches once every CTA has said so or exited); it still waits for this
// grid's completion at its own griddepcontrol.wait.
__device__ __forceinline__ void griddepcontrol_launch_dependents() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;\n" ::: "memory");
#endif
}

}  // namespace tilemm::ptx
