#include "replay/open_loop.h"

#include <fmt/format.h>

#include <memory>

#include "ethport/eth_port.h"
#include "realtime/tsc_clock.h"
#include "replay/frame_mbufs.h"
#include "runtime/pool/mbuf_pool.h"
#include "runtime/wire_link.h"

namespace rtb::replay {
namespace {

// The port's rx side is never read, but every port needs an rx queue and pool; its data
// room (the largest frame) bounds EthPort::max_frame(), so it is rocetb's largest.
constexpr uint32_t kRxMbufs = 128;
constexpr uint16_t kRxDescriptors = 64;
constexpr uint16_t kRxDataRoom = RTE_PKTMBUF_HEADROOM + ethport::kMaxFrameBytes;

Status check_options(const OpenLoopOptions& o) {
  if (o.loops == 0) return Error{"--loop 0: expected at least 1 pass over the capture"};
  if (o.burst == 0 || o.burst > kMaxBurst) {
    return Error{fmt::format("--burst {}: expected 1 to {} frames per tx burst", o.burst, kMaxBurst)};
  }
  if (auto d = ethport::parse_device(o.device); !d) return Error{"--to: " + d.error().message};
  return {};
}

// The first frame longer than the port takes, named.
Status check_fits(const LoadedCapture& c, const ethport::EthPort& port, const std::string& device) {
  if (c.largest <= port.max_frame()) return {};
  for (size_t i = 0; i < c.frames(); ++i) {
    if (c.length[i] > port.max_frame()) {
      return Error{fmt::format("{}: frame {} is {} bytes (without FCS), longer than the {} bytes "
                               "device '{}' takes; replay onto a port with a larger MTU, or "
                               "leave such frames out of the capture", c.path, i + 1,
                               c.length[i], port.max_frame(), device)};
    }
  }
  return {};
}

// Frames sent with their FCS, preamble and IFG: whole passes, then the first frames of one.
uint64_t wire_bytes_of(const LoadedCapture& c, uint64_t frames) {
  uint64_t pass = 0;
  for (uint32_t len : c.length) pass += runtime::wire_occupancy(len).count();
  uint64_t bytes = frames / c.frames() * pass;
  for (size_t i = 0; i < frames % c.frames(); ++i) bytes += runtime::wire_occupancy(c.length[i]).count();
  return bytes;
}

OpenLoopResult describe_input(const OpenLoopInput& in) {
  OpenLoopResult r;
  r.options = in.options;
  r.capture_link = capture::link_type_name(in.capture.link);
  r.capture_frames = in.capture.frames();
  r.capture_bytes = in.capture.total_bytes;
  r.conversion = in.capture.conversion;
  r.timestamps_backwards = in.schedule.backwards;
  r.pass_length = in.schedule.period;
  return r;
}

}  // namespace

Expected<OpenLoopInput> prepare_open_loop(const OpenLoopOptions& options) {
  if (Status s = check_options(options); !s) return Error{s.message()};
  auto capture = load_capture(options.capture);
  if (!capture) return capture.error();
  OpenLoopInput in{options, std::move(capture.value()), {}};
  in.schedule = make_schedule(in.capture.ts_ns, in.capture.length, options.timing);
  return in;
}

uint64_t open_loop_eal_bytes(const OpenLoopInput& in) {
  return FrameMbufs::pool_bytes(in.capture) + uint64_t{kRxMbufs} * (kRxDataRoom + 512);
}

Expected<OpenLoopResult> run_open_loop(const OpenLoopInput& in) {
  auto frames = FrameMbufs::create(in.capture, "replay_frames");
  if (!frames) return frames.error();
  auto rx_pool = runtime::MbufPool::create({.name = "replay_rx", .count = kRxMbufs,
                                            .data_room = kRxDataRoom,
                                            .on_empty = runtime::OnEmpty::kCount});
  if (!rx_pool) return rx_pool.error();
  OpenLoopResult r = describe_input(in);
  {
    ethport::PortSpec spec{.device = in.options.device, .rx_descriptors = kRxDescriptors};
    auto port = ethport::EthPort::open(spec, rx_pool.value().mempool());
    if (!port) return Error{"--to: " + port.error().message};
    if (Status s = check_fits(in.capture, *port.value(), in.options.device); !s) {
      return Error{s.message()};
    }
    r.port_max_frame = port.value()->max_frame();
    realtime::TscClock clock = realtime::TscClock::calibrate();
    const SendPlan plan{.frames = frames.value().frames(), .count = frames.value().size(),
                        .schedule = &in.schedule, .passes = in.options.loops,
                        .burst = in.options.burst, .stop = in.options.stop};
    auto sender = std::make_unique<OpenLoopSender>(*port.value(), plan, clock);
    clock.start();
    sender->run();
    r.sent = sender->counters();
    r.timing_error = sender->timing_error();
    r.clock = clock.to_json();
    r.port_stats = port.value()->stats_json();
  }  // the port is closed here: a pcap file is complete, every frame freed
  r.wire_bytes = wire_bytes_of(in.capture, r.sent.frames);
  if (Status s = frames.value().check_no_leaks(); !s) return Error{s.message()};
  return r;
}

}  // namespace rtb::replay
