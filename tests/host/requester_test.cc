#include "host/requester.h"

#include <gtest/gtest.h>

#include <vector>

#include "host/psn.h"
#include "host/responder.h"
#include "host/send_times.h"
#include "wire/opcode.h"

namespace rtb::host {
namespace {

namespace op = wire::op;

std::vector<FrameDesc> drain(Requester& r, Time now) {
  std::vector<FrameDesc> out;
  while (r.has_frame(now)) out.push_back(r.next_frame(now));
  return out;
}

TEST(Psn, ModularArithmetic) {
  EXPECT_EQ(psn_add(0xFFFFFF, 1), 0u);
  EXPECT_EQ(psn_diff(0, 0xFFFFFF), 1);
  EXPECT_EQ(psn_diff(0xFFFFFF, 0), -1);
  EXPECT_TRUE(psn_before(0xFFFFF0, 5));
}

TEST(Requester, SegmentsWritesIntoMtuFramesWithTheRightOpcodes) {
  Requester r({.path_mtu = 1024, .verb = Verb::kWrite, .ack_req_every = 2, .start_psn = 100});
  r.post(2500, Time::zero());  // 1024 + 1024 + 452
  r.post(1024, Time::zero());  // exactly one frame: ONLY
  r.post(0, Time::zero());     // a zero-byte WRITE is one ONLY frame without payload
  const auto f = drain(r, Time::zero());
  ASSERT_EQ(f.size(), 5u);
  EXPECT_EQ(f[0].opcode, op::kWriteFirst);
  EXPECT_EQ(f[1].opcode, op::kWriteMiddle);
  EXPECT_EQ(f[2].opcode, op::kWriteLast);
  EXPECT_EQ(f[3].opcode, op::kWriteOnly);
  EXPECT_EQ(f[4].opcode, op::kWriteOnly);
  EXPECT_EQ(f[2].payload_bytes, 452u);
  EXPECT_EQ(f[4].payload_bytes, 0u);
  EXPECT_EQ(f[0].psn, 100u);
  EXPECT_EQ(f[4].psn, 104u);
  EXPECT_EQ(f[0].message_bytes, 2500u);
  EXPECT_EQ(f[2].offset, 2048u);
  // AckReq every 2nd frame of a message and on every LAST/ONLY.
  EXPECT_FALSE(f[0].ack_req);
  EXPECT_TRUE(f[1].ack_req);
  EXPECT_TRUE(f[2].ack_req);
  EXPECT_TRUE(f[3].ack_req);
  EXPECT_EQ(r.outstanding_bytes(), 2500u + 1024);
}

TEST(Requester, SendVerbOpcodes) {
  Requester r({.path_mtu = 256, .verb = Verb::kSend});
  r.post(600, Time::zero());
  const auto f = drain(r, Time::zero());
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[0].opcode, op::kSendFirst);
  EXPECT_EQ(f[1].opcode, op::kSendMiddle);
  EXPECT_EQ(f[2].opcode, op::kSendLast);
}

TEST(Requester, MessagesWaitForTheirStartTime) {
  Requester r({});
  r.post(100, Time::us(5));
  EXPECT_FALSE(r.has_frame(Time::us(4)));
  EXPECT_EQ(r.next_start(), Time::us(5));
  EXPECT_TRUE(r.has_frame(Time::us(5)));
}

TEST(Requester, CumulativeAckCompletesMessagesAtTheAckTime) {
  Requester r({.path_mtu = 1000});
  r.post(3000, Time::zero());
  r.post(500, Time::zero());
  drain(r, Time::zero());
  r.on_ack(1, Time::us(1));  // frames 0 and 1
  EXPECT_EQ(r.outstanding_bytes(), 1500u);
  EXPECT_TRUE(r.messages()[0].completed.is_never());
  r.on_ack(3, Time::us(2));
  EXPECT_EQ(r.messages()[0].completed, Time::us(2));
  EXPECT_EQ(r.messages()[1].completed, Time::us(2));
  EXPECT_TRUE(r.done());
  EXPECT_EQ(r.outstanding_bytes(), 0u);
  EXPECT_EQ(r.timer_deadline(), Time::never());
  r.on_ack(1, Time::us(3));  // stale: ignored
  EXPECT_EQ(r.snd_una(), 4u);
}

TEST(Requester, NakGoesBackToTheExpectedPsnAndCountsRetransmissions) {
  Requester r({.path_mtu = 1000});
  r.post(5000, Time::zero());
  drain(r, Time::zero());  // PSNs 0..4
  r.on_nak_seq_err(2, Time::us(1));  // 0 and 1 arrived; 2 was lost
  EXPECT_EQ(r.snd_una(), 2u);
  EXPECT_EQ(r.snd_nxt(), 2u);
  const auto again = drain(r, Time::us(1));
  ASSERT_EQ(again.size(), 3u);
  EXPECT_EQ(again[0].psn, 2u);
  EXPECT_TRUE(again[0].retransmission);
  EXPECT_EQ(again[0].opcode, op::kWriteMiddle);
  EXPECT_EQ(r.counters().retransmitted_frames, 3u);
  EXPECT_EQ(r.counters().naks_seq_err, 1u);
  r.on_ack(4, Time::us(2));
  EXPECT_TRUE(r.done());
}

TEST(Requester, TimeoutGoesBackAndTheQpFailsAfterTheRetryLimit) {
  Requester r({.path_mtu = 1000, .local_ack_timeout = 0, .retry_cnt = 2});
  const Time rto = ack_timeout(0);  // 4.096 us
  EXPECT_EQ(rto, Time::ns(4'096));
  r.post(2000, Time::zero());
  drain(r, Time::zero());
  EXPECT_EQ(r.timer_deadline(), rto);
  r.on_timer(rto - Time::ps(1));  // early: nothing
  EXPECT_EQ(r.counters().timeouts, 0u);
  Time now = rto;
  for (int retry = 1; retry <= 2; ++retry) {
    r.on_timer(now);
    EXPECT_EQ(r.counters().timeouts, static_cast<uint64_t>(retry));
    EXPECT_FALSE(r.failed());
    EXPECT_EQ(drain(r, now).size(), 2u);  // everything resent
    now += rto;
    EXPECT_EQ(r.timer_deadline(), now);
  }
  r.on_timer(now);
  EXPECT_TRUE(r.failed());
  EXPECT_EQ(r.counters().transport_retries_exceeded, 1u);
  EXPECT_FALSE(r.has_frame(now));
  EXPECT_EQ(r.timer_deadline(), Time::never());
}

TEST(Requester, ProgressResetsTheRetryCount) {
  Requester r({.path_mtu = 1000, .local_ack_timeout = 0, .retry_cnt = 1});
  r.post(3000, Time::zero());
  drain(r, Time::zero());
  r.on_timer(ack_timeout(0));
  drain(r, ack_timeout(0));
  r.on_ack(0, ack_timeout(0) + Time::ns(1));
  r.on_timer(ack_timeout(0) * 3);
  EXPECT_FALSE(r.failed());  // the ACK reset the retry count
}

TEST(Requester, PsnWrapsAcrossTheTopOfTheSpace) {
  Requester r({.path_mtu = 100, .start_psn = 0xFFFFFE});
  r.post(400, Time::zero());
  const auto f = drain(r, Time::zero());
  ASSERT_EQ(f.size(), 4u);
  EXPECT_EQ(f[1].psn, 0xFFFFFFu);
  EXPECT_EQ(f[2].psn, 0u);
  r.on_ack(1, Time::us(1));
  EXPECT_TRUE(r.done());
}

// acked_bytes for the algorithm: only bytes acknowledged for the first time. After a NAK
// the rewound window is not acknowledged; a later ACK covering resent frames counts them
// once, and stale or duplicate ACKs count nothing.
TEST(Requester, NewlyAcknowledgedBytesOnlyAcrossANakAndGoBackN) {
  RequesterConfig c;
  c.path_mtu = 1024;
  Requester r(c);
  r.post(10 * 1024 + 100, Time::zero());  // 11 frames, the last of 100 bytes
  ASSERT_EQ(drain(r, Time::zero()).size(), 11u);
  EXPECT_EQ(r.on_ack(1, Time::us(1)), 2u * 1024);            // PSNs 0, 1
  EXPECT_EQ(r.on_ack(1, Time::us(1)), 0u);                   // duplicate
  EXPECT_EQ(r.on_nak_seq_err(4, Time::us(2)), 2u * 1024);    // 2, 3 arrived; 4 lost
  EXPECT_EQ(r.outstanding_bytes(), 0u);                      // rewound, nothing in flight
  EXPECT_EQ(r.on_nak_seq_err(4, Time::us(3)), 0u);           // the same NAK again
  ASSERT_EQ(drain(r, Time::us(3)).size(), 7u);               // 4..10 resent
  EXPECT_EQ(r.on_ack(10, Time::us(4)), 6u * 1024 + 100);     // 4..10, once
  EXPECT_EQ(r.on_ack(10, Time::us(5)), 0u);
  EXPECT_TRUE(r.done());
}

// BECN: the next reply carries the CE marks of the frames it answers (accepted since the
// previous reply, or the duplicate it re-acknowledges); a frame dropped for a gap carries
// none.
TEST(Responder, BecnEchoesCeMarkedDataOnTheReplyThatAnswersIt) {
  Responder rx(0);
  EXPECT_FALSE(rx.on_data(0, 1024, true, false, false).becn);
  // Coalesced: frame 1 (CE, no AckReq) is answered by the ACK of frame 2.
  EXPECT_EQ(rx.on_data(1, 1024, false, false, true).reply, Response::Kind::kNone);
  const Response two = rx.on_data(2, 1024, true, false, false);
  EXPECT_EQ(two.reply, Response::Kind::kAck);
  EXPECT_TRUE(two.becn);
  EXPECT_FALSE(rx.on_data(3, 1024, true, false, false).becn);  // cleared by the reply
  // A CE-marked frame past a gap is dropped: its NAK carries no echo.
  const Response nak = rx.on_data(5, 1024, true, false, true);
  EXPECT_EQ(nak.reply, Response::Kind::kNakSeqErr);
  EXPECT_FALSE(nak.becn);
  // A CE-marked duplicate is answered, with BECN.
  EXPECT_TRUE(rx.on_data(2, 1024, true, false, true).becn);
}

TEST(SendTimes, SamplesHeldPsnsAcrossTheWrapAndNoneOnceOverwritten) {
  SendTimes t(2);  // 4 entries
  EXPECT_EQ(t.rtt(0, Time::us(1)), Time::zero());  // nothing sent yet
  for (uint32_t i = 0; i < 6; ++i) t.record(psn_add(0xFFFFFE, i), Time::ns(100 * i));
  EXPECT_EQ(t.rtt(psn_add(0xFFFFFE, 5), Time::us(2)), Time::us(2) - Time::ns(500));
  EXPECT_EQ(t.rtt(psn_add(0xFFFFFE, 2), Time::us(2)), Time::us(2) - Time::ns(200));  // PSN 0
  EXPECT_EQ(t.rtt(psn_add(0xFFFFFE, 1), Time::us(2)), Time::zero());  // overwritten
  EXPECT_EQ(t.rtt(psn_add(0xFFFFFE, 6), Time::us(2)), Time::zero());  // not sent
  t.record(psn_add(0xFFFFFE, 3), Time::ns(900));  // a retransmission is timed afresh
  EXPECT_EQ(t.rtt(psn_add(0xFFFFFE, 3), Time::us(2)), Time::us(2) - Time::ns(900));
  EXPECT_FALSE(SendTimes(0).enabled());
}

TEST(Responder, InOrderGapDuplicate) {
  Responder rx(10);
  Response a = rx.on_data(10, 1000, false, false);
  EXPECT_TRUE(a.accepted);
  EXPECT_EQ(a.reply, Response::Kind::kNone);
  Response gap = rx.on_data(12, 1000, true, false);  // 11 lost
  EXPECT_EQ(gap.reply, Response::Kind::kNakSeqErr);
  EXPECT_EQ(gap.psn, 11u);
  EXPECT_EQ(rx.on_data(13, 1000, true, true).reply, Response::Kind::kNone);  // one NAK per gap
  EXPECT_EQ(rx.counters().out_of_sequence, 2u);
  Response fill = rx.on_data(11, 1000, true, false);
  EXPECT_TRUE(fill.accepted);
  EXPECT_EQ(fill.reply, Response::Kind::kAck);
  EXPECT_EQ(fill.psn, 11u);
  Response dup = rx.on_data(10, 1000, false, false);
  EXPECT_EQ(dup.reply, Response::Kind::kAck);
  EXPECT_EQ(dup.psn, 11u);
  EXPECT_EQ(rx.counters().duplicate_request, 1u);
  Response last = rx.on_data(12, 500, true, true);
  EXPECT_TRUE(last.message_complete);
  EXPECT_EQ(last.msn, 1u);
  EXPECT_EQ(rx.counters().payload_bytes_accepted, 2'500u);  // 13 was dropped
}

TEST(RequesterResponder, LossyExchangeDeliversEveryByteOnce) {
  // Frames with PSN % 7 == 3 are lost the first time; NAKs drive go-back-N.
  Requester tx({.path_mtu = 256, .ack_req_every = 4});
  Responder rx;
  for (int m = 0; m < 20; ++m) tx.post(1000 + 37 * m, Time::zero());
  std::vector<bool> lost_once(1000, false);
  Time now;
  while (!tx.done()) {
    if (!tx.has_frame(now)) {  // tail loss: only the timer recovers it
      ASSERT_FALSE(tx.timer_deadline().is_never());
      now = tx.timer_deadline();
      tx.on_timer(now);
      ASSERT_TRUE(tx.has_frame(now));
    }
    const FrameDesc f = tx.next_frame(now);
    now += Time::ns(100);
    if (f.psn % 7 == 3 && !lost_once[f.psn]) {
      lost_once[f.psn] = true;
      continue;
    }
    const bool last = f.opcode == op::kWriteLast || f.opcode == op::kWriteOnly;
    const Response r = rx.on_data(f.psn, f.payload_bytes, f.ack_req, last);
    if (r.reply == Response::Kind::kAck) tx.on_ack(r.psn, now);
    if (r.reply == Response::Kind::kNakSeqErr) tx.on_nak_seq_err(r.psn, now);
  }
  uint64_t total = 0;
  for (int m = 0; m < 20; ++m) total += 1000 + 37 * m;
  EXPECT_EQ(rx.counters().payload_bytes_accepted, total);
  EXPECT_EQ(rx.counters().messages_received, 20u);
  EXPECT_EQ(tx.counters().payload_bytes_sent - tx.counters().retransmitted_bytes, total);
  EXPECT_GT(tx.counters().naks_seq_err, 0u);
  EXPECT_FALSE(tx.failed());
}

}  // namespace
}  // namespace rtb::host
