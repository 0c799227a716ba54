#include "testbed/sampler.h"

#include <algorithm>

#include "scenario/series_size.h"

namespace rtb::testbed {

SampleScope SampleScope::all(const Testbed& t) {
  const scenario::Scenario& s = t.scenario();
  SampleScope scope;
  for (uint32_t h = 0; h < s.topology.hosts.size(); ++h) scope.hosts.push_back(t.has_host(h));
  for (uint32_t w = 0; w < s.topology.switches.size(); ++w) scope.switches.push_back(t.has_switch(w));
  return scope;
}

SampleScope SampleScope::on_lcore(const Testbed& t, unsigned lcore) {
  const scenario::RealtimeConfig& r = t.scenario().realtime;
  SampleScope scope = all(t);
  for (uint32_t h = 0; h < scope.hosts.size(); ++h) {
    scope.hosts[h] = scope.hosts[h] && r.lcore_of_host[h] == lcore;
  }
  for (uint32_t w = 0; w < scope.switches.size(); ++w) {
    scope.switches[w] = scope.switches[w] && r.lcore_of_switch[w] == lcore;
  }
  return scope;
}

bool SampleScope::empty() const {
  return std::find(hosts.begin(), hosts.end(), true) == hosts.end() &&
         std::find(switches.begin(), switches.end(), true) == switches.end();
}

Sampler::Sampler(Testbed& testbed, Time interval, Time warmup, Time end, SampleSink& sink)
    : Sampler("sampler", testbed, SampleScope::all(testbed), interval, warmup, end, sink) {}

Sampler::Sampler(std::string name, Testbed& testbed, SampleScope scope, Time interval, Time warmup,
                 Time end, SampleSink& sink)
    : Stage(std::move(name)), t_(testbed), scope_(std::move(scope)), sink_(sink),
      interval_(interval), warmup_(warmup), end_(end), next_(interval) {
  const scenario::Scenario& s = t_.scenario();
  priorities_ = scenario::sampled_priorities(s);
  last_bytes_.assign(s.flows.size(), 0);
  baseline_ = Baseline::zero(t_);
  buffer_peak_.assign(s.topology.switches.size(), 0);
  warmup_taken_ = warmup_ == Time::zero();
}

void Sampler::poll(Time now) {
  if (now < next_) return;
  if (!warmup_taken_ && now >= warmup_) take_warmup(now);
  ++tick_;
  sample_flows(now);
  sample_queues(now);
  next_ = next_ + interval_;
  if (next_ > end_) next_ = Time::never();
}

void Sampler::take_warmup(Time now) {
  baseline_.take(t_, scope_, now);
  warmup_taken_ = true;
}

// A flow is sampled by each scope for the end it has: the sender's rate and state, the
// receiver's bytes. Both ends in one scope give one whole sample; ends on two lcores, or
// in two processes (`rocetb merge` joins those), give a part each.
void Sampler::sample_flows(Time now) {
  const scenario::Scenario& s = t_.scenario();
  for (uint32_t f = 0; f < s.flows.size(); ++f) {
    const FlowQps& q = t_.flow_qps(f);
    const bool has_src = scope_.hosts[s.flows[f].src], has_dst = scope_.hosts[s.flows[f].dst];
    if (!has_src && !has_dst) continue;
    FlowSample x;
    x.at = now;
    x.tick = tick_;
    x.flow = f;
    if (has_dst) {
      const uint64_t bytes = t_.host(s.flows[f].dst).qp(q.dst_qp).counters.payload_bytes_received;
      x.throughput_gbps = static_cast<double>(bytes - last_bytes_[f]) * 8.0 / interval_.s_f() / 1e9;
      x.bytes_received = bytes;
      last_bytes_[f] = bytes;
      x.parts |= FlowSample::kReceiverPart;
    }
    if (has_src) {
      const host::Host& src = t_.host(s.flows[f].src);
      const host::QueuePair& qp = src.qp(q.src_qp);
      x.cc_rate = qp.rate;
      x.cnp_handled = qp.counters.cnp_handled;
      const cc::Controller::StateView v = src.controller().describe_state(src.cc_state(q.src_qp), now);
      x.cc_state_count = static_cast<uint32_t>(v.count);
      for (size_t i = 0; i < v.count; ++i) x.cc_state[i] = v.fields[i].value;
      x.parts |= FlowSample::kSenderPart;
    }
    sink_.flow(x);
  }
}

void Sampler::sample_queues(Time now) {
  const scenario::Scenario& s = t_.scenario();
  for (uint32_t sw = 0; sw < s.topology.switches.size(); ++sw) {
    if (!scope_.switches[sw]) continue;
    const sw::Switch& the_switch = t_.switch_at(sw);
    const size_t ports = s.topology.switches[sw].port_links.size();
    for (uint16_t port = 0; port < ports; ++port) {
      uint64_t total = 0;
      for (uint8_t q = 0; q < sw::kPriorities; ++q) {
        const sw::QueueGauge g = the_switch.queue_gauge(port, q);
        total += g.depth_bytes;
        if (((priorities_ >> q) & 1u) == 0) continue;
        sink_.queue(QueueSample{now, tick_, sw, port, q, g.depth_bytes, g.ecn_marked_packets, g.dropped_packets,
                                !t_.switch_tx(sw, port).may_start(q, now), g.pfc_tx});
      }
      if (now >= warmup_) sink_.port_depth(PortDepthSample{tick_, sw, port, total});
    }
    if (now >= warmup_) buffer_peak_[sw] = std::max(buffer_peak_[sw], the_switch.pool_used_bytes());
  }
}

std::vector<std::string> cc_state_names(const Testbed& t) {
  std::vector<std::string> names;
  const scenario::Scenario& s = t.scenario();
  uint32_t f = 0;
  while (f < s.flows.size() && !t.has_host(s.flows[f].src)) ++f;
  if (f == s.flows.size()) return names;
  const host::Host& h = t.host(s.flows[f].src);
  const auto v = h.controller().describe_state(h.cc_state(t.flow_qps(f).src_qp), Time::zero());
  for (size_t i = 0; i < v.count; ++i) names.emplace_back(v.fields[i].name);
  return names;
}

}  // namespace rtb::testbed
