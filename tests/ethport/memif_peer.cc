#include "tests/ethport/memif_peer.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "ethport/eth_port.h"
#include "runtime/pool/eal.h"
#include "runtime/pool/mbuf_pool.h"

namespace rtb::ethport::testing {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kLinkWait = std::chrono::seconds(15);
constexpr auto kEchoWait = std::chrono::seconds(30);

bool wait_link(const EthPort& port) {
  const auto deadline = Clock::now() + kLinkWait;
  while (!port.link_up()) {
    if (Clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

// Echoes until `frames` went back; a frame the port does not take is retried.
bool echo(EthPort& port, unsigned long frames) {
  const auto deadline = Clock::now() + kEchoWait;
  unsigned long echoed = 0;
  rte_mbuf* burst[32];
  while (echoed < frames && Clock::now() < deadline) {
    const uint16_t n = port.rx(burst, 32);
    uint16_t sent = 0;
    while (sent < n && Clock::now() < deadline) {
      sent = static_cast<uint16_t>(sent + port.tx(burst + sent, n - sent));
    }
    rte_pktmbuf_free_bulk(burst + sent, n - sent);
    echoed += sent;
    if (n == 0) std::this_thread::yield();
  }
  return echoed == frames;
}

int run(const std::string& socket, unsigned long frames) {
  auto pool = runtime::MbufPool::create(
      {.name = "peer", .count = 1023, .data_room = RTE_PKTMBUF_HEADROOM + kMaxFrameBytes});
  if (!pool) {
    std::fprintf(stderr, "memif peer: %s\n", pool.error().message.c_str());
    return 2;
  }
  int code = 0;
  {
    auto port = EthPort::open({.device = "net_memif0,role=client,socket=" + socket},
                              pool.value().mempool());
    if (!port) {
      std::fprintf(stderr, "memif peer: %s\n", port.error().message.c_str());
      return 2;
    }
    if (!wait_link(*port.value())) code = 3;
    else if (!echo(*port.value(), frames)) code = 4;
    // The server closes its port once it has read every echo: wait for that, so the
    // echoes are not torn down with this process's memif regions.
    const auto deadline = Clock::now() + kLinkWait;
    while (code == 0 && port.value()->link_up() && Clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  if (code == 0 && !pool.value().check_no_leaks()) code = 5;
  return code;
}

}  // namespace

int memif_peer_main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s %s <socket> <frames>\n", argv[0], kMemifPeerFlag);
    return 2;
  }
  runtime::EalOptions o;
  o.program = "ethport_peer";
  o.main_lcore = std::thread::hardware_concurrency() > 1 ? 1 : 0;
  o.memory_mb = 128;
  if (Status s = runtime::start_eal(o); !s) {
    std::fprintf(stderr, "memif peer: %s\n", s.message().c_str());
    return 2;
  }
  const int code = run(argv[2], std::strtoul(argv[3], nullptr, 10));
  (void)runtime::stop_eal();
  return code;
}

}  // namespace rtb::ethport::testing
