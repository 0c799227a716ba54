// Traffic patterns: counts, determinism under the seed, a different seed changes the
// random parts, Poisson load within tolerance, CDF sampling mean.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "scenario/cdf.h"
#include "scenario/series_size.h"
#include "scenario_test_util.h"

namespace rtb::scenario {
namespace {

using testing::load_ok;

std::string with_traffic(const std::string& traffic, uint32_t hosts = 9) {
  return "[topology]\nkind = \"single_switch\"\nhosts = " + std::to_string(hosts) +
         "\n[run]\nduration = \"10ms\"\n" + traffic;
}

Scenario load_seeded(const std::string& text, uint64_t seed) {
  Expected<Scenario> s = load_scenario_text(text, testing::in_scenarios("t.toml"), {}, seed);
  if (!s.ok()) throw std::runtime_error(s.error().message);
  return std::move(s).value();
}

bool same_flows(const std::vector<Flow>& a, const std::vector<Flow>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].src != b[i].src || a[i].dst != b[i].dst || a[i].size != b[i].size || a[i].start != b[i].start) return false;
  }
  return true;
}

TEST(ScenarioTraffic, IncastWithSeededJitter) {
  const std::string text = with_traffic(R"(
[[traffic]]
pattern = "incast"
receiver = "h8"
senders = 8
bytes = "2MB"
start = "100us"
jitter = "2us"
)");
  const Scenario a = load_seeded(text, 1);
  ASSERT_EQ(a.flows.size(), 8u);
  std::set<uint32_t> srcs;
  std::set<Time> starts;
  for (const Flow& f : a.flows) {
    EXPECT_EQ(f.dst, 8u);
    EXPECT_EQ(f.size, Bytes::mb(2));
    EXPECT_GE(f.start, Time::us(100));
    EXPECT_LT(f.start, Time::us(102));
    EXPECT_EQ(f.priority, 3);
    EXPECT_EQ(f.dscp, 26);
    srcs.insert(f.src);
    starts.insert(f.start);
  }
  EXPECT_EQ(srcs.size(), 8u);
  EXPECT_EQ(starts.size(), 8u) << "no two flows start in phase";
  for (size_t i = 1; i < a.flows.size(); ++i) EXPECT_LE(a.flows[i - 1].start, a.flows[i].start);
  EXPECT_TRUE(same_flows(a.flows, load_seeded(text, 1).flows));
  EXPECT_FALSE(same_flows(a.flows, load_seeded(text, 2).flows));
}

TEST(ScenarioTraffic, IncastLongLivedByNamesWithoutJitter) {
  const Scenario s = load_ok(with_traffic(R"(
[[traffic]]
pattern = "incast"
receiver = "h0"
senders = ["h3", "h5"]
jitter = "0us"
priority = 4
dscp = 4
)"));
  ASSERT_EQ(s.flows.size(), 2u);
  EXPECT_EQ(s.flows[0].src, 3u);
  EXPECT_EQ(s.flows[1].src, 5u);
  EXPECT_FALSE(s.flows[0].size.has_value());
  EXPECT_EQ(s.flows[1].start, Time::zero());
  EXPECT_EQ(s.flows[1].priority, 4);
}

TEST(ScenarioTraffic, AllToAll) {
  const std::string text = with_traffic("[[traffic]]\npattern = \"all_to_all\"\nbytes = \"64KiB\"\n", 6);
  const Scenario s = load_seeded(text, 1);
  ASSERT_EQ(s.flows.size(), 30u);
  std::set<std::pair<uint32_t, uint32_t>> pairs;
  for (const Flow& f : s.flows) {
    EXPECT_NE(f.src, f.dst);
    EXPECT_EQ(f.size, Bytes::kib(64));
    pairs.insert({f.src, f.dst});
  }
  EXPECT_EQ(pairs.size(), 30u);
  EXPECT_TRUE(same_flows(s.flows, load_seeded(text, 1).flows));
  EXPECT_FALSE(same_flows(s.flows, load_seeded(text, 3).flows));
}

TEST(ScenarioTraffic, PermutationIsASeededDerangement) {
  const std::string text = with_traffic("[[traffic]]\npattern = \"permutation\"\nbytes = \"1MB\"\n", 16);
  std::set<std::vector<uint32_t>> seen;
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    const Scenario s = load_seeded(text, seed);
    ASSERT_EQ(s.flows.size(), 16u);
    std::vector<uint32_t> dst_of(16);
    std::set<uint32_t> dsts;
    for (const Flow& f : s.flows) {
      EXPECT_NE(f.src, f.dst);
      dst_of[f.src] = f.dst;
      dsts.insert(f.dst);
    }
    EXPECT_EQ(dsts.size(), 16u) << "every host receives exactly once";
    seen.insert(dst_of);
    EXPECT_TRUE(same_flows(s.flows, load_seeded(text, seed).flows));
  }
  EXPECT_EQ(seen.size(), 5u) << "different seeds, different permutations";
}

