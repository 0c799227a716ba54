// Thresholds for a lossless switch from first principles (reference §3):
//
//   headroom per (port, lossless PG) = what arrives after XOFF until the neighbour stops
//     (sw::headroom_need: the switch's own formula, NVIDIA's and SONiC's beside it);
//   headroom pool (BUFFER_POOL xoff) = ports x lossless PGs x headroom / over-subscription
//     (SONiC's shared headroom pool with over_subscribe_ratio; 1 = every PG at once);
//   shared = buffer - reserved - headroom pool;
//   XOFF (static_th) = shared / (ports x lossless PGs), whole cells: the shared pool holds
//     every lossless PG at its XOFF point at once, so none can find it empty before XOFF;
//   XON (xon_offset) = one largest frame below XOFF (mlx5 port_buffer.c
//     update_xoff_threshold: xon_threshold = xoff_threshold - max_mtu);
//   ECN Kmin/Kmax/Pmax: ecn_suggestion.h.
#pragma once

#include <cstdint>
#include <string>

#include "core/error.h"
#include "plan/ecn_suggestion.h"
#include "switch/config.h"
#include "switch/headroom.h"

namespace rtb::plan {

// How conservative the plan is.
struct PlanOptions {
  uint32_t oversubscribe = 1;         // headroom pool = all PGs' headroom / this
  uint32_t small_packet_percent = 0;  // share of minimum frames in the headroom (SONiC's stock: 100)
};

struct Plan {
  sw::HeadroomNeed need;  // of the port that needs the most
  std::string need_port;
  uint64_t lossless_pgs = 0;  // ports x lossless PGs
  PlanOptions options;
  Bytes reserved;        // ports x the lossless PGs' "size"
  Bytes headroom_pool;   // BUFFER_POOL xoff
  Bytes shared;          // buffer - reserved - headroom pool
  Bytes xoff_threshold;  // BUFFER_PROFILE static_th of the lossless PGs
  Bytes xon_offset;
  EcnSuggestion ecn;
  sw::SwitchConfig config;  // the input with all of the above set
};

// The headroom need of every port, the largest (ties: the first port).
sw::HeadroomNeed largest_need(const sw::SwitchConfig& c, uint32_t small_packet_percent, std::string* port_name);

// Fails when the headroom alone does not fit the buffer, with the arithmetic.
Expected<Plan> make_plan(const sw::SwitchConfig& in, const PlanOptions& options = {});

// The plan as lines of arithmetic, section by section.
std::string describe(const Plan& p);

}  // namespace rtb::plan
