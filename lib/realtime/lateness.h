// Lateness of a realtime run and its validity (design.md "Time", realtime: "a run whose
// lateness exceeds what its thresholds assume is marked invalid in its results instead of
// presenting distorted numbers").
//
// Lateness of one poll (measured by the lcore loop, realtime_scheduler.h): before polling a
// stage the loop reads d = next_deadline(); if d <= now the stage had due work and its
// lateness is now - max(d, previous poll time of that stage). Polls with nothing due are
// not recorded.
//
// Validity rule: a run is valid when its worst lateness (the exact max) is at most the
// budget, e.g. the PFC response time the headroom was sized for. Time::never() = no budget.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "core/units.h"
#include "realtime/lateness_histogram.h"

namespace rtb::realtime {

struct LatenessReport {
  uint64_t polls = 0;  // polls that had due work (the histogram's count)
  Time p50, p99, p999, max;
  Time budget = Time::never();  // Time::never() = no budget
  std::string budget_reason;    // where the budget comes from (may be empty)
  bool valid = true;
  // Empty when valid; otherwise one sentence: "polls were up to 4.2 ms late (p99 12.3 us),
  // more than the 3.1 us the scenario allows (<budget_reason>)".
  std::string reason;

  // {"polls", "p50_ns", "p99_ns", "p999_ns", "max_ns", "budget_ns" (null: none),
  //  "budget_reason", "valid", "reason"}; times in ns, doubles where fractional.
  nlohmann::ordered_json to_json() const;
};

LatenessReport make_report(const LatenessHistogram& histogram, Time budget,
                           std::string budget_reason);

// A span for people, three significant digits in the largest unit that keeps it at least 1:
// "0 ns", "850 ns", "12.3 us", "4.2 ms", "1.5 s".
std::string format_span(Time t);

}  // namespace rtb::realtime
