#include "sweep/plan.h"

#include <fmt/format.h>

#include "scenario/load.h"

namespace rtb::sweep {
namespace {

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

std::string key_of(const std::string& kv) { return kv.substr(0, kv.find('=')); }

std::string joined(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& s : v) out += (out.empty() ? "" : ",") + s;
  return out;
}

// The override key a loader's message blames ("--set KEY: WHY", "--set KEY=VALUE: WHY" or
// "--set KEY: PATH: WHY"), or "" when it blames the file.
std::string blamed_key(const std::string& line) {
  const std::string set = "--set ";
  if (line.rfind(set, 0) != 0) return "";
  return line.substr(set.size(), line.find_first_of(":=", set.size()) - set.size());
}

// The message past its "--set KEY: " or "--set KEY=VALUE: " prefix.
std::string reason(const std::string& line, const std::string& key) {
  std::string rest = line.substr(std::string("--set ").size() + key.size());
  if (rest.starts_with("=")) {
    const size_t colon = rest.find(": ");
    return colon == std::string::npos ? rest : rest.substr(colon + 2);
  }
  return rest.starts_with(": ") ? rest.substr(2) : rest;
}

// The loader's first line told as the option that gave what it blames: the axis value of
// this point, a shared --set or --cc, or else the point's combination of values.
std::string as_option(const std::string& message, const std::vector<SharedOverride>& shared,
                      const std::vector<std::string>& point) {
  const std::string line = first_line(message);
  if (const std::string key = blamed_key(line); !key.empty()) {
    for (const std::string& kv : point) {
      if (key_of(kv) == key) return fmt::format("--vary {}: {}", kv, reason(line, key));
    }
    for (const SharedOverride& o : shared) {
      if (key_of(o.override) == key) return fmt::format("{}: {}", o.option, reason(line, key));
    }
  }
  return point.empty() ? line : fmt::format("--vary {}: {}", joined(point), line);
}

std::vector<std::string> with_shared(const std::vector<SharedOverride>& shared, const std::vector<std::string>& own) {
  std::vector<std::string> out;
  for (const SharedOverride& o : shared) out.push_back(o.override);
  out.insert(out.end(), own.begin(), own.end());
  return out;
}

}  // namespace

Expected<Plan> plan_sweep(const std::string& scenario, const std::vector<SharedOverride>& shared,
                          const std::vector<Axis>& axes, uint32_t repeats) {
  if (Status st = check_axes(axes); !st) return Error{st.message()};
  if (repeats == 0) return Error{"--repeat 0: expected a whole number from 1"};
  auto base = scenario::load_scenario(scenario);
  if (!base) return Error{base.error().message};  // the scenario's own errors, one per line
  if (!shared.empty()) {  // blamed on --set or --cc before any point
    auto with = scenario::load_scenario(scenario, with_shared(shared, {}));
    if (!with) return Error{as_option(with.error().message, shared, {})};
  }
  Plan plan{scenario, base.value().name, shared, axes, repeats, {}, {}};
  const auto add_files = [&plan](const scenario::Scenario& s) {
    for (const std::string& f : s.files) {
      if (std::find(plan.files.begin(), plan.files.end(), f) == plan.files.end()) plan.files.push_back(f);
    }
  };
  const std::vector<Point> grid = expand_grid(axes, repeats);
  uint64_t point_seed = 0;
  for (const Point& p : grid) {
    const std::vector<std::string> overrides = point_overrides(axes, p);
    if (p.repeat == 0) {  // the same combination for every repeat: loaded once
      auto s = scenario::load_scenario(scenario, with_shared(shared, overrides));
      if (!s) return Error{as_option(s.error().message, shared, overrides)};
      point_seed = s.value().run.seed;
      add_files(s.value());
    }
    plan.points.push_back(PlannedPoint{p, point_folder(axes, p, grid.size(), repeats), overrides,
                                       derive_seed(point_seed, p.repeat), p.repeat > 0});
  }
  return plan;
}

std::vector<std::string> run_arguments(const Plan& plan, const PlannedPoint& p, const std::string& out, bool force) {
  std::vector<std::string> args{"run", plan.scenario};
  for (const std::string& o : with_shared(plan.shared, p.overrides)) {
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
