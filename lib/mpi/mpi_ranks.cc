#include "mpi/mpi_ranks.h"

#include <mpi.h>

#include <climits>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace rtb::mpi {
namespace {

int as_count(size_t n) {
  if (n > INT_MAX) {
    std::fprintf(stderr, "rocetb: internal error: an MPI message of %zu bytes (at most %d)\n", n, INT_MAX);
    MpiRanks::abort_all(1);
  }
  return static_cast<int>(n);
}

}  // namespace

bool MpiRanks::launched() {
  const char* n = std::getenv("OMPI_COMM_WORLD_SIZE");
  return n != nullptr && std::atoi(n) > 1;
}

Expected<std::unique_ptr<MpiRanks>> MpiRanks::init(int& argc, char**& argv) {
  if (MPI_Init(&argc, &argv) != MPI_SUCCESS) return Error{"MPI_Init failed: started by mpirun?"};
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return std::unique_ptr<MpiRanks>(new MpiRanks(static_cast<uint32_t>(rank), static_cast<uint32_t>(size)));
}

MpiRanks::~MpiRanks() { MPI_Finalize(); }

void MpiRanks::abort_all(int code) {
  MPI_Abort(MPI_COMM_WORLD, code);
  std::exit(code);  // not reached
}

std::string MpiRanks::host_name() const {
  char name[MPI_MAX_PROCESSOR_NAME];
  int len = 0;
  MPI_Get_processor_name(name, &len);
  return std::string(name, static_cast<size_t>(len));
}

runtime::Ranks::Reduced MpiRanks::exchange(const std::vector<runtime::Message>& out,
                                           std::vector<runtime::Message>& in, Time next, bool failed) {
  // To each rank: the bytes it gets, this rank's next event, whether this rank failed.
  std::vector<uint64_t> words(3 * size_), got(3 * size_);
  for (uint32_t r = 0; r < size_; ++r) {
    words[3 * r] = r == rank_ ? 0 : out[r].size();
    words[3 * r + 1] = next.ps();
    words[3 * r + 2] = failed ? 1 : 0;
  }
  MPI_Alltoall(words.data(), 3, MPI_UINT64_T, got.data(), 3, MPI_UINT64_T, MPI_COMM_WORLD);
  Reduced r{next, failed};
  in.resize(size_);
  std::vector<MPI_Request> requests;
  for (uint32_t from = 0; from < size_; ++from) {
    r.next = std::min(r.next, Time::ps(got[3 * from + 1]));
    r.failed = r.failed || got[3 * from + 2] != 0;
    in[from].resize(from == rank_ ? 0 : got[3 * from]);
    if (in[from].empty()) continue;
    requests.emplace_back();
    MPI_Irecv(in[from].data(), as_count(in[from].size()), MPI_BYTE, static_cast<int>(from), 0, MPI_COMM_WORLD,
              &requests.back());
  }
  for (uint32_t to = 0; to < size_; ++to) {
    if (to == rank_ || out[to].empty()) continue;
    requests.emplace_back();
    MPI_Isend(out[to].data(), as_count(out[to].size()), MPI_BYTE, static_cast<int>(to), 0, MPI_COMM_WORLD,
              &requests.back());
  }
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  return r;
}

Time MpiRanks::max(Time t) {
  uint64_t v = t.ps(), m = 0;
  MPI_Allreduce(&v, &m, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
  return Time::ps(m);
}

uint64_t MpiRanks::sum(uint64_t v) {
  uint64_t s = 0;
  MPI_Allreduce(&v, &s, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  return s;
}

bool MpiRanks::any(bool b) {
  int v = b ? 1 : 0, m = 0;
  MPI_Allreduce(&v, &m, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return m != 0;
}

std::vector<runtime::Message> MpiRanks::gather(std::span<const std::byte> mine) {
  const uint64_t n = mine.size();
  std::vector<uint64_t> sizes(rank_ == 0 ? size_ : 0);
  MPI_Gather(&n, 1, MPI_UINT64_T, sizes.data(), 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  std::vector<int> counts, displs;
  runtime::Message all;
  if (rank_ == 0) {
    size_t total = 0;
    for (uint64_t s : sizes) {
      counts.push_back(as_count(s));
      displs.push_back(as_count(total));
      total += s;
    }
    all.resize(total);
  }
  MPI_Gatherv(mine.data(), as_count(mine.size()), MPI_BYTE, all.data(), counts.data(), displs.data(), MPI_BYTE, 0,
              MPI_COMM_WORLD);
  std::vector<runtime::Message> each;
  for (uint32_t r = 0; r < counts.size(); ++r) {
    each.emplace_back(all.begin() + displs[r], all.begin() + displs[r] + counts[r]);
  }
  return each;
}

}  // namespace rtb::mpi
