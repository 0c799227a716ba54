// One host TX stage and everything it sends through: its own mbuf pools, its wire, a
// bridge and a net_null port (tx_bench.h). Owned by one lcore for the whole run.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "cc_algos/controller.h"
#include "core/error.h"
#include "core/units.h"
#include "ethport/eth_bridge.h"
#include "ethport/eth_port.h"
#include "host/host.h"
#include "realtime/realtime_scheduler.h"
#include "runtime/pool/mbuf_pool_set.h"
#include "runtime/wire_link.h"

namespace rtb::bench {

struct TxRigSpec {
  std::string name;    // host name, e.g. "host0"
  std::string device;  // a net_null vdev name, unique in the process
  std::string pools;   // mbuf pool name prefix, unique in the process (at most 16 chars)
  uint32_t qps = 1;
  uint32_t first_qpn = 0x100;
  uint32_t payload = 1'024;  // path MTU
  Rate rate = Rate::gbps(400);
  Time duration = Time::s(1);
  Time warmup = Time::ms(200);  // QPs start spread over its first half; figures count after it
};

// What a rig had sent when the warm-up ended, read on its own lcore (a stage polled at
// `now`, due once at the end of the warm-up).
struct WarmupMark {
  Time at = Time::never();  // the clock's reading at that poll
  uint64_t tx_frames = 0;
  uint64_t tx_bytes = 0;
  double cpu_seconds = 0;   // the lcore thread's CPU time then (CLOCK_THREAD_CPUTIME_ID)
};

// Every QP posts enough 1 GiB messages for the run at line rate; since nothing is
// acknowledged, a QP may not need more than half the 24-bit PSN space (IBTA §9.7.1).
Status check_rig(const TxRigSpec& s);
// Data frames in flight: the link's ring, the bridge's burst, the lcore's mempool cache.
runtime::PoolSizes rig_pool_sizes(uint32_t payload);

class TxRig {
 public:
  // The pools, the port and its bridge; then build_host() adds the host and its QPs (apart,
  // so that the memory the QPs take can be told from the pools').
  static Expected<std::unique_ptr<TxRig>> create(const TxRigSpec& spec);
  Status build_host(const cc::Controller& cc);
  ~TxRig();

  void place(realtime::RealtimeScheduler& s, unsigned lcore);
  const ethport::EthBridge& bridge() const { return *bridge_; }
  const host::Host& host() const { return *host_; }
  const WarmupMark& warmup_mark() const;
  // Per-host figures: frames, frames/s, retransmissions, timeouts, failed QPs, CNPs.
  nlohmann::ordered_json to_json(double wall_seconds) const;
  // QPs whose congestion window is full: nothing acknowledges in this rig, so such a QP
  // has sent its last frame (a window-based algorithm: HPCC, Swift, a plug-in's window).
  uint32_t window_held_qps() const;
  // Frees every frame (host queues, bridge, links, port) and checks each pool is whole.
  Status finish();

 private:
  TxRig(const TxRigSpec& spec, runtime::PoolSet pools);
  Status add_qps();

  class MarkStage;
  TxRigSpec spec_;
  std::unique_ptr<MarkStage> mark_;
  runtime::PoolSet pools_;  // destroyed last
  runtime::WireLink tx_;
  runtime::WireLink rx_;    // fed by nothing: no ACK, NAK or CNP comes back
  std::unique_ptr<ethport::EthPort> port_;
  std::unique_ptr<ethport::EthBridge> bridge_;
  std::unique_ptr<host::Host> host_;
};

}  // namespace rtb::bench
