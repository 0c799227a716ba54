#include "cc_algos/pacer/pacer.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cassert>

namespace rtb::cc {

namespace {
constexpr uint64_t kPsPerSecond = 1'000'000'000'000ULL;
constexpr uint32_t kMaxFlows = 1u << 28;
// Lane entries: room for every flow twice (a live entry and a stale one each), within
// 16..8192 (128 KiB). A filing the full lane cannot take goes to the wheel.
uint64_t lane_size(uint32_t max_flows) {
  return std::bit_ceil(std::clamp<uint64_t>(uint64_t{2} * max_flows, 16, 8192));
}
}  // namespace

Expected<Pacer> Pacer::create(const PacerConfig& c) {
  if (c.max_flows == 0 || c.max_flows > kMaxFlows)
    return Error{fmt::format("pacer: max_flows = {} is invalid: expected 1..{}", c.max_flows, kMaxFlows)};
  if (c.slot_width.ps() == 0)
    return Error{"pacer: slot_width = 0 ps is invalid: expected a positive time (e.g. 100ns)"};
  if (c.slots_log2 < 6 || c.slots_log2 > 24)
    return Error{fmt::format("pacer: slots_log2 = {} is invalid: expected 6..24 (64 to 16M slots)",
                             c.slots_log2)};
  if (c.fine_log2 < 1 || c.fine_log2 > 15)
    return Error{fmt::format("pacer: fine_log2 = {} is invalid: expected 1..15", c.fine_log2)};
  return Pacer(c);
}

// The fine wheel takes up to 2^fine_log2 slots of the horizon, and never all of it: at
// least two buckets, so a bucket never holds the cursor's span while it is cascaded.
Pacer::Pacer(const PacerConfig& c)
    : flows_(c.max_flows, Flow{0, 0, 0, 0, 0, kIdle}),
      fine_log2_(std::min(c.fine_log2, c.slots_log2 - 1)),
      fine_(1u << fine_log2_),
      bucket_mask_((uint64_t{1} << (c.slots_log2 - fine_log2_)) - 1),
      lists_(static_cast<uint32_t>(fine_ + bucket_mask_ + 1), c.max_flows),
      fine_busy_(fine_),
      bucket_busy_(bucket_mask_ + 1),
      bucket_min_(bucket_mask_ + 1, 0),
      bucket_stale_(bucket_mask_ + 1, 0),
      width_ps_(c.slot_width.ps()),
      mask_((uint64_t{1} << c.slots_log2) - 1),
      lag_ps_(c.max_lag.ps() == 0 ? c.slot_width.ps() : c.max_lag.ps()),
      lane_(lane_size(c.max_flows)),
      lane_mask_(lane_.size() - 1) {}

size_t Pacer::wheel_bytes() const {
  const uint64_t lists = fine_ + bucket_mask_ + 1;
  const uint64_t per_list_chunks = std::min<uint64_t>(lists, flows_.size());
  return lists * sizeof(ChunkLists::List) + per_list_chunks * sizeof(ChunkLists::Chunk) +
         (bucket_mask_ + 1) * (sizeof(uint64_t) + sizeof(uint32_t)) + lists / 8 * 65 / 64 +
         lane_.size() * sizeof(LaneEntry);
}

// File f at the tail of the list of its next send time: never before the cursor, and at
// most one horizon ahead (a later flow parks in the last span and is re-filed when that
// span's bucket is cascaded). A new ticket makes any older entry of f stale. The entry
// carries its fine slot, so that a cascade can move it without reading f's record.
void Pacer::insert(FlowIndex f) {
  Flow& fl = flows_[f];
  const uint64_t slot = abs_slot(fl.next_send_ps);
  const uint64_t target = std::min(std::max(slot, cursor_), cursor_ + mask_);
  ++fl.ticket;
  fl.state = kWaiting;
  if (target >= slot && lane_takes(target)) {  // in time order, and not parked
    lane_[lane_tail_++ & lane_mask_] = LaneEntry{target, f, fl.ticket};
    fl.list = kLaneList;
    ++lane_filings_;
    return;
  }
  const auto fine_slot = static_cast<uint16_t>(target & (fine_ - 1));
  uint32_t list = fine_slot;
  if (span(target) == span(cursor_)) {
    if (lists_.list(list).live == 0) fine_busy_.set(list);
  } else {
    const uint64_t b = span(target) & bucket_mask_;
    list = static_cast<uint32_t>(fine_ + b);
    if (lists_.list(list).live == 0) {
      bucket_busy_.set(b);
      bucket_min_[b] = target;
    } else {
      bucket_min_[b] = std::min(bucket_min_[b], target);
    }
  }
  fl.list = list & 0xffffff;
  // In a bucket, only a parked flow's target differs from the slot of its send time (a
  // late flow's target is the cursor, in the fine wheel).
  file(list, Entry{f, fl.ticket, target == slot || list < fine_ ? fine_slot : kParked});
}

void Pacer::file(uint32_t list, Entry e) {
  if (!lists_.append(list, e)) {
    compact();
    [[maybe_unused]] const bool ok = lists_.append(list, e);
    assert(ok && "the chunk pool holds every live entry once compacted");
  }
  ++lists_.list(list).live;
}

// The list holding a waiting flow's entry. A bucket moved whole into the fine slots
// (move_to_fine) leaves its flows' records naming the bucket: such a flow's send time is in
// the cursor's span, and it waits in the fine slot of that time. (The bucket of the
// cursor's span may meanwhile hold flows of the span a revolution later.)
uint32_t Pacer::list_of(const Flow& fl) const {
  if (fl.list != fine_ + (span(cursor_) & bucket_mask_)) return fl.list;
  const uint64_t slot = abs_slot(fl.next_send_ps);
  return span(slot) == span(cursor_) ? static_cast<uint32_t>(slot & (fine_ - 1)) : fl.list;
}

// The lane takes a filing while the wheel has no live flow (so that every lane entry was
// filed before every wheel entry), in slot order, and while it has room.
bool Pacer::lane_takes(uint64_t target) const {
  return wheel_empty() && lane_tail_ - lane_head_ <= lane_mask_ &&
         (lane_empty() || lane_[(lane_tail_ - 1) & lane_mask_].slot <= target);
}

// Drops stale entries from both ends of the lane: its front gives next_deadline(), and its
// back the slot a filing must not precede.
void Pacer::trim_lane() {
  while (!lane_empty() && !lane_live(lane_[lane_head_ & lane_mask_])) ++lane_head_;
  while (!lane_empty() && !lane_live(lane_[(lane_tail_ - 1) & lane_mask_])) --lane_tail_;
}

FlowIndex Pacer::release_lane_front() {
  const LaneEntry e = lane_[lane_head_++ & lane_mask_];
  cursor_ = e.slot;  // nothing waits in an earlier slot (poll() compares with the wheel)
  flows_[e.flow].state = kReleased;
  trim_lane();
  return e.flow;
}

// Lazy removal: f's entry stays in its list, stale because f is no longer waiting.
void Pacer::remove(FlowIndex f) {
  Flow& fl = flows_[f];
  if (fl.list == kLaneList) {
    fl.state = kIdle;
    trim_lane();
    return;
  }
  const uint32_t list = list_of(fl);
  if (list >= fine_) ++bucket_stale_[list - fine_];
  leave(list);
  fl.state = kIdle;
}

// A flow left `list`. A list left with no live entry is emptied at once, so the bitmaps
// only show live lists.
void Pacer::leave(uint32_t list) {
  if (--lists_.list(list).live != 0) return;
  lists_.clear(list);
  if (list < fine_) {
    fine_busy_.clear(list);
  } else {
    bucket_busy_.clear(list - fine_);
    bucket_stale_[list - fine_] = 0;
  }
}

// The pool ran dry: sweep stale (and already read) entries out of every live list. A bucket
// with no stale entry has nothing to sweep (and is left alone while move_to_fine reads it).
void Pacer::compact() {
  ++compactions_;
  for (uint64_t i = fine_busy_.find_from(0); i != SlotBitmap::kNone; i = fine_busy_.find_from(i + 1)) {
    const auto list = static_cast<uint32_t>(i);
    lists_.compact(list, [&](Entry e) { return filed_in(e, list); });
  }
  for (uint64_t b = bucket_busy_.find_from(0); b != SlotBitmap::kNone; b = bucket_busy_.find_from(b + 1)) {
    if (bucket_stale_[b] == 0) continue;
    const auto list = static_cast<uint32_t>(fine_ + b);
    lists_.compact(list, [&](Entry e) { return in_bucket(e, list); });
    bucket_stale_[b] = 0;
  }
}

// The first live fine slot at or after the cursor (absolute), or UINT64_MAX.
uint64_t Pacer::next_fine() const {
  const uint64_t i = fine_busy_.find_from(cursor_ & (fine_ - 1));
  return i == SlotBitmap::kNone ? UINT64_MAX : (cursor_ & ~uint64_t{fine_ - 1}) | i;
}

// The live bucket of the earliest span after the cursor's, or kNone. Buckets hold spans
// (cursor's span, cursor's span + buckets], so the first one found going round from the
// next span's bucket is the earliest.
uint64_t Pacer::next_bucket() const {
  const uint64_t from = (span(cursor_) + 1) & bucket_mask_;
  const uint64_t b = bucket_busy_.find_from(from);
  return b != SlotBitmap::kNone || from == 0 ? b : bucket_busy_.find_from(0);
}

Time Pacer::next_deadline() const {
  if (wheel_empty()) return lane_empty() ? Time::never() : Time::ps(lane_front() * width_ps_);
  uint64_t s = next_fine();
  if (s == UINT64_MAX) {
    const uint64_t b = next_bucket();
    if (b != SlotBitmap::kNone) s = bucket_min_[b];
  }
  s = std::min(s, lane_front());
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
      remove(f);  // before the send time moves: list_of() reads it
      // The unelapsed part of the gap, at the new rate: remaining·old/new.
      const u128 remaining = fl.next_send_ps - now.ps();
      fl.next_send_ps = now.ps() + static_cast<uint64_t>(remaining * old / rate.bps());
      fl.rem = 0;
      insert(f);
    }
  } else if (fl.state == kStalled && rate.bps() != 0) {
    schedule_from(f, now);
  }
}

