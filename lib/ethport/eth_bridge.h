// The far end of a cable that leaves the lcore or the process, in realtime runs: a stage
// that moves frames between a WireLink pair and a DPDK port (design.md "The pipeline").
//
//  - outbound: the local stage sends on `outbound` as on any wire link (the WireLink's
//    serialization at the link rate is the MAC's pacing); each poll the bridge takes the
//    frames that have arrived at its end (outbound->receive) and tx-bursts them, a burst
//    of up to kBurst at a time until none is left. Frames
//    the port refuses are HELD here (one burst, a fixed array) and retried next poll, and
//    the bridge takes nothing more from the link while it holds any. The link's in-flight
//    ring then fills, WireLink::can_send() turns false (it needs room() > kControlReserve)
//    and the sending stage keeps its frames in its own queues: back-pressure, as from a
//    NIC's full tx ring, never a silent drop.
//  - inbound: rx-bursts at most min(inbound->room(), one burst) frames and places each at
//    the receiving end as arrived now (WireLink::deliver: the remote MAC serialized it
//    already). Frames the bridge does not take wait in the device; what the device itself
//    drops is its own imissed (EthPort::stats_json()).
//  - received frames get a zeroed FrameMeta (the PMD does not reset the private area), and
//    where the driver copied the frame into an rtb data mbuf, the bytes it overwrote are
//    marked for restoring to the payload pattern at the mbuf's next build.
//  - next_deadline() is Time::zero(): realtime lcores poll the bridge every loop; it is
//    never run by the virtual scheduler (a PMD cannot say when a frame will arrive).
//
// Public API:
//   EthBridge b("host0:eth", *port, &cable.ab /*host0 -> port*/, &cable.ba /*port -> host0*/);
//   b.poll(now);                 // on the lcore that owns the port's queues
//   b.counters().tx_frames; ...  // counted where frames cross the port
//   b.drain();                   // end of run: frees the held frames
//   b.set_rx_rewrite(fn, ctx);   // fn(ctx, frame) on each received frame before delivery
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "core/units.h"
#include "ethport/eth_port.h"
#include "runtime/stage.h"
#include "runtime/wire_link.h"

namespace rtb::ethport {

struct BridgeCounters {
  uint64_t tx_frames = 0;        // frames the port accepted
  uint64_t tx_bytes = 0;         // their lengths without FCS
  uint64_t tx_held_retries = 0;  // polls that found the port full (frames held)
  uint64_t rx_frames = 0;        // frames received and delivered to `inbound`
  uint64_t rx_bytes = 0;
  uint64_t rx_dropped_chained = 0;  // frames a driver split over several mbufs (counted, freed)
  // Mbufs whose length fields cannot describe a frame in their buffer (pkt_len other than
  // data_len, or data_off + data_len past buf_len): a broken driver or peer. Counted, freed,
  // never parsed.
  uint64_t rx_dropped_malformed = 0;
};

class EthBridge final : public runtime::Stage {
 public:
  static constexpr uint16_t kBurst = 32;

  // Either link may be null (tx-only / rx-only). `outbound` is the link whose receiving
  // end this bridge is; `inbound` the link whose sending end it is.
  EthBridge(std::string name, EthPort& port, runtime::WireLink* outbound,
            runtime::WireLink* inbound);

  void poll(Time now) override;
  Time next_deadline() const override { return Time::zero(); }
  bool polled_at_now_only() const override { return true; }  // a PMD's time is the clock's

  // Called on every received frame the bridge delivers, before it is delivered (a
  // benchmark renumbers a replayed capture's frames here: bench/psn_renumber.h). One
  // indirect call per frame when set; none otherwise.
  using RxRewrite = void (*)(void* context, rte_mbuf* frame);
  void set_rx_rewrite(RxRewrite fn, void* context) {
    rx_rewrite_ = fn;
    rx_rewrite_context_ = context;
  }

  const BridgeCounters& counters() const { return counters_; }
  uint32_t held() const { return held_count_; }  // frames refused by the port, waiting
  // Frees the held frames (end of a run); returns how many.
  uint32_t drain();

 private:
  void transmit(Time now);
  bool send_held();  // true when every held frame went
  void receive(Time now);

  EthPort& port_;
  runtime::WireLink* outbound_;
  runtime::WireLink* inbound_;
  bool copies_;  // the driver copies frames into our mbufs (all but ring pairs)
  std::array<rte_mbuf*, kBurst> held_{};
  std::array<uint32_t, kBurst> held_len_{};
  uint16_t held_first_ = 0;
  uint16_t held_count_ = 0;
  std::array<rte_mbuf*, kBurst> rx_burst_{};
  RxRewrite rx_rewrite_ = nullptr;
  void* rx_rewrite_context_ = nullptr;
  BridgeCounters counters_;
};

}  // namespace rtb::ethport
