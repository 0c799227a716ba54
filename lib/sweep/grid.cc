#include "sweep/grid.h"

#include <fmt/format.h>

#include <set>

#include "core/rng.h"
#include "testbed/results_dir.h"

namespace rtb::sweep {
namespace {

constexpr const char* kVaryExample = "expected KEY=V1,V2,..., such as switch.wred_profile.green_min_threshold=50KB,150KB";

// The values of "V1,V2,...": commas inside [...] or "..." do not split.
std::vector<std::string> split_values(const std::string& list) {
  std::vector<std::string> out(1);
  int depth = 0;
  bool quoted = false;
  for (char c : list) {
    if (c == '"') quoted = !quoted;
    if (!quoted && c == '[') ++depth;
    if (!quoted && c == ']') --depth;
    if (c == ',' && depth == 0 && !quoted) {
      out.emplace_back();
      continue;
    }
    out.back() += c;
  }
  return out;
}

}  // namespace

Expected<Axis> parse_vary(const std::string& text) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0) return Error{fmt::format("--vary {}: {}", text, kVaryExample)};
  Axis a{text.substr(0, eq), split_values(text.substr(eq + 1))};
  std::set<std::string> seen;
  for (size_t i = 0; i < a.values.size(); ++i) {
    if (a.values[i].empty()) {
      return Error{fmt::format("--vary {}: value {} is empty: {}", text, i + 1, kVaryExample)};
    }
    if (!seen.insert(a.values[i]).second) {
      return Error{fmt::format("--vary {}: value '{}' is given twice: expected each value once", text, a.values[i])};
    }
  }
  return a;
}

Status check_axes(const std::vector<Axis>& axes) {
  if (axes.empty()) return Error{"--vary: missing: expected at least one --vary KEY=V1,V2,..."};
  std::set<std::string> keys;
  for (const Axis& a : axes) {
    if (!keys.insert(a.key).second) {
      return Error{fmt::format("--vary {}: the key is varied twice: expected each key in one --vary with all its values",
                               a.key)};
    }
  }
  return {};
}

std::vector<Point> expand_grid(const std::vector<Axis>& axes, uint32_t repeats) {
  size_t combos = 1;
  for (const Axis& a : axes) combos *= a.values.size();
  std::vector<Point> out;
  out.reserve(combos * repeats);
  for (size_t c = 0; c < combos; ++c) {
    std::vector<size_t> idx(axes.size());
    size_t rest = c;
    for (size_t k = axes.size(); k-- > 0;) {  // the last axis changes fastest
      idx[k] = rest % axes[k].values.size();
      rest /= axes[k].values.size();
    }
    for (uint32_t r = 0; r < repeats; ++r) out.push_back(Point{out.size(), idx, r});
  }
  return out;
}

uint64_t derive_seed(uint64_t base, uint32_t repeat) {
  if (repeat == 0) return base;
  uint64_t state = base ^ (0x9e3779b97f4a7c15ull * repeat);
  return splitmix64(state) & 0x7fffffffffffffffull;
}

std::vector<std::string> point_overrides(const std::vector<Axis>& axes, const Point& p) {
  std::vector<std::string> out;
  for (size_t k = 0; k < axes.size(); ++k) out.push_back(axes[k].key + "=" + axes[k].values[p.value_index[k]]);
  return out;
}

std::string point_folder(const std::vector<Axis>& axes, const Point& p, size_t grid_size, uint32_t repeats) {
  const size_t width = fmt::format("{}", grid_size > 0 ? grid_size - 1 : 0).size();
  std::string name = fmt::format("{:0{}}-{}", p.index, width, testbed::overrides_tag(point_overrides(axes, p)));
  if (repeats > 1) name += fmt::format("-r{}", p.repeat);
  return name;
}

}  // namespace rtb::sweep
