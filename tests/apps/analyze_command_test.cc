// `rocetb analyze` as a user types it: inputs that would block or never end are refused.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <string>

#include "tests/apps/child.h"

namespace rtb::apps {
namespace {

using testing::run_rocetb;

// libpcap would wait forever for a writer on a FIFO.
TEST(AnalyzeCommand, AFifoAsTheCaptureIsRefusedNotWaitedOn) {
  const std::string fifo = ::testing::TempDir() + "/analyze_command_fifo.pcap";
  const std::string out = ::testing::TempDir() + "/analyze_command_fifo_out";
  std::filesystem::remove(fifo);
  std::filesystem::remove_all(out);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto r = run_rocetb({"analyze", fifo, "--out", out}, std::nullopt, std::chrono::seconds(30));
  EXPECT_EQ(r.term_signal, 0) << "still blocked after 30 s";
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "rocetb analyze: " + fifo + ": is a FIFO, not a regular file: expected a pcap or pcapng capture file\n");
  EXPECT_FALSE(std::filesystem::exists(out)) << "refused before the results folder is made";
}

}  // namespace
}  // namespace rtb::apps
