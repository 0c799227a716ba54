// FIFO lists of (flow, ticket, slot) entries in 256-byte chunks from one pool sized at
// creation: the pacer's fine slots and coarse buckets (pacer.h). An entry is stale once its flow's
// ticket or state has moved on (the pacer deletes lazily), so filing or removing a flow
// never touches another flow's record; draining a list reads its chunks in order.
//
// Bound: a list of n > 0 packed entries uses ceil(n/kPerChunk) <= n/kPerChunk + 1 chunks.
// With at most one live entry per flow, packed lists need at most
// ceil(max_entries/kPerChunk) + min(max_entries, lists) chunks. Stale entries (and read ones
// at a list's head) are dropped by compact(); the pacer compacts when the pool runs dry, and
// the pool holds a quarter of ceil(max_entries/kPerChunk) more than the bound, so a
// compaction buys at least max_entries/(4·kPerChunk) appends (amortised O(1) per packet).
#pragma once

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "core/huge_page_allocator.h"


namespace rtb::cc {

class ChunkLists {
 public:
  static constexpr uint32_t kNil = UINT32_MAX;
  static constexpr uint32_t kPerChunk = 31;

  struct Entry {
    uint32_t flow;
    uint16_t ticket;  // the flow's ticket when filed (mod 2^16); stale once it moves on
    uint16_t slot;    // the pacer's: the fine slot its time falls in, or that it parked
  };
  // The tail's fill count lives here, not in the chunk: an append reads only this header
  // and writes the chunk, so a tail chunk out of cache costs a store, not a stall.
  struct List {
    uint32_t head = kNil;  // first chunk (read from)
    uint32_t tail = kNil;  // last chunk (appended to); every other chunk is full
    uint32_t live = 0;     // entries still current (kept by the pacer)
    uint8_t begin = 0;     // read position in the head chunk
    uint8_t tail_end = 0;  // entries written in the tail chunk
  };
  // Four cache lines. A list is a chain, and a chain is read one chunk per memory latency
  // (the next index is in the chunk): 31 entries per chunk let a drain prefetch the next
  // chunk a whole chunk of work ahead, where 7 (one line) left the chain the bottleneck.
  struct alignas(64) Chunk {
    uint32_t next = kNil;  // next chunk of the list, or of the free list
    Entry entries[kPerChunk];
  };
  static_assert(sizeof(Chunk) == 256 && sizeof(List) == 16);

  static constexpr uint64_t chunks_for(uint64_t max_entries, uint64_t lists) {
    const uint64_t packed = (max_entries + kPerChunk - 1) / kPerChunk;
    return packed + std::min(max_entries, lists) + (packed + 3) / 4;
  }

  ChunkLists(uint32_t lists, uint64_t max_entries)
      : lists_(lists), chunks_(chunks_for(max_entries, lists)) {
    for (uint32_t c = 0; c < chunks_.size(); ++c) chunks_[c].next = c + 1 < chunks_.size() ? c + 1 : kNil;
    free_ = chunks_.empty() ? kNil : 0;
    free_count_ = chunks_.size();
  }

  List& list(uint32_t i) { return lists_[i]; }
  const List& list(uint32_t i) const { return lists_[i]; }
  size_t bytes() const { return lists_.size() * sizeof(List) + chunks_.size() * sizeof(Chunk); }
  size_t chunks() const { return chunks_.size(); }
  size_t free_chunks() const { return free_count_; }
  // The chunk the next pop() reads (for prefetching), or null.
  const void* head_chunk(uint32_t i) const {
    return lists_[i].head == kNil ? nullptr : &chunks_[lists_[i].head];
  }

  // Appends at the tail; false when a chunk is needed and the pool is empty.
  bool append(uint32_t i, Entry e) {
    List& l = lists_[i];
    if (l.tail == kNil || l.tail_end == kPerChunk) {
      if (free_ == kNil) return false;
      const uint32_t c = free_;  // the last chunk given back: likely cached
      free_ = chunks_[c].next;
      --free_count_;
      chunks_[c].next = kNil;
      if (l.tail == kNil) l.head = c; else chunks_[l.tail].next = c;
      l.tail = c;
      l.tail_end = 0;
    }
    chunks_[l.tail].entries[l.tail_end++] = e;
    return true;
  }

