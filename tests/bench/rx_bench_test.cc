// `rocetb bench rx` at a small size: the replayed capture's frames, renumbered, reach the
// responders in sequence with valid ICRCs, every one of them is counted, and a capture
// that asks for ACKs gets them sent into the sink.
#include "bench/rx_bench.h"

#include <gtest/gtest.h>

namespace rtb::bench {
namespace {

RxOptions small() {
  RxOptions o;
  o.qps = 16;
  o.frames = 256;
  o.duration = Time::ms(50);
  return o;
}

TEST(RxBench, EveryReplayedFrameIsAcceptedInSequenceWithItsIcrcChecked) {
  auto r = run_rx(small());
  ASSERT_TRUE(r.ok()) << r.error().message;
  const double frames = r->figure("frames");
  EXPECT_GT(frames, 1'000);  // several passes over the 256-frame capture
  EXPECT_DOUBLE_EQ(r->figure("frame_bytes"), 1'082);
  const auto& responder = r->details["responder"];
  EXPECT_EQ(responder["out_of_sequence"].get<uint64_t>(), 0u);
  EXPECT_EQ(responder["duplicate_request"].get<uint64_t>(), 0u);
  EXPECT_EQ(responder["acks_sent"].get<uint64_t>(), 0u);
  EXPECT_EQ(responder["payload_bytes_accepted"].get<double>(), frames * 1'024);
  const auto& host = r->details["host"];
  EXPECT_EQ(host["rx_parse_errors"].get<uint64_t>(), 0u);  // ICRC valid after renumbering
  EXPECT_EQ(host["rx_frames"].get<double>(), frames);
  const auto& source = r->details["source"];
  EXPECT_EQ(source["renumbered"].get<double>(), frames);
  EXPECT_EQ(source["not_renumbered"].get<uint64_t>(), 0u);
  EXPECT_EQ(r->config["check_icrc"].get<bool>(), true);
  EXPECT_NE(r->config["icrc_crc_path"].get<std::string>(), "");  // the path the EAL start chose
}

TEST(RxBench, FramesThatAskForAnAckAreAnsweredIntoTheSink) {
  RxOptions o = small();
  o.ack_every = 4;
  auto r = run_rx(o);
  ASSERT_TRUE(r.ok()) << r.error().message;
  const auto acks = r->details["responder"]["acks_sent"].get<double>();
  EXPECT_GE(acks, r->figure("frames") / 4 - 16);  // one per QP may wait for the next AckReq
  EXPECT_LE(acks, r->figure("frames") / 4);
  EXPECT_GT(r->details["sink"]["tx_frames"].get<double>(), 0);
}

// Every path MTU the option takes: the capture's frames carry it, the QPs accept them.
TEST(RxBench, EveryPathMtuIsReceivedWhole) {
  for (uint32_t payload : {256u, 2'048u, 4'096u}) {
    RxOptions o = small();
    o.payload = payload;
    o.duration = Time::ms(20);
    auto r = run_rx(o);
    ASSERT_TRUE(r.ok()) << payload << ": " << r.error().message;
    EXPECT_DOUBLE_EQ(r->figure("frame_bytes"), payload + 58) << payload;  // WRITE MIDDLE
    EXPECT_EQ(r->details["host"]["rx_parse_errors"].get<uint64_t>(), 0u) << payload;
    EXPECT_EQ(r->details["responder"]["payload_bytes_accepted"].get<double>(), r->figure("frames") * payload);
  }
}

TEST(RxBench, RefusesWhatItCannotHonour) {
  RxOptions o = small();
  o.payload = 1000;
  auto r = run_rx(o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("--payload 1000"), std::string::npos) << r.error().message;
  o = small();
  o.frames = 8;  // fewer frames than QPs
  r = run_rx(o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("--frames 8"), std::string::npos) << r.error().message;
}

}  // namespace
}  // namespace rtb::bench