// Releases in time order: the live fine slots of the cursor's span up to now, then, when
// the span holds no more, the next span whose bucket has started by now is cascaded. The
// lane's front goes first when its slot is no later (it was filed before the wheel's
// flows); a bucket starting in the front's slot is cascaded first, so that the cursor
// never enters a span whose bucket is still to be cascaded.
size_t Pacer::poll(Time now, std::span<FlowIndex> out) {
  const uint64_t now_slot = abs_slot(now.ps());
  size_t n = 0;
  while (n < out.size()) {
    const uint64_t lane = lane_front();
    uint64_t s = UINT64_MAX;         // the wheel's next live fine slot,
    uint64_t b = SlotBitmap::kNone;  // else its next live bucket,
    uint64_t start = UINT64_MAX;     // and the first slot of that bucket's span
    if (!wheel_empty()) {
      s = next_fine();
      if (s == UINT64_MAX) b = next_bucket();
      if (b != SlotBitmap::kNone) start = bucket_min_[b] & ~uint64_t{fine_ - 1};
    }
    if (lane <= s && lane < start) {
      if (lane > now_slot) break;
      out[n++] = release_lane_front();
    } else if (s != UINT64_MAX) {
      if (s > now_slot) break;
      cursor_ = s;
      n += drain(s, out.subspan(n));
    } else {
      if (start > now_slot) break;
      cursor_ = start;  // the fine wheel is empty: it moves on to the bucket's span
      cascade(b);
    }
  }
  if (n < out.size()) cursor_ = std::max(cursor_, now_slot);  // every slot up to now is empty
  return n;
}

