// The figures of the results model (summary.h) that need more than one node's counters:
// a flow's throughput needs its receiver's bytes and its sender's completion, the totals
// need every flow and every marking queue. Computed here once, from the model, for a run
// and for the merge of a split run's parts alike.
#pragma once

#include <vector>

#include "core/units.h"
#include "results/summary.h"

namespace rtb::results {

// Fills each flow's throughput_gbps, `totals` and `fct_slowdown` from the rest.
void derive(Summary& s);

// `bytes` over `span` in Gb/s; 0 over an empty span.
double gbps(uint64_t bytes, Time span);

// Jain's fairness index of `x`: (sum x)^2 / (n sum x^2); 1 when all are equal.
double jain_fairness(const std::vector<double>& x);

}  // namespace rtb::results
