#include "results/merge.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "results/derive.h"

namespace rtb::results {
namespace {

template <typename T>
void fill(std::optional<T>& into, const std::optional<T>& from) {
  if (!into && from) into = from;
}

void fill_messages(std::optional<MessageFigures>& into, const std::optional<MessageFigures>& from) {
  if (!into || !from) return fill(into, from);
  fill(into->completed, from->completed);
  fill(into->completion_ns, from->completion_ns);
}

// Each figure one of the two ends knows, taken from the part that knows it.
void join_flow(FlowResult& into, const FlowResult& from) {
  fill(into.qpn, from.qpn);
  fill(into.size_bytes, from.size_bytes);
  fill(into.ideal_fct, from.ideal_fct);
  fill(into.bytes, from.bytes);
  fill(into.bytes_total, from.bytes_total);
  fill(into.fct, from.fct);
  fill(into.fct_slowdown, from.fct_slowdown);
  fill(into.goodput_gbps, from.goodput_gbps);
  fill_messages(into.messages, from.messages);
  fill(into.cnp_handled, from.cnp_handled);
  fill(into.retransmissions, from.retransmissions);
  fill(into.timeouts, from.timeouts);
  fill(into.failed, from.failed);
}

Status same_run(const Part& first, const Part& p) {
  const Summary &a = first.summary, &b = p.summary;
  const auto differs = [&](const char* key, const std::string& got, const std::string& want) {
    return Error{fmt::format("{}: {} = {}: expected {} as in {} (the parts of one split run)", p.source, key, got,
                             want, first.source)};
  };
  if (b.scenario != a.scenario) return differs("scenario", b.scenario, a.scenario);
  if (b.seed != a.seed) return differs("seed", std::to_string(b.seed), std::to_string(a.seed));
  if (b.clock != a.clock) return differs("clock", b.clock == Clock::kRealtime ? "realtime" : "virtual",
                                         a.clock == Clock::kRealtime ? "realtime" : "virtual");
  // Each process stops on its own clock (microseconds apart in a realtime run): the ends
  // may differ, the warm-up's end may not.
  if (b.window.from != a.window.from) {
    return differs("window.from_ns", std::to_string(b.window.from.ns()), std::to_string(a.window.from.ns()));
  }
  if (b.flows.size() != a.flows.size()) {
    return differs("flows", fmt::format("{} flows", b.flows.size()), fmt::format("{} flows", a.flows.size()));
  }
  for (size_t i = 0; i < b.flows.size(); ++i) {
    if (b.flows[i].id != a.flows[i].id) {
      return differs(fmt::format("flows[{}].id", i).c_str(), std::to_string(b.flows[i].id),
                     std::to_string(a.flows[i].id));
    }
  }
  return {};
}

void add(Counts& into, const Counts& c) {
  into.cnp_sent += c.cnp_sent;
  into.pfc_frames += c.pfc_frames;
  into.drops += c.drops;
  into.retransmissions += c.retransmissions;
  into.ecn_marked_total += c.ecn_marked_total;
  into.cnp_sent_total += c.cnp_sent_total;
  into.pfc_frames_total += c.pfc_frames_total;
  into.drops_total += c.drops_total;
  into.retransmissions_total += c.retransmissions_total;
}

// Two processes that both claim one switch or host would count its frames twice.
template <typename T>
Status claim(std::map<std::string, std::string>& owner, const std::vector<T>& nodes, const char* kind,
             const Part& p) {
  for (const T& n : nodes) {
    const auto [it, fresh] = owner.emplace(n.name, p.source);
    if (!fresh) {
      return Error{fmt::format("{}: {} {} is in {} too: expected each node in one part only", p.source, kind, n.name,
                               it->second)};
    }
  }
  return {};
}

void join_validity(Summary& out, const Summary& s, const std::string& role, std::string& reasons) {
  if (s.valid) out.valid = out.valid.value_or(true) && *s.valid;
  if (s.valid && !*s.valid) {
    if (!reasons.empty()) reasons += "; ";
    reasons += role + ": " + s.invalid_reason.value_or("invalid");
  }
  if (s.complete) out.complete = out.complete.value_or(true) && *s.complete;
}

}  // namespace

Expected<Summary> merge(const std::vector<Part>& parts) {
  if (parts.empty()) return Error{"nothing to merge: expected the results folders of a split run's processes"};
  const Summary& first = parts.front().summary;
  Summary out;
  out.scenario = first.scenario;
  out.clock = first.clock;
  out.seed = first.seed;
  out.duration = first.duration;
  out.warmup = first.warmup;
  out.window = first.window;
  out.flows = first.flows;
  std::map<std::string, std::string> switch_owner, host_owner;
  std::string reasons;
  for (const Part& p : parts) {
    if (Status st = same_run(parts.front(), p); !st) return Error{st.message()};
    if (Status st = claim(switch_owner, p.summary.switches, "switch", p); !st) return Error{st.message()};
    if (Status st = claim(host_owner, p.summary.hosts, "host", p); !st) return Error{st.message()};
    const Summary& s = p.summary;
    if (&p != &parts.front()) {
      for (size_t i = 0; i < s.flows.size(); ++i) join_flow(out.flows[i], s.flows[i]);
    }
    out.switches.insert(out.switches.end(), s.switches.begin(), s.switches.end());
    out.hosts.insert(out.hosts.end(), s.hosts.begin(), s.hosts.end());
    add(out.counts, s.counts);
    const std::string role = s.role.value_or(p.role);
    if (std::find(out.roles.begin(), out.roles.end(), role) != out.roles.end()) {
      return Error{fmt::format("{}: role = {}: expected each process's role once (given twice)", p.source, role)};
    }
    out.roles.push_back(role);
    join_validity(out, s, role, reasons);
  }
  if (out.valid && !*out.valid) out.invalid_reason = reasons;
  derive(out);
  return out;
}

}  // namespace rtb::results
