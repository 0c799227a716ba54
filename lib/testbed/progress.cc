#include "testbed/progress.h"

#include <atomic>

#include <fmt/format.h>

namespace rtb::testbed {
namespace {

std::atomic<bool> g_progress{false};

constexpr auto kFirst = std::chrono::seconds(1);
constexpr auto kEvery = std::chrono::milliseconds(500);

std::string duration_text(double s) {
  if (s < 60) return fmt::format("{:.0f} s", s);
  const auto whole = static_cast<int64_t>(s);
  if (s < 3600) return fmt::format("{} min {:02} s", whole / 60, whole % 60);
  return fmt::format("{:.1f} h", s / 3600);
}

}  // namespace

void set_progress_line(bool on) { g_progress.store(on); }
bool progress_line() { return g_progress.load(); }

std::string progress_text(Time simulated, Time duration, std::optional<double> frame_hops_per_second,
                          double seconds_left) {
  const double sim_ms = static_cast<double>(simulated.ps()) / 1e9;
  const double dur_ms = static_cast<double>(duration.ps()) / 1e9;
  const std::string speed =
      frame_hops_per_second ? fmt::format(", {:.1f} M frame-hops/s", *frame_hops_per_second / 1e6) : "";
  return fmt::format("simulated {:.2f} of {:.2f} ms ({:.0f}%){}, {} left", sim_ms, dur_ms,
                     dur_ms > 0 ? 100.0 * sim_ms / dur_ms : 100.0, speed, duration_text(seconds_left));
}

ProgressLine::ProgressLine(Time duration, std::function<uint64_t()> frame_hops, std::FILE* out, bool on)
    : duration_(duration), frame_hops_(std::move(frame_hops)), out_(out), on_(on) {}

ProgressLine::~ProgressLine() {
  if (printed_) fmt::print(out_, "\r\033[K");  // erase the line
  if (printed_) std::fflush(out_);
}

void ProgressLine::update(Time simulated, Clock::time_point now) {
  if (!on_ || now - start_ < kFirst || (printed_ && now - last_ < kEvery)) return;
  last_ = now;
  printed_ = true;
  const double wall = std::chrono::duration<double>(now - start_).count();
  const double done = duration_ > Time::zero() ? simulated.s_f() / duration_.s_f() : 1.0;
  const double left = done > 0 ? wall * (1 - done) / done : 0;
  const std::optional<double> speed =
      frame_hops_ ? std::optional<double>(static_cast<double>(frame_hops_()) / wall) : std::nullopt;
  fmt::print(out_, "\r\033[K{}", progress_text(simulated, duration_, speed, left));
  std::fflush(out_);
}

}  // namespace rtb::testbed
