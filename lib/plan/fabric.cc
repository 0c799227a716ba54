#include "plan/fabric.h"

#include <fmt/format.h>

#include <cmath>

namespace rtb::plan {

Time cable_propagation(double metres) {
  return Time::ps(static_cast<uint64_t>(std::llround(metres * 5'000)));
}

sw::SwitchConfig switch_config(const Fabric& f) {
  sw::SwitchConfig c = sw::tuning_guide_config(static_cast<int>(f.ports), f.rate);
  c.pool.size = f.buffer;
  c.pool.cell = f.cell;
  c.pfc_enable = f.lossless;
  for (size_t p = 0; p < c.ports.size(); ++p) {
    c.ports[p].name = fmt::format("Ethernet{}", 4 * p);
    c.ports[p].mtu = f.mtu;
    c.ports[p].propagation = cable_propagation(f.cable_length_m);
  }
  const sw::PgProfile lossy = c.pg[0];  // the guide's lossy PG (pfc_enable never has 0 there)
  for (int i = 0; i < sw::kPriorities; ++i) {
    c.pg[i] = c.lossless_pg(i) ? sw::PgProfile{} : lossy;
    c.wred[i] = c.lossless_tc(i) ? std::optional<sw::WredProfile>(sw::WredProfile{}) : std::nullopt;
  }
  return c;
}

std::string priority_list(uint8_t bits) {
  std::string s;
  for (int p = 0; p < sw::kPriorities; ++p) {
    if ((bits >> p) & 1u) s += (s.empty() ? "" : ",") + std::to_string(p);
  }
  return s;
}

}  // namespace rtb::plan
