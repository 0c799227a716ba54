// The egress queues' slot store: FIFO per queue, a full store refuses, a freed slot is
// taken again, and creating a deep buffer's store writes none of its memory.
#include "switch/queue_store.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <memory>

namespace rtb::sw {
namespace {

QueuedFrame frame(uint32_t bytes) {
  QueuedFrame f;
  f.bytes = bytes;
  return f;
}

TEST(QueueStore, EachQueueIsFirstInFirstOut) {
  QueueStore s(2, 8);
  for (uint32_t i = 1; i <= 3; ++i) {
    ASSERT_TRUE(s.push(0, frame(100 + i)));
    ASSERT_TRUE(s.push(1, frame(200 + i)));
  }
  EXPECT_EQ(s.frames(0), 3u);
  EXPECT_EQ(s.bytes(1), 606u);
  EXPECT_EQ(s.head(1).bytes, 201u);
  for (uint32_t i = 1; i <= 3; ++i) {
    EXPECT_EQ(s.pop(0).bytes, 100 + i);
    EXPECT_EQ(s.pop(1).bytes, 200 + i);
  }
  EXPECT_TRUE(s.empty(0));
  EXPECT_TRUE(s.empty(1));
  EXPECT_EQ(s.watermark_bytes(0), 306u);
}

TEST(QueueStore, AFullStoreRefusesAndAFreedSlotIsTakenAgain) {
  QueueStore s(2, 3);
  EXPECT_TRUE(s.push(0, frame(1)));
  EXPECT_TRUE(s.push(1, frame(2)));
  EXPECT_TRUE(s.push(0, frame(3)));
  EXPECT_FALSE(s.push(1, frame(4)));  // every slot taken
  EXPECT_EQ(s.frames(1), 1u);
  EXPECT_EQ(s.pop(0).bytes, 1u);
  EXPECT_TRUE(s.push(1, frame(5)));   // the slot the frame left
  EXPECT_FALSE(s.push(0, frame(6)));
  EXPECT_EQ(s.pop(1).bytes, 2u);
  EXPECT_EQ(s.pop(1).bytes, 5u);
  EXPECT_EQ(s.pop(0).bytes, 3u);
  // Drained and refilled many times over: the free list and the fresh slots agree.
  for (int round = 0; round < 100; ++round) {
    for (uint32_t i = 0; i < 3; ++i) ASSERT_TRUE(s.push(i % 2, frame(i)));
    ASSERT_FALSE(s.push(0, frame(9)));
    for (uint32_t i = 0; i < 3; i += 2) ASSERT_EQ(s.pop(0).bytes, i);
    ASSERT_EQ(s.pop(1).bytes, 1u);
  }
}

long resident_kib() {
  std::ifstream statm("/proc/self/statm");
  long pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * (::sysconf(_SC_PAGESIZE) / 1024);
}

// One slot per buffer cell: a 256 MiB buffer of 256-byte cells has a million. Its 20 MB
// of slots and links are written only as frames come (each page written costs a page
// fault, microseconds in a virtual machine), so creating the store leaves the process's
// resident memory as it was.
TEST(QueueStore, CreatingADeepStoreWritesNoneOfItsMemory) {
  const long before = resident_kib();
  auto s = std::make_unique<QueueStore>(64, 1u << 20);
  const long grown = resident_kib() - before;
  EXPECT_LT(grown, 1024) << "creating the store made " << grown << " KiB resident";
  ASSERT_TRUE(s->push(5, frame(64)));
  EXPECT_EQ(s->pop(5).bytes, 64u);
}

}  // namespace
}  // namespace rtb::sw
