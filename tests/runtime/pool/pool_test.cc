// Mbuf pools on a running EAL (started once in pool_main.cc): memory per mbuf, payload
// written once, private-area metadata, exhaustion, peak tracking and the leak check.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <rte_mbuf_pool_ops.h>

#include <algorithm>
#include <thread>
#include <vector>

#include <rte_malloc.h>

#include "core/huge_page_allocator.h"
#include "runtime/pool/mbuf_pool.h"
#include "runtime/pool/mbuf_pool_set.h"

namespace rtb::runtime {
namespace {

using ::testing::HasSubstr;

// Not periodic in 256, like the wire layer's pattern, so an offset error shows.
uint8_t test_pattern(uint32_t i) { return static_cast<uint8_t>((i * 0x9Du) ^ (i >> 8) ^ 0x5A); }

constexpr uint16_t kRoom2k = RTE_PKTMBUF_HEADROOM + 2048;

MbufPool make_pool(const std::string& name, uint32_t count, PayloadPattern pattern = nullptr,
                   uint16_t room = kRoom2k, OnEmpty on_empty = OnEmpty::kCount,
                   std::string hint = {}) {
  auto p = MbufPool::create({.name = name, .count = count, .data_room = room,
                             .pattern = pattern, .on_empty = on_empty, .resize_hint = hint});
  EXPECT_TRUE(p) << p.error().message;
  return std::move(p).value();
}

void free_all(std::vector<rte_mbuf*>& v) {
  for (rte_mbuf* m : v) rte_pktmbuf_free(m);
  v.clear();
}

TEST(PoolMemory, NoIovaContigKeepsAnMbufNearItsOwnSize) {
  constexpr uint32_t kCount = 1024;
  MbufPool p = make_pool("mem_noiova", kCount);
  const double per_mbuf = static_cast<double>(p.memory_bytes()) / kCount;
  RecordProperty("bytes_per_mbuf_no_iova_contig", std::to_string(per_mbuf));
  EXPECT_GT(per_mbuf, 2048 + 128 + 128);
  EXPECT_LT(per_mbuf, 2600);  // about 2.4 KB
  EXPECT_LE(per_mbuf, static_cast<double>(mbuf_footprint_bytes(kRoom2k)));
}

TEST(PoolMemory, WithoutTheFlagEveryMbufTakesAPageWhenThereAreNoHugepages) {
  // The contrast that justifies the flag (and shows the measurement can tell them apart).
  constexpr uint32_t kCount = 256;
  auto p = MbufPool::create({.name = "mem_contig", .count = kCount, .data_room = kRoom2k,
                             .iova_contiguous = true});
  ASSERT_TRUE(p) << p.error().message;
  const double per_mbuf = static_cast<double>(p.value().memory_bytes()) / kCount;
  RecordProperty("bytes_per_mbuf_iova_contig", std::to_string(per_mbuf));
  if (rte_eal_has_hugepages()) GTEST_SKIP() << "hugepages in use: objects pack in 2 MB pages";
  EXPECT_GE(per_mbuf, 4096);
}

TEST(PoolMemory, PoolSetEstimateIsAnUpperBound) {
  PoolConfig c;
  c.data_buffer_bytes = Bytes(1'000'000);
  c.smallest_data_frame_bytes = 256;
  c.largest_data_frame_bytes = 1024 + 128;
  c.control_buffer_bytes = Bytes(30'000);
  auto sizes = size_pools(c);
  ASSERT_TRUE(sizes);
  auto set = PoolSet::create(sizes.value(), test_pattern, "est");
  ASSERT_TRUE(set) << set.error().message;
  const uint64_t measured = set.value().data().memory_bytes() +
                            set.value().control().memory_bytes();
  EXPECT_GE(sizes.value().memory_bytes(), measured);
  EXPECT_EQ(set.value().data().size(), sizes.value().data_count);
  EXPECT_EQ(set.value().control().size(), sizes.value().control_count);
}

TEST(PoolPayload, WrittenOnceAtCreationAndPresentInEveryFreshMbuf) {
  constexpr uint32_t kCount = 64;
  MbufPool p = make_pool("payload", kCount, test_pattern);
  std::vector<rte_mbuf*> all;
  for (uint32_t k = 0; k < kCount; ++k) {
    rte_mbuf* m = p.alloc();
    ASSERT_NE(m, nullptr);
    all.push_back(m);
    ASSERT_EQ(rte_pktmbuf_headroom(m), RTE_PKTMBUF_HEADROOM);
    const auto* payload = rte_pktmbuf_mtod(m, const uint8_t*);
    const uint32_t room = rte_pktmbuf_tailroom(m);
    ASSERT_EQ(room, 2048u);
    for (uint32_t i = 0; i < room; ++i) {
      ASSERT_EQ(payload[i], test_pattern(i)) << "mbuf " << k << " byte " << i;
    }
  }
  free_all(all);
}

TEST(PoolPayload, ControlPoolIsZeroFilled) {
  MbufPool p = make_pool("zeros", 8, nullptr, RTE_PKTMBUF_HEADROOM + 128);
  rte_mbuf* m = p.alloc();
  ASSERT_NE(m, nullptr);
  const auto* payload = rte_pktmbuf_mtod(m, const uint8_t*);
  for (uint32_t i = 0; i < 128; ++i) ASSERT_EQ(payload[i], 0) << i;
  rte_pktmbuf_free(m);
}

TEST(PoolMeta, PrivateAreaRoundTripAndResetOnAlloc) {
  MbufPool p = make_pool("meta", 2, test_pattern);
  EXPECT_EQ(rte_pktmbuf_priv_size(p.mempool()), sizeof(FrameMeta));
  rte_mbuf* m = p.alloc();
  ASSERT_NE(m, nullptr);
  FrameMeta& meta = frame_meta(m);
  EXPECT_EQ(static_cast<void*>(&meta), static_cast<void*>(reinterpret_cast<uint8_t*>(m) +
                                                          sizeof(rte_mbuf)));
  meta.set_enqueue_time(Time::ps(123'456'789'012));
  meta.set_sent_time(Time::us(55));
  meta.flow_id = 0xabcdef;
  meta.seq = 0xfffffff0;
  meta.in_port = 7;
  meta.out_port = 9;
  meta.priority = 3;
  meta.flags = kFrameCeMarked | kFrameControl;
  const rte_mbuf* cm = m;
  const FrameMeta& back = frame_meta(cm);
  EXPECT_EQ(back.enqueue_time(), Time::ps(123'456'789'012));
  EXPECT_EQ(back.sent_time(), Time::us(55));
  EXPECT_EQ(back.flow_id, 0xabcdefu);
  EXPECT_EQ(back.seq, 0xfffffff0u);
  EXPECT_EQ(back.in_port, 7);
  EXPECT_EQ(back.out_port, 9);
  EXPECT_EQ(back.priority, 3);
  EXPECT_EQ(back.flags, kFrameCeMarked | kFrameControl);
  // The metadata does not reach into the headroom or payload.
  EXPECT_EQ(rte_pktmbuf_mtod(m, const uint8_t*)[0], test_pattern(0));
  rte_pktmbuf_free(m);

  rte_mbuf* again = p.alloc();
  rte_mbuf* other = p.alloc();
  ASSERT_NE(again, nullptr);
  ASSERT_NE(other, nullptr);
  for (rte_mbuf* x : {again, other}) {  // one of them is m: its metadata was reset
    EXPECT_EQ(frame_meta(x).flow_id, 0u);
    EXPECT_EQ(frame_meta(x).enqueue_ps, 0u);
    EXPECT_EQ(frame_meta(x).flags, 0);
  }
  rte_pktmbuf_free(again);
  rte_pktmbuf_free(other);
}

TEST(PoolExhaustion, CountedFailureAndMessageWithNeededVersusConfigured) {
  MbufPool p = make_pool("exhaust", 8);
  std::vector<rte_mbuf*> held;
  for (int k = 0; k < 8; ++k) held.push_back(p.alloc());
  EXPECT_EQ(std::count(held.begin(), held.end(), nullptr), 0);
  EXPECT_EQ(p.alloc(), nullptr);
  EXPECT_EQ(p.alloc(), nullptr);
  EXPECT_EQ(p.alloc_failures(), 2u);
  EXPECT_EQ(p.peak_in_use(), 8u);
  const std::string msg = p.exhaustion_message();
  EXPECT_THAT(msg, HasSubstr("mbuf pool 'exhaust' is exhausted"));
  EXPECT_THAT(msg, HasSubstr("all 8 configured mbufs are in use"));
  EXPECT_THAT(msg, HasSubstr("needs at least 9"));
  EXPECT_THAT(msg, HasSubstr("configuration error, not packet loss"));
  free_all(held);
  EXPECT_TRUE(p.check_no_leaks());
}

TEST(PoolExhaustionDeathTest, AFatalPoolEndsTheRunWithTheMessageAndTheHint) {
  MbufPool p = make_pool("die", 4, nullptr, kRoom2k, OnEmpty::kFatal, "set run.data_mbufs");
  EXPECT_EQ(p.on_empty(), OnEmpty::kFatal);
  std::vector<rte_mbuf*> held;
  for (int k = 0; k < 4; ++k) held.push_back(p.alloc());
  EXPECT_EXIT(p.alloc(), ::testing::ExitedWithCode(EXIT_FAILURE),
              "fatal configuration error: mbuf pool 'die' is exhausted: all 4 configured "
              "mbufs are in use.*needs at least 5.*not packet loss: set run.data_mbufs");
  free_all(held);
  EXPECT_TRUE(p.check_no_leaks());  // the child's allocation did not reach this process
}

TEST(PoolExhaustion, TheDefaultRuleIsFatal) {
  auto p = MbufPool::create({.name = "default_rule", .count = 1, .data_room = kRoom2k});
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(p.value().on_empty(), OnEmpty::kFatal);
  PoolSizes sizes{.data_count = 2, .data_room = kRoom2k, .control_count = 2,
                  .control_room = RTE_PKTMBUF_HEADROOM + 128, .cache_size = 0};
  auto set = PoolSet::create(sizes, test_pattern, "rule", OnEmpty::kCount);
  ASSERT_TRUE(set) << set.error().message;
  EXPECT_EQ(set.value().data().on_empty(), OnEmpty::kCount);
  EXPECT_EQ(set.value().control().on_empty(), OnEmpty::kCount);
}

// A pool populated on demand writes kFirstChunk mbufs, then doubles whenever alloc() finds
// it empty, up to its count; every mbuf it writes later is the same as one written first.
TEST(PoolOnDemand, GrowsByDoublingAsAllocNeedsAndEveryMbufIsFresh) {
  constexpr uint32_t kCount = 3 * MbufPool::kFirstChunk + 100;
  constexpr uint16_t kRoom = RTE_PKTMBUF_HEADROOM + 256;
  auto made = MbufPool::create({.name = "ondemand", .count = kCount, .data_room = kRoom,
                                .pattern = test_pattern, .on_empty = OnEmpty::kCount,
                                .populate = Populate::kOnDemand});
  ASSERT_TRUE(made) << made.error().message;
  MbufPool& p = made.value();
  EXPECT_EQ(p.size(), kCount);
  EXPECT_EQ(p.populated(), MbufPool::kFirstChunk);
  const uint64_t first_bytes = p.memory_bytes();
  std::vector<rte_mbuf*> held;
  for (uint32_t k = 0; k < kCount; ++k) {
    rte_mbuf* m = p.alloc();
    ASSERT_NE(m, nullptr) << "mbuf " << k;
    held.push_back(m);
    ASSERT_EQ(rte_pktmbuf_headroom(m), RTE_PKTMBUF_HEADROOM);
    ASSERT_EQ(rte_pktmbuf_tailroom(m), 256u);
    ASSERT_EQ(frame_meta(m).flow_id, 0u);
    const auto* payload = rte_pktmbuf_mtod(m, const uint8_t*);
    for (uint32_t i = 0; i < 256; ++i) ASSERT_EQ(payload[i], test_pattern(i)) << "mbuf " << k;
    if (k + 1 == MbufPool::kFirstChunk + 1) {
      EXPECT_EQ(p.populated(), 2 * MbufPool::kFirstChunk);
    }
  }
  EXPECT_EQ(p.populated(), kCount);  // 4096, 8192, then the last 4196, not 16384
  EXPECT_GT(p.memory_bytes(), 3 * first_bytes);
  EXPECT_EQ(p.in_use(), kCount);
  EXPECT_EQ(p.peak_in_use(), kCount);
  EXPECT_EQ(p.alloc(), nullptr);  // beyond its count it is empty, by its rule
  EXPECT_EQ(p.alloc_failures(), 1u);
  // The message a fatal pool would end the run with names the configured count.
  EXPECT_THAT(p.exhaustion_message(),
              HasSubstr("all 12388 configured mbufs are in use and another was needed"));
  free_all(held);
  EXPECT_EQ(p.in_use(), 0u);
  EXPECT_TRUE(p.check_no_leaks());
}

// An on-demand pool's mbufs live outside DPDK memory: this one grows to more than the
// 160 MiB the test's EAL was given (-m, pool_main.cc), and DPDK's heap grows only by its
// ring and header. Taken from DPDK memory, the second chunk would already fail.
TEST(PoolOnDemand, GrowsBeyondTheEalMemoryWhichHoldsOnlyItsRing) {
  constexpr uint32_t kCount = 80'000;  // about 190 MiB of 2 KiB mbufs
  rte_malloc_socket_stats before{};
  ASSERT_EQ(rte_malloc_get_socket_stats(0, &before), 0);
  auto made = MbufPool::create({.name = "beyond_eal", .count = kCount, .data_room = kRoom2k,
                                .on_empty = OnEmpty::kCount, .populate = Populate::kOnDemand});
  ASSERT_TRUE(made) << made.error().message;
  MbufPool& p = made.value();
  std::vector<rte_mbuf*> held;
  for (uint32_t k = 0; k < kCount; ++k) {
    rte_mbuf* m = p.alloc();
    ASSERT_NE(m, nullptr) << "mbuf " << k << ": " << p.exhaustion_message();
    held.push_back(m);
  }
  EXPECT_GT(p.memory_bytes(), uint64_t{kCount} * 2048);
  rte_malloc_socket_stats after{};
  ASSERT_EQ(rte_malloc_get_socket_stats(0, &after), 0);
  const uint64_t heap_growth = after.heap_allocsz_bytes - before.heap_allocsz_bytes;
  const PoolSizes sizes{.data_count = kCount, .data_room = kRoom2k};
  EXPECT_LT(heap_growth, sizes.metadata_bytes());
  free_all(held);
  EXPECT_TRUE(p.check_no_leaks());
}

// An on-demand pool's ring, sized for every mbuf it may hold, is mapped from the kernel
// (mapped_ring_ops.h), not taken from the DPDK heap, whose free would zero all of it.
TEST(PoolOnDemand, ItsRingIsMappedOutsideTheDpdkHeap) {
  constexpr uint32_t kCount = 2'000'000;  // a ring of 2^21 pointers: 16 MiB
  rte_malloc_socket_stats before{};
  ASSERT_EQ(rte_malloc_get_socket_stats(0, &before), 0);
  auto made = MbufPool::create({.name = "mapped_ring", .count = kCount, .data_room = kRoom2k,
                                .on_empty = OnEmpty::kCount, .populate = Populate::kOnDemand,
                                .one_thread = true});
  ASSERT_TRUE(made) << made.error().message;
  MbufPool& p = made.value();
  rte_malloc_socket_stats after{};
  ASSERT_EQ(rte_malloc_get_socket_stats(0, &after), 0);
  EXPECT_LT(after.heap_allocsz_bytes - before.heap_allocsz_bytes, uint64_t{4} << 20);
  EXPECT_STREQ(rte_mempool_get_ops(p.mempool()->ops_index)->name, "rtb_mapped_ring_mp_mc");
  std::vector<rte_mbuf*> held;
  for (uint32_t k = 0; k < 10'000; ++k) held.push_back(p.alloc());  // beyond the first chunk
  EXPECT_EQ(std::count(held.begin(), held.end(), nullptr), 0);
  free_all(held);
  EXPECT_TRUE(p.check_no_leaks());

  auto upfront = MbufPool::create({.name = "heap_ring", .count = 1000, .data_room = kRoom2k,
                                   .on_empty = OnEmpty::kCount, .populate = Populate::kUpFront});
  ASSERT_TRUE(upfront) << upfront.error().message;
  EXPECT_STREQ(rte_mempool_get_ops(upfront.value().mempool()->ops_index)->name, rte_mbuf_best_mempool_ops())
      << "a pool lcores share keeps DPDK's ring driver";
  auto shared = MbufPool::create({.name = "shared_ring", .count = 1000, .data_room = kRoom2k,
                                  .on_empty = OnEmpty::kCount, .populate = Populate::kOnDemand});
  ASSERT_TRUE(shared) << shared.error().message;
  EXPECT_STREQ(rte_mempool_get_ops(shared.value().mempool()->ops_index)->name, rte_mbuf_best_mempool_ops())
      << "so does a partition's pool, which other partitions' threads free into";
}

// The kernel backs only aligned 2 MiB ranges with transparent huge pages, so each chunk
// an on-demand pool maps starts at a 2 MiB boundary: one fault per 2 MiB where THP is on.
TEST(PoolOnDemand, EveryChunkStartsAtAHugePageBoundary) {
  auto made = MbufPool::create({.name = "aligned_chunks", .count = 3 * MbufPool::kFirstChunk,
                                .data_room = kRoom2k, .on_empty = OnEmpty::kCount,
                                .populate = Populate::kOnDemand, .one_thread = true});
  ASSERT_TRUE(made) << made.error().message;
  MbufPool& p = made.value();
  std::vector<rte_mbuf*> held;
  for (uint32_t k = 0; k < 3 * MbufPool::kFirstChunk; ++k) held.push_back(p.alloc());
  EXPECT_EQ(std::count(held.begin(), held.end(), nullptr), 0);
  std::vector<uintptr_t> starts;
  rte_mempool_mem_iter(
      p.mempool(),
      [](rte_mempool*, void* opaque, rte_mempool_memhdr* chunk, unsigned) {
        static_cast<std::vector<uintptr_t>*>(opaque)->push_back(reinterpret_cast<uintptr_t>(chunk->addr));
      },
      &starts);
  ASSERT_EQ(starts.size(), 3u);  // the pool doubles: 4096, + 4096, + the last 4096
  for (uintptr_t a : starts) EXPECT_EQ(a % kHugePageBytes, 0u) << std::hex << a;
  free_all(held);
  EXPECT_TRUE(p.check_no_leaks());
}

TEST(PoolOnDemand, ASmallPoolIsWrittenWholeAndAPoolSetPassesTheChoiceOn) {
  PoolSizes sizes{.data_count = 100, .data_room = kRoom2k, .control_count = 50'000,
                  .control_room = RTE_PKTMBUF_HEADROOM + 128, .cache_size = 0};
  auto set = PoolSet::create(sizes, test_pattern, "od_set", OnEmpty::kFatal, Populate::kOnDemand);
  ASSERT_TRUE(set) << set.error().message;
  EXPECT_EQ(set.value().data().populated(), 100u);
  EXPECT_EQ(set.value().control().populated(), MbufPool::kFirstChunk);
  EXPECT_EQ(set.value().control().size(), 50'000u);
  auto upfront = PoolSet::create(sizes, test_pattern, "uf_set");
  ASSERT_TRUE(upfront) << upfront.error().message;
  EXPECT_EQ(upfront.value().control().populated(), 50'000u);
}

TEST(PoolPeak, TracksTheHighestInUseCount) {
  MbufPool p = make_pool("peak", 16);
  std::vector<rte_mbuf*> held;
  for (int k = 0; k < 5; ++k) held.push_back(p.alloc());
  EXPECT_EQ(p.peak_in_use(), 5u);
  EXPECT_EQ(p.in_use(), 5u);
  rte_pktmbuf_free(held.back());
  held.pop_back();
  rte_pktmbuf_free(held.back());
  held.pop_back();
  held.push_back(p.alloc());
  EXPECT_EQ(p.in_use(), 4u);
  EXPECT_EQ(p.peak_in_use(), 5u);
  free_all(held);
  EXPECT_EQ(p.in_use(), 0u);
  EXPECT_EQ(p.available(), 16u);
}

// Lcores of a realtime run share pools: each thread counts in its own slot (none writes
// another's), and the pool's figures combine the slots.
TEST(PoolPeak, EachThreadCountsInItsOwnSlotAndThePoolCombinesThem) {
  MbufPool p = make_pool("per_lcore", 8);
  std::vector<rte_mbuf*> held;
  for (int k = 0; k < 3; ++k) held.push_back(p.alloc());  // the main lcore: peak 3
  EXPECT_EQ(p.alloc_failures(), 0u);
  std::vector<rte_mbuf*> theirs;
  std::thread other([&] {  // not an EAL lcore: the shared last slot
    for (int k = 0; k < 6; ++k) theirs.push_back(p.alloc());  // 5 taken, 1 failure: peak 8
  });
  other.join();
  EXPECT_EQ(std::count(theirs.begin(), theirs.end(), nullptr), 1);
  EXPECT_EQ(p.alloc(), nullptr);  // and one failure here
  EXPECT_EQ(p.peak_in_use(), 8u);
  EXPECT_EQ(p.alloc_failures(), 2u);
  free_all(held);
  free_all(theirs);
  EXPECT_TRUE(p.check_no_leaks());
}

TEST(PoolLeakCheck, CatchesADeliberateLeakAndPassesAfterTheFree) {
  PoolSizes sizes{.data_count = 32, .data_room = kRoom2k, .control_count = 8,
                  .control_room = RTE_PKTMBUF_HEADROOM + 128, .cache_size = 0};
  auto set = PoolSet::create(sizes, test_pattern, "leak");
  ASSERT_TRUE(set) << set.error().message;
  PoolSet& pools = set.value();
  EXPECT_TRUE(pools.check_no_leaks());
  std::vector<rte_mbuf*> data = {pools.data().alloc(), pools.data().alloc(),
                                 pools.data().alloc()};
  std::vector<rte_mbuf*> control = {pools.control().alloc()};
  Status s = pools.check_no_leaks();
  ASSERT_FALSE(s);
  EXPECT_THAT(s.message(), HasSubstr("mbuf pool 'leak_data' has 3 of 32 mbufs still in use"));
  EXPECT_THAT(s.message(), HasSubstr("mbuf pool 'leak_ctrl' has 1 of 8 mbufs still in use"));
  free_all(data);
  s = pools.check_no_leaks();
  ASSERT_FALSE(s);
  EXPECT_THAT(s.message(), Not(HasSubstr("leak_data")));
  free_all(control);
  EXPECT_TRUE(pools.check_no_leaks()) << pools.check_no_leaks().message();
}

TEST(PoolErrors, BadSpecsSayWhatWasWrong) {
  auto zero = MbufPool::create({.name = "zero", .count = 0, .data_room = kRoom2k});
  ASSERT_FALSE(zero);
  EXPECT_THAT(zero.error().message, HasSubstr("count is 0"));

  auto tiny = MbufPool::create({.name = "tiny", .count = 4, .data_room = 64});
  ASSERT_FALSE(tiny);
  EXPECT_THAT(tiny.error().message, HasSubstr("no room for a frame"));

  auto longname = MbufPool::create(
      {.name = std::string(40, 'x'), .count = 4, .data_room = kRoom2k});
  ASSERT_FALSE(longname);
  EXPECT_THAT(longname.error().message, HasSubstr("characters"));

  MbufPool first = make_pool("twice", 4);
  auto second = MbufPool::create({.name = "twice", .count = 4, .data_room = kRoom2k});
  ASSERT_FALSE(second);
  EXPECT_THAT(second.error().message, HasSubstr("'twice' already exists"));
}

TEST(PoolErrors, MoreThanTheEalHasSaysWhatToRaise) {
  // About 24 GB: far beyond the EAL memory pool_main.cc asked for.
  auto huge = MbufPool::create({.name = "toobig", .count = 10'000'000, .data_room = kRoom2k});
  ASSERT_FALSE(huge);
  EXPECT_THAT(huge.error().message, HasSubstr("'toobig'"));
  EXPECT_THAT(huge.error().message, HasSubstr("raise EAL memory"));
  EXPECT_EQ(rte_mempool_lookup("toobig"), nullptr);  // nothing left behind
}

}  // namespace
}  // namespace rtb::runtime
