// How the switch's one buffer divides, in cells: reserved bytes of every (port, PG),
// headroom (a shared headroom pool, or every lossless (port, PG)'s own), and what is left
// shared. Used by validation (to refuse layouts that cannot work) and by the MMU.
#pragma once

#include <cstdint>

#include "switch/config.h"

namespace rtb::sw {

constexpr uint64_t cells_for(uint64_t bytes, uint64_t cell_bytes) {
  return (bytes + cell_bytes - 1) / cell_bytes;
}

struct BufferLayout {
  uint64_t cell_bytes = 0;
  uint64_t total_cells = 0;
  uint64_t reserved_cells = 0;  // sum of PG "size" over ports and PGs
  uint64_t headroom_cells = 0;  // the shared headroom pool, or the sum of per-PG "xoff"
  uint64_t shared_cells = 0;    // total - reserved - headroom (0 when they do not fit)
  bool fits = false;            // reserved + headroom < total
};

inline BufferLayout buffer_layout(const SwitchConfig& c) {
  BufferLayout l;
  l.cell_bytes = c.pool.cell.count() == 0 ? 1 : c.pool.cell.count();
  l.total_cells = c.pool.size.count() / l.cell_bytes;
  uint64_t per_port_reserved = 0, per_port_headroom = 0;
  for (int pg = 0; pg < kPriorities; ++pg) {
    per_port_reserved += cells_for(c.pg[pg].size.count(), l.cell_bytes);
    if (c.lossless_pg(pg)) per_port_headroom += cells_for(c.pg[pg].xoff.count(), l.cell_bytes);
  }
  l.reserved_cells = per_port_reserved * c.ports.size();
  l.headroom_cells = c.pool.xoff.count() > 0 ? cells_for(c.pool.xoff.count(), l.cell_bytes)
                                            : per_port_headroom * c.ports.size();
  l.fits = l.reserved_cells + l.headroom_cells < l.total_cells;
  l.shared_cells = l.fits ? l.total_cells - l.reserved_cells - l.headroom_cells : 0;
  return l;
}

// alpha x free, alpha = 2^dynamic_th (Broadcom dynamic threshold, SONiC dynamic_th).
constexpr uint64_t dynamic_limit(uint64_t free_cells, int dynamic_th) {
  return dynamic_th >= 0 ? free_cells << dynamic_th : free_cells >> -dynamic_th;
}

// The shared limit one PG reaches alone: static_th, or for a dynamic threshold the
// fixed point s = alpha x (shared - s), s = shared x alpha / (1 + alpha).
inline uint64_t single_pg_shared_limit_cells(const PgProfile& p, uint64_t shared_cells,
                                             uint64_t cell_bytes) {
  if (p.mode == ThresholdMode::kStatic) return cells_for(p.static_th.count(), cell_bytes);
  const double alpha = p.dynamic_th >= 0 ? static_cast<double>(1u << p.dynamic_th)
                                         : 1.0 / static_cast<double>(1u << -p.dynamic_th);
  return static_cast<uint64_t>(static_cast<double>(shared_cells) * alpha / (1.0 + alpha));
}

}  // namespace rtb::sw
