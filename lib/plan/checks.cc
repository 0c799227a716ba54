#include "plan/checks.h"

#include <fmt/format.h>

#include <algorithm>

#include "plan/planner.h"
#include "switch/buffer_layout.h"
#include "switch/validate.h"

namespace rtb::plan {
namespace {

using R = Check::Result;

class Checker {
 public:
  Checker(const sw::SwitchConfig& c, uint32_t small_packet_percent)
      : c_(c), layout_(sw::buffer_layout(c)), small_(small_packet_percent) {
    for (int t = sw::kPriorities - 1; t >= 0; --t) {
      if (c.lossless_tc(t)) tc_ = t;
    }
    pg_ = tc_ >= 0 ? c.maps.tc_to_pg[tc_] : -1;
    for (int pg = 0; pg < sw::kPriorities; ++pg) per_port_pgs_ += c.lossless_pg(pg) ? 1 : 0;
    pgs_ = per_port_pgs_ * c.ports.size();
  }

  std::vector<Check> run() {
    if (tc_ < 0) {
      add(R::kFail, "a lossless priority", "pfc_enable is empty: nothing to plan");
      return out_;
    }
    const sw::PgProfile& p = c_.pg[pg_];
    cell_ = layout_.cell_bytes;
    xoff_point_ = p.size.count() + sw::single_pg_shared_limit_cells(p, layout_.shared_cells, cell_) * cell_;
    check_ecn();
    check_buffer();
    check_headroom(p);
    check_headroom_pool(p);
    check_shared_pool(p);
    check_xon(p);
    for (const std::string& e : sw::validate(c_).errors) add(R::kFail, "the switch's own validation", e);
    return out_;
  }

 private:
  void add(R r, std::string what, std::string arithmetic) {
    out_.push_back({r, std::move(what), std::move(arithmetic)});
  }

  void check_ecn() {
    const std::optional<sw::WredProfile>& w = c_.wred[tc_];
    if (!w || !sw::ecn_marks_green(w->ecn)) {
      add(R::kWarn, "ECN", fmt::format("queue{} does not mark ECN: DCQCN gets no CNPs, only PFC slows senders", tc_));
      return;
    }
    const uint64_t kmin = w->green_min_threshold.count(), kmax = w->green_max_threshold.count();
    add(kmin < kmax ? R::kOk : R::kFail, "ECN min < ECN max", fmt::format("{} B < {} B", kmin, kmax));
    add(kmax < xoff_point_ ? R::kOk : R::kFail, "ECN max < XOFF",
        fmt::format("{} B < {} B (PG size {} B + shared limit {} B; ECN counts egress queue bytes, XOFF "
                    "one ingress PG's)", kmax, xoff_point_, c_.pg[pg_].size.count(),
                    xoff_point_ - c_.pg[pg_].size.count()));
    const uint32_t pmax = w->green_drop_probability;
    add(pmax > 0 && pmax <= 100 ? R::kOk : R::kFail, "ECN Pmax in 1..100 %",
        pmax == 0 ? "0 %: nothing is marked below Kmax" : fmt::format("{} %", pmax));
  }

  void check_buffer() {
    add(xoff_point_ < c_.pool.size.count() ? R::kOk : R::kFail, "XOFF < buffer",
        fmt::format("{} B < {} B", xoff_point_, c_.pool.size.count()));
  }

  // The terms only when short: the plan above them already shows the sum.
  void check_headroom(const sw::PgProfile& p) {
    std::string port;
    const sw::HeadroomNeed need = largest_need(c_, small_, &port);
    const bool ok = p.xoff >= need.need;
    std::string text = fmt::format("{} B {} {} B on port {} (NVIDIA mlx5 {} B, SONiC {} B)", p.xoff.count(),
                                   ok ? ">=" : "<", need.need.count(), port, need.mlx5.count(), need.sonic.count());
    if (!ok) {
      text += ":\n" + need.describe();
      text.pop_back();
    }
    add(ok ? R::kOk : R::kFail, "headroom >= the cable's need", text);
  }

