// The FIFO of each timing-wheel slot, stored apart from the flow records: a slot holds its
// first kInline entries itself and the rest in 32-byte chunks from a pool sized at creation.
// An entry is (flow, ticket); the pacer deletes lazily (it bumps the flow's ticket or state
// and decrements the slot's live count), so inserting or removing one flow never touches
// another flow's record, and draining a slot reads its entries in order.
//
// Bound: a slot of n > kInline packed entries uses ceil((n - kInline)/kPerChunk) chunks,
// which is at most n/kPerChunk because kInline >= kPerChunk - 1. With at most one live
// entry per flow, a packed wheel therefore needs at most ceil(max_flows/kPerChunk) chunks.
// Stale entries (and consumed ones at a slot's head) are dropped by compact(); the pacer
// compacts when the pool runs dry, and the pool has a quarter more than the bound so a
// compaction buys at least max_flows/(4·kPerChunk) appends (amortised O(1) per packet).
#pragma once

#include <cassert>
#include <cstdint>
#include <vector>

namespace rtb::cc {

class SlotQueues {
 public:
  static constexpr uint32_t kNil = UINT32_MAX;
  static constexpr uint32_t kInline = 2;
  static constexpr uint32_t kPerChunk = 3;
  static_assert(kInline + 1 >= kPerChunk, "the chunk bound needs kInline >= kPerChunk - 1");

  struct Entry {
    uint32_t flow;
    uint32_t ticket;  // the flow's ticket when filed; stale once the flow's ticket moves on
  };
  struct alignas(32) Slot {
    uint32_t live = 0;     // entries still current (kept by the pacer)
    uint32_t head = kNil;  // first overflow chunk
    uint32_t tail = kNil;  // last overflow chunk
    uint8_t begin = 0;     // inline entries [begin, end) not yet read
    uint8_t end = 0;
    uint16_t head_begin = 0;  // read position in the head chunk
    Entry inline_entries[kInline];
  };
  struct alignas(32) Chunk {
    uint32_t next = kNil;  // next chunk of the slot, or of the free list
    uint32_t end = 0;      // entries written
    Entry entries[kPerChunk];
  };
  static_assert(sizeof(Slot) == 32 && sizeof(Chunk) == 32);

  static constexpr uint64_t chunks_for(uint64_t max_flows) {
    const uint64_t bound = (max_flows + kPerChunk - 1) / kPerChunk;
    return bound + (bound + 3) / 4;
  }

  SlotQueues(uint64_t slots, uint64_t max_flows)
      : slots_(slots), chunks_(chunks_for(max_flows)) {
    for (uint32_t c = 0; c < chunks_.size(); ++c) chunks_[c].next = c + 1 < chunks_.size() ? c + 1 : kNil;
    free_ = chunks_.empty() ? kNil : 0;
    free_count_ = chunks_.size();
  }

  Slot& slot(uint32_t idx) { return slots_[idx]; }
  const Slot& slot(uint32_t idx) const { return slots_[idx]; }
  const Slot* slot_address(uint32_t idx) const { return &slots_[idx]; }
  const void* head_address(uint32_t idx) const {
    const Slot& s = slots_[idx];
    return s.head == kNil ? static_cast<const void*>(&s) : &chunks_[s.head];
  }
  // Calls f on the unread inline entries and those of the head chunk (for prefetching).
  template <class F>
  void peek(uint32_t idx, F&& f) const {
    const Slot& s = slots_[idx];
    for (uint32_t i = s.begin; i < s.end; ++i) f(s.inline_entries[i]);
    if (s.head == kNil) return;
    const Chunk& h = chunks_[s.head];
    for (uint32_t i = s.head_begin; i < h.end; ++i) f(h.entries[i]);
  }
  // Where the next append to the slot will write (for prefetching).
  const void* tail_address(uint32_t idx) const {
    const Slot& s = slots_[idx];
    return s.tail == kNil ? static_cast<const void*>(&s) : &chunks_[s.tail];
  }
  size_t bytes() const { return slots_.size() * sizeof(Slot) + chunks_.size() * sizeof(Chunk); }
  size_t chunks() const { return chunks_.size(); }
  size_t free_chunks() const { return free_count_; }

