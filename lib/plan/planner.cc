#include "plan/planner.h"

#include <fmt/format.h>

#include <algorithm>

#include "plan/fabric.h"
#include "switch/buffer_layout.h"

namespace rtb::plan {
namespace {

uint64_t lossless_pg_count(const sw::SwitchConfig& c) {
  uint64_t n = 0;
  for (int pg = 0; pg < sw::kPriorities; ++pg) n += c.lossless_pg(pg) ? 1 : 0;
  return n;
}

uint64_t round_up(uint64_t bytes, uint64_t cell) { return sw::cells_for(bytes, cell) * cell; }

Rate fastest_port(const sw::SwitchConfig& c) {
  Rate r = Rate::zero();
  for (const sw::PortConfig& p : c.ports) r = std::max(r, p.rate);
  return r;
}

uint32_t largest_mtu(const sw::SwitchConfig& c) {
  uint32_t m = 0;
  for (const sw::PortConfig& p : c.ports) m = std::max({m, p.mtu, c.peer_mtu(p)});
  return m;
}

void set_lossless(sw::SwitchConfig& c, const Plan& p) {
  c.pool.xoff = p.headroom_pool;
  for (int i = 0; i < sw::kPriorities; ++i) {
    if (c.lossless_pg(i)) {
      c.pg[i].mode = sw::ThresholdMode::kStatic;
      c.pg[i].static_th = p.xoff_threshold;
      c.pg[i].xoff = p.need.need;
      c.pg[i].xon_offset = p.xon_offset;
    }
    if (c.lossless_tc(i)) {
      sw::WredProfile w = c.wred[i].value_or(sw::WredProfile{});
      w.green_min_threshold = p.ecn.kmin;
      w.green_max_threshold = p.ecn.kmax;
      w.green_drop_probability = p.ecn.pmax_percent;
      c.wred[i] = w;
    }
  }
}

}  // namespace

sw::HeadroomNeed largest_need(const sw::SwitchConfig& c, uint32_t small_packet_percent, std::string* port_name) {
  sw::HeadroomNeed best;
  for (const sw::PortConfig& p : c.ports) {
    sw::HeadroomNeed n =
        sw::headroom_need({p.rate, p.propagation, p.mtu, c.peer_mtu(p), c.pool.cell, small_packet_percent});
    if (n.need > best.need) {
      best = std::move(n);
      if (port_name != nullptr) *port_name = p.name;
    }
  }
  return best;
}

Expected<Plan> make_plan(const sw::SwitchConfig& in, const PlanOptions& options) {
  Plan p;
  p.options = options;
  const uint64_t ratio = options.oversubscribe == 0 ? 1 : options.oversubscribe;
  p.need = largest_need(in, options.small_packet_percent, &p.need_port);
  const uint64_t cell = in.pool.cell.count();
  p.lossless_pgs = in.ports.size() * lossless_pg_count(in);
  if (p.lossless_pgs == 0) return Error{"no lossless priority group: expected --lossless with a priority 0..7"};
  p.headroom_pool = Bytes(round_up((p.lossless_pgs * p.need.need.count() + ratio - 1) / ratio, cell));
  for (int pg = 0; pg < sw::kPriorities; ++pg) {
    if (in.lossless_pg(pg)) p.reserved += Bytes(round_up(in.pg[pg].size.count(), cell) * in.ports.size());
  }
  const Bytes taken = p.reserved + p.headroom_pool;
  if (taken >= in.pool.size) {
    return Error{fmt::format(
        "buffer {} B: the headroom pool {} B ({} PGs x {} B / {}) and reserved {} B leave nothing "
        "shared: expected a buffer above {} B, fewer ports or lossless priorities, or --oversubscribe",
        in.pool.size.count(), p.headroom_pool.count(), p.lossless_pgs, p.need.need.count(), ratio,
        p.reserved.count(), taken.count())};
  }
  const uint64_t shared_cells = in.pool.size.count() / cell - taken.count() / cell;
  p.shared = Bytes(shared_cells * cell);
  p.xoff_threshold = Bytes(shared_cells / p.lossless_pgs * cell);
  p.xon_offset = Bytes(largest_mtu(in));
  p.ecn = suggest_ecn(fastest_port(in), p.xoff_threshold);
  p.config = in;
  set_lossless(p.config, p);
  return p;
}

std::string describe(const Plan& p) {
  const sw::SwitchConfig& c = p.config;
  const uint64_t cell = c.pool.cell.count();
  std::string s = fmt::format("Headroom per lossless PG (port {}, the largest need), reference §3.2:\n", p.need_port);
  s += p.need.describe();
  s += fmt::format("  planned: {} B, the first-principles need (the vendors' figures are for comparison)\n\n",
                   p.need.need.count());
  s += "Buffer (BUFFER_POOL, ingress_lossless_pool):\n";
  s += fmt::format("  headroom pool (xoff) = {} PGs ({} ports x {} lossless PGs) x {} B / over-subscription {} = {} B\n",
                   p.lossless_pgs, c.ports.size(), p.lossless_pgs / c.ports.size(), p.need.need.count(),
                   p.options.oversubscribe, p.headroom_pool.count());
  s += fmt::format("  shared = {} B buffer - {} B reserved - {} B headroom pool = {} B (whole {} B cells)\n\n",
                   c.pool.size.count(), p.reserved.count(), p.headroom_pool.count(), p.shared.count(), cell);
  s += "XOFF and XON (BUFFER_PROFILE of the lossless PGs):\n";
  s += fmt::format("  static_th (XOFF) = {} B shared / {} PGs, whole cells = {} B: every lossless PG can reach "
                   "XOFF at once before the shared pool is empty\n",
                   p.shared.count(), p.lossless_pgs, p.xoff_threshold.count());
  s += fmt::format("  xoff (headroom) = {} B; xon_offset = {} B, one largest frame below XOFF (NVIDIA mlx5 "
                   "port_buffer.c: xon_threshold = xoff_threshold - max_mtu)\n\n",
                   p.need.need.count(), p.xon_offset.count());
  s += "ECN (WRED_PROFILE green, egress queue bytes):\n";
  s += "  " + p.ecn.source + "\n";
  if (!p.ecn.cap.empty()) s += "  " + p.ecn.cap + "\n";
  s += fmt::format("  planned: Kmin {} B, Kmax {} B, Pmax {} %\n", p.ecn.kmin.count(), p.ecn.kmax.count(),
                   p.ecn.pmax_percent);
  s += "  " + ecn_comparison() + "\n";
  return s;
}

}  // namespace rtb::plan
