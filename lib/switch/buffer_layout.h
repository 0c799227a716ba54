// How the switch's buffer divides, in cells. The lossless pool (BUFFER_POOL size,
// SONiC ingress_lossless_pool): reserved bytes of its (port, PG)s, headroom (a shared
// headroom pool, or every lossless (port, PG)'s own), and what is left shared. The lossy
// pool (BUFFER_POOL lossy_size, SONiC egress_lossy_pool; config.h), when configured, is
// extra buffer: the lossy PGs' reserved bytes and the lossy shared part. Without it the
// lossy PGs reserve and share out of the one pool. Used by validation (to refuse layouts
// that cannot work), the MMU and the queue store (one slot per cell).
#pragma once

#include <cstdint>

#include "switch/config.h"

namespace rtb::sw {

constexpr uint64_t cells_for(uint64_t bytes, uint64_t cell_bytes) {
  return (bytes + cell_bytes - 1) / cell_bytes;
}

struct BufferLayout {
  uint64_t cell_bytes = 0;
  uint64_t total_cells = 0;     // BUFFER_POOL size
  uint64_t reserved_cells = 0;  // sum of PG "size" over ports and the PGs of this pool
  uint64_t headroom_cells = 0;  // the shared headroom pool, or the sum of per-PG "xoff"
  uint64_t shared_cells = 0;    // total - reserved - headroom (0 when they do not fit)
  bool fits = false;            // reserved + headroom < total
  // The lossy pool: present when lossy_size > 0.
  bool lossy_pool = false;
  uint64_t lossy_total_cells = 0;     // BUFFER_POOL lossy_size
  uint64_t lossy_reserved_cells = 0;  // sum of lossy PG "size" over ports
  uint64_t lossy_shared_cells = 0;    // lossy total - lossy reserved (0 when they do not fit)
  bool lossy_fits = true;             // lossy reserved < lossy total (true without the pool)

  uint64_t capacity_cells() const { return total_cells + lossy_total_cells; }
};

inline BufferLayout buffer_layout(const SwitchConfig& c) {
  BufferLayout l;
  l.cell_bytes = c.pool.cell.count() == 0 ? 1 : c.pool.cell.count();
  l.total_cells = c.pool.size.count() / l.cell_bytes;
  l.lossy_pool = c.pool.lossy_size.count() > 0;
  l.lossy_total_cells = c.pool.lossy_size.count() / l.cell_bytes;
  uint64_t per_port_reserved = 0, per_port_lossy_reserved = 0, per_port_headroom = 0;
  for (int pg = 0; pg < kPriorities; ++pg) {
    const uint64_t reserved = cells_for(c.pg[pg].size.count(), l.cell_bytes);
    if (c.lossless_pg(pg)) {
      per_port_reserved += reserved;
      per_port_headroom += cells_for(c.pg[pg].xoff.count(), l.cell_bytes);
    } else {
      (l.lossy_pool ? per_port_lossy_reserved : per_port_reserved) += reserved;
    }
  }
  l.reserved_cells = per_port_reserved * c.ports.size();
  l.headroom_cells = c.pool.xoff.count() > 0 ? cells_for(c.pool.xoff.count(), l.cell_bytes)
                                            : per_port_headroom * c.ports.size();
  l.fits = l.reserved_cells + l.headroom_cells < l.total_cells;
  l.shared_cells = l.fits ? l.total_cells - l.reserved_cells - l.headroom_cells : 0;
  l.lossy_reserved_cells = per_port_lossy_reserved * c.ports.size();
  l.lossy_fits = !l.lossy_pool || l.lossy_reserved_cells < l.lossy_total_cells;
  l.lossy_shared_cells =
      l.lossy_pool && l.lossy_fits ? l.lossy_total_cells - l.lossy_reserved_cells : 0;
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
