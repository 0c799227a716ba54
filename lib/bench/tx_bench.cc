#include "bench/tx_bench.h"

#include <rte_mbuf.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "cc_algos/controller.h"
#include "ethport/eth_bridge.h"
#include "ethport/eth_port.h"
#include "host/host.h"
#include "realtime/lateness.h"
#include "realtime/realtime_scheduler.h"
#include "realtime/tsc_clock.h"
#include "runtime/pool/mbuf_pool_set.h"
#include "runtime/wire_link.h"
#include "bench/bench_eal.h"
#include "bench/tx_rig.h"
#include "wire/payload_pattern.h"

namespace rtb::bench {
namespace {

// The run is invalid when an lcore's thread did not run for over 1% of it (another
// process, the kernel: RealtimeScheduler::set_stall_rule).
constexpr double kMaxStalledFraction = 0.01;

uint32_t qps_of(const TxOptions& o, size_t host) {
  const auto n = static_cast<uint32_t>(o.lcores.size());
  return o.qps / n + (host < o.qps % n ? 1 : 0);
}

TxRigSpec rig_spec(const TxOptions& o, size_t host, uint32_t run) {
  TxRigSpec r;
  r.name = fmt::format("host{}", host);
  r.device = fmt::format("net_null_tx{}_{}", run, host);
  r.pools = fmt::format("tx{}_{}", run, host);
  r.qps = qps_of(o, host);
  r.first_qpn = 0x100 + static_cast<uint32_t>(host) * (o.qps + 1);
  r.payload = o.payload;
  r.rate = o.rate;
  r.duration = o.duration;
  r.warmup = o.warmup;
  return r;
}

nlohmann::ordered_json config_json(const TxOptions& o) {
  return {{"qps", o.qps}, {"payload_bytes", o.payload}, {"cc", o.cc}, {"burst", o.burst},
          {"catch_up_ns", o.catch_up.ps() / 1000}, {"lcores", o.lcores},
          {"seconds", o.duration.s_f()}, {"warmup_seconds", o.warmup.s_f()}, {"rate_gbps", o.rate.bps() / 1e9}};
}

void add_figures(BenchReport& r, const TxOptions& o, const std::vector<std::unique_ptr<TxRig>>& rigs,
                 const realtime::RealtimeStats& st, uint64_t rss_growth) {
  // After the warm-up: each rig's frames since its mark, over the time and the CPU time
  // its lcore spent since (scenario time is wall time at dilation 1).
  uint64_t frames = 0, bytes = 0;
  double cpu = 0, span = 0;
  nlohmann::ordered_json hosts = nlohmann::ordered_json::array();
  for (size_t h = 0; h < rigs.size(); ++h) {
    const ethport::BridgeCounters& b = rigs[h]->bridge().counters();
    const WarmupMark& m = rigs[h]->warmup_mark();
    const realtime::LcoreStats& l = st.lcores[h];  // one rig per lcore, in lcore order
    frames += b.tx_frames - m.tx_frames;
    bytes += b.tx_bytes - m.tx_bytes;
    cpu += l.cpu_clock_at_end - m.cpu_seconds;
    span = std::max(span, (l.ended - m.at).s_f());
    hosts.push_back(rigs[h]->to_json(st.wall_seconds));
  }
  const auto n = static_cast<double>(frames);
  r.add("frames_per_s", span > 0 ? n / span : 0, "frames/s after the warm-up");
  r.add("frames_per_cpu_s", cpu > 0 ? n * static_cast<double>(rigs.size()) / cpu : 0,
        "frames/s of CPU time the lcores got (frames x lcores / their CPU seconds)");
  r.add("gbps", span > 0 ? static_cast<double>(bytes) * 8 / span / 1e9 : 0, "Gb/s (frames without FCS)");
  r.add("cpu_ns_per_frame", frames ? cpu * 1e9 / n : 0, "ns of lcore CPU time per frame");
  r.add("frame_bytes", frames ? static_cast<double>(bytes) / n : 0, "B (without FCS)");
  r.add("frames", n, "frames after the warm-up");
  r.add("measured_seconds", span, "s after the warm-up");
  r.add("memory_per_qp_bytes", static_cast<double>(rss_growth) / o.qps, "B (resident growth from before the hosts / QPs: a host's fixed tables included)");
  r.details["hosts"] = std::move(hosts);
  r.details["realtime"] = st.to_json();
}

// Nothing acknowledges in bench tx, so a QP whose algorithm sets a window stops for good
// when the window fills, and the figures would time an idle lcore: the run says so.
std::string window_held(const TxOptions& o, const std::vector<std::unique_ptr<TxRig>>& rigs) {
  uint32_t held = 0;
  for (const auto& rig : rigs) held += rig->window_held_qps();
  if (held == 0) return {};
  return fmt::format(
      "{} of the {} QPs ended with their congestion window full ({} limits a QP by a window, and "
      "bench tx has no receiver whose ACKs open it): the figures count only what the windows "
      "let out; time a window-based algorithm in a closed loop: rocetb bench loop SCENARIO --set "
      "cc.algorithm={}",
      held, o.qps, o.cc, o.cc);
}

// QPs start during the warm-up, and the figures count from each lcore's first poll past it
// to its last poll. An lcore still starting its QPs (10^5 QPs can take it milliseconds,
// 10^6 a fraction of a second) polls the warm-up's end late, or spends the rest of the run
// in one poll, and its figures would time a sliver of what --seconds asked for. Covering
// less than 90% of it makes the run invalid, saying why.
std::string short_cover(const TxOptions& o, const std::vector<std::unique_ptr<TxRig>>& rigs,
                        const realtime::RealtimeStats& st) {
  const Time planned = o.duration - o.warmup;
  for (size_t h = 0; h < rigs.size(); ++h) {
    const Time first = rigs[h]->warmup_mark().at;
    const Time last = std::max(st.lcores[h].ended, first);
    if ((last - first) * 10 >= planned * 9) continue;
    return fmt::format(
        "the figures of lcore {} cover {} of the {} after the warm-up: it polled the warm-up's end {} "
        "late and last polled {} before the run's end (still starting its {} QPs, or not given the "
        "CPU); use a longer --warmup",
        o.lcores[h], realtime::format_span(last - first), realtime::format_span(planned),
        realtime::format_span(first - o.warmup),
        realtime::format_span(o.duration > last ? o.duration - last : Time::zero()), qps_of(o, h));
  }
  return {};
}

// One more reason a run is invalid, after those it has.
void invalidate(BenchReport& r, const std::string& why) {
  if (why.empty()) return;
  r.reason = r.valid ? why : why + "; and " + r.reason;
  r.valid = false;
}

}  // namespace

Status check_tx(const TxOptions& o) {
  if (o.warmup >= o.duration) {
    return Error{fmt::format("--warmup {} ms: expected less than --seconds ({} ms)", o.warmup.ps() / 1'000'000'000,
                             o.duration.ps() / 1'000'000'000)};
  }
  if (o.qps == 0 || o.qps > 10'000'000) return Error{fmt::format("--qps {}: expected 1 .. 10^7", o.qps)};
  if (o.qps < o.lcores.size()) {
    return Error{fmt::format("--qps {}: expected at least one QP per lcore ({} lcores)", o.qps, o.lcores.size())};
  }
  for (size_t h = 0; h < o.lcores.size(); ++h) {
    if (Status s = check_rig(rig_spec(o, h, 0)); !s) return s;
  }
  return {};
}

uint64_t tx_pool_bytes(const TxOptions& o) {
  return o.lcores.size() * rig_pool_sizes(o.payload).memory_bytes();
}

Expected<BenchReport> run_tx(const TxOptions& o, cc::Registry& registry) {
  static uint32_t runs = 0;  // device and pool names are unique in the process
  const uint32_t run = runs++;
  if (Status s = check_tx(o); !s) return Error{s.message()};
  auto algorithm = registry.resolve(o.cc);
  if (!algorithm) return Error{"--cc: " + algorithm.error().message};
  auto cc = cc::configure(algorithm.value(), {});
  if (!cc) return Error{"--cc: " + cc.error().message};

  BenchReport report;
  report.mode = "tx";
  report.config = config_json(o);
  std::vector<std::unique_ptr<TxRig>> rigs;
  for (size_t h = 0; h < o.lcores.size(); ++h) {
    auto rig = TxRig::create(rig_spec(o, h, run));
    if (!rig) return Error{rig.error().message};
    rigs.push_back(std::move(rig).value());
  }
  const uint64_t rss_before = resident_bytes();  // pools and ports built: what follows is the QPs'
  for (auto& rig : rigs) {
    if (Status s = rig->build_host(cc.value()); !s) return Error{s.message()};
  }
  realtime::TscClock clock = realtime::TscClock::calibrate();
  realtime::RealtimeScheduler scheduler;
  for (size_t h = 0; h < rigs.size(); ++h) rigs[h]->place(scheduler, o.lcores[h]);
  scheduler.set_stall_rule(kMaxStalledFraction);
  scheduler.set_catch_up({.window = o.catch_up, .max_polls = o.burst});
  auto st = scheduler.run(clock, o.duration, Time::never(), "");
  if (!st) return Error{st.error().message};
  const uint64_t rss_after = resident_bytes();
  for (size_t h = 0; h < rigs.size(); ++h) {
    if (!rigs[h]->warmup_mark().at.is_never()) continue;
    return Error{fmt::format(
        "the run ended before its warm-up did: lcore {} was still starting its {} QPs at --seconds {}; "
        "use a longer --warmup and --seconds",
        o.lcores[h], qps_of(o, h), realtime::format_span(o.duration))};
  }
  add_figures(report, o, rigs, st.value(), rss_after > rss_before ? rss_after - rss_before : 0);
  report.valid = st->lateness.valid;
  report.reason = st->lateness.reason;
  invalidate(report, short_cover(o, rigs, st.value()));
  invalidate(report, window_held(o, rigs));
  for (auto& rig : rigs) {
    if (Status s = rig->finish(); !s) return Error{s.message()};
  }
  return report;
}

}  // namespace rtb::bench
