#include "host/requester.h"

#include <cassert>

#include "host/psn.h"
#include "wire/opcode.h"

namespace rtb::host {
namespace {

uint8_t opcode_for(Verb verb, uint32_t frame, uint32_t frames) {
  const bool first = frame == 0;
  const bool last = frame + 1 == frames;
  if (verb == Verb::kWrite) {
    if (first && last) return wire::op::kWriteOnly;
    if (first) return wire::op::kWriteFirst;
    return last ? wire::op::kWriteLast : wire::op::kWriteMiddle;
  }
  if (first && last) return wire::op::kSendOnly;
  if (first) return wire::op::kSendFirst;
  return last ? wire::op::kSendLast : wire::op::kSendMiddle;
}

}  // namespace

Time ack_timeout(uint8_t local_ack_timeout) {
  // 4.096 us x 2^timeout (IBTA vol 1 §9.7.6.1.3).
  return Time::ns(4'096) * (uint64_t{1} << local_ack_timeout);
}

Requester::Requester(const RequesterConfig& config)
    : config_(config),
      timeout_(ack_timeout(config.local_ack_timeout)),
      next_post_psn_(config.start_psn & kPsnMask),
      snd_una_(next_post_psn_),
      snd_nxt_(next_post_psn_),
      max_sent_(next_post_psn_) {}

void Requester::post(uint64_t bytes, Time start) {
  assert(bytes <= kMaxMessageBytes);
  const uint64_t frames = bytes == 0 ? 1 : (bytes + config_.path_mtu - 1) / config_.path_mtu;
  messages_.push_back(MessageRecord{bytes, start, Time::never(), next_post_psn_,
                                    static_cast<uint32_t>(frames)});
  next_post_psn_ = psn_add(next_post_psn_, static_cast<uint32_t>(frames));
}

bool Requester::has_frame(Time now) const {
  return !failed_ && nxt_msg_ < messages_.size() && messages_[nxt_msg_].start <= now;
}

Time Requester::next_start() const {
  return failed_ || nxt_msg_ >= messages_.size() ? Time::never() : messages_[nxt_msg_].start;
}

uint32_t Requester::payload_of(const MessageRecord& m, uint32_t frame) const {
  if (frame + 1 < m.frames) return config_.path_mtu;
  return static_cast<uint32_t>(m.bytes - uint64_t{m.frames - 1} * config_.path_mtu);
}

FrameDesc Requester::next_frame(Time now) {
  assert(has_frame(now));
  const MessageRecord& m = messages_[nxt_msg_];
  const auto k = static_cast<uint32_t>(psn_diff(snd_nxt_, m.first_psn));
  const bool last = k + 1 == m.frames;
  FrameDesc f;
  f.opcode = opcode_for(config_.verb, k, m.frames);
  f.psn = snd_nxt_;
  f.payload_bytes = payload_of(m, k);
  f.ack_req = last || (k + 1) % config_.ack_req_every == 0;
  f.retransmission = psn_before(snd_nxt_, max_sent_);
  f.message = static_cast<uint32_t>(nxt_msg_);
  f.message_bytes = m.bytes;
  f.offset = uint64_t{k} * config_.path_mtu;

  if (snd_una_ == snd_nxt_) last_progress_ = now;  // the timer starts with the first frame out
  snd_nxt_ = psn_add(snd_nxt_, 1);
  if (!f.retransmission) max_sent_ = snd_nxt_;
  if (last) ++nxt_msg_;
  outstanding_bytes_ += f.payload_bytes;
  ++counters_.frames_sent;
  counters_.payload_bytes_sent += f.payload_bytes;
  if (f.retransmission) {
    ++counters_.retransmitted_frames;
    counters_.retransmitted_bytes += f.payload_bytes;
  }
  return f;
}

size_t Requester::message_of(uint32_t psn) const {
  size_t i = una_msg_;
  while (i < messages_.size() &&
         psn_diff(psn, psn_add(messages_[i].first_psn, messages_[i].frames)) >= 0) {
    ++i;
  }
  return i;
}

// Moves snd_una to psn + 1, completing every message whose last frame it covers.
// Returns the payload bytes of [old snd_una, psn]: acknowledged for the first time.
uint64_t Requester::acknowledge_through(uint32_t psn, Time now) {
  const uint32_t new_una = psn_add(psn, 1);
  if (psn_diff(new_una, snd_una_) <= 0 || psn_diff(new_una, max_sent_) > 0) return 0;  // stale
  // Frames in [snd_una, min(new_una, snd_nxt)) stop being outstanding; frames between a
  // rewound snd_nxt and new_una were not outstanding but are acknowledged all the same.
  const uint32_t end = psn_diff(new_una, snd_nxt_) < 0 ? new_una : snd_nxt_;
  uint64_t acked = 0;
  size_t msg = una_msg_;
  bool in_flight = snd_una_ != end;
  for (uint32_t p = snd_una_; p != new_una; p = psn_add(p, 1)) {
    if (p == end) in_flight = false;
    while (psn_diff(p, psn_add(messages_[msg].first_psn, messages_[msg].frames)) >= 0) ++msg;
    const uint32_t bytes =
        payload_of(messages_[msg], static_cast<uint32_t>(psn_diff(p, messages_[msg].first_psn)));
    acked += bytes;
    if (in_flight) outstanding_bytes_ -= bytes;
  }
  snd_una_ = new_una;
  while (una_msg_ < messages_.size() &&
         psn_diff(snd_una_, psn_add(messages_[una_msg_].first_psn, messages_[una_msg_].frames)) >= 0) {
    messages_[una_msg_++].completed = now;
    ++counters_.messages_completed;
  }
  if (psn_diff(snd_una_, snd_nxt_) > 0) {  // acknowledged beyond a rewind: skip ahead
    snd_nxt_ = snd_una_;
    nxt_msg_ = message_of(snd_nxt_);
  }
  last_progress_ = now;
  retries_ = 0;
  return acked;
}

uint64_t Requester::on_ack(uint32_t psn, Time now) {
  ++counters_.acks;
  return acknowledge_through(psn, now);
}

uint64_t Requester::on_nak_seq_err(uint32_t expected_psn, Time now) {
  ++counters_.naks_seq_err;
  const uint64_t acked = acknowledge_through(psn_add(expected_psn, kPsnMask), now);  // expected - 1
  if (expected_psn == snd_una_ && psn_before(expected_psn, snd_nxt_)) go_back_to(expected_psn);
  return acked;
}

void Requester::go_back_to(uint32_t psn) {
  snd_nxt_ = psn;
  nxt_msg_ = message_of(psn);
  outstanding_bytes_ = 0;  // psn == snd_una: nothing is outstanding until resent
}

Time Requester::timer_deadline() const {
  if (failed_ || snd_una_ == snd_nxt_) return Time::never();
  return last_progress_ + timeout_;
}

void Requester::on_timer(Time now) {
  if (now < timer_deadline()) return;
  ++counters_.timeouts;
  if (retries_ >= config_.retry_cnt) {
    failed_ = true;  // the QP goes to the error state, as a NIC's does
    counters_.transport_retries_exceeded = 1;
    return;
  }
  ++retries_;
  go_back_to(snd_una_);
  last_progress_ = now;
}

}  // namespace rtb::host
