#include "switch/mmu.h"

#include <algorithm>

namespace rtb::sw {

Mmu::Mmu(const SwitchConfig& c)
    : layout_(buffer_layout(c)),
      pgs_(c.ports.size() * kPriorities),
      queue_cells_(c.ports.size() * kPriorities) {
  const uint64_t cell = layout_.cell_bytes;
  const uint8_t lossy_pool = layout_.lossy_pool ? kLossyPool : kLosslessPool;
  shared_cells_ = {layout_.shared_cells, layout_.lossy_shared_cells};
  for (int i = 0; i < kPriorities; ++i) {
    const PgProfile& p = c.pg[i];
    PgRule& r = pg_rules_[i];
    r.lossless = c.lossless_pg(i);
    r.pool = r.lossless ? kLosslessPool : lossy_pool;
    r.mode = p.mode;
    r.dynamic_th = p.dynamic_th;
    r.reserved = cells_for(p.size.count(), cell);
    r.static_limit = cells_for(p.static_th.count(), cell);
    r.headroom = r.lossless ? cells_for(p.xoff.count(), cell) : 0;
    r.xon_offset = cells_for(p.xon_offset.count(), cell);
    const EgressProfile& e = c.egress[i];
    QueueRule& q = queue_rules_[i];
    q.limited = !c.lossless_tc(i);
    q.pool = q.limited ? lossy_pool : kLosslessPool;
    q.mode = e.mode;
    q.dynamic_th = e.dynamic_th;
    q.static_limit = cells_for(e.static_th.count(), cell);
  }
}

uint64_t Mmu::shared_limit_cells(uint8_t pg) const { return shared_limit(pg_rules_[pg]); }

uint64_t Mmu::shared_limit(const PgRule& r) const {
  return r.mode == ThresholdMode::kStatic ? r.static_limit
                                          : dynamic_limit(free_shared(r.pool), r.dynamic_th);
}

bool Mmu::egress_full(uint16_t port, uint8_t queue, uint64_t c) const {
  const QueueRule& q = queue_rules_[queue];
  if (!q.limited) return false;
  const uint64_t limit = q.mode == ThresholdMode::kStatic
                             ? q.static_limit
                             : dynamic_limit(free_shared(q.pool), q.dynamic_th);
  return queue_cells_[index(port, queue)] + c > limit;
}

bool Mmu::take_shared(PgUsage& u, const PgRule& r, uint64_t c) {
  PoolUsage& pool = pools_[r.pool];
  const uint64_t before = shared_of(u, r);
  const uint64_t after = u.used_cells + c > r.reserved ? u.used_cells + c - r.reserved : 0;
  const uint64_t limit = shared_limit(r);
  if (after > before && (after > limit || pool.shared_cells + (after - before) > shared_cells_[r.pool]))
    return false;
  u.used_cells += c;
  pool.shared_cells += after - before;
  u.shared_watermark_cells = std::max(u.shared_watermark_cells, after);
  return true;
}

bool Mmu::take_headroom(PgUsage& u, const PgRule& r, uint64_t c) {
  PoolUsage& pool = pools_[kLosslessPool];
  if (!r.lossless || u.headroom_cells + c > r.headroom ||
      pool.headroom_cells + c > layout_.headroom_cells)
    return false;
  u.headroom_cells += c;
  pool.headroom_cells += c;
  u.headroom_watermark_cells = std::max(u.headroom_watermark_cells, u.headroom_cells);
  pool.headroom_watermark_cells = std::max(pool.headroom_watermark_cells, pool.headroom_cells);
  return true;
}

void Mmu::note_use(uint8_t pool_index, int64_t delta) {
  PoolUsage& pool = pools_[pool_index];
  pool.used_cells = static_cast<uint64_t>(static_cast<int64_t>(pool.used_cells) + delta);
  pool.watermark_cells = std::max(pool.watermark_cells, pool.used_cells);
}

Admission Mmu::admit(uint16_t in_port, uint8_t pg, uint16_t out_port, uint8_t queue, uint32_t bytes) {
  const uint64_t c = cells(bytes);
  if (egress_full(out_port, queue, c)) return {false, DropReason::kEgressLimit};
  PgUsage& u = pgs_[index(in_port, pg)];
  const PgRule& r = pg_rules_[pg];
  if (!take_shared(u, r, c) && !take_headroom(u, r, c)) {
    return {false, r.lossless ? DropReason::kHeadroomFull : DropReason::kIngressLimit};
  }
  queue_cells_[index(out_port, queue)] += c;
  note_use(r.pool, static_cast<int64_t>(c));
  return {true, DropReason::kCount};
}

void Mmu::release(uint16_t in_port, uint8_t pg, uint16_t out_port, uint8_t queue, uint32_t bytes) {
  const uint64_t c = cells(bytes);
  PgUsage& u = pgs_[index(in_port, pg)];
  const PgRule& r = pg_rules_[pg];
  PoolUsage& pool = pools_[r.pool];
  const uint64_t from_headroom = std::min(u.headroom_cells, c);
  u.headroom_cells -= from_headroom;
  pool.headroom_cells -= from_headroom;
  const uint64_t before = shared_of(u, r);
  u.used_cells -= c - from_headroom;
  pool.shared_cells -= before - shared_of(u, r);
  queue_cells_[index(out_port, queue)] -= c;
  note_use(r.pool, -static_cast<int64_t>(c));
}

bool Mmu::xoff_reached(uint16_t port, uint8_t pg) const {
  const PgUsage& u = pgs_[index(port, pg)];
  const PgRule& r = pg_rules_[pg];
  return r.lossless && (u.headroom_cells > 0 || shared_of(u, r) >= shared_limit_cells(pg));
}

bool Mmu::xon_reached(uint16_t port, uint8_t pg) const {
  const PgUsage& u = pgs_[index(port, pg)];
  const PgRule& r = pg_rules_[pg];
  const uint64_t limit = shared_limit_cells(pg);
  const uint64_t xon = r.reserved + (limit > r.xon_offset ? limit - r.xon_offset : 0);
  return u.headroom_cells == 0 && u.used_cells <= xon;
}

}  // namespace rtb::sw
