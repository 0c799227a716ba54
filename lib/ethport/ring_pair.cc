// EthPort::ring_pair: two ends back to back over two rte_rings, as one net_ring port
// (rte_eth_from_rings, drivers/net/ring) with a queue pair per end: end a (queue 0) sends
// into a_to_b, which end b (queue 1) receives from, and the other way round. The rings are
// single-producer single-consumer: each end is polled by one lcore (design.md "The pipeline").
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_bus_vdev.h>
#include <rte_errno.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "ethport/eth_port.h"
#include "ethport/ring_pair_rings.h"
#include "runtime/pool/eal.h"

namespace rtb::ethport {
namespace {

constexpr size_t kMaxNameChars = 16;  // "net_ring_<name>_a" fits DPDK's 32-byte names

void free_ring(rte_ring* r) {
  if (r == nullptr) return;
  void* frame = nullptr;
  while (rte_ring_dequeue(r, &frame) == 0) rte_pktmbuf_free(static_cast<rte_mbuf*>(frame));
  rte_ring_free(r);
}

Status check_name(const std::string& name, uint32_t ring_size) {
  const bool chars_ok = std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
  });
  if (name.empty() || name.size() > kMaxNameChars || !chars_ok) {
    return Error{fmt::format("ring pair name '{}' must be 1 to {} letters, digits or '_'",
                             name, kMaxNameChars)};
  }
  if (ring_size < 2 || !rte_is_power_of_2(ring_size)) {
    return Error{fmt::format("ring pair '{}': ring size {} must be a power of two of at "
                             "least 2 (it holds ring_size - 1 frames)", name, ring_size)};
  }
  if (!runtime::eal_running()) {
    return Error{fmt::format("ring pair '{}': the DPDK EAL is not running; call "
                             "runtime::start_eal() first", name)};
  }
  return {};
}

Expected<std::shared_ptr<RingPairRings>> make_rings(const std::string& name, unsigned socket,
                                                    uint32_t ring_size) {
  auto rings = std::make_shared<RingPairRings>();
  const unsigned flags = RING_F_SP_ENQ | RING_F_SC_DEQ;
  rings->a_to_b = rte_ring_create(("rtb_" + name + "_ab").c_str(), ring_size,
                                  static_cast<int>(socket), flags);
  rings->b_to_a = rte_ring_create(("rtb_" + name + "_ba").c_str(), ring_size,
                                  static_cast<int>(socket), flags);
  // One mbuf: ethdev requires an rx pool; the ring driver never takes from it.
  auto pool = runtime::MbufPool::create({.name = "rtb_" + name + "_rx", .count = 1,
                                         .data_room = RTE_PKTMBUF_HEADROOM + kMaxFrameBytes,
                                         .socket = static_cast<int>(socket)});
  if (!pool) return Error{fmt::format("ring pair '{}': {}", name, pool.error().message)};
  rings->placeholder_pool.emplace(std::move(pool).value());
  if (rings->a_to_b == nullptr || rings->b_to_a == nullptr) {
    return Error{fmt::format("ring pair '{}': cannot create its rings of {} frames ({}); "
                             "the name may be in use already, or the EAL is short of memory",
                             name, ring_size, rte_strerror(rte_errno))};
  }
  return rings;
}

}  // namespace

RingPairRings::~RingPairRings() {
  if (port != RTE_MAX_ETHPORTS) {
    if (started) rte_eth_dev_stop(port);
    rte_eth_dev_close(port);
    rte_vdev_uninit(vdev.c_str());
  }
  free_ring(a_to_b);
  free_ring(b_to_a);
}

uint32_t EthPort::max_port_ids() { return RTE_MAX_ETHPORTS; }

uint32_t EthPort::free_port_ids() {
  const uint32_t used = rte_eth_dev_count_total();
  return used < max_port_ids() ? max_port_ids() - used : 0;
}

Expected<std::pair<std::unique_ptr<EthPort>, std::unique_ptr<EthPort>>> EthPort::ring_pair(
    const std::string& name, unsigned socket, uint32_t ring_size) {
  if (Status s = check_name(name, ring_size); !s) return Error{s.message()};
  auto rings = make_rings(name, socket, ring_size);
  if (!rings) return rings.error();
  auto shared = rings.value();
  // Queue i is end i: end a sends on a_to_b and receives on b_to_a, end b the other way.
  rte_ring* rx_of[2] = {shared->b_to_a, shared->a_to_b};
  rte_ring* tx_of[2] = {shared->a_to_b, shared->b_to_a};
  const std::string vdev = "net_ring_" + name;
  const int id = rte_eth_from_rings(name.c_str(), rx_of, 2, tx_of, 2, socket);
  if (id < 0) {
    return Error{fmt::format("ring pair '{}': rte_eth_from_rings failed ({}); the name may be in "
                             "use already, or all {} port ids are taken", name, rte_strerror(rte_errno),
                             max_port_ids())};
  }
  shared->port = static_cast<uint16_t>(id);
  shared->vdev = vdev;  // from here the rings' owner closes the port
  std::unique_ptr<EthPort> ends[2];
  for (uint16_t i = 0; i < 2; ++i) {
    ends[i].reset(new EthPort(vdev + (i == 0 ? ":a" : ":b"), DeviceKind::kRing, ""));
    ends[i]->id_ = shared->port;
    ends[i]->queue_ = i;
    ends[i]->rings_ = shared;
    ends[i]->tx_sync_ = tx_of[i];
    ends[i]->rx_sync_ = rx_of[i];
  }
  PortSpec spec{.device = vdev, .rx_descriptors = 64, .tx_descriptors = 64};
  if (Status s = ends[0]->configure(spec, shared->placeholder_pool->mempool(), 2); !s) return Error{s.message()};
  if (Status s = ends[0]->start(spec); !s) return Error{s.message()};
  shared->started = true;
  ends[1]->max_frame_ = ends[0]->max_frame_;
  return std::make_pair(std::move(ends[0]), std::move(ends[1]));
}

}  // namespace rtb::ethport
