#include "analyze/pfc_stats.h"

#include <algorithm>

#include "wire/pfc.h"

namespace rtb::analyze {

PfcStats::Sender& PfcStats::sender(const wire::MacAddr& mac) {
  for (Sender& s : senders_) {
    if (s.mac == mac) return s;
  }
  senders_.push_back(Sender{mac});
  return senders_.back();
}

// Ends sender `s`'s pause of `prio` at `now` (or earlier, when its quanta ran out).
void PfcStats::close(Sender& s, int prio, Time now) {
  const auto p = static_cast<size_t>(prio);
  if (!s.paused[p]) return;
  const Time end = std::min(now, s.until[p]);
  if (end > s.since[p]) prio_[p].paused += end - s.since[p];
  s.paused[p] = false;
}

void PfcStats::add(Time ts, const wire::MacAddr& src, uint8_t vector,
                   const std::array<uint16_t, 8>& quanta) {
  Sender& s = sender(src);
  for (int prio = 0; prio < 8; ++prio) {
    if ((vector & (1u << prio)) == 0) continue;
    const auto p = static_cast<size_t>(prio);
    const Time pause = Time::ps(wire::pfc_pause_ps(quanta[p], link_rate_.bps()));
    PriorityStats& st = prio_[p];
    ++st.frames;
    close(s, prio, ts);
    if (quanta[p] == 0) {
      ++st.xon;
    } else {
      ++st.xoff;
      st.requested += pause;
      s.paused[p] = true;
      s.since[p] = ts;
      s.until[p] = ts + pause;
    }
    events_.push_back(PfcEvent{ts, src, static_cast<uint8_t>(prio), quanta[p], pause});
  }
}

void PfcStats::finish() {
  for (Sender& s : senders_) {
    for (int prio = 0; prio < 8; ++prio) close(s, prio, Time::never());
  }
}

}  // namespace rtb::analyze
