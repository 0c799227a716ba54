#include "cc_algos/registry.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "cc_algos/builtins.h"
#include "cc_algos/plugin_loader.h"

namespace rtb::cc {

Registry Registry::with_builtins() {
  Registry r;
  for (const rtb_cc_ops* ops : builtin_ops()) {
    auto a = Algorithm::from_ops(ops, "built-in");
    // A built-in that fails its own checks is a bug in rocetb, caught by the tests.
    if (a) (void)r.add(std::move(a).value());
  }
  return r;
}

Status Registry::add(Algorithm algorithm) {
  auto at = std::lower_bound(algorithms_.begin(), algorithms_.end(), algorithm.name(),
                             [](const Algorithm& a, std::string_view n) { return a.name() < n; });
  if (at != algorithms_.end() && at->name() == algorithm.name())
    return Error{fmt::format("congestion-control algorithm '{}' ({}) clashes with the already "
                             "registered '{}' ({})",
                             algorithm.name(), algorithm.origin(), at->name(), at->origin())};
  algorithms_.insert(at, std::move(algorithm));
  return {};
}

std::vector<std::string> Registry::names() const {
  std::vector<std::string> out;
  for (const auto& a : algorithms_) out.emplace_back(a.name());
  return out;
}

Expected<Algorithm> Registry::find(std::string_view name) const {
  for (const auto& a : algorithms_)
    if (a.name() == name) return a;
  return Error{fmt::format("unknown congestion-control algorithm '{}'; available: {} (or give the "
                           "path of a plug-in .so)",
                           name, fmt::join(names(), ", "))};
}

Expected<Algorithm> Registry::resolve(std::string_view name_or_path) {
  const bool is_path = name_or_path.find('/') != std::string_view::npos ||
                       (name_or_path.size() > 3 && name_or_path.ends_with(".so"));
  if (!is_path) return find(name_or_path);
  const std::string origin = "plug-in " + std::string(name_or_path);
  for (const auto& a : algorithms_)
    if (a.origin() == origin) return a;  // the same file, already loaded
  auto loaded = load_plugin(std::string(name_or_path));
  if (!loaded) return loaded;
  if (Status s = add(*loaded); !s) return Error{s.message()};
  return loaded;
}

}  // namespace rtb::cc
