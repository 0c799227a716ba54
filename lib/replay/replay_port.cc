#include "replay/replay_port.h"

#include <rte_mbuf.h>

#include <algorithm>
#include <cstring>

#include "runtime/wire_link.h"
#include "switch/classify.h"

namespace rtb::replay {

ReplayPort::ReplayPort(std::string name, const std::vector<uint8_t>& arena,
                       const std::vector<InjectedFrame>& frames, host::PortLinks links,
                       runtime::MbufPool& pool, const sw::QosMaps& maps)
    : Stage(std::move(name)), arena_(arena), frames_(frames), links_(links), pool_(pool), maps_(maps) {
  for (uint32_t i = 0; i < frames_.size(); ++i) queue_[frames_[i].priority].push_back(i);
}

void ReplayPort::poll(Time now) {
  receive(now);
  transmit(now);
}

void ReplayPort::receive(Time now) {
  constexpr uint32_t kBurst = 32;
  rte_mbuf* in[kBurst];
  uint32_t n = 0;
  while ((n = links_.rx->receive(now, in, kBurst)) > 0) {
    for (uint32_t i = 0; i < n; ++i) {
      rte_mbuf* m = in[i];
      const auto* data = rte_pktmbuf_mtod(m, const uint8_t*);
      const sw::FrameInfo info = sw::classify(data, rte_pktmbuf_data_len(m), maps_);
      if (info.kind == sw::FrameInfo::Kind::kPfc) {
        ++counters_.pfc_received;
        for (int p = 0; p < sw::kPriorities; ++p) {
          if ((info.pfc_vector >> p & 1) == 0) continue;
          links_.tx->apply_pause(static_cast<uint8_t>(p), info.pfc_quanta[p], now);
          if (info.pfc_quanta[p] != 0) ++counters_.xoff_received[p];
        }
      } else {
        ++counters_.frames_received;
        counters_.bytes_received += rte_pktmbuf_pkt_len(m);
        if (info.kind == sw::FrameInfo::Kind::kIpv4 && info.ecn == 3) ++counters_.ce_received;
      }
      rte_pktmbuf_free(m);
    }
  }
}

uint8_t ReplayPort::pick(Time now) const {
  uint8_t best = kNone;
  for (uint8_t p = 0; p < sw::kPriorities; ++p) {
    if (head_[p] == queue_[p].size()) continue;
    const InjectedFrame& f = frames_[queue_[p][head_[p]]];
    if (f.due > now || !links_.tx->may_start(p, now)) continue;
    if (best == kNone || f.due < frames_[queue_[best][head_[best]]].due) best = p;
  }
  return best;
}

void ReplayPort::transmit(Time now) {
  while (links_.tx->can_send(now)) {
    const uint8_t p = pick(now);
    if (p == kNone) return;
    start(frames_[queue_[p][head_[p]++]], now);
  }
}

// The frame is copied whole at the start of the data room: this pool feeds only replayed
// frames (no host builds from it in a replay), so its payload pattern is not needed.
void ReplayPort::start(const InjectedFrame& f, Time now) {
  rte_mbuf* m = pool_.alloc();
  m->data_off = 0;
  std::memcpy(rte_pktmbuf_mtod(m, uint8_t*), arena_.data() + f.offset, f.length);
  m->data_len = static_cast<uint16_t>(f.length);
  m->pkt_len = f.length;
  links_.tx->send(now, m);
  const Time delay = now - f.due;
  ++counters_.frames_sent;
  counters_.bytes_sent += f.length;
  if (delay > Time::zero()) ++counters_.frames_delayed;
  counters_.delay_sum += delay;
  counters_.delays.record(delay);
}

Time ReplayPort::next_deadline() const {
  Time t = links_.rx->next_arrival();
  for (uint8_t p = 0; p < sw::kPriorities; ++p) {
    if (head_[p] == queue_[p].size()) continue;
    const Time due = frames_[queue_[p][head_[p]]].due;
    t = std::min(t, std::max({due, links_.tx->free_at(), links_.tx->paused_until(p)}));
  }
  return t;
}

}  // namespace rtb::replay
