// summary.json (design.md "Results"): what a run measured, deterministic for a
// scenario and seed in virtual time — no wall time, no paths, keys in a fixed order.
#pragma once

#include <nlohmann/json.hpp>

#include "core/units.h"
#include "testbed/sampler.h"
#include "testbed/testbed.h"

namespace rtb::testbed {

// `end` is the simulated instant the run stopped at.
nlohmann::ordered_json summarize(const Testbed& t, const SampleTotals& sampler, Time end);

// Jain's fairness index of `x`: (sum x)^2 / (n sum x^2); 1 when all are equal.
double jain_fairness(const std::vector<double>& x);

}  // namespace rtb::testbed
