// A tap on a wire link (design.md, "capture / replay / fault"): sees every frame the
// moment it starts on the wire, after the link's fault hooks judged it, so a capture holds
// the bytes that travel (a corrupted frame with its flipped byte) and knows which frames
// the cable then lost. The link calls it only when one is set: a link without a tap pays
// one null check per frame.
//
// The tap runs on the lcore that owns the link's sending end, inside its poll: it must not
// block, allocate or keep the mbuf (the link goes on using it).
#pragma once

#include "core/units.h"
#include "runtime/link_faults.h"

struct rte_mbuf;

namespace rtb::runtime {

class FrameTap {
 public:
  // `now`: the sending stage's poll; `start`: when the frame's first bit leaves the sending
  // MAC (later than `now` for a PFC frame that waits for the frame on the wire).
  virtual void on_frame(Time now, Time start, const rte_mbuf* frame, LinkFaults::Verdict verdict) = 0;

 protected:
  ~FrameTap() = default;  // owned by whoever set it, never through this interface
};

}  // namespace rtb::runtime
