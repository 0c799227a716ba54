// A virtual-time run across MPI ranks (runtime/ranks.h, lib/mpi): what the runner does
// besides what it does in one process. The partitions go to the ranks round robin; each
// rank builds, runs, samples and summarizes only its own; rank 0 joins the series as they
// come (rank_series.h) and the summaries at the end (lib/results merge.h, then the nodes put
// back in the scenario's order), so its results folder is byte for byte the one-process one.
#pragma once

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "results/summary.h"
#include "runtime/ranks.h"
#include "scenario/scenario.h"
#include "testbed/partitioning.h"

namespace rtb::testbed {

// The plan across `ranks` (one thread each), or why not, in one line.
Status place_on_ranks(Partitioning& plan, const runtime::Ranks& ranks, bool capturing, bool standing_in);

// Every rank: refused on rank 0, in one line naming the rank, unless every rank runs the
// same rocetb build on the same scenario (its name, seed, duration, nodes, cables and
// flows): on a cluster each machine loads its own copy of both.
Status same_run_everywhere(runtime::Ranks& ranks, const scenario::Scenario& s);

// Rank 0: the joined summary; the other ranks: their own, unchanged.
Expected<results::Summary> join_summaries(runtime::Ranks& ranks, const scenario::Scenario& s,
                                          const results::Summary& mine);

// Rank 0: {"ranks", "each": [every rank's `mine`, with its rank and host]}; the others: null.
nlohmann::ordered_json ranks_json(runtime::Ranks& ranks, nlohmann::ordered_json mine);

}  // namespace rtb::testbed
