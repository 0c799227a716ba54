// The MPI ranks of this process, when mpirun started it as one of several (lib/mpi): a
// virtual-time `rocetb run` then runs its share of the partitions (lib/testbed run_ranks.h)
// and rank 0 writes the results folder.
#pragma once

#include "core/error.h"
#include "mpi/mpi_ranks.h"

namespace rtb::apps {

// In main, before the command line is parsed: MPI_Init when mpirun started several ranks.
Status start_mpi(int& argc, char**& argv);
// Null unless several ranks run.
mpi::MpiRanks* mpi_ranks();
// A failed run across ranks: this rank's error said, every rank stopped (a rank that
// returned alone would leave the others waiting for it). Otherwise returns `code`.
int fail_everywhere(int code);

}  // namespace rtb::apps
