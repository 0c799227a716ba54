// The processes of one virtual-time run (MPI ranks, lib/mpi): what the partitioned
// scheduler and the runner need of each other, in times and bytes only, so that nothing
// here depends on the transport. Every call is a collective: every rank makes the same
// calls in the same order (the windows, decided from reduced values, are the same on all).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/units.h"

namespace rtb::runtime {

using Message = std::vector<std::byte>;  // what one rank sends another

class Ranks {
 public:
  virtual ~Ranks() = default;
  virtual uint32_t rank() const = 0;
  virtual uint32_t size() const = 0;
  // The machine this rank runs on (run.json).
  virtual std::string host_name() const = 0;

  // After a window: out[r] goes to rank r (out[rank()] stays empty); returns in[r], what
  // rank r sent here. With it, every rank's `next` (the earliest of them is returned) and
  // whether any rank `failed`. This is the barrier between ranks.
  struct Reduced {
    Time next;
    bool failed = false;
  };
  virtual Reduced exchange(const std::vector<Message>& out, std::vector<Message>& in, Time next, bool failed) = 0;

  virtual Time max(Time t) = 0;
  virtual uint64_t sum(uint64_t v) = 0;
  virtual bool any(bool b) = 0;
  // Rank 0 gets every rank's bytes, its own included, in rank order; the others get none.
  virtual std::vector<Message> gather(std::span<const std::byte> mine) = 0;
};

}  // namespace rtb::runtime
