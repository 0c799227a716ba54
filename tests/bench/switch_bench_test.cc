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

TEST(SwitchBench, RefusesABadSize) {
  SwitchOptions o;
  o.frames = 0;
  auto r = run_switch(o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("--frames 0"), std::string::npos) << r.error().message;
}

}  // namespace
}  // namespace rtb::bench
