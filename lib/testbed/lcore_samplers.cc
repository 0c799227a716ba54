#include "testbed/lcore_samplers.h"

#include <fmt/format.h>

#include <set>

#include <algorithm>

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

// The merger of this process's lcores: which parts a whole flow sample has here, which
// lcores send flow and queue samples (in owning_lcores order), the reorder window.
SampleMerger make_merger_for(const Testbed& t, SampleSink& out) {
  const scenario::Scenario& s = t.scenario();
  std::vector<uint8_t> parts_of_flow;
  for (const scenario::Flow& f : s.flows) {
    parts_of_flow.push_back(static_cast<uint8_t>((t.has_host(f.src) ? FlowSample::kSenderPart : 0) |
                                                 (t.has_host(f.dst) ? FlowSample::kReceiverPart : 0)));
  }
  std::vector<bool> flows_from, queues_from;
  uint64_t queues_per_tick = 0;
  for (unsigned lcore : owning_lcores(t)) {
    const SampleScope scope = SampleScope::on_lcore(t, lcore);
    bool flows = false, queues = false;
    for (const scenario::Flow& f : s.flows) flows = flows || scope.hosts[f.src] || scope.hosts[f.dst];
    for (uint32_t sw = 0; sw < scope.switches.size(); ++sw) {
      if (!scope.switches[sw] || s.flows.empty()) continue;
      queues = queues || !s.topology.switches[sw].port_links.empty();
      queues_per_tick += s.topology.switches[sw].port_links.size() * sw::kPriorities;
    }
    flows_from.push_back(flows);
    queues_from.push_back(queues);
  }
  const uint64_t lcores = flows_from.size();
  const uint64_t window = std::max(SampleMerger::window_samples(s.flows.size(), lcores),
                                   SampleMerger::window_samples(queues_per_tick, lcores));
  return SampleMerger(std::move(parts_of_flow), std::move(flows_from), std::move(queues_from), window, out);
}

}  // namespace

LcoreSamplers::LcoreSamplers(Testbed& t, Time interval, Time warmup, Time end, SeriesRecorder& out,
                             SampleSink& merged)
    : t_(t), out_(out), merger_(make_merger_for(t, merged)) {
  for (unsigned lcore : owning_lcores(t)) {
    auto l = std::make_unique<OnLcore>();
    l->index = lcores_.size();
    l->lcore = lcore;
    l->owner = this;
    l->channel = std::make_unique<SampleChannel>();
    l->sampler = std::make_unique<Sampler>(fmt::format("sampler{}", lcore), t, SampleScope::on_lcore(t, lcore),
                                           interval, warmup, end, *l->channel);
    lcores_.push_back(std::move(l));
  }
}

void LcoreSamplers::OnLcore::flow(const FlowSample& x) {
  ++flows;
  owner->merger_.add(index, x);
}

void LcoreSamplers::OnLcore::queue(const QueueSample& x) {
  ++queues;
  owner->merger_.add(index, x);
}

void LcoreSamplers::OnLcore::port_depth(const PortDepthSample& x) { owner->out_.port_depth(x); }

std::vector<Placed> LcoreSamplers::placements() const {
  std::vector<Placed> v;
  for (const auto& l : lcores_) v.push_back({l->sampler.get(), l->lcore});
  return v;
}

void LcoreSamplers::drain() {
  for (auto& l : lcores_) l->channel->drain(*l);
  merger_.release();
}

void LcoreSamplers::finish() {
  for (auto& l : lcores_) l->channel->drain(*l);
  merger_.finish();
}

uint64_t LcoreSamplers::lost() const {
  uint64_t n = 0;
  for (const auto& l : lcores_) n += l->channel->lost_flows() + l->channel->lost_queues() + l->channel->lost_depths();
  return n;
}

nlohmann::ordered_json LcoreSamplers::to_json() const {
  nlohmann::ordered_json lcores = nlohmann::ordered_json::array();
  for (const auto& l : lcores_) {
    lcores.push_back({{"lcore", l->lcore},
                      {"flow_samples", l->flows},
                      {"queue_samples", l->queues},
                      {"flow_samples_lost", l->channel->lost_flows()},
                      {"queue_samples_lost", l->channel->lost_queues()},
                      {"depth_samples_lost", l->channel->lost_depths()}});
  }
  return {{"incomplete_flow_samples", merger_.incomplete()},
          {"flow_samples_after_end", merger_.after_end()},
          {"late_samples", merger_.late()},
          {"forced_ticks", merger_.forced_ticks()},
          {"reorder_peak_samples", merger_.peak_pending()},
          {"lcores", std::move(lcores)}};
}

const Sampler* LcoreSamplers::owner_of_host(uint32_t h) const {
  const unsigned lcore = t_.scenario().realtime.lcore_of_host[h];
  for (const auto& l : lcores_) {
    if (l->lcore == lcore) return l->sampler.get();
  }
  return nullptr;
}

const Sampler* LcoreSamplers::owner_of_switch(uint32_t sw) const {
  const unsigned lcore = t_.scenario().realtime.lcore_of_switch[sw];
  for (const auto& l : lcores_) {
    if (l->lcore == lcore) return l->sampler.get();
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
  for (const auto& l : lcores_) b.fault_drops += l->sampler->own_baseline().fault_drops;
  return b;
}

uint64_t LcoreSamplers::buffer_peak(uint32_t sw) const {
  const Sampler* owner = t_.has_switch(sw) ? owner_of_switch(sw) : nullptr;
  return owner != nullptr ? owner->buffer_peak(sw) : 0;
}

DepthStats LcoreSamplers::port_depth(uint32_t sw, uint16_t port) const { return out_.depth().stats(sw, port); }

}  // namespace rtb::testbed
