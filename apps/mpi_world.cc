#include "apps/mpi_world.h"

#include <chrono>
#include <memory>
#include <thread>

namespace rtb::apps {
namespace {

std::unique_ptr<mpi::MpiRanks>& world() {
  static std::unique_ptr<mpi::MpiRanks> w;  // MPI_Finalize at exit
  return w;
}

}  // namespace

Status start_mpi(int& argc, char**& argv) {
  if (!mpi::MpiRanks::launched()) return {};
  auto r = mpi::MpiRanks::init(argc, argv);
  if (!r) return Error{r.error().message};
  world() = std::move(r).value();
  return {};
}

mpi::MpiRanks* mpi_ranks() { return world().get(); }

int fail_everywhere(int code) {
  if (world() && code != 0) mpi::MpiRanks::abort_all(code);
  return code;
}

int refuse_everywhere(int code) {
  if (!world() || code == 0) return code;
  if (world()->rank() != 0) std::this_thread::sleep_for(std::chrono::seconds(10));
  mpi::MpiRanks::abort_all(code);
}

}  // namespace rtb::apps
