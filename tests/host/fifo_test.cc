// The host's FIFO: order kept through wrap-around and growth, and at(k) reading the k-th
// item from the front (the arbiter's prefetch looks ahead with it).
#include "host/fifo.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace rtb::host {
namespace {

TEST(Fifo, AtReadsAheadOfTheFrontAcrossTheWrap) {
  Fifo<uint32_t> f(4);
  for (uint32_t i = 0; i < 3; ++i) f.push(i);
  f.pop();
  f.pop();
  for (uint32_t i = 3; i < 6; ++i) f.push(i);  // 2..5 now wrap past the end of 4 slots
  ASSERT_EQ(f.size(), 4u);
  for (uint32_t k = 0; k < f.size(); ++k) EXPECT_EQ(f.at(k), 2 + k);
}

TEST(Fifo, GrowingKeepsTheOrder) {
  Fifo<uint32_t> f(2);
  f.push(7);
  f.pop();
  for (uint32_t i = 0; i < 9; ++i) f.push(i);  // grows from 2 to 16 slots, wrapped
  ASSERT_EQ(f.size(), 9u);
  for (uint32_t k = 0; k < 9; ++k) EXPECT_EQ(f.at(k), k);
  for (uint32_t i = 0; i < 9; ++i) {
    EXPECT_EQ(f.front(), i);
    f.pop();
  }
  EXPECT_TRUE(f.empty());
}

}  // namespace
}  // namespace rtb::host
