// The HPCC authors' ns-3 simulator's config.txt (alibaba-edu/High-Precision-Congestion-
// Control simulation/mix/config.txt, what its run.py writes; keys in config_doc.txt):
// "KEY VALUE" lines. CC_MODE picks the algorithm; DCQCN's knobs (CC_MODE 1) go through
// the hpcc-ns3 -> mlx5 conversion (params/conventions.h); ECN marking from KMIN_MAP/
// KMAX_MAP/PMAX_MAP (KB of 1000 B, SwitchMmu::ConfigEcn) at the link rate of the
// topology file beside it; the buffer (BUFFER_SIZE, MB of 2^20 B in third.cc) with the
// dynamic PFC threshold (free/8, pfc_a_shift 3) as SONiC's dynamic_th = -3.
#include <fmt/format.h>

#include <filesystem>
#include <map>

#include "params/conventions.h"
#include "params/mlx5_values.h"
#include "params/source_text.h"
#include "params/sources.h"

namespace rtb::params {
namespace {

struct Line {
  std::string value;
  Origin at;
};
using Config = std::map<std::string, Line>;

// The topology file's link rate (bps) and delay, and the host count when it has one switch.
struct Topology {
  double rate_bps = 0;
  std::string delay;
  int hosts = 0;
  Origin at;
};

Topology read_topology(const std::string& config_path, const Config& c) {
  Topology t;
  const auto file = c.find("TOPOLOGY_FILE");
  if (file == c.end()) return t;
  const std::string path = (std::filesystem::path(config_path).parent_path() / file->second.value).string();
  auto text = read_source(path);
  if (!text) return t;
  const std::vector<std::string> lines = split_lines(*text);
  if (lines.size() < 3) return t;
  const std::vector<std::string> head = words(lines[0]), link = words(lines[2]);
  if (head.size() < 2 || link.size() < 4) return t;
  t.rate_bps = std::stod(link[2]) * (link[2].ends_with("Gbps") ? 1e9 : link[2].ends_with("Mbps") ? 1e6 : 1);
  t.delay = link[3];
  if (head[1] == "1") t.hosts = std::stoi(head[0]) - 1;
  t.at = Origin{path, 3};
  return t;
}

// "2 100000000000 400 400000000000 1600": the value at `rate_bps`, else the first.
std::optional<double> at_rate(const std::string& map, double rate_bps) {
  const std::vector<std::string> w = words(map);
  if (w.size() < 3) return std::nullopt;
  for (size_t i = 1; i + 1 < w.size(); i += 2) {
    if (std::stod(w[i]) == rate_bps) return std::stod(w[i + 1]);
  }
  return std::stod(w[2]);
}

void import_dcqcn(const Config& c, const Origin& mode_at, Imported& out) {
  std::vector<GivenValue> given;
  std::map<std::string, Origin> where;
  for (const auto& [k, l] : c) {
    given.push_back({k, l.value, fmt::format("{}:{}", l.at.file, l.at.line)});
    where[k] = l.at;
  }
  auto conv = convert(Convention::kHpccNs3, Convention::kMlx5, given);
  if (!conv) {
    out.find(mode_at, "CC_MODE", "1", conv.error().message + ": DCQCN's parameters not imported");
    return;
  }
  for (const Converted& k : conv->keys) {
    const std::string from = k.from.substr(0, k.from.find(" = "));
    const bool implied = !where.contains(from);
    const Origin at = implied ? mode_at : where[from];
    add_cc_param(out, k.key, k.value, at, implied ? "CC_MODE" : from);
    if (implied && !k.approximate.empty()) {
      out.find(at, "CC_MODE", "1",
               fmt::format("approximate: {} = {} is written because {}", k.key, k.value,
                           k.formula.substr(0, k.formula.find("; "))));
    }
  }
}

void import_mode(const Config& c, Imported& out) {
  const auto mode = c.find("CC_MODE");
  if (mode == c.end()) return;
  const std::string& m = mode->second.value;
  const Origin at = mode->second.at;
  if (m == "1") return import_dcqcn(c, at, out);
  const std::map<std::string, std::string> names = {{"3", "hpcc"}, {"7", "timely"}, {"8", "dctcp"}};
  const auto name = names.find(m);
  if (name == names.end()) {
    out.find(at, "CC_MODE", m, "not an algorithm rocetb has (1 DCQCN, 3 HPCC, 7 TIMELY, 8 DCTCP): not imported");
    return;
  }
  out.set("cc", "algorithm", quoted(name->second), at, "CC_MODE", m);
  if (m == "3") {
    if (const auto u = c.find("U_TARGET"); u != c.end())
      out.set("cc.params", "eta", u->second.value, u->second.at, "U_TARGET", u->second.value);
    if (const auto s = c.find("MI_THRESH"); s != c.end())
      out.set("cc.params", "max_stage", s->second.value, s->second.at, "MI_THRESH", s->second.value);
  } else {
    out.find(at, "CC_MODE", m,
             "its parameters are not mapped to rocetb's " + name->second + ": rocetb's defaults stay");
  }
}

void import_ecn(const Config& c, const Topology& t, Imported& out) {
  if (const auto q = c.find("ENABLE_QCN"); q != c.end() && q->second.value == "0") {
    out.set("switch", "aqm", quoted("none"), q->second.at, "ENABLE_QCN", "0");
    out.find(q->second.at, "ENABLE_QCN", "0", "legal but it turns ECN marking off: DCQCN gets no CNPs; written");
    return;
  }
  const struct {
    const char* map;
    const char* key;
    double scale;
  } kMaps[] = {{"KMIN_MAP", "green_min_threshold", 1000},
               {"KMAX_MAP", "green_max_threshold", 1000},
               {"PMAX_MAP", "green_drop_probability", 100}};
  for (const auto& m : kMaps) {
    const auto e = c.find(m.map);
    if (e == c.end()) continue;
    const auto v = at_rate(e->second.value, t.rate_bps);
    if (!v) continue;
    const double x = *v * m.scale;
    const std::string value = m.scale == 100 ? fmt::format("{:.0f}", x) : quoted(fmt::format("{:.0f}B", x));
    out.set("switch.wred_profile", m.key, value, e->second.at, m.map, e->second.value);
  }
}

void import_buffer(const Config& c, Imported& out) {
  if (const auto b = c.find("BUFFER_SIZE"); b != c.end()) {
    out.set("switch.buffer_pool", "size", quoted(b->second.value + "MiB"), b->second.at, "BUFFER_SIZE",
            b->second.value);
  }
  if (const auto d = c.find("USE_DYNAMIC_PFC_THRESHOLD"); d != c.end() && d->second.value == "1") {
    out.set("switch.pg_lossless", "dynamic_th", "-3", d->second.at, "USE_DYNAMIC_PFC_THRESHOLD (free/8)", "1");
  }
  if (const auto s = c.find("SIMULATOR_STOP_TIME"); s != c.end()) {
    out.set("run", "duration", quoted(fmt::format("{}us", std::llround(std::stod(s->second.value) * 1e6))),
            s->second.at, "SIMULATOR_STOP_TIME (s)", s->second.value);
  }
}

void import_topology(const Topology& t, Imported& out) {
  if (t.rate_bps <= 0) return;
  out.set("topology", "rate", quoted(fmt::format("{:.0f}bps", t.rate_bps)), t.at, "link rate",
          fmt::format("{:.0f}", t.rate_bps));
  if (t.delay.ends_with("ms")) {
    const double us = std::stod(t.delay) * 1000;
    out.set("topology", "delay", quoted(fmt::format("{}ns", std::llround(us * 1000))), t.at, "link delay", t.delay);
  }
  if (t.hosts >= 2)
    out.set("topology", "hosts", std::to_string(t.hosts), t.at, "nodes - 1 switch", std::to_string(t.hosts));
}

}  // namespace

Status import_hpcc_config(const std::string& path, const std::string& text, Imported& out) {
  Config c;
  const std::vector<std::string> lines = split_lines(text);
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::vector<std::string> w = words(lines[i]);
    if (w.size() < 2) continue;
    const std::string rest = trim(lines[i].substr(lines[i].find(w[0]) + w[0].size()));
    c[w[0]] = Line{rest, Origin{path, static_cast<uint32_t>(i + 1)}};
  }
  if (!c.contains("CC_MODE"))
    return Error{fmt::format("{}: no CC_MODE in it: expected the HPCC simulator's config.txt", path)};
  const Topology t = read_topology(path, c);
  import_topology(t, out);
  import_mode(c, out);
  import_ecn(c, t, out);
  import_buffer(c, out);
  return {};
}

}  // namespace rtb::params
