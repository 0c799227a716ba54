#include "sweep/plan.h"

#include <fmt/format.h>

#include "scenario/load.h"

namespace rtb::sweep {
namespace {

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

std::string joined(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& s : v) out += (out.empty() ? "" : ",") + s;
  return out;
}

// The overrides of a point as the loader takes them: the shared ones first, each named by
// its option in errors, then the point's own, each named "--vary KEY=VALUE".
std::vector<scenario::Override> labelled(const std::vector<SharedOverride>& shared,
                                         const std::vector<std::string>& point) {
  std::vector<scenario::Override> out = shared;
  for (const std::string& kv : point) out.push_back({kv, "--vary " + kv});
  return out;
}

// The loader's first line, which names the option that gave the value it blames; one that
// names none (a combination the scenario refuses as a whole) is told as the point's values.
std::string as_option(const std::string& message, const std::vector<scenario::Override>& given,
                      const std::vector<std::string>& point) {
  const std::string line = first_line(message);
  for (const scenario::Override& o : given) {
    if (line.starts_with(o.option + ": ")) return line;
  }
  return point.empty() ? line : fmt::format("--vary {}: {}", joined(point), line);
}

// Every KEY=VALUE of a point, shared ones first, as `rocetb run --set` takes them.
std::vector<std::string> assignments(const std::vector<SharedOverride>& shared, const std::vector<std::string>& own) {
  std::vector<std::string> out;
  for (const SharedOverride& o : shared) out.push_back(o.assignment);
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
    auto with = scenario::load_scenario_from_options(scenario, labelled(shared, {}));
    if (!with) return Error{as_option(with.error().message, labelled(shared, {}), {})};
  }
  Plan plan{scenario, base.value().name, shared, axes, repeats, {}, {}};
  const std::vector<Point> grid = expand_grid(axes, repeats);
  uint64_t point_seed = 0;
  for (const Point& p : grid) {
    const std::vector<std::string> overrides = point_overrides(axes, p);
    if (p.repeat == 0) {  // the same combination for every repeat: loaded once
      const std::vector<scenario::Override> given = labelled(shared, overrides);
      auto s = scenario::load_scenario_from_options(scenario, given);
      if (!s) return Error{as_option(s.error().message, given, overrides)};
      point_seed = s.value().run.seed;
      for (const std::string& f : s.value().files) scenario::add_once(plan.files, f);
    }
    plan.points.push_back(PlannedPoint{p, point_folder(axes, p, grid.size(), repeats), overrides,
                                       derive_seed(point_seed, p.repeat), p.repeat > 0});
  }
  return plan;
}

std::vector<std::string> run_arguments(const Plan& plan, const PlannedPoint& p, const std::string& out, bool force) {
  std::vector<std::string> args{"run", plan.scenario};
  for (const std::string& o : assignments(plan.shared, p.overrides)) {
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
