#include "core/indexed_heap.h"

#include <gtest/gtest.h>

#include <vector>

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

}  // namespace
}  // namespace rtb
