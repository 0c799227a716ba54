#include "cc_algos/fixed_rate/fixed_rate.h"

#include <algorithm>
#include <array>

namespace rtb::cc {

namespace {
// Up to 10 Tb/s.
constexpr std::array<UintSpec, 1> kSpecs{{{"rate_mbps", "Mb/s, 0 = the line rate", 0, 10'000'000, 0, ""}}};
}  // namespace

bool FixedRate::parse(std::span<const rtb_cc_param> in, Params& p, Reporter& r) {
  std::array<uint64_t, 1> v{};
  read_uint_params(in, kSpecs, v, r);
  p.resolved.set(kSpecs, v);
  p.rate = Rate::mbps(v[0]);
  return !r.failed();
}

Decision FixedRate::start(const Params& p, State& s, const rtb_cc_flow_start& st, Time) {
  const Rate line = Rate::bps(st.line_rate_bps);
  s.rate = p.rate.bps() == 0 ? line : std::min(p.rate, line);
  return Decision{s.rate, std::nullopt, Time::never()};
}

}  // namespace rtb::cc
