#include "bench/report.h"

#include <fmt/format.h>

#include <cmath>

namespace rtb::bench {

double BenchReport::figure(const std::string& name) const {
  for (const Figure& f : figures) {
    if (f.name == name) return f.value;
  }
  return std::nan("");
}

nlohmann::ordered_json BenchReport::to_json() const {
  nlohmann::ordered_json values = nlohmann::ordered_json::object();
  nlohmann::ordered_json units = nlohmann::ordered_json::object();
  for (const Figure& f : figures) {
    values[f.name] = f.value;
    units[f.name] = f.unit;
  }
  return {{"mode", mode},   {"config", config},
          {"figures", values}, {"units", units},
          {"valid", valid}, {"reason", valid ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(reason)},
          {"details", details}};
}

namespace {

// Large values whole, the rest with three decimals, and below 1 four significant digits
// (a 200 us run's 0.0002 simulated seconds is not 0.000).
std::string format_value(double v) {
  if (std::isnan(v)) return "-";
  if (std::fabs(v) >= 1e5) return fmt::format("{:.0f}", v);
  if (std::fabs(v) >= 100) return fmt::format("{:.1f}", v);
  if (std::fabs(v) >= 1 || v == 0) return fmt::format("{:.3f}", v);
  return fmt::format("{:.4g}", v);
}

}  // namespace

std::string BenchReport::table() const {
  std::string out = fmt::format("rocetb bench {}: {}\n", mode, config.dump());
  for (const Figure& f : figures) {
    out += fmt::format("  {:<28} {:>16} {}\n", f.name, format_value(f.value), f.unit);
  }
  out += valid ? "  valid\n" : fmt::format("  INVALID: {}\n", reason);
  return out;
}

}  // namespace rtb::bench
