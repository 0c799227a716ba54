#include "scenario/host_settings.h"

#include <fmt/format.h>

#include "core/rng.h"
#include "scenario/streams.h"
#include "wire/frame_size.h"

namespace rtb::scenario {
namespace {

void read_requester(Table& t, host::RequesterConfig& r, bool tagged, uint32_t port_mtu) {
  if (const auto mtu = t.opt_integer("path_mtu", 256, 4'096)) {
    if (!wire::path_mtu_valid(static_cast<uint32_t>(*mtu))) {
      t.fail_value("path_mtu", "is not an IBTA path MTU: expected 256, 512, 1024, 2048 or 4096");
    }
    r.path_mtu = static_cast<uint32_t>(*mtu);
  }
  const uint32_t frame = wire::roce_frame_length(tagged, 16 + 4, r.path_mtu);
  if (frame > port_mtu) {
    t.fail("path_mtu", fmt::format("{} makes frames of up to {} B (headers, RETH, ImmDt, ICRC{}), larger than "
                                   "the port MTU topology.mtu = {} B: expected a smaller path MTU or a larger MTU",
                                   r.path_mtu, frame, tagged ? ", VLAN tag" : "", port_mtu));
  }
  r.verb = t.choice("verb", {"write", "send"}, "write") == "send" ? host::Verb::kSend : host::Verb::kWrite;
  r.ack_req_every = static_cast<uint32_t>(t.integer("ack_req_every", 1, 65'535, r.ack_req_every));
  r.local_ack_timeout = static_cast<uint8_t>(t.integer("local_ack_timeout", 1, 31, r.local_ack_timeout));
  r.retry_cnt = static_cast<uint8_t>(t.integer("retry_cnt", 0, 7, r.retry_cnt));
}

}  // namespace

uint8_t read_traffic_class(Table& t, uint8_t def) {
  const auto dscp = t.opt_integer("dscp", 0, 63);
  const auto tc = t.opt_integer("nccl_ib_tc", 0, 255);
  if (dscp && tc) {
    t.fail("nccl_ib_tc", fmt::format("{} and {} are both given: expected one of them (nccl_ib_tc {} is DSCP {})",
                                     t.key_path("dscp"), t.key_path("nccl_ib_tc"), *tc, *tc >> 2));
  }
  if (tc && (*tc & 3) != 0) {
    t.fail_value("nccl_ib_tc", fmt::format("sets the ECN bits of the ToS byte ({} & 3 = {}): expected a multiple of "
                                           "4, DSCP x 4 (such as 104 for DSCP 26); the NIC sets ECN itself",
                                           *tc, *tc & 3));
  }
  if (tc) return static_cast<uint8_t>(*tc >> 2);
  return dscp ? static_cast<uint8_t>(*dscp) : def;
}

HostSettings read_host_settings(std::optional<Table> t, uint32_t port_mtu) {
  HostSettings s;
  if (!t) return s;
  s.vlan_tagged = t->boolean("vlan_tagged", s.vlan_tagged);
  read_requester(*t, s.requester, s.vlan_tagged, port_mtu);
  s.timings.ack_turnaround = t->time("ack_turnaround", s.timings.ack_turnaround);
  s.timings.cnp_generation_delay = t->time("cnp_generation_delay", s.timings.cnp_generation_delay);
  s.timings.reaction_delay = t->time("reaction_delay", s.timings.reaction_delay);
  s.policy = t->choice("priority_policy", {"strict", "dwrr"}, "strict") == "dwrr" ? host::PriorityPolicy::kDwrr
                                                                                  : host::PriorityPolicy::kStrict;
  s.dwrr_quantum = t->bytes("dwrr_quantum", s.dwrr_quantum);
  if (s.dwrr_quantum.count() < 64 || s.dwrr_quantum.count() > 1'000'000) {
    t->fail_value("dwrr_quantum", "is out of range: expected 64B..1MB");
  }
  s.check_icrc = t->boolean("check_icrc", s.check_icrc);
  s.pacer_slot = t->time("pacer_slot", s.pacer_slot);
  if (s.pacer_slot < Time::ps(1) || s.pacer_slot > Time::us(10)) {
    t->fail_value("pacer_slot", "is out of range: expected 1ps..10us");
  }
  s.first_qpn = static_cast<uint32_t>(t->integer("first_qpn", 1, 0xFF'0000, s.first_qpn));
  s.dscp = read_traffic_class(*t, s.dscp);
  t->finish();
  return s;
}

void apply_host_settings(Topology& topo, const HostSettings& s, uint64_t seed) {
  for (uint32_t i = 0; i < topo.hosts.size(); ++i) {
    HostNode& h = topo.hosts[i];
    h.config.name = h.name;
    h.config.ports.assign(1, host::PortConfig{});
    host::PortConfig& port = h.config.ports[0];
    port.mac = h.mac;
    port.ip = h.ip;
    port.policy = s.policy;
    port.dwrr_quantum_bytes.fill(static_cast<uint32_t>(s.dwrr_quantum.count()));
    h.config.timings = s.timings;
    h.config.first_qpn = s.first_qpn;
    h.config.check_icrc = s.check_icrc;
    h.config.pacer_slot = s.pacer_slot;
    h.config.seed = Rng(seed, kStreamHost + i).next_u64();
    h.requester = s.requester;
    h.vlan_tagged = s.vlan_tagged;
  }
}

}  // namespace rtb::scenario
