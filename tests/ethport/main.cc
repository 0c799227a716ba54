// ethport_test: one EAL per process (main lcore only, no hugepages, no PCI). Started as
// `ethport_test --memif-peer <socket> <frames>` it is instead the memif peer process of
// memif_port_test.cc, with an EAL of its own (memif_peer.cc).
#include <gtest/gtest.h>

#include <cstring>

#include "tests/ethport/memif_peer.h"
#include "tests/runtime/test_eal.h"

int main(int argc, char** argv) {
  if (argc >= 2 && std::strcmp(argv[1], rtb::ethport::testing::kMemifPeerFlag) == 0) {
    return rtb::ethport::testing::memif_peer_main(argc, argv);
  }
  ::testing::InitGoogleTest(&argc, argv);
  if (!rtb::runtime::testing::start_test_eal("ethport_test")) return 1;
  const int result = RUN_ALL_TESTS();
  (void)rtb::runtime::stop_eal();
  return result;
}
