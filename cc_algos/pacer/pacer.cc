#include "cc_algos/pacer/pacer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>

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
    : flows_(c.max_flows, Flow{0, 0, 0, 0, 0, kIdle}),
      queues_(uint64_t{1} << c.slots_log2, c.max_flows),
      busy_(uint64_t{1} << c.slots_log2),
      width_ps_(c.slot_width.ps()),
      mask_((uint64_t{1} << c.slots_log2) - 1),
      lag_ps_(c.max_lag.ps() == 0 ? c.slot_width.ps() : c.max_lag.ps()) {}

size_t Pacer::wheel_bytes() const {
  return (mask_ + 1) * sizeof(SlotQueues::Slot) + (mask_ + 1) / 8 * 65 / 64;
}

// File f at the tail of the slot of its next send time: never before the cursor, and at
// most one revolution ahead (a later flow parks in the last slot and is re-filed when that
// slot comes round). A new ticket makes any older entry of f stale.
void Pacer::insert(FlowIndex f) {
  Flow& fl = flows_[f];
  const uint64_t target = std::min(std::max(abs_slot(fl.next_send_ps), cursor_), cursor_ + mask_);
  const uint32_t idx = static_cast<uint32_t>(target & mask_);
  fl.slot = idx & 0xffffff;
  fl.state = kWaiting;
  ++fl.ticket;
  // The slot is a likely cache miss (anywhere in the wheel): start fetching it now and
  // file the entry later, with the other pending ones, when the line has arrived.
  busy_.set(idx);
  __builtin_prefetch(queues_.slot_address(idx), 1);
  pending_[pending_count_++] = Pending{idx, SlotQueues::Entry{f, fl.ticket}};
  if (pending_count_ == kPending) flush();
}

// Files the pending entries in order (FIFO within a slot holds): first fetch the tail
// chunks of the now cached slots, then append.
void Pacer::flush() {
  for (size_t i = 0; i < pending_count_; ++i)
    __builtin_prefetch(queues_.tail_address(pending_[i].idx), 1);
  for (size_t i = 0; i < pending_count_; ++i) file(pending_[i].idx, pending_[i].entry);
  pending_count_ = 0;
}

void Pacer::file(uint32_t idx, SlotQueues::Entry e) {
  if (!queues_.append(idx, e)) {
    compact();
    [[maybe_unused]] const bool ok = queues_.append(idx, e);
    assert(ok && "the chunk pool holds every live entry once compacted");
  }
  ++queues_.slot(idx).live;
}

// Lazy removal: f's entry stays in its slot, stale because f is no longer waiting. A slot
// left with no live entry is emptied at once, so the bitmap only shows live slots.
void Pacer::remove(FlowIndex f) {
  flush();
  Flow& fl = flows_[f];
  const uint32_t idx = fl.slot;
  if (--queues_.slot(idx).live == 0) {
    queues_.clear(idx);
    busy_.clear(idx);
  }
  fl.state = kIdle;
}

// The pool ran dry: sweep stale (and already read) entries out of every live slot.
void Pacer::compact() {
  ++compactions_;
  for (uint64_t i = busy_.find_from(0); i != SlotBitmap::kNone; i = busy_.find_from(i + 1))
    queues_.compact(static_cast<uint32_t>(i), [this](SlotQueues::Entry e) { return live(e); });
}

// The first slot holding live entries at or after the absolute slot `from`, within one
// revolution of the cursor, or UINT64_MAX.
uint64_t Pacer::next_busy_from(uint64_t from) const {
  const uint64_t end = cursor_ + mask_ + 1;
  if (from >= end) return UINT64_MAX;
  const uint64_t fi = from & mask_;
  uint64_t i = busy_.find_from(fi);
  uint64_t s = UINT64_MAX;
  if (i != SlotBitmap::kNone) {
    s = from + (i - fi);
  } else if ((i = busy_.find_from(0)) != SlotBitmap::kNone && i < fi) {
    s = from + (mask_ + 1 - fi) + i;
  }
  return s < end ? s : UINT64_MAX;
}

// A three-stage pipeline ahead of the drain of slot s, so that each miss has a slot's
// worth of work to hide behind: the flow records of the next busy slot (its entries are
// cached by now), the head chunk of the one after, the header of the third.
void Pacer::prefetch_ahead(uint64_t s) const {
  const uint64_t a = next_busy_from(s + 1);
  if (a == UINT64_MAX) return;
  queues_.peek(static_cast<uint32_t>(a & mask_),
               [this](SlotQueues::Entry e) { __builtin_prefetch(&flows_[e.flow], 1); });
  const uint64_t b = next_busy_from(a + 1);
  if (b == UINT64_MAX) return;
  __builtin_prefetch(queues_.head_address(static_cast<uint32_t>(b & mask_)));
  const uint64_t c = next_busy_from(b + 1);
  if (c != UINT64_MAX) __builtin_prefetch(queues_.slot_address(static_cast<uint32_t>(c & mask_)));
}

Time Pacer::next_deadline() const {
  const uint64_t s = next_busy_from(cursor_);
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

// Drains slots in time order. Entries are taken kBatch at a time and their flow records
// prefetched together, so the misses of a batch overlap instead of following each other.
size_t Pacer::poll(Time now, std::span<FlowIndex> out) {
  flush();
  const uint64_t now_slot = abs_slot(now.ps());
  size_t n = 0;
  while (n < out.size()) {
    const uint64_t s = next_busy_from(cursor_);
    if (s == UINT64_MAX || s > now_slot) {
      cursor_ = std::max(cursor_, now_slot);  // every slot up to now is empty
      break;
    }
    if (s != prefetched_for_) prefetch_ahead(s);
    prefetched_for_ = s;
    cursor_ = s;
    const uint32_t idx = static_cast<uint32_t>(s & mask_);
    SlotQueues::Entry batch[kBatch];
    const size_t want = std::min(kBatch, out.size() - n);
    size_t m = 0;
    while (m < want && queues_.pop(idx, batch[m])) __builtin_prefetch(&flows_[batch[m++].flow]);
    if (m == 0) {  // cannot happen (a live slot has entries); never spin on it
      assert(false && "a slot with live entries has entries to read");
      queues_.slot(idx).live = 0;
      busy_.clear(idx);
      continue;
    }
    for (size_t k = 0; k < m; ++k) {
      if (!live(batch[k])) continue;  // blocked, re-filed or rescaled since: skip
      const FlowIndex f = batch[k].flow;
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
