// The crossing links of a partitioned run whose two ends are in different processes (MPI
// ranks, ranks.h). Each rank builds only its partitions' stages, and both wires of every
// cable that has an end there. After every window, the frames staged on the wires this
// rank sends to another rank are written into one message per rank (the frame's bytes,
// its FrameMeta and its arrival) and freed here; the frames that arrive are copied into
// mbufs of the receiving partition's pools and staged on this rank's copy of the wire, in
// the same buffer (by window parity) that its sender would have filled in one process. So
// the receiving partition takes them in at the start of its next window exactly as it
// takes a frame from a partition on another thread (partitioned_scheduler.h), and the
// lookahead check there covers them too.
#pragma once

#include <cstdint>
#include <vector>

#include "core/units.h"
#include "runtime/pool/mbuf_pool_set.h"
#include "runtime/ranks.h"
#include "runtime/wire_link.h"

namespace rtb::runtime {

class RankCrossings {
 public:
  explicit RankCrossings(Ranks& ranks);

  // `id` names the wire on every rank (the same for both ends), below 2^31.
  void add_outgoing(WireLink& link, uint32_t id, uint32_t to_rank);
  void add_incoming(WireLink& link, uint32_t id, PoolSet& pools);

  // After this rank ran window `window` (every rank calls it): ships and takes in the
  // frames, and returns every rank's earliest next event and whether any rank failed.
  Ranks::Reduced after_window(uint64_t window, Time next, bool failed);

  uint64_t frames_sent() const { return frames_sent_; }
  uint64_t frames_received() const { return frames_received_; }
  uint64_t bytes_sent() const { return bytes_sent_; }
  // Wall time inside the exchange: waiting for the slowest rank's window, and the transfer.
  double exchange_seconds() const { return exchange_seconds_; }

 private:
  struct Outgoing {
    WireLink* link;
    uint32_t id;
    uint32_t rank;
  };
  struct Incoming {
    WireLink* link = nullptr;
    PoolSet* pools = nullptr;
  };
  void write(Message& m, uint32_t id, Time arrival, rte_mbuf* frame);
  void read(const Message& m, uint32_t parity);

  Ranks& ranks_;
  std::vector<Outgoing> outgoing_;
  std::vector<Incoming> incoming_;  // by id
  std::vector<Message> out_, in_;   // per rank, kept between windows (no allocation once grown)
  uint64_t frames_sent_ = 0;
  uint64_t frames_received_ = 0;
  uint64_t bytes_sent_ = 0;
  double exchange_seconds_ = 0;
};

}  // namespace rtb::runtime
