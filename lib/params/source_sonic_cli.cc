// A file of SONiC CLI commands (sonic-utilities: config/main.py, scripts/ecnconfig,
// pfcwd/main.py), one per line:
//   ecnconfig -p AZURE_LOSSLESS -gmin 1048576 -gmax 2097152 -gdrop 5    (bytes, percent)
//   ecnconfig -q 3 on
//   config buffer profile add pg_lossless_100G --xon 18432 --xoff 45056 --size 45056 --dynamic_th -1
//   config interface pfc priority Ethernet0 3 on
//   config pfcwd start --action drop --restoration-time 400 Ethernet0 200     (ms)
//   config pfcwd interval 200
//   config qos reload
#include <fmt/format.h>

#include <charconv>
#include <map>
#include <set>

#include "params/source_text.h"
#include "params/sources.h"
#include "params/threshold_units.h"

namespace rtb::params {
namespace {

struct Command {
  std::vector<std::string> w;  // words, without sudo
  Origin at;
  std::string text;
  // The value after option `name` (any of its spellings), or "".
  std::string option(std::initializer_list<const char*> names) const {
    for (size_t i = 0; i + 1 < w.size(); ++i) {
      for (const char* n : names) {
        if (w[i] == n) return w[i + 1];
      }
    }
    return "";
  }
};

std::optional<uint64_t> whole(const std::string& s) {
  uint64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

struct State {
  std::set<int> pfc_on;
  Origin pfc_at;
  std::set<int> ecn_queues;
  Origin ecn_at;
};

void bytes_key(const Command& c, const std::string& opt, const std::string& value, const std::string& table,
               const std::string& name, Imported& out, bool ecn) {
  const auto b = whole(value);
  if (!b) {
    out.find(c.at, opt, value, "expected a whole number of bytes: not imported");
    return;
  }
  if (ecn) {
    uint64_t buffer = 0;
    if (const Key* size = out.get("switch.buffer_pool", "size")) buffer = std::stoull(size->value.substr(1));
    check_threshold_unit(out, c.at, opt, *b, buffer);
  }
  out.set(table, name, quoted(value + "B"), c.at, opt, value);
}

void ecnconfig(const Command& c, State& s, Imported& out) {
  if (const std::string q = c.option({"-q", "--queue"}); !q.empty()) {
    const std::string onoff = c.w.back();
    const auto queue = whole(q);
    if (!queue || *queue > 7) return out.find(c.at, "ecnconfig -q", q, "expected a queue 0..7: not imported");
    if (onoff == "off") {
      out.find(
          c.at, "ecnconfig -q " + q, "off",
          "legal but it turns ECN marking off on queue " + q + ": its senders get no CNPs (WRED only drops); written");
    } else {
      s.ecn_queues.insert(static_cast<int>(*queue));
      s.ecn_at = c.at;
    }
    return;
  }
  struct Threshold {
    const char* short_name;
    const char* long_name;
    const char* key;
  };
  for (const Threshold& t : {Threshold{"-gmin", "--green-min", "green_min_threshold"},
                             Threshold{"-gmax", "--green-max", "green_max_threshold"}}) {
    if (const std::string v = c.option({t.short_name, t.long_name}); !v.empty()) {
      bytes_key(c, std::string("ecnconfig ") + t.short_name, v, "switch.wred_profile", t.key, out, true);
    }
  }
  if (const std::string d = c.option({"-gdrop", "--green-drop-prob"}); !d.empty()) {
    const auto p = whole(d);
    if (!p || *p > 100) {
      out.find(c.at, "ecnconfig -gdrop", d, "expected a percentage 0..100: not imported");
    } else {
      out.set("switch.wred_profile", "green_drop_probability", d, c.at, "ecnconfig -gdrop", d);
    }
  }
  for (const char* o : {"-ymin", "-ymax", "-rmin", "-rmax", "-ydrop", "-rdrop"}) {
    if (const std::string v = c.option({o}); !v.empty()) {
      out.find(c.at, std::string("ecnconfig ") + o, v, "rocetb colours every frame green: not imported");
    }
  }
}

void buffer_profile(const Command& c, Imported& out) {
  if (c.w.size() < 5) return out.find(c.at, "config buffer profile", c.text, "expected add|set NAME --OPTION VALUE...");
  const std::string& name = c.w[4];
  const bool lossless = !c.option({"--xoff"}).empty() || name.find("lossless") != std::string::npos;
  const std::string table = lossless                                   ? "switch.pg_lossless"
                            : name.find("egress") != std::string::npos ? "switch.egress_lossy"
                                                                       : "switch.pg_lossy";
  for (const char* f : {"size", "xoff", "static_th"}) {
    const std::string v = c.option({(std::string("--") + f).c_str()});
    if (v.empty()) continue;
    if (!lossless && std::string(f) == "xoff") continue;
    bytes_key(c, fmt::format("config buffer profile {} --{}", name, f), v, table, f, out, false);
  }
  if (const std::string d = c.option({"--dynamic_th"}); !d.empty()) {
    out.set(table, "dynamic_th", d, c.at, "config buffer profile " + name + " --dynamic_th", d);
  }
  if (const std::string x = c.option({"--xon"}); !x.empty()) {
    out.find(c.at, "config buffer profile " + name + " --xon", x,
             "rocetb resumes a PG at its XOFF point minus switch.pg_lossless.xon_offset; SONiC's xon is the XON "
             "region's size, not that offset: not imported");
  }
}

void pfc_priority(const Command& c, State& s, Imported& out) {
  // config interface pfc priority PORT PRIO on|off
  if (c.w.size() < 7) return out.find(c.at, "config interface pfc priority", c.text, "expected PORT PRIORITY on|off");
  const auto prio = whole(c.w[5]);
  if (!prio || *prio > 7)
    return out.find(c.at, "config interface pfc priority " + c.w[4], c.w[5], "expected a priority 0..7");
  if (c.w[6] == "on") s.pfc_on.insert(static_cast<int>(*prio));
  if (c.w[6] == "off") s.pfc_on.erase(static_cast<int>(*prio));
  s.pfc_at = c.at;
}

void pfcwd(const Command& c, Imported& out) {
  const size_t at = c.w[0] == "pfcwd" ? 1 : 2;
  if (c.w.size() <= at) return out.find(c.at, "pfcwd", c.text, "expected a pfcwd subcommand: not imported");
  const std::string& sub = c.w[at];
  if (sub == "interval") {
    out.set("switch.pfcwd", "poll_interval", quoted(c.w.back() + "ms"), c.at, "pfcwd interval", c.w.back());
  } else if (sub == "start_default") {
    out.set("switch.pfcwd", "enabled", "true", c.at, "pfcwd start_default", "");
  } else if (sub == "start") {
    out.set("switch.pfcwd", "enabled", "true", c.at, "pfcwd start", c.text);
    if (const std::string a = c.option({"--action", "-a"}); !a.empty())
      out.set("switch.pfcwd", "action", quoted(a), c.at, "pfcwd start --action", a);
    if (const std::string r = c.option({"--restoration-time", "-r"}); !r.empty()) {
      out.set("switch.pfcwd", "restoration_time", quoted(r + "ms"), c.at, "pfcwd start --restoration-time", r);
    }
    if (whole(c.w.back()))
      out.set("switch.pfcwd", "detection_time", quoted(c.w.back() + "ms"), c.at, "pfcwd start DETECTION_TIME",
              c.w.back());
  } else {
    out.find(c.at, "pfcwd " + sub, c.text, "not a watchdog setting rocetb has: not imported");
  }
}

void one(const Command& c, State& s, Imported& out) {
  const auto starts = [&](std::initializer_list<const char*> p) {
    size_t i = 0;
    for (const char* x : p) {
      if (i >= c.w.size() || c.w[i++] != x) return false;
    }
    return true;
  };
  if (starts({"ecnconfig"})) return ecnconfig(c, s, out);
  if (starts({"config", "buffer", "profile"})) return buffer_profile(c, out);
  if (starts({"config", "interface", "pfc", "priority"})) return pfc_priority(c, s, out);
  if (starts({"config", "pfcwd"}) || starts({"pfcwd"})) return pfcwd(c, out);
  if (starts({"config", "qos", "reload"})) {
    return out.find(c.at, "config qos reload", c.text,
                    "loads SONiC's stock QoS templates, which the file does not show; rocetb's [switch] defaults are "
                    "the tuning guide's lossless settings, not that template: nothing imported");
  }
  out.find(c.at, c.w[0] + (c.w.size() > 1 ? " " + c.w[1] : ""), c.text,
           "not a command the importer reads: not imported");
}

}  // namespace

Status import_sonic_commands(const std::string& path, const std::string& text, Imported& out) {
  State s;
  uint32_t commands = 0;
  const std::vector<std::string> lines = split_lines(text);
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string line = trim(lines[i].substr(0, lines[i].find('#')));
    Command c{words(line), Origin{path, static_cast<uint32_t>(i + 1)}, line};
    if (!c.w.empty() && c.w[0] == "sudo") c.w.erase(c.w.begin());
    if (c.w.empty() || (c.w[0] != "config" && c.w[0] != "ecnconfig" && c.w[0] != "pfcwd")) continue;
    ++commands;
    one(c, s, out);
  }
  if (commands == 0)
    return Error{fmt::format(
        "{}: no SONiC commands in it: expected lines such as 'ecnconfig -p AZURE_LOSSLESS -gmin 1048576'", path)};
  const auto list = [](const std::set<int>& v) {
    std::string t;
    for (int x : v) t += fmt::format("{}{}", t.empty() ? "" : ", ", x);
    return "[" + t + "]";
  };
  if (s.pfc_at.line > 0 && !s.pfc_at.file.empty())
    out.set("switch", "pfc_enable", list(s.pfc_on), s.pfc_at, "config interface pfc priority", list(s.pfc_on));
  if (!s.ecn_queues.empty())
    out.set("switch", "wred_queues", list(s.ecn_queues), s.ecn_at, "ecnconfig -q ... on", list(s.ecn_queues));
  return {};
}

}  // namespace rtb::params
