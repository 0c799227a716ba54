// The EAL's CPU and NUMA probes answered from one listing of sysfs: the same answers as
// access() for every lcore and node the EAL asks about, only while the EAL starts, and
// nothing else answered (runtime/pool/eal_topology_probe.h).
#include "runtime/pool/eal_topology_probe.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "runtime/pool/eal_start_window.h"

namespace rtb::runtime {
namespace {

std::string core_id(unsigned cpu) {
  return "/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/topology/core_id";
}
std::string node_cpu(unsigned node, unsigned cpu) {
  return "/sys/devices/system/node/node" + std::to_string(node) + "/cpu" + std::to_string(cpu);
}

// What the kernel says: 0, or -1 with its errno.
std::pair<int, int> real(const std::string& path) {
  errno = 0;
  const int rc = ::access(path.c_str(), F_OK);
  return {rc, rc == 0 ? 0 : errno};
}

void expect_kernels_answer(const std::string& path) {
  errno = 0;
  const auto answered = eal_topology_access(path.c_str(), F_OK);
  ASSERT_TRUE(answered) << path;
  const std::pair<int, int> got{*answered, *answered == 0 ? 0 : errno};
  EXPECT_EQ(got, real(path)) << path;
}

TEST(EalTopologyProbe, AnswersEveryLcoreAndNodeTheEalAsksAboutAsTheKernelDoes) {
  begin_eal_start();
  const uint64_t before = eal_topology_probes_answered();
  int present = 0;
  for (unsigned cpu = 0; cpu < 160; ++cpu) {  // RTE_MAX_LCORE is 128
    expect_kernels_answer(core_id(cpu));
    present += real(core_id(cpu)).first == 0;
    for (unsigned node = 0; node < 32; ++node) expect_kernels_answer(node_cpu(node, cpu));
  }
  EXPECT_EQ(eal_topology_probes_answered() - before, 160u * 33u);
  end_eal_start();
  EXPECT_GE(present, 1) << "no CPU here has a topology/core_id: the test compared only misses";
}

TEST(EalTopologyProbe, LeavesOtherPathsModesAndThreadsAndTimesToTheKernel) {
  EXPECT_FALSE(eal_topology_access(core_id(0).c_str(), F_OK)) << "outside rte_eal_init()";
  begin_eal_start();
  for (const char* other : {"/sys/devices/system/cpu/cpu0/topology/core_idx",
                            "/sys/devices/system/cpu/cpu00/topology/core_id",
                            "/sys/devices/system/cpu/cpu/topology/core_id",
                            "/sys/devices/system/cpu/cpu0/topology/physical_package_id",
                            "/sys/devices/system/node/node0/cpu0/online",
                            "/sys/devices/system/node/node01/cpu0",
                            "/sys/devices/system/node/node0/cpux",
                            "/sys/devices/system/node/node0",
                            "/sys/bus/pci/devices",
                            "/dev/hugepages"}) {
    EXPECT_FALSE(eal_topology_access(other, F_OK)) << other;
  }
  EXPECT_FALSE(eal_topology_access(nullptr, F_OK));
  EXPECT_FALSE(eal_topology_access(core_id(0).c_str(), R_OK)) << "only F_OK probes";
  bool elsewhere = true;
  std::thread([&] { elsewhere = eal_topology_access(core_id(0).c_str(), F_OK).has_value(); })
      .join();
  EXPECT_FALSE(elsewhere) << "another thread's access() is its own";
  end_eal_start();
}

// A layout this machine does not have: CPUs 0, 3 and 10, of which 10 has no topology (an
// offline CPU), on NUMA nodes 0 and 2.
TEST(EalTopologyProbe, AnswersFromAListingOfAnyLayoutAndNothingWhenItCannotBeListed) {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / ("rtb_sysfs_" + std::to_string(::getpid()));
  fs::remove_all(root);
  for (const char* cpu : {"cpu0", "cpu3"}) {
    fs::create_directories(root / "devices/system/cpu" / cpu / "topology");
    std::ofstream(root / "devices/system/cpu" / cpu / "topology/core_id") << "0\n";
  }
  fs::create_directories(root / "devices/system/cpu/cpu10");
  fs::create_directories(root / "devices/system/cpu/cpufreq");
  for (const char* entry : {"node0/cpu0", "node0/cpu3", "node2/cpu10", "node2/cpulist"}) {
    fs::create_directories(root / "devices/system/node" / entry);
  }
  const std::string r = root.string();
  const auto ask = [&](const std::string& path) { return topology_access_under(r, path.c_str()); };
  const auto cpu = [&](const std::string& n) {
    return r + "/devices/system/cpu/cpu" + n + "/topology/core_id";
  };
  const auto node = [&](const std::string& m, const std::string& n) {
    return r + "/devices/system/node/node" + m + "/cpu" + n;
  };
  EXPECT_EQ(ask(cpu("0")), 0);
  EXPECT_EQ(ask(cpu("3")), 0);
  errno = 0;
  EXPECT_EQ(ask(cpu("10")), -1);
  EXPECT_EQ(errno, ENOENT);
  EXPECT_EQ(ask(cpu("1")), -1);
  EXPECT_EQ(ask(node("0", "3")), 0);
  EXPECT_EQ(ask(node("2", "10")), 0);
  EXPECT_EQ(ask(node("2", "3")), -1);
  EXPECT_EQ(ask(node("1", "0")), -1);
  for (const std::string& other : {cpu("03"), cpu("99999999999"), node("0", "03"),
                                   node("00", "0"), r + "/devices/system/node/node2/cpulist",
                                   std::string("/sys/x")}) {
    EXPECT_FALSE(ask(other)) << other;
  }
  fs::remove_all(root / "devices/system/node");  // a kernel without NUMA
  EXPECT_EQ(ask(cpu("0")), 0);
  EXPECT_EQ(ask(node("0", "0")), -1);
  std::ofstream(root / "devices/system/node") << "not a folder\n";  // cannot be listed
  EXPECT_FALSE(ask(cpu("0"))) << "a listing that fails answers nothing: the kernel does";
  fs::remove_all(root);
}

}  // namespace
}  // namespace rtb::runtime
