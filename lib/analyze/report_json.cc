#include <fmt/format.h>

#include "analyze/names.h"
#include "analyze/report.h"

namespace rtb::analyze {
namespace {

using nlohmann::json;

json durations(const DurationStats& d) {
  if (d.count == 0) return json{{"count", 0}};
  return json{{"count", d.count}, {"min_ns", d.min.ns()}, {"mean_ns", d.mean().ns()},
              {"max_ns", d.max.ns()}};
}

json opcode_mix(const std::array<uint64_t, 256>& ops) {
  json j = json::object();
  for (size_t i = 0; i < ops.size(); ++i) {
    if (ops[i] != 0) j[opcode_text(static_cast<uint8_t>(i))] = ops[i];
  }
  return j;
}

// Mean rate over the QP's span from its first to its last frame; null for one instant.
json mean_rate_bps(uint64_t bytes, Time span) {
  if (span == Time::zero()) return nullptr;
  return static_cast<uint64_t>(static_cast<double>(bytes) * 8e12 / static_cast<double>(span.ps()));
}

json opcode_mix(const OpcodeMix& ops) {
  json j = json::object();
  for (const auto& [op, n] : ops.sorted()) j[opcode_text(op)] = n;
  return j;
}

json qp_json(const QpKey& k, const QpStats& q) {
  json naks = json::object();
  for (const auto& [syn, n] : q.naks) naks[syndrome_text(syn)] = n;
  return json{
      {"dest_qpn", qpn_text(k.dest_qpn)},
      {"src", ip_text(k.src)},
      {"dst", ip_text(k.dst)},
      {"frames", q.frames},
      {"wire_bytes", q.wire_bytes},
      {"payload_bytes", q.payload_bytes},
      {"first_ns", q.first_ts.ns()},
      {"last_ns", q.last_ts.ns()},
      {"mean_rate_bps", mean_rate_bps(q.wire_bytes, q.last_ts - q.first_ts)},
      {"opcodes", opcode_mix(q.opcodes)},
      {"ce", q.ce},
      {"ce_fraction", q.ce_fraction()},
      {"becn", q.becn},
      {"cnps_received", q.cnps},
      {"ce_to_cnp", durations(q.ce_to_cnp)},
      {"acks", q.acks},
      {"naks", naks},
      {"psn_gaps", q.psn.gaps()},
      {"psn_missing", q.psn.missing()},
      {"retransmissions", q.psn.repeated()},
      {"icrc", {{"valid", q.icrc_valid}, {"invalid", q.icrc_invalid},
                {"not_checked", q.icrc_unchecked}}},
      {"messages", {{"completed", q.messages.completion().count},
                    {"incomplete", q.messages.incomplete()},
                    {"bytes", q.messages.bytes()},
                    {"completion", durations(q.messages.completion())}}},
  };
}

json priorities_json(const PfcStats& pfc) {
  json out = json::array();
  for (size_t p = 0; p < 8; ++p) {
    const PriorityStats& s = pfc.priorities()[p];
    if (s.frames == 0) continue;
    out.push_back(json{{"priority", p}, {"pfc_frames", s.frames}, {"xoff", s.xoff},
                       {"xon", s.xon}, {"pause_requested_ns", s.requested.ns()},
                       {"paused_ns", s.paused.ns()}});
  }
  return out;
}

json malformed_json(const Totals& t) {
  json j = json::object();
  for (uint32_t i = 0; i < kMalformedCount; ++i) {
    if (t.malformed_by[i] != 0) j[malformed_name(static_cast<Malformed>(i))] = t.malformed_by[i];
  }
  return j;
}

}  // namespace

json summary_json(const CaptureAnalysis& a) {
  const Totals& t = a.analyzer.totals();
  json qps = json::array();
  for (const auto& [key, q] : a.analyzer.qps()) qps.push_back(qp_json(key, *q));
  return json{
      {"capture", a.path},
      {"link_type", capture::link_type_name(a.analyzer.link())},
      {"complete", !a.error.has_value()},
      {"error", a.error ? json(*a.error) : json(nullptr)},
      {"link_rate_bps", a.analyzer.options().link_rate.bps()},
      {"bin_ns", a.analyzer.options().bin.ns()},
      {"frames", t.frames},
      {"wire_bytes", t.wire_bytes},
      {"first_ts_ns", t.first_ts_ns},
      {"duration_ns", t.last_ts.ns()},
      {"roce_frames", t.roce},
      {"pfc_frames", t.pfc},
      {"pause_frames", t.pause},
      {"other_frames", t.other},
      {"malformed_frames", t.malformed},
      {"malformed", malformed_json(t)},
      {"snapped_frames", t.snapped},
      {"timestamps_before_first", t.ts_before_first},
      {"opcodes", opcode_mix(t.opcodes)},
      {"ce_frames", t.ce},
      {"cnps", t.cnps},
      {"icrc", {{"valid", t.icrc_valid}, {"invalid", t.icrc_invalid},
                {"not_checked", t.icrc_unchecked}}},
      {"qps", qps},
      {"priorities", priorities_json(a.analyzer.pfc())},
  };
}

}  // namespace rtb::analyze
