#include "cc_algos/pacer/pacer.h"

#include <fmt/format.h>

#include <algorithm>

namespace rtb::cc {

namespace {
constexpr uint64_t kPsPerSecond = 1'000'000'000'000ULL;
constexpr uint32_t kMaxFlows = 1u << 28;
}  // namespace

Expected<Pacer> Pacer::create(const PacerConfig& c) {
  if (c.max_flows == 0 || c.max_flows > kMaxFlows)
    return Error{fmt::format("pacer: max_flows = {} is invalid: expected 1..{}", c.max_flows, kMaxFlows)};
  if (c.slot_width.ps() == 0)
    return Error{"pacer: slot_width = 0 ps is invalid: expected a positive time (e.g. 100ns)"};
  if (c.slots_log2 < 6 || c.slots_log2 > 24)
    return Error{fmt::format("pacer: slots_log2 = {} is invalid: expected 6..24 (64 to 16M slots)",
                             c.slots_log2)};
  return Pacer(c);
}

Pacer::Pacer(const PacerConfig& c)
    : flows_(c.max_flows, Flow{0, 0, 0, kNil, kNil, 0, kIdle}),
      slots_(size_t{1} << c.slots_log2, Slot{kNil, kNil}),
      busy_(uint64_t{1} << c.slots_log2),
      width_ps_(c.slot_width.ps()),
      mask_((uint64_t{1} << c.slots_log2) - 1),
      lag_ps_(c.max_lag.ps() == 0 ? c.slot_width.ps() : c.max_lag.ps()) {}

size_t Pacer::wheel_bytes() const {
  return slots_.size() * sizeof(Slot) + (mask_ + 1) / 8 * 65 / 64;
}

// Append f to the FIFO of the slot of its next send time: never before the cursor, and
// at most one revolution ahead (a later flow parks in the last slot and is re-filed when
// that slot comes round).
void Pacer::insert(FlowIndex f) {
  Flow& fl = flows_[f];
  const uint64_t target = std::min(std::max(abs_slot(fl.next_send_ps), cursor_), cursor_ + mask_);
  const uint32_t idx = static_cast<uint32_t>(target & mask_);
  fl.slot = idx;
  fl.state = kWaiting;
  fl.next = kNil;
  Slot& slot = slots_[idx];
  fl.prev = slot.tail;
  if (fl.prev == kNil) {
    slot.head = f;
    busy_.set(idx);
  } else {
    flows_[fl.prev].next = f;
  }
  slot.tail = f;
}

void Pacer::remove(FlowIndex f) {
  Flow& fl = flows_[f];
  const uint32_t idx = fl.slot;
  Slot& slot = slots_[idx];
  if (fl.prev == kNil) slot.head = fl.next; else flows_[fl.prev].next = fl.next;
  if (fl.next == kNil) slot.tail = fl.prev; else flows_[fl.next].prev = fl.prev;
  if (slot.head == kNil) busy_.clear(idx);
  fl.prev = fl.next = kNil;
  fl.state = kIdle;
}

uint64_t Pacer::next_busy_slot() const {
  const uint64_t ci = cursor_ & mask_;
  uint64_t i = busy_.find_from(ci);
  if (i != SlotBitmap::kNone) return cursor_ + (i - ci);
  i = busy_.find_from(0);
  if (i != SlotBitmap::kNone && i < ci) return cursor_ + (mask_ + 1 - ci) + i;
  return UINT64_MAX;
}

Time Pacer::next_deadline() const {
  const uint64_t s = next_busy_slot();
  return s == UINT64_MAX ? Time::never() : Time::ps(s * width_ps_);
}

// Join the wheel at max(now, next): time spent unable to send earns nothing.
void Pacer::schedule_from(FlowIndex f, Time now) {
  Flow& fl = flows_[f];
  if (fl.next_send_ps < now.ps()) {
    fl.next_send_ps = now.ps();
    fl.rem = 0;
  }
  insert(f);
}

void Pacer::ready(FlowIndex f, Time now) {
  Flow& fl = flows_[f];
  if (fl.state == kWaiting) return;
  if (fl.rate_bps == 0) {
    fl.state = kStalled;
    return;
  }
  schedule_from(f, now);
}

void Pacer::block(FlowIndex f) {
  if (flows_[f].state == kWaiting) remove(f);
  flows_[f].state = kIdle;
}

void Pacer::set_rate(FlowIndex f, Rate rate, Time now) {
  Flow& fl = flows_[f];
  const uint64_t old = fl.rate_bps;
  fl.rate_bps = rate.bps();
  if (fl.state == kWaiting) {
    if (rate.bps() == 0) {
      remove(f);
      fl.state = kStalled;
      return;
    }
    if (fl.next_send_ps > now.ps() && old != rate.bps()) {
      // The unelapsed part of the gap, at the new rate: remaining·old/new.
      const u128 remaining = fl.next_send_ps - now.ps();
      fl.next_send_ps = now.ps() + static_cast<uint64_t>(remaining * old / rate.bps());
      fl.rem = 0;
      remove(f);
      insert(f);
    }
  } else if (fl.state == kStalled && rate.bps() != 0) {
    schedule_from(f, now);
  }
}

size_t Pacer::poll(Time now, std::span<FlowIndex> out) {
  const uint64_t now_slot = abs_slot(now.ps());
  size_t n = 0;
  while (n < out.size()) {
    const uint64_t s = next_busy_slot();
    if (s == UINT64_MAX || s > now_slot) {
      cursor_ = std::max(cursor_, now_slot);  // every slot up to now is empty
      break;
    }
    cursor_ = s;
    const uint32_t idx = static_cast<uint32_t>(s & mask_);
    while (slots_[idx].head != kNil && n < out.size()) {
      const FlowIndex f = slots_[idx].head;
      remove(f);
      if (abs_slot(flows_[f].next_send_ps) > s) {  // parked beyond the horizon: re-file
        insert(f);
        continue;
      }
      flows_[f].state = kReleased;
      out[n++] = f;
    }
  }
  return n;
}

// next = max(next, now − max_lag) + (bits·1e12 + rem)/rate, remainder carried.
void Pacer::sent(FlowIndex f, Bytes frame, Time now, bool still_ready) {
  Flow& fl = flows_[f];
  if (fl.state == kWaiting) remove(f);
  if (fl.rate_bps == 0) {
    fl.state = still_ready ? kStalled : kIdle;
    return;
  }
  const uint64_t floor_ps = now.ps() > lag_ps_ ? now.ps() - lag_ps_ : 0;
  if (fl.next_send_ps < floor_ps) {
    fl.next_send_ps = floor_ps;
    fl.rem = 0;
  }
  const u128 num = static_cast<u128>(frame.bits()) * kPsPerSecond + fl.rem;
  fl.next_send_ps += static_cast<uint64_t>(num / fl.rate_bps);
  fl.rem = static_cast<uint64_t>(num % fl.rate_bps);
  if (still_ready)
    insert(f);
  else
    fl.state = kIdle;
}

}  // namespace rtb::cc
