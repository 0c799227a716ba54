// Hosts closing the loop in virtual time.
#include "host/host.h"

#include <gtest/gtest.h>

#include "runtime/link_faults.h"
#include "tests/host/host_fixture.h"
#include "wire/frame_size.h"

namespace rtb::host {
namespace {

using testing::TwoHosts;
using testing::controller;
using testing::host_config;

// Wire time of a frame of `len` bytes at 100 Gb/s (80 ps a byte).
Time wire_100g(uint32_t len) { return Time::ps(80) * runtime::wire_occupancy(len).count(); }

struct Exact : ::testing::Test {
  cc::Controller line_rate = controller("fixed_rate");
};

TEST_F(Exact, AMessageArrivesWholeWithPsnsAcksAndFctToThePicosecond) {
  TwoHosts t(line_rate, line_rate, host_config("a", 1), host_config("b", 2), 1);
  QpSpec spec;
  spec.requester.path_mtu = 1024;
  t.connect(1, spec);
  t.a->post(0, 10'000, Time::zero());  // 9 x 1024 + 784
  EXPECT_TRUE(t.run().idle);

  // Data frames leave back to back at line rate; each is ACKed 500 ns (the default
  // turnaround) after it arrives; the message completes when the last ACK arrives.
  const Time prop = Time::us(1);
  Time end = Time::zero();
  for (int k = 0; k < 10; ++k) {
    const uint32_t ext = k == 0 ? 16 : 0;
    end += wire_100g(wire::roce_frame_length(false, ext, k == 9 ? 784 : 1024));
  }
  const Time ack = wire_100g(wire::roce_frame_length(false, 4, 0));
  const Time fct = end + prop + NicTimings{}.ack_turnaround + ack + prop;

  const QueuePair& a = t.a->qp(0);
  const QueuePair& b = t.b->qp(0);
  ASSERT_EQ(a.requester.messages().size(), 1u);
  EXPECT_EQ(a.requester.messages()[0].completed, fct);
  EXPECT_EQ(b.responder.expected_psn(), 10u);
  EXPECT_EQ(b.responder.counters().payload_bytes_accepted, 10'000u);
  EXPECT_EQ(b.responder.counters().acks_sent, 10u);
  EXPECT_EQ(a.requester.counters().acks, 10u);
  EXPECT_EQ(a.requester.snd_una(), 10u);
  EXPECT_EQ(a.counters.payload_bytes_sent, 10'000u);
  EXPECT_EQ(b.counters.payload_bytes_received, 10'000u);
  EXPECT_EQ(t.a->counters().rx_parse_errors + t.b->counters().rx_parse_errors, 0u);
}

TEST_F(Exact, SecondRunGivesIdenticalCounters) {
  auto run = [&] {
    TwoHosts t(line_rate, line_rate, host_config("a", 1), host_config("b", 2), 4);
    t.connect(4);
    for (uint32_t q = 0; q < 4; ++q) t.a->post(q, 50'000 + 1'000 * q, Time::ns(100 * q));
    t.run();
    std::vector<uint64_t> v{t.a->counters().tx_frames, t.b->counters().tx_frames,
                            t.b->counters().rx_frames};
    for (uint32_t q = 0; q < 4; ++q) v.push_back(t.a->qp(q).requester.messages()[0].completed.ps());
    return v;
  };
  EXPECT_EQ(run(), run());
}

}  // namespace
}  // namespace rtb::host
