// rocetb run --capture (lib/tap): which links a WHAT names, and whole runs captured in
// virtual time and in realtime, read back by tshark (nobody here wrote it) and compared with
// the run's own counters: the switch's PFC, ECN and frame counters, the hosts' CNPs, and
// each link's count of frames started.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "cc_algos/registry.h"
#include "scenario/load.h"
#include "tap/capture_plan.h"
#include "results/summary_json.h"
#include "testbed/run.h"

namespace rtb::testbed {
namespace {

using nlohmann::ordered_json;

std::string source_root() {
  const char* r = std::getenv("ROCETB_SOURCE_ROOT");
  return r != nullptr ? r : ".";
}

scenario::Scenario load(std::vector<std::string> sets, const std::string& file = "default.toml") {
  auto s = scenario::load_scenario(source_root() + "/scenarios/" + file, sets);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);
  return std::move(s).value();
}

std::string fresh_dir(const std::string& name) {
  const auto d = std::filesystem::temp_directory_path() / ("rocetb-capture-" + name);
  std::filesystem::remove_all(d);
  return d.string();
}

// The default 8:1 incast for 300 us: data, ACKs, CNPs, ECN marks and PFC frames all occur.
const std::vector<std::string> kShort = {"run.duration=300us", "run.warmup=0us"};

RunReport run_captured(const tap::CaptureRequest& request, std::vector<std::string> sets = kShort,
                       const std::string& file = "default.toml") {
  const scenario::Scenario s = load(sets, file);
  cc::Registry registry = cc::Registry::with_builtins();
  auto r = s.run.clock == scenario::Clock::kRealtime ? run_realtime(s, registry, "run_capture_test", request)
                                                     : run_virtual(s, registry, "run_capture_test", request);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return std::move(r).value();
}

// tshark's fields, one line per frame, tab-separated.
std::vector<std::vector<std::string>> tshark(const std::string& file, const std::string& fields) {
  const std::string cmd = "tshark -r '" + file + "' -d udp.port==4791,infiniband -T fields " + fields +
                          " 2>/dev/null";
  std::vector<std::vector<std::string>> rows;
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return rows;
  char line[4096];
  while (fgets(line, sizeof line, p) != nullptr) {
    std::vector<std::string> row;
    std::string cell;
    for (const char* c = line; *c != '\0' && *c != '\n'; ++c) {
      if (*c == '\t') {
        row.push_back(cell);
        cell.clear();
      } else {
        cell += *c;
      }
    }
    row.push_back(cell);
    rows.push_back(row);
  }
  pclose(p);
  return rows;
}

// Per interface name: frames of each kind tshark sees.
struct Kinds {
  uint64_t total = 0, data = 0, ack = 0, nak = 0, cnp = 0, pfc = 0, ce = 0;
};

std::map<std::string, Kinds> count_kinds(const std::string& file) {
  // BTH opcode; AETH syndrome (0 = ACK, 0x60.. = NAK); IP ECN; MAC control opcode (0x0101 PFC)
  std::map<std::string, Kinds> out;
  for (const auto& r : tshark(file, "-e frame.interface_name -e infiniband.bth.opcode -e infiniband.aeth.syndrome "
                                    "-e ip.dsfield.ecn -e macc.opcode")) {
    Kinds& k = out[r.at(0)];
    ++k.total;
    const std::string& op = r.at(1);
    if (r.at(4) == "0x0101") ++k.pfc;
    if (r.at(3) == "3") ++k.ce;
    if (op == "129") {
      ++k.cnp;
    } else if (op == "17") {
      const int syndrome = r.at(2).empty() ? 0 : std::stoi(r.at(2), nullptr, 0);
      ++(syndrome >> 5 == 3 ? k.nak : k.ack);  // AETH bits 6:5 = 11: NAK (IBTA 9.7.5.1.1)
    } else if (!op.empty()) {
      ++k.data;
    }
  }
  return out;
}

uint64_t sum(const ordered_json& a) {
  uint64_t n = 0;
  for (const auto& v : a) n += v.get<uint64_t>();
  return n;
}

const ordered_json& file_entry(const RunReport& r, const std::string& what) {
  for (const auto& f : r.run["captures"]["files"]) {
    if (f["what"] == what) return f;
  }
  static const ordered_json none;
  ADD_FAILURE() << "no capture file for " << what;
  return none;
}

TEST(CapturePlan, NamesResolveToBothDirectionsOfTheirLinks) {
  const scenario::Scenario s = load({});
  const auto& topo = s.topology;  // h0..h8 on sw0 ports Ethernet0, 4, ... 32
  auto p = tap::plan_captures(topo, {"all", "h0", "sw0", "h1-sw0", "sw0-h2", "sw0:Ethernet32",
                                     "h3-sw0:Ethernet12"}, "--capture");
  ASSERT_TRUE(p.ok()) << p.error().message;
  const auto& plans = p.value();
  EXPECT_EQ(plans[0].directions.size(), 2 * topo.links.size());
  EXPECT_EQ(plans[0].file_name, "capture-all.pcapng");
  ASSERT_EQ(plans[1].directions.size(), 2u);
  EXPECT_EQ(tap::direction_name(topo, plans[1].directions[0]), "h0->sw0:Ethernet0");
  EXPECT_EQ(tap::direction_name(topo, plans[1].directions[1]), "sw0:Ethernet0->h0");
  EXPECT_EQ(plans[2].directions.size(), 18u);
  EXPECT_EQ(tap::direction_name(topo, plans[3].directions[0]), "h1->sw0:Ethernet4");
  EXPECT_EQ(tap::direction_name(topo, plans[4].directions[0]), "h2->sw0:Ethernet8");
  EXPECT_EQ(tap::direction_name(topo, plans[5].directions[1]), "sw0:Ethernet32->h8");
  EXPECT_EQ(plans[5].file_name, "capture-sw0_Ethernet32.pcapng");
  EXPECT_EQ(tap::direction_name(topo, plans[6].directions[0]), "h3->sw0:Ethernet12");
  // hosts-tx: the direction each host sends on, once.
  auto tx = tap::plan_captures(topo, {"hosts-tx"}, "--capture");
  ASSERT_TRUE(tx.ok()) << tx.error().message;
  ASSERT_EQ(tx.value()[0].directions.size(), topo.hosts.size());
  for (size_t h = 0; h < topo.hosts.size(); ++h) {
    EXPECT_EQ(tap::direction_name(topo, tx.value()[0].directions[h]).rfind(topo.hosts[h].name + "->", 0), 0u);
  }
}

TEST(CapturePlan, BadNamesAreRefusedWithTheNearestName) {
  const scenario::Scenario s = load({});
  const auto error = [&](std::vector<std::string> what) {
    auto p = tap::plan_captures(s.topology, what, "--capture");
    return p.ok() ? std::string("accepted") : p.error().message;
  };
  EXPECT_EQ(error({"h9x"}),
            "--capture h9x: no node, link or switch port of that name (did you mean \"h0\"?); expected \"all\", \"hosts-tx\", a "
            "node (\"h0\"), a link (\"h0-sw0\") or a switch port (\"sw0:Ethernet0\")");
  EXPECT_NE(error({"sw0:Ethernet33"}).find("did you mean \"sw0:Ethernet32\""), std::string::npos);
  EXPECT_EQ(error({"h0-h1"}), "--capture h0-h1: no cable joins h0 and h1; expected a link between neighbours");
  EXPECT_EQ(error({"h0", "h0"}), "--capture h0: given twice; expected each capture once");
  EXPECT_EQ(error({"h0-sw0:Ethernet4"}),
            "--capture h0-sw0:Ethernet4: no cable joins h0 and sw0:Ethernet4; expected a link between neighbours");
}

// Every frame of the run is in the capture of all, on the interface of its direction, and
// tshark's counts of each kind equal the run's own counters.
TEST(CaptureRun, VirtualCaptureHoldsWhatTheCountersCount) {
  const std::string dir = fresh_dir("virtual");
  const RunReport r = run_captured({.what = {"all", "h0"}, .dir = dir});
  const ordered_json r_json = results::to_json(r.summary);
  const ordered_json& all = file_entry(r, "all");
  ASSERT_EQ(all["interfaces"].size(), 18u);
  const auto kinds = count_kinds(dir + "/capture-all.pcapng");
  uint64_t frames = 0;
  for (const auto& i : all["interfaces"]) {
    const std::string name = i["name"];
    EXPECT_EQ(kinds.count(name) ? kinds.at(name).total : 0, i["frames"].get<uint64_t>()) << name;
    EXPECT_EQ(i["frames"], i["link_frames"]) << name;
    frames += i["frames"].get<uint64_t>();
  }
  EXPECT_EQ(all["frames"].get<uint64_t>(), frames);
  EXPECT_EQ(all["bytes"].get<uint64_t>(), std::filesystem::file_size(dir + "/capture-all.pcapng"));

  uint64_t cnps = 0, pfcs = 0, ce = 0, data = 0, acks = 0;
  for (const auto& h : r_json["hosts"]) {
    const std::string host = h["name"];
    const std::string port = [&] {
      for (const auto& [name, k] : kinds) {
        if (name.starts_with(host + "->")) return name.substr(host.size() + 2);
      }
      return std::string();
    }();
    ASSERT_FALSE(port.empty()) << host;
    const Kinds& up = kinds.at(host + "->" + port);
    const Kinds& down = kinds.at(port + "->" + host);
    EXPECT_EQ(up.cnp, h["np_cnp_sent"].get<uint64_t>()) << host;
    EXPECT_EQ(up.pfc, h["tx_pfc_frames"].get<uint64_t>()) << host;
    EXPECT_EQ(down.pfc, sum(h["rx_pfc_frames"])) << host;
    for (const auto& p : r_json["switches"][0]["ports"]) {
      if ("sw0:" + p["name"].get<std::string>() != port) continue;
      EXPECT_EQ(down.pfc, sum(p["pfc_tx_frames"])) << port;
      EXPECT_EQ(down.ce, p["ecn_marked"].get<uint64_t>()) << port;
      EXPECT_EQ(down.total - down.pfc, p["tx_frames"].get<uint64_t>()) << port;
      EXPECT_EQ(up.total - up.pfc, p["rx_frames"].get<uint64_t>()) << port;
    }
    cnps += up.cnp;
    pfcs += down.pfc + up.pfc;
    ce += down.ce;
    data += up.data;
    acks += up.ack;
  }
  EXPECT_EQ(cnps, r_json["totals"]["cnp_sent"].get<uint64_t>());
  EXPECT_EQ(pfcs, r_json["totals"]["pfc_frames"].get<uint64_t>());
  EXPECT_GT(cnps, 0u);
  EXPECT_GT(pfcs, 0u);
  EXPECT_GT(ce, 0u);
  EXPECT_GT(data, 1000u);
  EXPECT_GT(acks, 0u);

  // The file of one node holds exactly its two directions, frame for frame as in all.
  const ordered_json& h0 = file_entry(r, "h0");
  ASSERT_EQ(h0["interfaces"].size(), 2u);
  EXPECT_EQ(h0["interfaces"][0]["name"], "h0->sw0:Ethernet0");
  EXPECT_EQ(h0["interfaces"][1]["name"], "sw0:Ethernet0->h0");
  EXPECT_EQ(h0["frames"].get<uint64_t>(),
            kinds.at("h0->sw0:Ethernet0").total + kinds.at("sw0:Ethernet0->h0").total);
}

// Go-back-N after drops: NAKs on the wire, as many as the senders counted.
TEST(CaptureRun, NaksInTheCaptureEqualTheSendersCount) {
  const std::string dir = fresh_dir("nak");
  const RunReport r = run_captured({.what = {"all"}, .dir = dir},
                                   {"run.duration=1ms", "run.warmup=0us"}, "incast16_nopfc.toml");
  const ordered_json r_json = results::to_json(r.summary);
  const auto kinds = count_kinds(dir + "/capture-all.pcapng");
  uint64_t naks_on_wire = 0, seq_err = 0;
  for (const auto& h : r_json["hosts"]) {
    seq_err += h["packet_seq_err"].get<uint64_t>();
    for (const auto& [name, k] : kinds) {
      if (name.ends_with("->" + h["name"].get<std::string>())) naks_on_wire += k.nak;
    }
  }
  EXPECT_GT(seq_err, 0u);
  EXPECT_EQ(naks_on_wire, seq_err);
}

// A frame a fault drops was on the wire: it is in the capture, with a comment saying so,
// as many as the run counts dropped by faults.
TEST(CaptureRun, FramesLostToAFaultAreCapturedWithAComment) {
  const std::string dir = fresh_dir("fault");
  const RunReport r = run_captured({.what = {"h0"}, .dir = dir},
                                   {"run.duration=100us", "run.warmup=0us", "faults=[{kind=\"drop\", "
                                    "link=[\"h0\",\"sw0\"], probability=0.05}]"});
  const ordered_json r_json = results::to_json(r.summary);
  uint64_t switch_drops = 0;
  for (const auto& p : r_json["switches"][0]["ports"]) switch_drops += p["drops"].get<uint64_t>();
  uint64_t commented = 0;
  for (const auto& row : tshark(dir + "/capture-h0.pcapng", "-e frame.comment")) {
    commented += row.at(0) == "lost on the link: dropped by a fault";
  }
  EXPECT_GT(commented, 0u);
  EXPECT_EQ(commented, r_json["totals"]["drops"].get<uint64_t>() - switch_drops);
}

// The same run twice gives the same capture bytes; capturing changes no result.
TEST(CaptureRun, VirtualCapturesAreDeterministicAndChangeNoResult) {
  const std::string a = fresh_dir("det-a"), b = fresh_dir("det-b");
  const RunReport ra = run_captured({.what = {"sw0"}, .dir = a});
  const RunReport rb = run_captured({.what = {"sw0"}, .dir = b});
  const RunReport plain = run_captured({});
  const auto bytes = [](const std::string& f) {
    std::ifstream in(f, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  EXPECT_EQ(bytes(a + "/capture-sw0.pcapng"), bytes(b + "/capture-sw0.pcapng"));
  EXPECT_EQ(results::to_json(ra.summary).dump(), results::to_json(plain.summary).dump());
  EXPECT_FALSE(plain.run.contains("captures"));
  // Timestamps: the run's picoseconds rounded to nanoseconds, from the epoch.
  const auto rows = tshark(a + "/capture-sw0.pcapng", "-e frame.time_epoch");
  ASSERT_FALSE(rows.empty());
  EXPECT_LT(std::stod(rows.back().at(0)), 300e-6 + 1e-9);
}

TEST(CaptureRun, LimitsAndSnapLengthAreHonoured) {
  const std::string dir = fresh_dir("limits");
  const RunReport frames = run_captured({.what = {"h0"}, .dir = dir, .max_frames = 100});
  const ordered_json& f = file_entry(frames, "h0");
  EXPECT_EQ(f["frames"].get<uint64_t>(), 100u);
  EXPECT_EQ(tshark(dir + "/capture-h0.pcapng", "-e frame.number").size(), 100u);
  uint64_t link = 0;
  for (const auto& i : f["interfaces"]) link += i["link_frames"].get<uint64_t>();
  EXPECT_EQ(f["frames_over_limit"].get<uint64_t>(), link - 100);

  const std::string dir2 = fresh_dir("bytes");
  const RunReport bytes = run_captured({.what = {"h0"}, .dir = dir2, .snaplen = 64, .max_bytes = 50'000});
  const uint64_t size = std::filesystem::file_size(dir2 + "/capture-h0.pcapng");
  EXPECT_LE(size, 50'000u);
  EXPECT_GT(size, 50'000u - 200);  // full: the next block would not have fitted
  EXPECT_EQ(file_entry(bytes, "h0")["bytes"].get<uint64_t>(), size);
  for (const auto& row : tshark(dir2 + "/capture-h0.pcapng", "-e frame.cap_len -e frame.len")) {
    EXPECT_LE(std::stoul(row.at(0)), 64u);
    EXPECT_GE(std::stoul(row.at(1)), std::stoul(row.at(0)));
  }
}

// Realtime: frames leave the lcores through bounded queues; every frame is written or
// counted lost, and tshark reads the file.
TEST(CaptureRun, RealtimeCaptureAccountsForEveryFrame) {
  const std::string dir = fresh_dir("realtime");
  const RunReport r = run_captured({.what = {"all"}, .dir = dir},
                                   {"run.duration=300us", "run.warmup=0us", "run.clock=\"realtime\"",
                                    "realtime.dilation=4000"});
  const ordered_json& all = file_entry(r, "all");
  ASSERT_EQ(all["interfaces"].size(), 18u);
  const auto kinds = count_kinds(dir + "/capture-all.pcapng");
  uint64_t written = 0;
  for (const auto& i : all["interfaces"]) {
    const std::string name = i["name"];
    EXPECT_EQ(i["frames"].get<uint64_t>() + i["frames_lost"].get<uint64_t>(), i["link_frames"].get<uint64_t>())
        << name;
    EXPECT_EQ(kinds.count(name) ? kinds.at(name).total : 0, i["frames"].get<uint64_t>()) << name;
    written += i["frames"].get<uint64_t>();
  }
  EXPECT_GT(written, 0u);
  EXPECT_EQ(all["frames_lost"].get<uint64_t>(), 0u);  // 8 MiB per direction at this rate
}

// A queue too small for the rate: the lcore loses frames, counts them, and goes on.
TEST(CaptureRun, RealtimeFullQueueIsACountedLoss) {
  const std::string dir = fresh_dir("realtime-lost");
  const RunReport r = run_captured({.what = {"h8"}, .dir = dir, .queue_bytes = 1},
                                   {"run.duration=300us", "run.warmup=0us", "run.clock=\"realtime\"",
                                    "realtime.dilation=50"});
  const ordered_json& f = file_entry(r, "h8");
  EXPECT_EQ(r.run["captures"]["queue_bytes"], 1);
  EXPECT_GT(f["frames_lost"].get<uint64_t>(), 0u);
  uint64_t link = 0;
  for (const auto& i : f["interfaces"]) link += i["link_frames"].get<uint64_t>();
  EXPECT_EQ(f["frames"].get<uint64_t>() + f["frames_lost"].get<uint64_t>(), link);
  EXPECT_EQ(tshark(dir + "/capture-h8.pcapng", "-e frame.number").size(), f["frames"].get<uint64_t>());
}

}  // namespace
}  // namespace rtb::testbed

namespace rtb::testbed {
namespace {

struct Cli {
  int exit_code;
  std::string out;
};

// The rocetb binary, as a user runs it.
Cli rocetb(const std::string& args) {
  const char* b = std::getenv("ROCETB_BUILD_ROOT");
  const std::string cmd = std::string(b != nullptr ? b : "build") + "/apps/rocetb " + args + " 2>&1";
  Cli r{-1, ""};
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return r;
  char buf[4096];
  while (fgets(buf, sizeof buf, p) != nullptr) r.out += buf;
  const int st = pclose(p);
  r.exit_code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

TEST(CaptureCli, BadOptionsAreRefusedInOneLine) {
  const std::string run = "run " + source_root() + "/scenarios/default.toml --out " + fresh_dir("cli") + " ";
  const std::map<std::string, std::string> cases = {
      {"--capture h99",
       "rocetb: --capture h99: no node, link or switch port of that name (did you mean \"h0\"?); expected \"all\", \"hosts-tx\", "
       "a node (\"h0\"), a link (\"h0-sw0\") or a switch port (\"sw0:Ethernet0\")\n"},
      {"--capture all --capture-snaplen 8",
       "rocetb: --capture-snaplen 8: expected a whole number of bytes from 14 (an Ethernet header) to 262144\n"},
      {"--capture all --capture-max-frames 0", "rocetb: --capture-max-frames 0: expected a whole number of frames, "
                                               "at least 1\n"},
      {"--capture all --capture-max-bytes 10",
       "rocetb: --capture-max-bytes 10: expected a size with its unit, more than 0 (64MB, 1GiB): missing unit in "
       "'10': write a size with one of B, KB, MB, GB, KiB, MiB, GiB\n"},
      {"--capture all --capture-queue 0B",
       "rocetb: --capture-queue 0B: expected a size with its unit, more than 0 (8MiB)\n"},
      {"--capture-snaplen 128", "rocetb: --capture-snaplen 128: expected with --capture (nothing is captured "
                                "without it)\n"},
  };
  for (const auto& [args, message] : cases) {
    const Cli r = rocetb(run + args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_EQ(r.out, message) << args;
  }
}

TEST(CaptureCli, RunListsItsCaptureFiles) {
  const std::string dir = fresh_dir("cli-ok");
  const Cli r = rocetb("run " + source_root() + "/scenarios/default.toml --set run.duration=100us --set "
                       "run.warmup=0us --out " + dir + " --capture sw0:Ethernet32 --capture-max-frames 50");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("capture capture-sw0_Ethernet32.pcapng: 50 frames, 2 interfaces"), std::string::npos)
      << r.out;
  std::ifstream in(dir + "/run.json");
  const auto run = nlohmann::json::parse(in);
  EXPECT_EQ(run["captures"]["files"][0]["file"], "capture-sw0_Ethernet32.pcapng");
  EXPECT_EQ(run["captures"]["max_frames"], 50);
  EXPECT_EQ(tshark(dir + "/capture-sw0_Ethernet32.pcapng", "-e frame.number").size(), 50u);
}

}  // namespace
}  // namespace rtb::testbed
