// Deadlines a loop checks (style habit 4): an indexed binary min-heap of times with one
// slot per id, sized at start-up. Setting an id that is already armed moves it (decrease
// or increase key), so the heap never holds stale entries and never allocates after
// construction. Ties are broken by id, so the order is deterministic. The host keeps its
// per-QP timers (congestion control, retransmission, message start) in one.
//
// Each id's deadline is also kept in a dense array by id (at_), so deadline(id), the
// question a sender asks on every frame ("is my timer already armed at this time?"), reads
// one slot beside its neighbours' (a QP's three timers share a cache line, which
// prefetch() loads ahead) instead of the id's position and then a heap entry.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "core/units.h"

namespace rtb {

class IndexedMinHeap {
 public:
  explicit IndexedMinHeap(uint32_t ids) : pos_(ids, kAbsent), at_(ids, Time::never()) {
    heap_.reserve(ids);
  }

  // Arms `id` at `at` (Time::never() disarms it).
  void set(uint32_t id, Time at) {
    if (at.is_never()) return cancel(id);
    if (at_[id] == at) return;  // armed there already: the heap is unchanged
    at_[id] = at;
    if (pos_[id] == kAbsent) {
      pos_[id] = static_cast<uint32_t>(heap_.size());
      heap_.push_back({at, id});
      up(pos_[id]);
      return;
    }
    Entry& e = heap_[pos_[id]];
    const Time old = e.at;
    e.at = at;
    if (at < old) {
      up(pos_[id]);
    } else {
      down(pos_[id]);
    }
  }
  void cancel(uint32_t id) {
    if (at_[id].is_never()) return;
    const uint32_t p = pos_[id];
    swap(p, static_cast<uint32_t>(heap_.size()) - 1);
    heap_.pop_back();
    pos_[id] = kAbsent;
    at_[id] = Time::never();
    if (p < heap_.size()) {
      up(p);
      down(p);
    }
  }
  Time next() const { return heap_.empty() ? Time::never() : heap_.front().at; }
  // The earliest id due at or before `now`, disarmed; false when none is due.
  bool pop_due(Time now, uint32_t& id) {
    if (heap_.empty() || heap_.front().at > now) return false;
    id = heap_.front().id;
    cancel(id);
    return true;
  }
  Time deadline(uint32_t id) const { return at_[id]; }
  size_t size() const { return heap_.size(); }
  // Starts loading id's deadline (and those of the ids beside it).
  void prefetch(uint32_t id) const { __builtin_prefetch(&at_[id], 1); }

 private:
  static constexpr uint32_t kAbsent = UINT32_MAX;
  struct Entry {
    Time at;
    uint32_t id;
    bool before(const Entry& o) const { return at != o.at ? at < o.at : id < o.id; }
  };
  void swap(uint32_t a, uint32_t b) {
    std::swap(heap_[a], heap_[b]);
    pos_[heap_[a].id] = a;
    pos_[heap_[b].id] = b;
  }
  void up(uint32_t i) {
    while (i > 0) {
      const uint32_t parent = (i - 1) / 2;
      if (!heap_[i].before(heap_[parent])) break;
      swap(i, parent);
      i = parent;
    }
  }
  void down(uint32_t i) {
    const auto n = static_cast<uint32_t>(heap_.size());
    for (;;) {
      uint32_t best = i;
      const uint32_t l = 2 * i + 1, r = l + 1;
      if (l < n && heap_[l].before(heap_[best])) best = l;
      if (r < n && heap_[r].before(heap_[best])) best = r;
      if (best == i) return;
      swap(i, best);
      i = best;
    }
  }

  std::vector<Entry> heap_;
  std::vector<uint32_t> pos_;
  std::vector<Time> at_;  // by id: its deadline, Time::never() when disarmed
};

}  // namespace rtb
