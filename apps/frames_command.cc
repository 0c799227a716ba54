// rocetb frames [--out FILE]
//
// Builds one frame of every kind rocetb sends (wire/frame_samples.h), writes them to a
// pcapng, reads each back with rocetb's own parser (IPv4 checksum and ICRC checked) and,
// when tshark is installed, prints Wireshark's dissection of the file: what the testbed
// puts on a wire, checked by a tool nobody here wrote.
#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "apps/commands.h"
#include "core/write_file.h"
#include "pcap/pcapng_writer.h"
#include "wire/frame_samples.h"
#include "wire/parser.h"

namespace rtb::apps {
namespace {

// One line per frame from our parser; returns how many frames failed to parse.
int check_with_our_parser(const std::vector<wire::SampleFrame>& frames) {
  fmt::print("{:>3} {:<26} {:>5} {:<9} {:>6} {:>8} {:>8} {:>4} {:>4}  {}\n", "#", "kind", "len",
             "class", "opcode", "qpn", "psn", "dscp", "ecn", "parse (ICRC checked)");
  wire::ParseOptions opt;
  opt.check_icrc = true;
  int bad = 0;
  for (size_t i = 0; i < frames.size(); ++i) {
    wire::ParsedFrame f;
    const wire::ParseError e = wire::parse_frame(
        frames[i].bytes.data(), static_cast<uint32_t>(frames[i].bytes.size()), opt, f);
    bad += e == wire::ParseError::Ok ? 0 : 1;
    fmt::print("{:>3} {:<26} {:>5} {:<9} {:>#6x} {:>#8x} {:>8} {:>4} {:>4}  {}\n", i + 1,
               frames[i].kind, frames[i].bytes.size(), wire::frame_class_name(f.cls), f.opcode,
               f.dest_qpn, f.psn, f.dscp, static_cast<int>(f.ecn), wire::parse_error_name(e));
  }
  return bad;
}

int frames(const std::string& out) {
  const std::vector<wire::SampleFrame> samples = wire::sample_frames();
  std::error_code ec;
  if (auto dir = std::filesystem::path(out).parent_path(); !dir.empty()) {
    std::filesystem::create_directories(dir, ec);
  }
  // Written beside it and renamed when whole (core/write_file.h): never a file cut short.
  const std::string tmp = temporary_name(out);
  auto w = capture::PcapngWriter::create(tmp);
  if (!w) {
    std::fprintf(stderr, "rocetb: %s\n", w.error().message.c_str());
    return 1;
  }
  const uint32_t iface = w.value().add_interface("rocetb-frames");
  for (size_t i = 0; i < samples.size(); ++i) {
    if (Status s = w.value().write(iface, Time::us(10) * i, samples[i].bytes); !s) {
      std::fprintf(stderr, "rocetb: %s\n", s.message().c_str());
      (void)w.value().close();
      std::filesystem::remove(tmp, ec);
      return 1;
    }
  }
  if (Status s = w.value().close(); !s) {
    std::fprintf(stderr, "rocetb: %s\n", s.message().c_str());
    std::filesystem::remove(tmp, ec);
    return 1;
  }
  if (std::filesystem::rename(tmp, out, ec); ec) {
    std::fprintf(stderr, "rocetb: --out %s: cannot write: %s\n", out.c_str(), ec.message().c_str());
    std::filesystem::remove(tmp, ec);
    return 1;
  }
  fmt::print("wrote {} frames to {}\n\n", samples.size(), out);
  const int bad = check_with_our_parser(samples);
  if (std::system("command -v tshark >/dev/null 2>&1") == 0) {
    fmt::print("\ntshark's dissection:\n");
    std::fflush(stdout);
    const std::string cmd = fmt::format(
        "tshark -r '{}' -o ip.check_checksum:TRUE -d udp.port==4791,infiniband "
        "--disable-heuristic rpcrdma_infiniband 2>&1",
        out);
    if (std::system(cmd.c_str()) != 0) std::fprintf(stderr, "rocetb: tshark failed\n");
  } else {
    fmt::print("\n(install tshark to see Wireshark's dissection of {})\n", out);
  }
  return bad == 0 ? 0 : 1;
}

}  // namespace

Command add_frames_command(CLI::App& app) {
  auto out = std::make_shared<std::string>("results/frames.pcapng");
  CLI::App* cmd = app.add_subcommand(
      "frames", "write one frame of every kind to a pcapng, check and dissect it");
  cmd->add_option("--out", *out, "capture file to write (default results/frames.pcapng)");
  return [out] { return frames(*out); };
}

}  // namespace rtb::apps
