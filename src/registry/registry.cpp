#include "registry/registry.hpp"

#include <sstream>
#include <stdexcept>

#include <cuda_runtime_api.h>

#include "registry/families.hpp"

namespace tilemm {

bool query_device(int device, DeviceInfo* out) {
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky-free error so later calls see a clean state
    return false;
  }
  out->device = device;
  out->cc_major = prop.major;
  out->cc_minor = prop.minor;
  out->sm_count = prop.multiProcessorCount;
  out->smem_per_block_optin = static_cast<std::int64_t>(prop.sharedMemPerBlockOptin);
  int current = -1;
  out->clusters_of_four =
      cudaGetDevice(&current) == cudaSuccess && current == device ? resident_clusters_of_four(*out) : 0;
  return true;
}

void Registry::add(KernelEntry entry) {
  if (find(entry.name) != nullptr) {
    throw std::logic_error("tilemm registry: duplicate kernel name " + entry.name);
  }
  entries_.push_back(std::move(entry));
}

std::vector<std::string> KernelEntry::dtype_list() const {
  std::vector<std::string> out;
  std::stringstream ss(dtypes);
  std::string item;
  while (std::getline(ss, item, ',')) {
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

bool KernelEntry::computes(const std::string& dtype) const {
  for (const auto& d : dtype_list())
    if (d == dtype) return true;
  return false;
}

const KernelEntry* Registry::find(const std::string& name) const {
  for (const auto& e : entries_) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

const KernelEntry* Registry::choose(const GemmProblem& p, const DeviceInfo& dev,
                                    std::string* why) const {
  const KernelEntry* best = nullptr;
  double best_score = 0.0;
  for (const auto& e : entries_) {
    if (!e.auto_eligible || !e.can_implement(p, dev).empty()) continue;
    const double score = e.auto_score ? e.auto_score(p, dev) : double(e.auto_priority);
    if (best == nullptr || score > best_score) {
      best = &e;
      best_score = score;
    }
  }
  if (best == nullptr && why != nullptr) {
    // Only a refusal needs the reasons: collected in a second pass, not on every call.
    std::ostringstream reasons;
    for (const auto& e : entries_)
      if (e.auto_eligible) reasons << e.name << ": " << e.can_implement(p, dev) << "; ";
    *why = "no registered kernel can run this problem: " + reasons.str();
  }
  return best;
}

GemmProblem AutoChoiceCache::key_of(const GemmProblem& p) {
  const auto alignment = [](const void* ptr) {
    return reinterpret_cast<void*>(reinterpret_cast<std::uintptr_t>(ptr) % 256);
  };
  GemmProblem key = p;
  key.A = alignment(p.A);
  key.B = alignment(p.B);
  key.C = alignment(p.C);
  return key;
}

const KernelEntry* AutoChoiceCache::find(const GemmProblem& p) const {
  const GemmProblem key = key_of(p);
  for (int i = 0; i < kSlots; ++i)
    if (entries_[i] != nullptr && keys_[i] == key) return entries_[i];
  return nullptr;
}

void AutoChoiceCache::remember(const GemmProblem& p, const KernelEntry* entry) {
  keys_[next_] = key_of(p);
  entries_[next_] = entry;
  next_ = (next_ + 1) % kSlots;
}

const Registry& registry() {
  static const Registry instance = [] {
    Registry r;
    register_all_kernels(r);
    return r;
  }();
  return instance;
}

void register_all_kernels(Registry& r) {
  // Ladder order: docs/ladder.md has one section per family, in this order.
  register_naive(r);
  register_smem_tiled(r);
  register_blocktile1d(r);
  register_blocktile2d(r);
  register_vectorized(r);
  register_conflict_free(r);
  register_warptile(r);
  register_cp_async(r);
  register_double_buffer(r);
  register_skinny_splitk(r);
  register_tma_ffma(r);
  register_mma_sync(r);
  register_wgmma(r);
  register_wgmma_rs(r);
  register_skinny_mma(r);
}

double wave_efficiency(std::int64_t tiles, std::int64_t resident_blocks) {
  if (tiles <= 0 || resident_blocks <= 0) return 0.0;
  const std::int64_t waves = (tiles + resident_blocks - 1) / resident_blocks;
  return double(tiles) / double(waves * resident_blocks);
}

std::string require_fp32(const GemmProblem& p) {
  if (p.a_type != DType::F32 || p.b_type != DType::F32 || p.c_type != DType::F32 ||
      p.compute != Compute::F32) {
    return "supports only fp32 A, B, C with fp32 arithmetic";
  }
  return {};
}

std::string require_compute_capability(const DeviceInfo& dev, int min_cc) {
  if (dev.compute_capability() < min_cc) {
    std::ostringstream os;
    os << "needs compute capability " << min_cc / 10 << "." << min_cc % 10 << ", device has "
       << dev.cc_major << "." << dev.cc_minor;
    return os.str();
  }
  return {};
}

}  // namespace tilemm
