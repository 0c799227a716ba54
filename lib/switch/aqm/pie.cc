// PIE (RFC 8033); the formulas are in pie.h and beside the code.
#include "switch/aqm/pie.h"

#include <algorithm>

namespace rtb::sw {

namespace {

// RFC 8033 §4.2: small adjustments while drop_prob is small, so that it ramps up gently.
double auto_tune(double p, double drop_prob) {
  if (drop_prob < 0.000001) return p / 2048;
  if (drop_prob < 0.00001) return p / 512;
  if (drop_prob < 0.0001) return p / 128;
  if (drop_prob < 0.001) return p / 32;
  if (drop_prob < 0.01) return p / 8;
  if (drop_prob < 0.1) return p / 2;
  return p;
}

double seconds(Time t) { return t.s_f(); }

}  // namespace

Pie::Pie(const PieProfile& p, Rate drain_rate, uint32_t mtu_bytes)
    : p_(p),
      drain_(drain_rate),
      two_mtu_bytes_(2ull * mtu_bytes),
      burst_allowance_(p.max_burst),
      next_update_(p.t_update) {}

// p = alpha·(qdelay − ref) + beta·(qdelay − qdelay_old), RFC 8033 §4.2.
void Pie::update(Time qdelay) {
  double p = p_.alpha_hz * (seconds(qdelay) - seconds(p_.qdelay_ref)) +
             p_.beta_hz * (seconds(qdelay) - seconds(qdelay_old_));
  p = auto_tune(p, drop_prob_);
  if (drop_prob_ >= 0.1 && p > 0.02) p = 0.02;  // §5.5
  drop_prob_ += p;
  if (qdelay == Time::zero() && qdelay_old_ == Time::zero()) drop_prob_ *= 0.98;
  drop_prob_ = std::clamp(drop_prob_, 0.0, 1.0);
  qdelay_old_ = qdelay;
  burst_allowance_ = burst_allowance_ > p_.t_update ? burst_allowance_ - p_.t_update : Time::zero();
  const Time half_ref = p_.qdelay_ref / 2;
  if (drop_prob_ == 0.0 && qdelay < half_ref && qdelay_old_ < half_ref) burst_allowance_ = p_.max_burst;  // §4.4
}

void Pie::catch_up(uint64_t queue_bytes, Time now) {
  if (now < next_update_) return;
  const Time qdelay = drain_.time_for(Bytes(queue_bytes));  // Little's law, §4.3
  while (next_update_ <= now) {
    update(qdelay);
    next_update_ += p_.t_update;
    // Idle and settled: further updates change nothing; skip to the last one due.
    if (qdelay == Time::zero() && drop_prob_ == 0.0 && burst_allowance_ == p_.max_burst && next_update_ <= now)
      next_update_ += p_.t_update * ((now - next_update_) / p_.t_update + 1);
  }
}

AqmVerdict Pie::decide(uint64_t queue_bytes, bool ect, Time now, Rng& rng) {
  catch_up(queue_bytes, now);
  if (burst_allowance_ > Time::zero()) return AqmVerdict::kPass;                       // §4.4
  if (qdelay_old_ < p_.qdelay_ref / 2 && drop_prob_ < 0.2) return AqmVerdict::kPass;  // §4.1
  if (queue_bytes <= two_mtu_bytes_) return AqmVerdict::kPass;
  if (drop_prob_ <= 0.0) return AqmVerdict::kPass;
  const bool hit = drop_prob_ >= 1.0 || rng.uniform() < drop_prob_;
  if (!hit) return AqmVerdict::kPass;
  return ect ? AqmVerdict::kMark : AqmVerdict::kDrop;
}

}  // namespace rtb::sw
