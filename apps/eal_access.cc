// access() as the statically linked EAL sees it (`-Wl,--wrap=access`): while it starts,
// its CPU and NUMA probes are answered from one listing of sysfs
// (runtime/pool/eal_topology_probe.h); every other call is passed on unchanged.
#include "runtime/pool/eal_topology_probe.h"

extern "C" int __real_access(const char* path, int mode);

extern "C" int __wrap_access(const char* path, int mode) {
  if (const auto answered = rtb::runtime::eal_topology_access(path, mode)) return *answered;
  return __real_access(path, mode);
}
