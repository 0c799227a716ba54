#include "replay/open_loop_report.h"

#include <fmt/format.h>

#include "core/write_file.h"
#include "realtime/lateness.h"

namespace rtb::replay {
namespace {

double per_second(double v, Time elapsed) {
  return elapsed == Time::zero() ? 0.0 : v / elapsed.s_f();
}

nlohmann::ordered_json timing_json(const Timing& t) {
  const char* kind = t.kind == TimingKind::kCapture ? "capture"
                   : t.kind == TimingKind::kRate    ? "rate" : "top_speed";
  nlohmann::ordered_json j{{"kind", kind}, {"description", describe(t)}};
  j["speed"] = t.kind == TimingKind::kCapture ? nlohmann::ordered_json(t.speed) : nullptr;
  j["rate_bps"] = t.kind == TimingKind::kRate ? nlohmann::ordered_json(t.rate.bps()) : nullptr;
  return j;
}

nlohmann::ordered_json error_json(const OpenLoopResult& r) {
  const realtime::LatenessHistogram& h = r.timing_error;
  if (r.options.timing.kind == TimingKind::kTopSpeed) return nullptr;
  const auto ns = [](Time t) { return static_cast<double>(t.ps()) / 1e3; };
  return {{"frames", h.count()},          {"p50_ns", ns(h.quantile(0.5))},
          {"p99_ns", ns(h.quantile(0.99))}, {"p999_ns", ns(h.quantile(0.999))},
          {"max_ns", ns(h.max())}};
}

nlohmann::ordered_json sent_json(const OpenLoopResult& r) {
  const SendCounters& s = r.sent;
  return {{"frames", s.frames},
          {"bytes", s.bytes},
          {"wire_bytes", r.wire_bytes},
          {"passes_complete", r.capture_frames == 0 ? 0 : s.frames / r.capture_frames},
          {"elapsed_s", s.elapsed.s_f()},
          {"frames_per_s", per_second(static_cast<double>(s.frames), s.elapsed)},
          {"gbps", per_second(static_cast<double>(s.bytes) * 8 / 1e9, s.elapsed)},
          {"wire_gbps", per_second(static_cast<double>(r.wire_bytes) * 8 / 1e9, s.elapsed)}};
}

}  // namespace

nlohmann::ordered_json to_json(const OpenLoopResult& r) {
  const OpenLoopOptions& o = r.options;
  nlohmann::ordered_json j;
  j["mode"] = "open_loop";
  j["complete"] = r.complete();
  j["capture"] = {{"file", o.capture},
                  {"link_type", r.capture_link},
                  {"frames", r.capture_frames},
                  {"bytes", r.capture_bytes},
                  {"link_header_rebuilt", r.conversion.link_header_rebuilt},
                  {"padded", r.conversion.padded},
                  {"padding_bytes", r.conversion.padding_bytes},
                  {"timestamps_backwards", r.timestamps_backwards},
                  {"pass_ns", static_cast<double>(r.pass_length.ps()) / 1e3}};
  j["device"] = o.device;
  j["timing"] = timing_json(o.timing);
  j["loops"] = o.loops;
  j["burst"] = o.burst;
  j["lcore"] = o.lcore;
  j["sent"] = sent_json(r);
  j["timing_error"] = error_json(r);
  j["port"] = {{"max_frame", r.port_max_frame},   {"tx_burst_calls", r.sent.tx_calls},
               {"short_calls", r.sent.short_calls}, {"frames_refused", r.sent.refused},
               {"frames_dropped", 0},              {"stalled", r.sent.stalled},
               {"interrupted", r.sent.interrupted},
               {"stats", r.port_stats}};
  j["clock"] = r.clock;
  return j;
}

std::string table(const OpenLoopResult& r) {
  const OpenLoopOptions& o = r.options;
  const nlohmann::ordered_json s = sent_json(r);
  std::string t = fmt::format("replay {} -> {} (open loop, {}, {} pass{}, burst {}, lcore {})\n",
                              o.capture, o.device, describe(o.timing), o.loops,
                              o.loops == 1 ? "" : "es", o.burst, o.lcore);
  t += fmt::format("  capture       {} frames, {} bytes, {}; {} given an Ethernet header, {} "
                   "padded to their original length, {} stamped before their predecessor\n",
                   r.capture_frames, r.capture_bytes, r.capture_link,
                   r.conversion.link_header_rebuilt, r.conversion.padded, r.timestamps_backwards);
  t += fmt::format("  sent          {} frames, {} bytes in {:.6f} s{}\n", r.sent.frames,
                   r.sent.bytes, r.sent.elapsed.s_f(),
                   r.sent.stalled ? " (port stalled: stopped)" : r.sent.interrupted ? " (interrupted)" : "");
  t += fmt::format("  rate          {:.3f} Mframes/s, {:.3f} Gb/s of frames, {:.3f} Gb/s on the wire\n",
                   s["frames_per_s"].get<double>() / 1e6, s["gbps"].get<double>(),
                   s["wire_gbps"].get<double>());
  const realtime::LatenessHistogram& h = r.timing_error;
  if (o.timing.kind != TimingKind::kTopSpeed) {
    t += fmt::format("  timing error  p50 {}, p99 {}, p99.9 {}, max {} (sent minus due, {} frames)\n",
                     realtime::format_span(h.quantile(0.5)), realtime::format_span(h.quantile(0.99)),
                     realtime::format_span(h.quantile(0.999)), realtime::format_span(h.max()),
                     h.count());
  }
  t += fmt::format("  port          {} tx_burst calls, {} took fewer than offered ({} frames "
                   "retried), 0 dropped\n", r.sent.tx_calls, r.sent.short_calls, r.sent.refused);
  return t;
}

std::string timing_error_csv(const realtime::LatenessHistogram& h) {
  std::string csv = "bucket_start_ns,bucket_end_ns,frames\n";
  for (size_t b = 0; b < realtime::LatenessHistogram::kBuckets; ++b) {
    if (h.count_in_bucket(b) == 0) continue;
    csv += fmt::format("{},{},{}\n", realtime::LatenessHistogram::bucket_start_ns(b),
                       realtime::LatenessHistogram::bucket_end_ns(b), h.count_in_bucket(b));
  }
  return csv;
}

OwnedFiles open_loop_results_files() { return {{"summary.json", "timing_error.csv"}, {}}; }

Status write_open_loop_results(const std::string& dir, const OpenLoopResult& r) {
  if (Status s = write_file_atomically(dir + "/timing_error.csv", timing_error_csv(r.timing_error)); !s) {
    return s;
  }
  return write_file_atomically(dir + "/summary.json", to_json(r).dump(2) + "\n");
}

}  // namespace rtb::replay
