// Validation and the headroom arithmetic (reference §3.2).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "switch/buffer_layout.h"
#include "switch/counters.h"
#include "switch/headroom.h"
#include "switch/switch.h"
#include "switch/validate.h"

namespace rtb::sw {
namespace {

using ::testing::HasSubstr;

SwitchConfig guide(int ports = 17) { return tuning_guide_config(ports, Rate::gbps(100)); }

TEST(Validate, TuningGuideSettingsValidateCleanly) {
  const ValidationReport r = validate(guide());
  EXPECT_TRUE(r.ok()) << r.describe();
  EXPECT_TRUE(r.warnings.empty()) << r.describe();
}

TEST(Validate, EcnMinAboveMaxIsRefusedNamingTheKeys) {
  SwitchConfig c = guide();
  c.wred[3]->green_min_threshold = Bytes::kb(1'200);
  c.wred[3]->green_max_threshold = Bytes::kb(150);
  const ValidationReport r = validate(c);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.errors[0], HasSubstr("green_min_threshold = 1200000 B is above green_max_threshold = 150000 B"));
}

TEST(Validate, EcnThresholdsAboveTheXoffPointWarnWithArithmetic) {
  SwitchConfig c = guide();  // ECN and XOFF swapped: XOFF 150 KB, ECN 1.2 MB .. 2.4 MB
  for (int pg : {3, 4}) c.pg[pg].static_th = Bytes::kb(150);
  for (int q : {3, 4}) {
    c.wred[q]->green_min_threshold = Bytes::kb(1'200);
    c.wred[q]->green_max_threshold = Bytes::kb(2'400);
  }
  const ValidationReport r = validate(c);
  EXPECT_TRUE(r.ok()) << r.describe();
  ASSERT_EQ(r.warnings.size(), 2u) << r.describe();
  // 150,000 B is 586 cells of 256 B = 150,016 B.
  EXPECT_THAT(r.warnings[0], HasSubstr("queue3 green_min_threshold = 1200000 B"));
  EXPECT_THAT(r.warnings[0], HasSubstr("XOFF point of pg3 = 150016 B"));
  EXPECT_THAT(r.warnings[0], HasSubstr("PFC will fire before ECN can act"));
}

TEST(Validate, KmaxAboveTheXoffPointWarns) {
  SwitchConfig c = guide();
  c.wred[3]->green_max_threshold = Bytes::kb(3'000);
  const ValidationReport r = validate(c);
  ASSERT_EQ(r.warnings.size(), 1u) << r.describe();
  EXPECT_THAT(r.warnings[0], HasSubstr("green_max_threshold = 3000000 B"));
}

TEST(Validate, ReservedPlusHeadroomOverTheBufferIsRefused) {
  SwitchConfig c = guide();
  c.pool.xoff = Bytes(0);  // every lossless (port, PG) keeps its own 1.6 MB of headroom
  const ValidationReport r = validate(c);
  ASSERT_FALSE(r.ok());
  // 17 ports x 2 lossless PGs x 1,600,000 B (6,250 cells of 256 B) = 54,400,000 B.
  EXPECT_THAT(r.errors[0], HasSubstr("BUFFER_POOL size = 4000000 B: reserved 0 B + headroom 54400000 B"));
}

TEST(Validate, ProbabilityOutsidePercentRangeAndInvertedXonAreRefused) {
  SwitchConfig c = guide();
  c.wred[4]->green_drop_probability = 101;
  c.pg[3].xon_offset = Bytes::mb(3);
  const ValidationReport r = validate(c);
  ASSERT_EQ(r.errors.size(), 2u) << r.describe();
  EXPECT_THAT(r.describe(), HasSubstr("green_drop_probability = 101: expected a percentage 0..100"));
  EXPECT_THAT(r.describe(), HasSubstr("pg3 xon_offset = 3000000 B is not below the XOFF point 2400000 B"));
}

TEST(Validate, RoutesToMissingPortsAndBadMapsAreRefused) {
  SwitchConfig c = guide(2);
  c.routes.push_back({0x0A000001, 32, {0, 5}});
  c.maps.dscp_to_tc[26] = 9;
  const ValidationReport r = validate(c);
  EXPECT_THAT(r.describe(), HasSubstr("next-hop port 5 does not exist (the switch has 2 ports)"));
  EXPECT_THAT(r.describe(), HasSubstr("DSCP_TO_TC_MAP 26 = 9"));
}

TEST(Validate, HeadroomBelowTheCableNeedWarnsTermByTerm) {
  SwitchConfig c = guide(2);
  for (int pg : {3, 4}) c.pg[pg].xoff = Bytes::kb(20);
  const ValidationReport r = validate(c);
  EXPECT_TRUE(r.ok()) << r.describe();
  ASSERT_EQ(r.warnings.size(), 4u) << r.describe();  // 2 PGs x 2 ports
  EXPECT_THAT(r.warnings[0], HasSubstr(" port Ethernet0: BUFFER_PROFILE pg3 xoff = 20000 B (headroom) is below the 44800 B"));
  EXPECT_THAT(r.warnings[0], HasSubstr("394 pause quanta x 512 bit / 8 at 100 Gb/s"));
  EXPECT_THAT(r.warnings[0], HasSubstr("NVIDIA mlx5 calculate_xoff"));
  EXPECT_THAT(r.warnings[0], HasSubstr("SONiC buffer_headroom_mellanox"));
}

TEST(Validate, TuningGuideKeepsItsLosslessSettingsAndAddsTheLossyPool) {
  const SwitchConfig c = guide();
  EXPECT_EQ(c.pool.size, Bytes::mb(4));
  EXPECT_EQ(c.pool.xoff, Bytes::kb(1'600));
  EXPECT_EQ(c.pool.lossy_size, Bytes::mb(1));
  const BufferLayout l = buffer_layout(c);
  EXPECT_EQ(l.shared_cells, (4'000'000 / 256) - 6'250);  // 2.4 MB of lossless shared cells
  EXPECT_EQ(l.lossy_shared_cells, 1'000'000 / 256);
}

TEST(Validate, LossyPoolBelowOneLargestFrameIsRefused) {
  SwitchConfig c = guide(2);
  c.pool.lossy_size = Bytes(8'192);  // 32 cells; a 9,216 B frame needs 36
  ValidationReport r = validate(c);
  ASSERT_EQ(r.errors.size(), 1u) << r.describe();
  EXPECT_THAT(r.describe(), HasSubstr("BUFFER_POOL lossy_size = 8192 B"));
  EXPECT_THAT(r.describe(), HasSubstr("below one largest frame (9216 B in 36 cells)"));
  c.pool.lossy_size = Bytes::mb(1);
  for (int pg : {0, 1, 2, 5, 6, 7}) c.pg[pg].size = Bytes(100'000);  // 2 x 6 x 100 KB reserved
  r = validate(c);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.errors[0], HasSubstr("lossy PG reserved 1201152 B (2 ports x lossy PG size)"));
}

TEST(Validate, LossyPoolBelowOneFramePerLossyQueueWarns) {
  SwitchConfig c = guide(32);
  const ValidationReport r = validate(c);
  EXPECT_TRUE(r.ok()) << r.describe();
  ASSERT_EQ(r.warnings.size(), 1u) << r.describe();
  EXPECT_THAT(r.warnings[0], HasSubstr("BUFFER_POOL lossy_size = 1000000 B is below one largest frame per "
                                       "lossy queue (32 ports x 6 lossy queues x 9216 B = 1769472 B)"));
}

TEST(Validate, LossySizeZeroIsOnePoolAsBefore) {
  SwitchConfig c = guide();
  c.pool.lossy_size = Bytes(0);
  const ValidationReport r = validate(c);
  EXPECT_TRUE(r.ok()) << r.describe();
  EXPECT_TRUE(r.warnings.empty()) << r.describe();
  EXPECT_FALSE(buffer_layout(c).lossy_pool);
}

TEST(Validate, NoLosslessPriorityWithALossyPoolWarnsThatSizeHoldsNothing) {
  SwitchConfig c = guide(2);
  c.pfc_enable = 0;
  for (auto& w : c.wred) w.reset();
  const ValidationReport r = validate(c);
  EXPECT_TRUE(r.ok()) << r.describe();
  ASSERT_EQ(r.warnings.size(), 1u) << r.describe();
  EXPECT_THAT(r.warnings[0], HasSubstr("pfc_enable is empty"));
  EXPECT_THAT(r.warnings[0], HasSubstr("BUFFER_POOL size = 4000000 B holds no traffic"));
}

TEST(Counters, LossyPoolRowsOnlyWithALossyPool) {
  SwitchConfig c = guide(1);
  SwitchCounters sc;
  sc.ports.resize(1);
  sc.pool.used_bytes = 1'280;
  sc.lossy_pool = {512, 2'048, 0, 0};
  const auto find = [](const std::vector<CounterRow>& rows, const std::string& obj, const std::string& stat) {
    for (const CounterRow& r : rows) {
      if (r.object == obj && r.stat == stat) return static_cast<int64_t>(r.value);
    }
    return int64_t{-1};
  };
  std::vector<CounterRow> rows = counter_rows(c, sc);
  EXPECT_EQ(find(rows, "sw0|ingress_lossless_pool", "SAI_BUFFER_POOL_STAT_CURR_OCCUPANCY_BYTES"), 1'280);
  EXPECT_EQ(find(rows, "sw0|egress_lossy_pool", "SAI_BUFFER_POOL_STAT_CURR_OCCUPANCY_BYTES"), 512);
  EXPECT_EQ(find(rows, "sw0|egress_lossy_pool", "SAI_BUFFER_POOL_STAT_WATERMARK_BYTES"), 2'048);
  c.pool.lossy_size = Bytes(0);
  rows = counter_rows(c, sc);
  EXPECT_EQ(find(rows, "sw0|egress_lossy_pool", "SAI_BUFFER_POOL_STAT_WATERMARK_BYTES"), -1);
}

TEST(Headroom, FirstPrinciplesTermsAt100GOver7Metres) {
  const HeadroomNeed h = headroom_need({Rate::gbps(100), Time::ns(35), 9'216, 9'216, Bytes(256)});
  ASSERT_EQ(h.terms.size(), 5u);
  EXPECT_EQ(h.terms[0].bytes, Bytes(9'240));   // 9216 + 4 FCS + 20 preamble and gap
  EXPECT_EQ(h.terms[1].bytes, Bytes(84));      // the PFC frame
  EXPECT_EQ(h.terms[2].bytes, Bytes(875));     // 2 x 35 ns x 12.5 B/ns
  EXPECT_EQ(h.terms[3].bytes, Bytes(25'216));  // 394 quanta x 64 B
  EXPECT_EQ(h.terms[4].bytes, Bytes(9'240));
  EXPECT_EQ(h.wire_sum, Bytes(44'655));
  EXPECT_EQ(h.need, Bytes(44'800));            // 175 cells of 256 B
  EXPECT_EQ(h.mlx5, Bytes(56'667));            // reference §3.2 example
  EXPECT_EQ(h.sonic, Bytes(45'056));           // 44,512 B rounded up to 1024
}

TEST(Headroom, CellRoundingScalesTheNeed) {
  // 1,082-byte frames in 256 B cells take 1,280 B; on the wire they are 1,106 B.
  const HeadroomNeed h = headroom_need({Rate::gbps(25), Time::ns(500), 1'082, 1'082, Bytes(256)});
  EXPECT_NEAR(h.cell_factor, 1280.0 / 1106.0, 1e-12);
  EXPECT_EQ(h.pause_quanta, 80u);
  EXPECT_EQ(h.terms[2].bytes, Bytes(3'125));  // 2 x 500 ns x 3.125 B/ns
}

TEST(Headroom, PauseQuantaTable) {
  EXPECT_EQ(peer_response_quanta(Rate::gbps(1)), 67u);
  EXPECT_EQ(peer_response_quanta(Rate::gbps(10)), 67u);
  EXPECT_EQ(peer_response_quanta(Rate::gbps(25)), 80u);
  EXPECT_EQ(peer_response_quanta(Rate::gbps(40)), 118u);
  EXPECT_EQ(peer_response_quanta(Rate::gbps(50)), 147u);
  EXPECT_EQ(peer_response_quanta(Rate::gbps(56)), 394u);
  EXPECT_EQ(peer_response_quanta(Rate::gbps(200)), 453u);
  EXPECT_EQ(peer_response_quanta(Rate::gbps(400)), 905u);
  EXPECT_EQ(peer_response_quanta(Rate::gbps(800)), 905u);
}

TEST(SonicNames, EcnModesAndWatchdogActionsParse) {
  EXPECT_EQ(*parse_ecn_mode("ecn_all"), EcnMode::kAll);
  EXPECT_EQ(ecn_mode_name(EcnMode::kGreenRed), "ecn_green_red");
  EXPECT_FALSE(parse_ecn_mode("ecn_blue").ok());
  EXPECT_THAT(parse_ecn_mode("ecn_blue").error().message, HasSubstr("ecn = \"ecn_blue\""));
  EXPECT_EQ(*parse_pfcwd_action("forward"), PfcWdConfig::Action::kForward);
  EXPECT_FALSE(parse_pfcwd_action("ignore").ok());
}

TEST(SwitchMake, RefusesAnInvalidConfigWithTheReport) {
  SwitchConfig c = guide(2);
  c.pool.cell = Bytes(0);
  auto sw = Switch::make(c, {}, nullptr, 1);
  ASSERT_FALSE(sw.ok());
  EXPECT_THAT(sw.error().message, HasSubstr("BUFFER_POOL cell = 0 B"));
}

}  // namespace
}  // namespace rtb::sw
