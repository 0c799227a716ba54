#include "params/threshold_units.h"

#include <fmt/format.h>

namespace rtb::params {

std::string human_bytes(double b) {
  if (b >= 1e9) return fmt::format("{:.4g} GB", b / 1e9);
  if (b >= 1e6) return fmt::format("{:.4g} MB", b / 1e6);
  if (b >= 1e3) return fmt::format("{:.4g} KB", b / 1e3);
  return fmt::format("{:.0f} B", b);
}

void check_threshold_unit(Imported& out, const Origin& at, const std::string& key, uint64_t value, uint64_t buffer) {
  constexpr double kCell = 256, kFrame = 1500, kDefaultBuffer = 4e6;
  const double buf = buffer == 0 ? kDefaultBuffer : static_cast<double>(buffer);
  const double v = static_cast<double>(value);
  const double as_kb = v * 1000, as_cells = v * kCell, as_bytes = v;
  int plausible = 0;
  for (double b : {as_kb, as_cells, as_bytes}) plausible += b >= kFrame && b <= buf ? 1 : 0;
  if (plausible < 2) return;
  const auto fits = [&](double b) { return b > buf ? " (more than the buffer)" : ""; };
  out.find(at, key, std::to_string(value),
           fmt::format("ambiguous in unit: read as KB it is {}{}, as cells of 256 B {}{}, as bytes {}, on a {} "
                       "buffer{}; written as bytes, SONiC's unit",
                       human_bytes(as_kb), fits(as_kb), human_bytes(as_cells), fits(as_cells), human_bytes(as_bytes),
                       human_bytes(buf), buffer == 0 ? " (no source gave it: rocetb's default)" : ""));
}

}  // namespace rtb::params
