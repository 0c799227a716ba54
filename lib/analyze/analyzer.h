// Counts a capture's RoCEv2 and PFC traffic frame by frame: per QP (qp_stats.h), per PFC
// priority (pfc_stats.h) and in total. Frames go in one at a time, in file order; nothing
// is kept of a frame after add() returns, and nothing is allocated per frame except when
// a new QP, timeline bin, NAK syndrome, PFC event or CE mark awaiting its CNP appears.
//
// CE -> CNP delay. A notification point answers CE-marked packets with a CNP to the
// sender's QP, in the opposite direction between the same two addresses (IBTA Annex
// A17.9.3). The analyzer keeps, per address pair, the first CE-marked data frame not yet
// answered; the next CNP between the same addresses the other way answers it, and the
// delay is added to the CE-marked frame's QP. Both must be in the capture (a tap that
// sees both directions).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analyze/dissected.h"
#include "analyze/malformed.h"
#include "analyze/pfc_stats.h"
#include "analyze/qp_stats.h"
#include "core/units.h"
#include "pcap/link_type.h"

namespace rtb::analyze {

struct AnalyzeOptions {
  Rate link_rate = Rate::gbps(100);  // for PFC quanta (pfc_stats.h)
  Time bin = Time::us(100);          // width of the timeline's bins
};

// One captured frame as the reader hands it over.
struct FrameRef {
  uint64_t ts_ns = 0;  // as stored: ns since the Unix epoch
  const uint8_t* data = nullptr;
  uint32_t captured_len = 0;
  uint32_t wire_len = 0;
};

struct Totals {
  uint64_t frames = 0;
  uint64_t wire_bytes = 0;
  uint64_t roce = 0;
  uint64_t pfc = 0;
  uint64_t pause = 0;  // 802.3x PAUSE
  uint64_t other = 0;
  uint64_t malformed = 0;
  MalformedCounts malformed_by{};
  uint64_t snapped = 0;              // frames cut by the snap length
  uint64_t ts_before_first = 0;      // stamped before the first frame (counted at time 0)
  std::array<uint64_t, 256> opcodes{};
  uint64_t ce = 0;
  uint64_t cnps = 0;
  uint64_t icrc_valid = 0;
  uint64_t icrc_invalid = 0;
  uint64_t icrc_unchecked = 0;
  uint64_t first_ts_ns = 0;
  Time last_ts;  // from the first frame
};

class Analyzer {
 public:
  explicit Analyzer(capture::LinkType link, AnalyzeOptions options = {});

  void add(const FrameRef& f);
  void finish() { pfc_.finish(); }

  const Totals& totals() const { return totals_; }
  const PfcStats& pfc() const { return pfc_; }
  const AnalyzeOptions& options() const { return options_; }
  capture::LinkType link() const { return link_; }
  // Every QP, ordered by key (deterministic, unlike the table behind it).
  std::vector<std::pair<QpKey, const QpStats*>> qps() const;

 private:
  Time relative(uint64_t ts_ns);
  QpStats& qp(const QpKey& key);
  void add_roce(const Dissected& d, Time ts, uint32_t wire_len);
  void track_ce_cnp(const Dissected& d, Time ts, QpStats& q);

  capture::LinkType link_;
  AnalyzeOptions options_;
  Totals totals_;
  PfcStats pfc_;
  std::unordered_map<QpKey, std::unique_ptr<QpStats>, QpKeyHash> qps_;
  QpKey last_key_{};
  QpStats* last_qp_ = nullptr;  // consecutive frames of one QP skip the lookup
  struct PendingCe {
    Time ts;
    QpStats* qp;
  };
  std::map<std::pair<IpAddr, IpAddr>, PendingCe> pending_ce_;  // (src, dst) of the CE frame
};

}  // namespace rtb::analyze
