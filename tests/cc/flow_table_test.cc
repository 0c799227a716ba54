#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>

#include "cc_algos/flow_table.h"
#include "cc_algos/registry.h"

namespace rtb::cc {
namespace {

using ::testing::HasSubstr;

TEST(FlowTable, ReservesAlignedZeroedStatePerFlow) {
  const Algorithm a = *Registry::with_builtins().find("dcqcn");
  auto created = FlowTable::create(a, 1000);
  ASSERT_TRUE(created.ok());
  FlowTable* t = &created.value();
  EXPECT_GE(t->stride(), a.state_bytes());
  EXPECT_EQ(t->stride() % a.state_align(), 0u);
  EXPECT_EQ(t->bytes(), 1000 * t->stride());
  for (size_t i = 0; i < 1000; ++i) {
    const auto* p = static_cast<const unsigned char*>(t->state(i));
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % a.state_align(), 0u);
    for (size_t b = 0; b < a.state_bytes(); ++b) ASSERT_EQ(p[b], 0) << i;
  }
  // States do not overlap: write each fully, read back.
  for (size_t i = 0; i < 1000; ++i) std::memset(t->state(i), static_cast<int>(i & 0xff), a.state_bytes());
  for (size_t i = 0; i < 1000; ++i)
    ASSERT_EQ(static_cast<const unsigned char*>(t->state(i))[a.state_bytes() - 1], i & 0xff);
}

TEST(FlowTable, RefusesZeroAndAbsurdFlowCounts) {
  const Algorithm a = *Registry::with_builtins().find("dcqcn");
  EXPECT_THAT(FlowTable::create(a, 0).error().message, HasSubstr("0 flows; expected at least 1"));
  EXPECT_THAT(FlowTable::create(a, size_t{1} << 40).error().message, HasSubstr("exceeds the 16 GiB limit"));
}

}  // namespace
}  // namespace rtb::cc
