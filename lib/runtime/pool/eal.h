// Starting DPDK's EAL once per process, with errors a user can act on.
//
// Public API:
//   EalOptions o;                       // eal_args.h: defaults for virtual runs and tests
//   o.pool_bytes = sizes.memory_bytes();
//   if (Status s = start_eal(o); !s) { print(s.message()); return 1; }
//   ...
//   stop_eal();                         // rte_eal_cleanup + remove the empty runtime dir
//
// The EAL initialises once per process: a second start_eal() (after a success or a
// failure) is an error that says so.
#pragma once

#include <string>
#include <vector>

#include "core/error.h"
#include "runtime/pool/eal_args.h"

namespace rtb::runtime {

Status start_eal(const EalOptions& options);

bool eal_running();

// Wall time rte_eal_init() took in start_eal() (0 before).
double eal_start_seconds();

// The argument vector the running EAL was started with (empty before start_eal()).
const std::vector<std::string>& eal_arguments_used();

// The CPUs the process could run on before start_eal(): rte_eal_init() pins the calling
// thread to the main lcore's core, and threads it starts later inherit that. Threads that
// are not lcores (parallel virtual time's partitions) may widen theirs back to this. Empty
// before start_eal().
const std::vector<unsigned>& cpus_before_eal();

// How many CPUs the process may run on: cpus_before_eal() once the EAL runs, the calling
// thread's affinity before (at least 1).
uint32_t usable_cpus();
// The same CPUs, listed (empty if the kernel does not say).
std::vector<unsigned> usable_cpu_list();
// Ok when every lcore is a distinct CPU of usable_cpu_list(); else what is wrong with
// the first that is not ("lcore 7 is not a CPU this process may run on (0-1)").
Status check_lcores_usable(const std::vector<unsigned>& lcores);

// rte_eal_cleanup() and removal of this process's (empty) runtime folder. Call once, at
// the end, after every pool and port is released.
Status stop_eal();

// One sentence saying what went wrong and what to do, for an rte_eal_init() failure with
// this rte_errno (0 when the EAL set none). `args` is the command line that failed.
std::string explain_eal_failure(int rte_errno_value, const std::vector<std::string>& args);

}  // namespace rtb::runtime
