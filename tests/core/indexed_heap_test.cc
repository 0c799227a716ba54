#include "core/indexed_heap.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <vector>

#include "core/rng.h"

namespace rtb {
namespace {

std::vector<uint32_t> drain(IndexedMinHeap& h, Time now) {
  std::vector<uint32_t> out;
  uint32_t id;
  while (h.pop_due(now, id)) out.push_back(id);
  return out;
}

TEST(IndexedMinHeap, PopsByTimeThenIdAndOnlyWhatIsDue) {
  IndexedMinHeap h(6);
  h.set(4, Time::ns(5));
  h.set(1, Time::ns(5));
  h.set(2, Time::ns(3));
  h.set(5, Time::ns(9));
  EXPECT_EQ(h.next(), Time::ns(3));
  EXPECT_EQ(drain(h, Time::ns(5)), (std::vector<uint32_t>{2, 1, 4}));
  EXPECT_EQ(h.size(), 1u);
  EXPECT_EQ(h.deadline(5), Time::ns(9));
  EXPECT_EQ(h.deadline(1), Time::never());
}

TEST(IndexedMinHeap, SettingAnArmedIdMovesItAndNeverDisarms) {
  IndexedMinHeap h(4);
  for (uint32_t i = 0; i < 4; ++i) h.set(i, Time::ns(10 + i));
  h.set(3, Time::ns(1));        // earlier
  h.set(0, Time::ns(20));       // later
  h.set(2, Time::never());      // disarmed
  h.cancel(1);
  h.cancel(1);                  // cancelling twice is harmless
  EXPECT_EQ(h.size(), 2u);
  EXPECT_EQ(drain(h, Time::never() - Time::ps(1)), (std::vector<uint32_t>{3, 0}));
}

// deadline(id) is kept apart from the heap: after any mix of arming, re-arming at the same
// or another time, disarming and popping, it must still equal what the heap pops, and the
// heap must pop exactly the reference's due ids in (time, id) order.
void check_against_reference(uint32_t ids, int steps, uint64_t horizon_ns) {
  IndexedMinHeap h(ids);
  std::map<uint32_t, Time> armed;  // the reference
  Rng rng(5, 6);
  Time now = Time::zero();
  for (int step = 0; step < steps; ++step) {
    const auto id = static_cast<uint32_t>(rng.uniform_int(ids));
    const uint64_t op = rng.uniform_int(4);
    if (op == 0) {
      h.cancel(id);
      armed.erase(id);
    } else if (op == 1 && armed.count(id)) {
      h.set(id, armed[id]);  // re-armed at the same time: nothing moves
    } else if (op < 3) {
      const Time at = now + Time::ns(rng.uniform_int(horizon_ns));
      h.set(id, at);
      armed[id] = at;
    } else {
      now = now + Time::ns(rng.uniform_int(horizon_ns / 5));
      std::vector<std::pair<Time, uint32_t>> due;
      for (const auto& [i, at] : armed) {
        if (at <= now) due.push_back({at, i});
      }
      std::sort(due.begin(), due.end());
      std::vector<uint32_t> expected;
      for (const auto& d : due) {
        expected.push_back(d.second);
        armed.erase(d.second);
      }
      ASSERT_EQ(drain(h, now), expected) << "step " << step;
    }
    ASSERT_EQ(h.deadline(id), armed.count(id) ? armed[id] : Time::never()) << "step " << step;
    ASSERT_EQ(h.size(), armed.size());
  }
  for (uint32_t i = 0; i < ids; ++i) {
    ASSERT_EQ(h.deadline(i), armed.count(i) ? armed[i] : Time::never()) << "id " << i;
  }
}

TEST(IndexedMinHeap, DeadlinesStayEqualToTheHeapOverRandomOperations) {
  check_against_reference(64, 20'000, 50);
}

// Thousands of armed ids: a heap five and more levels deep, with every fill of its last
// group of siblings, moved up and down from every depth.
TEST(IndexedMinHeap, ADeepHeapPopsWhatTheReferenceDoes) {
  check_against_reference(5'000, 200'000, 2'000);
}

}  // namespace
}  // namespace rtb
