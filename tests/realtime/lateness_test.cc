// The lateness histogram (log-linear buckets) and the validity report.
#include "realtime/lateness.h"

#include <gtest/gtest.h>

namespace rtb::realtime {
namespace {

using H = LatenessHistogram;

TEST(LatenessHistogram, BucketBoundaries) {
  EXPECT_EQ(H::bucket_of(0), 0u);
  EXPECT_EQ(H::bucket_of(15), 15u);
  EXPECT_EQ(H::bucket_of(31), 31u);  // 1 ns wide up to 31 ns
  EXPECT_EQ(H::bucket_of(32), 32u);  // then 2 ns wide
  EXPECT_EQ(H::bucket_of(33), 32u);
  EXPECT_EQ(H::bucket_of(34), 33u);
  EXPECT_EQ(H::bucket_of(1000), 111u);  // [992, 1024)
  EXPECT_EQ(H::bucket_start_ns(111), 992u);
  EXPECT_EQ(H::bucket_end_ns(111), 1024u);
  EXPECT_EQ(H::bucket_of(UINT64_MAX), H::kBuckets - 1);
  EXPECT_EQ(H::bucket_end_ns(H::kBuckets - 1), UINT64_MAX);
  EXPECT_GT(H::bucket_start_ns(H::bucket_of(1'000'000'000)), 900'000'000u);  // 1 s fits
}

TEST(LatenessHistogram, BucketsTileTheRangeAndStayNarrow) {
  for (size_t b = 0; b + 1 < H::kBuckets; ++b) {
    const uint64_t start = H::bucket_start_ns(b);
    const uint64_t end = H::bucket_end_ns(b);
    ASSERT_EQ(end, H::bucket_start_ns(b + 1)) << "bucket " << b;
    ASSERT_EQ(H::bucket_of(start), b) << "bucket " << b;
    ASSERT_EQ(H::bucket_of(end - 1), b) << "bucket " << b;
    if (start >= 16) {
      ASSERT_LE((end - start) * 16, start) << "bucket " << b;
    }
  }
}

TEST(LatenessHistogram, EmptyIsZero) {
  const H h;
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.max(), Time::zero());
  EXPECT_EQ(h.quantile(0.99), Time::zero());
}

TEST(LatenessHistogram, QuantilesAndMaxOnKnownData) {
  H h;
  for (uint64_t ns = 1; ns <= 1000; ++ns) h.record(Time::ns(ns));
  EXPECT_EQ(h.count(), 1000u);
  EXPECT_EQ(h.max(), Time::ns(1000));
  EXPECT_EQ(h.quantile(0.5), Time::ns(512));    // the 500th is in [496, 512)
  EXPECT_EQ(h.quantile(0.99), Time::ns(992));   // the 990th is in [960, 992)
  EXPECT_EQ(h.quantile(1.0), Time::ns(1000));   // capped at the exact max, not 1024
  EXPECT_EQ(h.quantile(0.0), Time::ns(2));      // the first is in [1, 2)
  EXPECT_EQ(h.quantile(7.0), Time::ns(1000));   // clamped
}

TEST(LatenessHistogram, MaxIsExactBelowANanosecond) {
  H h;
  h.record(Time::ps(400));
  EXPECT_EQ(h.max(), Time::ps(400));
  EXPECT_EQ(h.quantile(0.5), Time::ps(400));
}

TEST(LatenessHistogram, MergeEqualsRecordingEverything) {
  H a, b, all;
  for (uint64_t ns = 1; ns <= 500; ++ns) {
    a.record(Time::ns(ns));
    all.record(Time::ns(ns));
  }
  for (uint64_t ns = 501; ns <= 5000; ns += 3) {
    b.record(Time::ns(ns));
    all.record(Time::ns(ns));
  }
  a.merge(b);
  EXPECT_EQ(a.count(), all.count());
  EXPECT_EQ(a.max(), all.max());
  for (size_t i = 0; i < H::kBuckets; ++i) ASSERT_EQ(a.count_in_bucket(i), all.count_in_bucket(i));
  EXPECT_EQ(a.quantile(0.999), all.quantile(0.999));
}

// 98 polls 1 us late, one 12 us, one 4.2 ms.
H sample_histogram() {
  H h;
  for (int i = 0; i < 98; ++i) h.record(Time::us(1));
  h.record(Time::us(12));
  h.record(Time::us(4'200));
  return h;
}

TEST(LatenessReport, InvalidWhenTheWorstExceedsTheBudget) {
  const LatenessReport r =
      make_report(sample_histogram(), Time::ns(3'100), "PFC headroom sized for 3.1 us");
  EXPECT_FALSE(r.valid);
  EXPECT_EQ(r.polls, 100u);
  EXPECT_EQ(r.max, Time::us(4'200));
  EXPECT_EQ(r.p99, Time::ns(12'288));  // 12 us is in [11776, 12288)
  EXPECT_EQ(r.reason,
            "polls were up to 4.2 ms late (p99 12.3 us), more than the 3.1 us the scenario "
            "allows (PFC headroom sized for 3.1 us)");
}

TEST(LatenessReport, ValidAtTheBudgetOrWithoutOne) {
  const LatenessReport at = make_report(sample_histogram(), Time::us(4'200), "r");
  EXPECT_TRUE(at.valid);
  EXPECT_TRUE(at.reason.empty());
  const LatenessReport none = make_report(sample_histogram(), Time::never(), "");
  EXPECT_TRUE(none.valid);
  const LatenessReport empty = make_report(H{}, Time::ns(1), "r");
  EXPECT_TRUE(empty.valid);
  EXPECT_EQ(empty.polls, 0u);
}

TEST(LatenessReport, Json) {
  H h;
  h.record(Time::ps(1'500));
  const auto j = make_report(h, Time::never(), "").to_json();
  EXPECT_EQ(j.dump(), R"({"polls":1,"p50_ns":1.5,"p99_ns":1.5,"p999_ns":1.5,"max_ns":1.5,)"
                      R"("budget_ns":null,"budget_reason":"","valid":true,"reason":""})");
  const auto k = make_report(sample_histogram(), Time::us(3), "x").to_json();
  EXPECT_EQ(k["budget_ns"], 3000);
  EXPECT_EQ(k["max_ns"], 4'200'000);
  EXPECT_EQ(k["valid"], false);
}

TEST(FormatSpan, ThreeDigitsInTheLargestUnit) {
  EXPECT_EQ(format_span(Time::zero()), "0 ns");
  EXPECT_EQ(format_span(Time::ps(1'500)), "1.5 ns");
  EXPECT_EQ(format_span(Time::ns(850)), "850 ns");
  EXPECT_EQ(format_span(Time::ps(999'600)), "1 us");
  EXPECT_EQ(format_span(Time::ns(12'288)), "12.3 us");
  EXPECT_EQ(format_span(Time::us(4'200)), "4.2 ms");
  EXPECT_EQ(format_span(Time::ms(1'500)), "1.5 s");
  EXPECT_EQ(format_span(Time::s(5'000)), "5000 s");
}

}  // namespace
}  // namespace rtb::realtime
