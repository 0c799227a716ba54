// Small stages around a switch under test: a host port that sends queued frames while
// honouring PFC it receives, records what arrives (parsed by the wire layer, IPv4
// checksum checked), and can storm PFC pauses; and a star topology that wires hosts to
// one switch with cables, routes and a virtual scheduler.
#pragma once

#include <rte_mbuf.h>

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "runtime/virtual_scheduler.h"
#include "runtime/wire_link.h"
#include "switch/switch.h"
#include "tests/runtime/test_pool.h"
#include "wire/flow_template.h"
#include "wire/int_trailer.h"
#include "wire/mbuf_frame.h"
#include "wire/parser.h"

namespace rtb::sw::testing {


struct PfcEvent {
  Time at;
  uint8_t priority;
  uint16_t quanta;
};

struct DataArrival {
  Time at;
  uint32_t length;
  wire::Ecn ecn;
  uint32_t src_ip, dst_ip;
  uint16_t sport;
  uint8_t dscp;
  uint32_t psn;
  std::vector<uint64_t> int_hops;  // HPCC INT records, when the frame carries a trailer
};

class Host final : public runtime::Stage {
 public:
  Host(std::string name, runtime::WireLink& out, runtime::WireLink& in)
      : Stage(std::move(name)), out_(out), in_(in) {}
  ~Host() override {
    for (const Queued& q : queue_) rte_pktmbuf_free(q.frame);
  }

  // Once the host runs under a scheduler, new work wakes it.
  void set_waker(runtime::Waker* waker) { waker_ = waker; }

  void enqueue(rte_mbuf* frame, uint8_t priority, Time not_before = Time::zero()) {
    queue_.push_back({frame, priority, not_before});
    wake(not_before);
  }
  // Sends an XOFF for `priority` with `quanta` every `interval` in [from, until).
  void storm(uint8_t priority, uint16_t quanta, Time interval, Time from, Time until) {
    storm_ = {priority, quanta, interval, until};
    next_storm_ = from;
    wake(from);
  }
  // One PFC frame at `at` (quanta 0 = XON).
  void pfc_at(Time at, uint8_t priority, uint16_t quanta) {
    scheduled_pfc_.push_back({at, priority, quanta});
    wake(at);
  }

  void poll(Time now) override {
    receive(now);
    send_pfc(now);
    send_data(now);
  }
  Time next_deadline() const override {
    Time t = std::min(in_.next_arrival(), next_storm_);
    if (!scheduled_pfc_.empty()) t = std::min(t, scheduled_pfc_.front().at);
    if (!queue_.empty()) {
      const Queued& h = queue_.front();
      t = std::min(t, std::max({out_.free_at(), h.not_before, out_.paused_until(h.priority)}));
    }
    return t;
  }

  const std::vector<PfcEvent>& pfc_received() const { return pfc_; }
  const std::vector<DataArrival>& arrivals() const { return arrivals_; }
  const std::vector<Time>& starts() const { return starts_; }
  uint64_t parse_failures() const { return parse_failures_; }
  size_t queued() const { return queue_.size(); }

 private:
  struct Queued {
    rte_mbuf* frame;
    uint8_t priority;
    Time not_before;
  };
  struct Storm {
    uint8_t priority;
    uint16_t quanta;
    Time interval, until;
  };

  void wake(Time at) {
    if (waker_ != nullptr) waker_->wake(id(), at);
  }
  void receive(Time now) {
    rte_mbuf* burst[32];
    uint32_t n;
    while ((n = in_.receive(now, burst, 32)) > 0) {
      for (uint32_t i = 0; i < n; ++i) {
        record(now, burst[i]);
        rte_pktmbuf_free(burst[i]);
      }
    }
  }
  void record(Time now, rte_mbuf* m) {
    wire::ParsedFrame f;
    const auto e = wire::parse_frame(rte_pktmbuf_mtod(m, const uint8_t*), rte_pktmbuf_data_len(m), {}, f);
    if (e != wire::ParseError::Ok) {
      ++parse_failures_;
      return;
    }
    if (f.cls == wire::FrameClass::Pfc) {
      for (uint8_t p = 0; p < 8; ++p) {
        if (((f.pfc_vector >> p) & 1u) == 0) continue;
        pfc_.push_back({now, p, f.pfc_quanta[p]});
        out_.apply_pause(p, f.pfc_quanta[p], now);
      }
      return;
    }
    arrivals_.push_back({now, rte_pktmbuf_pkt_len(m), f.ecn, f.src_ip, f.dst_ip, f.udp_sport, f.dscp, f.psn, {}});
    const auto* ip = rte_pktmbuf_mtod_offset(m, const uint8_t*, f.l3_offset);
    const uint32_t ip_len = wire::load_be16(ip + 2);
    if (const auto d = wire::read_int_descriptor(ip + ip_len, ip_len - 28)) {
      for (uint32_t i = 0; i < d->hops; ++i) arrivals_.back().int_hops.push_back(wire::int_hop_word(ip + ip_len, *d, i));
    }
  }
  void send_one_pfc(Time now, uint8_t priority, uint16_t quanta) {
    rte_mbuf* m = rte_pktmbuf_alloc(runtime::testing::test_pool());
    wire::PfcFields f;
    f.src = wire::MacAddr{{0x02, 0, 0, 0, 0, 0x99}};
    f.vector = static_cast<uint8_t>(1u << priority);
    f.quanta[priority] = quanta;
    wire::build_pfc_mbuf(f, m);
    out_.send_control(now, m);
  }
  void send_pfc(Time now) {
    while (!scheduled_pfc_.empty() && scheduled_pfc_.front().at <= now) {
      send_one_pfc(now, scheduled_pfc_.front().priority, scheduled_pfc_.front().quanta);
      scheduled_pfc_.pop_front();
    }
    if (next_storm_ > now) return;
    send_one_pfc(now, storm_.priority, storm_.quanta);
    next_storm_ = now + storm_.interval;
    if (next_storm_ >= storm_.until) next_storm_ = Time::never();
  }
  void send_data(Time now) {
    while (!queue_.empty() && out_.can_send(now) && queue_.front().not_before <= now &&
           out_.may_start(queue_.front().priority, now)) {
      starts_.push_back(now);
      out_.send(now, queue_.front().frame);
      queue_.pop_front();
    }
  }