// Takes up to out.size() entries of fine slot s (absolute), their flow records prefetched
// together, and releases the live ones: a waiting flow whose ticket matches and whose send
// time falls in slot s (any other filing of a waiting flow is in a later slot).
size_t Pacer::drain(uint64_t s, std::span<FlowIndex> out) {
  const uint32_t i = static_cast<uint32_t>(s & (fine_ - 1));
  const uint64_t end_ps = (s + 1) * width_ps_;
  Entry batch[kBatch];
  const size_t want = std::min(kBatch, out.size());
  size_t m = 0;
  while (m < want && lists_.pop(i, batch[m])) __builtin_prefetch(&flows_[batch[m++].flow], 1);
  assert(m > 0 && "a live slot has entries to read");
  size_t n = 0;
  for (size_t k = 0; k < m; ++k) {
    Flow& fl = flows_[batch[k].flow];
    if (!current(fl, batch[k]) || fl.next_send_ps >= end_ps) continue;  // left since: skip
    leave(i);
    fl.state = kReleased;
    out[n++] = batch[k].flow;
  }
  if (m == 0) {  // cannot happen; never spin on it
    lists_.list(i).live = 0;
    lists_.clear(i);
    fine_busy_.clear(i);
  }
  return n;
}

// The cursor has just entered bucket b's span (at its first slot): its live entries go, in
// filing order, into the fine slots (or, parked beyond the horizon, into a later bucket:
// never b, since the cursor is at the span's start).
void Pacer::cascade(uint64_t b) {
  const uint32_t list = static_cast<uint32_t>(fine_ + b);
  if (bucket_stale_[b] == 0)
    move_to_fine(list);
  else
    refile_live(list);
  assert(lists_.list(list).live == 0 && "a cascaded bucket leaves no live entry behind");
  lists_.list(list).live = 0;
  lists_.clear(list);
  bucket_busy_.clear(b);
  bucket_stale_[b] = 0;
}

