// FCT slowdown figures, as the HPCC paper plots them (Li et al., SIGCOMM 2019, Figs. 9-11)
// and as its simulator's analysis computes them (analysis/fct_analysis.py): finished flows
// sorted by size, cut into groups of equal count (5 % of the flows each, its default
// step), each group's median, 95th and 99th percentile slowdown beside its largest size.
// Percentiles here are nearest-rank (core/nearest_rank.h), as every percentile of the
// summary; the simulator's script indexes a[int(n p)], one value higher at most.
#pragma once

#include <optional>
#include <vector>

#include "results/summary.h"

namespace rtb::results {

// Over the flows with a slowdown (finished, with an ideal FCT); none when no flow has one.
std::optional<FctSlowdown> fct_slowdown(const std::vector<FlowResult>& flows);

}  // namespace rtb::results
