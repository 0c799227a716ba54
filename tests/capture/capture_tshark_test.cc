// Our pcapng and pcap files as Wireshark sees them: interface names, nanosecond times,
// link types and comments, read by tshark (a tool nobody here wrote).
#include <gtest/gtest.h>

#include <sstream>

#include "capture_test_util.h"
#include "pcap/pcap_writer.h"
#include "pcap/pcapng_writer.h"

namespace rtb::capture {
namespace {

using testing::test_frame;

constexpr uint64_t kOrigin = 1'700'000'000ULL * 1'000'000'000ULL;

#define SKIP_WITHOUT_TSHARK()                                                         \
  if (!testing::have_program("tshark"))                                               \
  GTEST_SKIP() << "tshark is not installed (apt-get install tshark, or "              \
                  "scripts/install-deps.sh); skipping the Wireshark cross-check"

// tshark -T fields output, one vector of fields per frame.
std::vector<std::vector<std::string>> tshark_fields(const std::string& path,
                                                    const std::string& fields) {
  int rc = 0;
  const auto out = testing::run_command(
      "tshark -r '" + path + "' -T fields -E separator=/t " + fields + " 2>/dev/null", rc);
  EXPECT_EQ(rc, 0) << "tshark failed on " << path;
  std::vector<std::vector<std::string>> rows;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    std::vector<std::string> row;
    std::istringstream cells(line);
    for (std::string cell; std::getline(cells, cell, '\t');) row.push_back(cell);
    rows.push_back(row);
  }
  return rows;
}

std::string epoch_text(uint64_t ns) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%llu.%09llu",
                static_cast<unsigned long long>(ns / 1'000'000'000),
                static_cast<unsigned long long>(ns % 1'000'000'000));
  return buf;
}

TEST(TsharkReadsOurPcapng, InterfaceNamesAndNanosecondTimes) {
  SKIP_WITHOUT_TSHARK();
  testing::ScratchDir dir;
  const auto path = dir.file("links.pcapng");
  auto w = PcapngWriter::create(path, {.origin_ns = kOrigin}).value();
  const uint32_t up = w.add_interface("host0->sw0");
  const uint32_t down = w.add_interface("sw0->host1");
  const Time times[] = {Time::ps(1), Time::ps(88'480), Time::ns(123'456'789),
                        Time::s(3) + Time::ns(7)};
  for (size_t i = 0; i < 4; ++i) {
    ASSERT_TRUE(w.write(i % 2 == 0 ? up : down, times[i], test_frame(64 + i, 0),
                        i == 3 ? "last frame" : ""));
  }
  ASSERT_TRUE(w.close());

  const auto rows = tshark_fields(
      path, "-e frame.interface_name -e frame.time_epoch -e frame.len -e frame.comment");
  ASSERT_EQ(rows.size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    SCOPED_TRACE(i);
    ASSERT_GE(rows[i].size(), 3u);
    EXPECT_EQ(rows[i][0], i % 2 == 0 ? "host0->sw0" : "sw0->host1");
    EXPECT_EQ(rows[i][1], epoch_text(kOrigin + times[i].ns()));
    EXPECT_EQ(rows[i][2], std::to_string(64 + i));
  }
  ASSERT_EQ(rows[3].size(), 4u);
  EXPECT_EQ(rows[3][3], "last frame");
}

TEST(TsharkReadsOurPcapng, MixedLinkTypesPerInterface) {
  SKIP_WITHOUT_TSHARK();
  testing::ScratchDir dir;
  const auto path = dir.file("mixed.pcapng");
  auto w = PcapngWriter::create(path).value();
  const uint32_t eth = w.add_interface("eth");
  const uint32_t raw = w.add_interface("rawip", LinkType::kRaw);
  // A minimal IPv4 header (version 4, IHL 5, total length 20, protocol 253).
  std::vector<uint8_t> ip = {0x45, 0, 0, 20, 0, 0, 0x40, 0, 64, 253, 0, 0,
                             192, 0, 2, 1, 192, 0, 2, 2};
  ASSERT_TRUE(w.write(eth, Time::us(1), test_frame(60, 0)));
  ASSERT_TRUE(w.write(raw, Time::us(2), ip));
  ASSERT_TRUE(w.close());
  const auto rows = tshark_fields(path, "-e frame.interface_name -e frame.protocols");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0][0], "eth");
  EXPECT_EQ(rows[0][1].rfind("eth", 0), 0u) << rows[0][1];
  EXPECT_EQ(rows[1][0], "rawip");
  EXPECT_EQ(rows[1][1].rfind("raw:ip", 0), 0u) << rows[1][1];
}

TEST(TsharkReadsOurPcap, NanosecondTimes) {
  SKIP_WITHOUT_TSHARK();
  testing::ScratchDir dir;
  const auto path = dir.file("ns.pcap");
  auto w = PcapWriter::create(path, LinkType::kEthernet, kDefaultSnaplen, kOrigin).value();
  ASSERT_TRUE(w.write(Time::ns(999'999'999), test_frame(60, 0)));
  ASSERT_TRUE(w.write(Time::s(1) + Time::ns(1), test_frame(61, 0)));
  ASSERT_TRUE(w.close());
  const auto rows = tshark_fields(path, "-e frame.time_epoch -e frame.len");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0][0], epoch_text(kOrigin + 999'999'999));
  EXPECT_EQ(rows[1][0], epoch_text(kOrigin + 1'000'000'001));
  EXPECT_EQ(rows[1][1], "61");
}

}  // namespace
}  // namespace rtb::capture
