// Every frame of a loaded capture in an mbuf of its own, written once before the replay:
// the sender then only takes another reference to an mbuf (rte_mbuf_refcnt_update) and
// hands it to rte_eth_tx_burst, whose free drops that reference again. Nothing is copied
// or allocated per frame sent.
//
// The pool (runtime::MbufPool: RTE_MEMPOOL_F_NO_IOVA_CONTIG, so it needs no hugepages)
// holds exactly one mbuf per frame, each with the data room of the capture's longest frame.
// This object holds the first reference of each mbuf and frees them all at the end; the
// pool's leak check then says whether a driver kept a frame.
#pragma once

#include <rte_mbuf.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/error.h"
#include "replay/loaded_capture.h"
#include "runtime/pool/mbuf_pool.h"

namespace rtb::replay {

class FrameMbufs {
 public:
  // Needs the EAL. Errors: a frame too long for an mbuf (64 KiB), not enough EAL memory.
  static Expected<FrameMbufs> create(const LoadedCapture& capture, const std::string& pool_name);
  // Memory the pool takes for this capture (for the EAL's -m).
  static uint64_t pool_bytes(const LoadedCapture& capture);

  FrameMbufs(FrameMbufs&&) noexcept = default;
  FrameMbufs& operator=(FrameMbufs&&) = delete;
  FrameMbufs(const FrameMbufs&) = delete;
  ~FrameMbufs();

  // The mbufs in capture order (one reference each held here), followed by the first
  // kLookAhead again (wrapping as often as needed), so that a sender can prefetch the
  // mbuf kLookAhead frames ahead without a wrap test: frames()[i + kLookAhead] is valid
  // for every i < size().
  static constexpr size_t kLookAhead = 32;
  rte_mbuf* const* frames() const { return frames_.data(); }
  size_t size() const { return frames_.size() - kLookAhead; }
  // After every frame sent was freed by the driver: Error naming the pool otherwise.
  Status check_no_leaks();

 private:
  FrameMbufs(runtime::MbufPool pool, std::vector<rte_mbuf*> frames)
      : pool_(std::move(pool)), frames_(std::move(frames)) {}
  void release();

  runtime::MbufPool pool_;
  std::vector<rte_mbuf*> frames_;
};

}  // namespace rtb::replay
