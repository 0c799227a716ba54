// EAL argument vectors, the hugepage probe and failure messages: no EAL needed.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>

#include "runtime/pool/eal.h"
#include "runtime/pool/eal_args.h"

namespace rtb::runtime {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

// The value after `flag` in `args`, or "" when absent.
std::string value_of(const std::vector<std::string>& args, const std::string& flag) {
  auto it = std::find(args.begin(), args.end(), flag);
  return it != args.end() && it + 1 != args.end() ? *(it + 1) : "";
}

std::vector<std::string> args_for(const EalOptions& o, const HugepageInfo& h = {}) {
  auto a = eal_arguments(o, h);
  EXPECT_TRUE(a) << a.error().message;
  return a ? a.value() : std::vector<std::string>{};
}

TEST(EalArguments, VirtualDefaults) {
  EalOptions o;
  o.pool_bytes = 100ull << 20;
  const auto a = args_for(o);
  ASSERT_FALSE(a.empty());
  EXPECT_EQ(a[0], "rocetb");
  EXPECT_EQ(value_of(a, "-l"), "0");
  EXPECT_EQ(value_of(a, "-m"), "164");  // 100 MiB of pools + 64 MiB margin
  EXPECT_EQ(value_of(a, "--log-level"), "error");
  EXPECT_THAT(value_of(a, "--file-prefix"),
              HasSubstr("rocetb-" + std::to_string(::getpid()) + "-"));
  for (const char* f : {"--no-huge", "--no-pci", "--no-shconf", "--no-telemetry"}) {
    EXPECT_THAT(a, Contains(std::string(f)));
  }
}

TEST(EalArguments, MemoryRoundsUpToWholeMegabytes) {
  EalOptions o;
  o.pool_bytes = 1;
  EXPECT_EQ(eal_memory_mb(o), 65u);
  o.pool_bytes = 0;
  EXPECT_EQ(eal_memory_mb(o), 64u);
  o.memory_mb = 512;
  EXPECT_EQ(eal_memory_mb(o), 512u);
  EXPECT_EQ(value_of(args_for(o), "-m"), "512");
}

TEST(EalArguments, FilePrefixesAreUniqueUnlessGiven) {
  EalOptions o;
  EXPECT_NE(value_of(args_for(o), "--file-prefix"), value_of(args_for(o), "--file-prefix"));
  o.file_prefix = "mine";
  EXPECT_EQ(value_of(args_for(o), "--file-prefix"), "mine");
}

TEST(EalArguments, LcoresRealtimeSwitchesAndExtras) {
  EalOptions o;
  o.main_lcore = 1;
  o.worker_lcores = {2, 5};
  o.pci = true;
  o.shared_config = true;
  o.telemetry = true;
  o.log_level = "debug";
  o.extra = {"--vdev=net_null0", "--vdev=net_null1"};
  const auto a = args_for(o);
  EXPECT_EQ(value_of(a, "-l"), "1,2,5");
  EXPECT_EQ(value_of(a, "--log-level"), "debug");
  EXPECT_THAT(a, Not(Contains(std::string("--no-pci"))));
  EXPECT_THAT(a, Not(Contains(std::string("--no-shconf"))));
  EXPECT_THAT(a, Not(Contains(std::string("--no-telemetry"))));
  ASSERT_GE(a.size(), 2u);
  EXPECT_THAT(std::vector<std::string>(a.end() - 2, a.end()),
              ElementsAre("--vdev=net_null0", "--vdev=net_null1"));
}

TEST(EalArguments, PciAllowList) {
  EalOptions o;
  o.pci = true;
  o.pci_allow = {"0000:03:00.0", "0000:03:00.1"};
  const auto a = args_for(o);
  EXPECT_THAT(a, Not(Contains(std::string("--no-pci"))));
  const auto first = std::find(a.begin(), a.end(), "-a");
  ASSERT_NE(first, a.end());
  EXPECT_EQ(*(first + 1), "0000:03:00.0");
  EXPECT_EQ(*(first + 3), "0000:03:00.1");
  o.pci = false;
  auto refused = eal_arguments(o, {});
  ASSERT_FALSE(refused);
  EXPECT_THAT(refused.error().message, HasSubstr("pci = true"));
}

TEST(EalArguments, ExtraArgumentsMayNotOverrideFields) {
  for (const char* bad : {"-m", "--file-prefix=x", "-l", "--no-huge", "--log-level=debug"}) {
    EalOptions o;
    o.extra = {bad, "5"};
    auto a = eal_arguments(o, {});
    ASSERT_FALSE(a) << bad;
    EXPECT_THAT(a.error().message, HasSubstr(bad));
    EXPECT_THAT(a.error().message, HasSubstr("set the field instead"));
  }
}

TEST(EalArguments, HugepagesWhenMountedAndEnoughFree) {
  EalOptions o;  // 64 MB
  const HugepageInfo enough{true, "/dev/hugepages", 1ull << 30};
  const HugepageInfo too_few{true, "/dev/hugepages", 32ull << 20};
  const HugepageInfo unmounted{false, "", 1ull << 30};
  EXPECT_THAT(args_for(o, enough), Not(Contains(std::string("--no-huge"))));
  EXPECT_THAT(args_for(o, too_few), Contains(std::string("--no-huge")));
  EXPECT_THAT(args_for(o, unmounted), Contains(std::string("--no-huge")));
  o.hugepages = HugepageMode::kNever;
  EXPECT_THAT(args_for(o, enough), Contains(std::string("--no-huge")));
}

TEST(EalArguments, RequiredHugepagesMissingSaysWhatToDo) {
  EalOptions o;
  o.hugepages = HugepageMode::kRequire;
  auto a = eal_arguments(o, {true, "/dev/hugepages", 32ull << 20});
  ASSERT_FALSE(a);
  EXPECT_THAT(a.error().message, HasSubstr("only 32 MB are free"));
  EXPECT_THAT(a.error().message, HasSubstr("64 MB are needed"));
  auto b = eal_arguments(o, {});
  ASSERT_FALSE(b);
  EXPECT_THAT(b.error().message, HasSubstr("no hugetlbfs is mounted"));
  EXPECT_TRUE(eal_arguments(o, {true, "/dev/hugepages", 1ull << 30}));
}

TEST(HugepageProbe, ReadsMountsAndFreePagesOfEverySize) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("rocetb-huge-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "sys" / "hugepages-2048kB");
  std::filesystem::create_directories(dir / "sys" / "hugepages-1048576kB");
  std::filesystem::create_directories(dir / "sys" / "not-a-size");
  std::ofstream(dir / "mounts") << "proc /proc proc rw 0 0\n"
                                << "hugetlbfs /mnt/huge hugetlbfs rw,pagesize=2M 0 0\n";
  std::ofstream(dir / "sys" / "hugepages-2048kB" / "free_hugepages") << "10\n";
  std::ofstream(dir / "sys" / "hugepages-1048576kB" / "free_hugepages") << "1\n";
  const auto info = probe_hugepages((dir / "mounts").string(), (dir / "sys").string());
  EXPECT_TRUE(info.mounted);
  EXPECT_EQ(info.mount_point, "/mnt/huge");
  EXPECT_EQ(info.free_bytes, 10 * (2ull << 20) + (1ull << 30));

  const auto none = probe_hugepages((dir / "missing").string(), (dir / "missing").string());
  EXPECT_FALSE(none.mounted);
  EXPECT_EQ(none.free_bytes, 0u);
  std::filesystem::remove_all(dir);
}

TEST(EalFailure, OneSentenceSayingWhatToDo) {
  const std::vector<std::string> args = {"rocetb", "--file-prefix", "rocetb-1-0", "-m", "64"};
  EXPECT_THAT(explain_eal_failure(EACCES, args), HasSubstr("run as root"));
  EXPECT_THAT(explain_eal_failure(EPERM, args), HasSubstr("CAP_SYS_ADMIN"));
  EXPECT_THAT(explain_eal_failure(EBUSY, args),
              HasSubstr("file prefix 'rocetb-1-0' is in use by another DPDK process"));
  EXPECT_THAT(explain_eal_failure(ENOMEM, args), HasSubstr("raise -m"));
  EXPECT_THAT(explain_eal_failure(EALREADY, args), HasSubstr("once per process"));
  EXPECT_THAT(explain_eal_failure(0, args), HasSubstr("file prefix 'rocetb-1-0'"));
  EXPECT_THAT(explain_eal_failure(ENOTSUP, args), HasSubstr("rte_errno"));
  for (int e : {EACCES, EBUSY, ENOMEM, EINVAL, 0, ENOTSUP}) {
    EXPECT_THAT(explain_eal_failure(e, args), HasSubstr("rocetb --file-prefix rocetb-1-0 -m 64"));
  }
}

TEST(EalStart, SecondStartIsAnErrorThatSaysOncePerProcess) {
  ASSERT_TRUE(eal_running());  // pool_main.cc started it
  EXPECT_THAT(eal_arguments_used(), Contains(std::string("--no-pci")));
  Status s = start_eal(EalOptions{});
  ASSERT_FALSE(s);
  EXPECT_THAT(s.message(), HasSubstr("initialises once per process"));
  EXPECT_THAT(s.message(), HasSubstr("already started"));
  EXPECT_TRUE(eal_running());
}

}  // namespace
}  // namespace rtb::runtime
