// Shared-buffer accounting in cells: reserved, shared (static and dynamic), headroom,
// egress limits for lossy queues, XOFF/XON points, and every drop with its reason.
#include "switch/mmu.h"

#include <gtest/gtest.h>

namespace rtb::sw {
namespace {

// Two ports, 256 B cells, 1 MB buffer, per-PG headroom (no shared headroom pool).
// PG3 lossless: static_th 100,000 B (391 cells), headroom 64,000 B (250 cells),
// xon_offset 9,216 B (36 cells). PG0 lossy: dynamic_th 0 (alpha 1).
SwitchConfig small_config() {
  SwitchConfig c = tuning_guide_config(2, Rate::gbps(100));
  c.pool.size = Bytes::mb(1);
  c.pool.xoff = Bytes(0);
  c.pfc_enable = 1u << 3;
  c.pg[3] = PgProfile{Bytes(0), ThresholdMode::kStatic, Bytes(100'000), 0, Bytes(64'000), Bytes(9'216)};
  c.pg[0].mode = ThresholdMode::kDynamic;
  c.pg[0].dynamic_th = 0;
  return c;
}

TEST(Mmu, LayoutSubtractsPerPgHeadroom) {
  const Mmu mmu(small_config());
  EXPECT_EQ(mmu.layout().total_cells, 3'906u);  // 1,000,000 / 256
  EXPECT_EQ(mmu.layout().headroom_cells, 500u);  // 2 ports x 250
  EXPECT_EQ(mmu.layout().shared_cells, 3'406u);
}

TEST(Mmu, LosslessFillsSharedToTheStaticLimitThenHeadroomThenDrops) {
  Mmu mmu(small_config());
  // 1,000-byte frames take 4 cells: 97 frames = 388 cells fit under the 391-cell limit.
  for (int i = 0; i < 97; ++i) {
    ASSERT_TRUE(mmu.admit(0, 3, 1, 3, 1'000).admitted);
    ASSERT_FALSE(mmu.xoff_reached(0, 3)) << i;
  }
  ASSERT_TRUE(mmu.admit(0, 3, 1, 3, 1'000).admitted);  // 392 > 391: into headroom
  EXPECT_TRUE(mmu.xoff_reached(0, 3));
  EXPECT_EQ(mmu.pg_usage(0, 3).headroom_cells, 4u);
  // Headroom holds 250 cells: 62 frames in all, the 63rd is dropped as lossless loss.
  for (int i = 1; i < 62; ++i) ASSERT_TRUE(mmu.admit(0, 3, 1, 3, 1'000).admitted) << i;
  const Admission a = mmu.admit(0, 3, 1, 3, 1'000);
  EXPECT_FALSE(a.admitted);
  EXPECT_EQ(a.reason, DropReason::kHeadroomFull);
  EXPECT_EQ(mmu.pg_usage(0, 3).headroom_watermark_cells, 248u);
  EXPECT_EQ(mmu.queue_cells(1, 3), (97u + 62u) * 4u);
}

TEST(Mmu, ReleasesHeadroomFirstAndReachesXonAtXoffMinusOffset) {
  Mmu mmu(small_config());
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(mmu.admit(0, 3, 1, 3, 1'000).admitted);
  EXPECT_EQ(mmu.pg_usage(0, 3).headroom_cells, 12u);  // frames 98..100
  for (int i = 0; i < 3; ++i) mmu.release(0, 3, 1, 3, 1'000);
  EXPECT_EQ(mmu.pg_usage(0, 3).headroom_cells, 0u);
  EXPECT_EQ(mmu.pg_usage(0, 3).used_cells, 388u);
  // XON point: 391 - 36 = 355 cells. 388 -> 356 after 8 frames (not yet), 352 after 9.
  for (int i = 0; i < 8; ++i) mmu.release(0, 3, 1, 3, 1'000);
  EXPECT_FALSE(mmu.xon_reached(0, 3));
  mmu.release(0, 3, 1, 3, 1'000);
  EXPECT_TRUE(mmu.xon_reached(0, 3));
  for (int i = 0; i < 88; ++i) mmu.release(0, 3, 1, 3, 1'000);
  EXPECT_EQ(mmu.pool().used_cells, 0u);
  EXPECT_EQ(mmu.pool().shared_cells, 0u);
  EXPECT_EQ(mmu.pool().watermark_cells, 400u);
  EXPECT_EQ(mmu.pg_usage(0, 3).shared_watermark_cells, 388u);
}

TEST(Mmu, ReservedCellsComeBeforeShared) {
  SwitchConfig c = small_config();
  c.pg[3].size = Bytes(2'048);  // 8 cells reserved
  Mmu mmu(c);
  ASSERT_TRUE(mmu.admit(0, 3, 1, 3, 1'000).admitted);
  ASSERT_TRUE(mmu.admit(0, 3, 1, 3, 1'000).admitted);
  EXPECT_EQ(mmu.pool().shared_cells, 0u);
  ASSERT_TRUE(mmu.admit(0, 3, 1, 3, 1'000).admitted);
  EXPECT_EQ(mmu.pool().shared_cells, 4u);
  for (int i = 0; i < 3; ++i) mmu.release(0, 3, 1, 3, 1'000);
  EXPECT_EQ(mmu.pool().used_cells, 0u);
}

TEST(Mmu, LossyDynamicThresholdSettlesAtAlphaOverOnePlusAlpha) {
  SwitchConfig c = small_config();
  c.pool.lossy_size = Bytes(0);  // one pool: the lossy PG measures the 3,406 shared cells
  Mmu mmu(c);
  int admitted = 0;
  Admission a;
  while ((a = mmu.admit(0, 0, 1, 0, 1'024)).admitted) ++admitted;
  EXPECT_EQ(a.reason, DropReason::kIngressLimit);
  // alpha = 1: a PG alone stops near shared / 2 = 1,703 cells; 4-cell frames.
  // The egress queue 0 limit (dynamic_th 3, 8 x free) never binds first here.
  const uint64_t used = mmu.pg_usage(0, 0).used_cells;
  EXPECT_GE(used, 1'700u);
  EXPECT_LE(used, 1'708u);
  EXPECT_GT(used + 4, mmu.shared_limit_cells(0));
  for (int i = 0; i < admitted; ++i) mmu.release(0, 0, 1, 0, 1'024);
  EXPECT_EQ(mmu.pool().used_cells, 0u);
}

TEST(Mmu, LossyQueueDropsAtItsEgressLimit) {
  SwitchConfig c = small_config();
  c.egress[0] = EgressProfile{ThresholdMode::kStatic, Bytes(10'000), 0};  // 40 cells
  Mmu mmu(c);
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(mmu.admit(0, 0, 1, 0, 1'000).admitted);
  const Admission a = mmu.admit(1, 0, 1, 0, 1'000);
  EXPECT_FALSE(a.admitted);
  EXPECT_EQ(a.reason, DropReason::kEgressLimit);
  // Another queue of the same port is unaffected.
  EXPECT_TRUE(mmu.admit(0, 0, 1, 1, 1'000).admitted);
}

TEST(Mmu, SharedHeadroomPoolBoundsTheSumOfHeadroom) {
  SwitchConfig c = small_config();
  c.pool.xoff = Bytes(10'240);  // 40 cells shared by every lossless PG
  c.pg[3].static_th = Bytes(4'096);  // 16 cells
  Mmu mmu(c);
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(mmu.admit(0, 3, 1, 3, 1'000).admitted);  // shared
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(mmu.admit(0, 3, 1, 3, 1'000).admitted);  // 20 cells
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(mmu.admit(1, 3, 0, 3, 1'000).admitted);
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(mmu.admit(1, 3, 0, 3, 1'000).admitted);  // 40 cells
  EXPECT_EQ(mmu.admit(1, 3, 0, 3, 1'000).reason, DropReason::kHeadroomFull);
  EXPECT_EQ(mmu.pool().headroom_cells, 40u);
}

// --- the lossy pool (BUFFER_POOL lossy_size) -----------------------------------------

// small_config with a 64,000 B lossy pool (250 cells) and 4 reserved cells on lossy PG0;
// PG3's static_th above the shared buffer, so that lossless frames can fill it.
SwitchConfig split_config(Bytes lossy_size = Bytes(64'000)) {
  SwitchConfig c = small_config();
  c.pool.lossy_size = lossy_size;
  c.pg[0].size = Bytes(1'024);
  c.pg[3].static_th = Bytes::mb(2);
  return c;
}

// Fills the lossless shared cells from port 0 PG3 toward port 1; returns the frames taken.
int fill_lossless(Mmu& mmu) {
  int n = 0;
  while (mmu.pool().shared_cells + 4 <= mmu.layout().shared_cells) {
    if (!mmu.admit(0, 3, 1, 3, 1'000).admitted) break;
    ++n;
  }
  return n;
}

TEST(Mmu, LayoutReportsLosslessAndLossyPoolsSeparately) {
  const Mmu mmu(split_config());
  const BufferLayout& l = mmu.layout();
  EXPECT_EQ(l.total_cells, 3'906u);
  EXPECT_EQ(l.reserved_cells, 0u);  // PG0's reserved cells come out of the lossy pool
  EXPECT_EQ(l.shared_cells, 3'406u);
  EXPECT_TRUE(l.lossy_pool);
  EXPECT_EQ(l.lossy_total_cells, 250u);
  EXPECT_EQ(l.lossy_reserved_cells, 8u);  // 2 ports x 4 cells
  EXPECT_EQ(l.lossy_shared_cells, 242u);
  EXPECT_EQ(l.capacity_cells(), 4'156u);
  // Without the lossy pool the reserved cells are in the one pool, as before.
  const BufferLayout one = buffer_layout(split_config(Bytes(0)));
  EXPECT_FALSE(one.lossy_pool);
  EXPECT_EQ(one.reserved_cells, 8u);
  EXPECT_EQ(one.shared_cells, 3'398u);
  EXPECT_EQ(one.capacity_cells(), 3'906u);
}

TEST(Mmu, FullLosslessPoolDoesNotBlockLossyFrames) {
  Mmu mmu(split_config());
  fill_lossless(mmu);
  ASSERT_TRUE(mmu.admit(0, 3, 1, 3, 1'000).admitted);  // into headroom
  ASSERT_TRUE(mmu.xoff_reached(0, 3));
  // A CNP-like frame (TC 6) from port 1 to port 0: one cell of the lossy pool.
  const Admission a = mmu.admit(1, 6, 0, 6, 74);
  EXPECT_TRUE(a.admitted);
  EXPECT_EQ(mmu.lossy_pool().used_cells, 1u);
  EXPECT_EQ(mmu.lossy_pool().shared_cells, 1u);
  EXPECT_EQ(mmu.pool().shared_cells, mmu.layout().shared_cells - 2);  // 3,404 of 3,406: 851 frames
  mmu.release(1, 6, 0, 6, 74);
  EXPECT_EQ(mmu.lossy_pool().used_cells, 0u);
  EXPECT_EQ(mmu.lossy_pool().watermark_cells, 1u);
}

TEST(Mmu, WithoutALossyPoolAFullSharedBufferRefusesLossyFrames) {
  Mmu mmu(split_config(Bytes(0)));
  fill_lossless(mmu);
  ASSERT_TRUE(mmu.admit(0, 3, 1, 3, 1'000).admitted);
  // 2 cells free: lossy queue 6's limit is 8 x 2 = 16 cells, so a CNP still passes; a
  // frame more and the shared buffer is full: 8 x 0 = 0.
  ASSERT_TRUE(mmu.admit(0, 3, 1, 3, 400).admitted);
  EXPECT_EQ(mmu.pool().shared_cells, mmu.layout().shared_cells);
  const Admission a = mmu.admit(1, 6, 0, 6, 74);
  EXPECT_FALSE(a.admitted);
  EXPECT_EQ(a.reason, DropReason::kEgressLimit);
  EXPECT_EQ(mmu.lossy_pool().watermark_cells, 0u);
}

TEST(Mmu, LossyTrafficFillingItsPoolLeavesTheLosslessPoolAlone) {
  SwitchConfig c = split_config();
  c.pg[0].dynamic_th = 8;  // alpha 256: one PG can take nearly the whole lossy pool
  c.egress[0] = EgressProfile{ThresholdMode::kStatic, Bytes::mb(1), 0};  // egress never binds
  Mmu mmu(c);
  int admitted = 0;
  Admission a;
  while ((a = mmu.admit(0, 0, 1, 0, 1'000)).admitted) ++admitted;
  EXPECT_EQ(a.reason, DropReason::kIngressLimit);
  // 4 reserved cells + 240 of the 242 shared (60 frames); the 61st needs 4 of 2 left.
  EXPECT_EQ(admitted, 61);
  EXPECT_EQ(mmu.lossy_pool().used_cells, 244u);
  EXPECT_EQ(mmu.pool().used_cells, 0u);
  // Lossless frames still find the whole lossless pool; no XOFF.
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(mmu.admit(1, 3, 0, 3, 1'000).admitted);
  EXPECT_FALSE(mmu.xoff_reached(1, 3));
  EXPECT_EQ(mmu.pool().shared_cells, 40u);
  EXPECT_EQ(mmu.lossy_pool().watermark_cells, 244u);
}

}  // namespace
}  // namespace rtb::sw