// Reads `list` front to back and hands each entry to take(), in order, a chunk at a time:
// while one chunk's entries are handed over, the next chunk's are already read and their
// flows' records prefetched (31 to 62 entries ahead).
template <class Take>
void Pacer::read_ahead(uint32_t list, Take&& take) {
  Entry chunk[2][ChunkLists::kPerChunk];
  auto [first, end] = lists_.pop_chunk(list, chunk[0]);
  for (uint32_t k = first; k < end; ++k) __builtin_prefetch(&flows_[chunk[0][k].flow], 1);
  for (size_t cur = 0; first < end; cur ^= 1) {
    const auto [next_first, next_end] = lists_.pop_chunk(list, chunk[cur ^ 1]);
    for (uint32_t k = next_first; k < next_end; ++k)
      __builtin_prefetch(&flows_[chunk[cur ^ 1][k].flow], 1);
    for (uint32_t k = first; k < end; ++k) take(chunk[cur][k]);
    first = next_first;
    end = next_end;
  }
}

// No entry of the bucket is stale: each goes as it is to the fine slot it carries, and the
// flows' records are not read (list_of() knows where the flows are now); they are only
// prefetched for the drain and send that follow. Only parked flows are re-filed from their
// records. README.md measures what not reading them here saves at 10^6 flows.
void Pacer::move_to_fine(uint32_t list) {
  read_ahead(list, [&](Entry e) {
    --lists_.list(list).live;
    if (e.slot == kParked) return insert(e.flow);
    if (lists_.list(e.slot).live == 0) fine_busy_.set(e.slot);
    file(e.slot, e);
  });
}

// Some entries are stale: each is checked against its flow's record, and the live ones are
// re-filed; a record's miss overlaps the filing of the chunk of entries before it.
void Pacer::refile_live(uint32_t list) {
  read_ahead(list, [&](Entry e) {
    if (!in_bucket(e, list)) return;
    --lists_.list(list).live;
    insert(e.flow);
  });
}

// next = max(next, now − max_lag) + (bits·1e12 + rem)/rate, remainder carried (in 64 bits
// when the numerator fits, as it does for any frame below 2 MB).
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
  uint64_t num64;
  if (!__builtin_mul_overflow(frame.bits(), kPsPerSecond, &num64) &&
      !__builtin_add_overflow(num64, fl.rem, &num64)) {
    fl.next_send_ps += num64 / fl.rate_bps;
    fl.rem = num64 % fl.rate_bps;
  } else {
    const u128 num = static_cast<u128>(frame.bits()) * kPsPerSecond + fl.rem;
    fl.next_send_ps += static_cast<uint64_t>(num / fl.rate_bps);
    fl.rem = static_cast<uint64_t>(num % fl.rate_bps);
  }
  if (still_ready)
    insert(f);
  else
    fl.state = kIdle;
}

}  // namespace rtb::cc
