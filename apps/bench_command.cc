// rocetb bench MODE [options] [--json]
//
// The software itself at speed (lib/bench/README.md): `tx` host TX stages into net_null,
// `rx` a preloaded source into a host's receive path, `switch` a preloaded source through
// one switch stage, `loop` a scenario's closed loop in realtime, `sim` the virtual-time
// speed of a scenario. Each mode prints a table, or with --json one
// JSON object. Options it cannot honour are refused before the EAL starts (exit 2, as every
// bad input); a run that fails, or whose pool did not get every mbuf back, exits 1.
#include <fmt/format.h>

#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "apps/commands.h"
#include "bench/bench_eal.h"
#include "bench/loop_bench.h"
#include "bench/rx_bench.h"
#include "bench/sim_bench.h"
#include "bench/switch_bench.h"
#include "bench/tx_bench.h"
#include "cc_algos/registry.h"
#include "core/units_parse.h"
#include "runtime/pool/eal.h"

namespace rtb::apps {
namespace {

struct BenchArgs {
  bool json = false;
  std::string duration = "1s";
  std::string rate = "400Gbps";
  std::string catch_up = "5us";
  std::string lcores = "0";
  std::string warmup = "200ms";
  std::string loop_catch_up;
  bench::TxOptions tx;
  bench::SimOptions sim;
  bench::LoopOptions loop;
  bench::SwitchOptions sw;
  bench::RxOptions rx;
};

// A bad option, refused in one line before anything starts.
int refuse(const std::string& message) {
  print_error("rocetb bench", message);
  return 2;
}

int print(const Expected<bench::BenchReport>& r, bool json) {
  if (!r) {
    print_error("rocetb bench", r.error().message);
    return 1;
  }
  if (json) {
    std::cout << r->to_json().dump(2) << "\n";
  } else {
    std::cout << r->table();
  }
  return 0;
}

// "0,1" or "0-3" or "1": the lcores, in order.
Expected<std::vector<unsigned>> parse_lcores(const std::string& text) {
  std::vector<unsigned> out;
  size_t i = 0;
  while (i < text.size()) {
    size_t end = text.find(',', i);
    if (end == std::string::npos) end = text.size();
    const std::string part = text.substr(i, end - i);
    unsigned a = 0, b = 0;
    char dash = 0;
    const int n = std::sscanf(part.c_str(), "%u%c%u", &a, &dash, &b);
    if (n == 1) {
      out.push_back(a);
    } else if (n == 3 && dash == '-' && a <= b && b - a < 1024) {
      for (unsigned l = a; l <= b; ++l) out.push_back(l);
    } else {
      return Error{fmt::format("--lcores \"{}\": expected lcore numbers such as 0,1 or 0-3", text)};
    }
    i = end + 1;
  }
  if (out.empty()) return Error{"--lcores is empty: expected lcore numbers such as 0,1 or 0-3"};
  return out;
}

// The options every realtime mode shares, parsed once; the error names the option.
struct Common {
  Time duration, warmup, catch_up;
  Rate rate;
  std::vector<unsigned> lcores;
};

template <typename T>
Status take(const char* option, Expected<T> parsed, T& out) {
  if (!parsed) return Error{std::string(option) + ": " + parsed.error().message};
  out = parsed.value();
  return {};
}

Expected<Common> parse_common(const BenchArgs& a) {
  Common c;
  for (Status s : {take("--seconds", parse_time(a.duration), c.duration),
                   take("--warmup", parse_time(a.warmup), c.warmup),
                   take("--catch-up", parse_time(a.catch_up), c.catch_up),
                   take("--rate", parse_rate(a.rate), c.rate)}) {
    if (!s) return Error{s.message()};
  }
  if (c.duration <= Time::zero()) return Error{fmt::format("--seconds {}: expected a time above 0", a.duration)};
  if (c.rate.bps() == 0) return Error{fmt::format("--rate {}: expected a rate above 0, e.g. 100Gbps", a.rate)};
  // As realtime.catch_up in a scenario (scenario/realtime_settings.cc).
  if (c.catch_up <= Time::zero() || c.catch_up > Time::ms(10)) {
    return Error{fmt::format("--catch-up {}: expected a time above 0 and at most 10ms", a.catch_up)};
  }
  auto lcores = parse_lcores(a.lcores);
  if (!lcores) return Error{lcores.error().message};
  c.lcores = lcores.value();
  return c;
}

int run_tx(BenchArgs& a) {
  auto c = parse_common(a);
  if (!c) return refuse(c.error().message);
  a.tx.duration = c->duration;
  a.tx.warmup = c->warmup;
  a.tx.rate = c->rate;
  a.tx.catch_up = c->catch_up;
  a.tx.lcores = c->lcores;
  if (Status s = bench::check_tx(a.tx); !s) return refuse(s.message());
  if (Status s = bench::start_bench_eal("rocetb-bench", a.tx.lcores, bench::tx_pool_bytes(a.tx)); !s) {
    return print(Error{s.message()}, false);
  }
  cc::Registry registry = cc::Registry::with_builtins();
  const int rc = print(bench::run_tx(a.tx, registry), a.json);
  (void)runtime::stop_eal();
  return rc;
}

int run_sim(BenchArgs& a) {
  const auto s = bench::sim_scenario(a.sim);
  if (!s) return refuse(s.error().message);
  cc::Registry registry = cc::Registry::with_builtins();
  const int rc = print(bench::run_sim(a.sim, s.value(), registry), a.json);
  (void)runtime::stop_eal();
  return rc;
}

int run_loop(BenchArgs& a) {
  auto c = parse_common(a);
  if (!c) return refuse(c.error().message);
  if (a.loop_catch_up == "auto") {  // as realtime.catch_up = "auto", whatever the scenario says
    a.loop.overrides.push_back("realtime.catch_up=\"auto\"");
  } else if (!a.loop_catch_up.empty()) {
    Time t;
    if (Status s = take("--catch-up", parse_time(a.loop_catch_up), t); !s) return refuse(s.message());
    a.loop.catch_up = t;
  }
  a.loop.duration = c->duration;
  a.loop.lcores = c->lcores;
  const auto s = bench::loop_scenario(a.loop);
  if (!s) return refuse(s.error().message);
  cc::Registry registry = cc::Registry::with_builtins();
  const int rc = print(bench::run_loop(a.loop, s.value(), registry), a.json);
  (void)runtime::stop_eal();
  return rc;
}

void add_loop(CLI::App& bench, const std::shared_ptr<BenchArgs>& a) {
  CLI::App* loop = bench.add_subcommand(
      "loop", "a scenario's closed loop in realtime over in-process rings: goodput and validity");
  loop->add_option("scenario", a->loop.scenario, "scenario file (TOML), e.g. scenarios/default.toml")
      ->required()
      ->check(CLI::ExistingFile);
  loop->add_option("--lcores", a->lcores, "lcores: hosts on the first, switches on the others")->capture_default_str();
  loop->add_option("--seconds", a->duration, "scenario time to run (10ms)")->capture_default_str();
  loop->add_option("--dilation", a->loop.dilation, "run the scenario this many times slower than the clock")
      ->check(CLI::Range(1u, 1'000'000u))
      ->capture_default_str();
  loop->add_option("--burst", a->loop.burst, "catch-up polls per loop iteration")
      ->check(CLI::Range(1u, 1024u))
      ->capture_default_str();
  loop->add_option("--catch-up", a->loop_catch_up,
                   "how far behind the clock a stage may run: a time or \"auto\" (default: the scenario's)");
  loop->add_option("--set", a->loop.overrides, "override any key, as rocetb run --set")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  loop->add_flag("--json", a->json, "print one JSON object instead of the table");
}

int run_switch(BenchArgs& a) {
  auto c = parse_common(a);
  if (!c) return refuse(c.error().message);
  const auto& lcores = c->lcores;
  if (lcores.size() != 1) return refuse("--lcores: bench switch runs on one lcore");
  a.sw.duration = c->duration;
  a.sw.rate = c->rate;
  a.sw.catch_up = c->catch_up;
  a.sw.lcore = lcores.front();
  if (Status s = bench::check_switch(a.sw); !s) return refuse(s.message());
  if (Status s = bench::start_bench_eal("rocetb-bench", lcores, bench::switch_pool_bytes(a.sw)); !s) {
    return print(Error{s.message()}, false);
  }
  const int rc = print(bench::run_switch(a.sw), a.json);
  (void)runtime::stop_eal();
  return rc;
}

void add_switch(CLI::App& bench, const std::shared_ptr<BenchArgs>& a) {
  CLI::App* sw = bench.add_subcommand(
      "switch", "frames from a preloaded net_pcap source through one switch stage into net_null");
  sw->add_option("--payload", a->sw.payload, "RDMA WRITE payload bytes of the source's frames")->capture_default_str();
  sw->add_option("--frames", a->sw.frames, "frames in the source capture (replayed endlessly)")->capture_default_str();
  sw->add_option("--burst", a->sw.burst, "catch-up polls per loop iteration")
      ->check(CLI::Range(1u, 1024u))
      ->capture_default_str();
  sw->add_option("--catch-up", a->catch_up, "how far behind the clock the switch may run")->capture_default_str();
  sw->add_option("--lcores", a->lcores, "the lcore (one)")->capture_default_str();
  sw->add_option("--keep-capture", a->sw.keep_capture, "write the source capture to this file and keep it");
  sw->add_option("--seconds", a->duration, "how long to run (a time: 1s, 200ms)")->capture_default_str();
  sw->add_option("--rate", a->rate, "the switch ports' rate")->capture_default_str();
  sw->add_flag("--json", a->json, "print one JSON object instead of the table");
}

int run_rx(BenchArgs& a) {
  auto c = parse_common(a);
  if (!c) return refuse(c.error().message);
  const auto& lcores = c->lcores;
  if (lcores.size() != 1) return refuse("--lcores: bench rx runs on one lcore");
  a.rx.duration = c->duration;
  a.rx.rate = c->rate;
  a.rx.catch_up = c->catch_up;
  a.rx.lcore = lcores.front();
  if (Status s = bench::check_rx(a.rx); !s) return refuse(s.message());
  if (Status s = bench::start_bench_eal("rocetb-bench", lcores, bench::rx_pool_bytes(a.rx)); !s) {
    return print(Error{s.message()}, false);
  }
  const int rc = print(bench::run_rx(a.rx), a.json);
  (void)runtime::stop_eal();
  return rc;
}

void add_rx(CLI::App& bench, const std::shared_ptr<BenchArgs>& a) {
  CLI::App* rx = bench.add_subcommand(
      "rx", "frames from a preloaded net_pcap source into one host's receive path, ICRC checked");
  rx->add_option("--qps", a->rx.qps, "receiving QPs, the source's frames round them (1 .. 65536)")
      ->capture_default_str();
  rx->add_option("--payload", a->rx.payload, "RoCE path MTU: payload bytes per frame (256 .. 4096)")
      ->capture_default_str();
  rx->add_option("--frames", a->rx.frames, "frames in the source capture, replayed endlessly (qps .. 65536)")
      ->capture_default_str();
  rx->add_option("--ack-every", a->rx.ack_every, "frames of a QP per AckReq (0: no ACKs)")->capture_default_str();
  rx->add_flag("!--no-icrc-check", a->rx.check_icrc, "do not verify received ICRCs");
  rx->add_option("--burst", a->rx.burst, "catch-up polls per loop iteration")
      ->check(CLI::Range(1u, 1024u))
      ->capture_default_str();
  rx->add_option("--catch-up", a->catch_up, "how far behind the clock the host may run")->capture_default_str();
  rx->add_option("--lcores", a->lcores, "the lcore (one)")->capture_default_str();
  rx->add_option("--keep-capture", a->rx.keep_capture, "write the source capture to this file and keep it");
  rx->add_option("--seconds", a->duration, "how long to run (a time: 1s, 200ms)")->capture_default_str();
  rx->add_option("--rate", a->rate, "the host's wire rate, for the ACKs it sends (it receives as fast as the source gives)")->capture_default_str();
  rx->add_flag("--json", a->json, "print one JSON object instead of the table");
}

void add_tx(CLI::App& bench, const std::shared_ptr<BenchArgs>& a) {
  CLI::App* tx = bench.add_subcommand("tx", "host TX stages into net_null: frames/s, Gb/s, ns/frame");
  tx->add_option("--qps", a->tx.qps, "queue pairs over all hosts (1 .. 10^7)")->capture_default_str();
  tx->add_option("--payload", a->tx.payload, "RoCE path MTU: payload bytes per frame (256 .. 4096)")
      ->capture_default_str();
  tx->add_option("--cc", a->tx.cc, "algorithm name or plug-in .so path")->capture_default_str();
  tx->add_option("--burst", a->tx.burst, "catch-up polls per loop iteration (1: one frame per poll)")
      ->check(CLI::Range(1u, 1024u))
      ->capture_default_str();
  tx->add_option("--catch-up", a->catch_up, "how far behind the clock a host may run")->capture_default_str();
  tx->add_option("--lcores", a->lcores, "lcores, one host each (QPs split evenly): 0 or 0,1")->capture_default_str();
  tx->add_option("--seconds", a->duration, "how long to run (a time: 1s, 200ms)")->capture_default_str();
  tx->add_option("--rate", a->rate, "each host's wire rate")->capture_default_str();
  tx->add_option("--warmup", a->warmup, "left out of the figures; QPs start during its first half")
      ->capture_default_str();
  tx->add_flag("--json", a->json, "print one JSON object instead of the table");
}

void add_sim(CLI::App& bench, const std::shared_ptr<BenchArgs>& a) {
  CLI::App* sim = bench.add_subcommand("sim", "virtual-time speed of a scenario: frame-hops per wall second");
  sim->add_option("scenario", a->sim.scenario, "scenario file (TOML)")->required()->check(CLI::ExistingFile);
  sim->add_option("--set", a->sim.overrides, "override any key, as rocetb run --set")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  sim->add_option("--repeat", a->sim.repeat, "runs (the fastest and the median are reported)")
      ->check(CLI::Range(1u, 1000u))
      ->capture_default_str();
  sim->add_flag("--json", a->json, "print one JSON object instead of the table");
}

}  // namespace

Command add_bench_command(CLI::App& app) {
  auto args = std::make_shared<BenchArgs>();
  CLI::App* bench = app.add_subcommand("bench", "measure rocetb itself: tx, rx, switch, loop, sim");
  bench->require_subcommand(1);
  add_tx(*bench, args);
  add_rx(*bench, args);
  add_switch(*bench, args);
  add_loop(*bench, args);
  add_sim(*bench, args);
  return [args, bench] {
    if (bench->got_subcommand("tx")) return run_tx(*args);
    if (bench->got_subcommand("loop")) return run_loop(*args);
    if (bench->got_subcommand("rx")) return run_rx(*args);
    if (bench->got_subcommand("switch")) return run_switch(*args);
    return run_sim(*args);
  };
}

}  // namespace rtb::apps
