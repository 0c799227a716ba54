// `rocetb bench tx`: host TX stages into net_null, on one or more lcores, against the clock.
//
//   lcore i: host i (QPs qps/L, RDMA WRITE, the chosen algorithm) --WireLink at `rate`-->
//            EthBridge --> net_null<i> (tx frees every frame)
//
// Each QP sends long-lived messages of real RoCEv2 frames (templates patched per frame,
// ICRC computed) paced by its algorithm's rate; no ACK or CNP comes back, so the
// algorithm sees only its bytes-sent hook and every QP stays at its start rate. The
// realtime loops catch up (lib/realtime, Catch-up) with `burst` polls per iteration, so
// frames leave through rte_eth_tx_burst in bursts. frames/s is what the ports accepted
// after the warm-up, over the time since (QPs start spread over the warm-up's first half).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench/report.h"
#include "cc_algos/registry.h"
#include "core/error.h"
#include "core/units.h"

namespace rtb::bench {

struct TxOptions {
  uint32_t qps = 1'000;            // over all hosts
  uint32_t payload = 1'024;        // RoCE path MTU: payload bytes per frame
  std::string cc = "dcqcn";        // an algorithm name or a plug-in's path
  uint32_t burst = 64;             // catch-up polls per loop iteration (1: one per poll)
  Time catch_up = Time::us(5);
  std::vector<unsigned> lcores{0};  // one host each; the first is the EAL main lcore
  Time duration = Time::s(1);
  Time warmup = Time::ms(200);     // excluded from the figures; QPs start during it
  Rate rate = Rate::gbps(400);     // each host's wire
};

// Refuses options the run could not honour, naming the option: a QP would need more
// than half the PSN space of unacknowledged frames (nothing acknowledges them).
Status check_tx(const TxOptions& o);
// Memory the mode's pools take (for the EAL).
uint64_t tx_pool_bytes(const TxOptions& o);
// Needs the EAL running on o.lcores, called on the main lcore's thread.
Expected<BenchReport> run_tx(const TxOptions& o, cc::Registry& registry);

}  // namespace rtb::bench
