// The shared-buffer MMU: admission and accounting in cells for one switch (Broadcom-style,
// as SONiC configures it; reference §3.2 for the thresholds).
//
// Ingress, per (port, priority group): a frame fills the PG's reserved cells first, then
// shared cells up to the PG's shared limit (static_th, or dynamic: alpha x shared cells
// still free) while the shared buffer has room; a lossless PG then takes headroom cells
// up to its `xoff` bytes (and the shared headroom pool's room); a lossy PG drops.
// Egress, per (port, queue): lossy queues drop above their egress limit; lossless queues
// have none (their backpressure is PFC). Cells are released headroom first.
//
// Pools (buffer_layout.h): lossless PGs take cells from the lossless pool; with a lossy
// pool (BUFFER_POOL lossy_size > 0), lossy PGs take theirs from it, and the dynamic limits
// of lossy PGs and lossy queues are alpha x the lossy pool's free shared cells. Without
// it, everything is in the one pool. A frame's cells belong to its ingress PG's pool.
//
// XOFF is due when a lossless PG's shared use reaches its limit or it uses headroom; XON
// when its headroom is empty and its occupancy is back at or below the XOFF point minus
// xon_offset.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "switch/buffer_layout.h"
#include "switch/config.h"
#include "switch/drop_reason.h"

namespace rtb::sw {

struct PgUsage {
  uint64_t used_cells = 0;      // reserved + shared
  uint64_t headroom_cells = 0;
  uint64_t shared_watermark_cells = 0;
  uint64_t headroom_watermark_cells = 0;
};

struct PoolUsage {
  uint64_t shared_cells = 0;    // shared part in use
  uint64_t headroom_cells = 0;  // headroom in use (always 0 in the lossy pool)
  uint64_t used_cells = 0;      // everything in use (reserved + shared + headroom)
  uint64_t watermark_cells = 0;
  uint64_t headroom_watermark_cells = 0;
};

struct Admission {
  bool admitted = false;
  DropReason reason = DropReason::kCount;  // when not admitted
};

class Mmu {
 public:
  explicit Mmu(const SwitchConfig& config);

  Admission admit(uint16_t in_port, uint8_t pg, uint16_t out_port, uint8_t queue, uint32_t bytes);
  void release(uint16_t in_port, uint8_t pg, uint16_t out_port, uint8_t queue, uint32_t bytes);

  bool xoff_reached(uint16_t port, uint8_t pg) const;
  bool xon_reached(uint16_t port, uint8_t pg) const;
  // The shared limit of a PG now, in cells (static, or alpha x free shared cells).
  uint64_t shared_limit_cells(uint8_t pg) const;

  const PgUsage& pg_usage(uint16_t port, uint8_t pg) const { return pgs_[index(port, pg)]; }
  uint64_t queue_cells(uint16_t port, uint8_t queue) const { return queue_cells_[index(port, queue)]; }
  const PoolUsage& pool() const { return pools_[kLosslessPool]; }  // the lossless (or only) pool
  const PoolUsage& lossy_pool() const { return pools_[kLossyPool]; }  // all 0 without one
  const BufferLayout& layout() const { return layout_; }
  uint64_t cells(uint32_t bytes) const { return cells_for(bytes, layout_.cell_bytes); }

 private:
  static constexpr uint8_t kLosslessPool = 0, kLossyPool = 1;
  struct PgRule {
    bool lossless = false;
    uint8_t pool = kLosslessPool;
    ThresholdMode mode = ThresholdMode::kStatic;
    int dynamic_th = 0;
    uint64_t reserved = 0, static_limit = 0, headroom = 0, xon_offset = 0;
  };
  struct QueueRule {
    bool limited = false;  // lossy queues only
    uint8_t pool = kLosslessPool;  // whose free cells a dynamic limit measures
    ThresholdMode mode = ThresholdMode::kDynamic;
    int dynamic_th = 0;
    uint64_t static_limit = 0;
  };
  static size_t index(uint16_t port, uint8_t i) { return size_t{port} * kPriorities + i; }
  uint64_t shared_of(const PgUsage& u, const PgRule& r) const {
    return u.used_cells > r.reserved ? u.used_cells - r.reserved : 0;
  }
  uint64_t free_shared(uint8_t pool) const { return shared_cells_[pool] - pools_[pool].shared_cells; }
  uint64_t shared_limit(const PgRule& r) const;
  bool egress_full(uint16_t port, uint8_t queue, uint64_t c) const;
  bool take_shared(PgUsage& u, const PgRule& r, uint64_t c);
  bool take_headroom(PgUsage& u, const PgRule& r, uint64_t c);
  void note_use(uint8_t pool, int64_t delta);

  BufferLayout layout_;
  std::array<PgRule, kPriorities> pg_rules_{};
  std::array<QueueRule, kPriorities> queue_rules_{};
  std::vector<PgUsage> pgs_;
  std::vector<uint64_t> queue_cells_;
  std::array<uint64_t, 2> shared_cells_{};  // capacity of each pool's shared part
  std::array<PoolUsage, 2> pools_{};
};

}  // namespace rtb::sw
