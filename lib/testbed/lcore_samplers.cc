#include "testbed/lcore_samplers.h"

#include <fmt/format.h>

#include <set>

#include "testbed/run.h"
#include "testbed/sample_merge.h"

namespace rtb::testbed {
namespace {

// The lcores that hold a host or a switch of this process, in order.
std::set<unsigned> owning_lcores(const Testbed& t) {
  const scenario::Scenario& s = t.scenario();
  std::set<unsigned> lcores;
  for (uint32_t h = 0; h < s.topology.hosts.size(); ++h) {
    if (t.has_host(h)) lcores.insert(s.realtime.lcore_of_host[h]);
  }
  for (uint32_t sw = 0; sw < s.topology.switches.size(); ++sw) {
    if (t.has_switch(sw)) lcores.insert(s.realtime.lcore_of_switch[sw]);
  }
  return lcores;
}

}  // namespace

LcoreSamplers::LcoreSamplers(Testbed& t, Time interval, Time warmup, Time end) : t_(t) {
  for (unsigned lcore : owning_lcores(t)) {
    OnLcore l{lcore, std::make_unique<SampleChannel>(), nullptr, {}, {}};
    l.sampler = std::make_unique<Sampler>(fmt::format("sampler{}", lcore), t,
                                          SampleScope::on_lcore(t, lcore), interval, warmup, end,
                                          *l.channel);
    lcores_.push_back(std::move(l));
  }
}

std::vector<Placed> LcoreSamplers::placements() const {
  std::vector<Placed> v;
  for (const OnLcore& l : lcores_) v.push_back({l.sampler.get(), l.lcore});
  return v;
}

void LcoreSamplers::drain() {
  for (OnLcore& l : lcores_) l.channel->drain(l.flows, l.queues);
}

void LcoreSamplers::finish(RunReport& r) {
  const scenario::Scenario& s = t_.scenario();
  std::vector<uint8_t> parts_of_flow;
  for (const scenario::Flow& f : s.flows) {
    parts_of_flow.push_back(static_cast<uint8_t>((t_.has_host(f.src) ? FlowSample::kSenderPart : 0) |
                                                 (t_.has_host(f.dst) ? FlowSample::kReceiverPart : 0)));
  }
  std::vector<std::vector<FlowSample>> flows;
  std::vector<std::vector<QueueSample>> queues;
  for (const OnLcore& l : lcores_) {
    flows.push_back(l.flows);
    queues.push_back(l.queues);
  }
  MergedFlowSamples merged = merge_flow_samples(flows, parts_of_flow);
  r.flow_samples = std::move(merged.samples);
  incomplete_ = merged.incomplete;
  after_end_ = merged.after_end;
  r.queue_samples = merge_queue_samples(queues);
}

uint64_t LcoreSamplers::lost() const {
  uint64_t n = 0;
  for (const OnLcore& l : lcores_) n += l.channel->lost_flows() + l.channel->lost_queues();
  return n;
}

nlohmann::ordered_json LcoreSamplers::to_json() const {
  nlohmann::ordered_json lcores = nlohmann::ordered_json::array();
  for (const OnLcore& l : lcores_) {
    lcores.push_back({{"lcore", l.lcore},
                      {"flow_samples", l.flows.size()},
                      {"queue_samples", l.queues.size()},
                      {"flow_samples_lost", l.channel->lost_flows()},
                      {"queue_samples_lost", l.channel->lost_queues()}});
  }
  return {{"incomplete_flow_samples", incomplete_},
          {"flow_samples_after_end", after_end_},
          {"lcores", std::move(lcores)}};
}

const Sampler* LcoreSamplers::owner_of_host(uint32_t h) const {
  const unsigned lcore = t_.scenario().realtime.lcore_of_host[h];
  for (const OnLcore& l : lcores_) {
    if (l.lcore == lcore) return l.sampler.get();
  }
  return nullptr;
}

const Sampler* LcoreSamplers::owner_of_switch(uint32_t sw) const {
  const unsigned lcore = t_.scenario().realtime.lcore_of_switch[sw];
  for (const OnLcore& l : lcores_) {
    if (l.lcore == lcore) return l.sampler.get();
  }
  return nullptr;
}

Baseline LcoreSamplers::baseline() const {
  const scenario::Scenario& s = t_.scenario();
  Baseline b = Baseline::zero(t_);
  const auto owner = [&](uint32_t h) { return t_.has_host(h) ? owner_of_host(h) : nullptr; };
  for (uint32_t h = 0; h < b.hosts.size(); ++h) {
    if (const Sampler* o = owner(h)) b.hosts[h] = o->own_baseline().hosts[h];
  }
  for (uint32_t f = 0; f < s.flows.size(); ++f) {
    if (const Sampler* o = owner(s.flows[f].src)) {
      b.senders[f] = o->own_baseline().senders[f];
      b.sender_timeouts[f] = o->own_baseline().sender_timeouts[f];
    }
    if (const Sampler* o = owner(s.flows[f].dst)) b.received[f] = o->own_baseline().received[f];
  }
  for (uint32_t w = 0; w < b.switches.size(); ++w) {
    const Sampler* o = t_.has_switch(w) ? owner_of_switch(w) : nullptr;
    if (o != nullptr) b.switches[w] = o->own_baseline().switches[w];
  }
  for (const OnLcore& l : lcores_) b.fault_drops += l.sampler->own_baseline().fault_drops;
  return b;
}

uint64_t LcoreSamplers::buffer_peak(uint32_t sw) const {
  const Sampler* owner = t_.has_switch(sw) ? owner_of_switch(sw) : nullptr;
  return owner != nullptr ? owner->buffer_peak(sw) : 0;
}

DepthStats LcoreSamplers::port_depth(uint32_t sw, uint16_t port) const {
  const Sampler* owner = t_.has_switch(sw) ? owner_of_switch(sw) : nullptr;
  return owner != nullptr ? owner->port_depth(sw, port) : DepthStats{};
}

std::vector<std::string> LcoreSamplers::cc_state_names() const {
  return lcores_.empty() ? std::vector<std::string>{} : lcores_.front().sampler->cc_state_names();
}

}  // namespace rtb::testbed
