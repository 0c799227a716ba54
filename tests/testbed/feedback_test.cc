// Every feedback kind rocetb_cc.h promises, end to end: the probe plug-in (C, tests/cc/
// probe_plugin.c) runs an incast in virtual time and records what its hooks were given;
// the test compares that with the path, the switch's mark counters and the receivers.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <string>

#include "cc_algos/registry.h"
#include "runtime/pool/eal.h"
#include "runtime/pool/mbuf_pool_set.h"
#include "scenario/load.h"
#include "testbed/base_rtt.h"
#include "testbed/pool_plan.h"
#include "testbed/run.h"
#include "testbed/testbed.h"
#include "tests/testbed/test_util.h"
#include "wire/payload_pattern.h"

namespace rtb::testbed {
namespace {

using testing::source_root;

// 4:1 incast at line rate, lossless (PFC on priority 3): the switch's egress queue to the
// receiver fills into the WRED ramp and marks. 1000 full frames a flow (path MTU 1024).
constexpr uint64_t kFlowBytes = 1'024'000;
std::string incast(const std::string& plugin, const std::string& extra = "") {
  return R"(
[run]
duration = "2ms"
[topology]
kind = "single_switch"
hosts = 5
rate = "100Gbps"
[cc]
algorithm = ")" + plugin + R"("
)" + extra + R"(
[[traffic]]
pattern = "incast"
receiver = "h4"
senders = 4
bytes = "1024000B"
)";
}

// The probe's state of every sending QP, by field name, after the run; with the counters
// the test compares it against.
struct Observed {
  std::vector<std::map<std::string, double>> probe;  // per flow
  std::vector<Time> base_rtt;                        // base_rtt.h, per flow
  std::vector<host::QpCounters> sender_qp;           // per flow
  host::HostCounters receiver;
  uint64_t switch_marks = 0;
  uint64_t switch_watermark_bytes = 0;  // the deepest egress queue
  uint64_t sender_cnps_handled = 0;
  scenario::Scenario scenario;
};

Observed run(const std::string& text, std::vector<std::string> overrides = {}) {
  auto s = scenario::load_scenario_text(text, source_root() + "/scenarios/test.toml", overrides);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);
  Observed o;
  o.scenario = s.value();
  const scenario::Scenario& sc = o.scenario;
  auto sizes = pool_sizes(sc, pool_config(sc));
  EXPECT_TRUE(sizes.ok());
  if (!runtime::eal_running()) {
    runtime::EalOptions eal;
    eal.pool_bytes = 512ull << 20;
    EXPECT_TRUE(runtime::start_eal(eal).ok());
  }
  static int runs = 0;
  auto pools = runtime::PoolSet::create(sizes.value(), &wire::payload_byte,
                                        "feedback" + std::to_string(runs++), runtime::OnEmpty::kFatal);
  EXPECT_TRUE(pools.ok());
  cc::Registry registry = cc::Registry::with_builtins();
  auto algorithm = registry.resolve(sc.cc.algorithm);
  EXPECT_TRUE(algorithm.ok()) << (algorithm.ok() ? "" : algorithm.error().message);
  auto cc = cc::configure(algorithm.value(), sc.cc.params);
  EXPECT_TRUE(cc.ok()) << (cc.ok() ? "" : cc.error().message);
  {
    auto built = Testbed::build(sc, pools.value(), cc.value());
    EXPECT_TRUE(built.ok()) << (built.ok() ? "" : built.error().message);
    Testbed& t = *built.value();
    t.scheduler().run(sc.run.duration);
    for (const scenario::Flow& f : sc.flows) {
      const host::Host& src = t.host(f.src);
      const uint32_t qp = t.flow_qps(f.id).src_qp;
      const auto v = src.controller().describe_state(src.cc_state(qp), sc.run.duration);
      std::map<std::string, double> fields;
      for (size_t i = 0; i < v.count; ++i) fields[v.fields[i].name] = v.fields[i].value;
      o.probe.push_back(fields);
      o.base_rtt.push_back(base_rtt(sc.topology, f));
      o.sender_qp.push_back(src.qp(qp).counters);
      o.sender_cnps_handled += src.counters().rp_cnp_handled;
    }
    o.receiver = t.host(4).counters();
    const sw::SwitchCounters c = t.switch_at(0).counters(sc.run.duration);
    for (const sw::PortCounters& p : c.ports) {
      for (const sw::QueueCounters& q : p.queues) {
        o.switch_marks += q.ecn_marked_packets;
        o.switch_watermark_bytes = std::max(o.switch_watermark_bytes, q.watermark_bytes);
      }
    }
  }
  EXPECT_TRUE(pools.value().check_no_leaks().ok());
  return o;
}

uint64_t get(const std::map<std::string, double>& m, const char* key) {
  auto it = m.find(key);
  EXPECT_NE(it, m.end()) << key;
  return it == m.end() ? 0 : static_cast<uint64_t>(it->second);
}

