#include "apps/replay_args.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

namespace rtb::apps {

Expected<double> parse_speed(const std::string& text) {
  if (text.empty()) return 1.0;
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc{} || end != text.data() + text.size() || !std::isfinite(v) || v <= 0) {
    return Error{fmt::format("--speed '{}': expected a factor above 0 (2 replays twice as fast)", text)};
  }
  return v;
}

Expected<std::vector<std::pair<std::string, std::string>>> parse_map(const std::vector<std::string>& map) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& m : map) {
    const size_t eq = m.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == m.size()) {
      return Error{fmt::format("--map '{}': expected ADDRESS=HOST, e.g. --map 192.0.2.1=h0", m)};
    }
    out.emplace_back(m.substr(0, eq), m.substr(eq + 1));
  }
  return out;
}

}  // namespace rtb::apps
