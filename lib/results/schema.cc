#include "results/schema.h"

#include "results/summary_json.h"

namespace rtb::results {
namespace {

using nlohmann::ordered_json;

// A summary with every optional figure present and one of everything in each list.
Summary exemplar() {
  Summary s;
  FlowResult f;
  f.size_bytes = f.bytes = f.bytes_total = f.cnp_handled = f.retransmissions = f.timeouts = 1;
  f.qpn = 1;
  f.fct = f.ideal_fct = Time::ns(1);
  f.fct_slowdown = f.goodput_gbps = f.throughput_gbps = 1.0;
  f.messages = MessageFigures{1, 1, MessageCompletion{}};
  f.failed = false;
  s.flows.push_back(f);
  PortResult p;
  p.queues.push_back(QueueResult{.data_frames = 1, .marks_ecn = true});
  p.pgs.emplace_back();
  s.switches.push_back(SwitchResult{.name = "", .pfc_nombuf = 0, .ports = {p}});
  s.hosts.push_back(HostResult{.tx_nombuf_data = 0, .tx_nombuf_control = 0});
  s.totals.jain_fairness = 1.0;
  s.fct_slowdown = FctSlowdown{.by_size = {SizeGroup{}}};
  s.valid = s.complete = true;
  return s;
}

// Every leaf that is a number or a boolean; drops_by_reason is keyed by reason, not a
// figure of its own.
void leaves(const ordered_json& j, const std::string& at, std::vector<std::string>& out) {
  if (j.is_object()) {
    for (const auto& [k, v] : j.items()) {
      if (k != "drops_by_reason") leaves(v, at.empty() ? k : at + "." + k, out);
    }
  } else if (j.is_array()) {
    if (!j.empty() && !j.front().is_string()) leaves(j.front(), at + "[]", out);
  } else if (j.is_number() || j.is_boolean()) {
    out.push_back(at);
  }
}

}  // namespace

const std::vector<std::string>& numeric_paths() {
  static const std::vector<std::string> kPaths = [] {
    std::vector<std::string> out;
    leaves(to_json(exemplar()), "", out);
    // Figures that are whole objects, null when they do not apply.
    out.insert(out.end(), {"fct_slowdown", "flows[].message_completion_ns"});
    return out;
  }();
  return kPaths;
}

}  // namespace rtb::results
