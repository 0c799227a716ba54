// Warnings with one cause read as one line with a count, on the terminal and in
// warnings.txt: a 4-leaf, 2-spine fabric with too little headroom on every port warns
// once per cause, not once per port (68 warnings before).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/apps/child.h"

namespace rtb::apps {
namespace {

using ::testing::HasSubstr;
using testing::run_rocetb;

// The lines of `text` that start a warning (its arithmetic lines are indented), and
// with `prefix` removed.
std::vector<std::string> first_lines(const std::string& text, const std::string& prefix) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(prefix, 0) == 0 && line.size() > prefix.size() && line[prefix.size()] != ' ') {
      out.push_back(line.substr(prefix.size()));
    }
  }
  return out;
}

TEST(WarningsOutput, OneLinePerCauseWithACount) {
  const std::string out = ::testing::TempDir() + "/warnings_output_test";
  std::filesystem::remove_all(out);
  const auto r = run_rocetb({"run", "scenarios/alltoall_leafspine.toml", "--set", "switch.pg_lossless.xoff=20KB",
                             "--set", "run.duration=300us", "--set", "run.warmup=100us", "--out", out});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  std::ostringstream file;
  file << std::ifstream(out + "/warnings.txt").rdbuf();
  const std::vector<std::string> written = first_lines(file.str(), "");
  const std::vector<std::string> printed = first_lines(r.out, "warning: ");
  EXPECT_EQ(printed, written) << "the terminal and warnings.txt differ";
  EXPECT_EQ(std::set<std::string>(written.begin(), written.end()).size(), written.size()) << file.str();
  EXPECT_LE(written.size(), 8u) << file.str();
  EXPECT_THAT(file.str(), HasSubstr("switch leaf0 port Ethernet0, switch leaf0 port Ethernet4, switch leaf0 port "
                                    "Ethernet8 and 13 more (16 in all): BUFFER_PROFILE pg3 xoff = 20000 B (headroom) "
                                    "is below the 44032 B the cable needs"));
}

}  // namespace
}  // namespace rtb::apps
