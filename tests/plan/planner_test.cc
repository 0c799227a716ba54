// rocetb plan's arithmetic against hand-computed examples (reference §3.2 and the sources
// it cites), worked out in the comments.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "plan/fabric.h"
#include "plan/planner.h"

namespace rtb::plan {
namespace {

Plan plan_of(Fabric f, uint32_t oversubscribe = 1) {
  auto p = make_plan(switch_config(f), PlanOptions{oversubscribe, 0});
  EXPECT_TRUE(p.ok()) << (p.ok() ? "" : p.error().message);
  return std::move(p).value();
}

Fabric at(Rate rate) {
  Fabric f;  // 7 m, MTU 9216, 32 MB, lossless 3,4, 32 ports, 256 B cells
  f.rate = rate;
  return f;
}

// NVIDIA mlx5 calculate_xoff, integer form, 7 m, MTU 9216 (reference §3.2 examples):
//   (301 + 216 x 7 / 100) = 301 + 15 = 316;  272 x 9216 / 100 = 25067
//   25G: speed floored at 40G: 316 x 40 + 25067 = 37707
//   100G: 316 x 100 + 25067 = 56667;  400G: 316 x 400 + 25067 = 151467
TEST(Planner, NvidiaFormulaMatchesTheReferenceExamples) {
  EXPECT_EQ(plan_of(at(Rate::gbps(25))).need.mlx5, Bytes(37'707));
  EXPECT_EQ(plan_of(at(Rate::gbps(100))).need.mlx5, Bytes(56'667));
  EXPECT_EQ(plan_of(at(Rate::gbps(400))).need.mlx5, Bytes(151'467));
}

// SONiC buffer_headroom_mellanox.lua, 7 m, MTUs 9216, no gearbox, no small packets:
//   xoff = 9216 + (9216 + cable + quanta x 64), rounded up to 1024 B, with
//   cable = 2 x 7 x speed_Mbps x 1e9 / 198e6 / 8192:
//   25G:  cable 215.78, quanta 80 (5120 B):  23767.78 -> 23768 -> 24 x 1024 = 24576
//   100G: cable 863.19, quanta 394 (25216 B): 44511.19 -> 44512 -> 44 x 1024 = 45056
//   400G: cable 3452.77, quanta 905 (57920 B): 79804.77 -> 79805 -> 78 x 1024 = 79872
TEST(Planner, SonicFormulaByHand) {
  EXPECT_EQ(plan_of(at(Rate::gbps(25))).need.sonic, Bytes(24'576));
  EXPECT_EQ(plan_of(at(Rate::gbps(100))).need.sonic, Bytes(45'056));
  EXPECT_EQ(plan_of(at(Rate::gbps(400))).need.sonic, Bytes(79'872));
}

// First principles (lib/switch/headroom.h terms 1-5), 7 m = 35 ns one way:
//   25G:  9240 + 84 + 218 (2 x 35 ns x 3.125 B/ns, whole bytes) + 5120 + 9240 = 23902
//         -> 94 cells of 256 = 24064
//   100G: 9240 + 84 + 875 + 25216 + 9240 = 44655 -> 175 cells = 44800
//   400G: 9240 + 84 + 3500 + 57920 + 9240 = 79984 -> 313 cells = 80128
// Within a cell or two of SONiC's, which counts the same frames and response time; mlx5's
// is a NIC's buffer with a fixed 301 B per Gb/s of its own pipeline, larger by design.
TEST(Planner, FirstPrinciplesNeedByHand) {
  EXPECT_EQ(plan_of(at(Rate::gbps(25))).need.need, Bytes(24'064));
  EXPECT_EQ(plan_of(at(Rate::gbps(100))).need.need, Bytes(44'800));
  EXPECT_EQ(plan_of(at(Rate::gbps(400))).need.need, Bytes(80'128));
}

// Every frame in the headroom may be a minimum frame (SONiC's stock LOSSLESS_TRAFFIC_PATTERN,
// small_packet_percentage 100), 100G, 7 m, 256 B cells:
//   first principles: a 60 B frame takes one 256 B cell for 84 B on the wire, x 256/84:
//     44655 x 3.047619 = 136091.4 -> 136092 -> 532 cells = 136192
//   SONiC: cell_occupancy = 256 / 64 = 4: 9216 + (9216 + 863.19 + 25216) x 4 = 150396.77
//     -> 150397 -> 147 x 1024 = 150528 (its 64 B packet has no preamble and gap)
// Half small frames: 0.5 x 9216/9240 + 0.5 x 256/84 = 2.0225108; 44655 x that = 90315.2
//   -> 353 cells = 90368.
TEST(Planner, SmallPacketsMultiplyTheHeadroomByTheirCellRounding) {
  Plan p = make_plan(switch_config(at(Rate::gbps(100))), PlanOptions{1, 100}).value();
  EXPECT_NEAR(p.need.cell_factor, 256.0 / 84.0, 1e-12);
  EXPECT_EQ(p.need.need, Bytes(136'192));
  EXPECT_EQ(p.need.sonic, Bytes(150'528));
  EXPECT_EQ(p.need.mlx5, Bytes(56'667));  // a NIC's formula has no cells
  p = make_plan(switch_config(at(Rate::gbps(100))), PlanOptions{1, 50}).value();
  EXPECT_EQ(p.need.need, Bytes(90'368));
}

// 100G, 32 ports, lossless 3 and 4, 32 MB in 256 B cells:
//   headroom pool = 64 PGs x 44800 = 2867200 B (11200 cells)
//   shared = 125000 - 11200 = 113800 cells = 29132800 B
//   static_th = floor(113800 / 64) = 1778 cells = 455168 B
//   xon_offset = 9216 B (mlx5: one max MTU)
//   ECN (HPCC run.py): 400000 / 1600000 B; Kmax >= 455168, so Kmax = 455168 / 2 = 227584,
//   Kmin = 227584 / 4 = 56896; Pmax 20 %
TEST(Planner, ThresholdsOfA32PortSwitchByHand) {
  const Plan p = plan_of(at(Rate::gbps(100)));
  EXPECT_EQ(p.lossless_pgs, 64u);
  EXPECT_EQ(p.headroom_pool, Bytes(2'867'200));
  EXPECT_EQ(p.shared, Bytes(29'132'800));
  EXPECT_EQ(p.xoff_threshold, Bytes(455'168));
  EXPECT_EQ(p.xon_offset, Bytes(9'216));
  EXPECT_EQ(p.ecn.kmax, Bytes(227'584));
  EXPECT_EQ(p.ecn.kmin, Bytes(56'896));
  EXPECT_EQ(p.ecn.pmax_percent, 20u);
  EXPECT_FALSE(p.ecn.cap.empty());
  const sw::PgProfile& pg3 = p.config.pg[3];
  EXPECT_EQ(pg3.static_th, Bytes(455'168));
  EXPECT_EQ(pg3.xoff, Bytes(44'800));
  EXPECT_EQ(p.config.pool.xoff, Bytes(2'867'200));
  EXPECT_EQ(p.config.wred[4]->green_max_threshold, Bytes(227'584));
}

// 8 ports at 25G, lossless 3 only, 12 MB: the HPCC rule fits below XOFF uncapped.
//   need 24064 B; pool 8 x 24064 = 192512 B (752 cells); shared 46875 - 752 = 46123 cells
//   static_th = floor(46123 / 8) = 5765 cells = 1475840 B
//   ECN: 100 KB x 25/25 = 100000, 400 KB = 400000 < 1475840: kept
TEST(Planner, SlowSmallSwitchKeepsTheHpccEcnRule) {
  Fabric f = at(Rate::gbps(25));
  f.ports = 8;
  f.lossless = 1u << 3;
  f.buffer = Bytes::mb(12);
  const Plan p = plan_of(f);
  EXPECT_EQ(p.headroom_pool, Bytes(192'512));
  EXPECT_EQ(p.xoff_threshold, Bytes(1'475'840));
  EXPECT_EQ(p.ecn.kmin, Bytes(100'000));
  EXPECT_EQ(p.ecn.kmax, Bytes(400'000));
  EXPECT_TRUE(p.ecn.cap.empty());
}

// SONiC's over_subscribe_ratio divides the headroom pool: 64 x 44800 / 4 = 716800 B.
TEST(Planner, OversubscribedHeadroomPool) {
  EXPECT_EQ(plan_of(at(Rate::gbps(100)), 4).headroom_pool, Bytes(716'800));
}

// 64 ports x 2 PGs x 80128 B at 400G = 10.3 MB of headroom alone: a 8 MB buffer is refused.
TEST(Planner, HeadroomAboveTheBufferIsRefusedWithItsArithmetic) {
  Fabric f = at(Rate::gbps(400));
  f.ports = 64;
  f.buffer = Bytes::mb(8);
  auto p = make_plan(switch_config(f));
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().message,
            "buffer 8000000 B: the headroom pool 10256384 B (128 PGs x 80128 B / 1) and reserved 0 B leave "
            "nothing shared: expected a buffer above 10256384 B, fewer ports or lossless priorities, or "
            "--oversubscribe");
}

}  // namespace
}  // namespace rtb::plan