  // Appends at the tail; false when a chunk is needed and the pool is empty.
  bool append(uint32_t idx, Entry e) {
    Slot& s = slots_[idx];
    if (s.head == kNil && s.begin == s.end) s.begin = s.end = 0;  // all read: reuse inline
    if (s.head == kNil && s.end < kInline) {
      s.inline_entries[s.end++] = e;
      return true;
    }
    if (s.tail == kNil || chunks_[s.tail].end == kPerChunk) {
      if (free_ == kNil) return false;
      const uint32_t c = free_;
      free_ = chunks_[c].next;
      --free_count_;
      chunks_[c].next = kNil;
      chunks_[c].end = 0;
      if (s.tail == kNil) s.head = c; else chunks_[s.tail].next = c;
      s.tail = c;
    }
    Chunk& t = chunks_[s.tail];
    t.entries[t.end++] = e;
    return true;
  }

  // Takes the oldest unread entry; false when the slot has none.
  bool pop(uint32_t idx, Entry& e) {
    Slot& s = slots_[idx];
    if (s.begin < s.end) {
      e = s.inline_entries[s.begin++];
      return true;
    }
    while (s.head != kNil) {
      Chunk& h = chunks_[s.head];
      if (s.head_begin < h.end) {
        e = h.entries[s.head_begin++];
        return true;
      }
      if (h.end < kPerChunk) return false;  // the tail: later appends land here
      const uint32_t next = h.next;
      release(s.head);
      s.head = next;
      s.head_begin = 0;
      if (next == kNil) s.tail = kNil;
    }
    return false;
  }

  // Drops every entry (all stale) and returns the slot's chunks to the pool.
  void clear(uint32_t idx) {
    Slot& s = slots_[idx];
    for (uint32_t c = s.head; c != kNil;) {
      const uint32_t next = chunks_[c].next;
      release(c);
      c = next;
    }
    s.head = s.tail = kNil;
    s.begin = s.end = 0;
    s.head_begin = 0;
  }

  // Rewrites the slot's unread entries packed from the start, keeping those for which
  // live(entry) holds, in order, and frees the chunks no longer needed. The read and write
  // positions walk the same sequence and the write never passes the read.
  template <class Live>
  void compact(uint32_t idx, Live&& live) {
    Slot& s = slots_[idx];
    Cursor w{kNil, 0};
    uint32_t w_chunk_first = kNil;
    uint32_t inline_count = 0;
    Entry inl[kInline];
    // The inline entries are read first: copy them out so writing inline cannot clobber.
    for (uint32_t i = s.begin; i < s.end; ++i)
      if (live(s.inline_entries[i])) inl[inline_count++] = s.inline_entries[i];
    s.begin = s.end = 0;
    for (uint32_t i = 0; i < inline_count; ++i) s.inline_entries[s.end++] = inl[i];
    // Then the chunk entries: write into inline space first, then reuse the chunks in order.
    uint32_t rc = s.head;
    uint32_t ri = s.head_begin;
    while (rc != kNil) {
      if (ri == chunks_[rc].end) {
        rc = chunks_[rc].next;
        ri = 0;
        continue;
      }
      const Entry e = chunks_[rc].entries[ri++];
      if (!live(e)) continue;
      if (s.end < kInline && w.chunk == kNil) {
        s.inline_entries[s.end++] = e;
        continue;
      }
      if (w.chunk == kNil) {
        w = {s.head, 0};
        w_chunk_first = s.head;
      } else if (w.pos == kPerChunk) {
        w = {chunks_[w.chunk].next, 0};
      }
      chunks_[w.chunk].entries[w.pos++] = e;
    }
    // Free the chunks after the write position.
    uint32_t spare = w.chunk == kNil ? s.head : chunks_[w.chunk].next;
    while (spare != kNil) {
      const uint32_t next = chunks_[spare].next;
      release(spare);
      spare = next;
    }
    if (w.chunk == kNil) {
      s.head = s.tail = kNil;
    } else {
      chunks_[w.chunk].next = kNil;
      chunks_[w.chunk].end = w.pos;
      s.head = w_chunk_first;
      s.tail = w.chunk;
    }
    s.head_begin = 0;
    // A chunk that is not the tail must be full for pop() to step past it.
    assert(s.head == s.tail || chunks_[s.head].end == kPerChunk);
  }

 private:
  struct Cursor {
    uint32_t chunk;
    uint32_t pos;
  };
  void release(uint32_t c) {
    chunks_[c].next = free_;
    free_ = c;
    ++free_count_;
  }

  std::vector<Slot> slots_;
  std::vector<Chunk> chunks_;
  uint32_t free_ = kNil;
  size_t free_count_ = 0;
};

}  // namespace rtb::cc
