#include "apps/capture_options.h"

#include <fmt/format.h>

#include <charconv>

#include "core/units_parse.h"

namespace rtb::apps {
namespace {

// A whole number in [lo, hi], or an error naming the option and the range.
Expected<uint64_t> whole_number(const std::string& option, const std::string& text, uint64_t lo, uint64_t hi,
                                const std::string& expected) {
  uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc{} || end != text.data() + text.size() || v < lo || v > hi) {
    return Error{fmt::format("{} {}: expected {}", option, text, expected)};
  }
  return v;
}

}  // namespace

void add_capture_options(CLI::App& cmd, CaptureArgs& a) {
  cmd.add_option("--capture", a.what,
                 "capture to pcapng in the results folder: all, hosts-tx (what every host sends, each frame once), a node (h0, sw0), a link (h0-sw0) or a "
                 "switch port (sw0:Ethernet0); repeatable, one file each")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd.add_option("--capture-snaplen", a.snaplen, "bytes kept of each captured frame (default: whole frames)");
  cmd.add_option("--capture-max-frames", a.max_frames, "frames per capture file at most");
  cmd.add_option("--capture-max-bytes", a.max_bytes, "size of each capture file at most, e.g. 64MB");
  cmd.add_option("--capture-queue", a.queue,
                 "realtime: frames queued per captured link direction for the writer, as a size (default "
                 "8MiB); a full queue is a counted loss");
}

Expected<tap::CaptureRequest> to_request(const CaptureArgs& a, const std::string& dir) {
  tap::CaptureRequest r;
  r.what = a.what;
  r.dir = dir;
  for (const auto& [option, given] : {std::pair{"--capture-snaplen", &a.snaplen},
                                      {"--capture-max-frames", &a.max_frames},
                                      {"--capture-max-bytes", &a.max_bytes},
                                      {"--capture-queue", &a.queue}}) {
    if (given->has_value() && r.what.empty()) {
      return Error{fmt::format("{} {}: expected with --capture (nothing is captured without it)", option,
                               **given)};
    }
  }
  if (a.snaplen) {
    auto v = whole_number("--capture-snaplen", *a.snaplen, tap::kMinSnaplen, tap::kMaxSnaplen,
                          fmt::format("a whole number of bytes from {} (an Ethernet header) to {}",
                                      tap::kMinSnaplen, tap::kMaxSnaplen));
    if (!v) return v.error();
    r.snaplen = static_cast<uint32_t>(v.value());
  }
  if (a.max_frames) {
    auto v = whole_number("--capture-max-frames", *a.max_frames, 1, UINT64_MAX,
                          "a whole number of frames, at least 1");
    if (!v) return v.error();
    r.max_frames = v.value();
  }
  if (a.max_bytes) {
    auto v = parse_bytes(*a.max_bytes);
    if (!v || v.value().count() == 0) {
      return Error{fmt::format("--capture-max-bytes {}: expected a size with its unit, more than 0 (64MB, "
                               "1GiB){}", *a.max_bytes, v ? "" : ": " + v.error().message)};
    }
    r.max_bytes = v.value().count();
  }
  if (a.queue) {
    auto v = parse_bytes(*a.queue);
    if (!v || v.value().count() == 0) {
      return Error{fmt::format("--capture-queue {}: expected a size with its unit, more than 0 (8MiB){}", *a.queue,
                               v ? "" : ": " + v.error().message)};
    }
    r.queue_bytes = v.value().count();
  }
  return r;
}

}  // namespace rtb::apps
