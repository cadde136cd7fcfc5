// The Hopper families' persistent-grid order without a GPU (kernels/wgmma_common.cuh): how
// many CTAs a persistent grid launches, the serpentine tile order, and the k-block order
// of a work item. The producer and the consumers of a CTA walk the same items, so what has
// to hold is that every tile is visited exactly once and every k-block loaded exactly once.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <utility>

#include "kernels/wgmma_common.cuh"

namespace {

using tilemm::kernels::k_block_in_round_order;
using tilemm::kernels::kGroupRows;
using tilemm::kernels::persistent_grid_size;
using tilemm::kernels::wgmma_tile_coordinates;

TEST(PersistentGrid, FewestCtasForTheSameRounds) {
  // 4096^3 bf16 on an H200: 256 cluster tiles, 66 cluster slots -> 4 rounds on 64 clusters.
  EXPECT_EQ(persistent_grid_size(256, 66), 64);
  // 8192^3: 1024 cluster tiles, 15.5 rounds -> 16 rounds on 64.
  EXPECT_EQ(persistent_grid_size(1024, 66), 64);
  // tf32 4096^3 on wgmma_rs: 512 tiles on 132 SMs -> 4 rounds on 128.
  EXPECT_EQ(persistent_grid_size(512, 132), 128);
  // A little over one round: two rounds on half the SMs, not 132 with 8 of them busy twice.
  EXPECT_EQ(persistent_grid_size(140, 132), 70);
  // Whole rounds and single rounds keep every slot they can use.
  EXPECT_EQ(persistent_grid_size(264, 132), 132);
  EXPECT_EQ(persistent_grid_size(100, 132), 100);
  EXPECT_EQ(persistent_grid_size(1, 132), 1);
  // No items launch nothing; a device that reports no slot still gets one CTA per round.
  EXPECT_EQ(persistent_grid_size(0, 132), 0);
  EXPECT_EQ(persistent_grid_size(5, 0), 1);
  // The rounds never grow.
  for (std::int64_t slots : {1, 7, 66, 132}) {
    for (std::int64_t work = 1; work <= 2000; ++work) {
      const std::int64_t grid = persistent_grid_size(work, slots);
      const std::int64_t full = work < slots ? work : slots;
      ASSERT_LE(grid, full);
      ASSERT_EQ((work + grid - 1) / grid, (work + full - 1) / full) << work << " items on " << slots;
    }
  }
}

TEST(PersistentGrid, SerpentineOrderVisitsEveryTileOnce) {
  for (std::int64_t tiles_m : {1, 5, 8, 13, 16, 17, 33}) {
    for (std::int64_t tiles_n : {1, 2, 7, 16}) {
      for (std::int64_t batch : {1, 3}) {
        std::set<std::pair<std::int64_t, std::int64_t>> seen[3];
        for (std::int64_t t = 0; t < tiles_m * tiles_n * batch; ++t) {
          const auto tile = wgmma_tile_coordinates(t, tiles_m, tiles_n);
          ASSERT_LT(tile.batch, batch);
          ASSERT_LT(tile.tm, tiles_m);
          ASSERT_LT(tile.tn, tiles_n);
          ASSERT_TRUE(seen[tile.batch].insert({tile.tm, tile.tn}).second) << "tile " << t << " visited twice";
        }
        for (std::int64_t b = 0; b < batch; ++b) EXPECT_EQ(std::int64_t(seen[b].size()), tiles_m * tiles_n);
      }
    }
  }
}

TEST(PersistentGrid, OddTileGroupsWalkTheirColumnsBackwards) {
  // 16 x 16 tiles: group 0 (rows 0-7) walks columns 0..15, group 1 (rows 8-15) 15..0, so
  // the tile after the last of group 0 (column 15) is in column 15 again.
  constexpr std::int64_t kPerGroup = kGroupRows * 16;
  EXPECT_EQ(wgmma_tile_coordinates(0, 16, 16).tn, 0);
  EXPECT_EQ(wgmma_tile_coordinates(kPerGroup - 1, 16, 16).tn, 15);
  EXPECT_EQ(wgmma_tile_coordinates(kPerGroup, 16, 16).tn, 15);
  EXPECT_EQ(wgmma_tile_coordinates(kPerGroup, 16, 16).tm, kGroupRows);
  EXPECT_EQ(wgmma_tile_coordinates(2 * kPerGroup - 1, 16, 16).tn, 0);
}

TEST(PersistentGrid, OddRoundsLoadEveryKBlockOnceBackwards) {
  for (int begin : {0, 3}) {
    for (int end = begin + 1; end <= begin + 9; ++end) {
      for (std::int64_t round : {0, 1, 2, 7}) {
        std::set<int> loaded;
        for (int kb = begin; kb < end; ++kb) {
          const int k = k_block_in_round_order(kb, begin, end, round);
          ASSERT_GE(k, begin);
          ASSERT_LT(k, end);
          loaded.insert(k);
        }
        EXPECT_EQ(int(loaded.size()), end - begin);
        EXPECT_EQ(k_block_in_round_order(begin, begin, end, round), round % 2 == 1 ? end - 1 : begin);
      }
    }
  }
}

}  // namespace
