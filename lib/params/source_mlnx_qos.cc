// `mlnx_qos -i <netdev>` output (NVIDIA's mlnx_qos tool, MLNX_OFED / mstflint):
//   Priority trust state: dscp
//   dscp2prio mapping:
//           prio:3 dscp:31,30,29,28,27,26,25,24,
//   Cable len: 7
//   PFC configuration:
//           priority    0   1   2   3   4   5   6   7
//           enabled     0   0   0   1   0   0   0   0
// The NIC's priority is the traffic class its frames carry; rocetb has one set of
// lossless priorities and one DSCP map for the fabric, kept by the switch, so these
// become [switch] keys (trust pcp also makes the hosts tag their frames).
#include <fmt/format.h>

#include <map>
#include <regex>

#include "params/source_text.h"
#include "params/sources.h"

namespace rtb::params {
namespace {

struct Reading {
  std::map<int, std::pair<int, Origin>> dscp_to_prio;
  std::string enabled_line;
  Origin enabled_at;
};

void read_trust(const std::string& line, const Origin& at, Imported& out) {
  const std::string trust = trim(line.substr(line.find(':') + 1));
  if (trust == "dscp") {
    out.set("switch", "trust", quoted("dscp"), at, "Priority trust state", trust);
  } else if (trust == "pcp") {
    out.set("switch", "trust", quoted("dot1p"), at, "Priority trust state", trust);
    out.set("host", "vlan_tagged", "true", at, "Priority trust state", trust);
  } else {
    out.find(at, "Priority trust state", trust, "expected pcp or dscp: not imported");
  }
}

void read_dscp_line(const std::string& line, const Origin& at, Reading& r, Imported& out) {
  static const std::regex kPrio(R"(prio:\s*(\d+)\s+dscp:\s*([\d,\s]*))");
  std::smatch m;
  if (!std::regex_search(line, m, kPrio)) return;
  const int prio = std::stoi(m[1].str());
  for (const std::string& d : words(std::regex_replace(m[2].str(), std::regex(","), " "))) {
    const int dscp = std::stoi(d);
    if (dscp > 63 || prio > 7) {
      out.find(at, "dscp2prio", fmt::format("prio:{} dscp:{}", prio, dscp), "expected DSCP 0..63, priority 0..7");
      continue;
    }
    r.dscp_to_prio[dscp] = {prio, at};
  }
}

void write_dscp_map(const Reading& r, Imported& out) {
  if (r.dscp_to_prio.empty()) return;
  std::string text;
  for (const auto& [dscp, p] : r.dscp_to_prio) {  // what the map does not list goes to TC 0
    if (p.first != 0) text += fmt::format("{}\"{}\" = {}", text.empty() ? "" : ", ", dscp, p.first);
  }
  const Origin at = r.dscp_to_prio.begin()->second.second;
  out.set("switch", "dscp_to_tc_map", "{ " + text + " }", at, "dscp2prio mapping",
          fmt::format("{} DSCPs (the NIC's priority taken as the switch's TC)", r.dscp_to_prio.size()));
}

void write_pfc(const Reading& r, Imported& out) {
  const std::vector<std::string> w = words(r.enabled_line);
  std::string list;
  for (size_t i = 1; i < w.size() && i <= 8; ++i) {
    if (w[i] == "1") list += fmt::format("{}{}", list.empty() ? "" : ", ", i - 1);
  }
  out.set("switch", "pfc_enable", "[" + list + "]", r.enabled_at, "PFC configuration enabled", trim(r.enabled_line));
  if (list.empty()) {
    out.find(r.enabled_at, "PFC enabled", trim(r.enabled_line),
             "legal but PFC is off on every priority: the fabric is lossy (drops, go-back-N); written");
  }
}

}  // namespace

Status import_mlnx_qos(const std::string& path, const std::string& text, Imported& out) {
  Reading r;
  const std::vector<std::string> lines = split_lines(text);
  bool any = false;
  for (size_t i = 0; i < lines.size(); ++i) {
    const Origin at{path, static_cast<uint32_t>(i + 1)};
    const std::string l = trim(lines[i]);
    if (l.starts_with("Priority trust state:")) {
      read_trust(l, at, out);
      any = true;
    } else if (l.starts_with("prio:")) {
      read_dscp_line(l, at, r, out);
    } else if (l.starts_with("enabled") && r.enabled_line.empty()) {
      r.enabled_line = l;
      r.enabled_at = at;
      any = true;
    } else if (l.starts_with("Cable len:")) {
      const std::string m = trim(l.substr(10));
      out.set("topology", "cable_length_m", m, at, "Cable len", m);
    }
  }
  if (!any) {
    return Error{
        fmt::format("{}: no trust state or PFC configuration in it: expected `mlnx_qos -i <interface>` output", path)};
  }
  write_dscp_map(r, out);
  if (!r.enabled_line.empty()) write_pfc(r, out);
  return {};
}

}  // namespace rtb::params
