// HPCC INT at the switch (int_push.h): one record per data frame of the INT DSCP at
// dequeue, with the port's bytes sent before it and its queue after it, exactly; other
// frames untouched.
#include <gtest/gtest.h>

#include "tests/switch/test_hosts.h"
#include "switch/validate.h"
#include "wire/int_trailer.h"

namespace rtb::sw {
namespace {

using testing::roce_frame;
using testing::Star;

constexpr uint32_t kPayload = 1024;
constexpr Time kProp = Time::ns(100);

// Hosts 0 and 1 each send n INT frames back to back at 100 Gb/s to host 2: port 2 gets
// two frames per frame time O and sends one. Frames reach the switch at (i + 1)·O + prop;
// arrivals at an instant are queued before that instant's dequeue, so the k-th dequeue
// (at O + prop + k·O) leaves min(k + 1, 2n − k − 1) frames queued, after k frames sent.
TEST(SwitchInt, RecordsTheEgressAtDequeue) {
  SwitchConfig c = tuning_guide_config(3, Rate::gbps(100));
  c.int_dscp = 26;
  Star net(3, c, kProp);
  constexpr uint32_t n = 40;
  for (uint32_t i = 0; i < n; ++i) {
    net.host(0).enqueue(roce_frame(0, 2, i, kPayload, wire::Ecn::Ect0, 26, 0xC000, wire::kIntTrailerBytes), 3);
    net.host(1).enqueue(roce_frame(1, 2, i, kPayload, wire::Ecn::Ect0, 26, 0xC001, wire::kIntTrailerBytes), 3);
  }
  net.scheduler.run();
  const auto& got = net.host(2).arrivals();
  ASSERT_EQ(got.size(), 2 * n);
  const uint64_t len = got[0].length;  // 1082 + 44 bytes
  ASSERT_EQ(len, 14u + 20 + 8 + 12 + kPayload + 4 + wire::kIntTrailerBytes);
  const Time o = Rate::gbps(100).time_for(runtime::wire_occupancy(static_cast<uint32_t>(len)));
  for (uint32_t k = 0; k < 2 * n; ++k) {
    ASSERT_EQ(got[k].int_hops.size(), 1u) << k;
    const wire::IntHopRecord r = wire::decode_int_hop(got[k].int_hops[0]);
    const Time dequeued = o + kProp + o * k;
    EXPECT_EQ(got[k].at, dequeued + o + kProp) << k;
    EXPECT_EQ(r.time_ns, (dequeued.ps() / 1000) & 0xFFFFFF) << k;
    EXPECT_EQ(r.tx_units, k * len / 128) << k;
    const uint64_t queued = std::min<uint64_t>(k + 1, 2 * n - k - 1) * len;
    EXPECT_EQ(r.qlen_units, queued / 80) << k;
    EXPECT_EQ(r.rate_code, 2) << k;  // 100 Gb/s
  }
  EXPECT_EQ(net.host(2).parse_failures(), 0u);
}

// Frames of another DSCP or without a trailer pass untouched; a one-slot trailer gets one hop.
TEST(SwitchInt, LeavesOtherFramesAlone) {
  SwitchConfig c = tuning_guide_config(2, Rate::gbps(100));
  c.int_dscp = 26;
  Star net(2, c, kProp);
  net.host(0).enqueue(roce_frame(0, 1, 0, kPayload, wire::Ecn::Ect0, 3, 0xC000, wire::kIntTrailerBytes), 3);
  net.host(0).enqueue(roce_frame(0, 1, 1, kPayload, wire::Ecn::Ect0, 26, 0xC000, 0), 3);
  net.host(0).enqueue(roce_frame(0, 1, 2, kPayload, wire::Ecn::Ect0, 26, 0xC000, 12), 3);  // one slot
  net.scheduler.run();
  const auto& got = net.host(1).arrivals();
  ASSERT_EQ(got.size(), 3u);
  EXPECT_TRUE(got[0].int_hops.empty());  // DSCP 3: not an INT frame
  EXPECT_TRUE(got[1].int_hops.empty());  // no trailer
  EXPECT_EQ(got[2].int_hops.size(), 1u);
}

TEST(SwitchInt, RatesAnIntRecordCannotCarryAreRefused) {
  SwitchConfig c = tuning_guide_config(2, Rate::gbps(100));
  c.int_dscp = 26;
  c.ports[1].rate = Rate::gbps(30);
  const ValidationReport r = validate(c);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.describe().find("rate 30000000000 b/s cannot be carried in an HPCC INT record"),
            std::string::npos) << r.describe();
}

}  // namespace
}  // namespace rtb::sw
