#include "plan/threshold_set.h"

namespace rtb::plan {

bool ThresholdSet::empty() const {
  return !kmin && !kmax && !pmax_percent && !xoff_threshold && !headroom && !headroom_pool && !xon_offset;
}

void apply(const ThresholdSet& t, sw::SwitchConfig& c) {
  if (t.headroom_pool) c.pool.xoff = *t.headroom_pool;
  for (int i = 0; i < sw::kPriorities; ++i) {
    if (c.lossless_pg(i)) {
      sw::PgProfile& pg = c.pg[i];
      if (t.xoff_threshold) {
        pg.mode = sw::ThresholdMode::kStatic;
        pg.static_th = *t.xoff_threshold;
      }
      pg.xoff = t.headroom.value_or(pg.xoff);
      pg.xon_offset = t.xon_offset.value_or(pg.xon_offset);
    }
    if (c.lossless_tc(i) && c.wred[i]) {
      sw::WredProfile& w = *c.wred[i];
      w.green_min_threshold = t.kmin.value_or(w.green_min_threshold);
      w.green_max_threshold = t.kmax.value_or(w.green_max_threshold);
      w.green_drop_probability = t.pmax_percent.value_or(w.green_drop_probability);
    }
  }
}

}  // namespace rtb::plan
