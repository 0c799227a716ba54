// Default results folders: unique even for runs started in the same second, named after
// the overrides.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <set>

#include "testbed/results_dir.h"

namespace rtb::testbed {
namespace {

std::tm at_noon() {
  std::tm t{};
  t.tm_year = 2026 - 1900;
  t.tm_mon = 11;
  t.tm_mday = 1;
  t.tm_hour = 12;
  return t;
}

std::string temp_root() {
  const auto root = std::filesystem::temp_directory_path() / ("rtb-results-dir-" + std::to_string(getpid()));
  std::filesystem::remove_all(root);
  return root.string();
}

TEST(ResultsDir, ThreeRunsInOneSecondGetThreeFolders) {
  const std::string root = temp_root();
  std::set<std::string> dirs;
  for (int i = 0; i < 3; ++i) {
    auto d = make_results_dir(root, "default", {}, at_noon());
    ASSERT_TRUE(d.ok()) << d.error().message;
    EXPECT_TRUE(std::filesystem::is_directory(d.value())) << d.value();
    dirs.insert(d.value());
  }
  EXPECT_EQ(dirs, (std::set<std::string>{root + "/default-20261201-120000",
                                         root + "/default-20261201-120000-2",
                                         root + "/default-20261201-120000-3"}));
  std::filesystem::remove_all(root);
}

TEST(ResultsDir, TheNameCarriesAShortTagOfTheOverrides) {
  const std::string root = temp_root();
  auto d = make_results_dir(root, "default",
                            {"switch.wred_profile.green_min_threshold=300KB", "cc.algorithm=\"dcqcn_paper\"",
                             "seed=7"},
                            at_noon());
  ASSERT_TRUE(d.ok()) << d.error().message;
  EXPECT_EQ(d.value(), root + "/default-20261201-120000-green_min_threshold=300KB,algorithm=dcqcn_paper,seed=7");
  std::filesystem::remove_all(root);
}

TEST(ResultsDir, TagsAreFileNamesShortAndDistinct) {
  EXPECT_EQ(overrides_tag({}), "");
  EXPECT_EQ(overrides_tag({"cc.algorithm=\"/opt/cc/my algo.so\""}), "algorithm=my_algo.so");
  const std::string a = overrides_tag({"switch.buffer_pool.size=8MB", "switch.wred_profile.green_min_threshold=300KB",
                                       "switch.wred_profile.green_max_threshold=1200KB", "run.seed=1"});
  const std::string b = overrides_tag({"switch.buffer_pool.size=8MB", "switch.wred_profile.green_min_threshold=300KB",
                                       "switch.wred_profile.green_max_threshold=1300KB", "run.seed=1"});
  EXPECT_EQ(a.size(), kMaxTagChars);
  EXPECT_NE(a, b);
}

TEST(ResultsDir, AnUnwritableRootIsNamed) {
  auto d = make_results_dir("/proc/rtb-no", "default", {}, at_noon());
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.error().message.find("cannot create results folder /proc/rtb-no"), std::string::npos)
      << d.error().message;
}

}  // namespace
}  // namespace rtb::testbed
