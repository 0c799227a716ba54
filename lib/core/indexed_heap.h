// Deadlines a loop checks (style habit 4): an indexed 4-ary min-heap of times with one
// slot per id, sized at start-up. Setting an id that is already armed moves it (decrease
// or increase key), so the heap never holds stale entries and never allocates after
// construction. Ties are broken by id: (time, id) orders the entries totally, so the
// order of pops is the same for any heap shape. The host keeps its per-QP timers
// (congestion control, retransmission, message start) in one.
//
// Four children a node (D. B. Johnson, "Priority queues with update and finding minimum
// spanning trees", IPL 1975; LaMarca and Ladner, "The influence of caches on the
// performance of heaps", JEA 1996): a million QPs' three million timers are 11 levels
// deep instead of 22, and a node's four 16-byte children fill one cache line (the array
// starts three entries early so that every group of siblings is line-aligned). Entries
// are moved into a hole rather than swapped, so a level costs one position update, and
// the arrays of a large heap lie on huge pages: each level of a sift is a random read
// that would otherwise also miss the TLB.
//
// Each id's deadline is also kept in a dense array by id (at_), so deadline(id), the
// question a sender asks on every frame ("is my timer already armed at this time?"), reads
// one slot beside its neighbours' (a QP's three timers share a cache line, which
// prefetch() loads ahead) instead of the id's position and then a heap entry.
#pragma once

#include <cstdint>
#include <vector>

#include "core/huge_page_allocator.h"
#include "core/units.h"

namespace rtb {

class IndexedMinHeap {
 public:
  explicit IndexedMinHeap(uint32_t ids) : pos_(ids, kAbsent), at_(ids, Time::never()) {
    heap_.reserve(size_t{ids} + kPad);
    heap_.resize(kPad);
  }

  // Arms `id` at `at` (Time::never() disarms it).
  void set(uint32_t id, Time at) {
    if (at.is_never()) return cancel(id);
    if (at_[id] == at) return;  // armed there already: the heap is unchanged
    const Time old = at_[id];
    at_[id] = at;
    if (pos_[id] == kAbsent) {
      heap_.push_back({});
      return up(size() - 1, Entry{at, id});
    }
    if (at < old) return up(pos_[id], Entry{at, id});
    down(pos_[id], Entry{at, id});
  }
  void cancel(uint32_t id) {
    if (at_[id].is_never()) return;
    const uint32_t hole = pos_[id];
    const Entry last = slot(size() - 1);
    heap_.pop_back();
    pos_[id] = kAbsent;
    at_[id] = Time::never();
    if (hole == size()) return;  // it was the last entry
    if (hole > 0 && last.before(slot(parent(hole)))) return up(hole, last);
    down(hole, last);
  }
  Time next() const { return size() == 0 ? Time::never() : slot(0).at; }
  // The earliest id due at or before `now`, disarmed; false when none is due.
  bool pop_due(Time now, uint32_t& id) {
    if (size() == 0 || slot(0).at > now) return false;
    id = slot(0).id;
    cancel(id);
    return true;
  }
  Time deadline(uint32_t id) const { return at_[id]; }
  uint32_t size() const { return static_cast<uint32_t>(heap_.size() - kPad); }
  // Starts loading id's deadline (and those of the ids beside it).
  void prefetch(uint32_t id) const { __builtin_prefetch(&at_[id], 1); }

 private:
  static constexpr uint32_t kAbsent = UINT32_MAX;
  static constexpr uint32_t kArity = 4;
  // Node i's children are kArity * i + 1 ... + kArity: stored kPad slots on, each group
  // of siblings starts at a multiple of kArity entries (64 bytes).
  static constexpr uint32_t kPad = kArity - 1;
  struct Entry {
    Time at;
    uint32_t id;
    bool before(const Entry& o) const { return at != o.at ? at < o.at : id < o.id; }
  };
  static_assert(sizeof(Entry) * kArity == 64, "a node's children fill one cache line");
  static uint32_t parent(uint32_t i) { return (i - 1) / kArity; }
  Entry& slot(uint32_t i) { return heap_[i + kPad]; }
  const Entry& slot(uint32_t i) const { return heap_[i + kPad]; }
  void place(uint32_t i, const Entry& e) {
    slot(i) = e;
    pos_[e.id] = i;
  }
  // Moves the hole at i towards the root past every parent e comes before, and fills it.
  void up(uint32_t i, const Entry& e) {
    while (i > 0 && e.before(slot(parent(i)))) {
      place(i, slot(parent(i)));
      i = parent(i);
    }
    place(i, e);
  }
  // Moves the hole at i down past every earliest child that comes before e, and fills it.
  void down(uint32_t i, const Entry& e) {
    const uint32_t n = size();
    for (;;) {
      const uint32_t first = kArity * i + 1;
      if (first >= n) break;
      const uint32_t end = first + kArity < n ? first + kArity : n;
      uint32_t best = first;
      for (uint32_t c = first + 1; c < end; ++c) {
        if (slot(c).before(slot(best))) best = c;
      }
      if (!slot(best).before(e)) break;
      place(i, slot(best));
      i = best;
    }
    place(i, e);
  }

  std::vector<Entry, HugePageAllocator<Entry>> heap_;  // kPad unused slots, then the heap
  std::vector<uint32_t, HugePageAllocator<uint32_t>> pos_;  // by id: its node, or kAbsent
  std::vector<Time, HugePageAllocator<Time>> at_;  // by id: its deadline, never when disarmed
};

}  // namespace rtb