  // A shared headroom pool is sized by what the cables need (each PG's xoff only caps it);
  // without one, every PG keeps its own xoff.
  void check_headroom_pool(const sw::PgProfile& p) {
    if (c_.pool.xoff.count() == 0) {
      const uint64_t all = pgs_ * p.xoff.count();
      add(layout_.fits ? R::kOk : R::kFail, "every PG's own headroom fits the buffer",
          fmt::format("{} PGs x {} B = {} B {} {} B buffer", pgs_, p.xoff.count(), all, layout_.fits ? "<" : ">=",
                      c_.pool.size.count()));
      return;
    }
    const uint64_t need = largest_need(c_, small_, nullptr).need.count();
    const uint64_t all = pgs_ * need;
    const uint64_t pool = c_.pool.xoff.count();
    const R r = pool >= all ? R::kOk : (pool >= need ? R::kWarn : R::kFail);
    std::string text = fmt::format("BUFFER_POOL xoff {} B {} {} PGs x {} B needed = {} B", pool,
                                   pool >= all ? ">=" : "<", pgs_, need, all);
    if (r == R::kWarn) {
      text += fmt::format(": lossless only while at most {} PG(s) use their headroom at once (over-subscribed "
                          "{:.2f}:1)", pool / need, static_cast<double>(all) / static_cast<double>(pool));
    }
    add(r, "the headroom pool holds every PG's headroom", text);
    add(layout_.fits ? R::kOk : R::kFail, "headroom pool + reserved < buffer",
        fmt::format("{} B + {} B {} {} B", layout_.headroom_cells * cell_, layout_.reserved_cells * cell_,
                    layout_.fits ? "<" : ">=", c_.pool.size.count()));
  }

  void check_shared_pool(const sw::PgProfile& p) {
    const uint64_t shared = layout_.shared_cells * cell_;
    if (p.mode == sw::ThresholdMode::kDynamic) {
      // N PGs at s = alpha (S - N s) each: s = alpha S / (1 + N alpha), N s < S.
      const double alpha = p.dynamic_th >= 0 ? static_cast<double>(1u << p.dynamic_th)
                                             : 1.0 / static_cast<double>(1u << -p.dynamic_th);
      const double each = alpha * static_cast<double>(shared) / (1.0 + static_cast<double>(pgs_) * alpha);
      add(R::kOk, "the shared pool cannot run out before a PG reaches XOFF",
          fmt::format("dynamic_th {} (alpha {:g}): with all {} PGs filling, each stops at alpha x S / (1 + N x "
                      "alpha) = {:.0f} B, together {:.0f} B < {} B shared", p.dynamic_th, alpha, pgs_, each,
                      each * static_cast<double>(pgs_), shared));
      return;
    }
    const uint64_t limit = sw::cells_for(p.static_th.count(), cell_) * cell_;
    const uint64_t all = pgs_ * limit;
    std::string text = fmt::format("{} PGs ({} ports x {}) x static_th {} B = {} B {} {} B shared", pgs_,
                                   c_.ports.size(), per_port_pgs_, limit, all, all <= shared ? "<=" : ">", shared);
    if (all > shared) {
      text += fmt::format(": the pool is empty once {} PG(s) are at XOFF; every other PG then takes headroom, and "
                          "sends XOFF, below its XOFF point", limit > 0 ? shared / limit : 0);
    }
    add(all <= shared ? R::kOk : R::kFail, "the shared pool cannot run out before a PG reaches XOFF", text);
  }

  void check_xon(const sw::PgProfile& p) {
    uint32_t mtu = 0;
    for (const sw::PortConfig& port : c_.ports) mtu = std::max({mtu, port.mtu, c_.peer_mtu(port)});
    const uint64_t xon = p.xon_offset.count();
    const R r = xon >= xoff_point_ ? R::kFail : (xon < mtu ? R::kWarn : R::kOk);
    add(r, "XON one frame or more below XOFF",
        fmt::format("MTU {} B <= xon_offset {} B < XOFF {} B{}", mtu, xon, xoff_point_,
                    xon < mtu && xon < xoff_point_ ? ": one frame crosses both, PFC frames flap" : ""));
  }

  const sw::SwitchConfig& c_;
  sw::BufferLayout layout_;
  uint32_t small_;
  int tc_ = -1;
  int pg_ = -1;
  uint64_t per_port_pgs_ = 0;
  uint64_t pgs_ = 0;
  uint64_t cell_ = 1;
  uint64_t xoff_point_ = 0;
  std::vector<Check> out_;
};

}  // namespace

std::vector<Check> check_thresholds(const sw::SwitchConfig& c, uint32_t small_packet_percent) {
  return Checker(c, small_packet_percent).run();
}

bool any_failed(const std::vector<Check>& checks) {
  for (const Check& c : checks) {
    if (c.result == Check::Result::kFail) return true;
  }
  return false;
}

std::string describe(const std::vector<Check>& checks) {
  std::string s;
  for (const Check& c : checks) {
    const char* tag = c.result == Check::Result::kOk ? "ok  " : c.result == Check::Result::kWarn ? "warn" : "FAIL";
    s += fmt::format("  {}  {}: {}\n", tag, c.what, c.arithmetic);
  }
  return s;
}

}  // namespace rtb::plan
