// `mlxconfig -d <device> q` output: NVConfig names with a port suffix (_P1, _P2) and the
// value in the last column ("Next Boot"; with -e the columns are Default, Current, Next
// Boot), booleans as "True(1)". The DCQCN names map to the debugfs ones
// (cc-reference §1.3 table); ROCE_CC_PRIO_MASK says which priorities run DCQCN.
#include <fmt/format.h>

#include <map>
#include <regex>

#include "params/mlx5_values.h"
#include "params/source_text.h"
#include "params/sources.h"

namespace rtb::params {
namespace {

// "True(1)" -> "1", "300" -> "300".
std::string value_of(const std::string& v) {
  const size_t open = v.find('(');
  if (open != std::string::npos && v.back() == ')') return v.substr(open + 1, v.size() - open - 2);
  return v;
}

struct PortValue {
  std::string value;
  Origin at;
};

void check_prio_mask(const std::string& value, const Origin& at, const std::string& name, Imported& out) {
  const auto mask = parse_kstrtou32(value);
  if (mask && *mask == 255) return;
  out.find(at, name, value,
           "DCQCN runs only on the priorities whose bit is set (255 = all); rocetb runs the scenario's CC on every "
           "flow, so flows on the others would not be rate-controlled on this NIC: not imported");
}

}  // namespace

Status import_mlxconfig(const std::string& path, const std::string& text, Imported& out) {
  static const std::regex kLine(R"(^\s*\*?\s*([A-Z][A-Z0-9_]*?)(?:_P([12]))?\s+(\S+(?:\s+\S+)*)\s*$)");
  std::map<std::string, PortValue> port1;
  uint32_t dcqcn = 0, other = 0;
  const std::vector<std::string> lines = split_lines(text);
  for (size_t i = 0; i < lines.size(); ++i) {
    std::smatch m;
    if (!std::regex_match(lines[i], m, kLine)) continue;
    const std::string base = m[1].str(), port = m[2].str();
    const std::vector<std::string> cols = words(m[3].str());
    const std::string value = value_of(cols.back());
    const Origin at{path, static_cast<uint32_t>(i + 1)};
    const std::string name = m[1].str() + (port.empty() ? "" : "_P" + port);
    if (base == "ROCE_CC_PRIO_MASK") {
      check_prio_mask(value, at, name, out);
      continue;
    }
    const std::string debugfs = debugfs_name_of_nvconfig(base);
    if (debugfs.empty()) {
      if (!port.empty() || base.find("CNP") != std::string::npos) ++other;
      continue;
    }
    ++dcqcn;
    if (port == "2") {
      const auto p1 = port1.find(base);
      if (p1 != port1.end() && p1->second.value != value) {
        out.find(at, name, cols.back(),
                 fmt::format("differs from port 1 ({}:{}: {}); rocetb's hosts have one NIC setting: port 1's is "
                             "written",
                             p1->second.at.file, p1->second.at.line, p1->second.value));
      }
      continue;
    }
    port1[base] = PortValue{value, at};
    add_cc_param(out, debugfs, value, at, name);
  }
  if (dcqcn == 0) {
    return Error{
        fmt::format("{}: no DCQCN settings in it: expected `mlxconfig -d <device> q` output with lines such "
                    "as 'RPG_TIME_RESET_P1   300'",
                    path)};
  }
  if (other > 0)
    out.note(fmt::format("{}: {} other NVConfig settings are not DCQCN's and are not imported", path, other));
  return {};
}

}  // namespace rtb::params
