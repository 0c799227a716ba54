#include "scenario/cdf.h"

#include <fmt/format.h>

#include <cmath>
#include <sstream>

#include "core/read_file.h"

namespace rtb::scenario {
namespace {

std::string_view strip(std::string_view s) {
  if (const size_t hash = s.find('#'); hash != std::string_view::npos) s = s.substr(0, hash);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

}  // namespace

Expected<Cdf> Cdf::parse(std::string_view text, std::string_view name) {
  Cdf cdf;
  std::istringstream in{std::string(text)};
  std::string raw;
  int line = 0;
  while (std::getline(in, raw)) {
    ++line;
    const std::string_view s = strip(raw);
    if (s.empty()) continue;
    std::istringstream fields{std::string(s)};
    Point p{};
    std::string extra;
    if (!(fields >> p.bytes >> p.percent) || (fields >> extra)) {
      return Error{fmt::format("{}:{}: '{}': expected '<bytes> <cumulative percent>'", name, line, s)};
    }
    const bool first = cdf.points_.empty();
    if (!first && (p.bytes <= cdf.points_.back().bytes || p.percent <= cdf.points_.back().percent)) {
      return Error{fmt::format("{}:{}: '{}': expected sizes and percentages strictly increasing", name, line, s)};
    }
    if (p.bytes > kMaxBytes) {
      return Error{fmt::format("{}:{}: '{}': expected sizes up to {:.0f} bytes (2^53, where every byte count is "
                               "exact as a double)", name, line, s, kMaxBytes)};
    }
    if (p.bytes < 0 || p.percent < 0 || p.percent > 100 || (first && p.percent != 0)) {
      return Error{fmt::format("{}:{}: '{}': expected sizes >= 0 and percentages in 0..100, the first at 0",
                               name, line, s)};
    }
    cdf.points_.push_back(p);
  }
  if (cdf.points_.size() < 2 || cdf.points_.back().percent != 100) {
    return Error{fmt::format("{}: expected at least two points, the last at 100 %", name)};
  }
  return cdf;
}

Expected<Cdf> Cdf::load(const std::string& path) {
  auto text = read_regular_file(path, kMaxFileBytes, "a flow-size CDF file (lines of: bytes percent)");
  if (!text) return Error{text.error().message};
  return parse(text.value(), path);
}

double Cdf::mean_bytes() const {
  double sum = 0;
  for (size_t i = 1; i < points_.size(); ++i) {
    sum += (points_[i - 1].bytes + points_[i].bytes) / 2 * (points_[i].percent - points_[i - 1].percent);
  }
  return sum / 100;
}

double Cdf::size_at(double u) const {
  for (size_t i = 1; i < points_.size(); ++i) {
    const Point& a = points_[i - 1];
    const Point& b = points_[i];
    if (u <= b.percent) return a.bytes + (b.bytes - a.bytes) * (u - a.percent) / (b.percent - a.percent);
  }
  return points_.back().bytes;
}

uint64_t Cdf::sample(Rng& rng) const {
  const double x = size_at(rng.uniform() * 100);
  return std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(x)));
}

}  // namespace rtb::scenario
