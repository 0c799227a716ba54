// A sweep planned before anything runs: every point of the grid loaded as `rocetb run --set`
// would load it (scenario/load.h), with the overrides every point shares (--set, --cc)
// first, so a bad key, a bad value or a combination the scenario refuses stops the sweep in
// one line naming the option that gave it; each point gets its folder, its overrides and
// its seed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/error.h"
#include "scenario/overrides.h"
#include "sweep/grid.h"

namespace rtb::sweep {

// KEY=VALUE overrides every point gets before its own, each with the option it came from:
// "--set KEY=VALUE" as typed, or "--cc NAME" (a plug-in's path made absolute).
using SharedOverride = scenario::Override;

struct PlannedPoint {
  Point point;
  std::string folder;                  // name inside the sweep folder
  std::vector<std::string> overrides;  // KEY=VALUE, one per axis
  uint64_t seed = 0;                   // the run's seed (derive_seed)
  bool seed_given = false;             // passed as --seed (repeats after the first)
};

struct Plan {
  std::string scenario;  // the path as given
  std::string scenario_name;
  std::vector<SharedOverride> shared;
  std::vector<Axis> axes;
  uint32_t repeats = 1;
  std::vector<PlannedPoint> points;
  // The files the points' scenarios name (CDFs, captures, plug-ins), each once
  // (Scenario::files over every combination).
  std::vector<std::string> files;
};

// Errors are one line naming the option the loader blamed: "--set KEY=VALUE: WHY" or "--cc
// NAME: WHY" for a shared override, "--vary KEY=VALUE: WHY" for one value of an axis (in the
// first combination that holds it), and "--vary K1=V1,K2=V2: WHY" for a combination the
// scenario refuses as a whole.
Expected<Plan> plan_sweep(const std::string& scenario, const std::vector<SharedOverride>& shared,
                          const std::vector<Axis>& axes, uint32_t repeats);

// The `rocetb run` arguments of a point (after the program's name), `out` its folder.
std::vector<std::string> run_arguments(const Plan& plan, const PlannedPoint& p, const std::string& out, bool force);

}  // namespace rtb::sweep