TEST(Feedback, BaseRttIsThePathsPropagationPlusSerialisationBothWays) {
  const Observed o = run(incast(RTB_TEST_PROBE_PLUGIN));
  // By hand: two 100 Gb/s hops; a WRITE Middle of 1024 payload bytes is 1082 bytes, 1106 on
  // the wire (88.48 ns); an ACK is 62 bytes, 86 on the wire (6.88 ns); the ACK turnaround.
  const Time prop = o.scenario.topology.links[0].propagation;
  const Time expected = (Time::ps(88'480) + Time::ps(6'880) + prop * 2) * 2 +
                        o.scenario.topology.hosts[4].config.timings.ack_turnaround;
  ASSERT_EQ(o.probe.size(), 4u);
  for (size_t i = 0; i < o.probe.size(); ++i) {
    EXPECT_EQ(o.base_rtt[i], expected);
    EXPECT_EQ(get(o.probe[i], "base_rtt_ps"), expected.ps()) << "flow " << i;
  }
}

// One switch between sender and receiver: hop_count 1 (Swift's hop scaling).
// INT (HPCC's records): every ACK carries one hop (one switch), its records never go back
// in time or in tx bytes from one ACK to the next, and the queue they report is a queue the
// switch really held (its watermark bounds it; the 4:1 incast makes one).
TEST(Feedback, IntHopsArriveOnEveryAck) {
  const Observed o = run(incast(RTB_TEST_PROBE_INT_PLUGIN));
  ASSERT_EQ(o.probe.size(), 4u);
  uint64_t queue = 0;
  for (size_t i = 0; i < o.probe.size(); ++i) {
    EXPECT_GT(get(o.probe[i], "acks"), 900u) << "flow " << i;
    EXPECT_EQ(get(o.probe[i], "int_acks"), get(o.probe[i], "acks")) << "flow " << i;
    EXPECT_EQ(get(o.probe[i], "int_hops_min"), 1u) << "flow " << i;
    EXPECT_EQ(get(o.probe[i], "int_hops_max"), 1u) << "flow " << i;
    EXPECT_EQ(get(o.probe[i], "int_backwards"), 0u) << "flow " << i;
    queue = std::max(queue, get(o.probe[i], "int_queue_max"));
  }
  EXPECT_GT(queue, 100'000u);
  EXPECT_LE(queue, o.switch_watermark_bytes);
  EXPECT_EQ(o.receiver.np_cnp_sent, 0u);
}

TEST(Feedback, HopCountIsTheSwitchesOnThePath) {
  const Observed o = run(incast(RTB_TEST_PROBE_PLUGIN));
  ASSERT_EQ(o.probe.size(), 4u);
  for (size_t i = 0; i < o.probe.size(); ++i) EXPECT_EQ(get(o.probe[i], "hop_count"), 1u) << "flow " << i;
}

// In a leaf-spine, a flow within a leaf crosses one switch, a flow between leaves three.
TEST(Feedback, HopCountCountsLeafSpineAndLeafAgain) {
  auto s = scenario::load_scenario(source_root() + "/scenarios/alltoall_leafspine.toml");
  ASSERT_TRUE(s.ok()) << s.error().message;
  size_t same_leaf = 0, other_leaf = 0;
  for (const scenario::Flow& f : s->flows) {
    const uint32_t hops = base_path(s->topology, f).switches;
    const bool same = f.src / 4 == f.dst / 4;  // 4 hosts per leaf, in order
    EXPECT_EQ(hops, same ? 1u : 3u) << f.src << " -> " << f.dst;
    (same ? same_leaf : other_leaf)++;
  }
  EXPECT_GT(same_leaf, 0u);
  EXPECT_GT(other_leaf, 0u);
}

TEST(Feedback, FlowIdsAreUniqueAndAreTheScenarioFlowIndex) {
  const Observed o = run(incast(RTB_TEST_PROBE_PLUGIN));
  for (size_t i = 0; i < o.probe.size(); ++i) EXPECT_EQ(get(o.probe[i], "flow_id"), i);
}

// At line rate the full queue makes the switch pause the receiver too (its ACKs share
// priority 3), and the samples then include that pause. At 4 x 30 Gb/s the queue grows at
// 20 Gb/s into the marking ramp but stays below the PFC point, so the bound is tight.
TEST(Feedback, RttSamplesOnEveryAckWithinThePathsBounds) {
  const Observed o = run(incast(RTB_TEST_PROBE_PLUGIN, "[cc.params]\nrate_mbps = 30000\n"));
  ASSERT_EQ(o.receiver.rx_pfc_frames[3], 0u);  // nothing held the ACKs back
  // Upper bound: the base RTT plus the deepest queue the switch held, drained at line rate
  // (the watermark counts 1082-byte frames, each 1106 bytes on the wire), plus 100 ns for
  // the ACK waiting behind another ACK or CNP at the receiver.
  const Rate line = Rate::gbps(100);
  const Bytes queue_on_wire(o.switch_watermark_bytes * 1106 / 1082 + 1106);
  for (size_t i = 0; i < o.probe.size(); ++i) {
    const auto& p = o.probe[i];
    const Time base = o.base_rtt[i];
    const Time upper = base + line.time_for(queue_on_wire) + Time::ns(100);
    EXPECT_EQ(get(p, "acked_bytes"), kFlowBytes) << "flow " << i;
    EXPECT_EQ(get(p, "rtt_samples"), get(p, "acks")) << "flow " << i;  // no loss: every ACK
    EXPECT_EQ(get(p, "rtt_samples"), 1000u) << "flow " << i;
    EXPECT_GE(get(p, "rtt_min_ps"), base.ps()) << "flow " << i;
    EXPECT_LE(get(p, "rtt_max_ps"), upper.ps()) << "flow " << i;
    EXPECT_GT(get(p, "rtt_max_ps"), get(p, "rtt_min_ps") + 10'000'000) << "queueing seen";
  }
}

TEST(Feedback, EcnEchoesAreExactlyTheMarkedData) {
  const Observed o = run(incast(RTB_TEST_PROBE_PLUGIN));
  uint64_t echoes = 0, becn = 0;
  for (size_t i = 0; i < o.probe.size(); ++i) {
    echoes += get(o.probe[i], "ecn_echoes");
    becn += o.sender_qp[i].becn_received;
  }
  EXPECT_GT(o.switch_marks, 100u);
  EXPECT_EQ(o.receiver.np_ecn_marked_roce_packets, o.switch_marks);  // ACKs were never marked
  EXPECT_EQ(echoes, o.switch_marks);
  EXPECT_EQ(becn, o.switch_marks);
}

TEST(Feedback, CnpsReachAnAlgorithmThatAskedForThem) {
  const Observed o = run(incast(RTB_TEST_PROBE_PLUGIN));
  uint64_t cnps = 0;
  for (const auto& p : o.probe) cnps += get(p, "cnps");
  EXPECT_GT(o.receiver.np_cnp_sent, 0u);
  EXPECT_EQ(cnps, o.sender_cnps_handled);
  EXPECT_EQ(cnps, o.receiver.np_cnp_sent);
}

// The receiver decides per connection from the sender's algorithm: no CNP is put on the
// wire for an algorithm without CNP feedback; the marks still come back as BECN.
TEST(Feedback, NoCnpsForAnAlgorithmThatAskedForNone) {
  const Observed o = run(incast(RTB_TEST_PROBE_NOCNP_PLUGIN));
  EXPECT_EQ(o.receiver.np_cnp_sent, 0u);
  EXPECT_EQ(o.sender_cnps_handled, 0u);
  uint64_t echoes = 0;
  for (const auto& p : o.probe) echoes += get(p, "ecn_echoes");
  EXPECT_GT(o.switch_marks, 100u);
  EXPECT_EQ(echoes, o.switch_marks);
}

// Lossy (PFC off, a 200 KB buffer): drops, NAKs and go-back-N. The bytes the algorithm is
// told were acknowledged add up to the flow's size exactly, however much was resent.
TEST(Feedback, AckedBytesAfterNaksAreTheBytesDelivered) {
  const Observed o = run(incast(RTB_TEST_PROBE_PLUGIN, R"(
[host]
local_ack_timeout = 6
[switch]
pfc_enable = []
[switch.buffer_pool]
size = "200KB"
xoff = "0B"
lossy_size = "0B"
)"), {"run.duration=\"20ms\""});
  uint64_t naks = 0, resent = 0;
  for (size_t i = 0; i < o.probe.size(); ++i) {
    naks += get(o.probe[i], "naks");
    resent += o.sender_qp[i].retransmitted_bytes;
    EXPECT_EQ(get(o.probe[i], "acked_bytes"), kFlowBytes) << "flow " << i;
    EXPECT_EQ(o.sender_qp[i].payload_bytes_sent, kFlowBytes);
  }
  EXPECT_GT(naks, 0u);
  EXPECT_GT(resent, kFlowBytes / 10);  // go-back-N resent a good part of the windows
}

// A decision that breaks the contract stops the run, naming the plug-in and the hook.
TEST(FeedbackDeathTest, ContractBreachesStopTheRunNamingThePluginAndHook) {
  const std::string named = "congestion-control algorithm 'probe' \\(plug-in [^)]*rtb_cc_probe\\.so\\) "
                            "broke its contract in on_ack at now_ps [0-9]+: ";
  const std::map<std::string, std::string> cases{
      {"zero_rate", "rate_bps 0; expected 1\\.\\.100000000000"},
      {"above_line", "rate_bps 100000000001 is above the port's line rate"},
      {"nan", "rate_bps 9223372036854775808 is above the port's line rate"},
      {"deadline_now", "next_deadline_ps [0-9]+ is not after now_ps [0-9]+"}};
  for (const auto& [breach, message] : cases) {
    const std::string extra = "[cc.params]\nbreach = \"" + breach + "\"\n";
    EXPECT_EXIT((void)run(incast(RTB_TEST_PROBE_PLUGIN, extra)),
                ::testing::ExitedWithCode(EXIT_FAILURE), named + message)
        << breach;
  }
}

}  // namespace
}  // namespace rtb::testbed
