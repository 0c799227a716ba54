#include "analyze/analyzer.h"

#include <algorithm>

#include "analyze/dissect.h"
#include "wire/bth.h"
#include "wire/opcode.h"

namespace rtb::analyze {
namespace {

constexpr uint64_t kMaxRelativeNs = UINT64_MAX / 1'000 - 1;  // what rtb::Time holds

bool is_ack(uint8_t opcode) {
  return opcode == wire::op::kAcknowledge || opcode == wire::op::kAtomicAcknowledge;
}

}  // namespace

Analyzer::Analyzer(capture::LinkType link, AnalyzeOptions options)
    : link_(link), options_(options), pfc_(options.link_rate) {}

Time Analyzer::relative(uint64_t ts_ns) {
  if (totals_.frames == 1) totals_.first_ts_ns = ts_ns;
  if (ts_ns < totals_.first_ts_ns) {
    ++totals_.ts_before_first;
    return Time::zero();
  }
  const Time t = Time::ns(std::min(ts_ns - totals_.first_ts_ns, kMaxRelativeNs));
  totals_.last_ts = std::max(totals_.last_ts, t);
  return t;
}

void Analyzer::add(const FrameRef& f) {
  ++totals_.frames;
  totals_.wire_bytes += f.wire_len;
  if (f.captured_len < f.wire_len) ++totals_.snapped;
  const Time ts = relative(f.ts_ns);
  Dissected d;
  dissect(link_, f.data, f.captured_len, f.wire_len, d);
  switch (d.kind) {
    case FrameKind::kRoce: return add_roce(d, ts, f.wire_len);
    case FrameKind::kPfc:
      ++totals_.pfc;
      return pfc_.add(ts, d.src_mac, d.pfc_vector, d.pfc_quanta);
    case FrameKind::kPause: ++totals_.pause; return;
    case FrameKind::kOther: ++totals_.other; return;
    case FrameKind::kMalformed:
      ++totals_.malformed;
      ++totals_.malformed_by[d.malformed];
      return;
  }
}

QpStats& Analyzer::qp(const QpKey& key) {
  if (last_qp_ != nullptr && key == last_key_) return *last_qp_;
  auto& slot = qps_[key];
  if (!slot) slot = std::make_unique<QpStats>(options_.bin);
  last_key_ = key;
  last_qp_ = slot.get();
  return *slot;
}

void Analyzer::add_roce(const Dissected& d, Time ts, uint32_t wire_len) {
  ++totals_.roce;
  ++totals_.opcodes[d.opcode];
  QpStats& q = qp(QpKey{d.dest_qpn, d.src_ip, d.dst_ip});
  if (q.frames == 0) q.first_ts = ts;
  ++q.frames;
  q.last_ts = std::max(q.last_ts, ts);
  q.wire_bytes += wire_len;
  q.payload_bytes += d.payload_bytes;
  q.opcodes.add(d.opcode);
  const bool ce = d.ecn == wire::Ecn::Ce;
  const bool cnp = d.opcode == wire::op::kCnp;
  q.ce += ce;
  totals_.ce += ce;
  q.becn += d.becn;
  switch (d.icrc) {
    case IcrcCheck::kValid: ++q.icrc_valid; ++totals_.icrc_valid; break;
    case IcrcCheck::kInvalid: ++q.icrc_invalid; ++totals_.icrc_invalid; break;
    case IcrcCheck::kNotChecked: ++q.icrc_unchecked; ++totals_.icrc_unchecked; break;
  }
  TimelineBin& bin = q.timeline.at(ts);
  ++bin.frames;
  bin.wire_bytes += wire_len;
  bin.ce += ce;
  bin.cnps += cnp;
  if (cnp) {
    ++q.cnps;
    ++totals_.cnps;
  } else if (is_ack(d.opcode)) {
    if (wire::aeth_kind(d.aeth_syndrome) == wire::AethKind::Ack) ++q.acks;
    else ++q.naks[d.aeth_syndrome];
  } else {
    const bool repeated = q.psn.add(d.psn);
    if (d.opcode == wire::op::kReadRequest) q.psn.resync();  // psn_tracker.h
    if (!repeated) q.messages.add(d.opcode, ts, d.payload_bytes);
  }
  track_ce_cnp(d, ts, q);
}

void Analyzer::track_ce_cnp(const Dissected& d, Time ts, QpStats& q) {
  if (d.opcode == wire::op::kCnp) {
    auto it = pending_ce_.find({d.dst_ip, d.src_ip});
    if (it == pending_ce_.end()) return;
    it->second.qp->ce_to_cnp.add(ts >= it->second.ts ? ts - it->second.ts : Time::zero());
    pending_ce_.erase(it);
    return;
  }
  if (d.ecn != wire::Ecn::Ce || is_ack(d.opcode)) return;
  pending_ce_.try_emplace({d.src_ip, d.dst_ip}, PendingCe{ts, &q});
}

std::vector<std::pair<QpKey, const QpStats*>> Analyzer::qps() const {
  std::vector<std::pair<QpKey, const QpStats*>> out;
  out.reserve(qps_.size());
  for (const auto& [key, stats] : qps_) out.emplace_back(key, stats.get());
  std::sort(out.begin(), out.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

}  // namespace rtb::analyze
