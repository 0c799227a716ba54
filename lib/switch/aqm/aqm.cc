#include "switch/aqm/aqm.h"

namespace rtb::sw {

namespace {
template <class... F>
struct Overload : F... {
  using F::operator()...;
};
template <class... F>
Overload(F...) -> Overload<F...>;
}  // namespace

std::string_view aqm_name(const std::optional<AqmProfile>& p) {
  if (!p) return "wred";
  return std::holds_alternative<StepProfile>(*p) ? "step" : "pie";
}

Aqm Aqm::make(const std::optional<AqmProfile>& profile, const std::optional<WredProfile>& wred,
              Rate drain_rate, uint32_t mtu_bytes) {
  Aqm a;
  if (profile) {
    std::visit(Overload{[&](const StepProfile& s) { a.m_.emplace<StepMarker>(s); },
                        [&](const PieProfile& s) { a.m_.emplace<Pie>(s, drain_rate, mtu_bytes); }},
               *profile);
  } else if (wred) {
    a.m_.emplace<Wred>(*wred);
  }
  return a;
}

bool Aqm::never_acts(uint64_t queue_bytes) const {
  return std::visit(Overload{[](const std::monostate&) { return true; },
                             [&](const Wred& w) { return !w.enabled() || w.never_acts(queue_bytes); },
                             [&](const StepMarker& s) { return s.never_acts(queue_bytes); },
                             [](const Pie&) { return false; }},  // PIE sees every frame
                    m_);
}

AqmVerdict Aqm::decide(uint64_t queue_bytes, bool ect, Time now, Rng& rng) {
  return std::visit(Overload{[](std::monostate&) { return AqmVerdict::kPass; },
                             [&](Wred& w) { return w.decide(queue_bytes, ect, rng); },
                             [&](StepMarker& s) { return s.decide(queue_bytes, ect); },
                             [&](Pie& p) { return p.decide(queue_bytes, ect, now, rng); }},
                    m_);
}

}  // namespace rtb::sw
