#include "sweep/plan.h"

#include <fmt/format.h>

#include "scenario/load.h"

namespace rtb::sweep {
namespace {

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

// The loader's message about an override ("--set KEY: WHY", "--set KEY=VALUE: WHY" or a
// file's line) told as the sweep's option: "--vary WHAT: WHY".
std::string as_vary(const std::string& message, const std::string& what, const std::string& key) {
  const std::string line = first_line(message);
  for (const std::string& p : {"--set " + key + ": ", "--set " + key + "=", std::string("--set ")}) {
    if (key.empty() && p != "--set ") continue;
    if (line.rfind(p, 0) != 0) continue;
    std::string rest = line.substr(p.size());
    const size_t colon = rest.find(": ");
    if (p.back() == '=' && colon != std::string::npos) rest = rest.substr(colon + 2);  // past the value, again
    return fmt::format("--vary {}: {}", what, rest);
  }
  return fmt::format("--vary {}: {}", what, line);
}

Status check_values(const std::string& scenario, const std::vector<Axis>& axes) {
  for (const Axis& a : axes) {
    for (const std::string& v : a.values) {
      const std::string kv = a.key + "=" + v;
      auto s = scenario::load_scenario(scenario, {kv});
      if (!s) return Error{as_vary(s.error().message, kv, a.key)};
    }
  }
  return {};
}

std::string joined(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& s : v) out += (out.empty() ? "" : ",") + s;
  return out;
}

}  // namespace

Expected<Plan> plan_sweep(const std::string& scenario, const std::vector<Axis>& axes, uint32_t repeats) {
  if (Status st = check_axes(axes); !st) return Error{st.message()};
  if (repeats == 0) return Error{"--repeat 0: expected a whole number from 1"};
  auto base = scenario::load_scenario(scenario);
  if (!base) return Error{base.error().message};  // the scenario's own errors, one per line
  if (Status st = check_values(scenario, axes); !st) return Error{st.message()};
  Plan plan{scenario, base.value().name, axes, repeats, {}};
  const std::vector<Point> grid = expand_grid(axes, repeats);
  uint64_t point_seed = 0;
  for (const Point& p : grid) {
    const std::vector<std::string> overrides = point_overrides(axes, p);
    if (p.repeat == 0) {  // the same combination for every repeat: loaded once
      auto s = scenario::load_scenario(scenario, overrides);
      if (!s) return Error{as_vary(s.error().message, joined(overrides), "")};
      point_seed = s.value().run.seed;
    }
    plan.points.push_back(PlannedPoint{p, point_folder(axes, p, grid.size(), repeats), overrides,
                                       derive_seed(point_seed, p.repeat), p.repeat > 0});
  }
  return plan;
}

std::vector<std::string> run_arguments(const Plan& plan, const PlannedPoint& p, const std::string& out, bool force) {
  std::vector<std::string> args{"run", plan.scenario};
  for (const std::string& o : p.overrides) {
    args.push_back("--set");
    args.push_back(o);
  }
  if (p.seed_given) {
    args.push_back("--seed");
    args.push_back(fmt::format("{}", p.seed));
  }
  args.push_back("--out");
  args.push_back(out);
  if (force) args.push_back("--force");
  // A point's plots and report take seconds each; the sweep draws its own across points,
  // and scripts/plot.py DIR draws one point's when wanted.
  args.push_back("--no-plots");
  return args;
}

}  // namespace rtb::sweep
