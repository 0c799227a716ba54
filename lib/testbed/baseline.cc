#include "testbed/baseline.h"

#include "testbed/sampler.h"
#include "testbed/testbed.h"

namespace rtb::testbed {

Baseline Baseline::zero(const Testbed& t) {
  const scenario::Scenario& s = t.scenario();
  Baseline b;
  b.hosts.assign(s.topology.hosts.size(), {});
  b.senders.assign(s.flows.size(), {});
  b.sender_timeouts.assign(s.flows.size(), 0);
  b.received.assign(s.flows.size(), 0);
  b.switches.resize(s.topology.switches.size());
  for (size_t i = 0; i < b.switches.size(); ++i) {
    b.switches[i].ports.resize(s.topology.switches[i].port_links.size());
  }
  return b;
}

void Baseline::take(const Testbed& t, const SampleScope& scope, Time now) {
  const scenario::Scenario& s = t.scenario();
  for (uint32_t h = 0; h < hosts.size(); ++h) {
    if (scope.hosts[h]) hosts[h] = t.host(h).counters();
  }
  for (uint32_t f = 0; f < s.flows.size(); ++f) {
    const FlowQps& q = t.flow_qps(f);
    if (scope.hosts[s.flows[f].src]) {
      const host::QueuePair& qp = t.host(s.flows[f].src).qp(q.src_qp);
      senders[f] = qp.counters;
      sender_timeouts[f] = qp.requester.counters().timeouts;
    }
    if (scope.hosts[s.flows[f].dst]) {
      received[f] = t.host(s.flows[f].dst).qp(q.dst_qp).counters.payload_bytes_received;
    }
  }
  for (uint32_t w = 0; w < switches.size(); ++w) {
    if (scope.switches[w]) switches[w] = t.switch_at(w).counters(now);
  }
  const SampleScope every = SampleScope::all(t);
  if (scope.hosts == every.hosts && scope.switches == every.switches) fault_drops = t.fault_drops();
}

}  // namespace rtb::testbed
