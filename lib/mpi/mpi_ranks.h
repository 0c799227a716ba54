// runtime::Ranks over MPI (Open MPI from Debian, libopenmpi-dev): the processes `mpirun`
// started for one `rocetb run`. A window's exchange is one MPI_Alltoall of three words per
// rank (the bytes this rank sends that one, its next event, whether it failed), then
// point-to-point messages only between ranks that have frames for each other.
#pragma once

#include <memory>

#include "core/error.h"
#include "runtime/ranks.h"

namespace rtb::mpi {

class MpiRanks final : public runtime::Ranks {
 public:
  // True when mpirun started this process as one of more than one rank (OMPI_COMM_WORLD_SIZE).
  static bool launched();
  // MPI_Init (once per process); MPI_Finalize when the object goes.
  static Expected<std::unique_ptr<MpiRanks>> init(int& argc, char**& argv);
  ~MpiRanks() override;
  // Stops every rank at once (MPI_Abort): a rank that fails alone would leave the others
  // waiting in a collective.
  [[noreturn]] static void abort_all(int code);

  uint32_t rank() const override { return rank_; }
  uint32_t size() const override { return size_; }
  std::string host_name() const override;

  Reduced exchange(const std::vector<runtime::Message>& out, std::vector<runtime::Message>& in, Time next,
                   bool failed) override;
  Time max(Time t) override;
  uint64_t sum(uint64_t v) override;
  bool any(bool b) override;
  std::vector<runtime::Message> gather(std::span<const std::byte> mine) override;

 private:
  MpiRanks(uint32_t rank, uint32_t size) : rank_(rank), size_(size) {}
  uint32_t rank_;
  uint32_t size_;
};

}  // namespace rtb::mpi
