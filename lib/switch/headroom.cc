#include "switch/headroom.h"

#include <fmt/format.h>

#include <array>
#include <cmath>

#include "runtime/wire_link.h"

namespace rtb::sw {
namespace {

struct QuantaEntry {
  uint64_t gbps;
  uint32_t quanta;
};
// SONiC cfgmgr/buffer_headroom_mellanox.lua, pause_quanta_per_speed (reference §3.2).
constexpr std::array<QuantaEntry, 8> kPauseQuanta{{
    {10, 67}, {25, 80}, {40, 118}, {50, 147}, {100, 394}, {200, 453}, {400, 905}, {800, 905},
}};

uint64_t cable_metres(Time propagation) { return (propagation.ps() + 4'999) / 5'000; }

// [MLX5-BUF] calculate_xoff, integer form:
//   (301 + 216 * len / 100) * speed_Mbps / 1000 + 272 * mtu / 100, speed floored at 40G.
void fill_mlx5(const HeadroomInputs& in, HeadroomNeed& out) {
  const uint64_t len = cable_metres(in.propagation);
  uint64_t speed_mbps = in.rate.bps() / 1'000'000;
  if (speed_mbps < 40'000) speed_mbps = 40'000;
  const uint64_t xoff = (301 + 216 * len / 100) * speed_mbps / 1000 + 272ULL * in.peer_mtu / 100;
  out.mlx5 = Bytes(xoff);
  out.mlx5_arithmetic = fmt::format(
      "NVIDIA mlx5 calculate_xoff: (301 + 2.16 x {} m) x {} Gb/s + 2.72 x {} B MTU = {} B", len,
      speed_mbps / 1000, in.peer_mtu, xoff);
}

// [SONIC-HDRM] cell_occupancy = (100 - small% + small% x worst_case_factor) / 100, with
// worst_case_factor = cell / 64 above 128 B cells, else 2 cell / (1 + cell).
double sonic_cell_occupancy(const HeadroomInputs& in) {
  const double cell = static_cast<double>(in.cell.count());
  const double worst = cell > 128 ? cell / 64 : 2 * cell / (1 + cell);
  const double small = in.small_packet_percent;
  return (100 - small + small * worst) / 100;
}

// [SONIC-HDRM]: xoff = lossless_mtu + (port_mtu + bytes_on_cable + peer_response) x
// cell_occupancy, rounded up to 1024 B; no gearbox and mac/phy delay 0 (a real switch
// reads that delay from STATE_DB ASIC_TABLE; the small-packet share is CONFIG_DB
// LOSSLESS_TRAFFIC_PATTERN small_packet_percentage).
void fill_sonic(const HeadroomInputs& in, uint32_t quanta, HeadroomNeed& out) {
  const uint64_t len = cable_metres(in.propagation);
  const double speed_mbps = static_cast<double>(in.rate.bps()) / 1e6;
  const double on_cable = 2.0 * static_cast<double>(len) * speed_mbps * 1e9 / 198'000'000.0 / 8192.0;
  const uint64_t response = uint64_t{quanta} * 512 / 8;
  const double occupancy = sonic_cell_occupancy(in);
  const double raw = in.local_mtu + (in.peer_mtu + on_cable + static_cast<double>(response)) * occupancy;
  const uint64_t xoff = (static_cast<uint64_t>(std::ceil(raw)) + 1023) / 1024 * 1024;
  out.sonic = Bytes(xoff);
  out.sonic_arithmetic = fmt::format(
      "SONiC buffer_headroom_mellanox: {} B lossless MTU + ({} B port MTU + {:.0f} B on cable "
      "[2 x {} m x {:.0f} Mb/s / 198000000 m/s / 8192] + {} B peer response [{} quanta x 64]) "
      "x {:.3f} cell occupancy [{} % small packets], rounded up to 1024 B = {} B",
      in.local_mtu, in.peer_mtu, on_cable, len, speed_mbps, response, quanta, occupancy,
      in.small_packet_percent, xoff);
}

// Stored bytes per byte on the wire of a frame of `len` bytes (without FCS).
double stored_per_wire_byte(uint32_t len, uint64_t cell) {
  const uint64_t stored = (len + cell - 1) / cell * cell;
  return static_cast<double>(stored) / static_cast<double>(runtime::wire_occupancy(len).count());
}

// MTU frames mixed with minimum frames (60 B without FCS) by their share.
double cell_factor(uint32_t mtu, uint64_t cell, uint32_t small_percent) {
  const double small = small_percent / 100.0;
  return (1 - small) * stored_per_wire_byte(mtu, cell) + small * stored_per_wire_byte(60, cell);
}

}  // namespace

uint32_t peer_response_quanta(Rate rate) {
  for (const QuantaEntry& e : kPauseQuanta) {
    if (rate <= Rate::gbps(e.gbps)) return e.quanta;
  }
  return kPauseQuanta.back().quanta;
}

HeadroomNeed headroom_need(const HeadroomInputs& in) {
  using runtime::wire_occupancy;
  HeadroomNeed out;
  out.pause_quanta = peer_response_quanta(in.rate);
  const double gbps = in.rate.gbps_f();
  const Bytes local_frame = wire_occupancy(in.local_mtu);
  out.terms.push_back({"frame on the wire ahead of the PFC frame", local_frame,
                       fmt::format("{} B MTU + 24 B FCS, preamble, gap", in.local_mtu)});
  out.terms.push_back({"the PFC frame itself", wire_occupancy(60), "64 B + 20 B preamble, gap"});
  const Bytes cable = in.rate.bytes_in(in.propagation * 2);
  out.terms.push_back({"in flight on the cable, both directions", cable,
                       fmt::format("2 x {:.3f} ns x {:.0f} Gb/s / 8",
                                   static_cast<double>(in.propagation.ps()) / 1e3, gbps)});
  out.terms.push_back({"neighbour's response time", Bytes(uint64_t{out.pause_quanta} * 64),
                       fmt::format("{} pause quanta x 512 bit / 8 at {:.0f} Gb/s",
                                   out.pause_quanta, gbps)});
  const Bytes peer_frame = wire_occupancy(in.peer_mtu);
  out.terms.push_back({"frame the neighbour had started", peer_frame,
                       fmt::format("{} B MTU + 24 B", in.peer_mtu)});
  for (const HeadroomTerm& t : out.terms) out.wire_sum += t.bytes;

  const uint64_t cell = in.cell.count() > 0 ? in.cell.count() : 1;
  out.cell_factor = std::max(1.0, cell_factor(in.peer_mtu, cell, in.small_packet_percent));
  const auto scaled = static_cast<uint64_t>(std::ceil(static_cast<double>(out.wire_sum.count()) * out.cell_factor));
  out.need = Bytes((scaled + cell - 1) / cell * cell);
  fill_mlx5(in, out);
  fill_sonic(in, out.pause_quanta, out);
  return out;
}

std::string HeadroomNeed::describe() const {
  std::string s;
  for (size_t i = 0; i < terms.size(); ++i) {
    s += fmt::format("  {}. {:<42} {:>9} B  ({})\n", i + 1, terms[i].what, terms[i].bytes.count(),
                     terms[i].arithmetic);
  }
  s += fmt::format("  sum {} B x cell rounding {:.3f}, rounded up to a cell = {} B needed\n",
                   wire_sum.count(), cell_factor, need.count());
  s += "  compare: " + mlx5_arithmetic + "\n";
  s += "  compare: " + sonic_arithmetic + "\n";
  return s;
}

}  // namespace rtb::sw
