// A DPDK ethdev port with one rx and one tx queue: the far end of a cable that leaves the
// lcore or the process in a realtime run (design.md "The pipeline", ethdev link).
//
// Public API:
//   PortSpec spec{.device = "net_pcap0,rx_pcap=in.pcap"};
//   auto port = EthPort::open(spec, pool.mempool());   // pool: an rtb runtime::MbufPool
//   if (!port) { print(port.error().message); return; }
//   uint16_t n = port.value()->rx(frames, 32);          // rte_eth_rx_burst, queue 0
//   uint16_t k = port.value()->tx(frames, n);           // rte_eth_tx_burst: k <= n taken
//   auto [a, b] = EthPort::ring_pair("lc0_lc1").value();  // two ends back to back
//
// open() creates the vdev (rte_vdev_init) or finds the probed PCI device, checks the
// device's limits, configures 1 rx + 1 tx queue, starts it, enables promiscuous mode
// where supported, reads the link and sets hardware PFC when asked. The destructor stops
// the port, frees the frames left in its rx queue, closes it and removes the vdev. The two
// ends of a ring pair are the two queue pairs of one net_ring port (each end's own queue
// and counters); the port closes when the second end goes.
//
// Frame size: the largest frame the port passes (max_frame()) is the smallest of 9216 B,
// the device's max_rx_pktlen and the rx pool's data room (frames are never chained); the
// MTU is set from it. Users check it against the scenario's largest frame.
#pragma once

#include <rte_ethdev.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/race_detector.h"
#include "ethport/port_spec.h"

struct rte_mempool;

namespace rtb::ethport {

struct RingPairRings;  // the two rings and placeholder pool a ring pair shares

class EthPort {
 public:
  // rx_pool must be an rtb MbufPool's mempool (its private area holds FrameMeta).
  static Expected<std::unique_ptr<EthPort>> open(const PortSpec& spec, rte_mempool* rx_pool);
  // Two ends joined back to back by two rte_rings of `ring_size` frames each: one net_ring
  // port (rte_eth_from_rings) whose queue 0 is end a and queue 1 end b, so that a pair takes
  // one of the process's port ids. What one end sends the other receives, in order. For
  // cables between lcores of one process. `name` (at most 16 characters, letters, digits,
  // '_') must be unique in the process.
  static Expected<std::pair<std::unique_ptr<EthPort>, std::unique_ptr<EthPort>>> ring_pair(
      const std::string& name, unsigned socket = 0, uint32_t ring_size = 1024);
  // Ports the process may still open: DPDK holds RTE_MAX_ETHPORTS (32 in Debian's build)
  // in all, and a ring pair takes one.
  static uint32_t free_port_ids();
  static uint32_t max_port_ids();  // RTE_MAX_ETHPORTS

  ~EthPort();
  EthPort(const EthPort&) = delete;
  EthPort& operator=(const EthPort&) = delete;

  uint16_t id() const { return id_; }
  uint16_t queue() const { return queue_; }  // its rx and tx queue: 0, or 1 for a ring pair's end b
  const std::string& name() const { return name_; }  // the vdev name or PCI address
  DeviceKind kind() const { return kind_; }
  std::string driver() const;                         // rte_eth_dev_info.driver_name
  uint32_t max_frame() const { return max_frame_; }   // bytes without FCS

  // A ring pair's frames cross between lcores inside DPDK: the two calls tell a race
  // detector so (core/race_detector.h; nothing in other builds).
  uint16_t rx(rte_mbuf** out, uint16_t max) {
    const uint16_t n = rte_eth_rx_burst(id_, queue_, out, max);
    if (n > 0) race_detector::acquire(rx_sync_);
    return n;
  }
  uint16_t tx(rte_mbuf** frames, uint16_t n) {
    race_detector::release(tx_sync_);
    return rte_eth_tx_burst(id_, queue_, frames, n);
  }

  bool link_up() const;  // rte_eth_link_get_nowait
  // rte_eth_stats: ipackets, opackets, ibytes, obytes, imissed, ierrors, oerrors,
  // rx_nombuf, plus the port's name, driver and link; a ring pair's end: its queue's.
  nlohmann::ordered_json stats_json() const;

 private:
  EthPort(std::string name, DeviceKind kind, std::string netns)
      : name_(std::move(name)), kind_(kind), netns_(std::move(netns)) {}
  static Expected<std::unique_ptr<EthPort>> attach(const PortSpec& spec,
                                                   const ParsedDevice& parsed);
  Status configure(const PortSpec& spec, rte_mempool* rx_pool, uint16_t queues = 1);
  Status setup_queues(const PortSpec& spec, rte_mempool* rx_pool, uint16_t queues);
  Status start(const PortSpec& spec);
  Status set_hardware_pfc(const PortSpec& spec);
  uint32_t free_rx_leftovers();
  std::string error_prefix() const;

  uint16_t id_ = RTE_MAX_ETHPORTS;
  uint16_t queue_ = 0;
  std::string name_;
  DeviceKind kind_;
  std::string netns_;            // where an af_packet interface lives (control ops enter it)
  bool owns_vdev_ = false;       // rte_vdev_uninit(name_) at the end
  bool started_ = false;
  bool endless_rx_ = false;      // rx never runs dry (net_null, infinite_rx): not drained
  uint32_t max_frame_ = 0;
  std::shared_ptr<RingPairRings> rings_;  // a ring pair's end: the port, closed by the last end
  void* tx_sync_ = nullptr;      // ring pairs: the ring this port sends on (race detector)
  void* rx_sync_ = nullptr;      // and the one it receives from
};

}  // namespace rtb::ethport
