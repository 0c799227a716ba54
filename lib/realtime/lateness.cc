#include "realtime/lateness.h"

#include <cmath>
#include <utility>

#include <fmt/format.h>

namespace rtb::realtime {
namespace {

// A time in nanoseconds for JSON: an integer when whole, a double otherwise.
nlohmann::ordered_json ns_json(Time t) {
  if (t.ps() % 1000 == 0) return t.ns();
  return static_cast<double>(t.ps()) / 1e3;
}

}  // namespace

void LatenessHistogram::merge(const LatenessHistogram& other) {
  for (size_t b = 0; b < kBuckets; ++b) counts_[b] += other.counts_[b];
  count_ += other.count_;
  max_ = std::max(max_, other.max_);
}

Time LatenessHistogram::quantile(double q) const {
  if (count_ == 0) return Time::zero();
  q = std::clamp(q, 0.0, 1.0);
  // Rank of the record wanted, 1-based: ceil(q * count), at least the first.
  const auto rank = std::max<uint64_t>(
      1, static_cast<uint64_t>(std::ceil(q * static_cast<double>(count_))));
  uint64_t seen = 0;
  for (size_t b = 0; b < kBuckets; ++b) {
    seen += counts_[b];
    if (seen < rank) continue;
    const uint64_t end_ns = bucket_end_ns(b);
    const Time end = end_ns > Time::never().ps() / 1000 ? Time::never() : Time::ns(end_ns);
    return std::min(end, max_);
  }
  return max_;
}

std::string format_span(Time t) {
  const double ns = static_cast<double>(t.ps()) / 1e3;
  // 999.5 and up would print as "1e+03" in the smaller unit: move up one.
  if (ns < 999.5) return fmt::format("{:.3g} ns", ns);
  if (ns < 999.5e3) return fmt::format("{:.3g} us", ns / 1e3);
  if (ns < 999.5e6) return fmt::format("{:.3g} ms", ns / 1e6);
  if (ns < 999.5e9) return fmt::format("{:.3g} s", ns / 1e9);
  return fmt::format("{:.0f} s", ns / 1e9);
}

LatenessReport make_report(const LatenessHistogram& h, Time budget, std::string budget_reason) {
  LatenessReport r;
  r.polls = h.count();
  r.p50 = h.quantile(0.5);
  r.p99 = h.quantile(0.99);
  r.p999 = h.quantile(0.999);
  r.max = h.max();
  r.budget = budget;
  r.budget_reason = std::move(budget_reason);
  r.valid = budget.is_never() || r.max <= budget;
  if (!r.valid) {
    r.reason = fmt::format("polls were up to {} late (p99 {}), more than the {} the scenario "
                           "allows ({})", format_span(r.max), format_span(r.p99),
                           format_span(budget),
                           r.budget_reason.empty() ? "no reason given" : r.budget_reason);
  }
  return r;
}

nlohmann::ordered_json LatenessReport::to_json() const {
  nlohmann::ordered_json j;
  j["polls"] = polls;
  j["p50_ns"] = ns_json(p50);
  j["p99_ns"] = ns_json(p99);
  j["p999_ns"] = ns_json(p999);
  j["max_ns"] = ns_json(max);
  j["budget_ns"] = budget.is_never() ? nlohmann::ordered_json(nullptr) : ns_json(budget);
  j["budget_reason"] = budget_reason;
  j["valid"] = valid;
  j["reason"] = reason;
  return j;
}

}  // namespace rtb::realtime
