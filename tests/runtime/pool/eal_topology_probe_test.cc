// The EAL's CPU and NUMA probes answered from one listing of sysfs: the same answers as
// access() for every lcore and node the EAL asks about, only while the EAL starts, and
// nothing else answered (runtime/pool/eal_topology_probe.h).
#include "runtime/pool/eal_topology_probe.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
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

}  // namespace
}  // namespace rtb::runtime
