// rocetb analyze CAPTURE [--out DIR [--force]] [--link-rate R] [--bin T]
//
// Reads a pcap or pcapng capture and reports, per QP and per PFC priority, what an
// operator asks of a RoCE fabric (lib/analyze/README.md): a table on the terminal and
// summary.json plus CSVs in the results folder. A truncated or corrupt file still gives
// the results of the frames before the fault, with a one-line error and exit code 1.
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "analyze/analyze_capture.h"
#include "analyze/report.h"
#include "apps/commands.h"
#include "core/read_file.h"
#include "core/units_parse.h"

namespace rtb::apps {
namespace {

struct AnalyzeArgs {
  std::string capture;
  std::string out;
  bool force = false;
  std::string link_rate = "100Gbps";
  std::string bin = "100us";
};

// --link-rate and --bin as values, or a message naming the option.
Expected<analyze::AnalyzeOptions> options(const AnalyzeArgs& a) {
  analyze::AnalyzeOptions o;
  auto rate = parse_rate(a.link_rate);
  if (!rate || rate.value() == Rate::zero()) {
    return Error{fmt::format("--link-rate '{}': {}", a.link_rate,
                             rate ? "must be above 0" : rate.error().message)};
  }
  auto bin = parse_time(a.bin);
  if (!bin || bin.value() < Time::ns(1)) {
    return Error{fmt::format("--bin '{}': {}", a.bin,
                             bin ? "must be at least 1ns" : bin.error().message)};
  }
  o.link_rate = rate.value();
  o.bin = bin.value();
  return o;
}

int analyze(const AnalyzeArgs& a) {
  auto opt = options(a);
  if (!opt) {
    print_error("rocetb analyze", opt.error().message);
    return 2;
  }
  // A FIFO would block libpcap's reader forever, a device never end.
  if (Status s = check_regular_file(a.capture, "a pcap or pcapng capture file"); !s) {
    print_error("rocetb analyze", s.message());
    return 2;
  }
  // The default folder is this command's own: an earlier analysis of the same capture there
  // is replaced. A folder given with --out must be new or empty, or --force.
  const std::string out = a.out.empty()
      ? "results/analyze-" + std::filesystem::path(a.capture).stem().string() : a.out;
  const OutFolder folder{a.out.empty() ? "results folder" : "--out", out, a.out.empty() || a.force};
  const Expected<bool> created = prepare_out_folder(folder, analyze::results_files());
  if (!created) {
    print_error("rocetb analyze", created.error().message);
    return 2;
  }
  auto result = analyze::analyze_capture(a.capture, opt.value());
  if (!result) {
    print_error("rocetb analyze", result.error().message);
    std::error_code ec;
    if (created.value()) std::filesystem::remove(out, ec);  // empty: nothing was analyzed
    return 2;
  }
  analyze::print_table(std::cout, result.value());
  if (Status s = analyze::write_results(out, result.value()); !s) {
    print_error("rocetb analyze", s.message());
    return 1;
  }
  std::cout << "results: " << out << "\n";
  if (result.value().error) {
    std::fflush(stdout);
    print_error("rocetb analyze", *result.value().error);
    return 1;
  }
  return 0;
}

}  // namespace

Command add_analyze_command(CLI::App& app) {
  auto args = std::make_shared<AnalyzeArgs>();
  CLI::App* cmd = app.add_subcommand(
      "analyze", "per-QP and per-priority RoCEv2 / PFC statistics of a pcap or pcapng capture");
  cmd->add_option("capture", args->capture, "capture file (pcap or pcapng)")->required();
  cmd->add_option("--out", args->out, "results folder (default results/analyze-<capture name>)");
  cmd->add_flag("--force", args->force,
                 "write into a non-empty --out folder, removing an earlier analysis's files there first");
  cmd->add_option("--link-rate", args->link_rate,
                  "rate of the captured link, for PFC pause quanta (default 100Gbps)");
  cmd->add_option("--bin", args->bin, "width of the timeline.csv bins (default 100us)");
  return [args] { return analyze(*args); };
}

}  // namespace rtb::apps
