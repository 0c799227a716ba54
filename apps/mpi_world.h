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
// A refusal every rank makes from the same inputs before the ranks talk: rank 0 stops the
// job and the others wait to be stopped with it, since every rank calling MPI_Abort at
// once can crash Open MPI 4's mpirun (it then exits 139, not `code`). A rank that is not
// stopped within 10 s (rank 0 did not refuse: its inputs differ) stops the job itself.
int refuse_everywhere(int code);

}  // namespace rtb::apps
