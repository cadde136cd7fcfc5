// The kernel registry: the ONE list of kernels that the API's dispatch, tilemm-bench,
// the tests and the docs check all read.
//
// Each kernel family file (src/kernels/<family>.cu) defines register_<family>(Registry&),
// and register_all_kernels() calls them in ladder order. Registration is explicit, so the
// order is the ladder's and nothing depends on static-initialization order.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "core/problem.hpp"

namespace tilemm {

// What a kernel needs to know about the GPU it would run on.
struct DeviceInfo {
  int device = -1;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  std::int64_t smem_per_block_optin = 0;  // bytes, the opt-in maximum
  // Clusters of four blocks, one block per SM, the GPU holds at once (0: unknown, or before
  // sm_90); see resident_clusters_of_four.
  int clusters_of_four = 0;
  int compute_capability() const { return cc_major * 10 + cc_minor; }
};

// Reads the properties of `device` (clusters_of_four only where it is the current device);
// false when it cannot (no device, bad ordinal).
bool query_device(int device, DeviceInfo* out);

// DeviceInfo::clusters_of_four of the current device, dev its other properties (0 where the
// occupancy calculator does not answer).
int resident_clusters_of_four(const DeviceInfo& dev);

// The launch shape of a kernel's representative instantiation (NN), for the bench's
// registers / shared memory / occupancy columns.
struct KernelResources {
  const void* function = nullptr;  // a __global__ function, for cudaFuncGetAttributes
  int threads_per_block = 0;
  std::int64_t dynamic_smem_bytes = 0;
};

struct KernelEntry {
  std::string name;         // stable, selectable: "smem_tiled.32"
  std::string family;       // the file it lives in: "smem_tiled"
  int ladder_step = 0;      // position in docs/ladder.md
  std::string summary;      // one line: the technique
  std::string dtypes;       // "fp32" (A, B, C and arithmetic); a comma list: "fp16, bf16"
  int min_compute_capability = 80;
  std::string requirements;  // alignment and shape requirements in words ("none")
  // Global-memory arithmetic intensity of the design (FLOP per byte moved from DRAM/L2
  // into the SM by the kernel's own loads), the CGMA ratio of the classic material x 4.
  double arithmetic_intensity = 0.0;
  // Considered by "auto"; the classic specimens (naive, bank_conflict) are not.
  bool auto_eligible = false;
  // Higher wins among auto-eligible kernels that can implement a problem.
  int auto_priority = 0;
  // Optional shape-aware estimate that replaces auto_priority when set (same scale:
  // higher wins), e.g. a tile configuration's measured speed times its wave efficiency.
  std::function<double(const GemmProblem&, const DeviceInfo&)> auto_score;
  // "" when the kernel computes this problem correctly on this device, else the reason.
  std::function<std::string(const GemmProblem&, const DeviceInfo&)> can_implement;
  // Enqueues the product on the stream; returns the launch error, if any.
  std::function<cudaError_t(const GemmProblem&, cudaStream_t)> launch;
  std::function<KernelResources()> resources;

  // The dtypes field as a list ("fp32", "tf32", "fp16", "bf16"), and whether it names one.
  std::vector<std::string> dtype_list() const;
  bool computes(const std::string& dtype) const;
};

class Registry {
 public:
  void add(KernelEntry entry);
  const std::vector<KernelEntry>& entries() const { return entries_; }
  const KernelEntry* find(const std::string& name) const;
  // The auto choice for a problem, or nullptr (with the reasons in *why) if none fits.
  const KernelEntry* choose(const GemmProblem& p, const DeviceInfo& dev, std::string* why) const;

 private:
  std::vector<KernelEntry> entries_;
};

// auto's last choices on one handle. A choice depends on what can_implement and
// auto_score read: every field of the problem, but of its pointers only their alignment
// (never more than 16 bytes asked for). A call that repeats one of the last kSlots
// problems skips asking every entry (string building and scores for ~90 entries, about
// 1 us of host time per call).
class AutoChoiceCache {
 public:
  // The remembered entry for a problem like p, or nullptr.
  const KernelEntry* find(const GemmProblem& p) const;
  void remember(const GemmProblem& p, const KernelEntry* entry);

 private:
  // p with each pointer replaced by its address mod 256.
  static GemmProblem key_of(const GemmProblem& p);
  static constexpr int kSlots = 8;
  GemmProblem keys_[kSlots];
  const KernelEntry* entries_[kSlots] = {};
  int next_ = 0;  // the slot the next new problem replaces (oldest first)
};

// The process-wide registry, filled once on first use.
const Registry& registry();

void register_all_kernels(Registry& r);

// The fraction of the GPU a grid of `tiles` equal blocks keeps busy when
// `resident_blocks` fit at once: the last wave is partial, so 1.5 waves of work take
// 2 waves of time. The shape-aware auto scores are built on it.
double wave_efficiency(std::int64_t tiles, std::int64_t resident_blocks);

// Common can_implement pieces.
std::string require_fp32(const GemmProblem& p);
std::string require_compute_capability(const DeviceInfo& dev, int min_cc);

}  // namespace tilemm