TEST(ScenarioTraffic, StaggeredStartsAtFixedIntervals) {
  const Scenario s = load_ok(with_traffic(R"(
[[traffic]]
pattern = "staggered"
receiver = "h0"
senders = 3
interval = "2ms"
start = "1ms"
)"));
  ASSERT_EQ(s.flows.size(), 3u);
  for (uint32_t k = 0; k < 3; ++k) {
    EXPECT_EQ(s.flows[k].src, k + 1);
    EXPECT_EQ(s.flows[k].start, Time::ms(1 + 2 * k));
    EXPECT_FALSE(s.flows[k].size.has_value());
  }
}

TEST(ScenarioTraffic, ExplicitFlowsAndGlobalOrderAcrossEntries) {
  const Scenario s = load_ok(with_traffic(R"(
[[traffic]]
pattern = "explicit"
flows = [
  { src = "h1", dst = "h2", bytes = "10KB", start = "5us" },
  { src = "h3", dst = "h4", start = "1us", priority = 0, dscp = 0 },
]
[[traffic]]
pattern = "staggered"
receiver = "h0"
senders = ["h7"]
interval = "1us"
start = "3us"
)"));
  ASSERT_EQ(s.flows.size(), 3u);
  EXPECT_EQ(s.flows[0].src, 3u);  // 1 us
  EXPECT_EQ(s.flows[0].priority, 0);
  EXPECT_EQ(s.flows[1].src, 7u);  // 3 us, entry 1
  EXPECT_EQ(s.flows[1].traffic, 1u);
  EXPECT_EQ(s.flows[2].size, Bytes::kb(10));  // 5 us
  for (uint32_t i = 0; i < 3; ++i) EXPECT_EQ(s.flows[i].id, i);
  // Priority 0 is lossy under the default pfc_enable [3, 4]: warned.
  ASSERT_FALSE(s.warnings.empty());
  EXPECT_EQ(s.warnings.back().rfind("traffic[0]: priority 0 is not in switch.pfc_enable", 0), 0u);
}

TEST(ScenarioTraffic, CdfMeanMatchesTheFileAndSamplesDo) {
  for (const auto& [file, mean] : {std::pair{"websearch.cdf", 1'711'250.0}, std::pair{"hadoop.cdf", 120'420.75}}) {
    const Expected<Cdf> cdf = Cdf::load(testing::source_root() + "/scenarios/data/" + file);
    ASSERT_TRUE(cdf.ok()) << cdf.error().message;
    EXPECT_DOUBLE_EQ(cdf->mean_bytes(), mean) << file;
    Rng rng(7, 1);
    double sum = 0;
    constexpr int kSamples = 400'000;
    for (int i = 0; i < kSamples; ++i) sum += static_cast<double>(cdf->sample(rng));
    EXPECT_NEAR(sum / kSamples / mean, 1.0, 0.02) << file;
  }
}

TEST(ScenarioTraffic, CdfInterpolatesLinearly) {
  const Expected<Cdf> cdf = Cdf::parse("# c\n0 0\n100 50\n300 100\n", "x.cdf");
  ASSERT_TRUE(cdf.ok());
  EXPECT_DOUBLE_EQ(cdf->size_at(25), 50);
  EXPECT_DOUBLE_EQ(cdf->size_at(75), 200);
  EXPECT_DOUBLE_EQ(cdf->mean_bytes(), 50 * 0.5 + 200 * 0.5);
  EXPECT_EQ(Cdf::parse("0 0\n100 50\n90 100\n", "x.cdf").error().message,
            "x.cdf:3: '90 100': expected sizes and percentages strictly increasing");
  EXPECT_EQ(Cdf::parse("0 0\n100 50\n", "x.cdf").error().message,
            "x.cdf: expected at least two points, the last at 100 %");
}

// Found by the CDF fuzz pass (tests/fuzz/corpus/cdf/size_1e308.cdf): a size past uint64_t
// was accepted and sampled to 0 bytes (a double out of range converted to an integer).
TEST(ScenarioTraffic, CdfSizesBeyondTwoToThe53AreRefused) {
  EXPECT_EQ(Cdf::parse("0 0\n1e308 100\n", "x.cdf").error().message,
            "x.cdf:2: '1e308 100': expected sizes up to 9007199254740992 bytes (2^53, where every byte count "
            "is exact as a double)");
  const Expected<Cdf> largest = Cdf::parse("0 0\n9007199254740992 100\n", "x.cdf");
  ASSERT_TRUE(largest.ok());
  Rng rng(1, 0);
  for (int i = 0; i < 100; ++i) EXPECT_GE(largest->sample(rng), 1u);
}

// 16 hosts at 40 % of 100 Gb/s for 2 s of WebSearch: about 75,000 flows. Flow sizes have
// a coefficient of variation of about 2, so the offered bytes have a relative standard
// error of about sqrt(1 + 2^2) / sqrt(75,000) = 0.8 %: a 3 % tolerance is about 3.5 sigma.
TEST(ScenarioTraffic, PoissonLoadMatchesTheTarget) {
  const std::string text = R"([topology]
kind = "single_switch"
hosts = 16
[run]
duration = "2s"
[[traffic]]
pattern = "poisson"
cdf = "data/websearch.cdf"
load = 0.4
)";
  const Scenario a = load_seeded(text, 11);
  double bytes = 0;
  for (const Flow& f : a.flows) {
    bytes += static_cast<double>(f.size->count());
    EXPECT_NE(f.src, f.dst);
    EXPECT_LT(f.start, Time::s(2));
  }
  const double target = 0.4 * 100e9 / 8 * 2 * 16;
  EXPECT_NEAR(bytes / target, 1.0, 0.03);
  const double flows_expected = 0.4 * 100e9 / 8 / 1'711'250.0 * 2 * 16;
  EXPECT_NEAR(static_cast<double>(a.flows.size()) / flows_expected, 1.0, 0.02);
  EXPECT_TRUE(same_flows(a.flows, load_seeded(text, 11).flows));
  EXPECT_FALSE(same_flows(a.flows, load_seeded(text, 12).flows));
}

// A CDF that is not a regular file would block (a FIFO) or never end (/dev/zero): refused
// before the first byte is read, as is one past the size limit.
TEST(ScenarioTraffic, PoissonCdfMustBeASmallRegularFile) {
  const std::string base = "[topology]\nkind = \"single_switch\"\nhosts = 4\n[[traffic]]\npattern = \"poisson\"\nload = 0.5\n";
  EXPECT_THAT(testing::load_error(base + "cdf = \"/dev/zero\"\n"),
              ::testing::HasSubstr("traffic[0].cdf: /dev/zero: is a character device, not a regular file"));
  const std::string dir = ::testing::TempDir() + "/cdf_checks";
  std::filesystem::create_directories(dir);
  const std::string fifo = dir + "/fifo.cdf";
  std::filesystem::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_THAT(testing::load_error(base + "cdf = \"" + fifo + "\"\n"),
              ::testing::HasSubstr(fifo + ": is a FIFO, not a regular file"));
  EXPECT_THAT(testing::load_error(base + "cdf = \"" + dir + "\"\n"),
              ::testing::HasSubstr(dir + ": is a directory, not a regular file"));
  const std::string big = dir + "/big.cdf";
  { std::ofstream(big) << std::string(Cdf::kMaxFileBytes + 1, '#'); }
  EXPECT_THAT(testing::load_error(base + "cdf = \"" + big + "\"\n"),
              ::testing::HasSubstr(fmt::format("{}: is {} bytes, more than the {} bytes allowed", big,
                                               Cdf::kMaxFileBytes + 1, Cdf::kMaxFileBytes)));
}

TEST(ScenarioTraffic, PoissonErrors) {
  const std::string base = "[topology]\nkind = \"single_switch\"\nhosts = 4\n[[traffic]]\npattern = \"poisson\"\n";
  EXPECT_EQ(testing::load_error(base + "cdf = \"data/nope.cdf\"\nload = 0.5\n", {}, testing::in_scenarios("t.toml")),
            testing::in_scenarios("t.toml") + ":6: traffic[0].cdf: " + testing::in_scenarios("data/nope.cdf") +
                ": cannot be read (No such file or directory): expected a flow-size CDF file (lines of: bytes "
                "percent)");
  EXPECT_EQ(testing::load_error(base + "cdf = \"data/hadoop.cdf\"\nload = 0\n", {}, testing::in_scenarios("t.toml")),
            testing::in_scenarios("t.toml") + ":7: traffic[0].load: 0 is out of range: expected a fraction above 0 "
                                              "and at most 1");
}

// Two flows on priority 3 of a 4-host switch: 4 ports x 1 priority = 4 sampled queues.
// Over 21301 ms at 10 us that is 2,130,101 samples x 6 = 12.8 million rows, past the
// 10 million at which the CSVs take gigabytes: warned, with the 1-2-5 interval that
// keeps them under a million: 200 us, (106505 + 1) x 6 = 639,036 rows.
TEST(ScenarioTraffic, ATimeSeriesOfManyMillionRowsIsWarnedWithACoarserInterval) {
  const std::string text = R"(
[topology]
kind = "single_switch"
hosts = 4
[run]
duration = "21301ms"
sample_interval = "10us"
[[traffic]]
pattern = "explicit"
flows = [ { src = "h0", dst = "h1" }, { src = "h2", dst = "h3" } ]
)";
  const Scenario s = load_ok(text);
  const SeriesSize z = series_size(s);
  EXPECT_EQ(z.samples, 2'130'101u);
  EXPECT_EQ(z.flows, 2u);
  EXPECT_EQ(z.queues, 4u);
  ASSERT_FALSE(s.warnings.empty());
  EXPECT_EQ(s.warnings.back(),
            "run.sample_interval = 10us over run.duration = 21301ms: 2130101 samples of 2 flows and 4 queues are "
            "12.8 million rows of flows.csv and queues.csv (gigabytes on disk, minutes to plot): "
            "run.sample_interval = \"200us\" writes 0.64 million");
  for (const char* fewer : {"run.sample_interval=200us", "run.sample_interval=20us"}) {
    for (const std::string& w : load_ok(text, {fewer}).warnings) EXPECT_EQ(w.find("million rows"), std::string::npos) << w;
  }
}

}  // namespace
}  // namespace rtb::scenario
