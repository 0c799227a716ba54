// Hosts closing the loop in virtual time.
#include "host/host.h"

#include <gtest/gtest.h>

#include "runtime/link_faults.h"
#include "runtime/parsed_predicate.h"
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


struct Arbiter : ::testing::Test {
  cc::Controller line_rate = controller("fixed_rate");
};

TEST_F(Arbiter, QueuePairsOfOnePriorityShareThePortRoundRobin) {
  TwoHosts t(line_rate, line_rate, host_config("a", 1), host_config("b", 2), 4);
  t.connect(4);
  for (uint32_t q = 0; q < 4; ++q) t.a->post(q, 1'000'000, Time::zero());
  t.run(Time::us(20));
  const uint64_t f0 = t.a->qp(0).counters.frames_sent;
  EXPECT_GT(f0, 40u);
  for (uint32_t q = 1; q < 4; ++q) {
    EXPECT_NEAR(static_cast<double>(t.a->qp(q).counters.frames_sent), static_cast<double>(f0), 1.0);
  }
}

TEST_F(Arbiter, StrictPriorityServesTheHigherPriorityFirst) {
  TwoHosts t(line_rate, line_rate, host_config("a", 1), host_config("b", 2), 2);
  QpSpec low, high;
  low.priority = 3;
  high.priority = 5;
  t.connect(1, low);
  t.connect(1, high);
  t.a->post(0, 1'000'000, Time::zero());
  t.a->post(1, 100'000, Time::zero());
  t.run(Time::us(8));  // 100 KB at 100 Gb/s takes 8.6 us: only priority 5 has sent
  EXPECT_EQ(t.a->qp(0).counters.frames_sent, 0u);
  EXPECT_GT(t.a->qp(1).counters.frames_sent, 80u);
  t.run(Time::us(30));
  EXPECT_EQ(t.a->qp(1).counters.payload_bytes_sent, 100'000u);
  EXPECT_GT(t.a->qp(0).counters.frames_sent, 100u);
}

// Two QPs on priorities 3 and 5 of host A; returns A's two QP byte counts after `until`.
std::pair<uint64_t, uint64_t> two_priorities(const cc::Controller& cc, HostConfig ca,
                                             Time until, std::function<void(TwoHosts&)> before) {
  TwoHosts t(cc, cc, std::move(ca), host_config("b", 2), 2);
  for (uint8_t i = 0; i < 2; ++i) {
    QpSpec spec;
    spec.priority = i == 0 ? 3 : 5;
    t.connect(1, spec);
    t.a->post(i, 50'000'000, Time::zero());
  }
  if (before) before(t);
  t.run(until);
  return {t.a->qp(0).counters.payload_bytes_sent, t.a->qp(1).counters.payload_bytes_sent};
}

TEST_F(Arbiter, DwrrSharesThePortByQuantum) {
  HostConfig ca = host_config("a", 1);
  ca.ports[0].policy = PriorityPolicy::kDwrr;
  ca.ports[0].dwrr_quantum_bytes[3] = 3 * 1'100;
  ca.ports[0].dwrr_quantum_bytes[5] = 1'100;
  const auto [p3, p5] = two_priorities(line_rate, ca, Time::us(200), nullptr);
  EXPECT_NEAR(static_cast<double>(p3) / static_cast<double>(p5), 3.0, 0.03);
}

TEST_F(Arbiter, APausedPriorityDoesNotBlockAnotherAndGathersNoCredit) {
  // Priority 5 is paused for 0xFFFF quanta (335.5 us at 100 Gb/s) from t = 0.
  const auto [p3, p5] = two_priorities(line_rate, host_config("a", 1), Time::us(300),
                                       [](TwoHosts& t) { t.ab.apply_pause(5, 0xFFFF, Time::zero()); });
  EXPECT_EQ(p5, 0u);
  EXPECT_GT(p3, 3'000'000u);  // priority 3 had the port to itself

  // A 10 Gb/s QP paused for 100 us then resumed sends at 10 Gb/s, without a burst.
  cc::Controller ten_g = controller("fixed_rate", {{"rate_mbps", int64_t{10'000}}});
  const auto [q3, q5] = two_priorities(ten_g, host_config("a", 1), Time::us(110),
                                       [](TwoHosts& t) { t.ab.apply_pause(5, 19'531, Time::zero()); });
  // 19,531 quanta = 99.999 us; in the 10 us after it 10 Gb/s moves 12,500 wire bytes:
  // at most 12 frames of 1,106 wire bytes (1,024 B payload).
  EXPECT_LE(q5, 12u * 1'024);
  EXPECT_GE(q5, 10u * 1'024);
  EXPECT_GT(q3, 100'000u);
}


struct Loss : ::testing::Test {
  cc::Controller line_rate = controller("fixed_rate");
};

TEST_F(Loss, DroppedFramesComeBackThroughNakAndGoBackN) {
  TwoHosts t(line_rate, line_rate, host_config("a", 1), host_config("b", 2), 1);
  t.connect(1);
  runtime::LinkFaults faults(Rng(1, 1));
  faults.drop_frames({3, 40});
  t.ab.set_faults(&faults);
  t.a->post(0, 64 * 1'024, Time::zero());
  EXPECT_TRUE(t.run().idle);
  const QueuePair& a = t.a->qp(0);
  EXPECT_EQ(t.b->qp(0).counters.payload_bytes_received, 64u * 1'024);
  EXPECT_FALSE(a.requester.messages()[0].completed.is_never());
  EXPECT_EQ(t.a->counters().packet_seq_err, 2u);  // one NAK per gap
  EXPECT_GT(t.b->counters().out_of_sequence, 0u);
  EXPECT_GT(a.counters.retransmitted_frames, 0u);
  EXPECT_EQ(a.counters.payload_bytes_sent, 64u * 1'024);  // first transmissions, once
  EXPECT_EQ(a.requester.counters().timeouts, 0u);
}

TEST_F(Loss, ALostNakIsRecoveredByTheRetransmissionTimeout) {
  TwoHosts t(line_rate, line_rate, host_config("a", 1), host_config("b", 2), 1);
  QpSpec spec;
  spec.requester.local_ack_timeout = 4;  // 65.5 us
  t.connect(1, spec);
  runtime::LinkFaults data_faults(Rng(1, 1)), ack_faults(Rng(1, 2));
  data_faults.drop_frames({5});
  ack_faults.drop_if(runtime::on_parsed([](const wire::ParsedFrame& f) {
    return f.cls == wire::FrameClass::Nak;  // every NAK is lost
  }));
  t.ab.set_faults(&data_faults);
  t.ba.set_faults(&ack_faults);
  t.a->post(0, 16 * 1'024, Time::zero());
  EXPECT_TRUE(t.run().idle);
  const QueuePair& a = t.a->qp(0);
  EXPECT_EQ(t.b->qp(0).counters.payload_bytes_received, 16u * 1'024);
  EXPECT_EQ(a.requester.counters().timeouts, 1u);
  EXPECT_EQ(t.a->counters().local_ack_timeout_err, 1u);  // the expiry, retried
  EXPECT_EQ(t.a->counters().req_transport_retries_exceeded, 0u);
  EXPECT_EQ(t.a->counters().packet_seq_err, 0u);  // the NAK never arrived
  EXPECT_GE(t.ba.counters().dropped_fault, 1u);
  EXPECT_GT(a.requester.messages()[0].completed, ack_timeout(4));
}

TEST_F(Loss, ADeadLinkFailsTheQpAfterTheRetryLimit) {
  TwoHosts t(line_rate, line_rate, host_config("a", 1), host_config("b", 2), 1);
  QpSpec spec;
  spec.requester.local_ack_timeout = 2;  // 16.4 us
  spec.requester.retry_cnt = 3;
  t.connect(1, spec);
  runtime::LinkFaults faults(Rng(1, 1));
  faults.down_between(Time::us(2), Time::s(1));
  t.ab.set_faults(&faults);
  t.a->post(0, 1'000'000, Time::zero());
  EXPECT_TRUE(t.run().idle);
  const QueuePair& a = t.a->qp(0);
  EXPECT_TRUE(a.requester.failed());
  // mlx5: an expiry that is retried counts in local_ack_timeout_err, the QP's failure in
  // req_transport_retries_exceeded.
  EXPECT_EQ(a.requester.counters().timeouts, 4u);  // the first try and 3 retries
  EXPECT_EQ(t.a->counters().local_ack_timeout_err, 3u);
  EXPECT_EQ(t.a->counters().req_transport_retries_exceeded, 1u);
  EXPECT_TRUE(a.requester.messages()[0].completed.is_never());
}

TEST_F(Loss, FramesAreConservedAtEveryInstant) {
  TwoHosts t(line_rate, line_rate, host_config("a", 1), host_config("b", 2), 2);
  t.connect(2);
  runtime::LinkFaults faults(Rng(9, 9));
  faults.drop_with_probability(0.01);
  t.ab.set_faults(&faults);
  t.a->post(0, 2'000'000, Time::zero());
  t.a->post(1, 1'000'000, Time::us(3));
  for (Time until = Time::us(7); until < Time::ms(2); until += Time::us(13)) {
    t.run(until);
    uint64_t sent = 0;
    for (uint32_t q = 0; q < 2; ++q) sent += t.a->qp(q).counters.frames_sent;
    // Every data frame A started is at B, still on the cable, or dropped by the fault.
    ASSERT_EQ(sent, t.b->counters().rx_frames + t.ab.in_flight() + t.ab.counters().dropped_fault)
        << "at " << until;
  }
  t.run();
  uint64_t first = 0, received = 0;
  for (uint32_t q = 0; q < 2; ++q) {
    first += t.a->qp(q).counters.payload_bytes_sent;
    received += t.b->qp(q).counters.payload_bytes_received;
  }
  EXPECT_EQ(first, 3'000'000u);  // retransmissions counted once
  EXPECT_EQ(received, 3'000'000u);
  EXPECT_GT(t.ab.counters().dropped_fault, 10u);
}


// A -> relay (marks CE) -> B; B's CNPs go straight back to A.
struct Loop : ::testing::Test {
  cc::Controller dcqcn = controller("dcqcn");
  cc::Controller line_rate = controller("fixed_rate");
};

TEST_F(Loop, CeMarksBecomeCnpsPacedPerQpAndDcqcnCutsTheRate) {
  TwoHosts t(dcqcn, dcqcn, host_config("a", 1), host_config("b", 2), 1, Rate::gbps(100),
             Time::us(1), /*relay=*/true);
  t.connect(1);
  t.marker->mark = [](uint64_t) { return true; };  // every data frame is CE
  t.a->post(0, 100'000'000, Time::zero());
  const Time duration = Time::us(200);
  t.run(duration);
  const HostCounters& a = t.a->counters();
  const HostCounters& b = t.b->counters();
  EXPECT_EQ(b.np_ecn_marked_roce_packets, t.marker->marked);
  // At most one CNP per np_min_time_between_cnps (4 us), from the first frame's arrival
  // (about 1.1 us) on; as DCQCN slows A down, fewer frames (all CE) arrive.
  EXPECT_LE(b.np_cnp_sent, (duration - Time::us(1)) / Time::us(4) + 1);
  EXPECT_GT(b.np_cnp_sent, 5u);
  EXPECT_GT(t.marker->marked, b.np_cnp_sent);  // CE frames were held back
  // Every CNP sent before the last 2 us + reaction delay has been handled.
  EXPECT_GE(a.rp_cnp_handled, b.np_cnp_sent - 1);
  EXPECT_EQ(a.rp_cnp_ignored, 0u);
  EXPECT_LT(t.a->qp(0).rate, Rate::gbps(50));  // DCQCN cut well below the line rate
  EXPECT_EQ(t.a->qp(0).counters.cnp_handled, a.rp_cnp_handled);
}

TEST_F(Loop, FixedRateIgnoresCnps) {
  TwoHosts t(line_rate, line_rate, host_config("a", 1), host_config("b", 2), 1,
             Rate::gbps(100), Time::us(1), true);
  t.connect(1);
  t.marker->mark = [](uint64_t) { return true; };
  t.a->post(0, 100'000'000, Time::zero());
  const Time duration = Time::us(100);
  t.run(duration);
  // A stays at line rate, so CE frames arrive every 88 ns from about 1.1 us on: one CNP
  // every 4 us (np_min_time_between_cnps), the next frame after the 4 us have passed.
  const uint64_t most = (duration - Time::us(1)) / Time::us(4) + 1;
  EXPECT_LE(t.b->counters().np_cnp_sent, most);
  EXPECT_GE(t.b->counters().np_cnp_sent, most - 1);
  EXPECT_EQ(t.a->counters().rp_cnp_handled, 0u);
  EXPECT_GE(t.a->counters().rp_cnp_ignored, t.b->counters().np_cnp_sent - 1);
  EXPECT_EQ(t.a->qp(0).rate, Rate::gbps(100));
}

// The time of the first cut below the line rate after two CE marks 10 us apart (the mlx5
// model does not cut on a flow's first CNP; the second one is acted on at the next
// rate_reduce_monitor_period boundary).
Time first_cut(const cc::Controller& cc, Time cnp_delay) {
  HostConfig cb = host_config("b", 2);
  cb.timings.cnp_generation_delay = cnp_delay;
  TwoHosts t(cc, cc, host_config("a", 1), cb, 1, Rate::gbps(100), Time::us(1), true);
  t.connect(1);
  t.marker->mark = [](uint64_t i) { return i == 0 || i == 113; };  // 113 x 88.5 ns = 10 us
  t.a->post(0, 10'000'000, Time::zero());
  Time last_a_poll, cut = Time::never();
  t.scheduler.set_trace([&](Time now, runtime::StageId id) {
    if (cut.is_never() && t.a->qp(0).cc_started && t.a->qp(0).rate < Rate::gbps(100)) {
      cut = last_a_poll;
    }
    if (id == t.a->id()) last_a_poll = now;
  });
  t.run(Time::us(100));
  EXPECT_EQ(t.a->counters().rp_cnp_handled, 2u);
  return cut;
}

TEST_F(Loop, CnpGenerationDelayShiftsTheResponseByExactlyItsValue) {
  const Time early = first_cut(dcqcn, Time::us(1));
  const Time late = first_cut(dcqcn, Time::us(4));
  ASSERT_FALSE(early.is_never());
  // The second CE frame leaves A at about 10 us and needs 1 us of cable, 1 us to become a
  // CNP, 1 us back and 1 us of reaction delay: no cut can come before 14 us.
  EXPECT_GT(early, Time::us(14));
  EXPECT_EQ(late - early, Time::us(3));
}


TEST(Storm, AStormingHostPausesItsPartnerFromTheGivenTime) {
  cc::Controller line_rate = controller("fixed_rate");
  HostConfig cb = host_config("b", 2);
  cb.pfc_storm = PfcStorm{Time::us(10), Time::us(50), 3, 0xFFFF, Time::us(20)};
  TwoHosts t(line_rate, line_rate, host_config("a", 1), cb, 1);
  t.connect(1);
  t.a->post(0, 100'000'000, Time::zero());
  t.run(Time::us(10));
  const uint64_t before = t.a->qp(0).counters.frames_sent;
  t.run(Time::us(300));
  // XOFFs at 10, 30 (and not 50: the storm ends) us; each pauses A's priority 3 for
  // 335.5 us, so A stops about 11 us in (the first XOFF's arrival) and stays stopped.
  EXPECT_EQ(t.b->counters().tx_pfc_frames, 2u);
  EXPECT_EQ(t.a->counters().rx_pfc_frames[3], 2u);
  EXPECT_LE(t.a->qp(0).counters.frames_sent, before + 14);  // the 1 us cable, then stop
  EXPECT_GT(t.ab.paused_until(3), Time::us(300));
}


TEST(Corruption, ACorruptedPayloadByteIsCaughtOnceAndNeverOutlivesItsFrame) {
  // Corrupting a payload byte changes the mbuf's pattern; the wire layer restores it on the
  // mbuf's next build. 40 MB cycle the whole data pool at least twice, so a byte left
  // corrupted would fail the ICRC check again in a later frame.
  cc::Controller line_rate = testing::controller("fixed_rate");
  testing::TwoHosts t(line_rate, line_rate, testing::host_config("a", 1),
                      testing::host_config("b", 2), 1);
  t.connect(1);
  runtime::LinkFaults faults(Rng(1, 1));
  faults.corrupt_frames({10, 11, 12});
  faults.corrupt_at_offset(200);  // inside the payload of a 1 KiB WRITE
  t.ab.set_faults(&faults);
  t.a->post(0, 40'000'000, Time::zero());
  EXPECT_TRUE(t.run().idle);
  EXPECT_EQ(t.b->parse_counters()[wire::ParseError::BadIcrc], 3u);
  EXPECT_EQ(t.b->counters().rx_parse_errors, 3u);
  EXPECT_EQ(t.b->qp(0).counters.payload_bytes_received, 40'000'000u);
}

}  // namespace
}  // namespace rtb::host
