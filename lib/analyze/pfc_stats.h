// PFC per priority (IEEE 802.1Qbb §36.1.3, reference §3.1): frames, XOFF (quanta > 0) and
// XON (quanta 0) per priority whose class-enable bit is set, the pause time they asked
// for, and the time each priority was actually paused.
//
// One quantum is 512 bit times at the link rate (802.3 Annex 31B.2), so pause time needs
// the rate of the link the frame came from; the capture does not carry it (--link-rate).
// A sender's priority is paused from an XOFF until the earlier of the time its quanta
// allow and the next PFC frame for that priority from the same sender (a refresh restarts
// the pause, an XON ends it). Paused time is the union of those intervals per sender,
// summed over senders; a pause still running when the capture ends counts to its quanta.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "core/units.h"
#include "wire/bytes.h"

namespace rtb::analyze {

struct PriorityStats {
  uint64_t frames = 0;  // PFC frames with this priority's enable bit set
  uint64_t xoff = 0;
  uint64_t xon = 0;
  Time requested;  // sum of quanta x 512 bit times
  Time paused;     // union of pause intervals (see above)
};

struct PfcEvent {
  Time ts;
  wire::MacAddr src;
  uint8_t priority = 0;
  uint16_t quanta = 0;
  Time pause;  // quanta at the link rate
};

class PfcStats {
 public:
  explicit PfcStats(Rate link_rate) : link_rate_(link_rate) {}
  void add(Time ts, const wire::MacAddr& src, uint8_t vector, const std::array<uint16_t, 8>& quanta);
  // Closes the pauses still running (call once, after the last frame).
  void finish();

  const std::array<PriorityStats, 8>& priorities() const { return prio_; }
  const std::vector<PfcEvent>& events() const { return events_; }
  Rate link_rate() const { return link_rate_; }

 private:
  struct Sender {
    wire::MacAddr mac;
    std::array<bool, 8> paused{};
    std::array<Time, 8> since{};
    std::array<Time, 8> until{};
  };
  Sender& sender(const wire::MacAddr& mac);
  void close(Sender& s, int prio, Time now);

  Rate link_rate_;
  std::array<PriorityStats, 8> prio_{};
  std::vector<Sender> senders_;  // few: one per link end that sends PFC
  std::vector<PfcEvent> events_;
};

}  // namespace rtb::analyze
