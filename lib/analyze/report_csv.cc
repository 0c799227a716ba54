#include <fmt/format.h>

#include <filesystem>
#include <sstream>

#include "analyze/names.h"
#include "analyze/report.h"
#include "core/write_file.h"

namespace rtb::analyze {
namespace {

std::string opcode_list(const OpcodeMix& ops) {
  std::string s;
  for (const auto& [op, n] : ops.sorted()) s += fmt::format("{}{:#04x}:{}", s.empty() ? "" : ";", op, n);
  return s;
}

uint64_t nak_total(const QpStats& q) {
  uint64_t n = 0;
  for (const auto& [syn, c] : q.naks) n += c;
  return n;
}

std::string qps_csv(const CaptureAnalysis& a) {
  std::ostringstream os;
  os << "dest_qpn,src,dst,frames,wire_bytes,payload_bytes,first_ns,last_ns,ce,ce_fraction,"
        "becn,cnps_received,ce_to_cnp_count,ce_to_cnp_mean_ns,acks,naks,psn_gaps,psn_missing,"
        "retransmissions,icrc_valid,icrc_invalid,icrc_not_checked,messages,"
        "messages_incomplete,completion_mean_ns,completion_max_ns,opcodes\n";
  for (const auto& [k, q] : a.analyzer.qps()) {
    const DurationStats& m = q->messages.completion();
    os << fmt::format("{},{},{},{},{},{},{},{},{},{:.6f},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
                      qpn_text(k.dest_qpn), ip_text(k.src), ip_text(k.dst), q->frames,
                      q->wire_bytes, q->payload_bytes, q->first_ts.ns(), q->last_ts.ns(), q->ce,
                      q->ce_fraction(), q->becn, q->cnps, q->ce_to_cnp.count,
                      q->ce_to_cnp.mean().ns(), q->acks, nak_total(*q), q->psn.gaps(),
                      q->psn.missing(), q->psn.repeated(), q->icrc_valid, q->icrc_invalid,
                      q->icrc_unchecked, m.count, q->messages.incomplete(), m.mean().ns(),
                      m.max.ns(), opcode_list(q->opcodes));
  }
  return os.str();
}

std::string priorities_csv(const PfcStats& pfc) {
  std::ostringstream os;
  os << "priority,pfc_frames,xoff,xon,pause_requested_ns,paused_ns\n";
  for (size_t p = 0; p < 8; ++p) {
    const PriorityStats& s = pfc.priorities()[p];
    os << fmt::format("{},{},{},{},{},{}\n", p, s.frames, s.xoff, s.xon, s.requested.ns(),
                      s.paused.ns());
  }
  return os.str();
}

// Rate over time: one row per QP and bin that saw a frame.
std::string timeline_csv(const CaptureAnalysis& a) {
  std::ostringstream os;
  os << "dest_qpn,src,dst,bin_start_ns,frames,wire_bytes,rate_bps,ce,cnps\n";
  const Time width = a.analyzer.options().bin;
  for (const auto& [k, q] : a.analyzer.qps()) {
    const std::string id = fmt::format("{},{},{}", qpn_text(k.dest_qpn), ip_text(k.src), ip_text(k.dst));
    for (const TimelineBin& b : q->timeline.bins()) {
      const auto rate = static_cast<uint64_t>(static_cast<double>(b.wire_bytes) * 8e12 /
                                              static_cast<double>(width.ps()));
      os << fmt::format("{},{},{},{},{},{},{}\n", id, (width * b.index).ns(), b.frames,
                        b.wire_bytes, rate, b.ce, b.cnps);
    }
  }
  return os.str();
}

// The XOFF / XON timeline: one row per priority of every PFC frame.
std::string pfc_events_csv(const PfcStats& pfc) {
  std::ostringstream os;
  os << "ts_ns,src_mac,priority,kind,quanta,pause_ns\n";
  for (const PfcEvent& e : pfc.events()) {
    os << fmt::format("{},{},{},{},{},{}\n", e.ts.ns(), mac_text(e.src), e.priority,
                      e.quanta == 0 ? "xon" : "xoff", e.quanta, e.pause.ns());
  }
  return os.str();
}

}  // namespace

OwnedFiles results_files() {
  return {{"qps.csv", "priorities.csv", "timeline.csv", "pfc_events.csv", "summary.json"}, {}};
}

Status write_results(const std::string& dir, const CaptureAnalysis& a) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Error{fmt::format("--out '{}': cannot create the folder: {}", dir, ec.message())};
  const std::filesystem::path d(dir);
  // Each file whole or not at all (core/write_file.h); summary.json last, so that a folder
  // with a summary.json holds every file of that analysis.
  const std::pair<const char*, std::string> files[] = {
      {"qps.csv", qps_csv(a)},
      {"priorities.csv", priorities_csv(a.analyzer.pfc())},
      {"timeline.csv", timeline_csv(a)},
      {"pfc_events.csv", pfc_events_csv(a.analyzer.pfc())},
      {"summary.json", summary_json(a).dump(2) + "\n"},
  };
  for (const auto& [name, text] : files) {
    if (Status s = write_file_atomically((d / name).string(), text); !s) return s;
  }
  return {};
}

}  // namespace rtb::analyze
