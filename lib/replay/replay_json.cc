#include "replay/replay_json.h"

#include <fmt/format.h>

#include "analyze/names.h"

namespace rtb::replay {
namespace {

using nlohmann::ordered_json;

ordered_json port_json(const std::string& name, const ReplayPort& p) {
  const ReplayPortCounters& c = p.counters();
  ordered_json j;
  j["host"] = name;
  j["frames_due"] = c.frames_sent + p.frames_unsent();
  j["frames_sent"] = c.frames_sent;
  j["frames_unsent"] = p.frames_unsent();  // still held (paused) when the run ended
  j["bytes_sent"] = c.bytes_sent;
  j["frames_delayed"] = c.frames_delayed;
  j["delay_mean_ns"] = c.frames_sent == 0 ? 0.0 : static_cast<double>(c.delay_sum.ps()) / 1e3 /
                                                       static_cast<double>(c.frames_sent);
  // Log-linear buckets (within 6.25%): the upper edge of the bucket holding the quantile.
  j["delay_p50_ns_at_most"] = c.delays.quantile(0.50).ns();
  j["delay_p99_ns_at_most"] = c.delays.quantile(0.99).ns();
  j["delay_max_ns"] = c.delays.max().ns();
  j["frames_received"] = c.frames_received;
  j["bytes_received"] = c.bytes_received;
  j["ce_received"] = c.ce_received;
  j["pfc_received"] = c.pfc_received;
  j["xoff_received"] = c.xoff_received;
  return j;
}

}  // namespace

ordered_json replay_json(const scenario::Scenario& s, const ThroughFrames& frames, const ThroughOptions& options,
                         const std::vector<std::unique_ptr<ReplayPort>>& ports) {
  ordered_json j;
  j["mode"] = "through";
  j["speed"] = options.speed;
  j["frames_read"] = frames.frames_read;
  j["frames_injected"] = frames.injected;
  j["frames_padded"] = frames.padded;
  j["skipped"] = ordered_json{{"pfc_and_pause", frames.skipped_pfc},
                              {"roce_over_ipv6", frames.skipped_ipv6},
                              {"not_roce", frames.skipped_other},
                              {"malformed", frames.skipped_malformed},
                              {"duplicate", frames.skipped_duplicate}};
  j["dedup_window_ns"] = options.dedup_window.ns();
  j["read_error"] = frames.read_error.empty() ? ordered_json(nullptr) : ordered_json(frames.read_error);
  ordered_json endpoints = ordered_json::array();
  for (const auto& [addr, host] : frames.endpoints.pairs) {
    endpoints.push_back({{"address", analyze::ip_text(addr)}, {"host", s.topology.hosts[host].name}});
  }
  j["endpoints"] = std::move(endpoints);
  ordered_json hosts = ordered_json::array();
  uint64_t sent = 0, unsent = 0, received = 0, ce = 0, pfc = 0;
  for (size_t h = 0; h < ports.size(); ++h) {
    if (!ports[h]) continue;
    hosts.push_back(port_json(s.topology.hosts[h].name, *ports[h]));
    const ReplayPortCounters& c = ports[h]->counters();
    sent += c.frames_sent;
    unsent += ports[h]->frames_unsent();
    received += c.frames_received;
    ce += c.ce_received;
    pfc += c.pfc_received;
  }
  j["hosts"] = std::move(hosts);
  j["totals"] = ordered_json{{"frames_sent", sent}, {"frames_unsent", unsent}, {"frames_received", received},
                             {"ce_received", ce}, {"pfc_received", pfc}};
  return j;
}

void print_replay_table(std::ostream& out, const ordered_json& r) {
  out << fmt::format("replayed {} of {} captured frames (speed x{}); not injected: {} PFC/PAUSE, {} IPv6, "
                     "{} other, {} malformed, {} duplicates\n",
                     r["frames_injected"].get<uint64_t>(), r["frames_read"].get<uint64_t>(),
                     r["speed"].get<double>(), r["skipped"]["pfc_and_pause"].get<uint64_t>(),
                     r["skipped"]["roce_over_ipv6"].get<uint64_t>(), r["skipped"]["not_roce"].get<uint64_t>(),
                     r["skipped"]["malformed"].get<uint64_t>(), r["skipped"]["duplicate"].get<uint64_t>());
  out << fmt::format("{:<10} {:>9} {:>8} {:>9} {:>12} {:>12} {:>9} {:>8} {:>6}\n", "host", "sent", "unsent",
                     "delayed", "p99 delay", "max delay", "received", "CE", "PFC");
  for (const auto& h : r["hosts"]) {
    if (h["frames_due"].get<uint64_t>() == 0 && h["frames_received"].get<uint64_t>() == 0) continue;
    out << fmt::format("{:<10} {:>9} {:>8} {:>9} {:>9} ns {:>9} ns {:>9} {:>8} {:>6}\n",
                       h["host"].get<std::string>(), h["frames_sent"].get<uint64_t>(),
                       h["frames_unsent"].get<uint64_t>(), h["frames_delayed"].get<uint64_t>(),
                       h["delay_p99_ns_at_most"].get<uint64_t>(), h["delay_max_ns"].get<uint64_t>(),
                       h["frames_received"].get<uint64_t>(), h["ce_received"].get<uint64_t>(),
                       h["pfc_received"].get<uint64_t>());
  }
}

}  // namespace rtb::replay