  runtime::WireLink& out_;
  runtime::WireLink& in_;
  std::deque<Queued> queue_;
  std::deque<PfcEvent> scheduled_pfc_;
  Storm storm_{};
  Time next_storm_ = Time::never();
  std::vector<PfcEvent> pfc_;
  std::vector<DataArrival> arrivals_;
  std::vector<Time> starts_;
  uint64_t parse_failures_ = 0;
  runtime::Waker* waker_ = nullptr;
};

inline uint32_t host_ip(int i) { return 0x0A000001u + static_cast<uint32_t>(i); }  // 10.0.0.(i+1)

// A RoCEv2 frame (RC SEND Middle, `payload` bytes) from host `src` to host `dst`. The
// payload bytes are whatever the mbuf holds: the switch never reads them.
inline rte_mbuf* roce_frame(int src, int dst, uint32_t psn, uint32_t payload = 1024,
                            wire::Ecn ecn = wire::Ecn::Ect0, uint8_t dscp = 26, uint16_t sport = 0xC000,
                            uint16_t int_trailer_bytes = 0) {
  wire::FlowSpec spec;
  spec.src_ip = host_ip(src);
  spec.dst_ip = host_ip(dst);
  spec.src_qpn = 0x100u + static_cast<uint32_t>(src);
  spec.dst_qpn = 0x200u + static_cast<uint32_t>(dst);
  spec.dscp = dscp;
  spec.udp_sport = sport;
  spec.int_trailer_bytes = int_trailer_bytes;
  const auto t = wire::FlowTemplate::make(spec);
  rte_mbuf* m = rte_pktmbuf_alloc(runtime::testing::test_pool());
  wire::DataFields f;
  f.opcode = 0x01;  // RC SEND Middle
  f.psn = psn;
  f.payload_bytes = payload;
  f.ecn = ecn;
  auto* buf = static_cast<uint8_t*>(m->buf_addr);
  const wire::FrameSpan s = t->build_data(f, buf + wire::kMbufPayloadOffset);
  m->data_off = static_cast<uint16_t>(s.data - buf);
  m->data_len = static_cast<uint16_t>(s.len);
  m->pkt_len = s.len;
  return m;
}

// Hosts 0..n-1 on switch ports 0..n-1, one cable each (host->switch, switch->host), a
// /32 route per host; the scheduler runs hosts first, then the switch.
struct Star {
  // `control`: the switch's pool for PFC frames (default: the shared test pool).
  Star(int n, SwitchConfig config, Time propagation = Time::ns(100),
       runtime::MbufPool* control = &runtime::testing::test_control_pool()) {
    std::vector<PortLinks> links;
    for (int i = 0; i < n; ++i) {
      const Rate rate = config.ports[i].rate;
      const std::string name = config.ports[i].name;
      cables.push_back(std::make_unique<runtime::Cable>(
          runtime::WireLinkConfig{"h" + std::to_string(i) + "->" + name, rate, propagation, Bytes(9'216)},
          runtime::WireLinkConfig{name + "->h" + std::to_string(i), rate, propagation, Bytes(9'216)}));
      hosts.push_back(std::make_unique<Host>("h" + std::to_string(i), cables[i]->ab, cables[i]->ba));
      links.push_back({&cables[i]->ab, &cables[i]->ba});
      config.routes.push_back({host_ip(i), 32, {static_cast<uint16_t>(i)}});
      config.ports[i].propagation = propagation;
    }
    auto made = Switch::make(std::move(config), std::move(links), control, 7);
    if (!made.ok()) throw std::runtime_error(made.error().message);
    sw = std::move(made.value());
    for (auto& h : hosts) {
      scheduler.add(*h);
      h->set_waker(&scheduler);
    }
    scheduler.add(*sw);
    for (int i = 0; i < n; ++i) {
      cables[i]->ab.connect_receiver(&scheduler, sw->id());
      cables[i]->ba.connect_receiver(&scheduler, hosts[i]->id());
    }
  }
  Host& host(int i) { return *hosts[i]; }
  const PortCounters& port(int i, Time now) {
    snapshot = sw->counters(now);
    return snapshot.ports[i];
  }

  std::vector<std::unique_ptr<runtime::Cable>> cables;
  std::vector<std::unique_ptr<Host>> hosts;
  std::unique_ptr<Switch> sw;
  runtime::VirtualScheduler scheduler;
  SwitchCounters snapshot;
};

}  // namespace rtb::sw::testing
