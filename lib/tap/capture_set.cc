#include "tap/capture_set.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <filesystem>
#include <tuple>

namespace rtb::tap {
namespace {

constexpr uint64_t kMinQueueSlots = 2;
constexpr uint64_t kMaxQueueSlots = uint64_t{1} << 31;

// Slots of a header and `max_captured` bytes that fit in `bytes` (a power of two).
uint32_t queue_slots(uint64_t bytes, uint32_t max_captured) {
  const uint64_t slots = std::clamp(bytes / (uint64_t{max_captured} + 32), kMinQueueSlots, kMaxQueueSlots);
  return static_cast<uint32_t>(std::bit_floor(slots));
}

}  // namespace

Expected<std::unique_ptr<CaptureSet>> CaptureSet::open(const CaptureRequest& request,
                                                       const scenario::Topology& topo, const WireOf& wire_of,
                                                       Mode mode, uint64_t origin_ns, const SenderOf& sender_of) {
  auto plans = plan_captures(topo, request.what, "--capture");
  if (!plans) return plans.error();
  std::unique_ptr<CaptureSet> set(new CaptureSet(request, mode));
  if (mode == Mode::kOrdered) set->stage_frames_.assign(sender_of.stages, 0);
  std::vector<std::vector<Target>> by_direction(2 * topo.links.size());
  for (const FilePlan& plan : plans.value()) {
    if (Status st = set->add_file(plan, topo, wire_of, origin_ns, by_direction); !st) return Error{st.message()};
  }
  for (uint32_t i = 0; i < by_direction.size(); ++i) {
    if (by_direction[i].empty()) continue;
    const Direction d{i / 2, i % 2 == 0};
    set->attach(wire_of(d), std::move(by_direction[i]), mode == Mode::kOrdered ? sender_of.rank(d) : 0);
  }
  return set;
}

Status CaptureSet::add_file(const FilePlan& plan, const scenario::Topology& topo, const WireOf& wire_of,
                            uint64_t origin_ns, std::vector<std::vector<Target>>& by_direction) {
  const std::string path = (std::filesystem::path(request_.dir) / plan.file_name).string();
  auto file = CaptureFile::create(path, plan.what,
                                  {request_.snaplen, request_.max_frames, request_.max_bytes}, origin_ns);
  if (!file) return Error{"--capture " + plan.what + ": " + file.error().message};
  files_.push_back(std::make_unique<CaptureFile>(std::move(file).value()));
  for (const Direction& d : plan.directions) {
    if (wire_of(d) == nullptr) continue;  // sent from another process
    const uint32_t iface = files_.back()->add_interface(direction_name(topo, d));
    by_direction[2 * d.link + (d.a_to_b ? 0 : 1)].push_back({files_.back().get(), iface});
  }
  return {};
}

void CaptureSet::attach(runtime::WireLink* wire, std::vector<Target> targets, uint32_t sender) {
  const auto max_frame = static_cast<uint32_t>(wire->config().max_frame.count());
  const uint32_t kept = request_.snaplen == 0 ? max_frame : std::min(request_.snaplen, max_frame);
  Tapped t{wire, nullptr, nullptr, nullptr};
  if (mode_ == Mode::kDirect) {
    t.direct = std::make_unique<DirectTap>(std::move(targets), max_frame);
    wire->set_tap(t.direct.get());
  } else if (mode_ == Mode::kQueued) {
    t.queued = std::make_unique<QueuedTap>(std::move(targets), queue_slots(request_.queue_bytes, kept), kept);
    wire->set_tap(t.queued.get());
  } else {
    t.ordered = std::make_unique<OrderedTap>(std::move(targets), sender, &stage_frames_.at(sender), kept);
    wire->set_tap(t.ordered.get());
  }
  taps_.push_back(std::move(t));
}

void CaptureSet::write_ordered() {
  order_.clear();  // keeps its capacity from the last sample
  for (const Tapped& t : taps_) {
    if (!t.ordered) continue;
    for (const OrderedTap::Kept& k : t.ordered->kept()) order_.push_back({t.ordered.get(), &k});
  }
  std::sort(order_.begin(), order_.end(), [](const KeptRef& a, const KeptRef& b) {
    return std::tie(a.kept->now, a.kept->stage, a.kept->seq) < std::tie(b.kept->now, b.kept->stage, b.kept->seq);
  });
  for (const KeptRef& r : order_) {
    for (const Target& t : r.tap->targets()) {
      t.file->write(t.iface, r.kept->start, r.tap->bytes(*r.kept), r.kept->original_len, r.kept->verdict);
    }
  }
  order_.clear();
  for (Tapped& t : taps_) {
    if (t.ordered) t.ordered->clear();
  }
}

size_t CaptureSet::drain_some(size_t max_frames) {
  size_t written = 0;
  for (; written < max_frames; ++written) {
    QueuedTap* oldest = nullptr;
    const CapturedFrame* first = nullptr;
    std::span<const uint8_t> bytes;
    for (Tapped& t : taps_) {
      std::span<const uint8_t> b;
      const CapturedFrame* f = t.queued ? t.queued->queue().front(&b) : nullptr;
      if (f != nullptr && (first == nullptr || f->at < first->at)) {
        oldest = t.queued.get();
        first = f;
        bytes = b;
      }
    }
    if (oldest == nullptr) break;
    const auto verdict = static_cast<runtime::LinkFaults::Verdict>(first->note);
    for (const Target& t : oldest->targets()) t.file->write(t.iface, first->at, bytes, first->original_len, verdict);
    oldest->queue().pop();
  }
  return written;
}

void CaptureSet::drain() {
  // At most what the queues held when called, so a busy link cannot keep it here.
  size_t bound = 0;
  for (const Tapped& t : taps_) bound += t.queued ? t.queued->queue().slots() : 0;
  drain_some(bound);
}

Status CaptureSet::finish() {
  while (drain_some(SIZE_MAX) != 0) {
  }
  write_ordered();
  for (const Tapped& t : taps_) {
    const uint64_t link_frames = t.wire->counters().frames;
    for (const Target& x : t.targets()) {
      x.file->set_link_frames(x.iface, link_frames);
      if (t.queued) x.file->add_lost(x.iface, t.queued->lost());
    }
  }
  detach();
  Status first;
  for (auto& f : files_) {
    if (Status st = f->close(); !st && first) first = st;
  }
  return first;
}

void CaptureSet::detach() {
  for (Tapped& t : taps_) t.wire->set_tap(nullptr);
  taps_.clear();
}

CaptureSet::~CaptureSet() { detach(); }

nlohmann::ordered_json CaptureSet::to_json() const {
  nlohmann::ordered_json files = nlohmann::ordered_json::array();
  for (const auto& f : files_) files.push_back(f->to_json());
  const auto limit = [](uint64_t v) { return v == 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(v); };
  return {{"snaplen_bytes", limit(request_.snaplen)},
          {"max_frames", limit(request_.max_frames)},
          {"max_bytes", limit(request_.max_bytes)},
          {"queue_bytes", mode_ == Mode::kQueued ? nlohmann::ordered_json(request_.queue_bytes) : nlohmann::ordered_json(nullptr)},
          {"files", std::move(files)}};
}

}  // namespace rtb::tap