  // Takes the oldest unread entry; false when the list has none (see readable()).
  bool pop(uint32_t i, Entry& e) {
    List& l = lists_[i];
    if (!readable(l)) return false;
    e = chunks_[l.head].entries[l.begin++];
    return true;
  }

  // Takes all the unread entries of the head chunk (at most kPerChunk): copies the chunk's
  // entries to `out` (the chunk may be reused as soon as it is given back) and returns the
  // range [first, end) of `out` that was unread, empty when the list has none. The copy is
  // of the whole chunk, a fixed size, so it compiles to vector moves.
  std::pair<uint32_t, uint32_t> pop_chunk(uint32_t i, Entry (&out)[kPerChunk]) {
    List& l = lists_[i];
    if (!readable(l)) return {0, 0};
    std::memcpy(out, chunks_[l.head].entries, sizeof(out));
    const uint32_t first = l.begin, end = end_of(l, l.head);
    l.begin = static_cast<uint8_t>(end);
    return {first, end};
  }

  // Drops every entry (all stale) and gives the list's chunks back.
  void clear(uint32_t i) {
    List& l = lists_[i];
    if (l.head != kNil) {  // splice the whole chain onto the free list
      uint32_t n = 1;
      for (uint32_t c = l.head; c != l.tail; c = chunks_[c].next) ++n;
      chunks_[l.tail].next = free_;
      free_ = l.head;
      free_count_ += n;
    }
    l.head = l.tail = kNil;
    l.begin = l.tail_end = 0;
  }

  // Rewrites the list's unread entries packed from its first chunk, keeping those for which
  // live(entry) holds, in order, and gives back the chunks no longer needed. The write
  // position walks the same chunks as the read position and never passes it.
  template <class Live>
  void compact(uint32_t i, Live&& live) {
    List& l = lists_[i];
    uint32_t wc = l.head, wi = 0;
    for (uint32_t rc = l.head, ri = l.begin; rc != kNil;) {
      if (ri == end_of(l, rc)) {
        rc = chunks_[rc].next;
        ri = 0;
        continue;
      }
      const Entry e = chunks_[rc].entries[ri++];
      if (!live(e)) continue;
      if (wi == kPerChunk) {
        wc = chunks_[wc].next;
        wi = 0;
      }
      chunks_[wc].entries[wi++] = e;
    }
    l.begin = 0;
    if (wc == kNil) return;
    // Give back the chunks after the write position (the first stays even when empty).
    for (uint32_t c = chunks_[wc].next; c != kNil;) {
      const uint32_t next = chunks_[c].next;
      release(c);
      c = next;
    }
    chunks_[wc].next = kNil;
    l.tail = wc;
    l.tail_end = static_cast<uint8_t>(wi);
  }

 private:
  void prefetch(uint32_t c) const {
    for (size_t line = 0; line < sizeof(Chunk); line += 64)
      __builtin_prefetch(reinterpret_cast<const char*>(&chunks_[c]) + line);
  }
  // Whether the list has an unread entry at its head position; a fully read chunk is given
  // back on the way, and the chunk after the new head is prefetched (a chunk of work ahead).
  bool readable(List& l) {
    while (l.head != kNil) {
      if (l.begin < end_of(l, l.head)) return true;
      if (l.head == l.tail) {  // all read: the tail chunk is reused in place
        l.begin = l.tail_end = 0;
        return false;
      }
      const uint32_t next = chunks_[l.head].next;
      release(l.head);
      l.head = next;
      l.begin = 0;
      if (chunks_[next].next != kNil) prefetch(chunks_[next].next);
    }
    return false;
  }
  uint32_t end_of(const List& l, uint32_t c) const { return c == l.tail ? l.tail_end : kPerChunk; }
  void release(uint32_t c) {
    chunks_[c].next = free_;
    free_ = c;
    ++free_count_;
  }

  std::vector<List> lists_;
  std::vector<Chunk, HugePageAllocator<Chunk>> chunks_;
  uint32_t free_ = 0;
  size_t free_count_ = 0;
};

}  // namespace rtb::cc
