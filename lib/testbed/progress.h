// The progress line: while a run goes, one line on stderr rewritten in place, with the
// simulated time against the duration, the frame-hops per wall second, and the wall time
// left at that pace (ETA). Runs shorter than a second print nothing; the line is cleared
// when the run ends, so the results table follows on a clean terminal.
//
// Process-wide, as the EAL's verbosity is (runtime/pool/eal_output.h): `rocetb run` turns
// it on before the run when stderr is a terminal and `--quiet` is not given; tests and other
// callers leave it off.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>

#include "core/units.h"

namespace rtb::testbed {

void set_progress_line(bool on);
bool progress_line();

// The line's text: "simulated 3.20 of 10.00 ms (32%), 11.4 M frame-hops/s, 4 s left"
// (without the speed when it is not known).
std::string progress_text(Time simulated, Time duration, std::optional<double> frame_hops_per_second,
                          double seconds_left);

class ProgressLine {
 public:
  using Clock = std::chrono::steady_clock;
  // `frame_hops` is read only when a line is due (it sums over every link); empty where
  // the caller's thread may not read the links (realtime: the lcores own them).
  ProgressLine(Time duration, std::function<uint64_t()> frame_hops, std::FILE* out = stderr,
               bool on = progress_line());
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // At a boundary of the run (a slice of virtual time, a control period): prints when the
  // run has gone on for a second and the last line is half a second old.
  void update(Time simulated, Clock::time_point now = Clock::now());

 private:
  Time duration_;
  std::function<uint64_t()> frame_hops_;
  std::FILE* out_;
  bool on_;
  Clock::time_point start_ = Clock::now();
  Clock::time_point last_ = start_;
  bool printed_ = false;
};

}  // namespace rtb::testbed
