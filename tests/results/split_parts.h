// A split run's parts made from a whole run's summary, as its processes would have
// written them: for tests of the merge (lib/results merge.h) against the single-process
// summary.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "results/derive.h"
#include "results/merge.h"

namespace rtb::results::testing {

// What each process of a split run knows of `whole`: the hosts it runs, the switch when
// `with_switch`, each flow's sender or receiver figures as it runs that end.
inline Part part_of(const Summary& whole, const std::vector<std::string>& hosts, bool with_switch, const std::string& role) {
  Summary p = whole;
  const auto has = [&](const std::string& h) { return std::find(hosts.begin(), hosts.end(), h) != hosts.end(); };
  std::erase_if(p.hosts, [&](const HostResult& h) { return !has(h.name); });
  if (!with_switch) p.switches.clear();
  for (FlowResult& f : p.flows) {
    if (!has(f.dst)) f.bytes = f.bytes_total = std::nullopt;
    if (!has(f.src)) {
      f.qpn = std::nullopt;
      f.fct = std::nullopt;
      f.fct_slowdown = f.goodput_gbps = std::nullopt;
      f.cnp_handled = f.retransmissions = f.timeouts = std::nullopt;
      f.failed = std::nullopt;
      if (f.messages) {
        f.messages->completed.reset();
        f.messages->completion_ns.reset();
      }
    }
  }
  p.counts = with_switch ? whole.counts : Counts{};
  p.role = role;
  derive(p);
  return Part{p, role + "/summary.json", role};
}

}  // namespace rtb::results::testing
