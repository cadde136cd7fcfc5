// One register_<family>() per file in src/kernels/, called by register_all_kernels().
#pragma once

namespace tilemm {

class Registry;

void register_naive(Registry& r);
void register_smem_tiled(Registry& r);
void register_blocktile1d(Registry& r);
void register_blocktile2d(Registry& r);
void register_vectorized(Registry& r);
void register_conflict_free(Registry& r);
void register_warptile(Registry& r);
void register_cp_async(Registry& r);
void register_double_buffer(Registry& r);
void register_skinny_splitk(Registry& r);
void register_tma_ffma(Registry& r);
void register_mma_sync(Registry& r);
void register_wgmma(Registry& r);
void register_wgmma_rs(Registry& r);
void register_skinny_mma(Registry& r);

}  // namespace tilemm
