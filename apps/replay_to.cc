// rocetb replay CAPTURE --to DEVICE [--speed X | --rate R | --top-speed] [--loop N] [--lcore L]
//               [--burst B] [--out DIR [--force]] [--json]
//
// Open loop: the capture's frames into a port at the capture's timing, a speed-up, a line
// rate or top speed (lib/replay/open_loop.h). Exit codes: 0 done; 2 nothing was sent (a bad option, capture, device or frame, each
// refused in one line naming it); 1 the replay started but did not finish (the port
// stalled, or SIGINT/SIGTERM ended it: its results are still printed and written), its
// results could not be written, or DPDK's EAL did not start.
#include <fmt/format.h>

#include <atomic>
#include <charconv>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "apps/replay_to.h"

#include "apps/commands.h"
#include "bench/bench_eal.h"
#include "core/out_folder.h"
#include "replay/open_loop.h"
#include "replay/open_loop_report.h"
#include "runtime/pool/eal.h"

namespace rtb::apps {
namespace {

constexpr const char* kWho = "rocetb replay";

// Set by SIGINT/SIGTERM: the replay ends at its next loop turn with its results.
std::atomic<bool> g_stop{false};

// A whole number in [min, max] for `option`.
Expected<uint64_t> parse_count(const char* option, const std::string& text, uint64_t min, uint64_t max,
                               const char* what) {
  uint64_t v = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size() || v < min || v > max) {
    return Error{fmt::format("{} '{}': expected {} from {} to {}", option, text, what, min, max)};
  }
  return v;
}

Expected<replay::OpenLoopOptions> open_loop_options(const ReplayArgs& c, const OpenLoopArgs& a,
                                                   const std::string& device) {
  auto timing = replay::parse_timing(c.speed, a.rate, a.top_speed);
  if (!timing) return timing.error();
  const unsigned cpus = std::max(1u, std::thread::hardware_concurrency());
  auto loops = parse_count("--loop", a.loop, 1, UINT64_MAX, "a number of passes");
  if (!loops) return loops.error();
  auto lcore = parse_count("--lcore", a.lcore, 0, cpus - 1, "an lcore of this machine");
  if (!lcore) return lcore.error();
  auto burst = parse_count("--burst", a.burst, 1, replay::kMaxBurst, "frames per tx burst");
  if (!burst) return burst.error();
  return replay::OpenLoopOptions{.capture = c.capture, .device = device, .timing = timing.value(),
                                 .loops = loops.value(), .lcore = static_cast<unsigned>(lcore.value()),
                                 .burst = static_cast<uint16_t>(burst.value()), .stop = &g_stop};
}

int report(const ReplayArgs& c, const OpenLoopArgs& a, const replay::OpenLoopResult& r) {
  if (a.json) {
    std::cout << replay::to_json(r).dump() << "\n";
  } else {
    std::cout << replay::table(r);
  }
  if (!c.out.empty()) {
    if (Status s = replay::write_open_loop_results(c.out, r); !s) {
      print_error(kWho, s.message());
      return 1;
    }
    if (!a.json) std::cout << "results: " << c.out << "\n";
  }
  if (r.complete()) return 0;
  std::cout.flush();
  const std::string why = r.sent.stalled
      ? fmt::format("device '{}' took no frame for {} s", r.options.device, replay::kStallLimit.s_f())
      : "interrupted (SIGINT or SIGTERM)";
  print_error(kWho, fmt::format("{}: stopped after {} of {} frames", why, r.sent.frames,
                                r.capture_frames * r.options.loops));
  return 1;
}

}  // namespace

CLI::Option* add_open_loop_options(CLI::App& cmd, OpenLoopArgs& args) {
  CLI::Option* to = cmd.add_option("--to", args.to,
                                   "open loop into this DPDK device (net_null0, net_pcap0,tx_pcap=F, a PCI address)")
                        ->allow_extra_args(false);  // one device per --to: `--to D CAPTURE` leaves CAPTURE positional
  cmd.add_option("--rate", args.rate, "--to: frames back to back at this line rate (10Gbps, 100Gbps)");
  cmd.add_flag("--top-speed", args.top_speed, "--to: as fast as the port takes frames");
  cmd.add_option("--loop", args.loop, "--to: passes over the capture, timing continuing (default 1)");
  cmd.add_option("--lcore", args.lcore, "--to: the lcore that sends (default 0)");
  cmd.add_option("--burst", args.burst, "--to: frames per rte_eth_tx_burst at most (default 32)");
  cmd.add_flag("--json", args.json, "--to: print one JSON object instead of the table");
  return to;
}

// --to DEVICE: open loop.
int replay_to(const ReplayArgs& c, const OpenLoopArgs& a, const std::string& device) {
  auto options = open_loop_options(c, a, device);
  if (!options) { print_error(kWho, options.error().message); return 2; }
  bool created = false;  // the --out folder was made here: removed again if nothing is sent
  if (!c.out.empty()) {
    const Expected<bool> ready = prepare_out_folder({"--out", c.out, c.force},
                                                    replay::open_loop_results_files());
    if (!ready) { print_error(kWho, ready.error().message); return 2; }
    created = ready.value();
  }
  const auto refuse = [&](const std::string& message, int code = 2) {
    print_error(kWho, message);
    std::error_code ec;
    if (created) std::filesystem::remove(c.out, ec);  // still empty
    return code;
  };
  auto input = replay::prepare_open_loop(options.value());
  if (!input) return refuse(input.error().message);
  if (Status s = bench::start_bench_eal("rocetb", {options.value().lcore},
                                        replay::open_loop_eal_bytes(input.value())); !s) {
    return refuse(s.message(), 1);  // the machine's fault, not the input's
  }
  std::signal(SIGINT, [](int) { g_stop.store(true, std::memory_order_relaxed); });
  std::signal(SIGTERM, [](int) { g_stop.store(true, std::memory_order_relaxed); });
  int code = 2;
  {
    auto result = replay::run_open_loop(input.value());
    code = result ? report(c, a, result.value()) : refuse(result.error().message);
  }
  (void)runtime::stop_eal();
  return code;
}

}  // namespace rtb::apps
