// EthPort's life: find or create the device, tear it down, read its state. Configuring
// and starting it is in port_config.cc, ring pairs in ring_pair.cc.
#include "ethport/eth_port.h"

#include <rte_bus_vdev.h>
#include <rte_dev.h>
#include <rte_errno.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>

#include <fmt/format.h>

#include "ethport/device_checks.h"
#include "ethport/netns_guard.h"
#include "ethport/ring_pair_rings.h"
#include "runtime/pool/eal.h"

namespace rtb::ethport {
namespace {

// The frames a port may still hold in its rx queue at the end are bounded by its ring;
// this bound only stops a driver that would keep producing.
constexpr uint32_t kMaxLeftoverFrames = 1u << 20;

constexpr auto kMemifDisconnectSettle = std::chrono::milliseconds(100);

bool eal_has_pci() {
  const auto& args = runtime::eal_arguments_used();
  return std::find(args.begin(), args.end(), "--no-pci") == args.end();
}

// A driver whose rx never runs dry: net_null generates frames, pcap with infinite_rx
// replays forever. Its leftovers are not drained (the driver frees its own at close).
bool endless_rx(const ParsedDevice& p) {
  return p.kind == DeviceKind::kNull ||
         (p.kind == DeviceKind::kPcap && p.arg("infinite_rx") == "1");
}

Expected<uint16_t> port_by_name(const std::string& name, const std::string& device) {
  uint16_t id = RTE_MAX_ETHPORTS;
  if (rte_eth_dev_get_port_by_name(name.c_str(), &id) != 0) {
    return Error{fmt::format("device '{}': the driver created no ethdev port named '{}'; "
                             "check the device string", device, name)};
  }
  return id;
}

Expected<uint16_t> find_pci_port(const ParsedDevice& p, const std::string& device) {
  if (!eal_has_pci()) {
    return Error{fmt::format("device '{}' is a PCI device but the EAL was started with "
                             "--no-pci; set EalOptions::pci = true and list the device in "
                             "EalOptions::pci_allow", device)};
  }
  uint16_t id = RTE_MAX_ETHPORTS;
  if (rte_eth_dev_get_port_by_name(p.name.c_str(), &id) == 0) return id;
  // Not probed at EAL start (not in the allow-list): try to probe it now.
  if (rte_dev_probe(p.name.c_str()) == 0 &&
      rte_eth_dev_get_port_by_name(p.name.c_str(), &id) == 0) {
    return id;
  }
  return Error{fmt::format("device '{}': no DPDK driver took PCI device {}; bind it to "
                           "vfio-pci (dpdk-devbind.py --bind=vfio-pci {}; mlx5 NICs stay on "
                           "mlx5_core) and list it in EalOptions::pci_allow", device, p.name,
                           p.name)};
}

Status create_vdev(const ParsedDevice& p, const std::string& device) {
  const std::string args = p.args_string();
  const int rc = rte_vdev_init(p.name.c_str(), args.c_str());
  if (rc == -EEXIST) {
    return Error{fmt::format("device '{}': a device named '{}' already exists in this "
                             "process; give each port its own name (net_null0, net_null1, "
                             "...)", device, p.name)};
  }
  if (rc != 0) {
    return Error{fmt::format("device '{}': the {} driver refused it (rte_vdev_init: {}); "
                             "check its arguments, and run with EAL log level debug for "
                             "the driver's reason", device, kind_name(p.kind),
                             std::strerror(rc < 0 ? -rc : rc))};
  }
  return {};
}

}  // namespace

Expected<std::unique_ptr<EthPort>> EthPort::open(const PortSpec& spec, rte_mempool* rx_pool) {
  if (Status s = check_spec(spec); !s) return Error{s.message()};
  auto parsed = parse_device(spec.device);
  if (!parsed) return parsed.error();
  if (!runtime::eal_running()) {
    return Error{fmt::format("device '{}': the DPDK EAL is not running; call "
                             "runtime::start_eal() first", spec.device)};
  }
  if (rx_pool == nullptr) {
    return Error{fmt::format("device '{}': no rx mbuf pool was given; pass an rtb "
                             "MbufPool's mempool()", spec.device)};
  }
  if (Status s = check_device_resources(parsed.value(), spec.device, spec.netns); !s) {
    return Error{s.message()};
  }
  auto port = attach(spec, parsed.value());
  if (!port) return port;
  port.value()->endless_rx_ = endless_rx(parsed.value());
  auto guard = NetnsGuard::enter(port.value()->netns_);
  if (!guard) return guard.error();
  if (Status s = port.value()->configure(spec, rx_pool); !s) return Error{s.message()};
  if (Status s = port.value()->start(spec); !s) return Error{s.message()};
  return port;
}

Expected<std::unique_ptr<EthPort>> EthPort::attach(const PortSpec& spec,
                                                   const ParsedDevice& parsed) {
  const std::string netns = parsed.kind == DeviceKind::kAfPacket ? spec.netns : "";
  std::unique_ptr<EthPort> port(new EthPort(parsed.name, parsed.kind, netns));
  if (parsed.kind == DeviceKind::kPci) {
    auto id = find_pci_port(parsed, spec.device);
    if (!id) return id.error();
    port->id_ = id.value();
    return port;
  }
  {
    auto guard = NetnsGuard::enter(netns);
    if (!guard) return guard.error();
    if (Status s = create_vdev(parsed, spec.device); !s) return Error{s.message()};
  }
  port->owns_vdev_ = true;
  auto id = port_by_name(parsed.name, spec.device);
  if (!id) return id.error();  // the destructor removes the vdev
  port->id_ = id.value();
  return port;
}

EthPort::~EthPort() {
  auto guard = NetnsGuard::enter(netns_);  // af_packet: its ioctls name the interface
  if (kind_ == DeviceKind::kMemif && id_ != RTE_MAX_ETHPORTS && !link_up()) {
    // The peer disconnected: memif's interrupt thread marks the link down first and then
    // tears the connection down; closing the port meanwhile races with it (seen as "EAL:
    // Error: Invalid memory" and a hung close in DPDK 22.11). Let it finish.
    std::this_thread::sleep_for(kMemifDisconnectSettle);
  }
  if (id_ != RTE_MAX_ETHPORTS && rings_ == nullptr) {  // a ring pair's port goes with rings_
    if (started_) {
      free_rx_leftovers();
      rte_eth_dev_stop(id_);
    }
    rte_eth_dev_close(id_);
  }
  if (owns_vdev_) rte_vdev_uninit(name_.c_str());
  // rings_ (a ring pair's end): the last end closes the shared port, then frees the rings.
}

uint32_t EthPort::free_rx_leftovers() {
  if (endless_rx_) return 0;
  uint32_t freed = 0;
  rte_mbuf* burst[32];
  while (freed < kMaxLeftoverFrames) {
    const uint16_t n = rx(burst, 32);
    if (n == 0) break;
    rte_pktmbuf_free_bulk(burst, n);
    freed += n;
  }
  return freed;
}

std::string EthPort::driver() const {
  rte_eth_dev_info info{};
  if (rte_eth_dev_info_get(id_, &info) != 0 || info.driver_name == nullptr) return "unknown";
  return info.driver_name;
}

std::string EthPort::error_prefix() const {
  return fmt::format("device {} (driver {})", name_, driver());
}

bool EthPort::link_up() const {
  rte_eth_link link{};
  return rte_eth_link_get_nowait(id_, &link) == 0 && link.link_status == RTE_ETH_LINK_UP;
}

nlohmann::ordered_json EthPort::stats_json() const {
  rte_eth_stats st{};
  rte_eth_stats_get(id_, &st);
  if (rings_ != nullptr) {  // a ring pair's end: its own queue of the shared port
    st.ipackets = st.q_ipackets[queue_];
    st.opackets = st.q_opackets[queue_];
    st.ibytes = st.q_ibytes[queue_];
    st.obytes = st.q_obytes[queue_];
    st.oerrors = st.q_errors[queue_];
  }
  return {{"port", name_},         {"driver", driver()},    {"link_up", link_up()},
          {"ipackets", st.ipackets}, {"opackets", st.opackets}, {"ibytes", st.ibytes},
          {"obytes", st.obytes},     {"imissed", st.imissed},   {"ierrors", st.ierrors},
          {"oerrors", st.oerrors},   {"rx_nombuf", st.rx_nombuf}};
}

}  // namespace rtb::ethport
