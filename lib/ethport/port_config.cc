// Configuring and starting an EthPort: one rx and one tx queue, the MTU from the largest
// frame the device, the rx pool and rocetb all allow, promiscuous mode, hardware PFC.
#include <rte_ether.h>
#include <rte_mbuf.h>

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "ethport/eth_port.h"
#include "runtime/pool/mbuf_pool_meta.h"

namespace rtb::ethport {
namespace {

std::string errno_text(int rc) { return std::strerror(rc < 0 ? -rc : rc); }

// Largest frame without FCS: rocetb's limit, the device's (max_rx_pktlen counts the FCS),
// and one rx mbuf's data room (frames are never chained).
uint32_t largest_frame(const rte_eth_dev_info& info, const rte_mempool* pool) {
  const uint32_t room = rte_pktmbuf_data_room_size(const_cast<rte_mempool*>(pool));
  const uint32_t pool_frame = room > RTE_PKTMBUF_HEADROOM ? room - RTE_PKTMBUF_HEADROOM : 0;
  const uint32_t device_frame =
      info.max_rx_pktlen > RTE_ETHER_CRC_LEN ? info.max_rx_pktlen - RTE_ETHER_CRC_LEN : 0;
  uint32_t frame = std::min({kMaxFrameBytes, device_frame, pool_frame});
  // MTU = frame - Ethernet header (rte_eth_conf rxmode.mtu), within the device's range.
  if (frame > RTE_ETHER_HDR_LEN + uint32_t{info.max_mtu}) frame = RTE_ETHER_HDR_LEN + info.max_mtu;
  return frame;
}

}  // namespace

Status EthPort::configure(const PortSpec& spec, rte_mempool* rx_pool, uint16_t queues) {
  rte_eth_dev_info info{};
  if (int rc = rte_eth_dev_info_get(id_, &info); rc != 0) {
    return Error{fmt::format("device {}: rte_eth_dev_info_get failed ({})", name_,
                             errno_text(rc))};
  }
  if (info.max_rx_queues < queues || info.max_tx_queues < queues) {
    return Error{fmt::format("{} offers {} rx and {} tx queues; rocetb needs {} of each",
                             error_prefix(), info.max_rx_queues, info.max_tx_queues, queues)};
  }
  if (rte_pktmbuf_priv_size(rx_pool) < sizeof(runtime::FrameMeta)) {
    return Error{fmt::format("{}: rx pool '{}' has a {} B private area, too small for "
                             "FrameMeta ({} B); create it with runtime::MbufPool",
                             error_prefix(), rx_pool->name, rte_pktmbuf_priv_size(rx_pool),
                             sizeof(runtime::FrameMeta))};
  }
  max_frame_ = largest_frame(info, rx_pool);
  if (max_frame_ < RTE_ETHER_MIN_LEN - RTE_ETHER_CRC_LEN ||
      max_frame_ - RTE_ETHER_HDR_LEN < info.min_mtu) {
    return Error{fmt::format("{}: frames can be at most {} B (rx pool '{}' data room, device "
                             "max_rx_pktlen {}); give the pool a data room of at least "
                             "RTE_PKTMBUF_HEADROOM + 1514", error_prefix(), max_frame_,
                             rx_pool->name, info.max_rx_pktlen)};
  }
  rte_eth_conf conf{};
  conf.rxmode.mtu = max_frame_ - RTE_ETHER_HDR_LEN;
  if (int rc = rte_eth_dev_configure(id_, queues, queues, &conf); rc != 0) {
    return Error{fmt::format("{}: rte_eth_dev_configure ({} rx + {} tx queues, MTU {}) failed "
                             "({})", error_prefix(), queues, queues, conf.rxmode.mtu, errno_text(rc))};
  }
  return setup_queues(spec, rx_pool, queues);
}

Status EthPort::setup_queues(const PortSpec& spec, rte_mempool* rx_pool, uint16_t queues) {
  uint16_t rxd = spec.rx_descriptors;
  uint16_t txd = spec.tx_descriptors;
  if (int rc = rte_eth_dev_adjust_nb_rx_tx_desc(id_, &rxd, &txd); rc != 0) {
    return Error{fmt::format("{}: descriptor counts rx {} / tx {} are not usable ({}); see the "
                             "device's limits in its DPDK guide", error_prefix(),
                             spec.rx_descriptors, spec.tx_descriptors, errno_text(rc))};
  }
  if (kind_ == DeviceKind::kPci && rx_pool->size <= rxd) {
    return Error{fmt::format("{}: rx pool '{}' has {} mbufs but the NIC fills {} rx "
                             "descriptors at start; give the pool more mbufs than that",
                             error_prefix(), rx_pool->name, rx_pool->size, rxd)};
  }
  const int socket = rte_eth_dev_socket_id(id_);
  for (uint16_t q = 0; q < queues; ++q) {
    if (int rc = rte_eth_rx_queue_setup(id_, q, rxd, socket, nullptr, rx_pool); rc != 0) {
      return Error{fmt::format("{}: rx queue {} setup with {} descriptors and pool '{}' failed "
                               "({})", error_prefix(), q, rxd, rx_pool->name, errno_text(rc))};
    }
    if (int rc = rte_eth_tx_queue_setup(id_, q, txd, socket, nullptr); rc != 0) {
      return Error{fmt::format("{}: tx queue {} setup with {} descriptors failed ({})",
                               error_prefix(), q, txd, errno_text(rc))};
    }
  }
  return {};
}

Status EthPort::start(const PortSpec& spec) {
  if (int rc = rte_eth_dev_start(id_); rc != 0) {
    return Error{fmt::format("{}: rte_eth_dev_start failed ({}); for memif check the socket "
                             "path, for af_packet the interface", error_prefix(),
                             errno_text(rc))};
  }
  started_ = true;
  // Not every driver has a promiscuous mode (net_ring, memif): frames there are ours anyway.
  (void)rte_eth_promiscuous_enable(id_);
  return set_hardware_pfc(spec);
}

Status EthPort::set_hardware_pfc(const PortSpec& spec) {
  for (uint8_t priority : spec.hardware_pfc_priorities) {
    rte_eth_pfc_conf pfc{};
    pfc.fc.mode = RTE_ETH_FC_FULL;  // honour received PFC and send it (802.1Qbb)
    pfc.fc.high_water = spec.pfc_high_water;
    pfc.fc.low_water = spec.pfc_low_water;
    pfc.fc.pause_time = spec.pfc_pause_quanta;
    pfc.fc.send_xon = 1;
    pfc.priority = priority;
    const int rc = rte_eth_dev_priority_flow_ctrl_set(id_, &pfc);
    if (rc == -ENOTSUP || rc == -ENOSYS) {
      return Error{fmt::format(
          "{} has no hardware PFC; leave hardware_pfc_priorities empty (rocetb's switch and "
          "host stages send and honour PFC in software), or use a NIC whose DPDK driver "
          "implements rte_eth_dev_priority_flow_ctrl_set (e.g. ixgbe), or set PFC on the "
          "NIC outside DPDK (mlx5: mlnx_qos --pfc)", error_prefix())};
    }
    if (rc != 0) {
      return Error{fmt::format("{} refused PFC on priority {} ({}); check pfc_high_water {} "
                               "and pfc_low_water {} against the device's limits",
                               error_prefix(), priority, errno_text(rc), spec.pfc_high_water,
                               spec.pfc_low_water)};
    }
  }
  return {};
}

}  // namespace rtb::ethport
