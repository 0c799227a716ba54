// `rocetb bench switch` at a small size: captured frames go through the switch stage and
// every one the sink accepted was received and forwarded by the switch.
#include "bench/switch_bench.h"

#include <gtest/gtest.h>

namespace rtb::bench {
namespace {

TEST(SwitchBench, ForwardsTheReplayedCaptureIntoTheSink) {
  SwitchOptions o;
  o.frames = 256;
  o.duration = Time::ms(50);
  auto r = run_switch(o);
  ASSERT_TRUE(r.ok()) << r.error().message;
  const double frames = r->figure("frames");
  EXPECT_GT(frames, 1'000);
  EXPECT_DOUBLE_EQ(r->figure("frame_bytes"), 1'082);  // WRITE MIDDLE, 1024 B payload
  const auto& sw = r->details["switch"];
  // What the switch sent, the sink accepted, but for the few still on the last wire.
  EXPECT_GE(sw["tx_ok"].get<double>(), frames);
  EXPECT_LE(sw["tx_ok"].get<double>() - frames, 128);
  EXPECT_GE(sw["rx_ok"].get<double>(), frames);   // the rest still queued at the end
  EXPECT_GE(r->details["source"]["rx_frames"].get<double>(), sw["rx_ok"].get<double>());
}

// Payloads above the default path MTU: the capture's flows take the MTU that holds them. A
// payload that is no path MTU goes as WRITE Only frames, 16 bytes of RETH longer.
TEST(SwitchBench, ForwardsFramesUpToTheLargestPathMtu) {
  for (uint32_t payload : {100u, 2'048u, 4'096u}) {
    SwitchOptions o;
    o.frames = 64;
    o.payload = payload;
    o.duration = Time::ms(20);
    auto r = run_switch(o);
    ASSERT_TRUE(r.ok()) << payload << ": " << r.error().message;
    const uint32_t reth = payload == 100 ? 16 : 0;
    EXPECT_DOUBLE_EQ(r->figure("frame_bytes"), payload + 58 + reth + (4 - payload % 4) % 4) << payload;
    EXPECT_GT(r->details["switch"]["tx_ok"].get<double>(), 100) << payload;
  }
}

TEST(SwitchBench, RefusesABadSize) {
  SwitchOptions o;
  o.frames = 0;
  auto r = run_switch(o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("--frames 0"), std::string::npos) << r.error().message;
}

}  // namespace
}  // namespace rtb::bench
