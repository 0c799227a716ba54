// The captures of one run: the files a CaptureRequest names (capture_plan.h), the taps on
// the wire links they cover, and, after the run, what each file holds.
//
//   auto set = CaptureSet::open(request, topology, wire_of, CaptureSet::Mode::kQueued, origin);
//   ... run; realtime: set->drain() on the control thread every control period;
//       parallel virtual time: set->write_ordered() at each sample, no partition running ...
//   Status st = set->finish();         // writes what is queued, closes the files
//   run_json["captures"] = set->to_json();
//
// `wire_of` gives the wire link that sends in a direction, or null when that end is not
// built in this process (a split realtime run: the process holding the sender captures
// it). The set must be destroyed before those links (it takes its taps off them).
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "runtime/wire_link.h"
#include "scenario/scenario.h"
#include "tap/capture_file.h"
#include "tap/capture_plan.h"
#include "tap/capture_request.h"
#include "tap/taps.h"

namespace rtb::tap {

// CaptureSet::Mode::kOrdered: the stage that sends a direction, by its place in a
// one-thread run's scheduler (below `stages`).
struct SenderOf {
  std::function<uint32_t(Direction)> rank;
  uint32_t stages = 0;
};

class CaptureSet {
 public:
  enum class Mode { kDirect, kQueued, kOrdered };  // virtual time; realtime; parallel virtual time
  using WireOf = std::function<runtime::WireLink*(Direction)>;

  static Expected<std::unique_ptr<CaptureSet>> open(const CaptureRequest& request,
                                                    const scenario::Topology& topo, const WireOf& wire_of,
                                                    Mode mode, uint64_t origin_ns, const SenderOf& sender_of = SenderOf());
  ~CaptureSet();
  CaptureSet(const CaptureSet&) = delete;
  CaptureSet& operator=(const CaptureSet&) = delete;

  // kQueued, the control thread: writes the queued frames, oldest first across links.
  void drain();
  // kOrdered, while no partition runs: writes every kept frame in the one-thread order.
  void write_ordered();
  // After the run: the last drain, the losses, the files closed, the taps taken off.
  Status finish();
  // {"snaplen_bytes", "max_frames", "max_bytes", "queue_bytes" (realtime), "files": [CaptureFile::to_json()...]}
  nlohmann::ordered_json to_json() const;

 private:
  struct Tapped {
    runtime::WireLink* wire;
    std::unique_ptr<DirectTap> direct;
    std::unique_ptr<QueuedTap> queued;
    std::unique_ptr<OrderedTap> ordered;
    const std::vector<Target>& targets() const {
      return direct ? direct->targets() : queued ? queued->targets() : ordered->targets();
    }
  };
  CaptureSet(const CaptureRequest& r, Mode m) : request_(r), mode_(m) {}
  Status add_file(const FilePlan& plan, const scenario::Topology& topo, const WireOf& wire_of,
                  uint64_t origin_ns, std::vector<std::vector<Target>>& by_direction);
  void attach(runtime::WireLink* wire, std::vector<Target> targets, uint32_t sender);
  void detach();
  size_t drain_some(size_t max_frames);

  CaptureRequest request_;
  Mode mode_;
  std::vector<std::unique_ptr<CaptureFile>> files_;
  std::vector<Tapped> taps_;
  std::vector<uint64_t> stage_frames_;  // kOrdered: frames each stage sent, sized at open
  struct KeptRef {
    const OrderedTap* tap;
    const OrderedTap::Kept* kept;
  };
  std::vector<KeptRef> order_;  // kOrdered: write_ordered()'s sort, reused
};

}  // namespace rtb::tap
