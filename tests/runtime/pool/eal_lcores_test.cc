// check_lcores_usable: the lcores a run asks for are CPUs the process may run on, each once.
#include <gtest/gtest.h>

#include "runtime/pool/eal.h"

namespace rtb::runtime {
namespace {

TEST(EalLcores, UsableCpusPassAndOthersAreNamed) {
  const std::vector<unsigned> cpus = usable_cpu_list();
  ASSERT_FALSE(cpus.empty());
  EXPECT_TRUE(check_lcores_usable({cpus.front()}).ok());
  EXPECT_TRUE(check_lcores_usable(cpus).ok());

  const unsigned outside = cpus.back() + 1;
  const Status s = check_lcores_usable({cpus.front(), outside});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message().rfind("lcore " + std::to_string(outside) + " is not a CPU this process may run on (", 0), 0u)
      << s.message();

  const Status twice = check_lcores_usable({cpus.front(), cpus.front()});
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.message(), "lcore " + std::to_string(cpus.front()) + " is listed twice: expected distinct lcores");
  EXPECT_FALSE(check_lcores_usable({}).ok());
}

}  // namespace
}  // namespace rtb::runtime
