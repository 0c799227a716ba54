#include "runtime/wire_link.h"

#include <rte_mbuf.h>

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstdio>
#include <cstdlib>

#include "runtime/frame_tap.h"
#include "runtime/link_faults.h"

namespace rtb::runtime {
namespace {

// Frames that can be in flight at once: the cable holds propagation / (shortest frame
// time) frames, plus the one being serialized, plus control frames queued behind it.
uint32_t ring_capacity(const WireLinkConfig& c) {
  const Time shortest = c.rate.time_for(wire_occupancy(0));
  const Time longest = c.rate.time_for(wire_occupancy(static_cast<uint32_t>(c.max_frame.count())));
  const uint64_t frames = (c.propagation + longest) / shortest + 16;
  return std::bit_ceil(static_cast<uint32_t>(frames));
}

}  // namespace

WireLink::WireLink(WireLinkConfig config)
    : config_(std::move(config)),
      serial_(config_.rate),
      ring_(ring_capacity(config_)),
      mask_(static_cast<uint32_t>(ring_.size()) - 1) {}

WireLink::~WireLink() { drain(); }

void WireLink::connect_receiver(Waker* waker, StageId receiver) {
  waker_ = waker;
  receiver_ = receiver;
}

void WireLink::send(Time now, rte_mbuf* frame) {
  assert(can_send(now));
  start_frame(now, now, frame);
}

void WireLink::send_control(Time now, rte_mbuf* frame) {
  ++counters_.control_frames;
  start_frame(now, busy_until_ > now ? busy_until_ : now, frame);
}

Time WireLink::start_frame(Time now, Time start, rte_mbuf* frame) {
  if (start > busy_until_) serial_.reset();  // the wire was idle: no remainder to carry
  const uint32_t len = rte_pktmbuf_pkt_len(frame);
  const Time serialization = serial_.advance(wire_occupancy(len));
  const uint64_t index = counters_.frames++;
  counters_.bytes += len;
  counters_.busy += serialization;
  busy_until_ = start + serialization;
  const Time arrival = busy_until_ + config_.propagation;

  const LinkFaults::Verdict verdict =
      faults_ ? faults_->judge(index, start, frame) : LinkFaults::Verdict::kPass;
  if (tap_ != nullptr) tap_->on_frame(now, start, frame, verdict);
  switch (verdict) {
    case LinkFaults::Verdict::kDrop:
      ++counters_.dropped_fault;
      rte_pktmbuf_free(frame);
      return arrival;
    case LinkFaults::Verdict::kLinkDown:
      ++counters_.dropped_link_down;
      rte_pktmbuf_free(frame);
      return arrival;
    case LinkFaults::Verdict::kCorrupted:
      ++counters_.corrupted;
      break;
    case LinkFaults::Verdict::kPass:
      break;
  }
  if (crossing_ != nullptr) {
    crossing_->staged[crossing_->writing].push_back(InFlight{arrival, frame});
  } else {
    push(arrival, frame);
  }
  return arrival;
}

void WireLink::make_crossing() {
  crossing_ = std::make_unique<Crossing>();
  for (auto& b : crossing_->staged) b.reserve(ring_.size());
}

Time WireLink::first_staged() const {
  const auto& b = crossing_->staged[crossing_->writing];
  return b.empty() ? Time::never() : b.front().arrival;
}

bool WireLink::take_staged(uint64_t window, Time window_start) {
  auto& b = crossing_->staged[(window - 1) & 1];
  if (!b.empty() && b.front().arrival < window_start) return false;
  for (const InFlight& f : b) push(f.arrival, f.frame);
  b.clear();
  return true;
}

void WireLink::push(Time arrival, rte_mbuf* frame) {
  if (count_ == mask_ + 1) {
    std::fprintf(stderr, "rocetb: link %s: more frames in flight than its ring holds (%zu)\n",
                 config_.name.c_str(), ring_.size());
    std::abort();  // an internal sizing bug, not a user error
  }
  ring_[(head_ + count_) & mask_] = InFlight{arrival, frame};
  if (++count_ == 1) {
    *next_arrival_ = arrival;
    if (arrival < *earliest_) *earliest_ = arrival;
  }
  if (waker_ != nullptr) waker_->wake(receiver_, arrival);
}

void WireLink::deliver(Time now, rte_mbuf* frame) {
  assert(room() > 0);
  ++counters_.frames;
  counters_.bytes += rte_pktmbuf_pkt_len(frame);
  push(now, frame);
}

void WireLink::keep_next_arrival_in(Time* slot, Time* earliest) {
  Time* to = slot != nullptr ? slot : &own_next_arrival_;
  *to = *next_arrival_;
  next_arrival_ = to;
  earliest_ = earliest != nullptr ? earliest : &own_earliest_;
  if (*next_arrival_ < *earliest_) *earliest_ = *next_arrival_;
}

void WireLink::apply_pause(uint8_t priority, uint16_t quanta, Time now) {
  // One pause quantum = 512 bit times = 64 bytes at the link rate (802.1Qbb, 802.3 31B).
  paused_until_[priority] = now + config_.rate.time_for(Bytes(64) * quanta);
}

uint32_t WireLink::receive(Time now, rte_mbuf** out, uint32_t max) {
  const uint32_t n = faults_ == nullptr ? take_due(now, out, max) : take_due_with_faults(now, out, max);
  *next_arrival_ = count_ == 0 ? Time::never() : ring_[head_].arrival;
  counters_.delivered += n;
  return n;
}

// The usual link: every due frame is delivered, in a loop that keeps the ring's cursor in
// registers (nothing in it calls out).
uint32_t WireLink::take_due(Time now, rte_mbuf** out, uint32_t max) {
  const InFlight* ring = ring_.data();
  const uint32_t limit = std::min(count_, max);
  uint32_t head = head_;
  uint32_t n = 0;
  while (n < limit && ring[head].arrival <= now) {
    out[n++] = ring[head].frame;
    head = (head + 1) & mask_;
  }
  head_ = head;
  count_ -= n;
  return n;
}

uint32_t WireLink::take_due_with_faults(Time now, rte_mbuf** out, uint32_t max) {
  uint32_t n = 0;
  while (count_ > 0 && n < max && ring_[head_].arrival <= now) {
    const InFlight& f = ring_[head_];
    head_ = (head_ + 1) & mask_;
    --count_;
    if (faults_->down_at(f.arrival)) {
      ++counters_.lost_down_in_flight;  // the link went down while the frame was on it
      rte_pktmbuf_free(f.frame);
      continue;
    }
    out[n++] = f.frame;
  }
  return n;
}

uint32_t WireLink::drain() {
  uint32_t n = count_;
  for (; count_ > 0; --count_, head_ = (head_ + 1) & mask_) rte_pktmbuf_free(ring_[head_].frame);
  if (crossing_ != nullptr) {
    for (auto& b : crossing_->staged) {
      for (const InFlight& f : b) rte_pktmbuf_free(f.frame);
      n += static_cast<uint32_t>(b.size());
      b.clear();
    }
  }
  *next_arrival_ = Time::never();
  return n;
}

}  // namespace rtb::runtime
